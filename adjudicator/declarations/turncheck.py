"""A whole turn email checked against the board: what ``pbem turn check FILE --json
--position FILE`` prints.

The report is the notation's version-1 report (:func:`adjudicator.notation.report`) with the
board's findings added to its ``diagnostics`` (same shape; a finding about battles also has
``"battles": [n, ...]``) and its ``summary`` recounted, plus two keys (adding keys keeps the
version): ``"void_battles"``, the battles a combat declaration error voids (IAAPA Error
Correction II), and, when post-combat orders were applied, ``"computed_counts"``, the mover's
``{"power", "territories", "ipcs"}`` in the position they leave. A battle whose written place
fits several (``could_be``, no ``territory``) gets the ``territory`` the check reads it as,
when the orders make it clear (Error Correction II: "if it is clear from the combat orders
where the battle is to occur ... then no CDE can be called").

Which position each part is checked against: combat moves against ``position`` (the start of
the attacker's turn); post-combat orders against the same position, with the email's own
combat moves when they come first (one whole turn in one email), else with ``precombat`` (the
pre-combat email of that turn) when given. When the post-combat orders come first (a USA
post-combat and a USSR pre-combat sent together), the combat moves are checked against the
position those orders leave, as the next power's when the same player moves it (an email
names one power; the USA-USSR turn is one player's). Retreat locations and sub withdrawals
written in the email (results, retreat notes, a defender's special orders) are checked against
the start of the turn too, with the combat moves when known (:mod:`.retreats`), and so are
the non-combat moves (:mod:`.noncombat`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.declarations.combat import (
    attacker,
    check_declarations,
    read_places,
    void_battles,
)
from adjudicator.declarations.counts import check_counts
from adjudicator.declarations.discrepancies import apply_post_combat
from adjudicator.declarations.findings import BY_LINE, Code, info_finding
from adjudicator.declarations.noncombat import check_non_combat
from adjudicator.declarations.purchases import check_purchases
from adjudicator.declarations.retreats import check_retreats
from adjudicator.declarations.returning import returning
from adjudicator.diagnostics import Diagnostic, Rule
from adjudicator.fastrecord import quick_init
from adjudicator.names import Names
from adjudicator.notation.jsonreport import diagnostic_report, summary, turn_report
from adjudicator.notation.model import Battle, Turn, TurnKind
from adjudicator.notation.parser import parse
from adjudicator.position.model import Position
from adjudicator.position.serialize import POWER_NAMES
from adjudicator.powers import Power


@quick_init
@dataclass(frozen=True)
class TurnCheck:
    """A turn checked against the board: the findings, the battles they void, and the
    position the turn leaves (``position`` unchanged if it has no post-combat orders)."""

    turn: Turn
    findings: tuple[Diagnostic, ...]
    position: Position
    mover: Power | None = None
    """The power whose post-combat orders were applied (None if there were none)."""
    places: tuple[tuple[Battle, str], ...] = ()
    """Each battle whose written place fits several, with the place it was read as."""

    @property
    def void_battles(self) -> tuple[int, ...]:
        """Numbers of the battles a combat declaration error voids."""
        return void_battles(self.findings)


def _first_line(turn: Turn) -> int:
    lines = [
        x.line
        for group in (turn.results, turn.moves, turn.placements, turn.map, turn.counts)
        for x in group
    ]
    return min(lines, default=0)


def _first_pre_line(turn: Turn) -> int | None:
    lines = [x.line for group in (turn.tech, turn.purchases, turn.battles) for x in group]
    return min(lines, default=None)


def check_turn(turn: Turn, position: Position, *, precombat: Turn | None = None) -> TurnCheck:
    """``turn`` checked against ``position``, the start of the turn it belongs to."""
    post = bool(turn.results or turn.moves or turn.placements or turn.map or turn.counts)
    if not post:
        pre = [*check_purchases(turn, position), *check_declarations(turn, position)]
        if turn.retreats or turn.withdrawals:  # a retreat note, or the defender's orders
            mover = position.to_move if turn.kind is TurnKind.SPECIAL_ORDERS else None
            moves = turn if turn.battles else precombat
            pre.extend(check_retreats(position, mover or attacker(turn, position), turn, moves))
        ordered = tuple(sorted(pre, key=BY_LINE))
        return TurnCheck(turn, ordered, position, places=read_places(turn, position))
    first_post = _first_line(turn)
    whole = bool(turn.battles) and min(b.line for b in turn.battles) < first_post
    first_pre = _first_pre_line(turn)
    pre_first = first_pre is not None and first_pre < first_post
    turn, returns = returning(turn, turn if whole else precombat)
    found: list[Diagnostic] = [
        info_finding(r.line, Rule.POST_COMBAT, r.message, r.suggestion, Code.ORIGIN_READ)
        for r in returns
    ]
    if pre_first:
        found.extend(check_purchases(turn, position))
    declared: tuple[Diagnostic, ...] = ()
    places: tuple[tuple[Battle, str], ...] = ()
    if whole:
        declared = check_declarations(turn, position)
        places = read_places(turn, position)
        found.extend(declared)
    applied = apply_post_combat(position, turn, precombat=turn if whole else precombat)
    overspent = any(f.code is Code.OVERSPENT for f in found)
    found.extend(f for f in applied.findings if not (overspent and f.code is Code.OVERSPENT))
    found.extend(check_counts(applied.position, applied.power, turn.counts))
    found.extend(check_retreats(position, applied.power, turn, turn if whole else precombat))
    found.extend(
        check_non_combat(
            position,
            applied.power,
            turn,
            turn if whole else precombat,
            void=void_battles(declared) if whole else None,
            expectation=applied.expectation,
        )
    )
    if first_pre is not None and not pre_first:
        after = applied.position
        same_player = after.to_move.alliance is applied.power.alliance
        power = after.to_move if same_player else None
        found.extend(check_purchases(turn, after, power=power))
        if turn.battles:
            found.extend(check_declarations(turn, after, power=power))
            places = read_places(turn, after, power=power)
    ordered = tuple(sorted(found, key=BY_LINE))
    return TurnCheck(turn, ordered, applied.position, applied.power, places)


def check_report(
    text: str,
    position: Position,
    *,
    precombat: str | None = None,
    names: Names | None = None,
    read: Turn | None = None,
    precombat_read: Turn | None = None,
) -> dict[str, Any]:
    """The turn report of ``text`` with the findings against ``position`` added.

    ``precombat`` is the text of the same turn's pre-combat email, for a post-combat email
    whose combat moves it does not repeat (optional: without it, the map update is weighed
    against the post-combat orders alone). ``read`` is ``parse(text)`` when the caller has
    it already (it is not read twice), and ``precombat_read`` is ``parse(precombat)``."""
    turn = read if read is not None else parse(text, names=names)
    before = precombat_read
    if before is None and precombat is not None:
        before = parse(precombat, names=names)
    checked = check_turn(turn, position, precombat=before)
    turn = checked.turn  # the moves as read: an origin read from its battle (.returning)
    report = turn_report(turn)
    places = {id(battle): space for battle, space in checked.places}
    report["battles"] = [
        {"number": obj["number"], "territory": places[id(battle)], **obj}
        if id(battle) in places
        else obj
        for battle, obj in zip(turn.battles, report["battles"], strict=True)
    ]
    origins_read = {f.line for f in checked.findings if f.code is Code.ORIGIN_READ}
    diagnostics = (
        *(d for d in turn.diagnostics if not (d.code == "no-origin" and d.line in origins_read)),
        *checked.findings,
    )
    report["diagnostics"] = [diagnostic_report(d) for d in sorted(diagnostics, key=BY_LINE)]
    report["summary"] = summary(diagnostics)
    report["void_battles"] = list(checked.void_battles)
    if checked.mover is not None:
        mover = checked.mover
        report["computed_counts"] = {
            "power": POWER_NAMES[mover],
            "territories": checked.position.territory_count(mover),
            "ipcs": checked.position.ipc_count(mover),
        }
    return report
