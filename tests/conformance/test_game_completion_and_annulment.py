"""Game completion and annulment (issue 16, point 4) under the league's rule text, with a
clock the test controls."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from dice_server.models import Game
from dice_server.services import ServiceContext
from tests.conftest import League, SteppingClock

GAME_COMPLETION = (
    "Game finishes are to be entered by the victor. If, after 7 days have elapsed since the "
    "game officially ended and the game finish has not been posted, the loser may enter the "
    "game finish."
)
ANNULMENTS = "By mutual agreement a game may be annulled."


@pytest.fixture
def ctx(app: Flask, clock: SteppingClock) -> ServiceContext:
    app.extensions["pbem"] = replace(app.extensions["pbem"], clock=clock)
    timed: ServiceContext = app.extensions["pbem"]
    return timed


def post(client: FlaskClient, league: League, what: str, body: Any, who: str) -> Any:
    return client.post(
        f"/api/v1/games/{league.game}/{what}",
        data=json.dumps(body),
        headers={**league.auth(who), "Content-Type": "application/json"},
    )


def status(league: League) -> tuple[str, str | None]:
    with league.ctx.sessions() as session:
        game = session.get_one(Game, league.game)
        return game.status, game.winner


def last_entry(client: FlaskClient, league: League) -> dict[str, Any]:
    got = client.get(f"/api/v1/games/{league.game}/ledger", headers=league.auth("axis"))
    return json.loads(got.get_json()["entries"][-1]["body"])


def test_the_victor_posts_the_finish(client: FlaskClient, league: League) -> None:
    assert "entered by the victor" in GAME_COMPLETION
    posted = post(client, league, "finish", {"winner": "axis", "summary": "Moscow fell"}, "axis")
    assert posted.status_code == 201, posted.get_json()
    assert status(league) == ("finished", "axis")
    reveal = last_entry(client, league)
    assert reveal["kind"] == "seed-reveal" and reveal["data"]["winner"] == "axis"
    assert "finish posted by axis@example.org (axis): Moscow fell" == reveal["data"]["reason"]
    again = post(client, league, "finish", {"winner": "axis"}, "axis")
    assert again.status_code == 409


def test_the_loser_may_post_it_only_7_days_after_the_game_ended(
    client: FlaskClient, league: League, clock: SteppingClock
) -> None:
    assert "after 7 days have elapsed" in GAME_COMPLETION
    clock.advance(days=6, hours=23)
    early = post(client, league, "finish", {"winner": "axis"}, "allies")
    assert early.status_code == 409
    assert "from 2026-11-28 12:00 UTC" in early.get_json()["error"]
    clock.advance(hours=1)
    assert post(client, league, "finish", {"winner": "axis"}, "allies").status_code == 201
    assert status(league) == ("finished", "axis")


def test_only_a_player_posts_a_finish(client: FlaskClient, league: League) -> None:
    assert post(client, league, "finish", {"winner": "axis"}, "mentor").status_code == 403
    assert post(client, league, "finish", {"winner": "draw"}, "axis").status_code == 400
    assert status(league) == ("active", None)


def test_both_players_agreeing_annuls_the_game(client: FlaskClient, league: League) -> None:
    assert "mutual agreement" in ANNULMENTS
    first = post(client, league, "annulment", {"reason": "real life"}, "axis")
    assert first.status_code == 201
    assert status(league) == ("active", None)  # one agreement is not mutual
    agreement = last_entry(client, league)
    assert (agreement["kind"], agreement["data"]["status"]) == ("ruling", "annulment-agreement")
    twice = post(client, league, "annulment", {"reason": "still"}, "axis")
    assert twice.status_code == 409
    assert post(client, league, "annulment", {"reason": "x"}, "mentor").status_code == 403
    second = post(client, league, "annulment", {"reason": "agreed"}, "allies")
    assert second.status_code == 201
    assert status(league) == ("annulled", None)
    reveal = last_entry(client, league)
    assert reveal["kind"] == "seed-reveal" and reveal["data"]["rated"] == 0
    assert f"#{agreement['seq']}" in reveal["data"]["reason"]


def test_the_game_page_offers_the_finish_and_the_annulment(
    app: Flask, client: FlaskClient, league: League
) -> None:
    from tests.conftest import logged_in

    axis = logged_in(app, league.ctx, "axis@example.org")
    page = axis.get(f"/games/{league.game}").get_data(as_text=True)
    assert "Post the finish" in page and "Agree to annul" in page
    mentor_page = logged_in(app, league.ctx, "mentor@example.org").get(f"/games/{league.game}")
    assert "Post the finish" not in mentor_page.get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token is not None
    early = axis.post(
        f"/games/{league.game}/finish", data={"csrf_token": token.group(1), "winner": "allies"}
    )
    assert early.status_code == 303
    assert "Not recorded" in axis.get(f"/games/{league.game}").get_data(as_text=True)
    assert status(league) == ("active", None)  # the loser may not post it yet
    done = axis.post(
        f"/games/{league.game}/finish", data={"csrf_token": token.group(1), "winner": "axis"}
    )
    assert done.status_code == 303 and status(league) == ("finished", "axis")
    assert "Post the finish" not in axis.get(f"/games/{league.game}").get_data(as_text=True)
