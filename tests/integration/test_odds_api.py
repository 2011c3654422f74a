"""Issue 18, point 2: the odds calculator in the JSON API (``POST /api/v1/odds``), for anyone
logged in, bounded so that no request keeps a worker busy (dice_server.services.odds), and
every bad body a 400 naming the field, never a 500."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from dice_server.services.odds import MAX_LAND_UNITS, MAX_SEA_UNITS
from tests.conftest import League

ONE_ON_ONE = {"version": 1, "kind": "land", "attacker": {"INF": 1}, "defender": {"INF": 1}}


def ask(client: FlaskClient, league: League, body: Any, who: str = "stranger") -> Any:
    raw = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(
        "/api/v1/odds",
        data=raw,
        headers={**league.auth(who), "Content-Type": "application/json"},
    )


def test_one_infantry_against_one(client: FlaskClient, league: League) -> None:
    """An attacking INF hits on 1 (1/6), a defending one on 2 (1/3): the attacker wins
    (1/6)(2/3) / (1 - (5/6)(2/3)) = 1/4, the defender 5/8, both die 1/8."""
    response = ask(client, league, ONE_ON_ONE)
    assert response.status_code == 200, response.get_json()
    odds = response.get_json()
    assert odds["attacker_wins"] == pytest.approx(1 / 4, abs=1e-9)
    assert odds["defender_wins"] == pytest.approx(5 / 8, abs=1e-9)
    assert odds["draw"] == pytest.approx(1 / 8, abs=1e-9)
    assert odds["captures"] == pytest.approx(1 / 4, abs=1e-9)
    assert odds["survivors"]["attacker"] == [{"units": {"INF": 1}, "p": pytest.approx(0.25)}]
    assert sum(r["p"] for r in odds["rounds"]) == pytest.approx(1, abs=1e-9)


def test_any_member_may_ask_with_a_page_session(app: Any, ctx: Any, league: League) -> None:
    from tests.conftest import logged_in

    client = logged_in(app, ctx, "stranger@example.org")
    response = client.post("/api/v1/odds", json=ONE_ON_ONE)
    assert response.status_code == 200
    assert response.get_json()["attacker_wins"] == pytest.approx(0.25, abs=1e-9)


def test_nobody_logged_in_is_refused(client: FlaskClient, league: League) -> None:
    response = client.post("/api/v1/odds", json=ONE_ON_ONE)
    assert response.status_code == 401
    assert "Bearer" in response.get_json()["error"]
    wrong = client.post("/api/v1/odds", json=ONE_ON_ONE, headers={"Authorization": "Bearer x"})
    assert wrong.status_code == 401


@pytest.mark.parametrize(
    ("kind", "limit", "units"),
    [("land", MAX_LAND_UNITS, "INF"), ("sea", MAX_SEA_UNITS, "SUB")],
)
def test_a_battle_too_large_is_refused_naming_the_side(
    client: FlaskClient, league: League, kind: str, limit: int, units: str
) -> None:
    body = {"version": 1, "kind": kind, "attacker": {units: 1}, "defender": {units: limit + 1}}
    response = ask(client, league, body)
    assert response.status_code == 400
    refusal = response.get_json()
    assert refusal["field"] == "defender"
    assert f"at most {limit} units a side" in refusal["error"]
    at_limit = {**body, "defender": {units: limit}}
    assert ask(client, league, at_limit).status_code == 200


def test_a_huge_count_is_refused_before_any_work(client: FlaskClient, league: League) -> None:
    body = {**ONE_ON_ONE, "attacker": {"INF": 2**52}}
    response = ask(client, league, body)
    assert response.status_code == 400
    assert response.get_json()["field"] == "attacker"


def test_a_unit_classic_lacks_is_refused(client: FlaskClient, league: League) -> None:
    response = ask(client, league, {**ONE_ON_ONE, "attacker": {"DESTROYER": 1}})
    assert response.status_code == 400
    refusal = response.get_json()
    assert refusal["field"] == "attacker.DESTROYER"
    assert "DESTROYER" in refusal["error"]


def test_an_unknown_field_is_refused(client: FlaskClient, league: League) -> None:
    response = ask(client, league, {**ONE_ON_ONE, "dice": [1, 2]})
    assert response.status_code == 400
    assert response.get_json()["field"] == "dice"


@pytest.mark.parametrize("body", [[], [ONE_ON_ONE], "3", '"land"', "null", "true"])
def test_a_body_that_is_no_object_is_refused(
    client: FlaskClient, league: League, body: Any
) -> None:
    response = ask(client, league, body if isinstance(body, str) else json.dumps(body))
    assert response.status_code == 400
    assert "JSON object" in response.get_json()["error"]


@pytest.mark.parametrize(
    "body",
    [
        "",
        "{",
        "[" * 5000,
        b"\xff\xfe",
        '{"version": 1.5}',
        {"version": 2, "kind": "land", "attacker": {"INF": 1}, "defender": {"INF": 1}},
        {"version": 1},
        {"version": 1, "kind": "air", "attacker": {"INF": 1}, "defender": {"INF": 1}},
        {**ONE_ON_ONE, "attacker": []},
        {**ONE_ON_ONE, "attacker": {"INF": -1}},
        {**ONE_ON_ONE, "attacker": {"INF": "many"}},
        {**ONE_ON_ONE, "attacker": {"INF": True}},
        {**ONE_ON_ONE, "attacker": {"INF": None}},
        {**ONE_ON_ONE, "attacker": {"INF": {"INF": 1}}},
        {**ONE_ON_ONE, "attacker": {"INF": 1, "inf": 1}},
        {**ONE_ON_ONE, "attacker": {"AA": 1}},
        {**ONE_ON_ONE, "attacker": {"SUB": 1}},
        {**ONE_ON_ONE, "attacker": {}},
        {**ONE_ON_ONE, "amphibious": 2},
        {**ONE_ON_ONE, "retreat": {"after_round": 0}},
        {**ONE_ON_ONE, "retreat": {"after_round": 1, "attackers_at_most": 1}},
        {**ONE_ON_ONE, "retreat": {"sometime": 1}},
        {**ONE_ON_ONE, "retreat": 3},
        {**ONE_ON_ONE, "rounds": [{"attacker": {"INF": [1]}}]},
        {**ONE_ON_ONE, "order_of_loss": {"attacker": ["XYZ"]}},
        {**ONE_ON_ONE, "order_of_loss": "INF"},
        {**ONE_ON_ONE, "technologies": {"attacker": ["Death Ray"]}},
        {**ONE_ON_ONE, "loaded": {"TRN": 9}},
        {**ONE_ON_ONE, "name": ["x"]},
        {"version": 1, "kind": "sea", "attacker": {"ARM": 1}, "defender": {"SUB": 1}},
    ],
)
def test_a_hostile_body_is_a_400_never_a_500(
    client: FlaskClient, league: League, body: Any
) -> None:
    response = ask(client, league, body)
    assert response.status_code == 400, (body, response.status_code, response.get_data())
    assert response.get_json()["error"]


def test_a_retreat_policy_and_orders_of_loss_are_read(client: FlaskClient, league: League) -> None:
    body = {
        "version": 1,
        "kind": "land",
        "attacker": {"INF": 3, "ARM": 2},
        "defender": {"INF": 3},
        "order_of_loss": {"attacker": ["ARM", "INF"]},
        "retreat": {"attackers_at_most": 1},
    }
    response = ask(client, league, body)
    assert response.status_code == 200, response.get_json()
    odds = response.get_json()
    assert odds["retreated"] > 0
    total = odds["attacker_wins"] + odds["defender_wins"] + odds["draw"] + odds["retreated"]
    assert total == pytest.approx(1, abs=1e-9)
