"""Mail through the outbox: a real SMTP conversation with an aiosmtpd relay on a free
loopback port, the claim that keeps two schedulers from sending twice, and failures that
are kept and reported without touching the entry."""

from __future__ import annotations

import email
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import timedelta
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from sqlalchemy import select

from dice_server.cli import main
from dice_server.db import reading
from dice_server.mail.delivery import Courier, deliver_due
from dice_server.models import LedgerEntry, OutboxMessage
from dice_server.services import ServiceContext
from dice_server.services.game_addresses import address_of
from dice_server.services.notes import send_note
from dice_server.services.outbox import claim
from dice_server.services.rolls import roll_battle
from dice_server.smtpd import ReusePortController
from tests.conftest import League, battle

ROOT = Path(__file__).resolve().parents[2]


class RelayController(ReusePortController):
    """The receiver's controller (dice_server.smtpd), always binding with SO_REUSEPORT so
    that it can listen on a port the ``reserve_port`` fixture holds."""

    def __init__(self, handler: Any, **kwargs: Any) -> None:
        super().__init__(handler, reuse_port=True, **kwargs)


class Relay:
    """An SMTP relay that records what it accepts and can be told to refuse."""

    def __init__(self) -> None:
        self.received: list[tuple[str, list[str], EmailMessage]] = []
        self.fail_next = 0
        self.refuse: set[str] = set()
        self.lock = threading.Lock()

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: Any
    ) -> str:
        if address in self.refuse:
            return "550 5.1.1 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.lock:
            if self.fail_next:
                self.fail_next -= 1
                return "451 4.3.0 try again later"
            msg = email.message_from_bytes(envelope.content, policy=policy.default)
            assert isinstance(msg, EmailMessage)
            self.received.append((envelope.mail_from, list(envelope.rcpt_tos), msg))
        return "250 2.0.0 accepted"

    def ids(self) -> list[str]:
        return [str(msg["Message-ID"]) for _, _, msg in self.received]

    def deliveries(self) -> set[tuple[str, str]]:
        """(Message-ID, recipient) of every copy received."""
        return {(str(msg["Message-ID"]), to) for _, rcpts, msg in self.received for to in rcpts}


@pytest.fixture
def relay(reserve_port: Callable[[], int]) -> Iterator[tuple[Relay, int]]:
    handler = Relay()
    port = reserve_port()
    controller = RelayController(handler, hostname="127.0.0.1", port=port, data_size_limit=200_000)
    controller.start()
    yield handler, port
    controller.stop()


def smtp_config(port: int) -> dict[str, Any]:
    return {
        "MAIL_TRANSPORT": "smtp",
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": port,
        "SMTP_TIMEOUT_SECONDS": 5,
        "OUTBOX_BACKOFF_SECONDS": 0,
        "MAIL_FROM": "IAAPA dice <dice@league.example>",
        "BASE_URL": "https://dice.league.example",
    }


def courier_for(app: Flask, **overrides: Any) -> Courier:
    config = {**app.config, **overrides}
    return Courier.from_config(app.extensions["pbem"], config, Path(app.instance_path))


EVERYONE = ("axis@example.org", "allies@example.org", "mentor@example.org")
"""The league fixture's game: its players and its mentor, each sent every message."""


def rows(ctx: ServiceContext) -> list[OutboxMessage]:
    with reading(ctx.sessions) as session:
        return list(session.execute(select(OutboxMessage).order_by(OutboxMessage.id)).scalars())


def test_every_entry_queues_exactly_one_message(league: League) -> None:
    ctx = league.ctx
    roll_battle(ctx, 1, league.game, battle())
    send_note(ctx, 2, league.game, {"topic": "special-orders", "text": "OOL: INF, FTR"})
    with reading(ctx.sessions) as session:
        entries = session.execute(select(LedgerEntry.seq)).scalars().all()
    queued = rows(ctx)
    assert sorted(r.entry_seq for r in queued if r.entry_seq) == sorted(entries) == [1, 2, 3]
    assert len({r.message_id for r in queued}) == 3
    assert all(json.loads(r.to_addrs) == ["axis@example.org", "allies@example.org"] for r in queued)
    assert all(json.loads(r.cc_addrs) == ["mentor@example.org"] for r in queued)


def test_a_refused_roll_queues_nothing(league: League) -> None:
    from dice_server.errors import InvalidRequest

    with pytest.raises(InvalidRequest):
        roll_battle(league.ctx, 1, league.game, battle(round=0))
    assert len(rows(league.ctx)) == 1  # the genesis only


