"""Rolls other than a battle round: weapons development, strategic bombing and rockets.

Each request is checked whole before any lock is taken; ``record`` then throws the dice in
the order the rules throw them, drawing more as the results require (a breakthrough's chart
die, a surviving bomber's damage die), and labels every die with its purpose.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from adjudicator.units import Technology, UnitType, unit_profile
from dice_server.jsonbody import shown
from dice_server.rollspec import (
    AA_HIT_ON,
    HEADER_FIELDS,
    MAX_COMMENT,
    MAX_TEXT,
    SIDES,
    check_fields,
    country,
    field_error,
    positive_int,
    text,
)

Draw = Callable[[int], list[int]]

TECH_DIE_COST = 5
MAX_TECH_DICE = 99
MAX_BOMBERS = 99
MAX_ROCKETS = 9
BREAKTHROUGH = 6


def tech_label(tech: Technology) -> str:
    return tech.name.replace("_", " ").title()


TECH_NAMES = {
    **{tech_label(t).casefold(): t for t in Technology},
    "jet fighters": Technology.JET_POWER,
    "jets": Technology.JET_POWER,
    "jftr": Technology.JET_POWER,
    "lr": Technology.LONG_RANGE_AIRCRAFT,
    "lra": Technology.LONG_RANGE_AIRCRAFT,
    "long range": Technology.LONG_RANGE_AIRCRAFT,
    "industrial tech": Technology.INDUSTRIAL_TECHNOLOGY,
    "hbmb": Technology.HEAVY_BOMBERS,
    "ss": Technology.SUPER_SUBS,
}


@dataclass(frozen=True)
class Header:
    round: int
    turn: int
    country: str
    comment: str

    @classmethod
    def parse(cls, fields: dict[str, Any]) -> Header:
        return cls(
            round=positive_int(fields, "round"),
            turn=positive_int(fields, "turn"),
            country=country(fields),
            comment=text(fields, "comment", MAX_COMMENT, required=False),
        )

    def data(self, by: str) -> dict[str, Any]:
        out: dict[str, Any] = {
            "round": self.round,
            "turn": self.turn,
            "country": self.country,
            "by": by,
            "sides": SIDES,
        }
        if self.comment:
            out["comment"] = self.comment
        return out


def _fields(payload: Any, extra: set[str], required: set[str]) -> dict[str, Any]:
    header = HEADER_FIELDS - {"battle"}
    return check_fields(payload, header | extra, {"round", "turn", "country"} | required)


def _flag(fields: dict[str, Any], name: str) -> int:
    value = fields.get(name)
    if type(value) is not int or value not in (0, 1):
        raise field_error(name, f"must be 0 or 1, not {shown(value)}")
    return value


@dataclass(frozen=True)
class TechRoll:
    """IAAPA Error Correction IV: the entry states how many dice were declared and rolled.

    Each research die costs 5 IPC; each 6 is a breakthrough, and one chart die per
    breakthrough picks the technology, re-rolled while it names one already owned or
    already won in this roll.
    """

    header: Header
    dice: int
    declared: int
    owned: tuple[Technology, ...]

    def record(self, by: str, draw: Draw) -> dict[str, Any]:
        research = draw(self.dice)
        breakthroughs = research.count(BREAKTHROUGH)
        groups: list[dict[str, Any]] = [
            {
                "purpose": "research",
                "count": self.dice,
                "dice": research,
                "breakthroughs": breakthroughs,
            }
        ]
        held = set(self.owned)
        won: list[str] = []
        for _ in range(breakthroughs):
            if len(held) == len(Technology):
                groups.append({"purpose": "chart", "dice": [], "technology": "none left"})
                continue
            chart: list[int] = []
            while True:
                chart += draw(1)
                tech = Technology.from_chart(chart[-1])
                if tech not in held:
                    break
            held.add(tech)
            won.append(tech_label(tech))
            groups.append({"purpose": "chart", "dice": chart, "technology": tech_label(tech)})
        data = self.header.data(by)
        data.update(
            {
                "declared": self.declared,
                "rolled": self.dice,
                "cost": TECH_DIE_COST * self.dice,
                "owned": [tech_label(t) for t in self.owned],
                "groups": groups,
                "dice": [die for group in groups for die in group["dice"]],
                "breakthroughs": breakthroughs,
                "technologies": won,
            }
        )
        return data


def parse_tech_roll(payload: Any) -> TechRoll:
    fields = _fields(payload, {"dice", "declared", "owned"}, {"dice"})
    count = positive_int(fields, "dice", MAX_TECH_DICE)
    declared = positive_int(fields, "declared", MAX_TECH_DICE) if "declared" in fields else count
    raw = fields.get("owned", [])
    if not isinstance(raw, list) or not all(isinstance(name, str) for name in raw):
        raise field_error("owned", "must be a list of technology names")
    owned: list[Technology] = []
    for name in raw:
        key = " ".join(name.replace("-", " ").replace("_", " ").casefold().split())
        if key not in TECH_NAMES:
            known = ", ".join(tech_label(t) for t in Technology)
            raise field_error("owned", f"unknown technology {shown(name)}; known: {known}")
        if TECH_NAMES[key] not in owned:
            owned.append(TECH_NAMES[key])
    return TechRoll(Header.parse(fields), count, declared, tuple(owned))


@dataclass(frozen=True)
class BombingRoll:
    """A strategic bombing raid: the target's AA fires first, one die at each bomber (hit on
    1); each surviving bomber then throws one die, three with Heavy Bombers, and the dice
    add up to the IPCs lost (facts sheet 6; capped by the adjudicator, not the roller)."""

    header: Header
    target: str
    bombers: int
    aa: int
    heavy: bool

    def record(self, by: str, draw: Draw) -> dict[str, Any]:
        groups: list[dict[str, Any]] = []
        shot_down = 0
        if self.aa:
            aa_dice = draw(self.bombers)
            shot_down = sum(die <= AA_HIT_ON for die in aa_dice)
            groups.append(
                {
                    "purpose": "aa",
                    "unit": "AA",
                    "target": "BMB",
                    "count": self.bombers,
                    "hit_on": AA_HIT_ON,
                    "dice": aa_dice,
                    "hits": shot_down,
                }
            )
        survivors = self.bombers - shot_down
        techs = [Technology.HEAVY_BOMBERS] if self.heavy else []
        per_bomber = unit_profile(UnitType.BMB, techs).raid_dice
        damage_dice = draw(survivors * per_bomber) if survivors else []
        groups.append(
            {
                "purpose": "damage",
                "unit": "BMB",
                "count": survivors,
                "dice": damage_dice,
                "damage": sum(damage_dice),
            }
        )
        data = self.header.data(by)
        data.update(
            {
                "target": self.target,
                "bombers": self.bombers,
                "aa": self.aa,
                "options": ["heavy-bombers"] if self.heavy else [],
                "groups": groups,
                "dice": [die for group in groups for die in group["dice"]],
                "shot_down": shot_down,
                "damage": sum(damage_dice),
            }
        )
        return data


def _options(fields: dict[str, Any], allowed: set[str]) -> set[str]:
    raw = fields.get("options", [])
    if not isinstance(raw, list) or not all(isinstance(o, str) for o in raw):
        raise field_error("options", "must be a list of option names")
    options = {o.strip().lower() for o in raw}
    for option in sorted(options - allowed):
        raise field_error(
            "options", f"unknown option {shown(option)}; known here: {', '.join(allowed)}"
        )
    return options


def parse_bombing_roll(payload: Any) -> BombingRoll:
    fields = _fields(payload, {"target", "bombers", "aa", "options"}, {"target", "bombers", "aa"})
    if fields.get("bombers") == 0:
        raise field_error("bombers", "a bombing raid needs at least one bomber")
    return BombingRoll(
        header=Header.parse(fields),
        target=text(fields, "target", MAX_TEXT),
        bombers=positive_int(fields, "bombers", MAX_BOMBERS),
        aa=_flag(fields, "aa"),
        heavy="heavy-bombers" in _options(fields, {"heavy-bombers"}),
    )


@dataclass(frozen=True)
class RocketRoll:
    """Rockets: an AA gun within range of an enemy IC throws one die, the IPCs lost."""

    header: Header
    target: str
    launcher: str
    rockets: int

    def record(self, by: str, draw: Draw) -> dict[str, Any]:
        dice = draw(self.rockets)
        data = self.header.data(by)
        data.update(
            {
                "target": self.target,
                "rockets": self.rockets,
                "groups": [
                    {
                        "purpose": "rocket",
                        "unit": "AA",
                        "count": self.rockets,
                        "dice": dice,
                        "damage": sum(dice),
                    }
                ],
                "dice": dice,
                "damage": sum(dice),
            }
        )
        if self.launcher:
            data["from"] = self.launcher
        return data


def parse_rocket_roll(payload: Any) -> RocketRoll:
    fields = _fields(payload, {"target", "from", "rockets"}, {"target"})
    return RocketRoll(
        header=Header.parse(fields),
        target=text(fields, "target", MAX_TEXT),
        launcher=text(fields, "from", MAX_TEXT, required=False),
        rockets=positive_int(fields, "rockets", MAX_ROCKETS) if "rockets" in fields else 1,
    )
