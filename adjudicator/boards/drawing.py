"""A position drawn as a picture of the board: an SVG document, for the game's pages and mail.

Every territory and sea zone is drawn from the board's map (:mod:`adjudicator.boards.geometry`):
land in its owner's colour (TripleA's ``map.properties`` colours), unowned neutrals light grey,
sea zones blue. Each space carries a ``<title>`` (its name, holder, value and units: the
tooltip a browser shows), and each power's units in it are written at its centre, one rounded
box per power in that power's colour ("3 INF 1 ARM"). A band under the map says the round,
the power to move, and each power's bank, territories and their IPC value.

The output is a pure function of the position: same position, same bytes (spaces by name,
powers in turn order, whole-pixel coordinates). It has a ``viewBox`` and no fixed size, so
it scales to the screen it is shown on.
"""

from __future__ import annotations

from collections.abc import Iterator
from xml.sax.saxutils import escape, quoteattr

from adjudicator.boards.geometry import BoardMap, MapError, Ring, SpaceShape
from adjudicator.boards.model import Territory
from adjudicator.boards.shipped import classic_map
from adjudicator.position.model import Position
from adjudicator.position.serialize import POWER_NAMES
from adjudicator.powers import TURN_ORDER, Power
from adjudicator.units import Units

SEA = "#a8d4e8"
"""Fill of every sea zone."""
SEA_EDGE = "#5f95b3"
NEUTRAL_LAND = "#dcdcdc"
"""Fill of land nobody holds (the neutrals): a light grey, apart from Germany's mid grey."""
LAND_EDGE = "#2b2b2b"
BAND = 110
"""Height of the band under the map that holds the round and the powers' banks."""

NAME_SIZE = 17
SEA_NAME_SIZE = 15
UNIT_SIZE = 14
UNIT_ADVANCE_TENTHS = 84
"""Width of one character of the boxes' monospaced text, in tenths of a pixel (0.6 em)."""
UNIT_LINE = 17
UNIT_PAD = 4
BOX_GAP = 3
GROUPS_PER_LINE = 2
"""Unit types per line of a box ("2 INF 1 ARM" over "1 AA 2 FTR"): narrow boxes, so the
crowded spaces of Europe overlap their neighbours less."""


def draw_svg(position: Position, board_map: BoardMap | None = None) -> str:
    """The SVG document of ``position`` drawn on ``board_map`` (default: the Classic map).

    MapError if the map is not of the position's board or lacks one of its spaces.
    """
    board_map = board_map or classic_map()
    board = position.board
    if board_map.board != board.name:
        raise MapError(f"the map is of {board_map.board!r}, the position of {board.name!r}")
    for name in board.territories:
        board_map.shape(name)
    width, height = board_map.width, board_map.height
    names = sorted(board.territories)
    seas = [n for n in names if board.territories[n].is_sea]
    lands = [n for n in names if not board.territories[n].is_sea]
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height + BAND}" '
        'font-family="DejaVu Sans, Verdana, Arial, sans-serif">',
        f"<title>{escape(_heading(position))}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="{SEA}"/>',
        f'<g id="sea" stroke="{SEA_EDGE}" stroke-width="2">',
        *(_space(position, board_map.spaces[n], SEA) for n in seas),
        "</g>",
        f'<g id="land" stroke="{LAND_EDGE}" stroke-width="2" stroke-linejoin="round">',
        *(_space(position, board_map.spaces[n], _fill(position, board_map, n)) for n in lands),
        "</g>",
        '<g id="names" pointer-events="none" text-anchor="middle" stroke="#ffffff" '
        'stroke-width="4" '
        'stroke-opacity="0.8" stroke-linejoin="round" paint-order="stroke">',
        *(_name_label(position, board_map, n) for n in names),
        "</g>",
        '<g id="units" pointer-events="none" text-anchor="middle" stroke="#000000" '
        'stroke-width="1.5" '
        f'font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-weight="bold" '
        f'font-size="{UNIT_SIZE}">',
        *(box for n in names for box in _unit_boxes(position, board_map, n)),
        "</g>",
        *_band(position, board_map),
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


def _heading(position: Position) -> str:
    mover = POWER_NAMES[position.to_move]
    return f"{position.board.name}: round {position.round}, {mover} to move"


def _fill(position: Position, board_map: BoardMap, name: str) -> str:
    owner = position.owner(name)
    return NEUTRAL_LAND if owner is None else _colour(board_map, owner)


def _colour(board_map: BoardMap, power: Power) -> str:
    try:
        return board_map.colours[power.triplea_name]
    except KeyError:
        raise MapError(f"the map has no colour for {power.triplea_name}") from None


def _path(rings: tuple[Ring, ...]) -> str:
    """SVG path data: one closed sub-path per outline ("M x y L x y x y ... Z")."""
    return "".join(
        f"M{ring[0][0]} {ring[0][1]}L" + " ".join(f"{x} {y}" for x, y in ring[1:]) + "Z"
        for ring in rings
    )


def _space(position: Position, shape: SpaceShape, fill: str) -> str:
    territory = position.board.territories[shape.name]
    return (
        f'<path d="{_path(shape.polygons)}" fill={quoteattr(fill)}>'
        f"<title>{escape(describe(position, territory))}</title></path>"
    )