def test_delivery_over_a_real_smtp_conversation(
    app: Flask, league: League, relay: tuple[Relay, int]
) -> None:
    handler, port = relay
    entry = roll_battle(league.ctx, 1, league.game, battle())
    report = deliver_due(courier_for(app, **smtp_config(port)))
    assert len(report.sent) == 2 and not report.failed
    # Each player gets a copy of his own (its Reply-To is his personal game address), the
    # mentor one without it: three transactions a message, one Message-ID.
    queued = rows(league.ctx)
    copies = {
        row.message_id: [
            (s, r, m) for s, r, m in handler.received if m["Message-ID"] == row.message_id
        ]
        for row in queued
    }
    assert [len(c) for c in copies.values()] == [3, 3]
    genesis_msg, roll_msg = (c[-1][2] for c in copies.values())
    roll_copies = copies[queued[1].message_id]
    assert {s for s, _, _ in roll_copies} == {"dice@league.example"}
    assert sorted(r for _, rcpts, _ in roll_copies for r in rcpts) == [
        "allies@example.org",
        "axis@example.org",
        "mentor@example.org",
    ]
    assert {str(m["Reply-To"]) for _, r, m in roll_copies if r != ["mentor@example.org"]} == {
        address_of(league.ctx, league.game, "axis@example.org"),
        address_of(league.ctx, league.game, "allies@example.org"),
    }
    assert roll_msg["Reply-To"] is None  # the mentor's copy names no player's address
    assert roll_msg["To"] == "axis@example.org, allies@example.org"
    assert roll_msg["Cc"] == "mentor@example.org"
    assert roll_msg["Subject"] == f"[Game {league.game}] #2 UK: West Europe round 1"
    assert roll_msg["Message-ID"] == queued[1].message_id
    # Threading: every message of the game refers to the genesis message.
    assert roll_msg["References"] == genesis_msg["Message-ID"] == queued[0].message_id
    assert roll_msg["In-Reply-To"] == genesis_msg["Message-ID"]
    assert "References" not in genesis_msg
    text = roll_msg.get_body(preferencelist=("plain",)).get_content()
    assert "Dice in the order thrown:" in text and "https://dice.league.example/verify" in text
    (attachment,) = list(roll_msg.iter_attachments())
    assert attachment.get_filename() == "entry-2.json"
    signed = json.loads(attachment.get_content())
    assert signed["body"].encode("utf-8") == entry.body
    assert signed == entry.signed()
    assert all(r.status == "sent" and r.attempts == 1 for r in rows(league.ctx))


def mailed_notes(
    app: Flask, league: League, relay: tuple[Relay, int], who: int, topic: str, *texts: str
) -> list[str]:
    """The mentor's copy of each note of ``topic`` sent by member ``who``, as mailed."""
    handler, port = relay
    for text in texts:
        send_note(league.ctx, who, league.game, {"topic": topic, "text": text})
    deliver_due(courier_for(app, **smtp_config(port)))
    return [
        m.get_body(preferencelist=("plain",)).get_content()
        for _, r, m in handler.received
        if r == ["mentor@example.org"] and f"({topic})" in str(m["Subject"])
    ]


def test_special_orders_are_mailed_with_how_the_battles_read_them(
    app: Flask, league: League, relay: tuple[Relay, int]
) -> None:
    """IAAPA Orders of Loss: "If a defender does not send in any special orders of loss
    prior to the attacker rolling the battle then the Association defaults will be used." The
    battles read a special-orders note's text; its mail says how, line by line, so a
    defender whose order cannot be read learns it before the dice are rolled."""
    text = "OOL for Karelia: 2 inf, arm (IC stays)\nSea battles: SUB, TRN\nW Europe: inf, xyz\n"
    read, nothing = mailed_notes(app, league, relay, 2, "special-orders", text, "be gentle")
    assert "Read by the rules engine as (the battles apply it so):" in read
    assert "  line 1: Karelia S.S.R.: 2 INF, ARM" in read
    assert "  line 2: every sea battle: SUB, TRN" in read
    assert "  line 1: info: '(IC stays)' was read as a remark" in read
    assert "  line 3: error: 'xyz' is not a known unit" in read
    assert "reads no order of loss, sub withdrawal or retreat in it" in nothing


def test_a_retreat_note_is_mailed_with_how_it_was_read(
    app: Flask, league: League, relay: tuple[Relay, int]
) -> None:
    """IAAPA Retreats: "if you wish to retreat these units you must declare the retreat
    location before you roll the next battle." A retreat note's mail says what retreat was
    read; it is no order of loss, and the battles' defaults are not its business."""
    read, nothing = mailed_notes(
        app, league, relay, 1, "retreat", "Battle #2 Egypt: retreat to Libya", "Libya, I think"
    )
    assert (
        "Read by the rules engine as:\r\nRetreats:\r\n"
        "  line 1: battle #2 Anglo Sudan Egypt: to Libya" in read
    )
    assert "the battles apply" not in read
    assert "reads no retreat in it" in nothing


