"""One battle round's dice weighed against the units that should have thrown them (IAAPA
Error Correction III, Rolling Errors), die by die.

Each part of the round is checked as the roller throws it: the AA gun's shots, the support
shots, a first strike, then each side's main roll, unit type by unit type, counting the dice
"from left to right". What the rule book says of each case:

- AA Guns: a ghost gun's dice are ignored (a hit re-rolls the battle from the next round; a
  miss "will be ignored and the battle will stand as is"); a forgotten gun's shots are rolled
  late, and a hit removes "the last aircraft (and its die roll)", right to left.
- BB Support Shots: a ghost shot is ignored; in round 1 the counts are adjusted, in a later
  round ("the generic ghost rule") a hit re-rolls from the next round; a forgotten shot is
  rolled late, and a hit re-rolls from round 2.
- Too many units: "start with the first listed die roll and sequentially, from left to right,
  take the correct number of dice".
- Too few units: "roll for the missing units" (submarines short in a first strike are
  missing first-strike shots, kept apart so they are asked for as a first strike).
- Wrong Units: "its roll will be ignored and the correct unit will be rolled for".

Dice for aircraft the AA gun shot down in the same roll are no error: the roller throws
every aircraft's dice with the AA shots, and the reading voids the downed ones'.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from adjudicator.battle.casualties import AIRCRAFT, aa_casualties
from adjudicator.battle.firing import AA_HITS_ON, SUPPORT_SHOT_HITS_ON
from adjudicator.rulings.dice import (
    AA,
    ATTACKER,
    BOMBARD,
    DEFENDER,
    FIRST_STRIKE,
    MAIN,
    RollDice,
    Thrown,
)
from adjudicator.rulings.forces import BattleForces
from adjudicator.rulings.model import AA_GUNS, BB_SUPPORT, TOO_FEW, TOO_MANY, WRONG_UNITS, Die
from adjudicator.units import CHART_ORDER, NO_UNITS, OrderOfLoss, Units, UnitType

U = UnitType


def dice_text(dice: Sequence[Thrown]) -> str:
    return " ".join(str(t.value) for t in dice)


def _dice(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


@dataclass
class Problem:
    """One case of the rule book met in the round."""

    rule: str
    text: str
    reroll: bool = False
    """The battle is re-rolled from the next round."""
    side: str = ""


@dataclass
class RoundKept:
    """A round's entries and the dice that stand, by part, as the engine plays them."""

    number: int
    rolls: list[RollDice]
    aa: list[Thrown] = field(default_factory=list)
    bombard: list[Thrown] = field(default_factory=list)
    subs: list[Thrown] = field(default_factory=list)
    main: dict[str, dict[UnitType, list[Thrown]]] = field(
        default_factory=lambda: {ATTACKER: {}, DEFENDER: {}}
    )
    extra: list[Thrown] = field(default_factory=list)
    """Dice that stand but the engine does not play (a forgotten gun's late shots, whose
    hits remove aircraft right to left before the round is played)."""

    def doc(self) -> dict[str, Any]:
        """The round as a battle document's round."""
        out: dict[str, Any] = {}
        if self.aa:
            out["aa"] = [t.value for t in self.aa]
        if self.bombard:
            out["bombard"] = [t.value for t in self.bombard]
        if self.subs:
            out["subs"] = [t.value for t in self.subs]
        for side in (ATTACKER, DEFENDER):
            rolled = {u.value: [t.value for t in d] for u, d in self.main[side].items() if d}
            if rolled:
                out[side] = rolled
        return out

    @property
    def kept(self) -> list[Die]:
        groups = [self.aa, self.bombard, self.subs]
        groups += [d for side in self.main.values() for d in side.values()]
        return [t.die for g in groups for t in g]

    @property
    def seqs(self) -> list[int]:
        return [r.seq for r in self.rolls]


@dataclass
class RoundCheck:
    """What the round's dice show against the units: the cases met, the dice dropped, and
    what is still to be rolled for it."""

    kept: RoundKept
    problems: list[Problem] = field(default_factory=list)
    dropped: list[Die] = field(default_factory=list)
    missing_units: dict[str, dict[UnitType, int]] = field(default_factory=dict)
    missing_aa: dict[UnitType, int] = field(default_factory=dict)
    missing_support: int = 0
    missing_first: int = 0
    """Attacking submarines whose first-strike shots were not rolled."""
    wrong_sides: set[str] = field(default_factory=set)

    @property
    def missing(self) -> bool:
        return bool(
            self.missing_units or self.missing_aa or self.missing_support or self.missing_first
        )

    @property
    def units_short(self) -> bool:
        """Units (main dice or first-strike shots) are still to be rolled: Too few units,
        the battle re-rolled from the next round whatever they throw."""
        return bool(self.missing_units or self.missing_first)


def _listed(rolls: Sequence[RollDice], fire: str, side: str | None = None) -> list[Thrown]:
    return [t for r in rolls for g in r.of(fire, side) for t in g.dice]


