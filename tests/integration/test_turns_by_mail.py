"""Turns by email (issue 15): every message goes through one function
(:func:`dice_server.services.inbox.receive`), is spooled once per Message-ID, counts only
from a player's own address to his personal game address, is recorded by the same service
functions as the API, and is answered (or, for bounces and auto-replies, never)."""

from __future__ import annotations

import base64
import json
import mailbox
import smtplib
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from flask import Flask
from sqlalchemy import select

from dice_server.cli import main
from dice_server.mail.delivery import deliver_due
from dice_server.models import GameAddress, InboundMessage, LedgerEntry, OutboxMessage
from dice_server.services import InboundPolicy, ServiceContext, inbox, inbox_rules
from dice_server.services.game_addresses import address_of
from dice_server.services.games import end_game
from dice_server.smtpd import controller
from tests.conftest import League, logged_in
from tests.integration.test_mail import Relay, courier_for, relay, smtp_config

__all__ = ["relay"]  # the fixture, shared with the outbox's tests

TURNS = Path(__file__).resolve().parents[1] / "data" / "turns"
USSR_PRE = (TURNS / "02-ussr-r1-precombat.txt").read_text()


def message(
    sender: str,
    to: str,
    body: str,
    *,
    subject: str = "USSR 1 pre-combat",
    message_id: str | None = "<turn-1@players.example>",
    **headers: str,
) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    if message_id is not None:
        msg["Message-ID"] = message_id
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(body)
    return msg.as_bytes()


def address(ctx: ServiceContext, league: League, who: str) -> str:
    return address_of(ctx, league.game, f"{who}@example.org")


def entries(ctx: ServiceContext, game: int) -> list[dict[str, Any]]:
    with ctx.sessions() as session:
        rows = session.execute(
            select(LedgerEntry.body)
            .where(LedgerEntry.game_number == game)
            .order_by(LedgerEntry.seq)
        ).scalars()
        return [json.loads(body) for body in rows]


def queued(ctx: ServiceContext) -> list[EmailMessage]:
    """The answers queued (mail with stored bytes), oldest first."""
    with ctx.sessions() as session:
        rows = session.execute(
            select(OutboxMessage.raw)
            .where(OutboxMessage.raw.is_not(None))
            .order_by(OutboxMessage.id)
        ).scalars()
        parsed = [message_from_bytes(raw, policy=policy.default) for raw in rows]
    return [m for m in parsed if isinstance(m, EmailMessage)]


