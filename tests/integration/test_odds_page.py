"""Issue 18, point 2: the odds calculator page. A member fills in the form (CSRF on) and
reads the chances under it, each side's likeliest survivors and the battle's length drawn
as SVG bar charts; ``/odds?game=N&battle=K`` fills the form in from a battle declared in
the game's current turn, for its players, mentor and the Minister of Law only."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from dice_server.services.odds import MAX_LAND_UNITS, battlefield
from dice_server.web.odds import bar_chart, form_field, percent, rounds_chart, survivor_chart
from tests.conftest import League, logged_in
from tests.integration.test_game_pages import text
from tests.integration.test_pages import alerts

USSR_PRE = Path(__file__).resolve().parents[1] / "data" / "turns" / "02-ussr-r1-precombat.txt"


def csrf(html: str) -> str:
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html)
    assert match, "the page has no CSRF token"
    return match.group(1)


def box(html: str, name: str) -> str:
    """The value the input ``name`` shows."""
    match = re.search(rf'<input[^>]*name="{name}"[^>]*>', html)
    assert match, f"no input {name}"
    value = re.search(r'value="([^"]*)"', match.group(0))
    return value.group(1) if value else ""


def checked(html: str, name: str, value: str | None = None) -> bool:
    tags = re.findall(rf'<input[^>]*name="{name}"[^>]*>', html)
    return any("checked" in t and (value is None or f'value="{value}"' in t) for t in tags)


@pytest.fixture
def member(app: Flask, league: League) -> FlaskClient:
    return logged_in(app, league.ctx, "stranger@example.org")


def send(client: FlaskClient, **fields: Any) -> Any:
    """Fill in and send the form as a member would: the token from the page, the rest."""
    page = client.get("/odds").get_data(as_text=True)
    data = {"csrf_token": csrf(page), "kind": "land", "retreat": "none", **fields}
    return client.post("/odds", data={k: str(v) for k, v in data.items()})


def test_the_calculator_is_in_the_nav_and_behind_the_login(
    client: FlaskClient, member: FlaskClient
) -> None:
    assert client.get("/odds").status_code == 302
    page = member.get("/odds")
    assert page.status_code == 200
    assert 'href="/odds">Odds</a>' in page.get_data(as_text=True)


def test_a_member_posts_the_form_and_sees_the_odds_and_charts(member: FlaskClient) -> None:
    response = send(member, attacker_INF=1, defender_INF=1)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    shown = text(html)
    assert "Attacker wins 25.0%" in shown
    assert "Defender wins 62.5%" in shown
    assert "Draw (both sides destroyed) 12.5%" in shown
    assert "captures the territory 25.0%" in shown
    assert html.count("<svg") == 3  # both sides' survivors and the rounds
    titles = re.findall(r"<title>([^<]*)</title>", html)
    assert "Attacker wins with 1 INF left: 25.0%" in titles
    assert "Defender wins with 1 INF left: 62.5%" in titles
    assert "Ends in round 1: 44.4%" in titles  # 1 - (5/6)(2/3) = 4/9
    assert box(html, "attacker_INF") == "1"  # the form keeps what was sent
    assert 'style="' not in html and "<script" not in html


def test_the_form_without_its_csrf_token_is_refused(member: FlaskClient) -> None:
    response = member.post("/odds", data={"kind": "land", "attacker_INF": "1", "defender_INF": "1"})
    assert response.status_code == 400
    assert "Attacker wins" not in response.get_data(as_text=True)


def test_a_retreat_policy_and_an_order_of_loss_from_the_form(member: FlaskClient) -> None:
    response = send(
        member,
        attacker_INF=3,
        attacker_ARM=2,
        defender_INF=3,
        attacker_order="arm, INF",
        retreat="at_most",
        retreat_units=1,
    )
    assert response.status_code == 200
    assert "Attacker retreats" in text(response.get_data(as_text=True))


def test_a_retreat_without_its_number_is_shown_at_the_box(member: FlaskClient) -> None:
    response = send(member, attacker_INF=1, defender_INF=1, retreat="after_round")
    assert response.status_code == 400
    assert any("give the number this retreat waits for" in a for a in alerts(response.text))


def test_refusals_land_beside_the_box(member: FlaskClient) -> None:
    transports = send(member, attacker_INF=1, attacker_TRN=1, defender_INF=1)
    assert transports.status_code == 400
    html = transports.get_data(as_text=True)
    assert any("Transport cannot attack in a land battle" in a for a in alerts(html))
    assert "Attacker wins" not in html
    too_many = send(member, attacker_INF=MAX_LAND_UNITS + 1, defender_INF=1)
    assert too_many.status_code == 400
    assert any(f"at most {MAX_LAND_UNITS} units a side" in a for a in alerts(too_many.text))
    order = send(member, attacker_INF=1, defender_INF=1, defender_order="INF <b>x</b>")
    assert order.status_code == 400
    assert "<b>x</b>" not in order.get_data(as_text=True)  # escaped wherever it is shown


def test_a_side_that_never_wins_is_said_so(member: FlaskClient) -> None:
    response = send(member, attacker_BMB=1, defender_AA=1, defender_INF=0)
    html = response.get_data(as_text=True)
    assert response.status_code == 200, alerts(html)


# --- filled in from a declared battle -------------------------------------------------------


def declare_battles(client: FlaskClient, league: League) -> list[dict[str, Any]]:
    """USSR's round-1 pre-combat turn (the allies player plays USSR, first to move)."""
    posted = client.post(
        f"/api/v1/games/{league.game}/turns",
        data=json.dumps({"text": USSR_PRE.read_text()}),
        headers={**league.auth("allies"), "Content-Type": "application/json"},
    )
    assert posted.status_code == 201, posted.get_json()
    battles = client.get(f"/api/v1/games/{league.game}/battles", headers=league.auth("allies"))
    listed: list[dict[str, Any]] = battles.get_json()
    assert listed
    return listed


