"""A Low Luck game's turn cycle (issue 18, point 3, with issue 14's cycle): its battle rounds
(``low-luck-roll`` entries) are linked to the declared battles like dice rounds, and the
engine resolves the battle from the recorded volleys, so both players see the same result."""

from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient

from dice_server.services import ServiceContext
from tests.conftest import League
from tests.integration.test_turns import UKRAINE_ROLL, USSR_PRE


def post(client: FlaskClient, league: League, game: int, what: str, doc: Any) -> Any:
    return client.post(f"/api/v1/games/{game}/{what}", json=doc, headers=league.auth("allies"))


def battles(client: FlaskClient, league: League, game: int) -> list[dict[str, Any]]:
    got = client.get(f"/api/v1/games/{game}/battles", headers=league.auth("axis"))
    assert got.status_code == 200, got.get_data(as_text=True)
    found: list[dict[str, Any]] = got.get_json()
    return found


def test_a_low_luck_round_is_linked_and_resolved_from_its_volleys(
    client: FlaskClient, league: League, low_luck_game: int
) -> None:
    assert post(client, league, low_luck_game, "turns", {"text": USSR_PRE}).status_code == 201
    rolled = post(client, league, low_luck_game, "rolls", UKRAINE_ROLL)
    assert rolled.status_code == 201, rolled.get_json()
    body = json.loads(rolled.get_json()["body"])
    assert body["kind"] == "low-luck-roll"
    assert body["data"]["declared"] == {"submission": 2, "number": 1}
    ukraine = battles(client, league, low_luck_game)[0]
    assert ukraine["rolls"] == [body["seq"]]
    assert ukraine["status"] in ("in-progress", "must-pause", "decided")
    result = ukraine["result"]
    assert [d for d in result["diagnostics"] if d["severity"] == "error"] == []
    [first] = result["rounds"]
    # 6 INF + 2 ARM + 1 FTR attack: power 6 + 6 + 3 = 15, 2 sure hits and a die at 3;
    # 3 INF + 2 ARM + 1 FTR defend: power 6 + 4 + 4 = 14, 2 sure hits and a die at 2.
    volleys = {v["side"]: v for v in body["data"]["volleys"]}
    assert (volleys["attacker"]["power"], volleys["defender"]["power"]) == (15, 14)
    assert first["attacker_hits"] == volleys["attacker"]["hits"] in (2, 3)
    assert first["defender_hits"] == volleys["defender"]["hits"] in (2, 3)
    assert sum(first["defender_casualties"].values()) == volleys["attacker"]["hits"]


def test_a_second_round_for_too_many_units_is_found_by_the_engine(
    client: FlaskClient, league: League, low_luck_game: int
) -> None:
    """IAAPA Error Correction III, Too many units: the second round thrown for every unit of
    the first, casualties and all, has more power than the units left."""
    assert post(client, league, low_luck_game, "turns", {"text": USSR_PRE}).status_code == 201
    assert post(client, league, low_luck_game, "rolls", UKRAINE_ROLL).status_code == 201
    again = post(client, league, low_luck_game, "rolls", {**UKRAINE_ROLL, "round": 2})
    assert again.status_code == 201
    ukraine = battles(client, league, low_luck_game)[0]
    assert len(ukraine["rolls"]) == 2
    rules = {d["rule"] for d in ukraine["result"]["diagnostics"] if d["severity"] == "error"}
    # round 1 always costs each side at least 2 units (2 sure hits each way)
    assert "IAAPA Error Correction III: Too many units" in rules


def test_the_game_page_groups_a_low_luck_round_under_its_battle(
    client: FlaskClient, league: League, low_luck_game: int, app: Any, ctx: ServiceContext
) -> None:
    from tests.conftest import logged_in

    assert post(client, league, low_luck_game, "turns", {"text": USSR_PRE}).status_code == 201
    assert post(client, league, low_luck_game, "rolls", UKRAINE_ROLL).status_code == 201
    page = logged_in(app, ctx, "axis@example.org").get(f"/games/{low_luck_game}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Battle #1" in text or "#1 Ukraine" in text, text[:3000]
    assert "Low Luck" in text
