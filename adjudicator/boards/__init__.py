"""Boards: the map, its connections and opening set-up, read from TripleA game files."""

from adjudicator.boards.iaapa_overlay import IAAPA_GEOGRAPHY, OverlayError, apply_overlay
from adjudicator.boards.model import NEUTRAL, Board, BoardError, Canal, Player, Territory
from adjudicator.boards.serialize import board_from_dict, board_to_dict, dumps_board, loads_board
from adjudicator.boards.shipped import classic, classic_unclarified
from adjudicator.boards.triplea import load_triplea_units, load_triplea_xml

__all__ = [
    "IAAPA_GEOGRAPHY",
    "NEUTRAL",
    "Board",
    "BoardError",
    "Canal",
    "OverlayError",
    "Player",
    "Territory",
    "apply_overlay",
    "board_from_dict",
    "board_to_dict",
    "classic",
    "classic_unclarified",
    "dumps_board",
    "load_triplea_units",
    "load_triplea_xml",
    "loads_board",
]
