"""Requests checked field by field, before any lock is taken or seq consumed: the checks
every entry kind's ``read`` (:mod:`dice_server.kinds`) is made of.

This module only reads what a member sent (a JSON object of integers and strings) into the
rules engine's rolls (:mod:`adjudicator.rolls`), naming the field at fault; what a roll
throws and how its dice are read are the engine's. Powers and technologies are read
through :mod:`adjudicator.names`, exactly as written (a misspelling is refused, not
guessed), and recorded by their league names: the USSR is "USSR" in new entries, whether
the request said "USSR", "Russia" or "Soviet Union".
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from adjudicator.names import (
    NameResolutionError,
    exactly,
    power_label,
    power_names,
    technology_label,
)
from adjudicator.powers import TURN_ORDER, Power
from adjudicator.rolls import (
    Listing,
    RollHeader,
    RollRuleError,
)
from adjudicator.units import Technology, UnitType
from dice_server.errors import InvalidRequest
from dice_server.jsonbody import children, shown
from dice_server.verifier import NotCanonical, check_value

MAX_COUNT = 999
MAX_NUMBER = 9999
MAX_TEXT = 100
MAX_COMMENT = 2000
MAX_TECH_DICE = 99
MAX_BOMBERS = 99

HEADER_FIELDS = {"round", "turn", "country", "battle", "comment"}
ROLL_FIELDS = HEADER_FIELDS | {"attacker", "defender", "bombard", "options"}

COUNTRIES = tuple(power_label(power) for power in TURN_ORDER)
"""The powers as a roll records them, in turn order (a form's choices)."""
TECHNOLOGIES = tuple(technology_label(tech) for tech in Technology)
"""The technologies as a tech roll records them, in chart order (a form's choices)."""
_UNITS = {unit.value: unit for unit in UnitType}


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
    try:
        check_value(payload, "request")
    except NotCanonical as exc:
        # a boolean, null or fraction is named with its field (the walk for it is made
        # only for a refused request: a plain one is walked once)
        found = _foreign_value(payload)
        if found is not None:
            where, value = found
            message = f"{_FOREIGN[type(value)]} is not allowed here: {_SEND}"
            raise field_error(where, message) from None
        raise InvalidRequest(f"{exc} (send integers and strings only)") from None
    missing = sorted(required - set(payload))
    if missing:
        raise field_error(missing[0], "is required")
    return payload


def plain_fields(payload: Any) -> dict[str, Any]:
    """A request of any fields, each a whole number, text, or a list or object of them
    (the rules engine of another game system checks which fields it has)."""
    return check_fields(payload, set(payload) if isinstance(payload, dict) else set(), set())


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


def text(
    payload: Mapping[str, Any],
    field: str,
    limit: int,
    required: bool = True,
    *,
    verbatim: bool = False,
) -> str:
    """A text field, trimmed; ``verbatim`` keeps it exactly as sent (an email as written,
    line endings and all), only checked."""
    value = payload.get(field, "")
    if not isinstance(value, str):
        raise field_error(field, f"must be text, not {shown(value)}")
    if not verbatim:
        value = value.strip()
    if required and not value.strip():
        raise field_error(field, "must not be empty")
    if len(value) > limit:
        raise field_error(field, f"is {len(value)} characters long; at most {limit} are allowed")
    allowed = "\n\t\r" if verbatim else "\n\t"
    if any(ord(ch) < 32 and ch not in allowed for ch in value):
        raise field_error(field, "contains control characters")
    return value


@functools.lru_cache(maxsize=256)
def _power(name: str) -> Power | None:
    try:
        return exactly(power_names(), name)
    except NameResolutionError:
        return None


def country(payload: Mapping[str, Any]) -> Power:
    """The power a request's ``country`` names (any name :func:`power_names` knows)."""
    name = text(payload, "country", MAX_TEXT)
    power = _power(name)
    if power is None:
        raise field_error(
            "country",
            f"unknown country {shown(name)}; use {', '.join(COUNTRIES[:-1])} or "
            f"{COUNTRIES[-1]} (Russia is the USSR)",
        )
    return power


def header(fields: Mapping[str, Any]) -> RollHeader:
    """The header every roll states: round, turn, country and an optional comment."""
    return RollHeader(
        round=positive_int(fields, "round"),
        turn=positive_int(fields, "turn"),
        power=country(fields),
        comment=text(fields, "comment", MAX_COMMENT, required=False),
    )


def unit_list(payload: Mapping[str, Any], field: str, allowed: frozenset[str]) -> Listing:
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
        out.append((_UNITS[unit], count))
    return tuple(out)


def option_names(
    fields: Mapping[str, Any], allowed: Mapping[str, str] | set[str], known: str = "known"
) -> set[str]:
    raw = fields.get("options", [])
    if not isinstance(raw, list) or not all(isinstance(o, str) for o in raw):
        raise field_error("options", "must be a list of option names")
    options = {o.strip().lower() for o in raw}
    for option in sorted(options - set(allowed)):
        raise field_error(
            "options", f"unknown option {shown(option)}; {known}: {', '.join(allowed)}"
        )
    return options


def refused(exc: RollRuleError) -> InvalidRequest:
    return field_error(exc.field, exc.problem)


def other_roll_fields(payload: Any, extra: set[str], required: set[str]) -> dict[str, Any]:
    """The fields of a roll that is not a battle round: the header's and ``extra``."""
    header_fields = HEADER_FIELDS - {"battle"}
    return check_fields(payload, header_fields | extra, {"round", "turn", "country"} | required)


def flag(fields: Mapping[str, Any], name: str) -> int:
    value = fields.get(name)
    if type(value) is not int or value not in (0, 1):
        raise field_error(name, f"must be 0 or 1, not {shown(value)}")
    return value