def _by_unit(rolls: Sequence[RollDice], side: str) -> dict[UnitType, list[Thrown]]:
    found: dict[UnitType, list[Thrown]] = {}
    for r in rolls:
        for g in r.of(MAIN, side):
            try:
                unit = UnitType(g.unit)
            except ValueError:
                continue
            found.setdefault(unit, []).extend(g.dice)
    return found


def check_round(
    forces: BattleForces,
    number: int,
    attackers: Units,
    defenders: Units,
    rolls: Sequence[RollDice],
    attacker_order: OrderOfLoss,
) -> RoundCheck:
    """Round ``number`` thrown in ``rolls`` against ``attackers`` and ``defenders`` (the
    units at its start)."""
    check = RoundCheck(RoundKept(number, list(rolls)))
    lost = _aa_shots(forces, number, attackers, rolls, attacker_order, check)
    _support_shots(forces, number, rolls, check)
    struck_first = _first_strike(forces, attackers, rolls, check)
    for side, units, facing in (
        (ATTACKER, attackers, defenders),
        (DEFENDER, defenders, attackers),
    ):
        _main(forces, side, units, facing, rolls, check, lost, struck_first)
    return check


def _aa_shots(
    forces: BattleForces,
    number: int,
    attackers: Units,
    rolls: Sequence[RollDice],
    order: OrderOfLoss,
    check: RoundCheck,
) -> Units:
    """The AA gun's shots; returns the aircraft they shot down."""
    shots = _listed(rolls, AA)
    aircraft = attackers.aircraft
    allowed = number == 1 and forces.aa_gun and aircraft > 0
    if shots and not allowed:
        why = (
            "an AA gun fires only before round 1"
            if number > 1
            else "there is no defending AA gun"
            if not forces.aa_gun
            else "no aircraft attack"
        )
        hit = any(t.value <= AA_HITS_ON for t in shots)
        check.dropped += [t.die for t in shots]
        outcome = (
            "it hit: the aircraft fire, the counts are adjusted"
            if hit
            else "it missed: ignored, the battle stands as is"
        )
        text = f"AA {dice_text(shots)} rolled in error ({why}), a ghost gun: {outcome}"
        check.problems.append(Problem(AA_GUNS, text, reroll=hit, side=DEFENDER))
        return NO_UNITS
    if not allowed:
        return NO_UNITS
    check.kept.aa = shots[:aircraft]
    if len(shots) > aircraft:
        extra = shots[aircraft:]
        check.dropped += [t.die for t in extra]
        hit = any(t.value <= AA_HITS_ON for t in extra)
        text = (
            f"{_dice(len(shots))} of AA for {aircraft} aircraft: the first {aircraft} stand, "
            f"the last {len(extra)} ({dice_text(extra)}) are ignored"
        )
        check.problems.append(Problem(AA_GUNS, text, reroll=hit, side=DEFENDER))
    elif len(shots) < aircraft:
        aimed = {u: 0 for u in AIRCRAFT}
        for r in rolls:
            for g in r.of(AA):
                target = UnitType(g.target) if g.target in ("FTR", "BMB") else U.FTR
                aimed[target] += len(g.dice)
        for unit in AIRCRAFT:
            short = attackers.count(unit) - aimed[unit]
            if short > 0:
                check.missing_aa[unit] = short
    hits = sum(1 for t in check.kept.aa if t.value <= AA_HITS_ON)
    return aa_casualties(attackers, hits, order) if hits else NO_UNITS


def _support_shots(
    forces: BattleForces, number: int, rolls: Sequence[RollDice], check: RoundCheck
) -> None:
    shots = _listed(rolls, BOMBARD)
    allowed = number == 1 and forces.support > 0 and forces.amphibious
    if shots and not allowed:
        hit = any(t.value <= SUPPORT_SHOT_HITS_ON for t in shots)
        check.dropped += [t.die for t in shots]
        if number > 1:
            why = f"left on in round {number}"
            outcome = (
                "it hit: the counts are adjusted" if hit else "it missed: ignored for this round"
            )
        else:
            why = "no battleship gives support shots in this battle"
            outcome = (
                "it hit: ignored, the counts adjusted" if hit else "it missed: the battle stands"
            )
        text = f"support shot {dice_text(shots)} rolled in error ({why}), a ghost BB: {outcome}"
        check.problems.append(Problem(BB_SUPPORT, text, reroll=hit and number > 1))
        return
    if not allowed:
        return
    check.kept.bombard = shots[: forces.support]
    if len(shots) > forces.support:
        extra = shots[forces.support :]
        check.dropped += [t.die for t in extra]
        text = (
            f"{_dice(len(shots))} of support for {forces.support} BB: the last "
            f"{len(extra)} ({dice_text(extra)}) are ghost shots, ignored"
        )
        check.problems.append(Problem(BB_SUPPORT, text))
    elif len(shots) < forces.support:
        check.missing_support = forces.support - len(shots)


