"""The challenge pages through the Flask test client (IAAPA How to Start a Game, Game
Commitments, Game Challenge Time Limitations, Bidding, Variants, Gentlemen's Agreements): a
challenge issued from the form, read by both players with the challenger's bid sealed from
his opponent, accepted with a higher bid from the challenge page (the lower bid plays the
Axis with its bid on the board), declined, cancelled, expired; every refusal shown beside
its field with nothing written; the open challenges board and the variants register."""

from __future__ import annotations

import email
import json
import re
from collections.abc import Iterator
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from dice_server.app import create_app
from dice_server.db import reading
from dice_server.models import Challenge, Game, OutboxMessage
from dice_server.services import ServiceContext
from dice_server.services.members import add_member
from tests.conftest import SteppingClock, logged_in
from tests.integration.test_game_pages import text
from tests.integration.test_pages import alerts

ROMMEL, MONTY, PATTON = "rommel@example.org", "monty@example.org", "patton@example.org"
#: 6 + 6 + 3 = 15 IPCs (not the forms' example, which every form shows).
ROMMEL_BID = "2 G INF Ukraine, 2 J INF Manchuria, 3 J IPC"
MONTY_BID = "6 G INF Ukraine"


@pytest.fixture
def app(instance: Path, database_url: str, clock: SteppingClock) -> Iterator[Flask]:
    """The app on the test's clock (a challenge expires 14 days after it is issued)."""
    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(instance),
            "DATABASE_URL": database_url,
            "CLOCK": clock,
        }
    )
    yield app
    app.extensions["pbem"].sessions.kw["bind"].dispose()


@pytest.fixture
def players(app: Flask, ctx: ServiceContext) -> dict[str, FlaskClient]:
    """Rommel, Montgomery and Patton, members in good standing, each logged in."""
    for address, name in [(ROMMEL, "Rommel"), (MONTY, "Montgomery"), (PATTON, "Patton")]:
        add_member(ctx, address, name, confirmed=True)
    return {address: logged_in(app, ctx, address) for address in (ROMMEL, MONTY, PATTON)}


def posted_form(html: str, action: str) -> dict[str, str]:
    """The hidden fields (CSRF token, nonce) of the page's form that posts to ``action``."""
    match = re.search(rf'<form[^>]*action="{re.escape(action)}"[^>]*>(.*?)</form>', html, re.S)
    assert match, f"no form posts to {action}"
    fields = dict(
        re.findall(r'<input[^>]*name="([^"]+)"[^>]*type="hidden"[^>]*value="([^"]*)"', match[1])
    )
    assert any(name.endswith("csrf_token") for name in fields), f"{action}: no CSRF token"
    return fields


def issue(client: FlaskClient, **fields: str) -> Any:
    """Fill in and send the issue form, as a member would."""
    page = client.get("/challenges/new").get_data(as_text=True)
    data = {
        **posted_form(page, "/challenges/new"),
        "opponent": MONTY,
        "method": "pbem",
        "bid_total": "15",
        "bid_details": ROMMEL_BID,
        **fields,
    }
    return client.post("/challenges/new", data=data)


def answer(client: FlaskClient, number: int, what: str, **fields: str) -> Any:
    """Press the accept, decline or cancel button of challenge ``number``'s page."""
    action = f"/challenges/{number}/{what}"
    page = client.get(f"/challenges/{number}").get_data(as_text=True)
    data = {**posted_form(page, action), **{f"{what}-{k}": v for k, v in fields.items()}}
    return client.post(action, data=data)


def count(ctx: ServiceContext, model: Any) -> int:
    with reading(ctx.sessions) as session:
        return int(session.execute(select(func.count()).select_from(model)).scalar_one())


