"""Forfeits (issue 16, point 3) under IAAPA Forfeits and Annulments, Forfeits, with a clock
the test controls."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from adjudicator.powers import Power
from adjudicator.rulings.forfeits import (
    Owing,
    Written,
    deadline_missed,
    forfeit_request,
    owing,
)
from dice_server.models import Game
from dice_server.services import ServiceContext
from dice_server.services.rulings import missed_deadlines
from tests.conformance.league_api import entries, on_clock, post
from tests.conftest import League, SteppingClock

USSR_PRE = (
    Path(__file__).resolve().parents[1] / "data" / "turns" / "02-ussr-r1-precombat.txt"
).read_text()

WITHIN_5_DAYS = (
    "If a player has not submitted his turn within 5 days and has not complied with the turn "
    "submission guidelines then you may initiate a forfeit."
)
APPROVED = (
    "If the forfeit request is approved the Minister of Law will notify both parties, issue "
    "the forfeit victory and close out the game."
)
DENIED = (
    "If the forfeit is not approved then the Minister of Law will instruct both parties to "
    "continue the game and may impose special conditions as appropriate to ensure that the "
    "game is played in a timely manner. If these conditions are not followed then the "
    "Minister of Law may declare the game a forfeit."
)


START = datetime(2026, 11, 21, 12, tzinfo=UTC)
PLAYERS = {"axis": "axis@example.org", "allies": "allies@example.org"}


def at(days: float) -> datetime:
    return START + timedelta(days=days)


def made() -> Written:
    """The game's first entry, written by the service."""
    return Written("genesis", "", START)


class TestForfeitsWithin5Days:
    """If a player has not submitted his turn within 5 days and has not complied with the turn
    submission guidelines then you may initiate a forfeit.

    The rule itself (adjudicator.rulings.forfeits), on facts given as values: who owes the
    move, since when, and whether his opponent may request the forfeit now."""

    def test_the_rule_is_quoted(self, rules_text: str) -> None:
        assert WITHIN_5_DAYS in rules_text and DENIED in rules_text and APPROVED in rules_text

    def test_nobody_has_played_the_allies_owe_the_first_move(self) -> None:
        due = owing([made()], PLAYERS, None)
        assert due == Owing("allies", START)

    def test_in_a_dice_only_game_whoever_did_not_roll_last_owes_the_move(self) -> None:
        entries = [made(), Written("roll", "ALLIES@example.org", at(1))]
        assert owing(entries, PLAYERS, None) == Owing("axis", at(1))
        entries.append(Written("roll", "axis@example.org", at(2)))
        assert owing(entries, PLAYERS, None) == Owing("allies", at(2))

    @pytest.mark.parametrize("kind", ["will-battle-roll", "will-air-roll", "tt-combat-round"])
    def test_a_roll_of_another_game_system_is_a_turn(self, kind: str) -> None:
        """The league's other systems (issue 19) are played with the dice server alone: a
        player's roll is his turn there as a Classic roll is."""
        entries = [made(), Written(kind, "allies@example.org", at(1))]
        assert owing(entries, PLAYERS, None) == Owing("axis", at(1))

    def test_a_note_is_not_a_turn(self) -> None:
        entries = [made(), Written("note", "allies@example.org", at(3))]
        due = owing(entries, PLAYERS, None)
        assert (due.side, due.silent_since) == ("allies", START)  # the line counts from here
        assert due.heard_since == at(3)  # though he was heard from (the reminders wait)

    def test_with_turns_sent_the_power_to_move_decides(self) -> None:
        entries = [
            made(),
            Written("submission", "allies@example.org", at(1)),
            Written("roll", "allies@example.org", at(2)),
        ]
        assert owing(entries, PLAYERS, Power.GERMANY) == Owing("axis", at(2))
        assert owing(entries, PLAYERS, Power.UK) == Owing("allies", at(2))

    def test_the_request_is_possible_5_days_after_the_silence_began(self) -> None:
        due = Owing("allies", START)
        early = forfeit_request("axis", due, "allies@example.org", at(5) - timedelta(hours=1))
        assert not early.allowed
        assert "within 5 days" in early.reason and "from 2026-11-26 12:00 UTC" in early.reason
        assert forfeit_request("axis", due, "allies@example.org", at(5)).allowed

    def test_the_player_who_owes_the_move_may_not_request_it(self) -> None:
        refused = forfeit_request("allies", Owing("allies", START), "allies@example.org", at(9))
        assert not refused.allowed and "the next move is yours" in refused.reason


