"""What a battle roll throws, in what order, and the entry data that records it.

IAAPA "Using the Dice Server": the attacker enters the header (game, round, turn, country,
battle) and "the exact number and types of attacking and defending units"; the server
lists the dice "in the order that they were thrown" (Error Correction III counts them
left to right), so the order here is part of the record:

1. defending AA guns, one die per attacking aircraft, a group per aircraft type in the
   order the aircraft are listed (hit on 1; each group labelled with the ``target`` it was
   thrown for, which is not the aircraft a hit removes: the attacker picks that, see
   :func:`adjudicator.battle.casualties.aa_casualties`);
2. battleship support shots (``bombard``: one die per BB, hit on 4 or less);
3. the attacking units in the order listed;
4. the defending units in the order listed.

``subs-first`` throws only the attacking submarines (the attacker "MAY ... roll for the sub
first" and ask the defender for the casualty); ``defenders-only`` throws only the defence
(the roller's "defenders only" mode of Error Correction III).

Each group's ``hits`` counts its dice at or under ``hit_on`` as thrown: how the round reads
(aircraft the AA gun downed do not fire) is :func:`adjudicator.rolls.replay.read_roll`'s.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NamedTuple

from adjudicator.battle.casualties import AIRCRAFT
from adjudicator.battle.firing import AA_HITS_ON, SUPPORT_SHOT_HITS_ON
from adjudicator.names import power_label
from adjudicator.powers import Power
from adjudicator.units import UNIT_STATS, Technology, UnitStats, UnitType, unit_profile

Draw = Callable[[int], list[int]]
"""The dice server's dice: ``draw(n)`` gives the next ``n`` dice of the entry, in the order
thrown. The engine never makes a die."""

Listing = tuple[tuple[UnitType, int], ...]
"""Units as a player listed them: (type, count) pairs in the order entered, which is the
order their dice are thrown."""

SIDES = 6
"""Battle dice are six-sided."""

COMBAT_VALUES: Mapping[str, tuple[int, int]] = MappingProxyType(
    {
        unit.name: (stats.attack or 0, stats.defence)
        for unit, stats in UNIT_STATS.items()
        if stats.defence is not None
    }
)
"""A&A 2nd edition combat values, (attack, defence), of the units that roll in a battle
round (INF 1/2, ARM 3/2, FTR 3/4, BMB 4/1, TRN 0/1, SUB 2/2, AC 1/3, BB 4/4). AA guns fire
only as described above."""

BATTLE_UNITS = frozenset(UnitType[name] for name in COMBAT_VALUES)
"""The units a battle roll lists on either side (an AA gun too, on defence)."""

ATTACKER_TECH: Mapping[str, Technology] = MappingProxyType(
    {"heavy-bombers": Technology.HEAVY_BOMBERS, "super-subs": Technology.SUPER_SUBS}
)
"""The options that stand for the attacker's technology."""
DEFENDER_TECH: Mapping[str, Technology] = MappingProxyType({"jet-fighters": Technology.JET_POWER})
"""The options that stand for the defender's technology."""

OPTIONS: Mapping[str, str] = MappingProxyType(
    {
        "subs-first": "throw only the attacking submarines (their opening shot)",
        "defenders-only": "throw only the defending units",
        "heavy-bombers": "the attacker has Heavy Bombers: each attacking BMB throws 3 dice",
        "super-subs": "the attacker has Super Subs: attacking SUBs hit on 3 or less",
        "jet-fighters": "the defender has Jet Power: defending FTRs hit on 5 or less",
    }
)
"""Every option of a battle roll, with what it does."""