def _first_strike(
    forces: BattleForces, attackers: Units, rolls: Sequence[RollDice], check: RoundCheck
) -> bool:
    shots = _listed(rolls, FIRST_STRIKE, ATTACKER)
    if not shots:
        return False
    subs = attackers.count(U.SUB) if forces.sea else 0
    if 0 < len(shots) < subs:
        # Not a main-roll shortfall: the missing shots are first-strike shots, rolled with
        # the roller's subs-first option (rolling.py asks for exactly those).
        missing = subs - len(shots)
        check.missing_first = missing
        check.kept.subs = shots
        text = (
            f"attacker first strike SUB: {_dice(len(shots))}{_where(shots)} for {subs} SUB: "
            f"{missing} not rolled"
        )
        check.problems.append(Problem(TOO_FEW, text, reroll=True, side=ATTACKER))
        return True
    check.kept.subs = _compare(check, ATTACKER, U.SUB, shots, {subs}, subs, 1, "first strike ")
    return subs > 0


def _main(
    forces: BattleForces,
    side: str,
    units: Units,
    facing: Units,
    rolls: Sequence[RollDice],
    check: RoundCheck,
    lost: Units,
    struck_first: bool,
) -> None:
    rolled = _by_unit(rolls, side)
    expected: dict[UnitType, set[int]] = {}
    for unit, count in units:
        per = forces.dice_per_unit(side, unit)
        if not per or (side == ATTACKER and unit is U.SUB and struck_first):
            continue
        allowed = {count * per}
        if side == ATTACKER and lost.count(unit):
            allowed.add((count - lost.count(unit)) * per)
        if unit is U.SUB and facing and facing.surface == 0:
            allowed.add(0)  # subs have nothing to hit: they may throw or not
        expected[unit] = allowed
    types = sorted(set(rolled) | set(expected), key=CHART_ORDER.__getitem__)
    for unit in types:
        per = forces.dice_per_unit(side, unit) or 1
        want = expected.get(unit, {0})
        kept = _compare(check, side, unit, rolled.get(unit, []), want, max(want), per, "")
        check.kept.main[side][unit] = kept


def _compare(
    check: RoundCheck,
    side: str,
    unit: UnitType,
    dice: list[Thrown],
    allowed: set[int],
    expected: int,
    per: int,
    label: str,
) -> list[Thrown]:
    """One unit type's dice against the dice it should have thrown (any number in
    ``allowed``; ``expected`` the most): the dice that stand. Too few records the units
    still to roll."""
    have = len(dice)
    name = f"{side} {label}{unit.value}"
    if have in allowed:
        return dice
    where = _where(dice)
    if expected == 0:
        check.dropped += [t.die for t in dice]
        check.wrong_sides.add(side)
        text = f"{name}: {_dice(have)} {dice_text(dice)}{where} but no such unit rolls: ignored"
        check.problems.append(Problem(WRONG_UNITS, text, reroll=True, side=side))
        return []
    if have > expected:
        extra = dice[expected:]
        check.dropped += [t.die for t in extra]
        text = (
            f"{name}: {_dice(have)}{where} for {expected // per} {unit.value}: the first "
            f"{expected} stand, the last {len(extra)} ({dice_text(extra)}) are dropped"
        )
        check.problems.append(Problem(TOO_MANY, text, reroll=True, side=side))
        return dice[:expected]
    units = -(-(expected - have) // per)
    check.missing_units.setdefault(side, {})[unit] = units
    text = f"{name}: {_dice(have)}{where} for {expected // per} {unit.value}: {units} not rolled"
    check.problems.append(Problem(TOO_FEW, text, reroll=True, side=side))
    return dice


def _where(dice: Sequence[Thrown]) -> str:
    seqs = sorted({t.die[0] for t in dice})
    return f" (entry {', '.join(f'#{s}' for s in seqs)})" if seqs else ""


def relabel_wrong_units(check: RoundCheck) -> None:
    """A side that rolled a wrong type and is short of another rolled the wrong unit for
    the right one: "the correct unit will be rolled for" is the Wrong Units remedy."""
    for problem in check.problems:
        if problem.rule == TOO_FEW and problem.side in check.wrong_sides:
            problem.rule = WRONG_UNITS


def rolled_units(forces: BattleForces, side: str, rolls: Sequence[RollDice]) -> Units:
    """The units of ``side`` the round's entries threw dice for (a first strike and a
    main roll of the same submarines count them once)."""
    main: dict[UnitType, int] = {}
    for unit, dice in _by_unit(rolls, side).items():
        per = forces.dice_per_unit(side, unit) or 1
        main[unit] = -(-len(dice) // per)
    if side == ATTACKER:
        struck = len(_listed(rolls, FIRST_STRIKE, ATTACKER))
        main[U.SUB] = max(main.get(U.SUB, 0), struck)
    return Units.of({u: n for u, n in main.items() if n})


def firing_units(forces: BattleForces, side: str, units: Units) -> Units:
    """The units of ``side`` that throw dice in a round's main roll."""
    return units.only(*(u for u, _ in units if forces.dice_per_unit(side, u)))