def mail_to(ctx: ServiceContext, address: str) -> list[str]:
    """What was queued to ``address``: each message's subject and text, or a game entry's
    number (rendered at delivery) as ``game N #seq``."""
    with reading(ctx.sessions) as session:
        rows = session.execute(select(OutboxMessage).order_by(OutboxMessage.id)).scalars().all()
        found = []
        for row in rows:
            if address not in [*json.loads(row.to_addrs), *json.loads(row.cc_addrs or "[]")]:
                continue
            if row.raw is None:
                found.append(f"game {row.game_number} #{row.entry_seq}")
                continue
            msg = email.message_from_bytes(row.raw, policy=policy.default)
            assert isinstance(msg, EmailMessage)
            body = msg.get_body(preferencelist=("plain",))
            found.append(f"{msg['Subject']}\n{body.get_content() if body else ''}")
    return found


def test_issue_read_accept_and_play(ctx: ServiceContext, players: dict[str, FlaskClient]) -> None:
    rommel, monty = players[ROMMEL], players[MONTY]
    form = text(rommel.get("/challenges/new").get_data(as_text=True))
    # IAAPA Gentlemen's Agreements: "The Minister of Law will not adjudicate or enforce
    # these agreements."; Game Commitments; Game Challenge Time Limitations.
    assert "the Minister of Law will not adjudicate or enforce them" in form
    assert "Once you submit a bid you commit yourself to play the game" in form
    assert "expires 14 days after it is issued" in form
    assert "3 G INF Ukraine, 1 J ARM Manchuria, 1 J IPC" in form and "is not rated" in form

    issued = issue(
        rommel,
        variant="Destroyers",
        agreements="no tech\r\nno Russian first attack\r\n",
        instructions="OOL: INF, ARM, FTR",
        message="Good luck,\r\nErwin",
    )
    assert issued.status_code == 303, alerts(issued.get_data(as_text=True))
    assert issued.headers["Location"] == "/challenges/1"
    mine = text(rommel.get("/challenges/1").get_data(as_text=True))
    assert "Challenge 1 issued to Montgomery" in mine  # the flash
    assert "Rommel (rommel@example.org) challenges Montgomery (monty@example.org)" in mine
    assert "Status: open" in mine and "PBEM" in mine and "Destroyers" in mine
    assert "no tech" in mine and "no Russian first attack" in mine
    assert "Good luck, Erwin" in mine and "OOL: INF, ARM, FTR" in mine
    assert f"Rommel's bid 15 IPCs : {ROMMEL_BID}" in mine
    assert "Cancel the challenge" in mine and "Accept with this bid" not in mine

    theirs = rommel.get("/challenges").get_data(as_text=True)
    assert "Montgomery" in theirs and MONTY in theirs and ">open<" in theirs
    # The opponent bids without seeing the challenger's bid (IAAPA Bidding).
    page = monty.get("/challenges/1").get_data(as_text=True)
    assert "sealed until the challenge is accepted" in page and ROMMEL_BID not in page
    assert "Accept with this bid" in page and "Decline the challenge" in page
    assert "Cancel the challenge" not in page
    assert "Rommel" in monty.get("/challenges").get_data(as_text=True)
    to_monty, to_rommel = mail_to(ctx, MONTY), mail_to(ctx, ROMMEL)
    assert [m.splitlines()[0] for m in to_monty + to_rommel] == [
        "[Challenge 1] Rommel challenges Montgomery"
    ] * 2
    assert ROMMEL_BID in to_rommel[0] and ROMMEL_BID not in to_monty[0]

    accepted = answer(monty, 1, "accept", bid_total="18", bid_details=MONTY_BID, message="Ta")
    assert accepted.status_code == 303, alerts(accepted.get_data(as_text=True))
    assert accepted.headers["Location"] == "/challenges/1"
    html = monty.get("/challenges/1").get_data(as_text=True)
    shown = text(html)
    assert f"game 1 starts; {ROMMEL} plays the Axis, {MONTY} the Allies" in shown
    # IAAPA Bidding: "The lower bid plays the Axis powers with the benefits of the winning
    # bid placed on the board before the first USSR turn."
    assert "Game 1: Rommel plays the Axis" in shown
    assert f"Rommel's bid 15 IPCs : {ROMMEL_BID}" in shown
    assert f"Montgomery's bid 18 IPCs : {MONTY_BID}" in shown
    assert f"Challenge 1: bids {ROMMEL} 15 IPCs, {MONTY} 18 IPCs" in shown
    assert "2 INF for Germany in Ukraine S.S.R." in shown and "3 IPCs for Japan" in shown
    assert '<img src="/games/1/board.svg"' in html and 'href="/games/1"' in html
    assert "Accept with this bid" not in shown

    game = rommel.get("/games/1")
    assert game.status_code == 200
    assert "Destroyers" in game.get_data(as_text=True)
    board = rommel.get("/games/1/board.svg")
    assert board.status_code == 200
    # Ukraine's 3 German INF, and the bid's 2 more.
    assert "Ukraine S.S.R.\nheld by Germany, 3 IPC\nGermany: 5 INF" in board.get_data(as_text=True)
    assert count(ctx, Game) == 1
    assert "game 1 #1" in mail_to(ctx, ROMMEL) and "game 1 #1" in mail_to(ctx, MONTY)

    listed = text(rommel.get("/challenges").get_data(as_text=True))
    assert "accepted" in listed and "Game 1" in listed
    register = rommel.get("/variants").get_data(as_text=True)
    assert "Destroyers" in register and 'href="/games/1"' in register
    assert "will not affect by variant game play" in register
    assert "No challenge is open" in rommel.get("/challenges/open").get_data(as_text=True)


