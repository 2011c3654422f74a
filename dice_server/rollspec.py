"""What a battle roll throws: the request checked field by field, then the dice laid out.

IAAPA "Using the Dice Server": the attacker enters the header (game, round, turn, country,
battle) and "the exact number and types of attacking and defending units"; the server
lists the dice "in the order that they were thrown" (Error Correction III counts them
left to right), so the order here is part of the record:

1. defending AA guns, one die per attacking aircraft in the order the aircraft are listed
   (hit on 1; each die labelled with its aircraft);
2. battleship support shots (``bombard``: one die per BB, hit on 4 or less);
3. the attacking units in the order listed;
4. the defending units in the order listed.

``subs-first`` throws only the attacking submarines (the attacker "MAY ... roll for the sub
first" and ask the defender for the casualty); ``defenders-only`` throws only the defence
(the roller's "defenders only" mode of Error Correction III).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.battle.firing import AA_HITS_ON, SUPPORT_SHOT_HITS_ON
from adjudicator.units import UNIT_STATS, Technology, UnitType, unit_profile
from dice_server.errors import InvalidRequest
from dice_server.jsonbody import children, shown
from dice_server.verifier import NotCanonical, check_value

SIDES = 6
MAX_COUNT = 999
MAX_NUMBER = 9999
MAX_TEXT = 100
MAX_COMMENT = 2000

#: A&A 2nd edition combat values, (attack, defence), from the rules engine: the units that
#: roll in a battle round. AA fires only as described above.
COMBAT_VALUES: Mapping[str, tuple[int, int]] = {
    unit.name: (stats.attack or 0, stats.defence)
    for unit, stats in UNIT_STATS.items()
    if stats.defence is not None
}
AIRCRAFT = tuple(unit.name for unit, stats in UNIT_STATS.items() if stats.is_air)
AA_HIT_ON = AA_HITS_ON
BOMBARD_HIT_ON = SUPPORT_SHOT_HITS_ON

#: The options that stand for a side's technology.
ATTACKER_TECH = {"heavy-bombers": Technology.HEAVY_BOMBERS, "super-subs": Technology.SUPER_SUBS}
DEFENDER_TECH = {"jet-fighters": Technology.JET_POWER}

OPTIONS = {
    "subs-first": "throw only the attacking submarines (their opening shot)",
    "defenders-only": "throw only the defending units",
    "heavy-bombers": "the attacker has Heavy Bombers: each attacking BMB throws 3 dice",
    "super-subs": "the attacker has Super Subs: attacking SUBs hit on 3 or less",
    "jet-fighters": "the defender has Jet Power: defending FTRs hit on 5 or less",
}

COUNTRIES = {
    "russia": "Russia",
    "ussr": "Russia",
    "soviet union": "Russia",
    "germany": "Germany",
    "uk": "UK",
    "united kingdom": "UK",
    "britain": "UK",
    "japan": "Japan",
    "usa": "USA",
    "us": "USA",
    "united states": "USA",
}

HEADER_FIELDS = {"round", "turn", "country", "battle", "comment"}
ROLL_FIELDS = HEADER_FIELDS | {"attacker", "defender", "bombard", "options"}


def field_error(field: str, message: str) -> InvalidRequest:
    return InvalidRequest(f"{field}: {message}", field=field)


def check_fields(payload: Any, allowed: set[str], required: set[str]) -> dict[str, Any]:
    """The request must be a JSON object of integers and strings, with only known fields."""
    if not isinstance(payload, dict):
        raise InvalidRequest(f"the request body must be a JSON object, not {shown(payload)}")
    unknown = sorted(set(payload) - allowed)
    if unknown:
        raise field_error(
            shown(unknown[0]).strip('"'),
            f"unknown field; expected some of {', '.join(sorted(allowed))}",
        )
    found = _foreign_value(payload)
    if found is not None:
        where, value = found
        raise field_error(where, f"{_FOREIGN[type(value)]} is not allowed here: {_SEND}")
    try:
        check_value(payload, "request")
    except NotCanonical as exc:
        raise InvalidRequest(f"{exc} (send integers and strings only)") from None
    missing = sorted(required - set(payload))
    if missing:
        raise field_error(missing[0], "is required")
    return payload


_SEND = "send a whole number or text, or leave the field out"
_FOREIGN = {bool: "true or false (a boolean)", type(None): "null", float: "a fraction"}


def _foreign_value(value: Any, path: str = "") -> tuple[str, Any] | None:
    """The first boolean, null or float in a request, and where: the ledger holds integers
    and strings only (DESIGN.md), and ``True`` would otherwise pass for the integer 1."""
    for where, item in children(value, path):
        if item is None or isinstance(item, bool | float):
            return where, item
        if isinstance(item, dict | list):
            found = _foreign_value(item, where)
            if found is not None:
                return found
    return None


def positive_int(payload: Mapping[str, Any], field: str, limit: int = MAX_NUMBER) -> int:
    value = payload.get(field)
    if type(value) is not int or not 1 <= value <= limit:
        raise field_error(field, f"must be a whole number from 1 to {limit}, not {shown(value)}")
    return value


def text(payload: Mapping[str, Any], field: str, limit: int, required: bool = True) -> str:
    value = payload.get(field, "")
    if not isinstance(value, str):
        raise field_error(field, f"must be text, not {shown(value)}")
    value = value.strip()
    if required and not value:
        raise field_error(field, "must not be empty")
    if len(value) > limit:
        raise field_error(field, f"is {len(value)} characters long; at most {limit} are allowed")
    if any(ord(ch) < 32 and ch not in "\n\t" for ch in value):
        raise field_error(field, "contains control characters")
    return value


def country(payload: Mapping[str, Any]) -> str:
    name = text(payload, "country", MAX_TEXT)
    try:
        return COUNTRIES[" ".join(name.casefold().replace(".", "").split())]
    except KeyError:
        raise field_error(
            "country", f"unknown country {shown(name)}; use Russia, Germany, UK, Japan or USA"
        ) from None


@dataclass(frozen=True)
class UnitCount:
    unit: str
    count: int


def unit_list(payload: Mapping[str, Any], field: str, allowed: set[str]) -> list[UnitCount]:
    raw = payload.get(field, [])
    if not isinstance(raw, list):
        raise field_error(
            field, f'must be a list of {{"unit": ..., "count": ...}}, not {shown(raw)}'
        )
    seen: set[str] = set()
    out = []
    for index, item in enumerate(raw):
        where = f"{field}[{index}]"
        if not isinstance(item, dict) or set(item) != {"unit", "count"}:
            raise field_error(where, 'must be {"unit": "INF", "count": 3}')
        name = item["unit"]
        if not isinstance(name, str):
            raise field_error(f"{where}.unit", f"must be a unit's name, not {shown(name)}")
        unit = name.strip().upper()
        if unit not in allowed:
            if unit == "AA" and field != "defender":
                raise field_error(
                    f"{where}.unit", "AA guns only defend: list the AA with the defender"
                )
            raise field_error(
                f"{where}.unit",
                f"unknown unit {shown(name)} here; use one of {', '.join(sorted(allowed))}",
            )
        count = item["count"]
        if type(count) is not int or not 1 <= count <= MAX_COUNT:
            raise field_error(
                f"{where}.count", f"must be from 1 to {MAX_COUNT}, not {shown(count)}"
            )
        if unit in seen:
            raise field_error(f"{where}.unit", f"{unit} is listed twice; give one total count")
        seen.add(unit)
        out.append(UnitCount(unit, count))
    return out


@dataclass(frozen=True)
class Group:
    """One labelled run of dice: who throws, with what, and what counts as a hit."""

    side: str
    unit: str
    count: int
    dice_per_unit: int
    hit_on: int
    label: dict[str, str]

    @property
    def dice_count(self) -> int:
        return self.count * self.dice_per_unit


@dataclass(frozen=True)
class BattleRoll:
    """A checked battle-roll request, ready to throw inside the append."""

    round: int
    turn: int
    country: str
    battle: str
    comment: str
    attacker: list[UnitCount]
    defender: list[UnitCount]
    bombard: list[UnitCount]
    options: list[str]
    groups: list[Group]

    @property
    def dice_count(self) -> int:
        return sum(group.dice_count for group in self.groups)

    def record(self, by: str, draw: Callable[[int], list[int]]) -> dict[str, Any]:
        """The entry's data: header, units as entered, and every die in thrown order."""
        dice = draw(self.dice_count)
        groups, hits, start = [], {"attacker": 0, "defender": 0}, 0
        for group in self.groups:
            thrown = dice[start : start + group.dice_count]
            start += group.dice_count
            scored = sum(die <= group.hit_on for die in thrown)
            hits[group.side] += scored
            groups.append(
                {
                    "side": group.side,
                    "unit": group.unit,
                    "count": group.count,
                    "hit_on": group.hit_on,
                    "dice": thrown,
                    "hits": scored,
                    **group.label,
                }
            )
        data: dict[str, Any] = {
            "round": self.round,
            "turn": self.turn,
            "country": self.country,
            "battle": self.battle,
            "by": by,
            "attacker": [{"unit": u.unit, "count": u.count} for u in self.attacker],
            "defender": [{"unit": u.unit, "count": u.count} for u in self.defender],
            "options": self.options,
            "sides": SIDES,
            "groups": groups,
            "dice": dice,
            "hits": hits,
        }
        if self.bombard:
            data["bombard"] = [{"unit": u.unit, "count": u.count} for u in self.bombard]
        if self.comment:
            data["comment"] = self.comment
        return data