def test_minister_is_copied_on_forfeit_requests(
    app: Flask, league: League, relay: tuple[Relay, int]
) -> None:
    handler, port = relay
    later = league.ctx.clock() + timedelta(days=6)  # the Allies silent since the game began
    waited = replace(league.ctx, clock=lambda: later)
    send_note(waited, 1, league.game, {"topic": "forfeit-request", "text": "no reply"})
    deliver_due(replace(courier_for(app, **smtp_config(port)), ctx=waited))
    _, rcpts, msg = handler.received[-1]
    assert msg["Cc"] == "mentor@example.org, minister@example.org"
    assert "minister@example.org" in rcpts


def test_relay_fails_twice_then_accepts(
    app: Flask, league: League, relay: tuple[Relay, int]
) -> None:
    handler, port = relay
    handler.fail_next = 2
    courier = courier_for(app, **smtp_config(port))
    first = deliver_due(courier)
    assert "451" in first.failed[1]
    assert rows(league.ctx)[0].status == "pending" and "451" in str(rows(league.ctx)[0].last_error)
    deliver_due(courier)
    third = deliver_due(courier)
    assert third.sent == [1]
    (row,) = rows(league.ctx)
    assert (row.status, row.attempts, row.last_error) == ("sent", 3, None)
    assert handler.ids() == [row.message_id] * 3  # a copy for each player, one for the mentor


def test_a_crash_between_sending_and_marking_resends_with_the_same_message_id(
    app: Flask, league: League, relay: tuple[Relay, int]
) -> None:
    handler, port = relay
    courier = courier_for(app, **smtp_config(port))
    ctx = league.ctx
    claimed = claim(ctx, 1, ctx.clock(), timedelta(seconds=0))
    assert claimed is not None
    from dice_server.mail.delivery import render, send_rendered

    send_rendered(courier, claimed, render(claimed, courier.letterhead))
    # ... and the process dies here, before marking the message sent. The claim lapses:
    time.sleep(0.01)
    assert deliver_due(courier).sent == [1]
    assert len(handler.received) == 6  # three copies (each player's, the mentor's), twice
    first, second = handler.received[:3], handler.received[3:]
    for (_, to_first, before), (_, to_second, after) in zip(first, second, strict=True):
        assert to_first == to_second
        assert before["Message-ID"] == after["Message-ID"] == rows(ctx)[0].message_id
        assert before.as_bytes() == after.as_bytes()


def test_refused_address_is_kept_and_reported(
    app: Flask, league: League, relay: tuple[Relay, int]
) -> None:
    handler, port = relay
    handler.refuse = {"mentor@example.org"}
    report = deliver_due(courier_for(app, **smtp_config(port)))
    assert report.sent == [1]
    (row,) = rows(league.ctx)
    assert row.status == "sent" and "mentor@example.org: 550" in str(row.last_error)
    handler.refuse = {"axis@example.org", "allies@example.org", "mentor@example.org"}
    roll_battle(league.ctx, 1, league.game, battle())
    report = deliver_due(courier_for(app, **smtp_config(port)))
    assert "refused every recipient" in report.failed[2]
    assert rows(league.ctx)[1].status == "failed"  # 550 is permanent: no retry storm
    with reading(league.ctx.sessions) as session:
        assert session.execute(select(LedgerEntry.seq)).scalars().all() == [1, 2]


def test_relay_down_then_given_up_then_retried(
    app: Flask, league: League, reserve_port: Callable[[], int]
) -> None:
    dead = reserve_port()  # nothing listens there
    courier = courier_for(app, **smtp_config(dead), OUTBOX_MAX_ATTEMPTS=2)
    assert "unreachable" in deliver_due(courier).failed[1]
    assert rows(league.ctx)[0].status == "pending"
    deliver_due(courier)
    (row,) = rows(league.ctx)
    assert (row.status, row.attempts) == ("failed", 2)
    assert deliver_due(courier).failed == {}  # failed messages wait for an operator


def test_message_too_large_for_the_relay(
    app: Flask, league: League, reserve_port: Callable[[], int]
) -> None:
    send_note(league.ctx, 1, league.game, {"topic": "general", "text": "x" * 9000})
    handler_small = Relay()
    small_port = reserve_port()
    controller = RelayController(
        handler_small, hostname="127.0.0.1", port=small_port, data_size_limit=12000
    )
    controller.start()
    try:
        report = deliver_due(courier_for(app, **smtp_config(small_port)))
    finally:
        controller.stop()
    assert report.sent == [1]
    assert "552" in report.failed[2]
    assert rows(league.ctx)[1].status == "failed"


