"""The shape of the entry bodies the rulings read, checked once before any ruling: a body
the service could not have written is refused, naming the entry and the field, instead of
failing somewhere inside a ruling.

Only what the rulings read is checked (DESIGN.md, the ledger: integers and strings, lists
and objects); other keys pass as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


class LedgerFormatError(ValueError):
    """Entry bodies that are not a game's ledger: ``seq`` names the entry at fault (None:
    the whole)."""

    def __init__(self, problem: str, seq: int | None = None) -> None:
        super().__init__(f"entry #{seq}: {problem}" if seq is not None else problem)
        self.seq = seq
        self.problem = problem


Check = Callable[[Any], bool]


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _str(value: Any) -> bool:
    return isinstance(value, str)


def _list_of(item: Check) -> Check:
    return lambda value: isinstance(value, list) and all(item(v) for v in value)


def _counts(value: Any) -> bool:
    return isinstance(value, Mapping) and all(_str(k) and _int(v) for k, v in value.items())


def _object(fields: Mapping[str, Check], required: frozenset[str] = frozenset()) -> Check:
    def check(value: Any) -> bool:
        if not isinstance(value, Mapping) or not required <= set(value):
            return False
        return all(test(value[key]) for key, test in fields.items() if key in value)

    return check


_LISTED = _list_of(_object({"unit": _str, "count": _int}, frozenset({"unit", "count"})))
_FINDING = _object(
    {"rule": _str, "message": _str, "code": _str, "severity": _str, "battles": _list_of(_int)}
)
_BATTLE = _object(
    {"number": _int, "territory": _str, "kind": _str, "attacker": _counts, "defender": _counts},
    frozenset({"number", "kind"}),
)
_GROUP = _object(
    {"dice": _list_of(_int), "unit": _str, "side": _str, "count": _int, "fire": _str},
    frozenset({"dice"}),
)
_LOW_LUCK_GROUP = _object(
    {"power": _int, "unit": _str, "side": _str, "count": _int, "fire": _str},
    frozenset({"power"}),
)
_VOLLEY = _object(
    {"side": _str, "fire": _str, "power": _int, "hits": _int, "dice": _list_of(_int)},
    frozenset({"side", "fire", "power", "hits"}),
)
_TECH_GROUP = _object({"dice": _list_of(_int), "purpose": _str}, frozenset({"dice"}))

FIELDS: Mapping[str, tuple[Mapping[str, Check], frozenset[str]]] = {
    "genesis": (
        {"players": _object({"axis": _str, "allies": _str}), "position": _object({})},
        frozenset(),
    ),
    "submission": (
        {
            "power": _str,
            "round": _int,
            "phase": _str,
            "text": _str,
            "in_force": _int,
            "by": _str,
            "findings": _list_of(_FINDING),
            "played_out": _list_of(_FINDING),
            "battles": _list_of(_BATTLE),
        },
        frozenset({"power", "round", "phase", "text"}),
    ),
    "roll": (
        {
            "country": _str,
            "round": _int,
            "battle": _str,
            "by": _str,
            "dice": _list_of(_int),
            "groups": _list_of(_GROUP),
            "attacker": _LISTED,
            "defender": _LISTED,
            "options": _list_of(_str),
            "declared": _object({"submission": _int, "number": _int}),
            "findings": _list_of(_FINDING),
        },
        frozenset({"battle", "dice", "groups"}),
    ),
    "low-luck-roll": (
        {
            "country": _str,
            "round": _int,
            "battle": _str,
            "by": _str,
            "dice": _list_of(_int),
            "groups": _list_of(_LOW_LUCK_GROUP),
            "volleys": _list_of(_VOLLEY),
            "attacker": _LISTED,
            "defender": _LISTED,
            "options": _list_of(_str),
            "declared": _object({"submission": _int, "number": _int}),
            "findings": _list_of(_FINDING),
        },
        frozenset({"battle", "dice", "groups", "volleys"}),
    ),
    "note": (
        {"topic": _str, "text": _str, "by": _str, "ref_seq": _int},
        frozenset({"topic", "text"}),
    ),
    "tech-roll": (
        {
            "country": _str,
            "round": _int,
            "turn": _int,
            "by": _str,
            "rolled": _int,
            "declared": _int,
            "counted": _int,
            "dice": _list_of(_int),
            "groups": _list_of(_TECH_GROUP),
            "owned": _list_of(_str),
        },
        frozenset({"country", "rolled", "groups"}),
    ),
    "bombing-roll": ({"target": _str}, frozenset()),
}
"""Per kind, the fields the rulings read and how each must look, and those required."""


def check_body(body: Mapping[str, Any]) -> None:
    """Raise :class:`LedgerFormatError` unless ``body`` has the shape the rulings read."""
    seq = body["seq"]
    kind = body["kind"]
    if kind not in FIELDS:
        return
    fields, required = FIELDS[kind]
    data = body["data"]
    missing = sorted(required - set(data))
    if missing:
        raise LedgerFormatError(f"a {kind} entry without its {missing[0]!r}", seq)
    for key, test in fields.items():
        if key in data and not test(data[key]):
            raise LedgerFormatError(f"a {kind} entry whose {key!r} is not as recorded", seq)