def test_equal_bids_are_decided_by_a_die(players: dict[str, FlaskClient]) -> None:
    """IAAPA Bidding: "If bids of equal value are received the web server will determine
    the winner by a random process." """
    assert issue(players[ROMMEL]).status_code == 303
    accepted = answer(players[MONTY], 1, "accept", bid_total="15", bid_details=MONTY_BID)
    assert accepted.status_code == 303, alerts(accepted.get_data(as_text=True))
    shown = text(players[MONTY].get("/challenges/1").get_data(as_text=True))
    assert "Equal bids: the server drew a die" in shown
    assert re.search(r"Game 1: (Rommel|Montgomery) plays the Axis", shown)


def test_decline(ctx: ServiceContext, players: dict[str, FlaskClient]) -> None:
    rommel, monty = players[ROMMEL], players[MONTY]
    assert issue(rommel).status_code == 303
    page = monty.get("/challenges/1").get_data(as_text=True)
    declined = answer(monty, 1, "decline", message="Not this month")
    assert declined.status_code == 303
    shown = text(monty.get("/challenges/1").get_data(as_text=True))
    assert "Challenge 1 declined" in shown and "Status: declined" in shown
    assert "Montgomery's message Not this month" in shown
    assert "Accept with this bid" not in shown and "sealed until" in shown
    assert "[Challenge 1] declined by monty@example.org" in mail_to(ctx, ROMMEL)[-1]
    assert "Not this month" in mail_to(ctx, MONTY)[-1]
    assert "Cancel the challenge" not in rommel.get("/challenges/1").get_data(as_text=True)
    # The page loaded before it was declined: its accept finds it answered, said on the page.
    late = monty.post(
        "/challenges/1/accept",
        data={
            **posted_form(page, "/challenges/1/accept"),
            "accept-bid_total": "18",
            "accept-bid_details": MONTY_BID,
        },
    )
    assert late.status_code == 409
    assert any("is already declined" in a for a in alerts(late.get_data(as_text=True)))
    assert count(ctx, Game) == 0