def test_operators_list_and_retry(
    app: Flask, league: League, reserve_port: Callable[[], int]
) -> None:
    courier = courier_for(app, **smtp_config(reserve_port()), OUTBOX_MAX_ATTEMPTS=1)
    deliver_due(courier)
    env = {"PBEM_INSTANCE_PATH": app.instance_path, "PBEM_DATABASE_URL": app.config["DATABASE_URL"]}
    runner = CliRunner(env=env)
    listed = runner.invoke(main, ["outbox", "list", "--failed"])
    assert listed.exit_code == 0
    assert listed.stdout.startswith("1\tfailed\t1\t<") and "unreachable" in listed.stdout
    retried = runner.invoke(main, ["outbox", "retry", "1"])
    assert retried.exit_code == 0
    assert rows(league.ctx)[0].status == "pending"
    assert runner.invoke(main, ["outbox", "retry", "99"]).exit_code == 1


def test_two_delivery_runs_at_once_send_each_message_once(
    app: Flask, league: League, relay: tuple[Relay, int]
) -> None:
    handler, port = relay
    for _ in range(15):
        roll_battle(league.ctx, 1, league.game, battle())
    courier = courier_for(app, **smtp_config(port))
    start = threading.Barrier(2)

    def run() -> None:
        start.wait()
        deliver_due(courier)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(set(handler.ids())) == sorted(r.message_id for r in rows(league.ctx))
    assert handler.deliveries() == {
        (r.message_id, who) for r in rows(league.ctx) for who in EVERYONE
    }
    assert len(handler.received) == 16 * 3  # each copy once


@pytest.mark.slow
def test_two_scheduler_processes_send_each_message_once(
    app: Flask, league: League, relay: tuple[Relay, int]
) -> None:
    """`pbem scheduler` started twice at once: the claim lets only one send each message;
    the scheduler keeps no table of its own in the database."""
    handler, port = relay
    for _ in range(10):
        roll_battle(league.ctx, 1, league.game, battle())
    env = {
        **os.environ,
        "PBEM_INSTANCE_PATH": app.instance_path,
        "PBEM_DATABASE_URL": app.config["DATABASE_URL"],
        "PBEM_MAIL_TRANSPORT": "smtp",
        "PBEM_SMTP_HOST": "127.0.0.1",
        "PBEM_SMTP_PORT": str(port),
        "PBEM_OUTBOX_INTERVAL_SECONDS": "0.3",
    }
    pbem = str(Path(sys.executable).parent / "pbem")
    procs = [
        subprocess.Popen([pbem, "scheduler"], env=env, stderr=subprocess.PIPE) for _ in range(2)
    ]
    try:
        deadline = time.monotonic() + 60
        while len(handler.received) < 11 * 3 and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(1.0)  # let both run a few more times
    finally:
        for proc in procs:
            proc.terminate()
        outputs = [proc.communicate(timeout=30)[1].decode() for proc in procs]
    assert all(proc.returncode == 0 for proc in procs), outputs
    assert sorted(set(handler.ids())) == sorted(r.message_id for r in rows(league.ctx))
    assert handler.deliveries() == {
        (r.message_id, who) for r in rows(league.ctx) for who in EVERYONE
    }
    assert len(handler.received) == 11 * 3  # each copy once
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlalchemy import inspect

    from dice_server.models import Base

    engine = league.ctx.sessions.kw["bind"]
    assert "apscheduler_jobs" not in inspect(engine).get_table_names()
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []


