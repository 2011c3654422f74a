"""Game completion and annulment (issue 16, point 4) under the league's rule text, with a
clock the test controls."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from adjudicator.rulings.completion import annulment_agreed, finish_posting
from dice_server.models import Game
from dice_server.services import ServiceContext
from tests.conformance.league_api import entries, on_clock, post
from tests.conftest import League, SteppingClock

GAME_COMPLETION = (
    "Game finishes are to be entered by the victor. If, after 7 days have elapsed since the "
    "game officially ended and the game finish has not been posted, the loser may enter the "
    "game finish."
)
ANNULMENTS = "By mutual agreement a game may be annulled."


ENDED = datetime(2026, 11, 21, 12, tzinfo=UTC)


class TestGameCompletion:
    """Game finishes are to be entered by the victor. If, after 7 days have elapsed since the
    game officially ended and the game finish has not been posted, the loser may enter the
    game finish.

    The rule itself (adjudicator.rulings.completion.finish_posting), on facts given as
    values: the poster's side, the winner he names, when the game ended, the time now."""

    def test_the_rule_is_quoted(self, rules_text: str) -> None:
        assert GAME_COMPLETION in rules_text and ANNULMENTS in rules_text

    def test_the_victor_posts_at_once(self) -> None:
        assert finish_posting("axis", "axis", ENDED, ENDED).allowed

    def test_the_loser_waits_7_days(self) -> None:
        early = finish_posting("allies", "axis", ENDED, ENDED + timedelta(days=6, hours=23))
        assert not early.allowed
        assert "entered by the victor" in early.reason
        assert "from 2026-11-28 12:00 UTC" in early.reason
        assert finish_posting("allies", "axis", ENDED, ENDED + timedelta(days=7)).allowed


class TestAnnulments:
    """By mutual agreement a game may be annulled.

    adjudicator.rulings.completion.annulment_agreed: one player's agreement is not mutual."""

    PLAYERS = ("axis@example.org", "allies@example.org")

    def test_one_agreement_is_not_mutual(self) -> None:
        assert not annulment_agreed(["axis@example.org"], self.PLAYERS)

    def test_both_players_agreeing_is(self) -> None:
        assert annulment_agreed(["Allies@example.org", "axis@example.org"], self.PLAYERS)


@pytest.fixture
def ctx(app: Flask, clock: SteppingClock) -> ServiceContext:
    return on_clock(app, clock)


def status(league: League) -> tuple[str, str | None]:
    with league.ctx.sessions() as session:
        game = session.get_one(Game, league.game)
        return game.status, game.winner


def last_entry(client: FlaskClient, league: League) -> dict[str, Any]:
    return entries(client, league)[-1]


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
