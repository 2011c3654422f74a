"""Read a TripleA map's geometry files into a :class:`BoardMap` (by hand, never at run time).

TripleA ships a map's picture beside its game file: ``polygons.txt`` (``Name  < (x,y) ... >``,
one ``< >`` group per piece), ``centers.txt`` (``Name  (x,y)``, where the name and units are
written), ``place.txt`` (``Name  (x,y) (x,y) ...``, spots for unit pictures) and
``map.properties`` (``map.width``, ``map.height``, ``color.<player>=rrggbb``). The outlines
are traced pixel by pixel; :func:`simplify_ring` keeps only the points that bend the line by
more than a pixel, which shrinks the Classic map about fourfold with no visible change.

Names must be the board's own: the game file and its map come from the same TripleA map, so
a space of one missing from the other is a MapError naming it.
"""

from __future__ import annotations

import re
from pathlib import Path

from adjudicator.boards.geometry import BoardMap, MapError, Point, Ring, SpaceShape
from adjudicator.boards.model import Board
from adjudicator.boards.triplea import StrPath

TOLERANCE = 1
"""Simplification tolerance in pixels: a point nearer than this to the straight line between
the points kept around it is dropped."""
PLACES_KEPT = 4
"""How many of TripleA's unit spots each space keeps."""

_POINT = re.compile(r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")
_GROUP = re.compile(r"<([^<>]*)>")
_FIRST = re.compile(r"<\s*\(|\(\s*-?\d+\s*,\s*-?\d+\s*\)")


def _name_and_rest(line: str, where: str) -> tuple[str, str]:
    """The name before the first point (or ``<`` group) of the line, and the rest."""
    first = _FIRST.search(line)
    name = line[: first.start()].strip() if first else ""
    if not first or not name:
        raise MapError(f"{where}: expected 'Name  (x,y) ...', got {line.strip()[:60]!r}")
    return name, line[first.start() :]


def _points(text: str) -> tuple[Point, ...]:
    return tuple((int(x), int(y)) for x, y in _POINT.findall(text))


def _lines(path: Path) -> list[tuple[str, str, str]]:
    """(name, rest of line, "file:line") of every non-blank line of a points file."""
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip() and not line.lstrip().startswith("#"):
            where = f"{path.name}:{number}"
            found.append((*_name_and_rest(line.split("|")[0], where), where))
    return found


def _properties(path: Path) -> dict[str, str]:
    """``key=value`` lines, as Java reads a .properties file (a repeated key: the last wins)."""
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and line[0] not in "#!" and "=" in line:
            key, value = line.split("=", 1)
            found[key.strip()] = value.strip()
    return found


def _far_side(a: Point, b: Point, p: Point) -> int:
    """Twice the area of triangle a, b, p: the distance of p from line ab times |ab|."""
    return abs((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]))


def _simplify_line(points: list[Point], tolerance: int) -> list[Point]:
    """Ramer-Douglas-Peucker in whole numbers: the kept points of an open line, both ends
    included. Integer arithmetic, so the result never depends on rounding."""
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        first, last = stack.pop()
        a, b = points[first], points[last]
        length2 = (b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2
        worst, index = -1, -1
        for i in range(first + 1, last):
            p = points[i]
            if length2:
                far = _far_side(a, b, p) ** 2
            else:
                far = (p[0] - a[0]) ** 2 + (p[1] - a[1]) ** 2
            if far > worst:
                worst, index = far, i
        if index >= 0 and worst > tolerance**2 * (length2 or 1):
            keep[index] = True
            stack += [(first, index), (index, last)]
    return [p for p, kept in zip(points, keep, strict=True) if kept]


def simplify_ring(ring: Ring, tolerance: int = TOLERANCE) -> Ring:
    """``ring`` with repeated points dropped and every point within ``tolerance`` pixels of
    the line through its kept neighbours removed; the first point and the point farthest
    from it always stay, so an outline never collapses below a triangle's worth of shape."""
    points: list[Point] = []
    for p in ring:
        if not points or p != points[-1]:
            points.append(p)
    while len(points) > 1 and points[-1] == points[0]:
        points.pop()
    if len(points) <= 3:
        return tuple(points)
    start = points[0]
    far = max(
        range(len(points)),
        key=lambda i: ((points[i][0] - start[0]) ** 2 + (points[i][1] - start[1]) ** 2, -i),
    )
    there = _simplify_line(points[: far + 1], tolerance)
    back = _simplify_line([*points[far:], start], tolerance)
    return tuple(there + back[1:-1])


def read_triplea_map(directory: StrPath, board: Board, *, source: str = "") -> BoardMap:
    """The map of ``board`` from the TripleA map files in ``directory``, outlines simplified.

    MapError if a space of the board has no outline or centre there, or the files name a
    space the board lacks.
    """
    folder = Path(directory)
    polygons: dict[str, tuple[Ring, ...]] = {}
    for name, rest, where in _lines(folder / "polygons.txt"):
        pieces = tuple(simplify_ring(_points(group)) for group in _GROUP.findall(rest))
        if not pieces:
            raise MapError(f"{where}: {name} has no '< (x,y) ... >' outline")
        polygons[name] = polygons.get(name, ()) + pieces
    centres: dict[str, Point] = {}
    for name, rest, where in _lines(folder / "centers.txt"):
        found = _points(rest)
        if len(found) != 1:
            raise MapError(f"{where}: {name} should have one centre, has {len(found)}")
        centres[name] = found[0]
    places = {name: _points(rest)[:PLACES_KEPT] for name, rest, _ in _lines(folder / "place.txt")}

    spaces = set(board.territories)
    for what, named in (("outline", polygons), ("centre", centres)):
        missing, extra = sorted(spaces - set(named)), sorted(set(named) - spaces)
        if missing or extra:
            raise MapError(
                f"{board.name} and the map's {what}s disagree: no {what} for "
                f"{', '.join(missing) or 'none'}; {what}s of unknown "
                f"{', '.join(extra) or 'none'}"
            )
    unknown = sorted(set(places) - spaces)
    if unknown:
        raise MapError(f"place.txt names spaces {board.name} lacks: {', '.join(unknown)}")

    props = _properties(folder / "map.properties")
    colours = {}
    for player in board.players:
        value = props.get(f"color.{player.name}", "")
        if not re.fullmatch(r"[0-9A-Fa-f]{6}", value):
            raise MapError(f"map.properties: color.{player.name} is {value!r}, not rrggbb")
        colours[player.name] = "#" + value.lower()
    try:
        width, height = int(props["map.width"]), int(props["map.height"])
    except (KeyError, ValueError):
        raise MapError("map.properties: map.width and map.height must be whole numbers") from None
    return BoardMap.build(
        board=board.name,
        width=width,
        height=height,
        colours=colours,
        spaces={
            name: SpaceShape(name, polygons[name], centres[name], places.get(name, ()))
            for name in spaces
        },
        source=source,
    )
