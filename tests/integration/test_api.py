"""The JSON API through the Flask test client against a real migrated database."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from flask.testing import FlaskClient

from dice_server.services.games import end_game
from tests.conftest import League, battle


def post_roll(
    client: FlaskClient,
    league: League,
    who: str,
    body: Any,
    game: int | None = None,
    raw: bytes | None = None,
) -> Any:
    data = raw if raw is not None else json.dumps(body)
    return client.post(
        f"/api/v1/games/{game or league.game}/rolls",
        data=data,
        headers={**league.auth(who), "Content-Type": "application/json"},
    )


def ledger_length(client: FlaskClient, league: League) -> int:
    response = client.get(f"/api/v1/games/{league.game}/ledger", headers=league.auth("axis"))
    assert response.status_code == 200
    return len(response.get_json()["entries"])


def test_roll_returns_the_signed_entry(client: FlaskClient, league: League) -> None:
    response = post_roll(client, league, "allies", battle())
    assert response.status_code == 201
    entry = response.get_json()
    body = json.loads(entry["body"])
    assert (body["game"], body["seq"], body["kind"]) == (league.game, 2, "roll")
    data = body["data"]
    assert data["by"] == "allies@example.org"
    assert (data["country"], data["battle"], data["round"], data["turn"]) == (
        "UK",
        "West Europe",
        1,
        2,
    )
    # 2 AA dice at the fighters, 8 INF + 1 ARM + 2 FTR attacking, 10 INF defending.
    assert len(data["dice"]) == 2 + 11 + 10
    keys = client.get("/api/v1/keys").get_json()["keys"]
    (key,) = [k for k in keys if k["id"] == entry["key"]]
    public = Ed25519PublicKey.from_public_bytes(base64.b64decode(key["public"]))
    public.verify(base64.b64decode(entry["sig"]), entry["body"].encode("utf-8"))


def test_ledger_lists_exact_bodies_in_order(client: FlaskClient, league: League) -> None:
    first = post_roll(client, league, "axis", battle()).get_json()
    second = post_roll(client, league, "mentor", battle(round=2)).get_json()
    entries = client.get(
        f"/api/v1/games/{league.game}/ledger", headers=league.auth("minister")
    ).get_json()["entries"]
    assert entries[1:] == [first, second]
    assert json.loads(entries[2]["body"])["prev"] != json.loads(entries[1]["body"])["prev"]


@pytest.mark.parametrize("who", ["axis", "allies", "mentor", "minister"])
def test_players_mentor_and_minister_may_roll(
    client: FlaskClient, league: League, who: str
) -> None:
    assert post_roll(client, league, who, battle()).status_code == 201


def test_healthz(client: FlaskClient) -> None:
    response = client.get("/healthz")
    assert (response.status_code, response.get_json()) == (200, {"status": "ok"})


BAD_BODIES: list[tuple[str, bytes, int, str]] = [
    (
        "unknown unit",
        json.dumps(battle(attacker=[{"unit": "DD", "count": 1}])).encode(),
        400,
        "unknown unit",
    ),
    (
        "AA attacking",
        json.dumps(battle(attacker=[{"unit": "AA", "count": 1}])).encode(),
        400,
        "AA guns only defend",
    ),
    (
        "negative count",
        json.dumps(battle(defender=[{"unit": "INF", "count": -1}])).encode(),
        400,
        "1 to 999",
    ),
    (
        "huge count",
        json.dumps(battle(defender=[{"unit": "INF", "count": 10**6}])).encode(),
        400,
        "1 to 999",
    ),
    (
        "no units",
        json.dumps(battle(attacker=[], defender=[])).encode(),
        400,
        "list the attacking units",
    ),
    ("nowhere", json.dumps(battle(battle="Atlantis Xyz")).encode(), 400, "not a known territory"),
    (
        "missing header",
        json.dumps({k: v for k, v in battle().items() if k != "country"}).encode(),
        400,
        "country: is required",
    ),
    ("float", json.dumps(battle(round=1.0)).encode(), 400, "whole number"),
    ("boolean", json.dumps(battle(round=True)).encode(), 400, "bool"),
    ("NaN", b'{"round": NaN}', 400, "NaN is not allowed"),
    (
        "lone surrogate",
        b'{"round":1,"turn":1,"country":"UK","battle":"\\ud800"}',
        400,
        "not valid Unicode",
    ),
    ("not JSON", b"round=1&turn=1", 400, "not JSON"),
    ("not UTF-8", b'{"battle": "\xff"}', 400, "not UTF-8"),
    ("empty", b"", 400, "empty"),
    ("array", b"[1, 2]", 400, "JSON object"),
    ("oversized", json.dumps(battle(comment="x" * 70000)).encode(), 413, "too large"),
    ("deep nesting", b"[" * 30000 + b"]" * 30000, 400, "cannot be read"),
    ("huge integer", b'{"round": ' + b"9" * 5000 + b"}", 400, "cannot be read"),
]


@pytest.mark.parametrize(
    ("name", "raw", "status", "words"), BAD_BODIES, ids=[b[0] for b in BAD_BODIES]
)
def test_bad_input_is_refused_and_consumes_no_seq(
    client: FlaskClient, league: League, name: str, raw: bytes, status: int, words: str
) -> None:
    response = post_roll(client, league, "axis", None, raw=raw)
    assert response.status_code == status, response.get_json()
    assert words in response.get_json()["error"]
    assert ledger_length(client, league) == 1
    # The next good roll takes seq 2: nothing was consumed.
    good = post_roll(client, league, "axis", battle())
    assert json.loads(good.get_json()["body"])["seq"] == 2


@pytest.mark.parametrize(
    ("headers", "status", "words"),
    [
        ({}, 401, "Authorization: Bearer"),
        ({"Authorization": "Bearer not-a-token"}, 401, "unknown API token"),
        ({"Authorization": "Basic abc"}, 401, "Bearer"),
    ],
)
def test_wrong_token(
    client: FlaskClient, league: League, headers: dict[str, str], status: int, words: str
) -> None:
    response = client.post(f"/api/v1/games/{league.game}/rolls", json=battle(), headers=headers)
    assert response.status_code == status
    assert words in response.get_json()["error"]
    response = client.get(f"/api/v1/games/{league.game}/ledger", headers=headers)
    assert response.status_code == status
    assert ledger_length(client, league) == 1


def test_non_player_may_neither_roll_nor_read(client: FlaskClient, league: League) -> None:
    response = post_roll(client, league, "stranger", battle())
    assert response.status_code == 403
    assert "do not play in game" in response.get_json()["error"]
    response = client.get(f"/api/v1/games/{league.game}/ledger", headers=league.auth("stranger"))
    assert response.status_code == 403
    assert ledger_length(client, league) == 1


def test_unconfirmed_member_may_not_roll(client: FlaskClient, league: League) -> None:
    response = post_roll(client, league, "unconfirmed", battle())
    assert response.status_code == 403
    assert "confirm your address" in response.get_json()["error"]


def test_unknown_game_number(client: FlaskClient, league: League) -> None:
    """IAAPA: "If you choose the wrong Game Number the roll will be void": an unknown
    number is refused outright."""
    response = post_roll(client, league, "axis", battle(), game=league.game + 41)
    assert response.status_code == 404
    assert f"no game {league.game + 41}" in response.get_json()["error"]
    assert (
        client.post(
            "/api/v1/games/abc/rolls", json=battle(), headers=league.auth("axis")
        ).status_code
        == 404
    )


def test_finished_game_is_refused(client: FlaskClient, league: League) -> None:
    end_game(league.ctx, league.game, status="forfeited", winner="allies", reason="no reply")
    response = post_roll(client, league, "axis", battle())
    assert response.status_code == 409
    assert "forfeited" in response.get_json()["error"]
    assert ledger_length(client, league) == 2  # genesis and the reveal


def test_wrong_method_is_a_json_error(client: FlaskClient, league: League) -> None:
    response = client.get(f"/api/v1/games/{league.game}/rolls", headers=league.auth("axis"))
    assert response.status_code == 405
    assert "POST" in response.get_json()["error"]
