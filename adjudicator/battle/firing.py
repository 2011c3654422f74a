"""The shots of one round, part by part: AA guns, support shots, first strike, main roll.

Each part checks its dice against the units entitled to throw them (:mod:`.dice`) and counts
hits; choosing casualties is :mod:`.casualties`' business and sequencing the engine's.

How AA dice map to aircraft. IAAPA Error Correction III, AA Guns, for a forgotten gun:
"Aircraft are removed from right to left. For example, if one AA hit occurs, it is the last
aircraft (and its die roll) that is removed". The rule identifies an aircraft by the
position of its die in the listing, so the engine does the same for AA shots that were
rolled: the AA dice are read left to right against the attacking aircraft in the order
their own dice are listed (chart order: fighters, then bombers), and a 1 removes the
aircraft in that position, with its battle die(s) if those were thrown in the same roll.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from adjudicator.battle.diagnostics import Diagnostic, Rule, error, info, warning
from adjudicator.battle.dice import check_dice, hits, next_round
from adjudicator.battle.forces import CHART_ORDER, NO_UNITS, Forces
from adjudicator.battle.setup import BattleSetup
from adjudicator.units import Side, UnitType

U = UnitType
AA_HITS_ON = 1
"""An AA gun hits on a 1 only (IAAPA Gentlemen's Agreements: "allowing an AA to hit on a 1
or a 2" is not allowed)."""
SUPPORT_SHOT_HITS_ON = 4
"""A battleship's support shot hits on 4 or less (its attack value)."""
NO_SHOTS: Mapping[UnitType, tuple[int, ...]] = MappingProxyType({})


@dataclass(frozen=True)
class Volley:
    """The hits of one part of a round, and whether a rolling error voids the next rounds.

    ``restricted`` hits came from submarines (they may take no aircraft); ``unrestricted``
    from everything else.
    """

    unrestricted: int = 0
    restricted: int = 0
    diagnostics: tuple[Diagnostic, ...] = ()
    reroll: bool = False

    @property
    def hits(self) -> int:
        """All hits of the volley."""
        return self.restricted + self.unrestricted


@dataclass(frozen=True)
class AaFire:
    """The AA shots before round 1: which aircraft they removed, by type and position."""

    lost: Forces = NO_UNITS
    shot: Mapping[UnitType, tuple[int, ...]] = field(default_factory=lambda: NO_SHOTS)
    """Positions (0-based, within the type's aircraft) of the aircraft shot down."""
    diagnostics: tuple[Diagnostic, ...] = ()
    reroll: bool = False


def _dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def aircraft_line(forces: Forces) -> tuple[tuple[UnitType, int], ...]:
    """The attacking aircraft in the order their dice are listed: (type, position)."""
    return tuple((unit, i) for unit in (U.FTR, U.BMB) for i in range(forces.count(unit)))


def fire_aa(
    number: int, setup: BattleSetup, attackers: Forces, dice: tuple[int, ...],
) -> AaFire:
    """AA fire: before round 1 of a land battle, one die per attacking aircraft, a 1 hits.

    Dice where no gun may fire (no AA, no aircraft, a later round, a sea battle) are a ghost
    gun's, never used. IAAPA Error Correction III, AA Guns: a ghost hit means "roll for the
    missing attacking aircraft, adjust the counts, and then re-roll the rest of the battle,
    starting with the next round"; a ghost miss "will be ignored and the battle will stand".
    """
    line = aircraft_line(attackers)
    gun = setup.is_land and setup.defender.count(U.AA) > 0
    if not (gun and line and number == 1):
        if not dice:
            return AaFire()
        hit = any(d == AA_HITS_ON for d in dice)
        why = ("AA fires only before round 1" if gun and line else
               "there is no defending AA gun" if not gun else "no aircraft attack")
        message = f"AA dice {list(dice)} rolled in error ({why}): ignored" + (
            f"; the ghost hit removes nothing: roll for any aircraft left out, "
            f"{next_round(number)}" if hit else "; the battle stands")
        note = error(number, Rule.AA_GUNS, message) if hit else warning(
            number, Rule.AA_GUNS, message)
        return AaFire(diagnostics=(note,), reroll=hit)
    check = check_dice(number, "AA", dice, len(line), remedy=False)
    notes = [d for d in check.diagnostics if d.rule is Rule.DICE_FACES]
    if check.extra:
        notes.append(warning(number, Rule.AA_GUNS, (
            f"{len(dice)} AA dice for {len(line)} attacking aircraft: the last "
            f"{check.extra} are ignored")))
    if check.missing:
        notes.append(error(number, Rule.AA_GUNS, (
            f"{check.missing} of {len(line)} aircraft were not shot at: roll the missing AA "
            "shots; if one hits, the last aircraft (and its die roll) is removed, right to "
            "left, and the battle is re-rolled from round 2; if all miss the battle stands")))
    shot: dict[UnitType, list[int]] = {}
    for (unit, position), die in zip(line, dice, strict=False):
        if die == AA_HITS_ON:
            shot.setdefault(unit, []).append(position)
    lost = Forces.of({unit: len(p) for unit, p in shot.items()})
    return AaFire(lost, MappingProxyType({u: tuple(p) for u, p in shot.items()}), tuple(notes))


def fire_support(number: int, setup: BattleSetup, dice: tuple[int, ...]) -> Volley:
    """Battleship support shots: round 1 of an amphibious assault, one die each, 4 or less.

    IAAPA Error Correction III, BB Support Shots: a ghost shot is ignored (and if it is rolled
    in round 2 or later and hits, the battle is re-rolled from the next round); a forgotten
    one is rolled late and, if it hits, the battle is re-rolled from round 2.
    """
    ships = setup.bombarding
    if not (ships and number == 1):
        if not dice:
            return Volley()
        hit = any(d <= SUPPORT_SHOT_HITS_ON for d in dice)
        why = "support shots are fired in round 1 only" if ships else (
            "only an amphibious assault's battleships give support shots")
        late = hit and number > 1
        message = f"support shots {list(dice)} rolled in error ({why}): ignored" + (
            f", the counts adjusted; {next_round(number)}" if late else "")
        note = (error if late else warning)(number, Rule.BB_SUPPORT, message)
        return Volley(diagnostics=(note,), reroll=late)
    check = check_dice(number, "support shots", dice, ships, remedy=False)
    notes = [d for d in check.diagnostics if d.rule is Rule.DICE_FACES]
    if check.extra:
        notes.append(warning(number, Rule.BB_SUPPORT, (
            f"{len(dice)} support shots for {ships} BB: the last {check.extra} are ignored")))
    if check.missing:
        notes.append(error(number, Rule.BB_SUPPORT, (
            f"{check.missing} support shot(s) forgotten: roll them; if one hits, take the "
            "extra defending casualty and re-roll the battle from round 2")))
    return Volley(unrestricted=hits(check.used, SUPPORT_SHOT_HITS_ON), diagnostics=tuple(notes))


def fire_first_strike(
    number: int, setup: BattleSetup, attackers: Forces, dice: tuple[int, ...],
) -> Volley:
    """The attacking subs rolled first ("the attacker MAY, at his discretion, roll for the
    sub first"); every hit is restricted (subs never hit aircraft)."""
    subs = attackers.count(U.SUB) if not setup.is_land else 0
    if not dice:
        return Volley()
    if not subs:
        return Volley(diagnostics=(error(number, Rule.WRONG_UNITS, (
            f"first-strike dice {list(dice)} but no attacking SUB "
            f"{'can fight on land' if setup.is_land else 'is in the battle'}: ignored")),))
    check = check_dice(number, "first strike SUB", dice, subs)
    value = setup.profile(Side.ATTACKER, U.SUB).attack or 0
    return Volley(restricted=hits(check.used, value), diagnostics=check.diagnostics,
                  reroll=not check.fits)


def fire_main(
    number: int, setup: BattleSetup, side: Side, forces: Forces,
    dice: Mapping[UnitType, tuple[int, ...]], *,
    skip: frozenset[UnitType] = frozenset(),
    optional: frozenset[UnitType] = frozenset(),
    shot: Mapping[UnitType, tuple[int, ...]] = NO_SHOTS,
) -> Volley:
    """One side's main roll: every unit with a value above 0 throws its dice.

    ``skip``: types that do not throw here (subs that struck first). ``optional``: types that
    may throw or not, having nothing they could hit (subs facing only aircraft). ``shot``:
    aircraft the AA removed; their dice may be in the roll (AA and round 1 thrown together),
    and are then dropped by position, or left out.
    """
    notes: list[Diagnostic] = []
    restricted = unrestricted = 0
    reroll = False
    name = side.value
    present = sorted({u for u, _ in forces} | set(shot), key=CHART_ORDER.__getitem__)
    for unit in sorted(set(dice) - set(present), key=CHART_ORDER.__getitem__):
        if dice[unit]:
            notes.append(error(number, Rule.WRONG_UNITS, (
                f"{name} {unit.value}: {_dice(len(dice[unit]))} but no {name} {unit.value} "
                "in the battle: ignored; roll for the units actually present")))
    for unit in present:
        count = forces.count(unit)
        stats = setup.profile(side, unit)
        value = (stats.attack if side is Side.ATTACKER else stats.defence) or 0
        per_unit = stats.attack_dice if side is Side.ATTACKER else 1
        thrown = dice.get(unit, ())
        expected = count * per_unit if value and unit not in skip else 0
        gone = shot.get(unit, ())
        if gone and len(thrown) == (count + len(gone)) * per_unit:
            drop = {p * per_unit + k for p in gone for k in range(per_unit)}
            thrown = tuple(d for i, d in enumerate(thrown) if i not in drop)
        if unit in optional and not thrown:
            expected = 0
        if not expected:
            if thrown:
                why = "struck first" if unit in skip else "has no battle value"
                notes.append(error(number, Rule.WRONG_UNITS, (
                    f"{name} {unit.value}: {_dice(len(thrown))}, but {unit.value} {why} in "
                    "this roll: ignored")))
            continue
        check = check_dice(number, f"{name} {count} {unit.value}", thrown, expected)
        notes.extend(check.diagnostics)
        reroll = reroll or not check.fits
        scored = hits(check.used, value)
        if unit is U.SUB:
            restricted += scored
        else:
            unrestricted += scored
    return Volley(unrestricted, restricted, tuple(notes), reroll)


def unused(number: int, what: str, rnd_dice: Mapping[UnitType, tuple[int, ...]]) -> tuple[
        Diagnostic, ...]:
    """An INFO note for main dice thrown when the other side had no unit left to fire at."""
    thrown = sum(len(d) for d in rnd_dice.values())
    if not thrown:
        return ()
    return (info(number, Rule.BATTLE_OVER, f"{what}: {_dice(thrown)} not used (no unit left "
                 "on the other side when the main roll was fired)"),)