def text_of(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    assert part is not None
    return str(part.get_content())  # type: ignore[attr-defined]


def test_a_players_turn_by_mail_is_recorded_and_answered(ctx: ServiceContext, league: League):
    to = address(ctx, league, "allies")
    raw = message("Allies <allies@example.org>", to, USSR_PRE, subject="[Game 1] USSR 1 pre")
    got = inbox.receive(ctx, raw, channel="ingest")
    assert (got.status, got.game, got.seq) == ("recorded", league.game, 2)
    entry = entries(ctx, league.game)[-1]
    assert entry["kind"] == "submission"
    assert entry["data"]["text"] == USSR_PRE
    assert (entry["data"]["power"], entry["data"]["phase"]) == ("USSR", "pre-combat")
    assert entry["data"]["by"] == "allies@example.org"
    [receipt] = queued(ctx)
    assert receipt["To"] == "allies@example.org"
    assert receipt["In-Reply-To"] == "<turn-1@players.example>"
    assert receipt["References"] == "<turn-1@players.example>"
    assert receipt["Subject"] == "Re: [Game 1] USSR 1 pre"
    assert receipt["Auto-Submitted"] == "auto-replied"
    assert receipt["Reply-To"] == to
    body = text_of(receipt)
    assert f"ledger entry #{got.seq} (submission)" in body
    with ctx.sessions() as session:
        sig = session.execute(
            select(LedgerEntry.sig).where(
                LedgerEntry.game_number == league.game, LedgerEntry.seq == got.seq
            )
        ).scalar_one()
    assert sig in body
    # the opponent and the mentor get the submission like any entry
    with ctx.sessions() as session:
        announced = session.execute(
            select(OutboxMessage).where(OutboxMessage.entry_seq == got.seq)
        ).scalar_one()
    assert json.loads(announced.to_addrs) == ["axis@example.org", "allies@example.org"]
    assert json.loads(announced.cc_addrs) == ["mentor@example.org"]


def test_the_address_holds_a_secret_the_database_does_not(ctx: ServiceContext, league: League):
    to = address(ctx, league, "allies")
    local, _, domain = to.partition("@")
    assert domain == ctx.mail_domain == "pbem.localhost"
    prefix, _, secret = local.partition(".")
    assert prefix == f"game-{league.game}" and len(secret) >= 16
    assert address(ctx, league, "allies") == to  # the same address every time
    assert address(ctx, league, "axis") != to
    with ctx.sessions() as session:
        rows = list(session.execute(select(GameAddress)).scalars())
    assert len(rows) == 2
    assert all(secret not in (row.nonce, row.secret_hash) for row in rows)


def test_a_redelivery_is_acknowledged_and_ignored(ctx: ServiceContext, league: League):
    raw = message("allies@example.org", address(ctx, league, "allies"), USSR_PRE)
    first = inbox.receive(ctx, raw, channel="smtp")
    again = inbox.receive(ctx, raw, channel="ingest")
    assert again.duplicate and again.id == first.id and again.seq == first.seq
    assert len(entries(ctx, league.game)) == 2
    assert len(queued(ctx)) == 1


def test_a_crash_while_recording_leaves_the_message_to_finish_once(
    ctx: ServiceContext, league: League, monkeypatch: pytest.MonkeyPatch
):
    """The entry, the message marked recorded and its receipt are one transaction: a crash
    in it writes none of them, and the spooled message is processed again, once."""
    raw = message("allies@example.org", address(ctx, league, "allies"), USSR_PRE)
    spooled = inbox.spool(ctx, raw, channel="smtp")
    assert spooled.status == "spooled"

    def crash(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("the process died")

    monkeypatch.setattr(inbox_rules, "enqueue", crash)
    assert inbox.process_pending(ctx) == []  # the crash is logged, not raised
    assert len(entries(ctx, league.game)) == 1  # nothing recorded ...
    with ctx.sessions() as session:
        assert session.get(InboundMessage, spooled.id).status == "spooled"  # ... still spooled
    monkeypatch.undo()
    [done] = inbox.process_pending(ctx)
    assert (done.status, done.seq) == ("recorded", 2)
    assert inbox.process_pending(ctx) == []
    assert len(entries(ctx, league.game)) == 2  # recorded once
    assert len(queued(ctx)) == 1


def test_a_message_that_keeps_failing_is_set_aside(
    ctx: ServiceContext, league: League, monkeypatch: pytest.MonkeyPatch
):
    raw = message("allies@example.org", address(ctx, league, "allies"), USSR_PRE)
    spooled = inbox.spool(ctx, raw, channel="smtp")

    def crash(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(inbox, "decide", crash)
    for _ in range(inbox.MAX_ATTEMPTS):  # the spool's own attempt was the first
        assert inbox.process_pending(ctx) == []  # logged; the others would go on
    [aside] = inbox.quarantine(ctx)
    assert aside.id == spooled.id and "processing failed 5 times" in (aside.reason or "")
    assert len(entries(ctx, league.game)) == 1


@pytest.mark.parametrize(
    ("sender", "to", "reason"),
    [
        ("allies@example.org", "game-{game}@pbem.localhost", "bare address"),
        ("axis@example.org", "{allies}", "is not the player"),
        ("stranger@example.org", "{allies}", "is not the player"),
        ("allies@example.org", "game-{game}.abcdefghijklmnop@pbem.localhost", "no player's"),
        ("allies@example.org", "game-999.abcdefghijklmnop@pbem.localhost", "no game 999"),
        ("allies@example.org", "someone@elsewhere.example", "not sent to a game address"),
    ],
)
def test_anything_but_a_player_to_his_own_address_is_quarantined(
    ctx: ServiceContext, league: League, sender: str, to: str, reason: str
):
    target = to.format(game=league.game, allies=address(ctx, league, "allies"))
    got = inbox.receive(ctx, message(sender, target, USSR_PRE), channel="ingest")
    assert got.status == "quarantined" and reason in (got.reason or "")
    assert got.seq is None
    assert len(entries(ctx, league.game)) == 1  # nothing under anyone's name
    listed = inbox.quarantine(ctx)
    assert [row.id for row in listed] == [got.id]
    assert address(ctx, league, "allies").split("@")[0].split(".")[1] not in (got.reason or "")
    answers = queued(ctx)
    neutral = [m for m in answers if m["To"] == sender]
    assert len(neutral) == 1 and "nothing was recorded" in text_of(neutral[0])
    assert "allies" not in text_of(neutral[0]).lower()


def test_the_player_is_told_when_another_sender_used_his_address(
    ctx: ServiceContext, league: League
):
    raw = message("axis@example.org", address(ctx, league, "allies"), USSR_PRE)
    inbox.receive(ctx, raw, channel="smtp")
    told = [m for m in queued(ctx) if m["To"] == "allies@example.org"]
    assert len(told) == 1
    assert "axis@example.org" in text_of(told[0])


def test_a_sender_gets_one_neutral_answer_at_most(ctx: ServiceContext, league: League):
    bare = f"game-{league.game}@pbem.localhost"
    for n in range(3):
        raw = message("allies@example.org", bare, USSR_PRE, message_id=f"<bare-{n}@x>")
        assert inbox.receive(ctx, raw, channel="ingest").status == "quarantined"
    assert len(queued(ctx)) == 1
    assert len(inbox.quarantine(ctx)) == 3


@pytest.mark.parametrize(
    ("headers", "envelope_from"),
    [
        ({"Auto_Submitted": "auto-replied"}, None),
        ({"Precedence": "bulk"}, None),
        ({}, ""),
    ],
)
def test_bounces_and_auto_replies_are_never_answered(
    ctx: ServiceContext, league: League, headers: dict[str, str], envelope_from: str | None
):
    raw = message("allies@example.org", address(ctx, league, "allies"), "Out of office", **headers)
    got = inbox.receive(ctx, raw, channel="smtp", envelope_from=envelope_from)
    assert got.status == "ignored" and "never answered" in (got.reason or "")
    assert queued(ctx) == [] and len(entries(ctx, league.game)) == 1


def test_mail_from_the_service_itself_is_never_answered(ctx: ServiceContext, league: League):
    raw = message("dice@pbem.localhost", address(ctx, league, "allies"), USSR_PRE)
    assert inbox.receive(ctx, raw, channel="smtp").status == "ignored"
    assert queued(ctx) == []


@pytest.mark.parametrize(
    ("subject", "body", "topic"),
    [
        ("Special orders", "OOL for battle #1: INF, ARM, FTR\n", "special-orders"),
        ("Retreat", "Retreat from Karelia to Russia\n", "retreat"),
        (
            "Re: USSR 1",
            "Error recognition: battle #2 listed 1 FTR too many.\n",
            "error-recognition",
        ),
        ("Hello", "Sorry for the delay, turn tomorrow.\n", "general"),
    ],
)
def test_other_messages_are_notes_of_their_topic(
    ctx: ServiceContext, league: League, subject: str, body: str, topic: str
):
    raw = message("axis@example.org", address(ctx, league, "axis"), body, subject=subject)
    got = inbox.receive(ctx, raw, channel="ingest")
    assert got.status == "recorded", got.reason
    entry = entries(ctx, league.game)[-1]
    assert (entry["kind"], entry["data"]["topic"]) == ("note", topic)
    assert entry["data"]["text"].strip() == body.strip()


def test_a_forfeit_request_by_mail_is_read_as_one_and_held_to_the_5_days(
    ctx: ServiceContext, league: League
):
    raw = message(
        "axis@example.org",
        address(ctx, league, "axis"),
        "Three weeks without a turn.\n",
        subject="Forfeit request, game 1",
    )
    got = inbox.receive(ctx, raw, channel="ingest")
    assert got.status == "refused" and "within 5 days" in (got.reason or "")
    [answer] = queued(ctx)
    assert "within 5 days" in text_of(answer)
    later = replace(ctx, clock=lambda: ctx.clock() + timedelta(days=6))
    again = message(
        "axis@example.org",
        address(ctx, league, "axis"),
        "Three weeks without a turn.\n",
        subject="Forfeit request, game 1",
        message_id="<forfeit-2@players.example>",
    )
    assert inbox.receive(later, again, channel="ingest").status == "recorded"
    entry = entries(ctx, league.game)[-1]
    assert (entry["kind"], entry["data"]["topic"]) == ("note", "forfeit-request")


def test_a_turn_the_service_refuses_is_answered_with_the_reason(
    ctx: ServiceContext, league: League
):
    germany = "Germany 1 pre-combat\npurchases: 2 inf ($6)\n"
    raw = message("axis@example.org", address(ctx, league, "axis"), germany)
    got = inbox.receive(ctx, raw, channel="ingest")
    assert got.status == "refused" and "it is USSR's turn" in (got.reason or "")
    assert len(entries(ctx, league.game)) == 1
    [answer] = queued(ctx)
    assert "not recorded" in text_of(answer) and "it is USSR's turn" in text_of(answer)


def test_a_finished_game_takes_no_turn(ctx: ServiceContext, league: League):
    to = address(ctx, league, "allies")
    end_game(ctx, league.game, status="finished", winner="axis")
    got = inbox.receive(ctx, message("allies@example.org", to, USSR_PRE), channel="ingest")
    assert got.status == "refused" and "finished" in (got.reason or "")


def test_an_oversize_message_is_kept_aside_with_its_head(ctx: ServiceContext, league: League):
    raw = message("allies@example.org", address(ctx, league, "allies"), "x" * 5000)
    got = inbox.receive(ctx, raw, channel="ingest", max_bytes=1000)
    assert got.status == "quarantined" and "over the limit" in (got.reason or "")
    with ctx.sessions() as session:
        row = session.get(InboundMessage, got.id)
        assert row is not None and row.size == len(raw) and len(row.raw) < len(raw)


# --- over SMTP, end to end ------------------------------------------------------------------


@pytest.fixture
def smtpd(ctx: ServiceContext, reserve_port: Callable[[], int]) -> Iterator[int]:
    """``pbem smtpd``'s receiver on a reserved loopback port, serving the test's database."""
    port = reserve_port()
    server = controller(ctx, "127.0.0.1", port, 200_000, reuse_port=True)
    server.start()
    yield port
    server.stop()


def test_a_turn_over_smtp_is_answered_through_the_players_mail_server(
    app: Flask, ctx: ServiceContext, league: League, smtpd: int, relay: tuple[Relay, int]
):
    handler, relay_port = relay
    to = address(ctx, league, "allies")
    raw = message("allies@example.org", to, USSR_PRE, subject="[Game 1] USSR 1 pre-combat")
    with smtplib.SMTP("127.0.0.1", smtpd, timeout=10) as smtp:
        refused = smtp.sendmail("allies@example.org", [to], raw)
    assert refused == {}
    assert len(entries(ctx, league.game)) == 2  # recorded before the 250
    report = deliver_due(courier_for(app, **smtp_config(relay_port)))
    assert not report.failed
    by_subject = {str(msg["Subject"]): (rcpts, msg) for _, rcpts, msg in handler.received}
    rcpts, receipt = by_subject["Re: [Game 1] USSR 1 pre-combat"]
    assert rcpts == ["allies@example.org"]
    assert receipt["In-Reply-To"] == "<turn-1@players.example>"
    assert "ledger entry #2 (submission)" in text_of(receipt)
    # the entry itself reaches each player in his own copy, his address as its Reply-To
    copies = [(r, m) for _, r, m in handler.received if m["Subject"].startswith("[Game 1] #2")]
    reply_to = {tuple(r): str(m["Reply-To"]) for r, m in copies}
    assert reply_to[("allies@example.org",)] == to
    assert reply_to[("axis@example.org",)] == address(ctx, league, "axis")
    assert reply_to[("mentor@example.org",)] == "None"
    ids = {str(m["Message-ID"]) for _, m in copies}
    assert len(ids) == 1


def test_the_receiver_refuses_other_domains_and_oversize_mail(
    ctx: ServiceContext, league: League, smtpd: int
):
    with smtplib.SMTP("127.0.0.1", smtpd, timeout=10) as smtp:
        with pytest.raises(smtplib.SMTPRecipientsRefused):
            smtp.sendmail(
                "allies@example.org", ["someone@elsewhere.example"], b"Subject: x\r\n\r\nx"
            )
    big = message("allies@example.org", address(ctx, league, "allies"), "x" * 300_000)
    with smtplib.SMTP("127.0.0.1", smtpd, timeout=10) as smtp:
        with pytest.raises(smtplib.SMTPException) as refused:
            smtp.sendmail("allies@example.org", [address(ctx, league, "allies")], big)
    assert "552" in str(refused.value) or "size" in str(refused.value).lower()
    with ctx.sessions() as session:
        assert session.execute(select(InboundMessage.id)).first() is None


def test_mail_ingest_reads_a_maildir_and_a_pipe(
    app: Flask, ctx: ServiceContext, league: League, tmp_path: Path
):
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    box.add(message("allies@example.org", address(ctx, league, "allies"), USSR_PRE))
    box.add(message("x@elsewhere.example", "nobody@pbem.localhost", "hi", message_id="<q@x>"))
    env = {
        "PBEM_INSTANCE_PATH": str(app.instance_path),
        "PBEM_DATABASE_URL": str(app.config["DATABASE_URL"]),
    }
    runner = CliRunner(env=env)

    def pbem(*args: str, input: bytes | None = None) -> Result:
        return runner.invoke(main, list(args), input=input, catch_exceptions=False)

    result = pbem("mail", "ingest", str(tmp_path / "Maildir"))
    assert result.exit_code == 0, result.output
    lines = sorted(result.stdout.splitlines(), key=lambda line: line.split("\t")[1])
    assert [line.split("\t")[1] for line in lines] == ["quarantined", "recorded"]
    assert "\t#2\t" in lines[1]
    first = next(k for k in box.keys() if b"USSR 1" in box.get_bytes(k))
    again = pbem("mail", "ingest", "-", input=box.get_bytes(first))
    assert "(already received)" in again.stdout
    quarantined = pbem("mail", "quarantine")
    assert "not sent to a game address" in quarantined.stdout
    shown = pbem("game", "address", str(league.game), "allies@example.org")
    assert shown.stdout.strip() == address(ctx, league, "allies")
    stranger = pbem("game", "address", str(league.game), "stranger@example.org")
    assert stranger.exit_code == 1 and "does not play in game" in stranger.stderr
    missing = pbem("mail", "ingest", str(tmp_path / "nothing-here"))
    assert missing.exit_code == 2 and "cannot read" in missing.stderr


def test_the_game_mail_page_lists_what_was_received_and_sent(
    app: Flask, ctx: ServiceContext, league: League
):
    inbox.receive(
        ctx,
        message("allies@example.org", address(ctx, league, "allies"), USSR_PRE),
        channel="smtp",
    )
    player = logged_in(app, ctx, "allies@example.org")
    page = player.get(f"/games/{league.game}/mail")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert address(ctx, league, "allies") in html
    assert address(ctx, league, "axis") not in html  # nobody sees another player's address
    assert "entry #2" in html and "recorded" in html
    mentor = logged_in(app, ctx, "mentor@example.org").get(f"/games/{league.game}/mail")
    assert mentor.status_code == 200
    assert address(ctx, league, "allies") not in mentor.get_data(as_text=True)
    stranger = logged_in(app, ctx, "stranger@example.org").get(f"/games/{league.game}/mail")
    assert stranger.status_code == 403


# --- DKIM, against a key published to a stub resolver ---------------------------------------


@pytest.fixture
def dkim_key() -> tuple[bytes, Callable[..., bytes | None]]:
    """An RSA signing key for example.org, and a resolver that publishes its public half
    at ``pbem._domainkey.example.org`` (no real DNS here)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption(),
    )
    public = key.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    record = b"v=DKIM1; k=rsa; p=" + base64.b64encode(public)

    def txt(name: bytes, timeout: float = 5) -> bytes | None:
        return record if name.rstrip(b".") == b"pbem._domainkey.example.org" else None

    return private, txt


def test_with_dkim_required_only_a_signature_of_the_from_domain_counts(
    ctx: ServiceContext, league: League, dkim_key: tuple[bytes, Callable[..., bytes | None]]
):
    import dkim

    private, txt = dkim_key
    strict = replace(ctx, inbound=InboundPolicy(require_dkim=True, dns=txt))
    to = address(ctx, league, "allies")

    def signed(domain: bytes, n: int) -> bytes:
        raw = message("allies@example.org", to, USSR_PRE, message_id=f"<dkim-{n}@x>")
        raw = raw.replace(b"\n", b"\r\n")
        return dkim.sign(raw, b"pbem", domain, private) + raw

    unsigned = message("allies@example.org", to, USSR_PRE, message_id="<dkim-0@x>")
    got = inbox.receive(strict, unsigned, channel="smtp")
    assert got.status == "quarantined" and "no DKIM signature" in (got.reason or "")
    other = inbox.receive(strict, signed(b"elsewhere.example", 1), channel="smtp")
    assert other.status == "quarantined" and "DKIM" in (other.reason or "")
    good = inbox.receive(strict, signed(b"example.org", 2), channel="smtp")
    assert good.status == "recorded", good.reason
    assert len(entries(ctx, league.game)) == 2


def test_the_game_page_shows_a_player_his_own_address_only(
    app: Flask, ctx: ServiceContext, league: League
):
    mine = address(ctx, league, "axis")
    page = logged_in(app, ctx, "axis@example.org").get(f"/games/{league.game}")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and mine in html
    assert address(ctx, league, "allies") not in html
    mentor = logged_in(app, ctx, "mentor@example.org").get(f"/games/{league.game}")
    seen = mentor.get_data(as_text=True)
    assert mentor.status_code == 200
    assert mine not in seen and address(ctx, league, "allies") not in seen


def test_every_mail_of_the_game_carries_the_players_address(
    app: Flask, ctx: ServiceContext, league: League, instance: Path
):
    """A key rotation's statement, too: each player's copy names his own address."""
    from dice_server.services.keys import rotate_key

    rotate_key(ctx, instance)
    report = deliver_due(courier_for(app, MAIL_TRANSPORT="maildir"))
    assert not report.failed
    maildir = mailbox.Maildir(Path(app.instance_path) / "maildir", create=False)
    copies = [
        message_from_bytes(maildir.get_bytes(k), policy=policy.default) for k in maildir.keys()
    ]
    rotation = [m for m in copies if "signing key changed" in str(m["Subject"])]
    assert sorted(str(m["Reply-To"]) for m in rotation) == sorted(
        ["None", address(ctx, league, "axis"), address(ctx, league, "allies")]
    )


def test_a_receipt_lists_the_attachments_it_did_not_read(ctx: ServiceContext, league: League):
    msg = EmailMessage()
    msg["From"] = "allies@example.org"
    msg["To"] = address(ctx, league, "allies")
    msg["Subject"] = "USSR 1 pre-combat"
    msg["Message-ID"] = "<with-map@players.example>"
    msg.set_content(USSR_PRE)
    msg.add_attachment(b"\x89PNG fake", maintype="image", subtype="png", filename="board.png")
    got = inbox.receive(ctx, msg.as_bytes(), channel="smtp")
    assert got.status == "recorded"
    [receipt] = queued(ctx)
    body = text_of(receipt)
    assert "not read as orders" in body and "board.png (image/png, 9 bytes)" in body


def test_a_subject_in_any_script_is_answered_in_kind(ctx: ServiceContext, league: League):
    subject = "USSR 1 — pré-combat, Сталинград\u202e"
    raw = message("allies@example.org", address(ctx, league, "allies"), USSR_PRE, subject=subject)
    assert inbox.receive(ctx, raw, channel="smtp").status == "recorded"
    [receipt] = queued(ctx)
    assert str(receipt["Subject"]).startswith("Re: USSR 1 — pré-combat, Сталинград")
    assert "\u202e" not in str(receipt["Subject"])  # a bidirectional control is made visible
