"""The Classic board shipped as JSON in the package, and its generation from classic.xml."""

from __future__ import annotations

import ast
import importlib.util
import json
from pathlib import Path

import pytest

from adjudicator.boards import (
    Board,
    BoardError,
    board_to_dict,
    classic,
    classic_unclarified,
    dumps_board,
    load_triplea_xml,
    loads_board,
)
from adjudicator.boards.shipped import CLASSIC_JSON, shipped_text

PROJECT = Path(__file__).resolve().parents[3]


def test_shipped_json_equals_a_fresh_generation(classic_xml: Path) -> None:
    """If this fails, run scripts/gen_classic_board.py and review the diff."""
    assert shipped_text(CLASSIC_JSON) == dumps_board(load_triplea_xml(classic_xml))


def test_the_generation_script_writes_the_same_text(classic_xml: Path, tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location(
        "gen_classic_board", PROJECT / "scripts" / "gen_classic_board.py"
    )
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    target = tmp_path / "classic.json"
    script.TARGET = target  # type: ignore[attr-defined]
    assert script.main(["gen", str(classic_xml)]) == 0
    assert target.read_text(encoding="utf-8") == shipped_text(CLASSIC_JSON)


def test_shipped_board_equals_the_xml_board(xml_board: Board) -> None:
    assert classic_unclarified() == xml_board


def test_json_round_trip(xml_board: Board) -> None:
    assert loads_board(dumps_board(xml_board)) == xml_board


def test_json_is_sorted_and_stable() -> None:
    text = shipped_text(CLASSIC_JSON)
    data = json.loads(text)
    assert text == json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    names = [t["name"] for t in data["territories"]]
    assert names == sorted(names)
    assert data["connections"] == sorted(data["connections"])
    assert all(a < b for a, b in data["connections"])


def test_players_keep_turn_order_in_json() -> None:
    data = json.loads(shipped_text(CLASSIC_JSON))
    assert [p["name"] for p in data["players"]] == [
        "Russians",
        "Germans",
        "British",
        "Japanese",
        "Americans",
    ]


def test_a_foreign_json_layout_is_refused() -> None:
    data = board_to_dict(classic_unclarified())
    data["format"] = 99
    with pytest.raises(BoardError, match="format 99"):
        loads_board(json.dumps(data))
    with pytest.raises(BoardError, match="object"):
        loads_board("[]")


def test_classic_is_cached_and_clarified() -> None:
    assert classic() is classic()
    assert classic().clarifications == tuple(f"GEOGRAPHY {n}" for n in range(1, 7))
    assert classic_unclarified().clarifications == ()


def _code_strings(tree: ast.AST) -> list[str]:
    """String constants of a module, docstrings and bare string statements left out."""
    prose = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in prose
    ]


def test_the_product_never_reads_shared_files() -> None:
    """The package reads its board with importlib.resources, never a path outside it."""
    for path in (PROJECT / "adjudicator").rglob("*.py"):
        strings = _code_strings(ast.parse(path.read_text(encoding="utf-8")))
        parts = [part for s in strings for part in s.replace("\\", "/").split("/")]
        assert "shared" not in parts and ".." not in parts, path


def test_the_shared_check_sees_code_but_not_prose() -> None:
    tree = ast.parse('"""Docs about shared/rules."""\nP = "../shared/data/classic.xml"\n')
    assert _code_strings(tree) == ["../shared/data/classic.xml"]