def test_the_form_is_filled_in_from_a_declared_battle(
    app: Flask, client: FlaskClient, league: League
) -> None:
    battles = declare_battles(client, league)
    first = battles[0]
    allies = logged_in(app, league.ctx, "allies@example.org")
    game_page = allies.get(f"/games/{league.game}").get_data(as_text=True)
    link = f"/odds?game={league.game}&amp;battle=1"
    assert f'href="{link}">Odds</a>' in game_page
    response = allies.get(link.replace("&amp;", "&"))
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert first["territory"] in text(html)
    for side in ("attacker", "defender"):
        for unit, count in first["declared"][side].items():
            assert box(html, f"{side}_{unit}") == str(count), (side, unit)
    assert checked(html, "kind", "land")
    assert not checked(html, "amphibious")
    # The filled-in form is sent as it stands.
    data = {"csrf_token": csrf(html), "kind": "land", "retreat": "none"}
    for side in ("attacker", "defender"):
        for unit, count in first["declared"][side].items():
            data[f"{side}_{unit}"] = str(count)
    answered = allies.post("/odds", data=data)
    assert answered.status_code == 200
    assert "Attacker wins" in text(answered.get_data(as_text=True))


@pytest.mark.parametrize("who", ["axis", "mentor", "minister"])
def test_the_others_who_read_the_battles_may_fill_it_in(
    app: Flask, client: FlaskClient, league: League, who: str
) -> None:
    declare_battles(client, league)
    reader = logged_in(app, league.ctx, f"{who}@example.org")
    assert reader.get(f"/odds?game={league.game}&battle=2").status_code == 200


