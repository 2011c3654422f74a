"""`pbem ruling check LEDGER`: the rulings on a game played through the service, read from
its exported ledger alone; and a refusal, never a traceback, for a file that is not one.

The dice are the game's own (real draws), so the tests state only what the roll's layout
fixes: which of its dice belong to which units (IAAPA Error Correction III counts them left
to right as the entry lists them)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from flask.testing import FlaskClient

from dice_server.cli import main
from tests.conftest import League
from tests.integration.test_turns import UKRAINE_ROLL

PRECOMBAT = Path(__file__).resolve().parents[1] / "data" / "turns" / "02-ussr-r1-precombat.txt"
TOO_MANY_INFANTRY = {
    **UKRAINE_ROLL,
    "attacker": [{"unit": "INF", "count": 7}, *UKRAINE_ROLL["attacker"][1:]],
}
FIGHTER_LEFT_OUT = {
    "round": 1,
    "turn": 1,
    "country": "USSR",
    "battle": "East Europe",
    "attacker": [{"unit": "FTR", "count": 1}],
    "defender": [{"unit": "INF", "count": 3}, {"unit": "ARM", "count": 1}],
}


def send(client: FlaskClient, league: League, what: str, payload: dict[str, Any]) -> int:
    answer = client.post(
        f"/api/v1/games/{league.game}/{what}",
        data=json.dumps(payload),
        headers={**league.auth("allies"), "Content-Type": "application/json"},
    )
    assert answer.status_code == 201, answer.get_data(as_text=True)
    body = answer.get_json()
    entry = body.get("entry", body)
    seq: int = json.loads(entry["body"])["seq"]
    return seq


def export(client: FlaskClient, league: League, path: Path) -> Path:
    answer = client.get(f"/api/v1/games/{league.game}/ledger", headers=league.auth("axis"))
    assert answer.status_code == 200
    path.write_text(answer.get_data(as_text=True))
    return path


def check(*args: str) -> Result:
    return CliRunner().invoke(main, ["ruling", "check", *args])


def document(path: Path) -> dict[str, Any]:
    result = check(str(path), "--json")
    assert result.exit_code == 0, result.output
    doc: dict[str, Any] = json.loads(result.output)
    return doc


@pytest.fixture
def played(client: FlaskClient, league: League) -> tuple[int, int]:
    """The USSR's first turn declared, Ukraine rolled with 7 INF for 6, East Europe with
    the German fighter left out: the two rolls' seqs."""
    send(client, league, "turns", {"text": PRECOMBAT.read_text()})
    return (
        send(client, league, "rolls", TOO_MANY_INFANTRY),
        send(client, league, "rolls", FIGHTER_LEFT_OUT),
    )


def test_the_rulings_on_an_exported_ledger(
    client: FlaskClient, league: League, played: tuple[int, int], tmp_path: Path
) -> None:
    ukraine, east_europe = played
    doc = document(export(client, league, tmp_path / "ledger.json"))
    assert doc["version"] == 1
    by_rule = {r["rule"]: r for r in doc["rulings"]}
    too_many = by_rule["Error Correction III, Too many units"]
    assert too_many["about"] == [ukraine]
    assert too_many["dice"]["dropped"] == [[ukraine, 6]]  # the seventh INF die
    assert [ukraine, 0] in too_many["dice"]["kept"] and len(too_many["dice"]["kept"]) == 15
    too_few = by_rule["Error Correction III, Too few units"]
    assert too_few["about"] == [east_europe] and too_few["reroll_from_round"] == 2
    (request,) = too_few["to_roll"]
    assert (request["battle"], request["defender"], request["attacker"]) == (
        "East Europe",
        [{"unit": "FTR", "count": 1}],
        [],
    )


def test_the_roll_a_ruling_asks_for_is_one_the_service_takes(
    client: FlaskClient, league: League, played: tuple[int, int], tmp_path: Path
) -> None:
    """The missing fighter rolled as the ruling's ``to_roll`` says completes round 1."""
    _, east_europe = played
    doc = document(export(client, league, tmp_path / "before.json"))
    (short,) = [r for r in doc["rulings"] if r["rule"] == "Error Correction III, Too few units"]
    made_up = send(client, league, "rolls", short["to_roll"][0])
    after = document(export(client, league, tmp_path / "after.json"))
    (ruled,) = [r for r in after["rulings"] if r["rule"] == "Error Correction III, Too few units"]
    assert ruled["about"] == [east_europe, made_up] and ruled["to_roll"] == []
    assert [made_up, 0] in ruled["dice"]["kept"]


def test_the_text_form_has_a_block_per_ruling(
    client: FlaskClient, league: League, played: tuple[int, int], tmp_path: Path
) -> None:
    ukraine, _ = played
    result = check(str(export(client, league, tmp_path / "ledger.json")))
    assert result.exit_code == 0, result.output
    assert "Ruling 1: Error Correction III, Too many units" in result.output
    assert f"Dice dropped: #{ukraine}: die 6" in result.output
    assert "Roll now: " in result.output


def test_a_ledger_without_errors(client: FlaskClient, league: League, tmp_path: Path) -> None:
    result = check(str(export(client, league, tmp_path / "ledger.json")))
    assert result.exit_code == 0
    assert "No rulings" in result.output


def ledger_of(*bodies: dict[str, Any]) -> str:
    return json.dumps({"entries": [{"body": json.dumps(b), "sig": "", "key": ""} for b in bodies]})


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ("not json at all", "is not JSON"),
        ('{"rulings": []}', "is not an exported ledger"),
        ('{"entries": [{"sig": "x"}]}', "entry 1 has no body"),
        ('{"entries": [{"body": "{oops"}]}', "the body of entry 1 is not JSON"),
        ('{"entries": [{"body": "{\\"seq\\": 1}"}]}', "needs a kind"),
        (
            ledger_of({"seq": 2, "kind": "note", "data": {"topic": "general", "text": "hi"}}),
            "no genesis entry",
        ),
        (
            ledger_of(
                {"seq": 1, "kind": "genesis", "data": {}},
                {"seq": 2, "kind": "roll", "data": {"battle": "Ukraine", "dice": [1], "groups": 3}},
            ),
            "entry #2: a roll entry whose 'groups' is not as recorded",
        ),
    ],
)
def test_a_file_that_is_not_an_exported_ledger(tmp_path: Path, content: str, said: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = check(str(path), "--json")
    assert result.exit_code == 2
    assert said in result.output and "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_missing_file(tmp_path: Path) -> None:
    result = check(str(tmp_path / "nowhere.json"))
    assert result.exit_code == 2 and "cannot read" in result.output
