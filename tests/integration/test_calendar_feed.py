"""The calendar (issue 22, point 4): "GET /calendar/<member token>.ics (an unguessable
per-member link from the account page) lists each game's forfeit line as an event".

The feed is read back with the ``icalendar`` library, as a calendar program would read it;
the clock is the test's, so the line is where the rule puts it: "If a player has not
submitted his turn within 5 days ... you may initiate a forfeit" (IAAPA Forfeits)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import icalendar
import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from dice_server.services import ServiceContext
from dice_server.services.calendar import LINE_OCTETS, fold
from dice_server.services.completion import finish
from dice_server.services.entries import ApiToken
from tests.conformance.league_api import on_clock, post
from tests.conftest import League, SteppingClock, battle, logged_in
from tests.integration.test_turn_clock import ALLIES, AXIS

START = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
"""When the league fixture's game begins; the Allies (USSR) owe the first move."""


@pytest.fixture
def ctx(app: Flask, clock: SteppingClock) -> ServiceContext:
    return on_clock(app, clock)


def link_of(client: FlaskClient, league: League, who: str, body: Any = None) -> str:
    got = client.post(
        "/api/v1/members/me/calendar",
        data=json.dumps({} if body is None else body),
        headers={**league.auth(who), "Content-Type": "application/json"},
    )
    assert got.status_code == 200, got.get_json()
    url: str = got.get_json()["url"]
    assert re.fullmatch(r"http://[^/]+/calendar/[A-Za-z0-9_-]{40,}\.ics", url), url
    return url


def feed(client: FlaskClient, url: str) -> icalendar.Calendar:
    got = client.get(url.split("localhost", 1)[-1])
    assert got.status_code == 200, got.get_data(as_text=True)
    assert got.mimetype == "text/calendar"
    raw = got.get_data()
    for line in raw.split(b"\r\n"):
        assert len(line) <= LINE_OCTETS, line  # RFC 5545, 3.1
    return icalendar.Calendar.from_ical(raw)


def events(calendar: icalendar.Calendar) -> list[Any]:
    return list(calendar.walk("VEVENT"))


def test_each_player_sees_the_forfeit_line_five_days_after_the_wait_began(
    client: FlaskClient, league: League
) -> None:
    [allies] = events(feed(client, link_of(client, league, "allies")))
    [axis] = events(feed(client, link_of(client, league, "axis")))
    line = START + timedelta(days=5)
    for event in (allies, axis):
        assert event.decoded("DTSTART") == line
        assert event.decoded("DTEND") > line
        assert str(event["URL"]).endswith(f"/games/{league.game}")
    assert str(allies["SUMMARY"]) == f"Game {league.game}: your turn (USSR), forfeit line"
    assert str(axis["SUMMARY"]) == (f"Game {league.game}: USSR to move, you may request a forfeit")
    assert "Allies (allies@example.org)" in str(allies["DESCRIPTION"])
    assert str(allies["UID"]) == str(axis["UID"])  # one line, one event, whoever reads it
    assert "forfeit-request" in str(axis["DESCRIPTION"])


def test_an_away_notice_moves_the_event_and_a_turn_makes_a_new_one(
    client: FlaskClient, league: League, clock: SteppingClock
) -> None:
    url = link_of(client, league, "axis")
    [before] = events(feed(client, url))
    clock.advance(days=1)
    away = {"topic": "away", "text": "a wedding", "from": "2026-11-23", "until": "2026-11-24"}
    assert post(client, league, "notes", away, "allies").status_code == 201
    [paused] = events(feed(client, url))
    # A note is not a turn: the line still counts from the game's start, two days later.
    assert paused.decoded("DTSTART") == START + timedelta(days=5 + 2)
    assert str(paused["UID"]) == str(before["UID"])  # the calendar moves the same event
    rolled = post(client, league, "rolls", battle(), "allies")
    assert rolled.status_code == 201, rolled.get_json()
    [after] = events(feed(client, url))  # now the Axis owe the move, from the roll
    assert str(after["UID"]) != str(before["UID"])
    assert after.decoded("DTSTART") == START + timedelta(days=1 + 5)
    assert "your turn" in str(after["SUMMARY"])


