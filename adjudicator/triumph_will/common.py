"""What every Triumph of the Will roll shares: the refusal a player reads, the request's
header, and the dice thrown.

The game's two players are "the German player" and "the Japanese player" (2.6): the German
commands the German and Italian units, the Japanese his own (and the Italians if they defect,
7.2). A request's ``"side"`` is the player asking for the roll, ``"German"`` or
``"Japanese"``. The third party of the rules, the renegade "United Nations" of a rebellion
(5.12, 12.2), never asks for a roll: it only defends.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from adjudicator.request_fields import (
    RequestFieldError,
    field_number,
    known_fields,
    line_of_text,
    six_sided,
)

WILL_SYSTEM = "triumph-of-the-will"
"""The ``"system"`` of every ledger entry of this game."""

WILL_SIDES_OF_A_DIE = 6
"""The game's dice: "Twelve six-sided dice" (2.1)."""

WILL_PLAYERS = ("German", "Japanese")
"""The two players, as the rule text names them (2.6)."""

WILL_UNITED_NATIONS = "United Nations"
"""The rebels' side (5.12): never a player, only a defender."""

WILL_MAX_TURN = 9999
WILL_MAX_COMMENT = 2000
WILL_MAX_NAME = 60
"""The longest name of an area, a unit or a target a request may give."""

WillDraw = Callable[[int], list[int]]
"""The dice server's dice: ``draw(n)`` gives the next ``n`` dice, 1 to 6, in thrown order."""


class WillRollError(RequestFieldError):
    """A request the dice server refuses before any die is thrown: which field is wrong
    (a JSON path such as ``"boxes[2].attacker[0].unit"``) and why, in a player's words."""


def will_other_player(player: str) -> str:
    """The opponent of one of the two players."""
    return WILL_PLAYERS[1] if player == WILL_PLAYERS[0] else WILL_PLAYERS[0]


def will_check_fields(
    fields: Mapping[str, Any], allowed: frozenset[str], *, path: str = ""
) -> None:
    """Refuse a request (or a part of it at ``path``) naming a field it does not have."""
    known_fields(fields, allowed, WillRollError, path=path)


def will_int(
    fields: Mapping[str, Any], name: str, low: int, high: int, *, path: str | None = None
) -> int:
    """A required whole number from ``low`` to ``high``."""
    return field_number(fields, name, low, high, WillRollError, path=path)


def will_flag(fields: Mapping[str, Any], name: str, *, path: str | None = None) -> int:
    """An optional 0/1 flag (absent is 0)."""
    return field_number(fields, name, 0, 1, WillRollError, path=path, default=0)


def will_text(
    fields: Mapping[str, Any], name: str, longest: int, *, path: str | None = None
) -> str:
    """An optional line of text (absent is ``""``), at most ``longest`` characters."""
    return line_of_text(fields, name, longest, WillRollError, path=path)


def will_player(fields: Mapping[str, Any], name: str, *, required: bool = True) -> str:
    """One of the two players, ``"German"`` or ``"Japanese"`` (``""`` if optional and absent)."""
    if name not in fields and not required:
        return ""
    if name not in fields:
        raise WillRollError(name, 'is missing: give "German" or "Japanese"')
    value = fields[name]
    if value not in WILL_PLAYERS:
        raise WillRollError(
            name, f'must be "German" or "Japanese", the game\'s two players, not {value!r}'
        )
    return str(value)


def will_header(fields: Mapping[str, Any]) -> tuple[int, str]:
    """The fields every request has: the turn (1 to 9999) and the player asking (``side``).
    The optional ``"comment"`` is checked here but recorded by the service, not the roll."""
    turn = will_int(fields, "turn", 1, WILL_MAX_TURN)
    side = will_player(fields, "side")
    will_text(fields, "comment", WILL_MAX_COMMENT)
    return turn, side


WILL_HEADER_FIELDS = frozenset({"turn", "side", "comment"})
"""The fields every request may hold."""


def will_throw(draw: WillDraw, n: int) -> list[int]:
    """The next ``n`` dice from the dice server, checked to be ``n`` six-sided dice."""
    return six_sided(draw, n)


def will_entry(kind: str, by: str, turn: int, side: str) -> dict[str, Any]:
    """The start of a ledger entry's data: what every Triumph of the Will entry records."""
    return {
        "system": WILL_SYSTEM,
        "kind": kind,
        "by": by,
        "sides": WILL_SIDES_OF_A_DIE,
        "turn": turn,
        "side": side,
    }


def will_signed(n: int) -> str:
    """A modifier as a player writes it: ``+1``, ``+2``."""
    return f"+{n}" if n >= 0 else str(n)
