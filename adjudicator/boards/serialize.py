"""A board as stable, pretty JSON: the form shipped inside the package.

The product never reads the TripleA XML at run time; ``scripts/gen_classic_board.py`` turns
it into ``adjudicator/boards/data/classic.json`` once, by hand, and a test checks the shipped
file still equals a fresh generation. Keys are sorted and every list is sorted except the
players, whose order is the turn order.
"""

from __future__ import annotations

import json
from typing import Any

from adjudicator.boards.model import Board, BoardError, Canal, Player, Territory

FORMAT = 1
"""Version of the JSON layout; bump it when the layout changes."""


def board_to_dict(board: Board) -> dict[str, Any]:
    """A JSON-ready dict of ``board`` (the clarifications applied are not recorded)."""
    return {
        "format": FORMAT,
        "name": board.name,
        "players": [{"name": p.name, "alliance": p.alliance} for p in board.players],
        "territories": [
            {
                "name": t.name,
                "is_sea": t.is_sea,
                "ipc": t.ipc,
                "original_owner": t.original_owner,
                "capital_of": t.capital_of,
                "original_factory": t.original_factory,
                "impassable": t.impassable,
            }
            for t in board.territories.values()
        ],
        "connections": [list(pair) for pair in board.connections()],
        "canals": [
            {
                "name": c.name,
                "sea_zones": sorted(c.sea_zones),
                "land_territories": sorted(c.land_territories),
            }
            for c in board.canals
        ],
        "initial_units": {
            owner: {t: dict(counts) for t, counts in per_territory.items()}
            for owner, per_territory in board.initial_units.items()
        },
        "starting_resources": {p: dict(r) for p, r in board.starting_resources.items()},
        "unit_types": sorted(board.unit_types),
    }


def board_from_dict(data: dict[str, Any]) -> Board:
    """The board a :func:`board_to_dict` dict describes; BoardError on a foreign layout."""
    if data.get("format") != FORMAT:
        raise BoardError(f"board JSON format {data.get('format')!r}, expected {FORMAT}")
    return Board.build(
        name=data["name"],
        players=[Player(p["name"], p["alliance"]) for p in data["players"]],
        territories=[Territory(**t) for t in data["territories"]],
        connections=[(a, b) for a, b in data["connections"]],
        canals=[
            Canal(c["name"], frozenset(c["sea_zones"]), frozenset(c["land_territories"]))
            for c in data["canals"]
        ],
        initial_units=data["initial_units"],
        starting_resources=data["starting_resources"],
        unit_types=data["unit_types"],
    )


def dumps_board(board: Board) -> str:
    """The canonical text of ``board``: sorted keys, two-space indent, final newline."""
    return json.dumps(board_to_dict(board), sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def loads_board(text: str) -> Board:
    """The board in canonical JSON ``text``."""
    data = json.loads(text)
    if not isinstance(data, dict):
        raise BoardError("board JSON must be an object")
    return board_from_dict(data)