class RollRuleError(ValueError):
    """A roll the rules refuse before any die: ``field`` names the request's field that is
    wrong, ``problem`` says why in a player's words."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


@dataclass(frozen=True)
class RollHeader:
    """What every roll states besides its dice: IAAPA "all header information". The round
    and turn are as entered ("If you enter the wrong Round Number, simply continue the
    sequence"); the power is recorded by its league name (:func:`power_label`)."""

    round: int
    turn: int
    power: Power
    comment: str = ""

    def data(self, by: str) -> dict[str, Any]:
        """The header's part of an entry's data."""
        out: dict[str, Any] = {
            "round": self.round,
            "turn": self.turn,
            "country": _LABELS[self.power],
            "by": by,
            "sides": SIDES,
        }
        if self.comment:
            out["comment"] = self.comment
        return out


class Group(NamedTuple):
    """One labelled run of dice: who throws, with what, and what counts as a hit.

    A tuple, made by :func:`group`: a roll makes several per request, on the hot path."""

    side: str
    unit: UnitType
    units: int
    """How many units throw (the entry's ``count``)."""
    dice_per_unit: int
    hit_on: int
    label: Mapping[str, str]
    recorded: Mapping[str, Any]
    """The group's entry data but its dice and hits (:meth:`BattleRoll.record` copies it)."""

    @property
    def dice_count(self) -> int:
        """How many dice the group throws."""
        return self.units * self.dice_per_unit


def group(
    side: str,
    unit: UnitType,
    count: int,
    dice_per_unit: int,
    hit_on: int,
    label: Mapping[str, str],
) -> Group:
    """A :class:`Group`, its recorded part made once (``_value_`` is the enum's plain
    attribute; ``.value`` is a slower descriptor)."""
    recorded = {"side": side, "unit": unit._value_, "count": count, "hit_on": hit_on, **label}
    return Group(side, unit, count, dice_per_unit, hit_on, label, recorded)


NO_LABEL: Mapping[str, str] = MappingProxyType({})
BOMBARD_LABEL: Mapping[str, str] = MappingProxyType({"fire": "bombard"})
_TARGETS = {unit: MappingProxyType({"target": unit.value}) for unit in AIRCRAFT}


def _listed(named: tuple[tuple[str, int], ...]) -> list[dict[str, Any]]:
    return [{"unit": unit, "count": count} for unit, count in named]


_LABELS = {power: power_label(power) for power in Power}


@dataclass(frozen=True)
class BattleRoll:
    """A battle roll the rules allow, laid out and ready to throw inside the append."""

    header: RollHeader
    battle: str
    attacker: Listing
    defender: Listing
    bombard: Listing
    options: tuple[str, ...]
    groups: tuple[Group, ...]
    dice_count: int = field(init=False, compare=False)
    """Every die the roll throws."""
    _named: tuple[tuple[tuple[str, int], ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Made once, not in record(): a roll's hot path (``_value_`` is the enum's plain
        # attribute; ``.value`` is a slower descriptor).
        object.__setattr__(self, "dice_count", sum(g.units * g.dice_per_unit for g in self.groups))
        named = tuple(
            tuple((unit._value_, n) for unit, n in units)
            for units in (self.attacker, self.defender, self.bombard)
        )
        object.__setattr__(self, "_named", named)

    @classmethod
    def of(
        cls,
        header: RollHeader,
        battle: str,
        attacker: Listing,
        defender: Listing,
        bombard: Listing = (),
        options: Sequence[str] = (),
    ) -> BattleRoll:
        """The roll of these units, or :class:`RollRuleError` naming the field at fault.

        ``options`` are names of :data:`OPTIONS`; units are those of :data:`BATTLE_UNITS`
        (and the defender's AA gun), each listed once, counts positive: the caller has
        checked the request's shape.
        """
        chosen = tuple(sorted(set(options)))
        aa = [count for unit, count in defender if unit is UnitType.AA]
        if aa and aa[0] > 1:
            raise RollRuleError("defender", "a territory holds at most one AA gun")
        if not attacker and not defender:
            raise RollRuleError("attacker", "no units on either side: list what fights")
        if "subs-first" in chosen:
            if "defenders-only" in chosen:
                raise RollRuleError("options", "subs-first and defenders-only cannot be combined")
            if not any(unit is UnitType.SUB for unit, _ in attacker):
                raise RollRuleError("options", "subs-first needs attacking SUBs")
        if "defenders-only" in chosen and not defender:
            raise RollRuleError("defender", "defenders-only needs defending units")
        groups = layout(attacker, defender, bombard, frozenset(chosen))
        if not groups:
            raise RollRuleError("attacker", "these units throw no dice (transports do not attack)")
        return cls(header, battle, attacker, defender, bombard, chosen, groups)

    def record(self, by: str, draw: Draw) -> dict[str, Any]:
        """The entry's data: header, units as entered, and every die in thrown order."""
        dice = draw(self.dice_count)
        groups, hits, start = [], {"attacker": 0, "defender": 0}, 0
        for each in self.groups:
            end = start + each.units * each.dice_per_unit
            thrown = dice[start:end]
            start = end
            hit_on = each.hit_on
            scored = sum(die <= hit_on for die in thrown)
            hits[each.side] += scored
            groups.append({**each.recorded, "dice": thrown, "hits": scored})
        return {**self.listed(by), "groups": groups, "dice": dice, "hits": hits}

    def listed(self, by: str) -> dict[str, Any]:
        """The entry data every way of throwing the round shares: the header, the battle,
        the units as entered and the options (and the bombarding ships, if any)."""
        data: dict[str, Any] = {
            **self.header.data(by),
            "battle": self.battle,
            "attacker": _listed(self._named[0]),
            "defender": _listed(self._named[1]),
            "options": list(self.options),
        }
        if self.bombard:
            data["bombard"] = _listed(self._named[2])
        return data


@functools.lru_cache(maxsize=256)
def _profile(unit: UnitType, techs: frozenset[Technology]) -> UnitStats:
    return unit_profile(unit, techs)


@functools.lru_cache(maxsize=64)
def technologies(
    options: frozenset[str],
) -> tuple[frozenset[Technology], frozenset[Technology]]:
    """The attacker's and the defender's technologies a roll's options stand for."""
    return (
        frozenset(t for name, t in ATTACKER_TECH.items() if name in options),
        frozenset(t for name, t in DEFENDER_TECH.items() if name in options),
    )


def layout(
    attacker: Listing,
    defender: Listing,
    bombard: Listing,
    options: frozenset[str],
) -> tuple[Group, ...]:
    """The groups a battle roll throws, in the order thrown (see the module's list)."""
    attacker_tech, defender_tech = technologies(options)

    def attack(unit: UnitType) -> tuple[int, int]:
        stats = _profile(unit, attacker_tech)
        return stats.attack or 0, stats.attack_dice

    if "subs-first" in options:
        return tuple(
            group("attacker", UnitType.SUB, count, 1, attack(UnitType.SUB)[0], NO_LABEL)
            for unit, count in attacker
            if unit is UnitType.SUB
        )
    groups: list[Group] = []
    if any(unit is UnitType.AA for unit, _ in defender):
        for unit, count in attacker:
            if unit in AIRCRAFT:
                groups.append(group("defender", UnitType.AA, count, 1, AA_HITS_ON, _TARGETS[unit]))
    if "defenders-only" not in options:
        for _, count in bombard:
            groups.append(
                group("attacker", UnitType.BB, count, 1, SUPPORT_SHOT_HITS_ON, BOMBARD_LABEL)
            )
        for unit, count in attacker:
            hit_on, per_unit = attack(unit)
            if hit_on > 0:
                groups.append(group("attacker", unit, count, per_unit, hit_on, NO_LABEL))
    for unit, count in defender:
        if unit is UnitType.AA:
            continue
        hit_on = _profile(unit, defender_tech).defence or 0
        groups.append(group("defender", unit, count, 1, hit_on, NO_LABEL))
    return tuple(groups)
