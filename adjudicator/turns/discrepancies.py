"""What the post-combat email writes, against what the dice and the orders give.

IAAPA Post Combat Orders: the final email gives "the results of combat, his non-combat moves, a
map update (This is a list that contains all territories that said country has units in and/or
possesses), and give a territory and IPC count. ... In the event of a discrepancy between the
non-combat moves and the map update, the non-combat moves take precedence." Error Correction V:
"If there is a dispute between listed non-combat moves and the map update the listed
non-combat moves will take precedence."

So the board follows the orders and the dice, never what is written about them. The dice are
the dice server's ("Valid dice rolls will be preserved as much as possible", Error Correction
I): a written result that is not the dice's is a finding. The map update and the count are
statements about the position the orders make: where they differ, the orders take precedence
(Section V) and the difference is a finding on the map update's or the count's line, for the
players to settle before the next turn is rolled (Error Correction VII: "It is the
responsibility of both players to ensure that all moves and map positions are correct").
"""

from __future__ import annotations

from adjudicator.battle.result import Outcome
from adjudicator.declarations.counts import check_counts
from adjudicator.diagnostics import Rule, Severity
from adjudicator.notation.model import CombatOutcome, CombatResult
from adjudicator.position.model import Position
from adjudicator.position.serialize import POWER_NAMES
from adjudicator.turns.findings import Finding
from adjudicator.turns.fronts import Front, TurnInPlay
from adjudicator.turns.table import clamp
from adjudicator.units import NO_UNITS, Units, UnitType

W = CombatOutcome
_WRITTEN: dict[Outcome, frozenset[CombatOutcome]] = {
    Outcome.ATTACKER_WINS: frozenset({W.WON}),
    Outcome.DEFENDER_WINS: frozenset({W.LOST}),
    Outcome.BOTH_DESTROYED: frozenset({W.BOTH_DESTROYED, W.LOST}),
    Outcome.ATTACKER_RETREATS: frozenset({W.RETREATED}),
    Outcome.CONTINUES: frozenset({W.RETREATED}),
}
"""The written outcomes that agree with each verdict."""


def _expected(front: Front, captured: bool) -> tuple[frozenset[CombatOutcome], str]:
    """The written outcomes that agree with how ``front`` was settled, and that in words."""
    if front.mode == "walk-in":
        return frozenset({W.WALKED_IN, W.WON}), "a walk-in"
    verdict = front.verdict
    if front.mode == "void" or verdict is None:
        return frozenset(), "not fought (no dice)"
    if front.mode == "raid":
        return frozenset({W.RAIDED}), f"a raid of {verdict.damage} IPCs"
    if verdict.outcome is Outcome.ATTACKER_WINS and not front.site.is_sea and not captured:
        return frozenset({W.WON, W.LOST}), "won by aircraft alone (no capture)"
    return _WRITTEN[verdict.outcome], verdict.outcome.value.replace("-", " ")


def _compare(play: TurnInPlay, result: CombatResult, front: Front, captured: bool) -> None:
    name = f"battle #{front.number} ({front.site.space})"
    agree, said = _expected(front, captured)
    verdict = front.verdict
    wrong: list[str] = []
    if result.outcome not in agree:
        wrong.append(f"written as {result.outcome.value}, the dice give {said}")
    if verdict is not None and front.mode == "battle":
        survivors = clamp(verdict.attacker_survivors, front.attackers)
        if result.survivors and result.survivors != survivors:
            wrong.append(
                f"{result.survivors} written as left, the dice leave {survivors or 'none'}"
            )
        losses = front.attackers.minus(survivors)
        if result.losses and result.losses != losses:
            wrong.append(f"{result.losses} written as lost, the dice take {losses or 'none'}")
        if result.retreat_to and front.end and result.retreat_to != front.end:
            wrong.append(f"retreat written to {result.retreat_to}, played to {front.end}")
    if verdict is not None and front.mode == "raid" and result.damage is not None:
        if result.damage != verdict.damage:
            wrong.append(f"{result.damage} IPCs of damage written, the dice give {verdict.damage}")
    if wrong:
        play.note(
            Severity.WARNING,
            Rule.DISCREPANCIES,
            Finding.RESULT_DIFFERS,
            f"{name}: {'; '.join(wrong)}; the position follows the dice",
            "correct the written result before the next turn is rolled",
            line=result.line,
            battles=(front.number,),
            also=(Rule.POST_COMBAT,),
        )


