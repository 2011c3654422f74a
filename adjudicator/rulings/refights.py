"""A battle re-fought after a combat declaration error (IAAPA Error Correction II): "The
attacker may then elect to re-roll the entire battle with the correct number and type of
units or he may elect not to fight the battle at all. He may not add additional attacking
units to the battle."

The correct units are the declared ones the board had: from each origin the declaration
lists, the units of each type it declared, no more than the origin held at the start of the
turn, and none that could not reach the battle from there on its own (a unit carried by a
transport is taken as declared). So a unit declared but not there, or out of range, is not
rolled again, and a unit not declared is never added. The re-fight's rolls are then
weighed round by round like any battle's (Error Correction III): rolling more of a type
than the corrected declaration is too many units, and more than the void declaration
listed is also adding units, ruled as such.

What the board cannot say is left as declared: which of several battles over-committed
units go to (each battle is held only to its origins' holdings), and how many units the
transports could carry (the declared ones held at the origin are taken).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from adjudicator.declarations.geometry import can_reach, movement_of
from adjudicator.diagnostics import Diagnostic, Rule, Severity
from adjudicator.notation import parse
from adjudicator.position import Position
from adjudicator.rulings.dice import ATTACKER
from adjudicator.rulings.forces import BattleForces
from adjudicator.rulings.model import CDE_NO_ADDED_UNITS
from adjudicator.rulings.record import Body, DeclaredBattle, power_named
from adjudicator.rulings.rounds import Problem, RoundCheck, rolled_units
from adjudicator.units import Units, UnitType


def corrected_battle(
    battle: DeclaredBattle, start: Position | None, rolls: tuple[Body, ...]
) -> DeclaredBattle | None:
    """``battle`` with the correct attacking units, fought with ``rolls``; None when the
    board or the declaration's origins cannot say what they are."""
    power = power_named(battle.submission["data"].get("power"))
    if start is None or power is None:
        return None
    turn = parse(str(battle.submission["data"].get("text", "")))
    declared = next((b for b in turn.battles if b.number == battle.number), None)
    if declared is None or not declared.origins:
        return None
    counts: dict[str, int] = {}
    movement = movement_of(start, power)
    for origin in declared.origins:
        if origin.place is None:
            return None
        held = start.units_of(origin.place, power)
        for unit, n in origin.units:
            take = min(n, held.count(unit))
            if (
                take
                and not origin.transports
                and not can_reach(movement, unit, origin.place, battle.territory)
            ):
                continue  # a unit that cannot reach the battle is none of its units
            if take:
                counts[unit.value] = counts.get(unit.value, 0) + take
    return replace(battle, attacker=counts, rolls=rolls)


def declared_units(battle: DeclaredBattle) -> Units:
    """The attacking units the declaration listed."""
    counts: dict[UnitType, int] = {}
    for name, n in battle.attacker.items():
        try:
            counts[UnitType(str(name).upper())] = int(n)
        except ValueError:
            continue
    return Units.of(counts)


def rule_added_units(check: RoundCheck, declared: Units, forces: BattleForces) -> None:
    """The re-fight's first round: each attacking type rolled beyond what the void
    declaration listed is units added, which the rule forbids; its extra dice are already
    dropped as too many or wrong units."""
    rolled = rolled_units(forces, ATTACKER, check.kept.rolls)
    added = [(unit, n) for unit, n in rolled if n > declared.count(unit)]
    for unit, n in reversed(added):
        listed = declared.count(unit)
        text = (
            f"{n} {unit.value} rolled in the battle re-fought, {listed} declared: he may not "
            "add additional attacking units to the battle; the dice of the units added are "
            "ignored"
        )
        check.problems.insert(0, Problem(CDE_NO_ADDED_UNITS, text, reroll=True, side=ATTACKER))


def refight_forces(battle: DeclaredBattle, start: Position) -> dict[str, dict[str, int]] | None:
    """What the first roll of ``battle`` fought again rolls, by side: the correct attackers
    (:func:`corrected_battle`) and the defenders the board has ("the defending units are
    what they are"), an AA gun only against attacking aircraft ("defending AA guns must be
    listed only when attacking air is involved"); None when the board cannot say."""
    power = power_named(battle.submission["data"].get("power"))
    correct = corrected_battle(battle, start, ())
    if correct is None or power is None:
        return None
    defending = {u.value: n for u, n in start.enemy_units(battle.territory, power).counts}
    if not {"FTR", "BMB"} & set(correct.attacker):
        defending.pop("AA", None)
    return {"attacker": dict(correct.attacker), "defender": defending}


def void_roll(
    number: int, territory: object, precombat: int, errors: Sequence[Mapping[str, object]]
) -> Diagnostic:
    """The finding on a roll of battle ``number`` that the declaration errors of pre-combat
    entry ``precombat`` void, made before the error is recognised (IAAPA Error Correction
    II: "the entire battle is null and void and no portion of the results may stand")."""
    said = "; ".join(str(f.get("message", "")) for f in errors)
    return Diagnostic(
        Severity.ERROR,
        Rule.CDE,
        f"battle #{number} ({territory}) is void: a combat declaration error in entry "
        f'#{precombat} ({said}): "the entire battle is null and void and no portion of the '
        'results may stand", and this roll does not count. To fight it again, send an '
        "error-recognition note through the dice roller, then roll the battle with the "
        "correct units; or do not fight it, and move its units in the non-combat move",
    )
