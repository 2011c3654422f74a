"""A delivery run of the outbox over a real SMTP relay (aiosmtpd on a loopback port): one
relay connection for the whole run, a connection the relay dropped between messages opened
again without losing or repeating a message, and a run killed mid-way sending again only
the message it had in hand (each message is marked sent as soon as the relay took it)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask

from dice_server.mail import letter
from dice_server.mail.delivery import deliver_due, render
from dice_server.mail.letter import Letter
from dice_server.mail.transport import Copy, SmtpTransport
from dice_server.services.entries import ApiToken
from dice_server.services.outbox import claim
from dice_server.services.rolls import roll_battle
from tests.conftest import League, battle
from tests.integration.test_mail import Relay, RelayController, courier_for, rows, smtp_config


class CountingRelay(Relay):
    """A :class:`Relay` that also notes the connection (client address and port) each
    message came over, and keeps the last connection to be able to drop it."""

    def __init__(self) -> None:
        super().__init__()
        self.peers: list[Any] = []
        self.server: Any = None

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.peers.append(session.peer)
        self.server = server
        return await super().handle_DATA(server, session, envelope)


@pytest.fixture
def counting(reserve_port: Callable[[], int]) -> Iterator[tuple[CountingRelay, int, Any]]:
    handler = CountingRelay()
    port = reserve_port()
    controller = RelayController(handler, hostname="127.0.0.1", port=port)
    controller.start()
    yield handler, port, controller
    controller.stop()


def _rolls(league: League, count: int) -> None:
    for _ in range(count):
        roll_battle(league.ctx, ApiToken(league.tokens["allies"]), league.game, battle())


def _copies(relay: Relay) -> list[tuple[str, str]]:
    """(Message-ID, recipient) of every copy received, repeats kept."""
    return [(str(msg["Message-ID"]), to) for _, rcpts, msg in relay.received for to in rcpts]


def test_a_run_keeps_one_relay_connection_for_every_message(
    app: Flask, league: League, counting: tuple[CountingRelay, int, Any]
) -> None:
    relay, port, _ = counting
    _rolls(league, 12)  # 13 messages with the game's opening, 3 copies each
    report = deliver_due(courier_for(app, **smtp_config(port)))
    assert len(report.sent) == 13 and not report.failed
    assert len(relay.received) == 13 * 3  # each player's own copy, and the mentor's
    assert len(set(relay.peers)) == 1, "one connection for the run"
    copies = _copies(relay)
    assert len(copies) == len(set(copies))  # nothing twice
    # Each player's copy carries his own Reply-To; the mentor's carries none.
    for _, rcpts, msg in relay.received:
        (to,) = rcpts
        reply_to = msg["Reply-To"]
        assert (reply_to is None) == (to == "mentor@example.org")
    assert all(row.status == "sent" for row in rows(league.ctx))
    # A second run opens a connection of its own.
    _rolls(league, 1)
    assert len(deliver_due(courier_for(app, **smtp_config(port))).sent) == 1
    assert len(set(relay.peers)) == 2


def test_a_connection_the_relay_dropped_is_opened_again(
    counting: tuple[CountingRelay, int, Any],
) -> None:
    """The relay closes a kept connection between two messages (as one does after an idle
    timeout): the next message goes over a new connection, once."""
    relay, port, controller = counting
    from email.message import EmailMessage

    def message(n: int) -> Copy:
        msg = EmailMessage()
        msg["From"] = "dice@league.example"
        msg["To"] = "axis@example.org"
        msg["Message-ID"] = f"<m{n}@league.example>"
        msg.set_content(f"message {n}")
        return Copy.of(msg, ["axis@example.org"])

    with SmtpTransport("127.0.0.1", port, timeout=5).held() as kept:
        assert kept.send([message(1)]) == ""
        dropped = relay.server.transport
        controller.loop.call_soon_threadsafe(dropped.close)
        deadline = time.monotonic() + 5
        while not dropped.is_closing() and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.05)
        assert kept.send([message(2)]) == ""
    assert relay.ids() == ["<m1@league.example>", "<m2@league.example>"]
    assert len(set(relay.peers)) == 2


class Killed(BaseException):
    """The delivery process killed (nothing below the run catches it)."""


def test_a_run_killed_mid_way_sends_again_only_the_message_in_hand(
    app: Flask, league: League, counting: tuple[CountingRelay, int, Any]
) -> None:
    relay, port, _ = counting
    _rolls(league, 11)  # 12 messages: more than one claim's worth
    courier = replace(courier_for(app, **smtp_config(port)), lease=timedelta(0))
    real = courier.transport
    handed = [0]

    class DiesAfterTheFifth:
        def send(self, copies: list[Copy]) -> str:
            note = real.send(copies)
            handed[0] += 1
            if handed[0] == 5:
                raise Killed  # the relay took the fifth message; it was never marked
            return note

    with pytest.raises(Killed):
        deliver_due(replace(courier, transport=DiesAfterTheFifth()))  # type: ignore[arg-type]
    states = [row.status for row in rows(league.ctx)]
    assert states == ["sent"] * 4 + ["pending"] * 8
    fifth = rows(league.ctx)[4].message_id
    time.sleep(0.01)  # the claims lapse (lease 0)
    report = deliver_due(courier)
    assert len(report.sent) == 8
    assert all(row.status == "sent" for row in rows(league.ctx))
    received = _copies(relay)
    repeated = {copy for copy in received if received.count(copy) > 1}
    assert {mid for mid, _ in repeated} == {fifth}  # at least once: only the one in hand
    assert len(set(received)) == 12 * 3


def test_a_games_messages_are_the_email_packages_byte_for_byte(
    app: Flask, league: League, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game's messages are written straight to bytes (dice_server.mail.letter), the
    headers every message repeats (From, To, Cc, its thread) folded once and kept: each is
    byte for byte the message the email package builds, and a resend, made again from the
    kept headers or without them, is the same message."""
    _rolls(league, 2)
    courier = courier_for(app, **smtp_config(25))
    ids = [row.id for row in rows(league.ctx)]
    assert len(ids) >= 3  # the genesis message (the thread's root) and two rolls

    def written(by_package: bool = False) -> list[bytes]:
        out = []
        for message in ids:
            claimed = claim(league.ctx, message, league.ctx.clock(), timedelta(0))
            assert claimed is not None
            made = render(claimed, courier.letterhead)
            assert isinstance(made, Letter)
            out.append(made.message().as_bytes() if by_package else made.as_bytes())
        return out

    shared = written()
    assert shared == written(by_package=True)
    assert written() == shared  # made again from the kept headers
    assert len(letter._FOLDED) >= 3
    monkeypatch.setattr(letter, "kept_line", letter.header_line)
    assert written() == shared  # each header folded afresh
    assert all(b"\nIn-Reply-To: " in raw for raw in shared[1:])
