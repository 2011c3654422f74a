"""Boards shipped inside the package (never read from outside it at run time)."""

from __future__ import annotations

import functools
from importlib import resources

from adjudicator.boards.geometry import BoardMap, loads_map
from adjudicator.boards.iaapa_overlay import apply_overlay
from adjudicator.boards.model import Board
from adjudicator.boards.serialize import loads_board

CLASSIC_JSON = "classic.json"
"""File name of the Classic board under ``adjudicator/boards/data/``."""
BIG_WORLD_JSON = "big_world_1942.json"
"""File name of TripleA's Big World 1942 board, same folder (``scripts/gen_big_world.py``)."""
CLASSIC_MAP_JSON = "classic_map.json"
"""File name of the Classic board's picture (outlines, centres, colours), same folder."""


def shipped_text(filename: str) -> str:
    """The text of a board file shipped in ``adjudicator/boards/data/``."""
    data = resources.files("adjudicator.boards").joinpath("data").joinpath(filename)
    return data.read_text(encoding="utf-8")


@functools.cache
def classic_unclarified() -> Board:
    """TripleA's Classic map exactly as generated from ``classic.xml``, no overlay."""
    return loads_board(shipped_text(CLASSIC_JSON))


@functools.cache
def classic() -> Board:
    """The Classic (2nd edition) board as the IAAPA plays it: the GEOGRAPHY overlay applied."""
    return apply_overlay(classic_unclarified())


@functools.cache
def classic_map() -> BoardMap:
    """The picture of the Classic board: every space's outline, centre and the powers' colours
    (generated from TripleA's ``world_war_ii_classic`` map by ``scripts/gen_classic_map.py``)."""
    return loads_map(shipped_text(CLASSIC_MAP_JSON))


@functools.cache
def big_world() -> Board:
    """TripleA's Big World 1942 board as generated from ``big_world_1942.xml`` (its places,
    for the names of a Big World game's battles)."""
    return loads_board(shipped_text(BIG_WORLD_JSON))
