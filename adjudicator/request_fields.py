"""A player's JSON request read field by field, for the rolls of the other game systems
(:mod:`adjudicator.triumph_will`, :mod:`adjudicator.triumph_tragedy`): each check refuses
with the system's own error, which names the JSON path of the field at fault (such as
``"boxes[2].attacker[0].unit"``) and says what is wrong in a player's words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


class RequestFieldError(ValueError):
    """A request refused before any die is thrown: which field is wrong and why."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


ErrorType = type[RequestFieldError]

SIX_SIDES = 6
"""Both systems throw six-sided dice."""


def known_fields(
    fields: Mapping[str, Any], allowed: frozenset[str], error: ErrorType, *, path: str = ""
) -> None:
    """Refuse a request (or a part of it at ``path``) naming a field it does not have."""
    unknown = sorted(str(name) for name in fields if name not in allowed)
    if unknown:
        raise error(
            f"{path}.{unknown[0]}" if path else unknown[0],
            f"there is no field {unknown[0]!r} here; the fields are {', '.join(sorted(allowed))}",
        )


def field_number(
    fields: Mapping[str, Any],
    name: str,
    low: int,
    high: int,
    error: ErrorType,
    *,
    path: str | None = None,
    default: int | None = None,
) -> int:
    """A whole number from ``low`` to ``high``: required unless a ``default`` is given."""
    where = path or name
    if name not in fields:
        if default is not None:
            return default
        raise error(where, f"is missing: give a whole number from {low} to {high}")
    value = fields[name]
    if type(value) is not int:
        raise error(where, f"must be a whole number from {low} to {high}")
    if not low <= value <= high:
        raise error(where, f"must be from {low} to {high}, not {value}")
    return value


def line_of_text(
    fields: Mapping[str, Any], name: str, longest: int, error: ErrorType, *, path: str | None = None
) -> str:
    """An optional line of text (absent is ``""``), at most ``longest`` characters, trimmed;
    the ``"comment"`` may hold several lines and is kept as written."""
    where = path or name
    if name not in fields:
        return ""
    value = fields[name]
    if not isinstance(value, str):
        raise error(where, "must be text")
    if len(value) > longest:
        raise error(where, f"is {len(value)} characters long; at most {longest}")
    if name == "comment":
        return value
    if "\n" in value or "\r" in value:
        raise error(where, "must be one line")
    return value.strip()


def six_sided(draw: Callable[[int], list[int]], n: int) -> list[int]:
    """The next ``n`` dice from the dice server, checked to be ``n`` six-sided dice."""
    dice = list(draw(n))
    if len(dice) != n or any(type(d) is not int or not 1 <= d <= SIX_SIDES for d in dice):
        raise ValueError(f"the dice source gave {dice!r} for {n} six-sided dice")
    return dice