def test_the_web_never_starts_a_scheduler(app: Flask) -> None:
    """The web application neither imports the scheduler nor starts any thread."""
    probe = (
        "import sys, threading\n"
        "from dice_server.app import create_app\n"
        f"app = create_app({{'INSTANCE_PATH': {app.instance_path!r}, "
        f"'DATABASE_URL': {app.config['DATABASE_URL']!r}}})\n"
        "assert app.test_client().get('/healthz').status_code == 200\n"
        "print(sorted(m for m in sys.modules if m.startswith(('apscheduler', "
        "'dice_server.scheduler'))), threading.active_count())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[] 1"


def test_every_kind_of_entry_reads_well_in_the_maildir(app: Flask, league: League) -> None:
    from dice_server.services.games import end_game, reopen_game
    from dice_server.services.rolls import write

    ctx, number = league.ctx, league.game
    header = {"round": 1, "turn": 1, "country": "Japan"}
    write(ctx, "tech-roll", 1, number, {**header, "dice": 2})
    write(ctx, "bombing-roll", 1, number, {**header, "target": "India", "bombers": 1, "aa": 1})
    write(ctx, "rocket-roll", 1, number, {**header, "target": "India"})
    write(ctx, "note", 2, number, {"topic": "retreat", "text": "to Burma", "ref_seq": 3})
    end_game(ctx, number, status="finished", winner="axis")
    reopen_game(ctx, number, reason="ruling 7")
    report = deliver_due(courier_for(app, MAIL_TRANSPORT="maildir"))
    assert len(report.sent) == 7 and not report.failed
    maildir = Path(app.instance_path) / "maildir" / "new"
    copies = [
        email.message_from_bytes(p.read_bytes(), policy=policy.default) for p in maildir.iterdir()
    ]
    assert len(copies) == 7 * 3  # each player's copy, and the mentor's
    messages = [m for m in copies if m["Reply-To"] is None]  # the mentor's
    g = f"[Game {number}]"
    assert sorted(str(m["Subject"]) for m in messages) == [
        f"{g} #1 game created: axis@example.org (Axis) v allies@example.org (Allies)",
        f"{g} #2 Japan: weapons development, 2 dice",
        f"{g} #3 Japan: bombing India",
        f"{g} #4 Japan: rockets at India",
        f"{g} #5 note (retreat) from allies@example.org",
        f"{g} #6 game finished: Axis win",
        f"{g} #7 game reopened",
    ]
    bodies = {str(m["Subject"]).split()[2]: m.get_body(("plain",)).get_content() for m in messages}
    assert "Research x2:" in bodies["#2"]
    assert "AA at BMB x1 (hit on 1 or less)" in bodies["#3"]
    assert "Refers to entry #3" in bodies["#5"] and "to Burma" in bodies["#5"]
    assert "Rated: yes" in bodies["#6"] and "Seed: " in bodies["#6"]
    assert "Reason: ruling 7" in bodies["#7"]


def self_signed(tmp_path: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1, made here (no network, no openssl binary needed)."""
    import datetime as dt
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = tmp_path / "relay.pem", tmp_path / "relay.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


@pytest.mark.parametrize("security", ["starttls", "ssl"])
def test_relay_over_tls_with_login(
    app: Flask, league: League, tmp_path: Path, security: str, reserve_port: Callable[[], int]
) -> None:
    """The relay from config: STARTTLS or SSL, and a login that only works over TLS."""
    import ssl

    from aiosmtpd.smtp import AuthResult, LoginPassword

    cert, key = self_signed(tmp_path)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    logins: list[str] = []

    def authenticator(
        server: Any, session: Any, envelope: Any, mechanism: str, data: Any
    ) -> AuthResult:
        ok = isinstance(data, LoginPassword) and (data.login, data.password) == (
            b"dice",
            b"s3cret-relay",
        )
        if ok:
            logins.append(mechanism)
        return AuthResult(success=ok)

    handler, port = Relay(), reserve_port()
    options: dict[str, Any] = {"authenticator": authenticator, "auth_require_tls": True}
    if security == "starttls":
        options.update(tls_context=context, require_starttls=True)
    else:
        # aiosmtpd does not count an implicit-TLS session as TLS for AUTH: it is one anyway.
        options.update(ssl_context=context, auth_require_tls=False)
    controller = RelayController(
        handler, hostname="127.0.0.1", port=port, server_hostname="127.0.0.1", **options
    )
    controller.start()
    try:
        config = {
            **smtp_config(port),
            "SMTP_SECURITY": security,
            "SMTP_USERNAME": "dice",
            "SMTP_PASSWORD": "s3cret-relay",
            "SMTP_CAFILE": str(cert),
        }
        assert deliver_due(courier_for(app, **config)).sent == [1]
        wrong = {**config, "SMTP_PASSWORD": "wrong"}
        roll_battle(league.ctx, 1, league.game, battle())
        report = deliver_due(courier_for(app, **{**wrong, "SMTP_TIMEOUT_SECONDS": 2}))
        assert 2 in report.failed  # refused (535), or the test relay hangs on smtplib's retry
        untrusted = {**config, "SMTP_CAFILE": ""}
        report = deliver_due(courier_for(app, **untrusted))
        assert "CERTIFICATE_VERIFY_FAILED" in report.failed[2]  # a self-signed relay is refused
    finally:
        controller.stop()
    assert len(handler.received) == 3 and logins  # each player's copy and the mentor's
