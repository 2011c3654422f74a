"""The shots of one round, part by part: AA guns, support shots, first strike, main roll.

Each part checks its dice against the units entitled to throw them (:mod:`.dice`) and counts
hits; choosing casualties is :mod:`.casualties`' business and sequencing the engine's.

AA fire (Classic combat sequence, facts sheet section 1; ``classic.xml`` "Choose AA
Casualties"): one die per attacking aircraft, each 1 a hit, and the attacker picks which
aircraft die, by his order of loss (:func:`~adjudicator.battle.casualties.aa_casualties`).
The dice are not matched to aircraft: the dice server labels each AA die with the aircraft
type it was thrown for, which says nothing about the aircraft a hit removes.

When the AA shots and round 1 are thrown in one roll, the shot-down aircraft's own battle
dice are in it too, and are void: "the attacker picks which plane dies, and there is no
return fire" (the AA gun fires before round 1, so a downed aircraft never fires). Within a
type the void dice are its last ones, right to left,
the way IAAPA Error Correction III removes an aircraft "and its die roll" for a forgotten
gun: the choice of the aircraft is the attacker's, the choice of its die is not, so no
player picks a die after seeing it (:func:`void_dice`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from adjudicator.battle.casualties import aa_casualties
from adjudicator.battle.dice import check_dice, hits, next_round
from adjudicator.battle.findings import error, info, warning
from adjudicator.battle.setup import BattleSetup
from adjudicator.diagnostics import Diagnostic, Rule
from adjudicator.units import CHART_ORDER, NO_UNITS, Side, Units, UnitType

U = UnitType
AA_HITS_ON = 1
"""An AA gun hits on a 1 only (IAAPA Gentlemen's Agreements: "allowing an AA to hit on a 1
or a 2" is not allowed)."""
SUPPORT_SHOT_HITS_ON = 4
"""A battleship's support shot hits on 4 or less (its attack value)."""


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
    """The AA shots before round 1: the aircraft the attacker lost to them, and findings."""

    lost: Units = NO_UNITS
    diagnostics: tuple[Diagnostic, ...] = ()
    reroll: bool = False


def _dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def fire_aa(
    number: int,
    setup: BattleSetup,
    attackers: Units,
    dice: tuple[int, ...],
) -> AaFire:
    """AA fire: before round 1 of a land battle, one die per attacking aircraft, a 1 hits,
    and the attacker's order of loss picks the aircraft each hit removes.

    Dice where no gun may fire (no AA, no aircraft, a later round, a sea battle) are a ghost
    gun's, never used. IAAPA Error Correction III, AA Guns: a ghost hit means "roll for the
    missing attacking aircraft, adjust the counts, and then re-roll the rest of the battle,
    starting with the next round"; a ghost miss "will be ignored and the battle will stand".
    """
    aircraft = attackers.aircraft
    gun = setup.is_land and setup.defender.count(U.AA) > 0
    if not (gun and aircraft and number == 1):
        if not dice:
            return AaFire()
        hit = any(d == AA_HITS_ON for d in dice)
        why = (
            "AA fires only before round 1"
            if gun and aircraft
            else "there is no defending AA gun"
            if not gun
            else "no aircraft attack"
        )
        message = f"AA dice {list(dice)} rolled in error ({why}): ignored" + (
            f"; the ghost hit removes nothing: roll for any aircraft left out, {next_round(number)}"
            if hit
            else "; the battle stands"
        )
        note = (
            error(number, Rule.AA_GUNS, message) if hit else warning(number, Rule.AA_GUNS, message)
        )
        return AaFire(diagnostics=(note,), reroll=hit)
    check = check_dice(number, "AA", dice, aircraft, remedy=False)
    notes = [d for d in check.diagnostics if d.rule is Rule.DICE_FACES]
    if check.extra:
        notes.append(
            warning(
                number,
                Rule.AA_GUNS,
                (
                    f"{len(dice)} AA dice for {aircraft} attacking aircraft: the last "
                    f"{check.extra} are ignored"
                ),
            )
        )
    if check.missing:
        notes.append(
            error(
                number,
                Rule.AA_GUNS,
                (
                    f"{check.missing} of {aircraft} aircraft were not shot at: roll the missing AA "
                    "shots; if one hits, the last aircraft (and its die roll) is removed, right to "
                    "left, and the battle is re-rolled from round 2; if all miss the battle stands"
                ),
            )
        )
    lost = aa_casualties(attackers, hits(check.used, AA_HITS_ON), setup.order(Side.ATTACKER))
    return AaFire(lost, tuple(notes))


def void_dice(
    thrown: tuple[int, ...],
    left: int,
    lost: int,
    per_unit: int,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A type's battle dice split into the survivors' and the shot-down aircraft's (void).

    Only when the roll holds dice for every aircraft of the type, shot down or not (AA and
    round 1 thrown together), are the last ``lost * per_unit`` dice void; a roll made after
    the AA shots holds the survivors' dice alone, and any other number is a rolling error
    the main roll reports.
    """
    if lost and len(thrown) == (left + lost) * per_unit:
        keep = left * per_unit
        return thrown[:keep], thrown[keep:]
    return thrown, ()


def drop_shot(
    setup: BattleSetup,
    attackers: Units,
    lost: Units,
    dice: Mapping[UnitType, tuple[int, ...]],
) -> tuple[Mapping[UnitType, tuple[int, ...]], tuple[tuple[UnitType, tuple[int, ...]], ...]]:
    """The attacker's main dice without those of the aircraft ``lost`` to the AA gun, and
    the void dice per type (``attackers`` are the survivors of the AA fire)."""
    if not lost:
        return dice, ()
    kept = dict(dice)
    void = []
    for unit, n in lost:
        if unit not in dice:
            continue
        per_unit = setup.profile(Side.ATTACKER, unit).attack_dice
        kept[unit], gone = void_dice(dice[unit], attackers.count(unit), n, per_unit)
        if gone:
            void.append((unit, gone))
    return MappingProxyType(kept), tuple(void)


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
        why = (
            "support shots are fired in round 1 only"
            if ships
            else ("only an amphibious assault's battleships give support shots")
        )
        late = hit and number > 1
        message = f"support shots {list(dice)} rolled in error ({why}): ignored" + (
            f", the counts adjusted; {next_round(number)}" if late else ""
        )
        note = (error if late else warning)(number, Rule.BB_SUPPORT, message)
        return Volley(diagnostics=(note,), reroll=late)
    check = check_dice(number, "support shots", dice, ships, remedy=False)
    notes = [d for d in check.diagnostics if d.rule is Rule.DICE_FACES]
    if check.extra:
        notes.append(
            warning(
                number,
                Rule.BB_SUPPORT,
                (f"{len(dice)} support shots for {ships} BB: the last {check.extra} are ignored"),
            )
        )
    if check.missing:
        notes.append(
            error(
                number,
                Rule.BB_SUPPORT,
                (
                    f"{check.missing} support shot(s) forgotten: roll them; if one hits, take the "
                    "extra defending casualty and re-roll the battle from round 2"
                ),
            )
        )
    return Volley(unrestricted=hits(check.used, SUPPORT_SHOT_HITS_ON), diagnostics=tuple(notes))


def fire_first_strike(
    number: int,
    setup: BattleSetup,
    attackers: Units,
    dice: tuple[int, ...],
) -> Volley:
    """The attacking subs rolled first ("the attacker MAY, at his discretion, roll for the
    sub first"); every hit is restricted (subs never hit aircraft)."""
    subs = attackers.count(U.SUB) if not setup.is_land else 0
    if not dice:
        return Volley()
    if not subs:
        return Volley(
            diagnostics=(
                error(
                    number,
                    Rule.WRONG_UNITS,
                    (
                        f"first-strike dice {list(dice)} but no attacking SUB "
                        f"{'can fight on land' if setup.is_land else 'is in the battle'}: ignored"
                    ),
                ),
            )
        )
    check = check_dice(number, "first strike SUB", dice, subs)
    value = setup.profile(Side.ATTACKER, U.SUB).attack or 0
    return Volley(
        restricted=hits(check.used, value), diagnostics=check.diagnostics, reroll=not check.fits
    )


def fire_main(
    number: int,
    setup: BattleSetup,
    side: Side,
    forces: Units,
    dice: Mapping[UnitType, tuple[int, ...]],
    *,
    skip: frozenset[UnitType] = frozenset(),
    optional: frozenset[UnitType] = frozenset(),
    shot: Units = NO_UNITS,
) -> Volley:
    """One side's main roll: every unit with a value above 0 throws its dice.

    ``skip``: types that do not throw here (subs that struck first). ``optional``: types that
    may throw or not, having nothing they could hit (subs facing only aircraft). ``shot``:
    aircraft the AA removed, whose void dice :func:`drop_shot` has taken out already; a type
    shot down to the last aircraft is still expected to throw nothing more.
    """
    notes: list[Diagnostic] = []
    restricted = unrestricted = 0
    reroll = False
    name = side.value
    present = sorted({u for u, _ in forces} | {u for u, _ in shot}, key=CHART_ORDER.__getitem__)
    for unit in sorted(set(dice) - set(present), key=CHART_ORDER.__getitem__):
        if dice[unit]:
            notes.append(
                error(
                    number,
                    Rule.WRONG_UNITS,
                    (
                        f"{name} {unit.value}: {_dice(len(dice[unit]))} but no {name} {unit.value} "
                        "in the battle: ignored; roll for the units actually present"
                    ),
                )
            )
    for unit in present:
        count = forces.count(unit)
        value = setup.hits_on(side, unit)
        per_unit = setup.dice_each(side, unit)
        thrown = dice.get(unit, ())
        expected = count * per_unit if value and unit not in skip else 0
        if unit in optional and not thrown:
            expected = 0
        if not expected:
            if thrown:
                why = (
                    "struck first"
                    if unit in skip
                    else "was shot down by the AA gun"
                    if not count
                    else "has no battle value"
                )
                notes.append(
                    error(
                        number,
                        Rule.WRONG_UNITS,
                        (
                            f"{name} {unit.value}: {_dice(len(thrown))}, but {unit.value} {why} in "
                            "this roll: ignored"
                        ),
                    )
                )
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


def unused(
    number: int, what: str, rnd_dice: Mapping[UnitType, tuple[int, ...]]
) -> tuple[Diagnostic, ...]:
    """An INFO note for main dice thrown when the other side had no unit left to fire at."""
    thrown = sum(len(d) for d in rnd_dice.values())
    if not thrown:
        return ()
    return (
        info(
            number,
            Rule.BATTLE_OVER,
            f"{what}: {_dice(thrown)} not used (no unit left "
            "on the other side when the main roll was fired)",
        ),
    )
