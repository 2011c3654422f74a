"""Make-up rolls: a roll of exactly what a round lacks completes it (IAAPA Error Correction
III: "simply roll for the missing units", "roll for the missing shots", "simply roll for the
missing shot"), its dice joining the round's.

A forgotten AA gun's late hits remove aircraft "from right to left. For example, if one AA
hit occurs, it is the last aircraft (and its die roll) that is removed": the last aircraft
as the roll listed them, whatever the attacker's order of loss, since the die decides it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.battle.firing import AA_HITS_ON, SUPPORT_SHOT_HITS_ON
from adjudicator.rulings.dice import AA, ATTACKER, BOMBARD, FIRST_STRIKE, MAIN, RollDice, Thrown
from adjudicator.rulings.forces import BattleForces
from adjudicator.rulings.model import AA_GUNS, BB_SUPPORT, TOO_FEW, WRONG_UNITS, Die
from adjudicator.rulings.rounds import Problem, RoundCheck, RoundKept, dice_text
from adjudicator.units import CHART_ORDER, NO_UNITS, Units, UnitType


def make_up_kind(check: RoundCheck, roll: RollDice, forces: BattleForces) -> str | None:
    """Whether ``roll`` rolls exactly what the round still lacks: ``units`` (the missing
    units), ``first`` (the missing first-strike shots, thrown with the subs-first option),
    ``aa`` (the forgotten AA shots) or ``support`` (the forgotten support shots)."""
    main, aa = roll.of(MAIN), roll.of(AA)
    bombard, first = roll.of(BOMBARD), roll.of(FIRST_STRIKE)
    if first:
        subs = all(g.side == ATTACKER and g.unit == "SUB" for g in first)
        exact = sum(len(g.dice) for g in first) == check.missing_first
        whole = len(first) == len(roll.groups)
        return "first" if check.missing_first and subs and exact and whole else None
    if check.missing_units and main and not aa and not bombard:
        supplied: dict[str, dict[UnitType, int]] = {}
        for g in main:
            try:
                unit = UnitType(g.unit)
            except ValueError:
                return None
            per = forces.dice_per_unit(g.side, unit) or 1
            supplied.setdefault(g.side, {})[unit] = len(g.dice) // per
        if supplied == check.missing_units:
            return "units"
    if check.missing_aa and aa and not main and not bombard:
        if sum(len(g.dice) for g in aa) == sum(check.missing_aa.values()):
            return "aa"
    if check.missing_support and not aa and not forces.sea:
        ships = [g for g in (*main, *bombard) if g.unit == "BB" and g.side == ATTACKER]
        if ships and len(ships) == len(main) + len(bombard):
            if sum(len(g.dice) for g in ships) == check.missing_support:
                return "support"
    return None


def aircraft_right_to_left(kept: RoundKept, hits: int) -> tuple[Units, list[Die]]:
    """IAAPA Error Correction III, a forgotten AA gun that hits: "Aircraft are removed from
    right to left. For example, if one AA hit occurs, it is the last aircraft (and its die
    roll) that is removed". The aircraft removed and their dice, taken off ``kept``."""
    blocks: list[tuple[UnitType, list[Thrown]]] = []
    for r in kept.rolls:
        for g in r.of(MAIN, ATTACKER):
            if g.unit not in ("FTR", "BMB"):
                continue
            unit = UnitType(g.unit)
            per = g.per_unit
            for i in range(0, len(g.dice), per):
                blocks.append((unit, list(g.dice[i : i + per])))
    removed: dict[UnitType, int] = {}
    dropped: list[Die] = []
    for unit, block in blocks[::-1][:hits]:
        removed[unit] = removed.get(unit, 0) + 1
        dropped += [t.die for t in block]
        gone = {t.die for t in block}
        kept.main[ATTACKER][unit] = [
            t for t in kept.main[ATTACKER].get(unit, []) if t.die not in gone
        ]
    return Units.of(removed), sorted(dropped)


def missing_listing(missing: Mapping[UnitType, int]) -> list[dict[str, Any]]:
    return [
        {"unit": u.value, "count": n}
        for u, n in sorted(missing.items(), key=lambda kv: CHART_ORDER[kv[0]])
        if n
    ]


def absorb(check: RoundCheck, kind: str, roll: RollDice) -> Units:
    """Put a make-up roll of ``kind`` into the round it completes; returns the aircraft a
    forgotten gun's late hits removed."""
    kept = check.kept
    kept.rolls.append(roll)
    where = f"entry #{roll.seq}"
    if kind == "units":
        for g in roll.of(MAIN):
            unit = UnitType(g.unit)
            kept.main[g.side].setdefault(unit, []).extend(g.dice)
        check.missing_units = {}
        for p in check.problems:
            if p.rule in (TOO_FEW, WRONG_UNITS):
                p.text += f" (rolled in {where})"
        return NO_UNITS
    dice = [t for g in roll.groups for t in g.dice]
    if kind == "first":
        check.missing_first = 0
        kept.subs.extend(dice)
        for p in check.problems:
            if p.rule == TOO_FEW and p.side == ATTACKER and "first strike" in p.text:
                p.text += (
                    f" (rolled in {where}: {dice_text(dice)}, read as this round's first strike)"
                )
        return NO_UNITS
    if kind == "aa":
        check.missing_aa = {}
        hits = sum(1 for t in dice if t.value <= AA_HITS_ON)
        kept.extra.extend(dice)
        text = f"AA gun forgotten: its shots rolled in {where}: {dice_text(dice)}"
        removed = NO_UNITS
        if hits:
            removed, dropped = aircraft_right_to_left(kept, hits)
            check.dropped += dropped
            text += (
                f": {hits} hit(s): the last aircraft ({removed.label()}) and their dice are "
                "removed, right to left"
            )
        else:
            text += ": all miss, the original battle stands"
        check.problems.append(Problem(AA_GUNS, text, reroll=hits > 0))
        return removed
    check.missing_support = 0
    hit = any(t.value <= SUPPORT_SHOT_HITS_ON for t in dice)
    kept.bombard.extend(dice)
    text = f"support shot forgotten: rolled in {where}: {dice_text(dice)}" + (
        ": a hit, the extra defending casualty taken"
        if hit
        else ": a miss, the original battle stands"
    )
    check.problems.append(Problem(BB_SUPPORT, text, reroll=hit))
    return NO_UNITS