def test_a_stranger_may_not_fill_it_in_from_a_game(
    app: Flask, client: FlaskClient, league: League, member: FlaskClient
) -> None:
    declare_battles(client, league)
    response = member.get(f"/odds?game={league.game}&battle=1")
    assert response.status_code == 403
    assert "Ukraine" not in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ("game={game}&battle=9", 404),
        ("game=999&battle=1", 404),
        ("game={game}", 400),
        ("game=x&battle=1", 400),
        ("battle=1", 400),
    ],
)
def test_a_battle_that_is_not_declared_is_said_so(
    app: Flask, client: FlaskClient, league: League, query: str, status: int
) -> None:
    declare_battles(client, league)
    allies = logged_in(app, league.ctx, "allies@example.org")
    response = allies.get("/odds?" + query.format(game=league.game))
    assert response.status_code == status


@pytest.mark.parametrize(
    ("territory", "defender", "kind"),
    [
        ("Ukraine S.S.R.", {"INF": 3}, "land"),
        ("Baltic Sea Zone", {"TRN": 1}, "sea"),
        ("Baltic Sea Zone", {}, "sea"),
        (None, {"SUB": 1, "FTR": 1}, "sea"),
        ("Atlantis", {"INF": 1}, "land"),
    ],
)
def test_the_board_says_whether_a_declared_battle_is_at_sea(
    territory: str | None, defender: dict[str, int], kind: str
) -> None:
    assert battlefield(territory, {"attacker": {}, "defender": defender}) == kind


# --- the chart geometry ----------------------------------------------------------------------


def test_the_likeliest_sets_get_a_bar_each_and_the_rest_share_one() -> None:
    rows = [{"units": {"INF": n}, "p": 0.5 / 2**n} for n in range(1, 16)]
    chart = survivor_chart("attacker", rows)
    assert chart is not None
    assert [b.label for b in chart.bars[:2]] == ["1 INF", "2 INF"]
    assert len(chart.bars) == 13
    assert chart.bars[-1].label == "other (3 more sets)"
    assert chart.bars[0].width == chart.width  # the likeliest spans the chart
    assert chart.bars[1].width == pytest.approx(chart.width / 2, abs=0.1)
    assert all(b.y + b.height <= chart.height for b in chart.bars)
    assert survivor_chart("defender", []) is None


def test_the_rounds_chart_lumps_the_long_tail() -> None:
    even = rounds_chart([{"round": k, "p": 1 / 20} for k in range(1, 21)])
    assert even is not None
    assert len(even.bars) == 13
    assert even.bars[-1].label == "Round 13+"
    assert even.bars[-1].title == "Ends in round 13 or later: 40.0%"
    assert all(b.x + b.width <= even.width for b in even.bars)
    short = rounds_chart([{"round": k, "p": 0.1**k * 9} for k in range(1, 30)])
    assert short is not None
    assert [b.label for b in short.bars] == ["Round 1", "Round 2", "Round 3", "Round 4+"]
    assert rounds_chart([{"round": 1, "p": 0.5}, {"round": 2, "p": 0.5}]) is not None
    assert rounds_chart([]) is None


def test_bars_are_never_invisible_and_chances_never_round_to_certainty() -> None:
    chart = bar_chart("rounds", "t", [("a", 1.0, "a"), ("b", 1e-9, "b")], label_width=90)
    assert chart.bars[1].width >= 1
    assert percent(1e-9) == "< 0.1%"
    assert percent(0.99999) == "> 99.9%"
    assert percent(1.0) == "100.0%"


@pytest.mark.parametrize(
    ("field", "box_name"),
    [
        ("attacker.INF", "attacker_INF"),
        ("defender.AA", "defender_AA"),
        ("order_of_loss.attacker[1]", "attacker_order"),
        ("retreat.after_round", "retreat_round"),
        ("retreat.attackers_at_most", "retreat_units"),
        ("kind", "kind"),
        ("attacker", "attacker"),
        (None, None),
    ],
)
def test_a_refusal_names_the_box(field: str | None, box_name: str | None) -> None:
    assert form_field(field) == box_name