def test_cancel_and_the_open_board(ctx: ServiceContext, players: dict[str, FlaskClient]) -> None:
    rommel, monty = players[ROMMEL], players[MONTY]
    assert issue(rommel).status_code == 303
    assert issue(rommel, opponent=PATTON, method="face-to-face").status_code == 303
    board = text(monty.get("/challenges/open").get_data(as_text=True))
    assert "Montgomery (monty@example.org)" in board and "Patton (patton@example.org)" in board
    assert "Face to face" in board and ROMMEL_BID not in board  # bids stay sealed

    # Only the challenger cancels: the refusal is said on the page.
    page = monty.get("/challenges/1").get_data(as_text=True)
    assert "/challenges/1/cancel" not in page
    refused = monty.post("/challenges/1/cancel", data=posted_form(page, "/challenges/1/decline"))
    assert refused.status_code == 400  # the decline form's nonce is not the cancel form's
    cancelled = answer(rommel, 1, "cancel")
    assert cancelled.status_code == 303
    shown = text(rommel.get("/challenges/1").get_data(as_text=True))
    assert "Challenge 1 cancelled" in shown and "Status: cancelled" in shown
    assert "[Challenge 1] cancelled by rommel@example.org" in mail_to(ctx, MONTY)[-1]
    board = text(monty.get("/challenges/open").get_data(as_text=True))
    assert "Patton (patton@example.org)" in board and "Montgomery (monty" not in board

    # Monty answers the page he loaded before the challenge was cancelled: 409, said.
    late = monty.post("/challenges/1/decline", data=posted_form(page, "/challenges/1/decline"))
    assert late.status_code == 409
    assert any("is already cancelled" in a for a in alerts(late.get_data(as_text=True)))


def test_a_challenge_expires_after_14_days(
    ctx: ServiceContext, clock: SteppingClock, players: dict[str, FlaskClient]
) -> None:
    """IAAPA Game Challenge Time Limitations: "A game challenge will automatically expire
    after a period of 14 days." """
    assert issue(players[ROMMEL]).status_code == 303
    page = players[MONTY].get("/challenges/1").get_data(as_text=True)
    clock.advance(days=14)
    data = posted_form(page, "/challenges/1/accept")
    late = players[MONTY].post(
        "/challenges/1/accept",
        data={**data, "accept-bid_total": "18", "accept-bid_details": MONTY_BID},
    )
    assert late.status_code == 409
    assert any(
        "expired" in a and "issue a new one" in a for a in alerts(late.get_data(as_text=True))
    )
    assert count(ctx, Game) == 0
    board = text(players[ROMMEL].get("/challenges/open").get_data(as_text=True))
    assert "Opponent: Montgomery" not in board and "No challenge is open" in board


@pytest.mark.parametrize(
    ("fields", "field", "status", "message"),
    [
        ({"opponent": ROMMEL}, "opponent", 400, "you cannot challenge yourself"),
        ({"opponent": "nobody@example.org"}, "opponent", 404, "no member with the address"),
        ({"mentor": MONTY}, "mentor", 400, "a player cannot mentor his own game"),
        ({"bid_total": "lots"}, "bid_total", 400, "Not a valid integer value"),
        ({"bid_total": "5000"}, "bid_total", 400, "must be a whole number of IPCs"),
        ({"method": "gm"}, "method", 400, "Not a valid choice"),
    ],
)
def test_a_refused_challenge_is_shown_beside_its_field(
    ctx: ServiceContext,
    players: dict[str, FlaskClient],
    fields: dict[str, str],
    field: str,
    status: int,
    message: str,
) -> None:
    refused = issue(players[ROMMEL], **fields)
    assert refused.status_code == status
    html = refused.get_data(as_text=True)
    found = re.findall(rf'id="{field}-error" role="alert">([^<]+)<', html)
    assert any(message in a for a in found), alerts(html)
    assert count(ctx, Challenge) == 0 and count(ctx, OutboxMessage) == 0


