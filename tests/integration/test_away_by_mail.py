"""An away notice by email (issue 22, point 3): a player who writes to his game address with
the subject "Away 2026-11-22 to 2026-11-24" (or "Away until ...") posts the same note of topic
``away`` as the API and the note page, recorded on the ledger, mailed to both players, and
pausing the turn clock for its length. One whose days cannot be read is answered with how
to write it, and nothing is recorded."""

from __future__ import annotations

import smtplib

import pytest
from flask import Flask

from dice_server.services import ServiceContext, inbox
from dice_server.services.reminders import send_reminders
from tests.conformance.league_api import on_clock
from tests.conftest import League, SteppingClock
from tests.integration.test_turns_by_mail import (
    address,
    entries,
    message,
    queued,
    smtpd,
    text_of,
)

__all__ = ["smtpd"]  # the receiver fixture, shared with the turns by mail


@pytest.fixture
def ctx(app: Flask, clock: SteppingClock) -> ServiceContext:
    """The app's services on the test's clock: the game begins 2026-11-21 12:00 UTC."""
    return on_clock(app, clock)


def test_an_away_notice_over_smtp_is_recorded_and_pauses_the_clock(
    ctx: ServiceContext, league: League, clock: SteppingClock, smtpd: int
) -> None:
    to = address(ctx, league, "allies")
    raw = message(
        "allies@example.org",
        to,
        "At a wedding.\n",
        subject="Re: [Game 1] Away 2026-11-22 to 2026-11-24",
    )
    with smtplib.SMTP("127.0.0.1", smtpd, timeout=10) as smtp:
        assert smtp.sendmail("allies@example.org", [to], raw) == {}
    note = entries(ctx, league.game)[-1]
    assert (note["kind"], note["data"]["topic"]) == ("note", "away")
    assert note["data"]["away"] == {"from": "2026-11-22", "until": "2026-11-24"}
    assert note["data"]["text"].strip() == "At a wedding."
    # Three days of silence and three away: no reminder until the sixth day.
    clock.advance(days=6, seconds=-1)
    assert send_reminders(ctx) == []
    clock.advance(seconds=1)
    assert len(send_reminders(ctx)) == 1


def test_away_until_a_day_counts_from_today(ctx: ServiceContext, league: League) -> None:
    raw = message(
        "allies@example.org",
        address(ctx, league, "allies"),
        "Travelling.\n",
        subject="away until 2026-11-27",
    )
    assert inbox.receive(ctx, raw, channel="ingest").status == "recorded"
    note = entries(ctx, league.game)[-1]
    assert note["data"]["away"] == {"from": "2026-11-21", "until": "2026-11-27"}


@pytest.mark.parametrize(
    ("subject", "said"),
    [
        ("Away", "needs its days"),
        ("Away next week", "needs its days"),
        ("Away 2026-11-22 2026-11-24 2026-11-26", "has 3"),
        ("Away 2026-11-31 to 2026-12-02", "day is out of range"),
        ("Away 2026-11-22 to 2026-12-24", "14 days"),
        ("Away 2026-11-01 to 2026-11-03", "is past"),
    ],
)
def test_an_away_notice_whose_days_are_wrong_is_answered_and_not_recorded(
    ctx: ServiceContext, league: League, subject: str, said: str
) -> None:
    raw = message("allies@example.org", address(ctx, league, "allies"), "Off.\n", subject=subject)
    got = inbox.receive(ctx, raw, channel="ingest")
    assert got.status == "refused" and said in (got.reason or ""), got.reason
    assert len(entries(ctx, league.game)) == 1  # the game's first entry only
    [answer] = queued(ctx)
    assert said in text_of(answer) and "not recorded" in text_of(answer)


def test_away_later_in_a_subject_is_a_plain_note(ctx: ServiceContext, league: League) -> None:
    raw = message(
        "axis@example.org",
        address(ctx, league, "axis"),
        "Back on Monday.\n",
        subject="Going away 2026-11-22",
    )
    assert inbox.receive(ctx, raw, channel="ingest").status == "recorded"
    note = entries(ctx, league.game)[-1]
    assert note["data"]["topic"] == "general" and "away" not in note["data"]
