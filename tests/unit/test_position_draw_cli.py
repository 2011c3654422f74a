"""`pbem position draw`: a position file (as `pbem position initial` prints it) drawn as SVG."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from defusedxml import ElementTree

from dice_server.cli import main


def _initial(tmp_path: Path) -> Path:
    printed = CliRunner().invoke(main, ["position", "initial"])
    assert printed.exit_code == 0, printed.output
    saved = tmp_path / "position.json"
    saved.write_text(printed.stdout, encoding="utf-8")
    return saved


def test_draw_writes_the_svg_to_the_output_file(tmp_path: Path) -> None:
    saved = _initial(tmp_path)
    out = tmp_path / "board.svg"
    result = CliRunner().invoke(main, ["position", "draw", str(saved), "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    root = ElementTree.fromstring(out.read_bytes())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert len(list(root.iter("{http://www.w3.org/2000/svg}path"))) == 128


def test_draw_reads_stdin_and_writes_stdout(tmp_path: Path) -> None:
    text = _initial(tmp_path).read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["position", "draw", "-"], input=text)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg ')
    from_file = CliRunner().invoke(main, ["position", "draw", str(tmp_path / "position.json")])
    assert from_file.stdout == result.stdout


def test_a_file_that_is_not_a_position_is_refused_and_nothing_written(tmp_path: Path) -> None:
    battle = tmp_path / "battle.json"
    battle.write_text(json.dumps({"version": 1, "kind": "land", "attacker": {"INF": 1}}))
    out = tmp_path / "board.svg"
    runner = CliRunner()
    result = runner.invoke(main, ["position", "draw", str(battle), "-o", str(out)])
    assert result.exit_code == 2
    assert f"error: {battle} is not a position: unknown key(s)" in result.stderr
    assert result.stdout == "" and not out.exists()

    garbage = runner.invoke(main, ["position", "draw", "-", "-o", str(out)], input="<svg/>")
    assert garbage.exit_code == 2 and "error: - is not JSON" in garbage.stderr
    assert not out.exists()

    missing = runner.invoke(main, ["position", "draw", str(tmp_path / "none.json")])
    assert missing.exit_code == 2 and "cannot read" in missing.stderr


def test_a_position_that_breaks_the_board_is_refused(tmp_path: Path) -> None:
    doc = json.loads(_initial(tmp_path).read_text(encoding="utf-8"))
    doc["units"]["Germany"]["Germany"]["BB"] = 1
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(doc))
    result = CliRunner().invoke(main, ["position", "draw", str(broken)])
    assert result.exit_code == 2
    assert "is not a position: Germany is land:" in result.stderr
    assert "BB cannot be there" in result.stderr
