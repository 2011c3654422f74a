"""The odds calculator by Big World 1942's rules (TripleA's ``big_world_1942.xml``), from the
JSON API (``POST /api/v1/odds`` with ``"ruleset": "big_world_1942"``) and from the page (the
ruleset choice and the ART, DD and CA boxes): bounded by limits of its own
(dice_server.services.odds), refused clearly, never with a 500, where Classic lacks a unit
or Big World lacks Low Luck."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from dice_server.services.odds import (
    MAX_BIG_WORLD_LAND_UNITS,
    MAX_BIG_WORLD_SEA_UNITS,
    MAX_SEA_UNITS,
    battlefield,
)
from tests.conftest import League, logged_in
from tests.integration.test_game_pages import text
from tests.integration.test_odds_api import ask
from tests.integration.test_odds_page import box, checked, declare_battles, send
from tests.integration.test_pages import alerts

BIG_WORLD = "big_world_1942"
INF_ART_V_2_INF = {
    "version": 1,
    "ruleset": BIG_WORLD,
    "kind": "land",
    "attacker": {"INF": 1, "ART": 1},
    "defender": {"INF": 2},
}


@pytest.fixture
def member(app: Flask, league: League) -> FlaskClient:
    return logged_in(app, league.ctx, "stranger@example.org")


# --- the JSON API ----------------------------------------------------------------------------


def test_a_big_world_battle_is_worked_out_by_its_rules(client: FlaskClient, league: League) -> None:
    """An infantry paired with an artillery attacks at 2 as the artillery does, and two
    infantry defend at 2: the battle is even, exactly, whichever side fires."""
    response = ask(client, league, INF_ART_V_2_INF)
    assert response.status_code == 200, response.get_json()
    odds = response.get_json()
    assert odds["ruleset"] == BIG_WORLD
    assert abs(odds["attacker_wins"] - odds["defender_wins"]) <= 1e-12
    assert 0.4 < odds["attacker_wins"] < 0.5
    assert odds["captures"] == pytest.approx(odds["attacker_wins"], abs=1e-12)
    total = odds["attacker_wins"] + odds["defender_wins"] + odds["draw"]
    assert total == pytest.approx(1, abs=1e-9)
    attacker_left = [row["units"] for row in odds["survivors"]["attacker"]]
    assert {"ART": 1} in attacker_left  # the infantry is lost first
    assert sum(r["p"] for r in odds["rounds"]) == pytest.approx(1, abs=1e-9)


def test_a_classic_battle_is_not_given_big_world_units(client: FlaskClient, league: League) -> None:
    classic = {key: value for key, value in INF_ART_V_2_INF.items() if key != "ruleset"}
    response = ask(client, league, classic)
    assert response.status_code == 400
    refusal = response.get_json()
    assert refusal["field"] == "attacker.ART"
    assert "not a Classic unit" in refusal["error"]


@pytest.mark.parametrize(
    ("kind", "limit", "defender"),
    [
        ("sea", MAX_BIG_WORLD_SEA_UNITS, {"DD": 1, "CA": 1}),
        ("land", MAX_BIG_WORLD_LAND_UNITS, {"INF": 1, "ART": 1}),
    ],
)
def test_a_big_world_battle_too_large_is_refused_naming_the_side(
    client: FlaskClient, league: League, kind: str, limit: int, defender: dict[str, int]
) -> None:
    """Destroyers and cruisers count as any unit; the sea limit is Big World's own."""
    first = next(iter(defender))
    over = {**defender, first: limit + 2 - len(defender)}
    body = {"version": 1, "ruleset": BIG_WORLD, "kind": kind, "attacker": {"INF": 1}}
    if kind == "sea":
        body["attacker"] = {"SUB": 1}
    response = ask(client, league, {**body, "defender": over})
    assert response.status_code == 400
    refusal = response.get_json()
    assert refusal["field"] == "defender"
    assert f"a Big World 1942 {kind} battle of at most {limit} units a side" in refusal["error"]
    at_limit = {**defender, first: limit + 1 - len(defender)}
    answered = ask(client, league, {**body, "defender": at_limit})
    assert answered.status_code == 200, answered.get_json()
    assert answered.get_json()["ruleset"] == BIG_WORLD


def test_the_big_world_sea_limit_leaves_classic_alone(client: FlaskClient, league: League) -> None:
    assert MAX_BIG_WORLD_SEA_UNITS < MAX_SEA_UNITS
    body = {"version": 1, "kind": "sea", "attacker": {"SUB": 1}, "defender": {"SUB": MAX_SEA_UNITS}}
    assert ask(client, league, body).status_code == 200
    big = ask(client, league, {**body, "ruleset": BIG_WORLD})
    assert big.status_code == 400
    assert big.get_json()["field"] == "defender"


def test_low_luck_is_refused_for_big_world(client: FlaskClient, league: League) -> None:
    response = ask(client, league, {**INF_ART_V_2_INF, "low_luck": 1})
    assert response.status_code == 400
    refusal = response.get_json()
    assert refusal["field"] == "low_luck"
    assert "Low Luck" in refusal["error"]


@pytest.mark.parametrize(
    "body",
    [
        {**INF_ART_V_2_INF, "ruleset": "Big World"},
        {**INF_ART_V_2_INF, "ruleset": 1942},
        {**INF_ART_V_2_INF, "loaded": {"TRN": 1}},
        {**INF_ART_V_2_INF, "attacker": {"ART": 1, "Artillery": 1}},
        {**INF_ART_V_2_INF, "defender": {"DD": 1}},
        {**INF_ART_V_2_INF, "kind": "sea"},
        {**INF_ART_V_2_INF, "technologies": {"attacker": ["Rockets"]}},
        {**INF_ART_V_2_INF, "order_of_loss": {"defender": ["AA"]}},
        {**INF_ART_V_2_INF, "rounds": [{"attacker": {"INF": [1]}}]},
    ],
)
def test_a_bad_big_world_body_is_a_400_never_a_500(
    client: FlaskClient, league: League, body: Any
) -> None:
    response = ask(client, league, body)
    assert response.status_code == 400, (body, response.status_code, response.get_data())
    assert response.get_json()["error"]


