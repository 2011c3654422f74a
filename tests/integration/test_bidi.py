"""Issue 12, point 8: a right-to-left override in a comment reversed the text shown around
it. Wherever user text is shown (the pages, the text of every mail) each bidirectional
control is shown as a visible marker; the signed entry keeps the exact text, and still
verifies."""

from __future__ import annotations

import email
import json
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import select

from dice_server import text
from dice_server.db import reading, writing
from dice_server.mail.delivery import Courier, deliver_due
from dice_server.models import OutboxMessage
from dice_server.services import ServiceContext
from dice_server.services.entries import ApiToken
from dice_server.services.games import create_game, export_ledger
from dice_server.services.keys import published_keys
from dice_server.services.mailer import queue_mail
from dice_server.services.notes import send_note
from dice_server.services.rolls import roll_battle
from dice_server.verifier import load_keys, verify_ledger, verify_signature
from tests.conftest import League, battle, logged_in

RLO, LRI, PDI = "\u202e", "\u2066", "\u2069"
NOTE = f"I take 3 {RLO}stih 2, not more"
COMMENT = f"Attack {LRI}x{PDI} {RLO}evila"
VARIANT = f"Classic {RLO}hceT oN"
AGREEMENT = f"\u200fno bid{RLO} at all"


def raw_controls(shown: str) -> list[str]:
    return [f"U+{ord(ch):04X}" for ch in text.BIDI_CONTROLS if ch in shown]


@pytest.fixture
def bidi_game(app: Flask, league: League) -> tuple[int, int, int]:
    """A game whose variant, agreement, note and roll comment hold bidi controls: its
    number, the note's seq and the roll's seq."""
    text.init_app(app)  # what create_app does once dice_server/__init__.py calls it
    ctx = league.ctx
    game = create_game(
        ctx,
        axis="axis@example.org",
        allies="allies@example.org",
        variant=VARIANT,
        agreements=(AGREEMENT,),
    ).game_number
    axis = ApiToken(league.tokens["axis"])
    note = send_note(ctx, axis, game, {"topic": "general", "text": NOTE})
    roll = roll_battle(ctx, axis, game, battle(comment=COMMENT))
    return game, note.seq, roll.seq


def test_the_game_and_entry_pages_show_markers_not_controls(
    app: Flask, league: League, bidi_game: tuple[int, int, int]
) -> None:
    game, note, roll = bidi_game
    client = logged_in(app, league.ctx, "axis@example.org")
    page = client.get(f"/games/{game}").get_data(as_text=True)
    assert raw_controls(page) == []
    assert "I take 3 [U+202E]stih 2, not more" in page
    assert "Attack [U+2066]x[U+2069] [U+202E]evila" in page
    assert "Variant: Classic [U+202E]hceT oN" in page
    assert "[U+200F]no bid[U+202E] at all" in page
    for seq, words in ((note, "[U+202E]stih 2"), (roll, "[U+2066]x[U+2069]")):
        entry = client.get(f"/games/{game}/entries/{seq}").get_data(as_text=True)
        assert raw_controls(entry) == [] and words in entry
    # The signed entry on its page is JSON with the controls escaped: the same JSON value.
    entry = client.get(f"/games/{game}/entries/{note}").get_data(as_text=True)
    assert "I take 3 \\u202estih 2" in entry
    # The forms still render (a widget's Markup goes through the same finalize).
    assert 'name="csrf_token"' in client.get(f"/games/{game}/note").get_data(as_text=True)


def test_the_signed_entry_keeps_the_exact_text_and_verifies(
    app: Flask, league: League, bidi_game: tuple[int, int, int]
) -> None:
    game, note, roll = bidi_game
    client = logged_in(app, league.ctx, "allies@example.org")
    download = client.get(f"/games/{game}/entries/{note}.json").get_data(as_text=True)
    assert RLO in download  # the download is the entry, not what the page shows
    assert json.loads(json.loads(download)["body"])["data"]["text"] == NOTE
    ledger = export_ledger(league.ctx, game, None)
    bodies = [json.loads(e["body"])["data"] for e in ledger["entries"]]
    assert bodies[0]["variant"] == VARIANT and bodies[0]["agreements"] == [AGREEMENT]
    assert bodies[note - 1]["text"] == NOTE and bodies[roll - 1]["comment"] == COMMENT
    assert verify_ledger(ledger, published_keys(league.ctx)).ok


def test_the_mail_text_shows_markers_and_the_attachment_keeps_the_entry(
    app: Flask, league: League, bidi_game: tuple[int, int, int]
) -> None:
    game = bidi_game[0]
    courier = Courier.from_config(league.ctx, {**app.config}, Path(app.instance_path))
    assert not deliver_due(courier).failed
    maildir = Path(app.instance_path) / "maildir" / "new"
    messages = []
    for path in maildir.iterdir():
        msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        assert isinstance(msg, EmailMessage)
        messages.append(msg)
    keys = load_keys(published_keys(league.ctx))
    seen = set()
    for msg in messages:
        if not str(msg["Subject"]).startswith(f"[Game {game}]"):
            continue
        body = msg.get_body(preferencelist=("plain",))
        assert body is not None
        readable = str(msg["Subject"]) + body.get_content()
        assert raw_controls(readable) == []
        # The entry; the game's first message also carries the keys (keys.json).
        (attachment,) = [
            part for part in msg.iter_attachments() if str(part.get_filename()).startswith("entry-")
        ]
        assert isinstance(attachment, EmailMessage)
        signed = json.loads(attachment.get_content())
        data = json.loads(signed["body"])["data"]
        verify_signature(keys, signed["body"].encode("utf-8"), signed["sig"], signed["key"])
        if data.get("text") == NOTE:
            assert "I take 3 [U+202E]stih 2, not more" in readable
            seen.add("note")
        if data.get("comment") == COMMENT:
            assert "Comment: Attack [U+2066]x[U+2069] [U+202E]evila" in readable
            seen.add("roll")
        if data.get("variant") == VARIANT:
            assert "Variant: Classic [U+202E]hceT oN" in readable
            seen.add("genesis")
    assert seen == {"note", "roll", "genesis"}


def test_other_mail_shows_markers_too(ctx: ServiceContext) -> None:
    """Mail that is not an entry (a link, a welcome naming the member) goes through
    queue_mail, which shows the controls as markers as well."""
    with writing(ctx.sessions) as session:
        queue_mail(
            session, ctx, ctx.clock(), "a@example.org", f"Hello {RLO}evE", f"Dear {RLO}evE,\n"
        )
    with reading(ctx.sessions) as session:
        raw = session.execute(select(OutboxMessage.raw)).scalar_one()
    assert raw is not None
    msg = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    body = msg.get_body(preferencelist=("plain",))
    assert body is not None
    assert str(msg["Subject"]) == "Hello [U+202E]evE"
    assert body.get_content() == "Dear [U+202E]evE,\n"