def check_results(play: TurnInPlay) -> None:
    """Every written result against its battle's settlement."""
    for result in play.post.results:
        front = next((f for f in play.fronts if f.number == result.number), None)
        if front is None or (result.territory and result.territory != front.site.space):
            front = next(
                (f for f in play.fronts if f.site.space == result.territory),
                front if result.territory is None else None,
            )
        if front is None:
            play.note(
                Severity.WARNING,
                Rule.POST_COMBAT,
                Finding.RESULT_UNDECLARED,
                f"a result for {result.territory or f'battle #{result.number}'}, where no battle "
                "was declared: it changes nothing",
                "report results only for the declared battles",
                line=result.line,
            )
            continue
        _compare(play, result, front, front.site.space in play.table.captured)


def _moves_by_place(play: TurnInPlay) -> dict[tuple[str, UnitType], list[int]]:
    """The lines of the non-combat moves into or out of each place, per unit type."""
    moved: dict[tuple[str, UnitType], list[int]] = {}
    for move in play.post.moves:
        for place in (move.origin, move.destination):
            for unit, _ in move.units:
                if place is not None:
                    moved.setdefault((place, unit), []).append(move.line)
    return moved


def _precedence(lines: list[int]) -> str:
    if not lines:
        return ""
    which = "move on line" if len(lines) == 1 else "moves on lines"
    verb = "takes" if len(lines) == 1 else "take"
    return f" (the non-combat {which} {', '.join(map(str, lines))} {verb} precedence)"


def check_map(play: TurnInPlay, after: Position) -> None:
    """The map update against the position the orders leave (orders take precedence)."""
    if not play.post.map:
        return
    mover = play.mover
    listed: dict[str, Units] = {}
    map_lines: dict[str, int] = {}
    for entry in play.post.map:
        listed[entry.place] = listed.get(entry.place, NO_UNITS) + entry.own(mover)
        map_lines.setdefault(entry.place, entry.line)
    moved = _moves_by_place(play)
    for place, units in listed.items():
        have = after.units_of(place, mover)
        if units != have:
            problem = f"lists {units or 'no units'}, the dice and orders leave {have or 'none'}"
        elif not units and after.owner(place) is not mover:
            problem = f"lists it as held, but {POWER_NAMES[mover]} holds no land or units there"
        else:
            continue
        differ = {u for u, _ in units + have if units.count(u) != have.count(u)}
        lines = sorted({n for u in differ for n in moved.get((place, u), [])})
        play.note(
            Severity.WARNING,
            Rule.DISCREPANCIES,
            Finding.MAP_DISAGREES,
            f"{place}: the map update (line {map_lines[place]}) {problem}; the position keeps "
            f"{have or 'none'}{_precedence(lines)}",
            "correct the map update before the next turn is rolled",
            line=map_lines[place],
        )
    expected = set(after.holdings(mover)) | set(after.territories_of(mover))
    missing = sorted(expected - set(listed))
    if missing:
        play.note(
            Severity.WARNING,
            Rule.POST_COMBAT,
            Finding.MAP_LEAVES_OUT,
            f"the map update leaves out {len(missing)} place(s) where {POWER_NAMES[mover]} has "
            f"units or land: {', '.join(missing)}; the position keeps them",
            "list every territory and sea zone with units, and every territory held",
            line=min(map_lines.values()),
        )


def check_count(play: TurnInPlay, after: Position) -> None:
    """The written territory and IPC count against the position (the position stands)."""
    play.found.extend(check_counts(after, play.mover, play.post.counts))