class TestForfeitConditions:
    """If the forfeit is not approved then the Minister of Law will instruct both parties to
    continue the game and may impose special conditions as appropriate to ensure that the
    game is played in a timely manner. If these conditions are not followed then the Minister
    of Law may declare the game a forfeit.

    A denial's deadline (adjudicator.rulings.forfeits.deadline_missed) is missed when it
    passes without a turn from the player it bound."""

    def test_a_deadline_not_yet_passed_is_not_missed(self) -> None:
        assert not deadline_missed(at(3), "allies@example.org", [], at(2))

    def test_a_deadline_passed_without_a_turn_is_missed(self) -> None:
        note = Written("note", "allies@example.org", at(1))
        assert deadline_missed(at(3), "allies@example.org", [note], at(3))

    def test_a_turn_from_the_player_meets_it(self) -> None:
        turn = Written("submission", "Allies@Example.org", at(1))
        assert not deadline_missed(at(3), "allies@example.org", [turn], at(4))

    def test_a_turn_from_his_opponent_does_not(self) -> None:
        turn = Written("roll", "axis@example.org", at(1))
        assert deadline_missed(at(3), "allies@example.org", [turn], at(4))


@pytest.fixture
def ctx(app: Flask, clock: SteppingClock) -> ServiceContext:
    """The app's services on the test's clock (the league fixture makes its game with it)."""
    return on_clock(app, clock)


@pytest.fixture
def game(league: League) -> League:
    return league


def request_forfeit(client: FlaskClient, league: League, who: str = "axis") -> Any:
    return post(client, league, "notes", {"topic": "forfeit-request", "text": "gone"}, who)


def test_a_forfeit_may_be_requested_after_5_days_without_a_turn(
    client: FlaskClient, game: League, clock: SteppingClock
) -> None:
    assert "within 5 days" in WITHIN_5_DAYS
    # The Allies move first (USSR) and have sent nothing since the game began.
    clock.advance(days=4, hours=23)
    early = request_forfeit(client, game)
    assert early.status_code == 409
    message = early.get_json()["error"]
    assert "within 5 days" in message and "from 2026-11-26 12:00 UTC" in message
    clock.advance(hours=1)
    accepted = request_forfeit(client, game)
    assert accepted.status_code == 201, accepted.get_json()
    assert entries(client, game)[-1]["data"]["topic"] == "forfeit-request"


def test_the_player_who_owes_the_move_cannot_request_it(
    client: FlaskClient, game: League, clock: SteppingClock
) -> None:
    clock.advance(days=9)
    refused = request_forfeit(client, game, who="allies")
    assert refused.status_code == 409 and "the next move is yours" in refused.get_json()["error"]
    mentor = request_forfeit(client, game, who="mentor")
    assert mentor.status_code == 403


def test_a_turn_restarts_the_5_days_and_a_note_does_not(
    client: FlaskClient, game: League, clock: SteppingClock
) -> None:
    clock.advance(days=2)
    note = {"topic": "general", "text": "travelling, turn on Sunday"}
    assert post(client, game, "notes", note, "allies").status_code == 201  # no turn
    clock.advance(days=1)
    assert post(client, game, "turns", {"text": USSR_PRE}, "allies").status_code == 201
    clock.advance(days=3)  # 6 days since the game began, 3 since his pre-combat turn
    refused = request_forfeit(client, game)
    assert refused.status_code == 409 and "from 2026-11-29 12:00 UTC" in refused.get_json()["error"]
    clock.advance(days=2)  # still USSR's post-combat turn to come
    assert request_forfeit(client, game).status_code == 201


def test_the_minister_approves_and_the_requester_wins(
    client: FlaskClient, game: League, clock: SteppingClock
) -> None:
    assert "issue the forfeit victory and close out the game" in APPROVED
    clock.advance(days=6)
    request = json.loads(request_forfeit(client, game).get_json()["body"])
    decision = {"refers_to": request["seq"], "verdict": "approve", "reason": "no answer"}
    assert post(client, game, "rulings", decision, "axis").status_code == 403
    ruled = post(client, game, "rulings", decision, "minister")
    assert ruled.status_code == 201, ruled.get_json()
    *_, ruling, reveal = entries(client, game)
    assert ruling["kind"] == "ruling" and ruling["data"]["status"] == "forfeit-approved"
    assert ruling["data"]["refers_to"] == request["seq"]
    assert ruling["data"]["by"] == "minister@example.org"
    assert reveal["kind"] == "seed-reveal"
    assert (reveal["data"]["status"], reveal["data"]["winner"]) == ("forfeited", "axis")
    with game.ctx.sessions() as session:
        assert session.get(Game, game.game).status == "forfeited"
    again = post(client, game, "rulings", decision, "minister")
    assert again.status_code == 409


def test_a_denial_sets_conditions_and_a_missed_deadline_is_reported(
    client: FlaskClient, game: League, clock: SteppingClock
) -> None:
    assert "may impose special conditions" in DENIED
    clock.advance(days=6)
    request = json.loads(request_forfeit(client, game).get_json()["body"])
    no_deadline = {"refers_to": request["seq"], "verdict": "deny", "reason": "he answered"}
    assert post(client, game, "rulings", no_deadline, "minister").status_code == 400
    denial = {**no_deadline, "conditions": "a turn every 3 days", "deadline_days": 3}
    ruled = post(client, game, "rulings", denial, "minister")
    assert ruled.status_code == 201, ruled.get_json()
    ruling = entries(client, game)[-1]
    assert ruling["data"]["status"] == "forfeit-denied"
    assert ruling["data"]["conditions"] == "a turn every 3 days"
    assert ruling["data"]["deadline"].startswith("2026-11-30T12:00:00")
    clock.advance(days=2, hours=23)
    assert missed_deadlines(game.ctx) == []  # not yet
    clock.advance(hours=2)
    [reported] = missed_deadlines(game.ctx)
    missed = entries(client, game)[-1]
    assert missed["seq"] == reported.seq and missed["data"]["status"] == "deadline-missed"
    assert missed["data"]["refers_to"] == ruling["seq"]
    assert missed_deadlines(game.ctx) == []  # reported once


