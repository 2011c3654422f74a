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

from adjudicator.battle.lowluck import split
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
        return split(self.power)[0]

    @property
    def remainder(self) -> int:
        return split(self.power)[1]

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
        volleys with their sure hits and remainder dice, in the order thrown.

        When the AA gun hits, the throw stops there: the downed aircraft do not fire, and
        which of them fell is the attacker's to say (by his order of loss), so the power his
        units fire with is known only then. The entry records the AA volley alone (with the
        AA group), and the round goes on in the attacker's next roll, for the survivors."""
        roll = self.roll
        fired = self.volleys
        recorded: list[dict[str, Any]] = []
        dice: list[int] = []
        hits = {"attacker": 0, "defender": 0}
        for volley in fired:
            thrown = draw(1) if volley.remainder else []
            data = volley.record(thrown)
            dice += thrown
            hits[volley.side] += data["hits"]
            recorded.append(data)
            if volley.fire == AA and data["hits"] and len(fired) > 1:
                break
        kept = {(v["fire"], v["side"]) for v in recorded}
        groups = []
        for each in roll.groups:
            if volley_of(each) not in kept:
                continue
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


def stopped_by_aa(data: Mapping[str, Any]) -> bool:
    """Whether a Low Luck entry holds the AA gun's hits alone, its round still to roll."""
    volleys = data.get("volleys") or []
    listed = [u for side in ("attacker", "defender") for u in data.get(side) or []]
    return (
        bool(volleys)
        and all(v.get("fire") == AA for v in volleys)
        and any(v.get("hits") for v in volleys)
        and any(u.get("unit") != "AA" for u in listed)
    )


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
    if stopped_by_aa(data):
        lines.append(
            "The AA gun hit, so nothing else was thrown: the attacker loses that many aircraft "
            "(his choice, by his order of loss) and rolls the round again for the units left"
        )
    return lines


__all__ = [
    "LowLuckRoll",
    "LowLuckVolley",
    "power_of",
    "stopped_by_aa",
    "volley_lines",
    "volleys",
]
