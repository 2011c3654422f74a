"""The turn clock and its reminders (issue 22, points 1 and 2), with a clock the test controls:
whom a game waits for and since when, a reminder after TURN_REMINDER_AFTER, one every
TURN_REMINDER_EVERY, and the forfeit line (FORFEIT_AFTER, the rule's 5 days) told once to both
players."""

from __future__ import annotations

import email
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from dice_server.app import create_app
from dice_server.db import reading
from dice_server.models import OutboxMessage
from dice_server.services import ServiceContext
from dice_server.services.games import create_game
from dice_server.services.members import add_member
from dice_server.services.reminders import send_reminders
from tests.conformance.league_api import on_clock, post
from tests.conftest import League, SteppingClock, battle, logged_in

USSR_PRE = (
    Path(__file__).resolve().parents[1] / "data" / "turns" / "02-ussr-r1-precombat.txt"
).read_text()
ALLIES = "allies@example.org"
AXIS = "axis@example.org"


@pytest.fixture
def ctx(app: Flask, clock: SteppingClock) -> ServiceContext:
    """The app's services on the test's clock (the league fixture makes its game with it)."""
    return on_clock(app, clock)


@dataclass(frozen=True)
class Mail:
    subject: str
    to: list[str]
    in_reply_to: str | None
    text: str