def test_destroyers_and_cruisers_say_a_battle_is_at_sea() -> None:
    assert battlefield(None, {"attacker": {}, "defender": {"DD": 1}}) == "sea"
    assert battlefield(None, {"attacker": {}, "defender": {"CA": 2, "FTR": 1}}) == "sea"
    assert battlefield(None, {"attacker": {}, "defender": {"INF": 2}}) == "land"


# --- the page --------------------------------------------------------------------------------


def test_the_form_offers_both_rulesets_classic_first(member: FlaskClient) -> None:
    html = member.get("/odds").get_data(as_text=True)
    assert checked(html, "ruleset", "classic")
    assert not checked(html, "ruleset", BIG_WORLD)
    assert "Big World 1942 (TripleA)" in text(html)
    for side in ("attacker", "defender"):
        for unit in ("ART", "DD", "CA"):
            assert box(html, f"{side}_{unit}") == "0", (side, unit)


def test_a_big_world_battle_from_the_form_is_drawn(member: FlaskClient) -> None:
    response = send(member, ruleset=BIG_WORLD, attacker_INF=1, attacker_ART=1, defender_INF=2)
    html = response.get_data(as_text=True)
    assert response.status_code == 200, alerts(html)
    shown = text(html)
    assert "By Big World 1942 (TripleA) rules" in shown
    assert "Attacker wins" in shown and "captures the territory" in shown
    assert html.count("<svg") == 3  # both sides' survivors and the rounds
    titles = re.findall(r"<title>([^<]*)</title>", html)
    assert any(t.startswith("Attacker wins with 1 ART left: ") for t in titles)
    assert any(t.startswith("Defender wins with 1 INF left: ") for t in titles)
    assert any(t.startswith("Ends in round 1: ") for t in titles)
    assert checked(html, "ruleset", BIG_WORLD)  # the form keeps what was sent
    assert box(html, "attacker_ART") == "1"


def test_a_big_world_sea_battle_with_destroyers_and_cruisers(member: FlaskClient) -> None:
    response = send(
        member, ruleset=BIG_WORLD, kind="sea", attacker_DD=1, attacker_CA=1, defender_SUB=2
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 200, alerts(html)
    assert html.count("<svg") >= 2
    too_many = send(
        member,
        ruleset=BIG_WORLD,
        kind="sea",
        attacker_SUB=1,
        defender_CA=MAX_BIG_WORLD_SEA_UNITS + 1,
    )
    assert too_many.status_code == 400
    assert any(
        f"at most {MAX_BIG_WORLD_SEA_UNITS} units a side" in a for a in alerts(too_many.text)
    )


@pytest.mark.parametrize("unit", ["ART", "DD", "CA"])
def test_a_classic_battle_with_a_big_world_unit_is_refused_at_its_box(
    member: FlaskClient, unit: str
) -> None:
    kind = "land" if unit == "ART" else "sea"
    other = "INF" if unit == "ART" else "SUB"
    response = send(member, kind=kind, **{f"defender_{unit}": 1, f"attacker_{other}": 1})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert any(f"{unit} is a Big World 1942 unit" in a for a in alerts(html))
    assert "Attacker wins" not in html
    assert re.search(rf'<input[^>]*aria-invalid="true"[^>]*name="defender_{unit}"', html)


def test_a_classic_order_of_loss_naming_artillery_is_refused_by_the_engine(
    member: FlaskClient,
) -> None:
    response = send(member, attacker_INF=1, defender_INF=1, attacker_order="ART, INF")
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert any("not a Classic unit" in a for a in alerts(html))
    assert "Attacker wins" not in html


def test_low_luck_with_big_world_is_refused_at_the_box(member: FlaskClient) -> None:
    response = send(
        member, ruleset=BIG_WORLD, low_luck="y", attacker_INF=1, attacker_ART=1, defender_INF=2
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert any(
        a.startswith("Low Luck") and "not offered for Big World 1942" in a for a in alerts(html)
    )
    assert "Attacker wins" not in html
    assert checked(html, "low_luck")


def test_low_luck_with_classic_is_worked_out(member: FlaskClient) -> None:
    """One infantry against one: a power of 1 or 2 is below 6, so Low Luck rolls the one
    die as dice do."""
    response = send(member, low_luck="y", attacker_INF=1, defender_INF=1)
    html = response.get_data(as_text=True)
    assert response.status_code == 200, alerts(html)
    assert "Attacker wins 25.0%" in text(html)


def test_a_declared_battle_fills_in_a_classic_form(
    app: Flask, client: FlaskClient, league: League
) -> None:
    battles = declare_battles(client, league)
    allies = logged_in(app, league.ctx, "allies@example.org")
    response = allies.get(f"/odds?game={league.game}&battle=1")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert checked(html, "ruleset", "classic")
    assert not checked(html, "low_luck")
    for side in ("attacker", "defender"):
        for unit, count in battles[0]["declared"][side].items():
            assert box(html, f"{side}_{unit}") == str(count), (side, unit)
        for unit in ("ART", "DD", "CA"):
            assert box(html, f"{side}_{unit}") == "0"