def _layout(
    attacker: list[UnitCount],
    defender: list[UnitCount],
    bombard: list[UnitCount],
    options: set[str],
) -> list[Group]:
    attacker_tech = [tech for name, tech in ATTACKER_TECH.items() if name in options]
    defender_tech = [tech for name, tech in DEFENDER_TECH.items() if name in options]

    def attack(unit: str) -> tuple[int, int]:
        stats = unit_profile(UnitType[unit], attacker_tech)
        return stats.attack or 0, stats.attack_dice

    if "subs-first" in options:
        return [
            Group("attacker", "SUB", u.count, 1, attack("SUB")[0], {})
            for u in attacker
            if u.unit == "SUB"
        ]
    groups: list[Group] = []
    if any(u.unit == "AA" for u in defender):
        for u in attacker:
            if u.unit in AIRCRAFT:
                groups.append(Group("defender", "AA", u.count, 1, AA_HIT_ON, {"target": u.unit}))
    if "defenders-only" not in options:
        for u in bombard:
            groups.append(Group("attacker", "BB", u.count, 1, BOMBARD_HIT_ON, {"fire": "bombard"}))
        for u in attacker:
            hit_on, per_unit = attack(u.unit)
            if hit_on > 0:
                groups.append(Group("attacker", u.unit, u.count, per_unit, hit_on, {}))
    for u in defender:
        if u.unit == "AA":
            continue
        hit_on = unit_profile(UnitType[u.unit], defender_tech).defence or 0
        groups.append(Group("defender", u.unit, u.count, 1, hit_on, {}))
    return groups