def reminders(ctx: ServiceContext, game: int) -> list[Mail]:
    """The game's queued mail that announces no entry (the turn clock's), oldest first."""
    with reading(ctx.sessions) as session:
        rows = session.execute(
            select(OutboxMessage.raw, OutboxMessage.to_addrs)
            .where(OutboxMessage.game_number == game, OutboxMessage.raw.is_not(None))
            .order_by(OutboxMessage.id)
        ).all()
    out = []
    for raw, to in rows:
        msg = email.message_from_bytes(raw, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        body = msg.get_body(preferencelist=("plain",))
        out.append(
            Mail(
                str(msg["Subject"]),
                json.loads(to),
                msg["In-Reply-To"],
                body.get_content() if body else "",
            )
        )
    return out


def genesis_message_id(ctx: ServiceContext, game: int) -> str:
    with reading(ctx.sessions) as session:
        return session.execute(
            select(OutboxMessage.message_id).where(
                OutboxMessage.game_number == game, OutboxMessage.entry_seq == 1
            )
        ).scalar_one()


def clock_of(client: FlaskClient, league: League, who: str = "axis") -> Any:
    got = client.get(f"/api/v1/games/{league.game}/position", headers=league.auth(who))
    assert got.status_code == 200, got.get_json()
    body = got.get_json()
    assert {"position", "turn"} <= body.keys()
    return body["clock"]


def test_the_player_to_move_is_reminded_after_3_days_then_daily_and_both_told_at_5(
    client: FlaskClient, league: League, clock: SteppingClock
) -> None:
    ctx, game = league.ctx, league.game
    # The Allies move first (USSR) and have sent nothing since the game began.
    clock.advance(days=3, seconds=-1)
    assert send_reminders(ctx) == []
    clock.advance(seconds=1)
    [first] = send_reminders(ctx)
    [mail] = reminders(ctx, game)
    assert mail.subject == f"[Game {game}] Reminder: USSR to move"
    assert mail.to == [ALLIES]
    assert mail.in_reply_to == genesis_message_id(ctx, game)  # threaded on the game
    assert "since 2026-11-21 12:00 UTC" in mail.text and "2026-11-26 12:00 UTC" in mail.text
    assert send_reminders(ctx) == []  # the job again: nothing twice in one period
    clock.advance(hours=12)
    assert send_reminders(ctx) == []
    clock.advance(hours=12)
    [second] = send_reminders(ctx)
    assert second != first
    assert [m.subject for m in reminders(ctx, game)][-1].endswith("Reminder: USSR to move")
    assert clock_of(client, league) == {
        "waiting_for": ALLIES,
        "since": "2026-11-21T12:00:00Z",
        "reminded": 2,
        "forfeit_line": "2026-11-26T12:00:00Z",
    }
    clock.advance(hours=23, minutes=59)
    assert send_reminders(ctx) == []
    clock.advance(minutes=1)  # 5 days: the rule's line
    assert len(send_reminders(ctx)) == 1
    line = reminders(ctx, game)[-1]
    assert line.subject == f"[Game {game}] Forfeit may be requested: USSR to move"
    assert line.to == [AXIS, ALLIES]
    assert "within 5 days" in line.text
    assert send_reminders(ctx) == []  # once
    assert len(reminders(ctx, game)) == 3
    clock.advance(days=1)
    assert len(send_reminders(ctx)) == 1  # the player to move is still reminded daily
    assert clock_of(client, league)["reminded"] == 3


def test_a_turn_restarts_the_clock(
    client: FlaskClient, league: League, clock: SteppingClock
) -> None:
    clock.advance(days=3)
    assert len(send_reminders(league.ctx)) == 1
    clock.advance(hours=1)
    sent = post(client, league, "turns", {"text": USSR_PRE}, "allies")
    assert sent.status_code == 201, sent.get_json()
    # Still USSR's post-combat turn to come: the Allies owe it, from their turn on.
    assert clock_of(client, league) == {
        "waiting_for": ALLIES,
        "since": "2026-11-24T13:00:00Z",
        "reminded": 0,
        "forfeit_line": "2026-11-29T13:00:00Z",
    }
    clock.advance(days=3, seconds=-1)
    assert send_reminders(league.ctx) == []
    clock.advance(seconds=1)
    assert len(send_reminders(league.ctx)) == 1
    assert clock_of(client, league)["reminded"] == 1


def test_a_roll_restarts_the_clock_for_the_other_player(
    client: FlaskClient, league: League, clock: SteppingClock
) -> None:
    """A game played with the dice server alone: whoever did not roll last owes the move."""
    clock.advance(days=2)
    rolled = post(client, league, "rolls", battle(), "allies")
    assert rolled.status_code == 201, rolled.get_json()
    assert clock_of(client, league) == {
        "waiting_for": AXIS,
        "since": "2026-11-23T12:00:00Z",
        "reminded": 0,
        "forfeit_line": "2026-11-28T12:00:00Z",
    }
    clock.advance(days=2)  # 4 days since the game began, 2 since the roll
    assert send_reminders(league.ctx) == []
    clock.advance(days=1)
    assert len(send_reminders(league.ctx)) == 1
    [mail] = reminders(league.ctx, league.game)
    assert mail.to == [AXIS] and mail.subject == f"[Game {league.game}] Reminder: Axis to move"


def test_a_note_of_his_puts_off_the_reminders_but_not_the_forfeit_line(
    client: FlaskClient, league: League, clock: SteppingClock
) -> None:
    """The clock shows when the player to move last acted, a note of his included; a note is
    not his turn: "If a player has not submitted his turn within 5 days" (IAAPA Forfeits)."""
    clock.advance(days=2)
    note = {"topic": "general", "text": "Ill this week; my turn comes by Friday."}
    assert post(client, league, "notes", note, "allies").status_code == 201
    assert clock_of(client, league) == {
        "waiting_for": ALLIES,
        "since": "2026-11-23T12:00:00Z",
        "reminded": 0,
        "forfeit_line": "2026-11-26T12:00:00Z",
    }
    clock.advance(days=1)  # 3 days since the game began, 1 since his note
    assert send_reminders(league.ctx) == []
    clock.advance(days=2)  # the rule's 5 days: the line holds, and both are told
    assert len(send_reminders(league.ctx)) == 1
    [mail] = reminders(league.ctx, league.game)
    assert mail.subject == f"[Game {league.game}] Forfeit may be requested: USSR to move"
    clock.advance(days=1)  # 3 days since his note: now he is reminded
    assert len(send_reminders(league.ctx)) == 1
    assert reminders(league.ctx, league.game)[-1].subject.endswith("Reminder: USSR to move")


def test_two_schedulers_at_once_send_one_reminder(league: League, clock: SteppingClock) -> None:
    clock.advance(days=3)
    start = threading.Barrier(2)
    sent: list[list[str]] = []
    errors: list[BaseException] = []

    def scheduler() -> None:
        try:
            start.wait()
            sent.append(send_reminders(league.ctx))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=scheduler) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    assert sorted(len(s) for s in sent) == [0, 1]
    assert len(reminders(league.ctx, league.game)) == 1


