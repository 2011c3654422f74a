"""The combat declaration check: every battle of a pre-combat turn against the board, before
any die is rolled.

IAAPA Error Correction II: "A player must declare all combat prior to rolling any dice. The
exact number and type of attacking units, along with their country/territory or sea zone of
origin, must be listed for each declared combat. If any of this information is incorrect, it
is considered a CDE, and the entire battle is null and void and no portion of the results may
stand." Checked here, in order: where each battle is (:mod:`.sites`), that its units are at
their origins and not sent twice (:mod:`.origins`), that they can fight and reach it
(:mod:`.reach`), the transports (:mod:`.transports`), the planes' range and landing
(:mod:`.landing`) and the listed defenders (:mod:`.defenders`).
"""

from __future__ import annotations

from adjudicator.declarations.defenders import check_defenders
from adjudicator.declarations.findings import BY_LINE, Code, info_finding, warning_finding
from adjudicator.declarations.geometry import Movement, movement_of
from adjudicator.declarations.landing import check_landing
from adjudicator.declarations.origins import check_origins
from adjudicator.declarations.plan import Plan
from adjudicator.declarations.reach import check_reach
from adjudicator.declarations.sites import planned
from adjudicator.declarations.transports import check_transports
from adjudicator.diagnostics import Diagnostic, Rule, Severity
from adjudicator.notation.model import Battle, Turn
from adjudicator.position.model import Position
from adjudicator.position.serialize import POWER_NAMES
from adjudicator.powers import Power
from adjudicator.units import Units, UnitType


def attacker(turn: Turn, position: Position) -> Power:
    """The power making the attacks: the one the email names, else the one to move."""
    return turn.power or position.to_move


def check_declarations(
    turn: Turn, position: Position, *, power: Power | None = None
) -> tuple[Diagnostic, ...]:
    """Every finding about ``turn``'s combat declarations against ``position`` (the board at
    the start of the attacker's turn), in the order of the email's lines. The attacker is
    ``power``, else the power the email names, else the one to move."""
    if not turn.battles:
        return ()
    power = power or attacker(turn, position)
    found: list[Diagnostic] = []
    if power is not position.to_move:
        found.append(
            warning_finding(
                0,
                Rule.PRECOMBAT,
                f"the email is {POWER_NAMES[power]}'s turn, but the position has "
                f"{POWER_NAMES[position.to_move]} to move: the declarations are checked as "
                f"{POWER_NAMES[power]}'s",
                "check the position or the turn's title",
                Code.WRONG_POWER,
            )
        )
    movement = movement_of(position, power)
    _, located, plan = planned(turn, movement)
    found.extend(located)
    found.extend(check_origins(plan, movement))
    found.extend(check_reach(plan, movement))
    found.extend(check_transports(plan, movement))
    found.extend(check_landing(plan, movement))
    found.extend(check_defenders(plan, movement))
    found.extend(_support_totals(plan, movement))
    return tuple(sorted(found, key=BY_LINE))


def read_places(
    turn: Turn, position: Position, *, power: Power | None = None
) -> tuple[tuple[Battle, str], ...]:
    """Each battle whose written place fits several places (the notation's ``could_be``),
    with the one the orders make clear it is fought in, as :func:`check_declarations` reads
    it (:mod:`.sites`); a battle with none is left out (an error voids it)."""
    if not any(b.could_be for b in turn.battles):
        return ()
    movement = movement_of(position, power or attacker(turn, position))
    sites, _, _ = planned(turn, movement)
    return tuple((s.battle, s.space) for s in sites if s.battle.could_be)


def _support_totals(plan: Plan, movement: Movement) -> list[Diagnostic]:
    """A land battle's Total line that leaves out only the battleships giving support shots.

    The rules leave it open; the league's reading (README, "Rulings the rules leave open"):
    no CDE. Section II asks that "the exact number and type of attacking units, along with
    their country/territory or sea zone of origin, must be listed for each declared combat",
    and the origin line does that for the battleship; the Total line is a summary the rule
    book's example gives, and a supporting battleship is no unit of the land battle's force
    (it fires once in round 1 and "cannot itself be hit", facts sheet section 5). A forgotten
    support shot is a rolling error (Section III, BB Support Shots), not a declaration's."""
    found: list[Diagnostic] = []
    for site in plan.sites:
        battle = site.battle
        total = battle.total
        if site.is_sea or total is None or not battle.origins:
            continue
        attacker = battle.attacker
        if total.attacker.counts == attacker.counts:
            continue  # the Total line lists every attacker
        support = sum(
            s.origin.units.count(UnitType.BB)
            for s in plan.sorties
            if s.site.number == site.number
            and s.origin.place is not None
            and movement.is_sea(s.origin.place)
        )
        if not support:
            continue
        if total.attacker != attacker.minus(Units.of({UnitType.BB: support})):
            continue
        found.append(
            info_finding(
                total.line,
                Rule.CDE,
                f"battle #{site.number} ({site.space}): the Total line leaves out the {support} "
                "BB declared for a support shot; the origin lines list it with its sea zone, "
                "so the declaration stands",
                "list the support shot in the Total line too, and roll it in round 1 (a "
                "forgotten support shot is rolled afterwards, Error Correction III)",
                Code.SUPPORT_NOT_IN_TOTAL,
                also=(Rule.BB_SUPPORT,),
            )
        )
    return found


def void_battles(findings: tuple[Diagnostic, ...]) -> tuple[int, ...]:
    """The battles a combat declaration error voids, by number."""
    return tuple(sorted({n for f in findings if f.severity is Severity.ERROR for n in f.battles}))
