"""The board's picture: the shipped map data (from TripleA's map files) and the SVG drawing of
a position (issue 14, point 6)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from xml.etree.ElementTree import Element

import pytest
from defusedxml import ElementTree

from adjudicator.boards import (
    Board,
    BoardMap,
    MapError,
    Player,
    SpaceShape,
    Territory,
    classic,
    classic_map,
    classic_unclarified,
    dumps_map,
    loads_map,
    read_triplea_map,
)
from adjudicator.boards.drawing import NEUTRAL_LAND, SEA, describe, draw_svg
from adjudicator.boards.shipped import CLASSIC_MAP_JSON, shipped_text
from adjudicator.boards.triplea_map import simplify_ring
from adjudicator.position import Position, dump_json, initial, load_json
from adjudicator.powers import TURN_ORDER, Power
from adjudicator.units import Units, UnitType

PROJECT = Path(__file__).resolve().parents[3]
MAP_SOURCE = PROJECT.parent / "shared" / "data" / "triplea" / "world_war_ii_classic"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def opening_svg() -> str:
    return draw_svg(initial())


def _tree(svg: str) -> Element:
    return ElementTree.fromstring(svg.encode("utf-8"))


def _paths(svg: str) -> dict[str, Element]:
    """Each space's <path>, by the first line of its <title> (the space's name)."""
    found: dict[str, Element] = {}
    for path in _tree(svg).iter(f"{SVG}path"):
        title = path.find(f"{SVG}title")
        assert title is not None and title.text
        name = title.text.split("\n")[0]
        assert name not in found, f"two shapes are titled {name!r}"
        found[name] = path
    return found


def _unit_boxes(svg: str, space: str) -> list[tuple[str, list[str]]]:
    """(fill, lines of text) of each unit box drawn for ``space``."""
    for group in _tree(svg).iter(f"{SVG}g"):
        if group.get("data-space") == space:
            rects = group.findall(f"{SVG}rect")
            texts = group.findall(f"{SVG}text")
            return [
                (rect.get("fill", ""), [t.text or "" for t in text.findall(f"{SVG}tspan")])
                for rect, text in zip(rects, texts, strict=True)
            ]
    return []


# --- the map data -----------------------------------------------------------------------------


def test_the_map_has_every_space_of_the_board_by_its_canonical_name() -> None:
    board_map = classic_map()
    assert board_map.board == classic().name
    assert (
        set(board_map.spaces)
        == set(classic().territories)
        == set(classic_unclarified().territories)
    )
    assert len(board_map.spaces) == 128


def test_every_outline_lies_within_the_map() -> None:
    board_map = classic_map()
    assert (board_map.width, board_map.height) == (3500, 2000)
    for shape in board_map.spaces.values():
        assert shape.polygons, shape.name
        for ring in shape.polygons:
            assert len(ring) >= 3, shape.name
            for x, y in ring:
                assert 0 <= x <= board_map.width and 0 <= y <= board_map.height, shape.name
        cx, cy = shape.centre
        assert 0 <= cx <= board_map.width and 0 <= cy <= board_map.height, shape.name


def test_each_power_has_its_triplea_colour() -> None:
    colours = classic_map().colours
    assert {p.triplea_name for p in TURN_ORDER} == set(colours)
    assert colours["Germans"] == "#9c9c9c"
    assert colours["Japanese"] == "#ff9900"


def test_the_shipped_map_is_compact_and_reads_back() -> None:
    text = shipped_text(CLASSIC_MAP_JSON)
    assert len(text.encode("utf-8")) < 300_000
    assert text.count("\n") == len(classic_map().spaces) + 10
    assert dumps_map(loads_map(text)) == text
    assert loads_map(text) == classic_map()


def test_islands_keep_every_piece() -> None:
    """Simplifying never loses an island: TripleA draws the Hawaiian Islands in 6 pieces, the
    Philippines in 8, South Europe as Italy and Sicily ... 173 in all."""
    board_map = classic_map()
    assert len(board_map.shape("Hawaiian Islands").polygons) == 6
    assert len(board_map.shape("Philippines").polygons) == 8
    assert len(board_map.shape("South Europe").polygons) == 2
    assert sum(len(shape.polygons) for shape in board_map.spaces.values()) == 173


def test_shipped_map_equals_a_fresh_generation(tmp_path: Path) -> None:
    """If this fails, run scripts/gen_classic_map.py and review the diff."""
    if not (MAP_SOURCE / "polygons.txt").is_file():
        pytest.fail(f"{MAP_SOURCE} is missing: the tests need ../shared beside the project")
    spec = importlib.util.spec_from_file_location(
        "gen_classic_map", PROJECT / "scripts" / "gen_classic_map.py"
    )
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    target = tmp_path / "classic_map.json"
    script.TARGET = target  # type: ignore[attr-defined]
    assert script.main(["gen", str(MAP_SOURCE)]) == 0
    assert target.read_text(encoding="utf-8") == shipped_text(CLASSIC_MAP_JSON)


def test_simplification_keeps_corners_and_drops_pixel_steps() -> None:
    square = ((0, 0), (5, 0), (10, 0), (10, 10), (10, 10), (0, 10), (0, 5))
    assert simplify_ring(square) == ((0, 0), (10, 0), (10, 10), (0, 10))
    staircase = (*((i, i // 2) for i in range(40)), (0, 30))
    assert len(simplify_ring(staircase)) == 3
    assert simplify_ring(((1, 1), (2, 1), (1, 2))) == ((1, 1), (2, 1), (1, 2))


def _tiny_board(name: str = "Rhine & Ruhr", sea: str = '<North> "Sea"') -> Board:
    return Board.build(
        name="Test & Board",
        players=[Player(p.triplea_name) for p in TURN_ORDER],
        territories=[
            Territory(name, is_sea=False, ipc=3, original_owner="Germans"),
            Territory(sea, is_sea=True),
        ],
        connections=[(name, sea)],
    )


def _write_map_files(folder: Path, names: list[str]) -> None:
    folder.mkdir()
    (folder / "polygons.txt").write_text(
        "\n".join(f"{n}  <  (0,0) (0,5) (1,5) (2,5) (9,5) (9,0) >" for n in names) + "\n"
    )
    (folder / "centers.txt").write_text("\n".join(f"{n}  (4,2)" for n in names) + "\n")
    (folder / "place.txt").write_text("\n".join(f"{n}  (1,1)  (2,2)" for n in names) + "\n")
    colours = "\n".join(f"color.{p.triplea_name}=AbCdEf" for p in TURN_ORDER)
    (folder / "map.properties").write_text(f"# colours\n{colours}\nmap.width=10\nmap.height=6\n")


def test_reading_triplea_map_files(tmp_path: Path) -> None:
    board = _tiny_board()
    _write_map_files(tmp_path / "map", sorted(board.territories))
    board_map = read_triplea_map(tmp_path / "map", board, source="test")
    assert board_map.colours["Germans"] == "#abcdef"
    assert board_map.shape("Rhine & Ruhr") == SpaceShape(
        "Rhine & Ruhr", (((0, 0), (0, 5), (9, 5), (9, 0)),), (4, 2), ((1, 1), (2, 2))
    )


def test_a_map_naming_a_space_the_board_lacks_is_refused(tmp_path: Path) -> None:
    board = _tiny_board()
    _write_map_files(tmp_path / "map", ["Rhine and Ruhr", '<North> "Sea"'])
    with pytest.raises(MapError, match=r"no outline for Rhine & Ruhr; outlines of unknown Rhine"):
        read_triplea_map(tmp_path / "map", board)


def test_a_point_off_the_map_is_refused() -> None:
    shape = SpaceShape("Far", (((0, 0), (20, 0), (0, 5)),), (1, 1))
    with pytest.raises(MapError, match=r"Far: point \(20,0\) lies off the map"):
        BoardMap.build(board="B", width=10, height=10, colours={}, spaces={"Far": shape})


# --- the drawing --------------------------------------------------------------------------


def test_the_drawing_is_an_svg_document_that_scales(opening_svg: str) -> None:
    root = _tree(opening_svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") == "0 0 3500 2110"
    assert root.get("width") is None and root.get("height") is None


def test_each_space_is_drawn_once_with_its_name_as_title(opening_svg: str) -> None:
    assert set(_paths(opening_svg)) == set(classic().territories)
    titles = [p.find(f"{SVG}title") for p in _tree(opening_svg).iter(f"{SVG}path")]
    assert len(titles) == len(classic().territories)


def test_land_takes_its_owners_colour_and_sea_the_sea_colour(opening_svg: str) -> None:
    paths = _paths(opening_svg)
    colours = classic_map().colours
    assert paths["Germany"].get("fill") == colours["Germans"]
    assert paths["Russia"].get("fill") == colours["Russians"]
    assert paths["Baltic Sea Zone"].get("fill") == SEA
    assert paths["Sweden"].get("fill") == NEUTRAL_LAND


def test_the_units_of_a_space_are_written_in_boxes_of_their_powers_colour(
    opening_svg: str,
) -> None:
    """The UK opens with 2 INF, 1 ARM, 2 FTR, 1 BMB, 1 AA and an IC in the United Kingdom."""
    assert _unit_boxes(opening_svg, "United Kingdom") == [
        ("#996600", ["2 INF 1 ARM", "2 FTR 1 BMB", "1 AA 1 IC"])
    ]
    assert _unit_boxes(opening_svg, "Sweden") == []


def test_a_space_holding_several_powers_has_a_box_for_each_in_turn_order() -> None:
    position = initial().with_units("Baltic Sea Zone", Power.UK, Units.of({UnitType.SUB: 2}))
    boxes = _unit_boxes(draw_svg(position), "Baltic Sea Zone")
    assert boxes == [("#9c9c9c", ["1 TRN 1 SUB"]), ("#996600", ["2 SUB"])]


def test_the_title_tells_holder_value_and_units(opening_svg: str) -> None:
    title = _paths(opening_svg)["Germany"].find(f"{SVG}title")
    assert title is not None
    assert title.text == (
        "Germany\nheld by Germany, 10 IPC, capital of Germany\n"
        "Germany: 4 INF, 2 ARM, 1 FTR, 1 BMB, 1 AA, 1 IC"
    )
    position = initial()
    assert describe(position, position.board.territory("Sweden")) == "Sweden\nneutral"


def test_a_territory_changing_hands_changes_colour() -> None:
    colours = classic_map().colours
    moved = initial().with_owner("Karelia S.S.R.", Power.GERMANY).with_owner("Eire", Power.UK)
    paths = _paths(draw_svg(moved))
    assert paths["Karelia S.S.R."].get("fill") == colours["Germans"]
    assert paths["Eire"].get("fill") == colours["British"]


def test_the_band_names_the_round_the_mover_and_the_banks(opening_svg: str) -> None:
    texts = [t.text or "" for t in _tree(opening_svg).iter(f"{SVG}text")]
    assert "World War II Classic: round 1, USSR to move" in texts
    assert "Germany: bank 32, 8 territories, 32 IPC" in texts


def test_the_drawing_is_deterministic(opening_svg: str) -> None:
    reloaded = load_json(json.loads(json.dumps(dump_json(initial()))))
    assert draw_svg(reloaded) == opening_svg
    assert draw_svg(initial()) == opening_svg


def _tiny_position() -> tuple[Position, BoardMap]:
    board = _tiny_board()
    ring = ((0, 0), (9, 0), (9, 5))
    board_map = BoardMap.build(
        board=board.name,
        width=10,
        height=6,
        colours={p.triplea_name: "#123456" for p in TURN_ORDER},
        spaces={n: SpaceShape(n, (ring,), (4, 2)) for n in board.territories},
    )
    position = Position.of(
        board,
        owners={"Rhine & Ruhr": Power.GERMANY},
        units={"Rhine & Ruhr": {Power.GERMANY: Units.of({UnitType.INF: 2})}},
    )
    return position, board_map


def test_names_are_escaped() -> None:
    position, board_map = _tiny_position()
    svg = draw_svg(position, board_map)
    assert "Rhine &amp; Ruhr" in svg and "&lt;North&gt;" in svg
    paths = _paths(svg)
    assert set(paths) == {"Rhine & Ruhr", '<North> "Sea"'}
    assert _unit_boxes(svg, "Rhine & Ruhr") == [("#123456", ["2 INF"])]
    texts = [t.text for t in _tree(svg).iter(f"{SVG}text")]
    assert "Test & Board: round 1, USSR to move" in texts
    assert '<North> "Sea"' in texts


def test_a_map_of_another_board_is_refused() -> None:
    position, _ = _tiny_position()
    with pytest.raises(MapError, match="the map is of 'World War II Classic'"):
        draw_svg(position)