def test_the_link_is_the_same_until_replaced_and_the_old_one_then_closes(
    client: FlaskClient, league: League
) -> None:
    first = link_of(client, league, "axis")
    assert link_of(client, league, "axis") == first
    second = link_of(client, league, "axis", {"renew": True})
    assert second != first
    old = client.get(first.split("localhost", 1)[-1])
    assert old.status_code == 404
    assert events(feed(client, second))
    assert link_of(client, league, "allies") != second  # one per member


def test_an_ended_game_and_a_stranger_have_no_events(client: FlaskClient, league: League) -> None:
    stranger = feed(client, link_of(client, league, "stranger"))
    assert events(stranger) == []
    assert str(stranger["X-WR-CALNAME"]) == "PBEM games of Stranger"
    url = link_of(client, league, "axis")
    finish(league.ctx, ApiToken(league.tokens["axis"]), league.game, {"winner": "axis"})
    assert events(feed(client, url)) == []


@pytest.mark.parametrize(
    ("body", "field"),
    [([], ""), ({"renew": "yes"}, "renew"), ({"renew": 1}, "renew"), ({"again": True}, "again")],
)
def test_a_bad_request_says_what_is_wrong(
    client: FlaskClient, league: League, body: Any, field: str
) -> None:
    got = client.post(
        "/api/v1/members/me/calendar",
        data=json.dumps(body),
        headers={**league.auth("axis"), "Content-Type": "application/json"},
    )
    assert got.status_code == 400
    error = got.get_json()["error"]
    assert error.startswith(f"{field}:") if field else "JSON object" in error


def test_no_token_no_link_and_an_unknown_link_is_a_plain_404(
    client: FlaskClient, league: League
) -> None:
    assert client.post("/api/v1/members/me/calendar", json={}).status_code == 401
    unknown = client.get("/calendar/" + "A" * 43 + ".ics")
    assert unknown.status_code == 404
    assert "calendar" in unknown.get_data(as_text=True)


def test_the_account_page_makes_shows_and_replaces_the_link(app: Flask, league: League) -> None:
    page_client = logged_in(app, league.ctx, ALLIES)
    page = page_client.get("/account").get_data(as_text=True)
    assert 'id="calendar"' not in page and "Make my calendar link" in page

    def press(html: str, action: str) -> str:
        csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html)
        assert csrf
        done = page_client.post("/account", data={"csrf_token": csrf[1], "action": action})
        assert done.status_code == 200
        return done.get_data(as_text=True)

    made = press(page, "calendar")
    shown = re.search(r'<code id="calendar">([^<]+)</code>', made)
    assert shown and "Replace the link" in made
    again = page_client.get("/account").get_data(as_text=True)
    assert shown[1] in again  # shown on every visit, not only once
    [event] = events(feed(page_client, shown[1]))
    assert "your turn" in str(event["SUMMARY"])
    replaced = press(again, "calendar-renew")
    assert shown[1] not in replaced and "no longer opens" in replaced
    assert page_client.get(shown[1].split("localhost", 1)[-1]).status_code == 404
    assert AXIS not in replaced  # the page is his own


@given(st.text(max_size=400))
def test_folding_keeps_every_line_within_75_octets_and_unfolds_to_the_same_text(
    text: str,
) -> None:
    folded = fold("DESCRIPTION:" + text.replace("\r", "").replace("\n", ""))
    pieces = folded.split("\r\n")
    assert all(len(piece.encode()) <= LINE_OCTETS for piece in pieces)
    assert all(piece.startswith(" ") for piece in pieces[1:])
    unfolded = folded.replace("\r\n ", "")
    assert unfolded == "DESCRIPTION:" + text.replace("\r", "").replace("\n", "")
