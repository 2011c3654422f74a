"""One delivery run over the outbox: claim each due message, render it, hand it to the
transport, mark it sent or failed. A failure never touches the entry it announces."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from dice_server.mail.compose import Letterhead, entry_message, recipients
from dice_server.mail.letter import Letter
from dice_server.mail.transport import (
    Copy,
    DeliveryError,
    Transport,
    held,
    parsed_message,
    transport_from_config,
)
from dice_server.models import LedgerEntry, TableEntry
from dice_server.services import ServiceContext
from dice_server.services.game_addresses import email_key, player_addresses_of
from dice_server.services.outbox import (
    Backoff,
    Claimed,
    claim_many,
    due_ids,
    mark_failed,
    mark_sent,
)
from dice_server.triplea.mail import table_message

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Courier:
    """Everything a delivery run needs, read once from the configuration."""

    ctx: ServiceContext
    transport: Transport
    letterhead: Letterhead
    backoff: Backoff
    lease: timedelta
    batch: int

    @classmethod
    def from_config(cls, ctx: ServiceContext, config: Mapping[str, Any], instance: Path) -> Courier:
        return cls(
            ctx=ctx,
            transport=transport_from_config(config, instance),
            letterhead=Letterhead(
                sender=str(config["MAIL_FROM"]), mail=ctx.mail.at(str(config["BASE_URL"]))
            ),
            backoff=Backoff(
                base_seconds=float(config["OUTBOX_BACKOFF_SECONDS"]),
                cap_seconds=float(config["OUTBOX_BACKOFF_MAX_SECONDS"]),
                max_attempts=int(config["OUTBOX_MAX_ATTEMPTS"]),
            ),
            lease=timedelta(seconds=float(config["OUTBOX_CLAIM_SECONDS"])),
            batch=int(config["OUTBOX_BATCH"]),
        )


@dataclass
class RunReport:
    sent: list[int] = field(default_factory=list)
    failed: dict[int, str] = field(default_factory=dict)


def render(claimed: Claimed, letterhead: Letterhead) -> Letter | EmailMessage:
    """The message of a claimed row: an entry's (game or table) written from the ledger,
    or other mail read back from its stored bytes."""
    entry = claimed.entry
    if isinstance(entry, LedgerEntry):
        return entry_message(claimed.row, entry, claimed.thread_root, letterhead, claimed.keys)
    if isinstance(entry, TableEntry) and claimed.table is not None:
        return table_message(claimed.row, claimed.table, entry, letterhead)
    if claimed.row.raw is None:
        raise DeliveryError("the message has neither an entry nor stored bytes")
    return parsed_message(claimed.row.raw)


#: Personal game addresses by game, for one delivery run.
Addresses = dict[int, dict[str, str]]


def send_rendered(
    courier: Courier,
    claimed: Claimed,
    msg: Letter | EmailMessage,
    transport: Transport | None = None,
    addresses: Addresses | None = None,
) -> str:
    """Send a message. A game's mail (its entries, a key rotation) goes to each player in a
    copy of his own whose Reply-To is his personal game address (nobody else may see it: it
    is what makes his mail his), and to everyone else (mentor, ministers) in one copy
    without it; headers, Message-ID and body are otherwise the same in every copy.
    ``transport`` is the run's (a relay connection kept open), ``addresses`` the personal
    addresses the run has read so far."""
    transport = courier.transport if transport is None else transport
    row = claimed.row
    everyone = recipients(row)
    if row.game_number is None:
        return transport.send([Copy.of(msg, everyone)])
    addresses = {} if addresses is None else addresses
    if row.game_number not in addresses:
        addresses[row.game_number] = player_addresses_of(courier.ctx, row.game_number)
    personal = addresses[row.game_number]
    players = [r for r in everyone if email_key(r) in personal]
    others = [r for r in everyone if email_key(r) not in personal]
    groups = [[player] for player in players] + ([others] if others else [])
    reply_to = [personal[email_key(player)] for player in players]
    return transport.send(Copy.written(msg, *groups, reply_to=reply_to))


CLAIM_AT_ONCE = 10
"""Messages claimed in one transaction: each claim's lease runs from it, so a run claims
a few at a time rather than its whole batch."""


def deliver_due(courier: Courier) -> RunReport:
    """Deliver everything due now, in the outbox's fair order, batch after batch until
    nothing due is left (each message tried at most once a run); safe to run in several
    processes at once (the claim). Each message is marked sent or failed as soon as the
    relay answers for it, so a run cut short sends again at most the one in hand."""
    ctx, report = courier.ctx, RunReport()
    tried: set[int] = set()
    addresses: Addresses = {}
    with held(courier.transport) as transport:
        while True:
            due = due_ids(ctx, ctx.clock(), courier.batch + len(tried))
            batch = [m for m in due if m not in tried]
            if not batch:
                return report
            tried.update(batch)
            for start in range(0, len(batch), CLAIM_AT_ONCE):
                chunk = batch[start : start + CLAIM_AT_ONCE]
                for claimed in claim_many(ctx, chunk, ctx.clock(), courier.lease):
                    _deliver_one(courier, transport, claimed, report, addresses)


def _deliver_one(
    courier: Courier,
    transport: Transport,
    claimed: Claimed,
    report: RunReport,
    addresses: Addresses,
) -> None:
    ctx, message = courier.ctx, claimed.row.id
    try:
        msg = render(claimed, courier.letterhead)
        note = send_rendered(courier, claimed, msg, transport, addresses)
    except DeliveryError as exc:
        status = mark_failed(
            ctx, message, ctx.clock(), str(exc), courier.backoff, permanent=exc.permanent
        )
        report.failed[message] = str(exc)
        log.warning("outbox %s %s: %s", message, status, exc)
    except Exception as exc:  # a rendering bug must not stop the queue
        log.exception("outbox %s could not be rendered", message)
        mark_failed(ctx, message, ctx.clock(), f"internal error: {exc!r}", courier.backoff)
        report.failed[message] = repr(exc)
    else:
        mark_sent(ctx, message, ctx.clock(), note)
        report.sent.append(message)
        if note:
            log.warning("outbox %s sent, but %s", message, note)
