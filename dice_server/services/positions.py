"""Positions as the ledger records them: the canonical JSON a submission's SHA-256 is taken
of, the position a game started from (its genesis names it), and a new game's turn row."""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from adjudicator.names import power_label
from adjudicator.position import Position, dump_json, initial, load_json
from dice_server.errors import InvalidRequest
from dice_server.models import GameTurn
from dice_server.verifier import canonical_json

PRE_COMBAT = "pre-combat"


def position_text(position: Position) -> str:
    """The position JSON in the ledger's canonical form (what its SHA-256 is taken of).
    ``dump_json`` writes only objects, lists, strings and integers, so the bytes are not read
    back to be checked."""
    return canonical_json(dump_json(position), checked=True).decode("utf-8")


def digest(position_json: str) -> str:
    return hashlib.sha256(position_json.encode("utf-8")).hexdigest()


_KEPT: OrderedDict[str, Position] = OrderedDict()
_KEPT_LIMIT = 128
"""Positions kept read (about 40 KB each, more once checks have memoised facts of them): a
league's games in play, each read by its turn's pre-combat check and again by its
post-combat turn."""
_KEPT_LOCK = threading.Lock()


def kept_position(text: str, sha256: str | None = None) -> Position:
    """The position a game's row keeps (``text``, its canonical JSON; ``sha256`` its digest
    when the row has it), read once: positions are immutable, and a turn's pre-combat check,
    its battles and its post-combat turn all start from the same one. The last
    :data:`_KEPT_LIMIT` read are kept, by their SHA-256 (what the ledger names a position
    by)."""
    key = sha256 or digest(text)
    with _KEPT_LOCK:
        found = _KEPT.get(key)
        if found is not None:
            _KEPT.move_to_end(key)
            return found
    position = load_json(json.loads(text), checked=False)
    with _KEPT_LOCK:
        _KEPT[key] = position
        while len(_KEPT) > _KEPT_LIMIT:
            _KEPT.popitem(last=False)
    return position


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
