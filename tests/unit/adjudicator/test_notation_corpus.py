"""The turn corpus: realistic emails, each with the parse a person reads in it.

``tests/data/turns/NN-name.txt`` is an email as a player sends it (typos, odd case and
spacing, greetings, quoted replies, signatures); ``NN-name.expected.json`` beside it is what
it means, written by reading the email, as a partial version-1 report:

- every key it gives must equal the report's (``_about`` says what the case is for);
- every list it leaves out (no purchases, no moves, ...) must be empty in the report, and
  ``power``/``round`` left out must be absent: nothing is read that the email does not say;
- ``diagnostics`` are compared on line, severity, rule and code (messages may be reworded).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adjudicator.notation import NotationError, parse, render_report, report

TURNS = Path(__file__).resolve().parents[2] / "data" / "turns"
CASES = sorted(TURNS.glob("*.txt"))
LISTS = (
    "tech",
    "purchases",
    "battles",
    "results",
    "moves",
    "placements",
    "map",
    "counts",
    "orders_of_loss",
    "withdrawals",
    "retreats",
)
OPTIONAL = ("power", "round")
DIAGNOSTIC_KEYS = ("line", "severity", "rule", "code")


def _expected(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        path.with_name(f"{path.stem}.expected.json").read_text(encoding="utf-8")
    )
    return data


def _walk(value: object) -> list[object]:
    if isinstance(value, dict):
        return [value, *(x for v in value.values() for x in _walk(v))]
    if isinstance(value, list):
        return [value, *(x for v in value for x in _walk(v))]
    return [value]


def test_the_corpus_has_thirty_emails_each_with_its_expected_parse() -> None:
    assert len(CASES) >= 30
    missing = [p.name for p in CASES if not p.with_name(f"{p.stem}.expected.json").is_file()]
    assert missing == []


def test_the_corpus_covers_every_kind_of_turn_and_every_power() -> None:
    kinds = {_expected(p)["kind"] for p in CASES}
    powers = {_expected(p).get("power") for p in CASES}
    assert kinds == {"pre-combat", "post-combat", "special-orders", "mixed", "empty"}
    assert {"USSR", "Germany", "UK", "Japan", "USA"} <= powers


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_the_email_parses_as_a_reader_understands_it(path: Path) -> None:
    expected = _expected(path)
    got = report(path.read_text(encoding="utf-8"))
    assert got["version"] == 1
    for key, value in expected.items():
        if key in ("_about", "diagnostics"):
            continue
        assert got.get(key) == value, f"{path.name}: {key}"
    for key in LISTS:
        if key not in expected:
            assert got[key] == [], f"{path.name}: read {key} the email does not give"
    for key in OPTIONAL:
        if key not in expected:
            assert key not in got, f"{path.name}: read a {key} the email does not give"
    diagnostics = [{k: d[k] for k in DIAGNOSTIC_KEYS} for d in got["diagnostics"]]
    assert diagnostics == expected["diagnostics"], path.name


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_the_report_holds_integers_and_strings_only(path: Path) -> None:
    """DESIGN: integers and strings only, no floats, booleans or nulls; absent = omitted."""
    got = report(path.read_text(encoding="utf-8"))
    leaves = [v for v in _walk(got) if not isinstance(v, dict | list)]
    assert all(type(v) in (int, str) for v in leaves), path.name
    assert json.loads(json.dumps(got)) == got
    for d in got["diagnostics"]:
        assert d["severity"] in ("error", "warning", "info")
        assert d["message"] and d["suggestion"] and d["rule"].startswith("IAAPA")


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_strict_mode_raises_exactly_when_there_is_an_error(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    errors = [d for d in _expected(path)["diagnostics"] if d["severity"] == "error"]
    if not errors:
        assert parse(text, strict=True).errors == ()
        return
    with pytest.raises(NotationError) as raised:
        parse(text, strict=True)
    assert isinstance(raised.value, ValueError)
    assert raised.value.line == errors[0]["line"]
    assert f"line {errors[0]['line']}:" in str(raised.value)


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_the_text_form_shows_every_order_and_diagnostic(path: Path) -> None:
    got = report(path.read_text(encoding="utf-8"))
    text = render_report(got)
    for battle in got["battles"]:
        assert f"#{battle['number']} " in text
    for d in got["diagnostics"]:
        assert d["message"] in text and d["suggestion"] in text
    summary = got["summary"]
    assert (
        f"{summary['errors']} error(s), {summary['warnings']} warning(s), "
        f"{summary['infos']} note(s)"
    ) in text