def test_a_bid_with_an_unknown_unit_is_refused_with_its_findings(
    ctx: ServiceContext, players: dict[str, FlaskClient]
) -> None:
    refused = issue(players[ROMMEL], bid_total="6", bid_details="2 G ZEPPELIN Libya")
    assert refused.status_code == 400
    html = refused.get_data(as_text=True)
    assert "the bid cannot stand and nothing was recorded" in " ".join(alerts(html))
    shown = text(html)
    assert "error: In '2 G ZEPPELIN Libya': 'ZEPPELIN' is not a Classic unit" in shown
    assert "warning: The details are worth 0 IPCs" in shown  # every finding, with its rule
    assert "2 G ZEPPELIN Libya" in html  # the form keeps what was written
    assert count(ctx, Challenge) == 0 and count(ctx, OutboxMessage) == 0

    assert issue(players[ROMMEL]).status_code == 303
    bad = answer(players[MONTY], 1, "accept", bid_total="6", bid_details="2 G ZEPPELIN Libya")
    assert bad.status_code == 400
    assert "'ZEPPELIN' is not a Classic unit" in text(bad.get_data(as_text=True))
    assert count(ctx, Game) == 0
    assert "Status: open" in text(players[MONTY].get("/challenges/1").get_data(as_text=True))


def test_the_forms_carry_a_csrf_token_and_a_nonce(
    ctx: ServiceContext, players: dict[str, FlaskClient]
) -> None:
    rommel = players[ROMMEL]
    page = rommel.get("/challenges/new").get_data(as_text=True)
    fields = posted_form(page, "/challenges/new")
    assert fields["csrf_token"] and fields["nonce"]
    data = {"opponent": MONTY, "method": "pbem", "bid_total": "15", "bid_details": ROMMEL_BID}
    without = rommel.post("/challenges/new", data={**data, "nonce": fields["nonce"]})
    assert without.status_code == 400 and "The form has expired" in text(
        without.get_data(as_text=True)
    )
    forged = rommel.post(
        "/challenges/new", data={**data, **fields, "nonce": "forged.0123456789abcdef"}
    )
    assert forged.status_code == 400
    assert any("reload the page" in a for a in alerts(forged.get_data(as_text=True)))
    # Another member's form is not Rommel's.
    other = posted_form(
        players[MONTY].get("/challenges/new").get_data(as_text=True), "/challenges/new"
    )
    assert (
        rommel.post("/challenges/new", data={**data, **fields, "nonce": other["nonce"]}).status_code
        == 400
    )
    assert count(ctx, Challenge) == 0


def test_only_its_players_read_a_challenge(players: dict[str, FlaskClient]) -> None:
    assert issue(players[ROMMEL]).status_code == 303
    assert players[PATTON].get("/challenges/1").status_code == 403
    assert players[ROMMEL].get("/challenges/9").status_code == 404
    assert "Challenge 1" not in players[PATTON].get("/challenges").get_data(as_text=True)


def test_member_text_is_escaped(players: dict[str, FlaskClient]) -> None:
    issued = issue(players[ROMMEL], variant="<b>Zeppelins</b>", message="<script>x</script>")
    assert issued.status_code == 303
    page = players[MONTY].get("/challenges/1").get_data(as_text=True)
    assert "&lt;script&gt;" in page and "<script>" not in page
    register = players[MONTY].get("/variants").get_data(as_text=True)
    assert "&lt;b&gt;Zeppelins&lt;/b&gt;" in register


def test_a_double_click_on_issue_issues_one_challenge(
    ctx: ServiceContext, players: dict[str, FlaskClient]
) -> None:
    rommel = players[ROMMEL]
    page = rommel.get("/challenges/new").get_data(as_text=True)
    data = {
        **posted_form(page, "/challenges/new"),
        "opponent": MONTY,
        "method": "pbem",
        "bid_total": "15",
        "bid_details": ROMMEL_BID,
    }
    first, second = (
        rommel.post("/challenges/new", data=data),
        rommel.post("/challenges/new", data=data),
    )
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    assert count(ctx, Challenge) == 1
