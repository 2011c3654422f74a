"""Boards: the map, its connections and opening set-up, read from TripleA game files, and
the board's picture (outlines, centres, colours) read from TripleA's map files. Drawing a
position is :func:`adjudicator.boards.drawing.draw_svg` (not imported here: it needs
:mod:`adjudicator.position`, which needs this package)."""

from adjudicator.boards.geometry import BoardMap, MapError, SpaceShape, dumps_map, loads_map
from adjudicator.boards.iaapa_overlay import IAAPA_GEOGRAPHY, OverlayError, apply_overlay
from adjudicator.boards.model import NEUTRAL, Board, BoardError, Canal, Player, Territory
from adjudicator.boards.serialize import board_from_dict, board_to_dict, dumps_board, loads_board
from adjudicator.boards.shipped import classic, classic_map, classic_unclarified
from adjudicator.boards.triplea import load_triplea_units, load_triplea_xml
from adjudicator.boards.triplea_map import read_triplea_map

__all__ = [
    "IAAPA_GEOGRAPHY",
    "NEUTRAL",
    "Board",
    "BoardError",
    "BoardMap",
    "Canal",
    "MapError",
    "OverlayError",
    "Player",
    "SpaceShape",
    "Territory",
    "apply_overlay",
    "board_from_dict",
    "board_to_dict",
    "classic",
    "classic_map",
    "classic_unclarified",
    "dumps_board",
    "dumps_map",
    "load_triplea_units",
    "load_triplea_xml",
    "loads_board",
    "loads_map",
    "read_triplea_map",
]
