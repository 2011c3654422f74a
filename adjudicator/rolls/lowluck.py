"""A battle round by Low Luck: the hits each volley is sure of, and one die for the rest.

TripleA rule book, "Low Luck vs. Dice": "all of the attacker's units have their attack powers
added together. The total is then divided by the dice sides (6), and if there is any
remainder it is rolled for. The defender does the same with the defense powers of all their
units." (4 armour attacking: 12 power, 2 hits; 2 infantry and 1 armour defending: 7 power,
1 hit and a die that hits on 1.)

A round is laid out as a dice round is (:func:`adjudicator.rolls.battle.layout`: the same
groups, in the same order), and its groups are added up into **volleys**, each fired as one
Low Luck total, in the order they are thrown:

1. ``aa``: the defending AA gun, one shot at each attacking aircraft (power 1 a shot);
2. ``bombard``: the battleships' support shots (power 4 each);
3. the attacker's ``subs`` (their hits may not take aircraft) and his other ``units``;
4. the defender's ``subs`` and other ``units``.

Volleys are split where the hits are not interchangeable (an AA hit only takes aircraft, a
sub's hit never does), as the exact calculator splits them (:mod:`adjudicator.odds`), so
the two agree. Each volley records its ``power``, the hits it is ``sure`` of (power // 6),
the ``remainder`` (power % 6), the die thrown for the remainder when there is one (no die
when there is none), and its ``hits``. The entry's ``dice`` are those remainder dice, in
volley order; the standalone verifier recomputes every figure from the groups and the dice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.rolls.battle import SIDES, BattleRoll, Draw, Group
from adjudicator.units import UnitType

AA, BOMBARD, SUBS, UNITS = "aa", "bombard", "subs", "units"
VOLLEY_ORDER = (
    (AA, "defender"),
    (BOMBARD, "attacker"),
    (SUBS, "attacker"),
    (UNITS, "attacker"),
    (SUBS, "defender"),
    (UNITS, "defender"),
)
"""Every volley a round may fire, (fire, side), in the order thrown."""


def volley_of(group: Group) -> tuple[str, str]:
    """The volley a group's power is added to: (fire, side)."""
    if group.unit is UnitType.AA:
        return AA, group.side
    if group.label.get("fire") == BOMBARD:
        return BOMBARD, group.side
    return (SUBS if group.unit is UnitType.SUB else UNITS), group.side


def power_of(group: Group) -> int:
    """A group's Low Luck power: each die it would throw counts its number (at most 6)."""
    return group.units * group.dice_per_unit * max(0, min(group.hit_on, SIDES))


@dataclass(frozen=True)
class LowLuckVolley:
    """One Low Luck total: whose, which fire, and its power."""

    fire: str
    side: str
    power: int

    @property
    def sure(self) -> int:
        return self.power // SIDES

    @property
    def remainder(self) -> int:
        return self.power % SIDES

    def record(self, dice: Sequence[int]) -> dict[str, Any]:
        """The volley's entry data, given its die (none when there is no remainder)."""
        hits = self.sure + sum(die <= self.remainder for die in dice)
        return {
            "side": self.side,
            "fire": self.fire,
            "power": self.power,
            "sure": self.sure,
            "remainder": self.remainder,
            "dice": list(dice),
            "hits": hits,
        }


def volleys(groups: Sequence[Group]) -> tuple[LowLuckVolley, ...]:
    """The groups added up into their volleys, in the order thrown (empty ones left out)."""
    powers: dict[tuple[str, str], int] = {}
    for each in groups:
        key = volley_of(each)
        powers[key] = powers.get(key, 0) + power_of(each)
    return tuple(
        LowLuckVolley(fire, side, powers[fire, side])
        for fire, side in VOLLEY_ORDER
        if (fire, side) in powers
    )


@dataclass(frozen=True)
class LowLuckRoll:
    """A battle round the rules allow (:class:`BattleRoll`, laid out the same way), thrown
    by Low Luck: the request and its checks are the dice round's."""

    roll: BattleRoll

    @property
    def volleys(self) -> tuple[LowLuckVolley, ...]:
        return volleys(self.roll.groups)

    def record(self, by: str, draw: Draw) -> dict[str, Any]:
        """The entry's data: header, units as entered, the groups with their power, and the
        volleys with their sure hits and remainder dice, in the order thrown."""
        roll = self.roll
        fired = self.volleys
        dice = draw(sum(1 for v in fired if v.remainder))
        each_die = iter(dice)
        recorded, hits = [], {"attacker": 0, "defender": 0}
        for volley in fired:
            data = volley.record([next(each_die)] if volley.remainder else [])
            hits[volley.side] += data["hits"]
            recorded.append(data)
        groups = []
        for each in roll.groups:
            group = {**each.recorded, "power": power_of(each)}
            if each.dice_per_unit != 1:
                group["dice_each"] = each.dice_per_unit
            groups.append(group)
        return {
            **roll.listed(by),
            "groups": groups,
            "volleys": recorded,
            "dice": dice,
            "hits": hits,
        }


def volley_lines(data: Mapping[str, Any]) -> list[str]:
    """A Low Luck round's volleys as a player reads them."""
    lines = []
    for v in data.get("volleys", []):
        who = "Defender" if v.get("side") == "defender" else "Attacker"
        fire = {AA: "AA gun", BOMBARD: "support shots", SUBS: "subs", UNITS: "units"}.get(
            v.get("fire"), str(v.get("fire"))
        )
        roll = (
            f", and a die at {v['remainder']} or less: {v['dice'][0]}"
            if v.get("dice")
            else ", no remainder"
        )
        lines.append(
            f"{who} {fire}: power {v.get('power')} = {v.get('sure')} sure hit"
            f"{'' if v.get('sure') == 1 else 's'}{roll}; {v.get('hits')} hit"
            f"{'' if v.get('hits') == 1 else 's'}"
        )
    return lines


__all__ = ["LowLuckRoll", "LowLuckVolley", "power_of", "volley_lines", "volleys"]
