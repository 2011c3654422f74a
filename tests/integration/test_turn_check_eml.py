"""``pbem turn check`` on a saved message (.eml): it reads what the mail gateway reads, the
text the sender wrote, not the MIME around it; a turn saved as text reads as it always did."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from adjudicator.notation import report
from dice_server.cli import main

DATA = Path(__file__).resolve().parents[1] / "data"
MAIL = DATA / "mail"
TEXT_TURNS = sorted([*(DATA / "turns").glob("*.txt"), *(DATA / "games" / "round-1").glob("*.txt")])


def check(*args: str, stdin: bytes | None = None) -> Result:
    return CliRunner().invoke(main, ["turn", "check", *args], input=stdin)


def orders(doc: dict[str, Any]) -> dict[str, Any]:
    """A report less its line numbers and diagnostics."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "line"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return dict(strip({k: v for k, v in doc.items() if k not in ("diagnostics", "summary")}))


def test_multipart_quoted_printable_turn_has_no_errors() -> None:
    """Gmail's multipart/alternative, quoted-printable: read before as 11 errors of MIME."""
    eml = MAIL / "02-multipart-qp.eml"
    result = check(str(eml), "--json")
    assert result.exit_code == 0, result.stdout
    doc = json.loads(result.stdout)
    assert doc["summary"]["errors"] == 0
    typed = (DATA / "games" / "round-1" / "02a-ger-precombat.txt").read_text(encoding="utf-8")
    assert orders(doc) == orders(report(typed))
    assert "is a mail message: read its text/plain part" in result.stderr
    text = check(str(eml))
    assert text.exit_code == 0 and "0 error(s)" in text.stdout
    assert "Content-Type" not in text.stdout and "=3D" not in text.stdout


def test_from_stdin() -> None:
    raw = (MAIL / "02-multipart-qp.eml").read_bytes()
    from_stdin = check("-", "--json", stdin=raw)
    from_file = check(str(MAIL / "02-multipart-qp.eml"), "--json")
    assert from_stdin.exit_code == 0 and from_stdin.stdout == from_file.stdout


def test_html_reply_reads_neither_html_nor_the_quoted_turn() -> None:
    doc = json.loads(check(str(MAIL / "03-html-only.eml"), "--json").stdout)
    assert (doc["power"], doc["kind"], doc["results"], doc["summary"]["errors"]) == (
        "UK",
        "pre-combat",
        [],
        0,
    )


def test_a_message_sent_as_written_keeps_the_file_s_line_numbers() -> None:
    """No transfer encoding, no parts: the diagnostics point at the lines of the file."""
    eml = MAIL / "01-plain-turn.eml"
    file_lines = eml.read_text(encoding="utf-8").splitlines()
    doc = json.loads(check(str(eml), "--json").stdout)
    for battle in doc["battles"]:
        assert file_lines[battle["line"] - 1].startswith(f"Attack #{battle['number']}")
    assert file_lines[doc["purchases"][0]["line"] - 1].startswith("Purchases:")


def test_problems_and_bounces_are_noted_on_stderr() -> None:
    wrong = check(str(MAIL / "09-wrong-charset.eml"), "--json")
    assert wrong.exit_code == 0 and "Windows-1252" in wrong.stderr
    assert json.loads(wrong.stdout)["summary"]["errors"] == 0
    bounce = check(str(MAIL / "13-bounce.eml"), "--json")
    assert "a delivery failure report, not a turn" in bounce.stderr
    assert json.loads(bounce.stdout)["results"] == []  # the undelivered turn is not read


@pytest.mark.parametrize("path", TEXT_TURNS, ids=lambda p: p.name)
def test_a_turn_saved_as_text_reads_as_before(path: Path) -> None:
    """Before .eml files, FILE was read as UTF-8 text; a turn pasted under the headers a
    mail client shows (26-subject-header: From, To, Subject, Date) still gets its power and
    round from the Subject."""
    result = check(str(path), "--json")
    before = report(path.read_text(encoding="utf-8", errors="replace"))
    assert json.loads(result.stdout) == json.loads(json.dumps(before))
    assert result.stderr == ""