def describe(position: Position, territory: Territory) -> str:
    """The tooltip of a space, one fact a line: its name; for land, who holds it, its IPC
    value and whose capital it is; then each power's units there ("Germany: 4 INF, 2 ARM")."""
    lines = [territory.name]
    if territory.is_land:
        owner = position.owner(territory.name)
        facts = [f"held by {POWER_NAMES[owner]}" if owner else "neutral"]
        if territory.ipc:
            facts.append(f"{territory.ipc} IPC")
        if territory.capital_of:
            facts.append(f"capital of {_power_name(territory.capital_of)}")
        lines.append(", ".join(facts))
    for power, units in _units_by_turn(position, territory.name):
        lines.append(f"{POWER_NAMES[power]}: {units.label()}")
    return "\n".join(lines)


def _power_name(triplea_name: str) -> str:
    try:
        return POWER_NAMES[Power.from_triplea(triplea_name)]
    except ValueError:
        return triplea_name


def _units_by_turn(position: Position, space: str) -> Iterator[tuple[Power, Units]]:
    here = position.units_at(space)
    for power in TURN_ORDER:
        units = here.get(power)
        if units:
            yield power, units


def _unit_lines(units: Units) -> list[str]:
    groups = [f"{n} {unit.value}" for unit, n in units.counts]
    return [
        " ".join(groups[i : i + GROUPS_PER_LINE]) for i in range(0, len(groups), GROUPS_PER_LINE)
    ]


def _ink(colour: str) -> str:
    """Black or white text, whichever reads better on ``colour`` (ITU-R BT.601 luma)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 299 * r + 587 * g + 114 * b >= 140_000 else "#ffffff"


def _name_label(position: Position, board_map: BoardMap, name: str) -> str:
    """The space's name (a sea zone's without "Sea Zone"; a capital's in bold), on top of
    its stack of unit boxes, with a white halo so it reads on any fill."""
    territory = position.board.territories[name]
    size = SEA_NAME_SIZE if territory.is_sea else NAME_SIZE
    cx, top = _stack_top(position, board_map, name)
    label = name.removesuffix(" Sea Zone") if territory.is_sea else name
    if territory.is_sea:
        style = ' font-style="italic" fill="#1d4f6b"'
    else:
        style = ' font-weight="bold"' if territory.capital_of else ""
    return f'<text x="{cx}" y="{top + size - 3}" font-size="{size}"{style}>{escape(label)}</text>'


def _box_height(lines: list[str]) -> int:
    return len(lines) * UNIT_LINE + 2 * UNIT_PAD


def _stack_top(position: Position, board_map: BoardMap, name: str) -> tuple[int, int]:
    """Where the stack of a space's name and unit boxes starts: (centre x, top y), so the
    whole stack is centred on the space's centre."""
    size = SEA_NAME_SIZE if position.board.territories[name].is_sea else NAME_SIZE
    heights = [
        _box_height(_unit_lines(units)) + BOX_GAP for _, units in _units_by_turn(position, name)
    ]
    cx, cy = board_map.spaces[name].centre
    return cx, cy - (size + BOX_GAP + sum(heights)) // 2


def _unit_boxes(position: Position, board_map: BoardMap, name: str) -> Iterator[str]:
    """One rounded box per power with units in the space, in turn order, in its colour;
    the boxes of a space are grouped under its name (``data-space``)."""
    territory = position.board.territories[name]
    if not position.units_at(name):
        return
    cx, y = _stack_top(position, board_map, name)
    y += (SEA_NAME_SIZE if territory.is_sea else NAME_SIZE) + BOX_GAP
    yield f"<g data-space={quoteattr(name)}>"
    for power, units in _units_by_turn(position, name):
        lines = _unit_lines(units)
        colour = _colour(board_map, power)
        width = (max(len(line) for line in lines) * UNIT_ADVANCE_TENTHS + 9) // 10 + 2 * UNIT_PAD
        height = _box_height(lines)
        tspans = "".join(
            f'<tspan x="{cx}" y="{y + UNIT_PAD + (i + 1) * UNIT_LINE - 4}">{escape(line)}</tspan>'
            for i, line in enumerate(lines)
        )
        yield (
            f'<rect x="{cx - width // 2}" y="{y}" width="{width}" height="{height}" rx="5" '
            f'fill="{colour}"/><text fill="{_ink(colour)}" stroke="none">{tspans}</text>'
        )
        y += height + BOX_GAP
    yield "</g>"


def _band(position: Position, board_map: BoardMap) -> Iterator[str]:
    """Under the map: the round and power to move, then each power's bank and holdings."""
    top = board_map.height
    yield (
        f'<g id="band"><rect x="0" y="{top}" width="{board_map.width}" height="{BAND}" '
        'fill="#f4f4f0" stroke="#2b2b2b" stroke-width="2"/>'
    )
    yield (
        f'<text x="20" y="{top + 40}" font-size="30" font-weight="bold">'
        f"{escape(_heading(position))}</text>"
    )
    step = board_map.width // len(TURN_ORDER)
    for i, power in enumerate(TURN_ORDER):
        x = 20 + i * step
        colour = _colour(board_map, power)
        mover = ' font-weight="bold"' if power is position.to_move else ""
        text = (
            f"{POWER_NAMES[power]}: bank {position.bank.get(power, 0)}, "
            f"{position.territory_count(power)} territories, {position.ipc_count(power)} IPC"
        )
        yield (
            f'<rect x="{x}" y="{top + 60}" width="36" height="36" rx="5" fill="{colour}" '
            f'stroke="#000000" stroke-width="1.5"/>'
            f'<text x="{x + 46}" y="{top + 88}" font-size="26"{mover}>{escape(text)}</text>'
        )
    yield "</g>"