def test_an_ended_game_has_no_clock_and_no_reminders(
    client: FlaskClient, league: League, clock: SteppingClock
) -> None:
    clock.advance(days=6)
    requested = post(client, league, "notes", {"topic": "forfeit-request", "text": "gone"}, "axis")
    seq = json.loads(requested.get_json()["body"])["seq"]
    decision = {"refers_to": seq, "verdict": "approve", "reason": "no answer"}
    assert post(client, league, "rulings", decision, "minister").status_code == 201
    assert clock_of(client, league) is None
    assert send_reminders(league.ctx) == []


def test_the_pages_say_whom_the_game_waits_for(
    app: Flask, league: League, clock: SteppingClock
) -> None:
    clock.advance(days=3)
    send_reminders(league.ctx)
    client = logged_in(app, league.ctx, AXIS)
    home = client.get("/").get_data(as_text=True)
    assert "waiting for" in home and "2026-11-21T12:00:00Z" in home
    page = client.get(f"/games/{league.game}").get_data(as_text=True)
    assert "waiting for" in page and ALLIES in page and "2026-11-21T12:00:00Z" in page


# --- the settings ---------------------------------------------------------------------------


def league_on(ctx: ServiceContext) -> League:
    """The league fixture's players and game, on another app."""
    tokens = {
        who: add_member(ctx, f"{who}@example.org", who.title(), role=role, confirmed=True).token
        for who, role in [("axis", "player"), ("allies", "player"), ("minister", "minister")]
    }
    entry = create_game(ctx, axis=AXIS, allies=ALLIES)
    return League(ctx=ctx, tokens=tokens, game=entry.game_number)


@pytest.fixture
def quick(instance: Path, database_url: str, clock: SteppingClock) -> Iterator[Flask]:
    """An app whose turn clock runs in seconds, set as a league would in its config."""
    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(instance),
            "DATABASE_URL": database_url,
            "CLOCK": clock,
            "TURN_REMINDER_AFTER": 10,
            "TURN_REMINDER_EVERY": "5",  # as a PBEM_* variable may bring it
            "FORFEIT_AFTER": 20,
        }
    )
    yield app
    app.extensions["pbem"].sessions.kw["bind"].dispose()


def test_the_settings_set_the_clock_and_the_forfeit_line(
    quick: Flask, clock: SteppingClock
) -> None:
    ctx: ServiceContext = quick.extensions["pbem"]
    assert (ctx.turn_clock.after, ctx.turn_clock.every, ctx.turn_clock.forfeit_after) == (
        timedelta(seconds=10),
        timedelta(seconds=5),
        timedelta(seconds=20),
    )
    league = league_on(ctx)
    client = quick.test_client()
    clock.advance(seconds=9)
    assert send_reminders(ctx) == []
    clock.advance(seconds=1)
    assert len(send_reminders(ctx)) == 1
    clock.advance(seconds=5)
    assert len(send_reminders(ctx)) == 1
    clock.advance(seconds=4)
    refused = post(client, league, "notes", {"topic": "forfeit-request", "text": "x"}, "axis")
    assert refused.status_code == 409
    assert "within 20 seconds" in refused.get_json()["error"]
    clock.advance(seconds=1)
    assert len(send_reminders(ctx)) == 1
    assert reminders(ctx, league.game)[-1].subject.startswith(f"[Game {league.game}] Forfeit")
    accepted = post(client, league, "notes", {"topic": "forfeit-request", "text": "x"}, "axis")
    assert accepted.status_code == 201, accepted.get_json()


@pytest.mark.parametrize(
    "rules", [{"system": "triumph-of-the-will"}, {"ruleset": "big_world_1942"}]
)
def test_a_game_of_other_rules_is_reminded_by_side_not_by_a_classic_power(
    ctx: ServiceContext, league: League, clock: SteppingClock, rules: dict[str, str]
) -> None:
    """The service keeps the turns of Classic games only; in a game of other rules its
    players keep the board, so the clock names the side that owes the move, never the
    Classic power its kept turn would show (USSR), and so does the operator's list."""
    from dice_server.services.views import all_games

    game = create_game(ctx, axis=AXIS, allies=ALLIES, **rules).game_number
    clock.advance(days=3)
    send_reminders(ctx)
    [mail] = reminders(ctx, game)
    side = "Allies" if mail.to == [ALLIES] else "Axis"
    assert mail.subject == f"[Game {game}] Reminder: {side} to move"
    assert "USSR" not in mail.text
    [line] = [line for line in all_games(ctx) if line.startswith(f"{game}\t")]
    assert line.endswith(": the players keep the board") and "USSR" not in line
