"""Dice luck (issue 18, point 5) through the API and the pages: each player's battle dice,
counted again here from the exported ledger, independently of the service."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from dice_server.services.games import create_game, end_game
from tests.conftest import League, battle, logged_in

AXIS_POWERS = {"Germany", "Japan"}


def roll(client: FlaskClient, league: League, who: str, body: dict[str, Any], game: int) -> None:
    response = client.post(f"/api/v1/games/{game}/rolls", json=body, headers=league.auth(who))
    assert response.status_code == 201, response.get_json()


def some_rolls(client: FlaskClient, league: League, game: int) -> None:
    """Rolls by both members for both sides: the Allies attack with support shots, the Axis
    attack (rolled by the Allies' player), subs fired first, a defenders-only roll."""
    roll(client, league, "allies", battle(), game)
    roll(
        client,
        league,
        "allies",
        battle(country="USA", bombard=[{"unit": "BB", "count": 1}], round=1, turn=3),
        game,
    )
    karelia = {
        "round": 1,
        "turn": 2,
        "country": "Germany",
        "battle": "Karelia",
        "attacker": [{"unit": "INF", "count": 3}, {"unit": "BMB", "count": 1}],
        "defender": [
            {"unit": "INF", "count": 4},
            {"unit": "ARM", "count": 2},
            {"unit": "AA", "count": 1},
        ],
    }
    roll(client, league, "axis", karelia, game)
    roll(client, league, "allies", {**karelia, "round": 2}, game)
    baltic = {
        "round": 1,
        "turn": 2,
        "country": "Germany",
        "battle": "Baltic Sea Zone",
        "attacker": [{"unit": "SUB", "count": 2}],
        "defender": [{"unit": "TRN", "count": 1}],
        "options": ["subs-first"],
    }
    roll(client, league, "axis", baltic, game)
    roll(client, league, "axis", {**baltic, "attacker": [], "options": ["defenders-only"]}, game)


@dataclass
class Counted:
    """One side's battle dice, counted from the ledger."""

    rolls: int = 0
    dice: int = 0
    hits: int = 0
    expected: Fraction = Fraction(0)
    seqs: list[int] = field(default_factory=list)


def counted(client: FlaskClient, league: League, game: int) -> dict[str, Counted]:
    """Each side's rolls, dice, hits and expected hits, read straight from the ledger."""
    response = client.get(f"/api/v1/games/{game}/ledger", headers=league.auth("minister"))
    totals = {"axis": Counted(), "allies": Counted()}
    for signed in response.get_json()["entries"]:
        body = json.loads(signed["body"])
        if body["kind"] != "roll":
            continue
        data = body["data"]
        attacking = "axis" if data["country"] in AXIS_POWERS else "allies"
        defending = "allies" if attacking == "axis" else "axis"
        touched = set()
        for group in data["groups"]:
            name = attacking if group["side"] == "attacker" else defending
            touched.add(name)
            side = totals[name]
            side.dice += len(group["dice"])
            side.hits += sum(d <= group["hit_on"] for d in group["dice"])
            side.expected += Fraction(len(group["dice"]) * group["hit_on"], 6)
        for name in touched:
            totals[name].rolls += 1
            totals[name].seqs.append(body["seq"])
    return totals


def test_each_players_hits_are_the_dice_their_units_threw(
    client: FlaskClient, league: League
) -> None:
    some_rolls(client, league, league.game)
    response = client.get(f"/api/v1/games/{league.game}/luck", headers=league.auth("axis"))
    assert response.status_code == 200
    found = response.get_json()
    assert found["game"] == league.game
    expected = counted(client, league, league.game)
    for side in ("axis", "allies"):
        player, mine = found["players"][side], expected[side]
        assert player["member"] == f"{side}@example.org"
        assert (player["rolls"], player["dice"], player["hits"]) == (
            mine.rolls,
            mine.dice,
            mine.hits,
        )
        assert player["expected"] == pytest.approx(float(mine.expected), abs=1e-6)
        assert 0 < player["p_at_most"] <= 1 and 0 < player["p_at_least"] <= 1
        series = player["series"]
        assert [p["seq"] for p in series] == mine.seqs
        assert series[-1]["cumulative_hits"] == mine.hits
        assert series[-1]["cumulative_expected"] == pytest.approx(float(mine.expected))
        assert sum(p["hits"] for p in series) == mine.hits
    # The Axis threw in five rolls (defending in the Allies' two), not in the defenders-only
    # one; the Allies in five (defending in the Axis's), not when the subs fired first.
    assert (found["players"]["axis"]["rolls"], found["players"]["allies"]["rolls"]) == (5, 5)


def test_no_rolls_is_no_luck(client: FlaskClient, league: League) -> None:
    found = client.get(f"/api/v1/games/{league.game}/luck", headers=league.auth("mentor"))
    assert found.status_code == 200
    axis = found.get_json()["players"]["axis"]
    assert (axis["rolls"], axis["dice"], axis["hits"], axis["series"]) == (0, 0, 0, [])


def test_only_the_games_people_see_its_luck(client: FlaskClient, league: League) -> None:
    path = f"/api/v1/games/{league.game}/luck"
    assert client.get(path, headers=league.auth("stranger")).status_code == 403
    assert client.get(path).status_code == 401
    for who in ("allies", "mentor", "minister"):
        assert client.get(path, headers=league.auth(who)).status_code == 200
    assert client.get("/api/v1/games/999/luck", headers=league.auth("axis")).status_code == 404


def test_an_ended_games_luck_stays_readable(client: FlaskClient, league: League) -> None:
    roll(client, league, "allies", battle(), league.game)
    end_game(league.ctx, league.game, status="finished", winner="allies")
    response = client.get(f"/api/v1/games/{league.game}/luck", headers=league.auth("axis"))
    assert response.status_code == 200
    assert response.get_json()["players"]["allies"]["rolls"] == 1


def test_a_members_luck_sums_over_their_games(client: FlaskClient, league: League) -> None:
    second = create_game(
        league.ctx, axis="allies@example.org", allies="axis@example.org"
    ).game_number
    some_rolls(client, league, league.game)
    roll(client, league, "axis", battle(), second)  # axis@ plays the Allies in the second
    first_counts = counted(client, league, league.game)["axis"]
    second_counts = counted(client, league, second)["allies"]
    response = client.get("/api/v1/members/me/luck", headers=league.auth("axis"))
    assert response.status_code == 200
    found = response.get_json()
    assert found["member"] == "axis@example.org"
    assert [(g["game"], g["side"]) for g in found["games"]] == [
        (league.game, "axis"),
        (second, "allies"),
    ]
    for key in ("rolls", "dice", "hits"):
        assert found[key] == getattr(first_counts, key) + getattr(second_counts, key)
    assert found["expected"] == pytest.approx(
        float(first_counts.expected + second_counts.expected), abs=1e-6
    )
    assert found["series"][-1]["game"] == second
    assert found["series"][-1]["cumulative_hits"] == found["hits"]
    # The stranger plays no game: no luck, and no error.
    stranger = client.get("/api/v1/members/me/luck", headers=league.auth("stranger")).get_json()
    assert (stranger["games"], stranger["rolls"], stranger["series"]) == ([], 0, [])


def test_the_pages_draw_the_chart(app: Flask, client: FlaskClient, league: League) -> None:
    some_rolls(client, league, league.game)
    roll(client, league, "allies", battle(battle="West Europe <b>&"), league.game)
    browser = logged_in(app, league.ctx, "axis@example.org")
    game_page = browser.get(f"/games/{league.game}")
    assert f'href="/games/{league.game}/luck"' in game_page.get_data(as_text=True)
    page = browser.get(f"/games/{league.game}/luck")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "<svg" in html and "<polyline" in html
    titles = re.findall(r"<circle [^>]*><title>([^<]*)</title>", html)
    # One point per roll for each player (six for each: the seventh roll is the Allies').
    assert len(titles) == 12
    assert any("#2 West Europe" in t for t in titles)
    assert "&lt;b&gt;&amp;" in html and "<b>&" not in html
    mine = browser.get("/luck")
    assert mine.status_code == 200
    assert "<svg" in mine.get_data(as_text=True) and "<title>" in mine.get_data(as_text=True)
    assert 'href="/luck"' in mine.get_data(as_text=True)


def test_a_stranger_is_kept_off_the_games_luck_page(app: Flask, league: League) -> None:
    browser = logged_in(app, league.ctx, "stranger@example.org")
    assert browser.get(f"/games/{league.game}/luck").status_code == 403
    page = browser.get("/luck")
    assert page.status_code == 200
    assert "No battle dice thrown yet" in page.get_data(as_text=True)