def parse_battle_roll(payload: Any) -> BattleRoll:
    """Check a battle-roll request completely, before any lock is taken or seq consumed."""
    fields = check_fields(payload, ROLL_FIELDS, {"round", "turn", "country", "battle"})
    round_, turn = positive_int(fields, "round"), positive_int(fields, "turn")
    country_name, battle = country(fields), text(fields, "battle", MAX_TEXT)
    comment = text(fields, "comment", MAX_COMMENT, required=False)
    attacker = unit_list(fields, "attacker", set(COMBAT_VALUES))
    defender = unit_list(fields, "defender", set(COMBAT_VALUES) | {"AA"})
    bombard = unit_list(fields, "bombard", {"BB"})
    raw_options = fields.get("options", [])
    if not isinstance(raw_options, list) or not all(isinstance(o, str) for o in raw_options):
        raise field_error("options", "must be a list of option names")
    options = sorted({o.strip().lower() for o in raw_options})
    for option in options:
        if option not in OPTIONS:
            raise field_error(
                "options", f"unknown option {shown(option)}; known: {', '.join(OPTIONS)}"
            )
    aa = [u for u in defender if u.unit == "AA"]
    if aa and aa[0].count > 1:
        raise field_error("defender", "a territory holds at most one AA gun")
    if not attacker and not defender:
        raise field_error("attacker", "no units on either side: list what fights")
    if "subs-first" in options:
        if "defenders-only" in options:
            raise field_error("options", "subs-first and defenders-only cannot be combined")
        if not any(u.unit == "SUB" for u in attacker):
            raise field_error("options", "subs-first needs attacking SUBs")
    if "defenders-only" in options and not defender:
        raise field_error("defender", "defenders-only needs defending units")
    groups = _layout(attacker, defender, bombard, set(options))
    if not groups:
        raise field_error("attacker", "these units throw no dice (transports do not attack)")
    return BattleRoll(
        round=round_,
        turn=turn,
        country=country_name,
        battle=battle,
        comment=comment,
        attacker=attacker,
        defender=defender,
        bombard=bombard,
        options=options,
        groups=groups,
    )
