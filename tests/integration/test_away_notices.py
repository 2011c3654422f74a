"""Away notices and the Minister's list of games past the forfeit line (issue 22, point 3),
with a clock the test controls: a notice (a note with the topic ``away``) pauses the
reminders and the forfeit line for its length, the opponent is mailed it, and the dashboard
lists every active game whose line has passed."""

from __future__ import annotations

import email
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from dice_server.mail.delivery import deliver_due
from dice_server.services import ServiceContext
from dice_server.services.reminders import send_reminders
from tests.conformance.league_api import entries, on_clock, post
from tests.conftest import League, SteppingClock, logged_in
from tests.integration.test_mail import courier_for
from tests.integration.test_turn_clock import ALLIES, AXIS, reminders

# The game begins 2026-11-21 12:00 UTC; the Allies (USSR) owe the first move.
WAITING_FOR_ALLIES = (
    f'<span class="person">Allies</span> <span class="muted">({ALLIES})</span> (USSR to move)'
)
"""The dashboard names the silent player as every page does: name, then address."""
AWAY = {"topic": "away", "text": "at a wedding", "from": "2026-11-22", "until": "2026-11-24"}
"""Three whole UTC days away, within the wait."""


@pytest.fixture
def ctx(app: Flask, clock: SteppingClock) -> ServiceContext:
    """The app's services on the test's clock (the league fixture makes its game with it)."""
    return on_clock(app, clock)


def request_forfeit(client: FlaskClient, league: League) -> Any:
    return post(client, league, "notes", {"topic": "forfeit-request", "text": "gone"}, "axis")


def test_a_notice_delays_the_reminders_and_the_forfeit_line_by_its_length(
    client: FlaskClient, league: League, clock: SteppingClock
) -> None:
    ctx = league.ctx
    posted = post(client, league, "notes", AWAY, "allies")
    assert posted.status_code == 201, posted.get_json()
    note = entries(client, league)[-1]
    assert note["data"]["away"] == {"from": "2026-11-22", "until": "2026-11-24"}
    clock.advance(days=6, seconds=-1)  # 3 days of silence, 3 more away
    assert send_reminders(ctx) == []
    clock.advance(seconds=1)
    assert len(send_reminders(ctx)) == 1
    [mail] = reminders(ctx, league.game)
    assert mail.to == [ALLIES] and "2026-11-29 12:00 UTC" in mail.text  # the pushed line
    clock.advance(days=1)
    assert len(send_reminders(ctx)) == 1
    clock.advance(hours=23, minutes=59)  # 8 days less a minute: 5 of silence less a minute
    assert send_reminders(ctx) == []
    refused = request_forfeit(client, league)
    assert refused.status_code == 409
    message = refused.get_json()["error"]
    assert "from 2026-11-29 12:00 UTC" in message and "away notices" in message
    clock.advance(minutes=1)
    assert len(send_reminders(ctx)) == 1
    line = reminders(ctx, league.game)[-1]
    assert line.subject.startswith(f"[Game {league.game}] Forfeit may be requested")
    assert line.to == [AXIS, ALLIES]
    accepted = request_forfeit(client, league)
    assert accepted.status_code == 201, accepted.get_json()


def test_a_notice_of_the_player_not_waited_for_changes_nothing(
    client: FlaskClient, league: League, clock: SteppingClock
) -> None:
    assert post(client, league, "notes", AWAY, "axis").status_code == 201
    clock.advance(days=3)
    assert len(send_reminders(league.ctx)) == 1
    clock.advance(days=2)
    assert request_forfeit(client, league).status_code == 201


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"from": "2026-11-31"}, "from", "must be a UTC day written YYYY-MM-DD"),
        ({"until": "24/11/2026"}, "until", "must be a UTC day written YYYY-MM-DD"),
        ({"from": 20261122}, "from", "must be a UTC day written YYYY-MM-DD"),
        ({"until": None}, "until", "an away notice needs from and until"),
        ({"from": "2026-11-25"}, "until", "is before from"),
        ({"until": "2026-12-06"}, "until", "at most 14 days a notice"),
        ({"from": "2026-11-19", "until": "2026-11-20"}, "until", "is past"),
        ({"topic": "general"}, "from", "only an away notice has dates"),
    ],
)
def test_a_bad_notice_is_refused_and_nothing_recorded(
    client: FlaskClient, league: League, change: dict[str, Any], field: str, words: str
) -> None:
    before = entries(client, league)
    payload = {k: v for k, v in {**AWAY, **change}.items() if v is not None}
    refused = post(client, league, "notes", payload, "allies")
    assert refused.status_code == 400, refused.get_json()
    body = refused.get_json()
    assert body["field"] == field and words in body["error"], body
    assert entries(client, league) == before


def test_14_days_and_a_notice_until_today_are_accepted(client: FlaskClient, league: League) -> None:
    fortnight = {**AWAY, "from": "2026-11-22", "until": "2026-12-05"}
    assert post(client, league, "notes", fortnight, "allies").status_code == 201
    today = {**AWAY, "from": "2026-11-20", "until": "2026-11-21"}
    assert post(client, league, "notes", today, "allies").status_code == 201


def test_the_opponent_is_mailed_the_notice(app: Flask, client: FlaskClient, league: League) -> None:
    assert post(client, league, "notes", AWAY, "allies").status_code == 201
    report = deliver_due(courier_for(app, MAIL_TRANSPORT="maildir"))
    assert not report.failed
    maildir = Path(app.instance_path) / "maildir" / "new"
    mails = [
        email.message_from_bytes(p.read_bytes(), policy=policy.default) for p in maildir.iterdir()
    ]
    notes = [m for m in mails if isinstance(m, EmailMessage) and "note (away)" in str(m["Subject"])]
    assert notes, [str(m["Subject"]) for m in mails]
    assert any(AXIS in str(m["To"]) for m in notes)
    body = notes[0].get_body(("plain",))
    assert body is not None
    assert "Away from 2026-11-22 until 2026-11-24" in body.get_content()


def test_the_dashboard_lists_a_game_past_the_line_and_not_one_before_it(
    app: Flask, client: FlaskClient, league: League, clock: SteppingClock
) -> None:
    minister = logged_in(app, league.ctx, "minister@example.org")
    clock.advance(days=5, minutes=-1)
    page = minister.get("/minister").get_data(as_text=True)
    assert "No game has passed its forfeit line." in page
    clock.advance(minutes=1)
    page = minister.get("/minister").get_data(as_text=True)
    assert "Past the forfeit line" in page
    assert WAITING_FOR_ALLIES in page
    assert "2026-11-21 12:00 UTC" in page and "2026-11-26 12:00 UTC" in page
    assert "No game has passed its forfeit line." not in page


def test_the_dashboard_honours_an_away_notice(
    app: Flask, client: FlaskClient, league: League, clock: SteppingClock
) -> None:
    assert post(client, league, "notes", AWAY, "allies").status_code == 201
    minister = logged_in(app, league.ctx, "minister@example.org")
    clock.advance(days=8, minutes=-1)
    assert "No game has passed its forfeit line." in minister.get("/minister").get_data(
        as_text=True
    )
    clock.advance(minutes=1)
    page = minister.get("/minister").get_data(as_text=True)
    assert "2026-11-29 12:00 UTC" in page and WAITING_FOR_ALLIES in page
