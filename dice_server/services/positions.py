"""Positions as the ledger records them: the canonical JSON a submission's SHA-256 is taken
of, the position a game started from (its genesis names it), and a new game's turn row."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from adjudicator.names import power_label
from adjudicator.position import Position, dump_json, initial, load_json
from dice_server.errors import InvalidRequest
from dice_server.models import GameTurn
from dice_server.verifier import canonical_json

PRE_COMBAT = "pre-combat"


def position_text(position: Position) -> str:
    """The position JSON in the ledger's canonical form (what its SHA-256 is taken of)."""
    return canonical_json(dump_json(position)).decode("utf-8")


def digest(position_json: str) -> str:
    return hashlib.sha256(position_json.encode("utf-8")).hexdigest()


def read_position(doc: Any, what: str = "position") -> Position:
    """A position document (as ``pbem position initial`` prints), or InvalidRequest saying
    what is wrong with it."""
    try:
        return load_json(doc)
    except ValueError as exc:
        raise InvalidRequest(f"{what}: not a position: {exc}", what) from None


def genesis_position(data: Mapping[str, Any]) -> Position:
    """The position a game started from: its genesis names it, or (for a game made before
    positions were kept) the Classic initial position."""
    doc = data.get("position")
    return initial() if doc is None else load_json(doc)


def new_turn_row(number: int, position: Position) -> GameTurn:
    shown_json = position_text(position)
    return GameTurn(
        game_number=number,
        position=shown_json,
        position_sha256=digest(shown_json),
        round=position.round,
        power=power_label(position.to_move),
        phase=PRE_COMBAT,
    )
