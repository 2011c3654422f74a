"""Tech, bombing and rocket rolls, notes through the roller and safe retries, over the
JSON API against a real migrated database."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from dice_server.services.games import end_game
from tests.conftest import League, battle

HEADER = {"round": 1, "turn": 1, "country": "Germany"}


def post(
    client: FlaskClient,
    league: League,
    what: str,
    body: Any,
    who: str = "axis",
    key: str | None = None,
) -> Any:
    headers = league.auth(who)
    if key is not None:
        headers["Idempotency-Key"] = key
    return client.post(f"/api/v1/games/{league.game}/{what}", json=body, headers=headers)


def entries(client: FlaskClient, league: League) -> list[dict[str, Any]]:
    doc = client.get(f"/api/v1/games/{league.game}/ledger", headers=league.auth("axis"))
    return [json.loads(e["body"]) for e in doc.get_json()["entries"]]


@pytest.mark.parametrize(
    ("what", "kind", "body"),
    [
        ("tech-rolls", "tech-roll", {**HEADER, "dice": 3}),
        ("bombing-rolls", "bombing-roll", {**HEADER, "target": "Russia", "bombers": 2, "aa": 1}),
        ("rocket-rolls", "rocket-roll", {**HEADER, "target": "United Kingdom"}),
    ],
)
def test_each_roll_kind_is_signed_and_chained(
    client: FlaskClient, league: League, what: str, kind: str, body: dict[str, Any]
) -> None:
    response = post(client, league, what, body)
    assert response.status_code == 201, response.get_json()
    entry = json.loads(response.get_json()["body"])
    assert (entry["kind"], entry["seq"], entry["data"]["by"]) == (kind, 2, "axis@example.org")
    assert entry["data"]["dice"] and all(1 <= d <= 6 for d in entry["data"]["dice"])


@pytest.mark.parametrize("topic", ["special-orders", "retreat", "error-recognition", "general"])
def test_notes_are_signed_and_timestamped_like_rolls(
    client: FlaskClient, league: League, topic: str
) -> None:
    """IAAPA, Amendments and Special Orders: "All such changes MUST be recorded and sent
    through the dice roller (not regular email) so that timing can be verified."."""
    response = post(
        client, league, "notes", {"topic": topic, "text": "OOL: INF, ARM, FTR"}, who="allies"
    )
    assert response.status_code == 201
    note = entries(client, league)[-1]
    assert note["kind"] == "note"
    assert note["data"] == {
        "topic": topic,
        "text": "OOL: INF, ARM, FTR",
        "by": "allies@example.org",
    }


def test_void_claim_names_a_roll(client: FlaskClient, league: League) -> None:
    post(client, league, "rolls", battle())
    response = post(
        client,
        league,
        "notes",
        {"topic": "void-claim", "ref_seq": 2, "text": "rolled in the wrong game"},
    )
    assert response.status_code == 201
    assert entries(client, league)[-1]["data"]["ref_seq"] == 2


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"topic": "gossip", "text": "x"}, 400, "unknown topic"),
        ({"topic": "general", "text": "   "}, 400, "must not be empty"),
        ({"topic": "general", "text": "x", "ref_seq": 9}, 400, "has no entry 9"),
        ({"topic": "void-claim", "text": "x"}, 400, "names the seq"),
        ({"topic": "void-claim", "text": "x", "ref_seq": 1}, 400, "not a roll"),
        ({"topic": "general"}, 400, "text: is required"),
    ],
)
def test_bad_notes(
    client: FlaskClient, league: League, body: dict[str, Any], status: int, words: str
) -> None:
    response = post(client, league, "notes", body)
    assert response.status_code == status
    assert words in response.get_json()["error"]
    assert len(entries(client, league)) == 1


def test_notes_reach_an_ended_game_but_rolls_do_not(client: FlaskClient, league: League) -> None:
    end_game(league.ctx, league.game, status="forfeited", winner="allies")
    assert post(client, league, "notes", {"topic": "general", "text": "gg"}).status_code == 201
    assert post(client, league, "tech-rolls", {**HEADER, "dice": 1}).status_code == 409


def test_stranger_cannot_send_notes(client: FlaskClient, league: League) -> None:
    response = post(client, league, "notes", {"topic": "general", "text": "hi"}, who="stranger")
    assert response.status_code == 403


def test_retry_returns_exactly_the_first_response(client: FlaskClient, league: League) -> None:
    first = post(client, league, "rolls", battle(), key="k-1")
    again = post(client, league, "rolls", battle(), key="k-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.get_data() == first.get_data()
    assert [e["seq"] for e in entries(client, league)] == [1, 2]
    other = post(client, league, "rolls", battle(), key="k-2")
    assert json.loads(other.get_json()["body"])["seq"] == 3


def test_key_reused_with_another_body_is_a_conflict(client: FlaskClient, league: League) -> None:
    assert post(client, league, "rolls", battle(), key="k").status_code == 201
    response = post(client, league, "rolls", battle(round=2), key="k")
    assert response.status_code == 409
    assert "different request" in response.get_json()["error"]
    response = post(client, league, "notes", {"topic": "general", "text": "x"}, key="k")
    assert response.status_code == 409
    assert len(entries(client, league)) == 2


def test_keys_belong_to_their_member(client: FlaskClient, league: League) -> None:
    assert post(client, league, "rolls", battle(), key="same", who="axis").status_code == 201
    assert post(client, league, "rolls", battle(), key="same", who="allies").status_code == 201
    assert len(entries(client, league)) == 3


def test_bad_idempotency_key(client: FlaskClient, league: League) -> None:
    response = post(client, league, "rolls", battle(), key="x" * 201)
    assert response.status_code == 400 and "Idempotency-Key" in response.get_json()["error"]


def test_two_identical_requests_at_once_make_one_entry(app: Flask, league: League) -> None:
    results: list[tuple[int, bytes]] = []
    start = threading.Barrier(2)

    def send() -> None:
        client = app.test_client()
        start.wait()
        response = post(client, league, "rolls", battle(), key="double-click")
        results.append((response.status_code, response.get_data()))

    threads = [threading.Thread(target=send) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert [status for status, _ in results] == [201, 201]
    assert results[0][1] == results[1][1]
    assert [e["seq"] for e in entries(app.test_client(), league)] == [1, 2]
