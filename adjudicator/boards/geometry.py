"""The board's picture as data: where each territory and sea zone lies, in map pixels.

A :class:`BoardMap` is what :mod:`adjudicator.boards.drawing` needs to draw a position: the
outline(s) of every space, where its name and units go, the map's size and each power's
colour. It is read from TripleA's map files once, by hand (``scripts/gen_classic_map.py``,
:mod:`adjudicator.boards.triplea_map`), and shipped as compact JSON in
``adjudicator/boards/data/``: the product never reads TripleA's files at run time.

The JSON has one line per space, so a regenerated map diffs space by space::

    {"format": 1, "board": "World War II Classic", "width": 3500, "height": 2000,
     "colours": {"Germans": "#9c9c9c", ...}, "source": "...",
     "spaces": {
      "Germany": {"centre": [1072, 509], "places": [[975, 523], ...],
                  "polygons": [[1008, 441, 1010, 439, ...]]},
      ...}}

A polygon is a flat list ``x0, y0, x1, y1, ...`` (closed implicitly); an island space has
one polygon per piece.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from adjudicator.boards.model import BoardError

MAP_FORMAT = 1
"""Version of the map JSON layout; bump it when the layout changes."""

Point = tuple[int, int]
"""A pixel on the map: (x, y), y growing downwards."""
Ring = tuple[Point, ...]
"""A closed outline: the last point joins the first."""

_COLOUR = re.compile(r"#[0-9a-f]{6}")


class MapError(BoardError):
    """The map's geometry is unusable (a space without an outline, a point off the map ...)."""


@dataclass(frozen=True)
class SpaceShape:
    """One territory or sea zone on the map.

    ``polygons`` are its outlines (one per island or piece); ``centre`` is where its name
    and units are written; ``places`` are a few spots TripleA draws unit pictures at.
    """

    name: str
    polygons: tuple[Ring, ...]
    centre: Point
    places: tuple[Point, ...] = ()


@dataclass(frozen=True)
class BoardMap:
    """The picture of one board: ``width`` x ``height`` pixels, a shape per space, and each
    player's colour (``#rrggbb``, keyed by the board's player name, e.g. "Germans")."""

    board: str
    width: int
    height: int
    colours: Mapping[str, str]
    spaces: Mapping[str, SpaceShape]
    source: str = ""

    @classmethod
    def build(
        cls,
        *,
        board: str,
        width: int,
        height: int,
        colours: Mapping[str, str],
        spaces: Mapping[str, SpaceShape],
        source: str = "",
    ) -> BoardMap:
        """A checked, frozen map: MapError if a colour is not ``#rrggbb`` or a point lies
        off the map."""
        if width <= 0 or height <= 0:
            raise MapError(f"map size {width} x {height} is not a size")
        for player, colour in colours.items():
            if not _COLOUR.fullmatch(colour):
                raise MapError(f"colour of {player}: {colour!r} is not #rrggbb (lower case)")
        for shape in spaces.values():
            if not shape.polygons or any(len(ring) < 3 for ring in shape.polygons):
                raise MapError(f"{shape.name}: an outline needs at least three points")
            points = [p for ring in shape.polygons for p in ring]
            for x, y in [*points, shape.centre, *shape.places]:
                if not (0 <= x <= width and 0 <= y <= height):
                    raise MapError(f"{shape.name}: point ({x},{y}) lies off the map")
        return cls(
            board=board,
            width=width,
            height=height,
            colours=MappingProxyType(dict(sorted(colours.items()))),
            spaces=MappingProxyType({n: spaces[n] for n in sorted(spaces)}),
            source=source,
        )

    def shape(self, name: str) -> SpaceShape:
        """The shape of space ``name``; MapError if the map has none."""
        try:
            return self.spaces[name]
        except KeyError:
            raise MapError(f"the map of {self.board} has no space {name!r}") from None


def _compact(value: object) -> str:
    return json.dumps(value, separators=(", ", ": "), sort_keys=True, ensure_ascii=False)


def _flat(points: tuple[Point, ...]) -> list[int]:
    return [c for point in points for c in point]


def dumps_map(board_map: BoardMap) -> str:
    """The canonical text of ``board_map``: one line per space, sorted, final newline."""
    head = {
        "format": MAP_FORMAT,
        "board": board_map.board,
        "width": board_map.width,
        "height": board_map.height,
        "colours": dict(board_map.colours),
        "source": board_map.source,
    }
    lines = [f" {json.dumps(key)}: {_compact(value)}," for key, value in sorted(head.items())]
    spaces = [
        f"  {json.dumps(name, ensure_ascii=False)}: "
        + json.dumps(
            {
                "centre": list(shape.centre),
                "places": [list(p) for p in shape.places],
                "polygons": [_flat(ring) for ring in shape.polygons],
            },
            separators=(",", ":"),
            sort_keys=True,
        )
        for name, shape in board_map.spaces.items()
    ]
    return "{\n" + "\n".join(lines) + '\n "spaces": {\n' + ",\n".join(spaces) + "\n }\n}\n"


def _point(value: Any, what: str) -> Point:
    if not (isinstance(value, list) and len(value) == 2 and all(type(c) is int for c in value)):
        raise MapError(f"{what}: expected [x, y] in whole pixels, got {value!r}")
    return (value[0], value[1])


def _ring(value: Any, what: str) -> Ring:
    ok = isinstance(value, list) and len(value) % 2 == 0 and all(type(c) is int for c in value)
    if not ok:
        raise MapError(f"{what}: expected a flat list of whole-pixel x, y pairs")
    return tuple(zip(value[::2], value[1::2], strict=True))


def loads_map(text: str) -> BoardMap:
    """The map in :func:`dumps_map` ``text``; MapError on a foreign layout or bad data."""
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("format") != MAP_FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise MapError(f"map JSON format {found!r}, expected {MAP_FORMAT}")
    try:
        spaces = {
            name: SpaceShape(
                name=name,
                polygons=tuple(_ring(r, f"{name} polygon") for r in shape["polygons"]),
                centre=_point(shape["centre"], f"{name} centre"),
                places=tuple(_point(p, f"{name} place") for p in shape["places"]),
            )
            for name, shape in data["spaces"].items()
        }
        return BoardMap.build(
            board=data["board"],
            width=data["width"],
            height=data["height"],
            colours=data["colours"],
            spaces=spaces,
            source=data.get("source", ""),
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise MapError(f"map JSON is missing or misshapes {exc}") from None
