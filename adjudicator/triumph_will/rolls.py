"""The other dice of Triumph of the Will: air superiority (5.5), rebellion (5.12, 12.1) and
the atomic attack (11.2); and the table of every roll kind the dice server offers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Self

from adjudicator.triumph_will.battle import (
    WILL_BATTLE_KIND,
    WillBattleRoll,
    describe_will_battle,
)
from adjudicator.triumph_will.common import (
    WILL_HEADER_FIELDS,
    WILL_MAX_NAME,
    WILL_PLAYERS,
    WillDraw,
    WillRollError,
    will_check_fields,
    will_entry,
    will_header,
    will_int,
    will_signed,
    will_text,
    will_throw,
)

WILL_AIR_KIND = "will-air-roll"
WILL_REBELLION_KIND = "will-rebel-roll"
WILL_ATOMIC_KIND = "will-atomic-roll"

WILL_MAX_HQ = 2
"""5.5: one die for one air force HQ, "two dice" for two; none, no dice."""

WILL_REBELLION_ON = 6
"""5.12: "On a result of six or more, a rebellion ... has broken out in that area"."""

WILL_MAX_ADJACENT_REBELLIONS = 20
"""A generous bound on the rebelling neighbours of one land area (the map has no area with
so many neighbours; from five on the rebellion is certain anyway)."""

WILL_CAPITALS = ("Greater Germany", "Japan")
"""4.1: the capital areas, never rolled for in the Rebellion Phase (5.12)."""

WILL_BLAST_ON = 5
"""11.2: "On results of one through five, place a mushroom cloud blast marker"."""

WILL_ATOMIC_TARGETS = ("army", "fleet", "Panama Canal", "Suez Canal")
"""11.1: "any one enemy army or fleet", and "the Panama and Suez Canals"."""

_IMMUNE = {
    "strait of gibraltar": "The Strait of Gibraltar is immune from atomic attack (9.9)",
    "gibraltar": "The Strait of Gibraltar is immune from atomic attack (9.9)",
    "rebels": "UN rebellion units may not be targeted for atomic attack (12.4)",
    "rebel": "UN rebellion units may not be targeted for atomic attack (12.4)",
    "united nations": "UN rebellion units may not be targeted for atomic attack (12.4)",
}


@dataclass(frozen=True)
class WillAirRoll:
    """The Air Superiority Phase (5.5): each player rolls one die per air force HQ he
    built, the higher total wins (ties re-rolled), and the difference is the number of
    aircraft units he has for the turn. A player without HQ rolls nothing: his total is 0,
    so the other wins with his whole total. If neither built one nobody rolls and there is
    nothing to ask for (refused)."""

    turn: int
    side: str
    german_hq: int
    japanese_hq: int

    FIELDS = WILL_HEADER_FIELDS | {"german_hq", "japanese_hq"}

    @classmethod
    def from_request(cls, fields: Mapping[str, Any]) -> Self:
        """The air superiority roll asked for, or :class:`WillRollError` naming the field."""
        will_check_fields(fields, cls.FIELDS)
        turn, side = will_header(fields)
        german = will_int(fields, "german_hq", 0, WILL_MAX_HQ)
        japanese = will_int(fields, "japanese_hq", 0, WILL_MAX_HQ)
        if german == japanese == 0:
            raise WillRollError(
                "german_hq",
                "neither player built an air force HQ: nobody rolls and nobody has air "
                "superiority this turn (5.5)",
            )
        return cls(turn, side, german, japanese)

    def record(self, by: str, draw: WillDraw) -> dict[str, Any]:
        """Each throw of each player is a group (German first), re-rolls included."""
        data = will_entry(WILL_AIR_KIND, by, self.turn, self.side)
        hq = dict(zip(WILL_PLAYERS, (self.german_hq, self.japanese_hq), strict=True))
        dice: list[int] = []
        groups: list[dict[str, Any]] = []
        throw = 0
        while True:
            throw += 1
            totals = {}
            for player in WILL_PLAYERS:
                thrown = will_throw(draw, hq[player]) if hq[player] else []
                totals[player] = sum(thrown)
                if thrown:
                    dice += thrown
                    groups.append(
                        {"player": player, "throw": throw, "dice": thrown, "total": sum(thrown)}
                    )
            if totals["German"] != totals["Japanese"]:
                break
        winner = max(WILL_PLAYERS, key=lambda p: totals[p])
        data.update(
            {
                "german_hq": self.german_hq,
                "japanese_hq": self.japanese_hq,
                "dice": dice,
                "groups": groups,
                "throws": throw,
                "winner": winner,
                "aircraft": abs(totals["German"] - totals["Japanese"]),
            }
        )
        return data


def describe_will_air(data: Mapping[str, Any]) -> list[str]:
    """The air superiority roll in words."""
    lines = [
        f"Turn {data['turn']}: Air Superiority Phase, the German player with "
        f"{data['german_hq']} air force HQ, the Japanese with {data['japanese_hq']}."
    ]
    for player, hq in (("German", data["german_hq"]), ("Japanese", data["japanese_hq"])):
        if not hq:
            lines.append(f"The {player} player built no air force HQ and rolls no dice.")
    for g in data["groups"]:
        again = f" (re-roll {g['throw'] - 1}, after a tie)" if g["throw"] > 1 else ""
        lines.append(
            f"The {g['player']} player rolls {', '.join(map(str, g['dice']))}{again}: "
            f"total {g['total']}."
        )
    lines.append(
        f"The {data['winner']} player has air superiority this turn, with "
        f"{data['aircraft']} aircraft units (the difference of the totals)."
    )
    return lines


@dataclass(frozen=True)
class WillRebellionRoll:
    """A Rebellion Phase roll for one land area (5.12, 12.1) without an army in it, rolled by
    the player who does not own it: one die, +1 per adjacent area already in rebellion,
    rebellion on six or more; then a second die for the number of revolt markers."""

    turn: int
    side: str
    area: str
    adjacent_rebellions: int

    FIELDS = WILL_HEADER_FIELDS | {"area", "adjacent_rebellions"}

    @classmethod
    def from_request(cls, fields: Mapping[str, Any]) -> Self:
        """The rebellion roll asked for, or :class:`WillRollError` naming the field."""
        will_check_fields(fields, cls.FIELDS)
        turn, side = will_header(fields)
        area = will_text(fields, "area", WILL_MAX_NAME)
        if not area:
            raise WillRollError("area", "give the land area rolled for")
        if area.casefold() in {c.casefold() for c in WILL_CAPITALS}:
            raise WillRollError(
                "area", f"{area} is a capital area: capitals are never rolled for (5.12)"
            )
        adjacent = will_int(fields, "adjacent_rebellions", 0, WILL_MAX_ADJACENT_REBELLIONS)
        return cls(turn, side, area, adjacent)

    def record(self, by: str, draw: WillDraw) -> dict[str, Any]:
        """The rebellion die with its modifier and total; the markers die if it broke out."""
        data = will_entry(WILL_REBELLION_KIND, by, self.turn, self.side)
        die = will_throw(draw, 1)
        total = die[0] + self.adjacent_rebellions
        rebellion = int(total >= WILL_REBELLION_ON)
        groups: list[dict[str, Any]] = [
            {
                "roll": "rebellion",
                "dice": die,
                "modifiers": (
                    [{"why": "adjacent rebellions", "add": self.adjacent_rebellions}]
                    if self.adjacent_rebellions
                    else []
                ),
                "total": total,
                "rebellion": rebellion,
            }
        ]
        markers = 0
        if rebellion:
            second = will_throw(draw, 1)
            markers = second[0]
            groups.append({"roll": "revolt markers", "dice": second, "markers": markers})
        data.update(
            {
                "area": self.area,
                "adjacent_rebellions": self.adjacent_rebellions,
                "dice": [d for g in groups for d in g["dice"]],
                "groups": groups,
                "rebellion": rebellion,
                "markers": markers,
            }
        )
        return data


def describe_will_rebellion(data: Mapping[str, Any]) -> list[str]:
    """The rebellion roll in words."""
    first = data["groups"][0]
    adjacent = data["adjacent_rebellions"]
    plus = f" {will_signed(adjacent)} for adjacent rebellions" if adjacent else ""
    lines = [
        f"Turn {data['turn']}: Rebellion Phase, the {data['side']} player rolls for "
        f"{data['area']}: {first['dice'][0]}{plus} = {first['total']}."
    ]
    if data["rebellion"]:
        lines.append(
            f"Six or more: a United Nations rebellion breaks out in {data['area']}; the "
            f"second die is {data['markers']}: place {data['markers']} revolt markers."
        )
    else:
        lines.append(f"Less than six: no rebellion in {data['area']}.")
    return lines


@dataclass(frozen=True)
class WillAtomicRoll:
    """An atomic attack (11.2): one die, cross-indexed on the Atomic Attack Table printed on
    the mapsheet. The rule text gives only part of that table: "On results of one through
    five, place a mushroom cloud blast marker in the area where the attack took place." The
    rest of the table (what happens to the target, what a six does) is not in the text, so
    the entry records the die and that much only."""

    turn: int
    side: str
    target: str
    target_name: str
    area: str

    FIELDS = WILL_HEADER_FIELDS | {"target", "target_name", "area"}

    @classmethod
    def from_request(cls, fields: Mapping[str, Any]) -> Self:
        """The atomic attack asked for, or :class:`WillRollError` naming the field."""
        will_check_fields(fields, cls.FIELDS)
        turn, side = will_header(fields)
        target = will_text(fields, "target", WILL_MAX_NAME)
        if target and target.casefold() in _IMMUNE:
            raise WillRollError("target", _IMMUNE[target.casefold()])
        if target and target not in WILL_ATOMIC_TARGETS:
            raise WillRollError(
                "target",
                f"an atomic attack targets an enemy army or fleet or a canal: one of "
                f"{', '.join(WILL_ATOMIC_TARGETS)} (11.1), not {target!r}",
            )
        name = will_text(fields, "target_name", WILL_MAX_NAME)
        if name and target not in ("army", "fleet"):
            raise WillRollError("target_name", 'names the target "army" or "fleet" only')
        area = will_text(fields, "area", WILL_MAX_NAME)
        return cls(turn, side, target, name, area)

    def record(self, by: str, draw: WillDraw) -> dict[str, Any]:
        """The die, and whether a blast marker is placed."""
        data = will_entry(WILL_ATOMIC_KIND, by, self.turn, self.side)
        die = will_throw(draw, 1)
        blast = int(die[0] <= WILL_BLAST_ON)
        data.update(
            {
                "target": self.target,
                "target_name": self.target_name,
                "area": self.area,
                "dice": die,
                "groups": [{"roll": "atomic attack", "dice": die, "blast": blast}],
                "blast": blast,
            }
        )
        return data


def describe_will_atomic(data: Mapping[str, Any]) -> list[str]:
    """The atomic attack roll in words."""
    target = data["target"] or "a target"
    if data["target_name"]:
        target = f"the {data['target_name']} ({data['target']})"
    elif data["target"] in ("army", "fleet"):
        target = f"an enemy {data['target']}"
    where = f" in {data['area']}" if data["area"] else ""
    die = data["dice"][0]
    lines = [f"Turn {data['turn']}: the {data['side']} player's atomic attack on {target}{where}."]
    if data["blast"]:
        lines.append(
            f"The die is {die}: place a blast marker in the area where the attack took place "
            "(11.2, results one through five)."
        )
    else:
        lines.append(f"The die is {die}: no blast marker (11.2 places one on one through five).")
    lines.append(
        "Read the rest of the result on the Atomic Attack Table printed on the mapsheet: "
        "the rule text does not print that table."
    )
    return lines


WILL_ROLL_KINDS: Mapping[str, type] = MappingProxyType(
    {
        WILL_BATTLE_KIND: WillBattleRoll,
        WILL_AIR_KIND: WillAirRoll,
        WILL_REBELLION_KIND: WillRebellionRoll,
        WILL_ATOMIC_KIND: WillAtomicRoll,
    }
)
"""Every Triumph of the Will roll kind the dice server offers, by name."""

WILL_DESCRIBE: Mapping[str, Callable[[Mapping[str, Any]], list[str]]] = MappingProxyType(
    {
        WILL_BATTLE_KIND: describe_will_battle,
        WILL_AIR_KIND: describe_will_air,
        WILL_REBELLION_KIND: describe_will_rebellion,
        WILL_ATOMIC_KIND: describe_will_atomic,
    }
)
"""How each kind's ledger entry reads in the mail."""