def test_a_deadline_met_is_not_reported(
    client: FlaskClient, game: League, clock: SteppingClock
) -> None:
    clock.advance(days=6)
    request = json.loads(request_forfeit(client, game).get_json()["body"])
    denial = {
        "refers_to": request["seq"],
        "verdict": "deny",
        "reason": "ill",
        "deadline_days": 2,
    }
    assert post(client, game, "rulings", denial, "minister").status_code == 201
    clock.advance(days=1)
    note = {"topic": "general", "text": "back; turn tonight"}
    assert post(client, game, "notes", note, "allies").status_code == 201
    assert post(client, game, "turns", {"text": USSR_PRE}, "allies").status_code == 201
    clock.advance(days=5)
    assert missed_deadlines(game.ctx) == []


def test_a_note_does_not_meet_a_deadline(
    client: FlaskClient, game: League, clock: SteppingClock
) -> None:
    clock.advance(days=6)
    request = json.loads(request_forfeit(client, game).get_json()["body"])
    denial = {"refers_to": request["seq"], "verdict": "deny", "reason": "ill", "deadline_days": 2}
    assert post(client, game, "rulings", denial, "minister").status_code == 201
    note = {"topic": "general", "text": "soon"}
    assert post(client, game, "notes", note, "allies").status_code == 201
    clock.advance(days=3)
    assert len(missed_deadlines(game.ctx)) == 1


def test_the_minister_decides_from_his_dashboard(
    app: Flask, client: FlaskClient, game: League, clock: SteppingClock
) -> None:
    from tests.conftest import logged_in

    clock.advance(days=6)
    request = json.loads(request_forfeit(client, game).get_json()["body"])
    minister = logged_in(app, game.ctx, "minister@example.org")
    board = minister.get("/minister")
    html = board.get_data(as_text=True)
    assert board.status_code == 200 and f"entry #{request['seq']}" in html
    assert "forfeit request by axis@example.org" in html
    assert logged_in(app, game.ctx, "axis@example.org").get("/minister").status_code == 403
    token = hidden_csrf(html)
    decided = minister.post(
        f"/minister/games/{game.game}/rulings",
        data={
            "csrf_token": token,
            "refers_to": request["seq"],
            "verdict": "deny",
            "reason": "he answered the request",
            "conditions": "a turn every 3 days",
            "deadline_days": "3",
        },
    )
    assert decided.status_code == 303
    ruling = entries(client, game)[-1]
    assert (ruling["data"]["status"], ruling["data"]["by"]) == (
        "forfeit-denied",
        "minister@example.org",
    )
    after = minister.get("/minister").get_data(as_text=True)
    assert "must move by 2026-11-30 12:00 UTC" in after and "Nothing waits" in after
    forged = minister.post(
        f"/minister/games/{game.game}/rulings",
        data={"refers_to": request["seq"], "verdict": "approve", "reason": "x"},
    )
    assert forged.status_code in (303, 400)  # without the CSRF token nothing is recorded
    assert entries(client, game)[-1]["seq"] == ruling["seq"]


def test_repeated_forfeits_flag_the_member(app: Flask, ctx: ServiceContext, game: League) -> None:
    from dice_server.services.games import create_game, end_game
    from tests.conftest import logged_in

    for _ in range(2):
        lost = create_game(ctx, axis="axis@example.org", allies="allies@example.org")
        end_game(ctx, lost.game_number, status="forfeited", winner="axis")
    html = logged_in(app, ctx, "minister@example.org").get("/minister").get_data(as_text=True)
    assert "Allies (allies@example.org): 2 forfeit(s), 0 annulment(s)" in html
    assert "Axis (axis@example.org)" not in html


def hidden_csrf(html: str) -> str:
    import re

    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html) or re.search(
        r'id="csrf_token" name="csrf_token" type="hidden" value="([^"]+)"', html
    )
    assert found, "no CSRF token on the page"
    return found.group(1)


def test_the_pages_lead_to_the_dashboard_and_the_rankings(app: Flask, game: League) -> None:
    from tests.conftest import logged_in

    minister = logged_in(app, game.ctx, "minister@example.org").get("/").get_data(as_text=True)
    player = logged_in(app, game.ctx, "axis@example.org").get("/").get_data(as_text=True)
    assert 'href="/minister"' in minister and 'href="/minister"' not in player
    assert 'href="/ratings"' in player and 'href="/ratings"' in app.test_client().get("/").get_data(
        as_text=True
    )
