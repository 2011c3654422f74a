"""Turns by email: every message that reaches the service by mail, from the SMTP receiver
(``pbem smtpd``) or an MTA's pipe or maildir (``pbem mail ingest``), goes through
:func:`receive`, and from there through the same service functions as the API and the pages.

1. **Spool.** The exact bytes are stored, with the envelope, before the sender's server is
   told the message arrived, under a unique key (its Message-ID, or the hash of its bytes when
   it has none): a re-delivery of the same message finds the first and is not processed
   again. A crash after the spool leaves the message ``spooled``: :func:`process_pending`
   (run when the receiver starts and by the scheduler) processes it then.
2. **Route and authenticate** (:mod:`dice_server.services.inbox_rules`). A message counts
   only when it reached a player's personal game address (:mod:`dice_server.mail.addresses`)
   and its From is that player's confirmed address. Anything else is kept in quarantine
   with the reason; nothing is recorded under anyone's name. When a player's own address was
   named by someone else, the player is told; the sender gets one neutral answer at most.
3. **Read and record.** The engine decides what the text is
   (:func:`adjudicator.notation.messages.read_message`): a turn is a submission
   (:func:`dice_server.services.turns.submit_read`), anything else a note of the matching
   topic (:func:`dice_server.services.notes.send_note`). The entry is written with the
   message's spool id as its retry key, so processing the same message twice records it
   once.
4. **Answer.** The sender gets a receipt threaded on his message (or the clear reason it
   was refused), through the outbox in the same transaction that marks the message done.

Bounces, auto-replies and the service's own mail are never answered: no mail loops.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from dice_server.db import reading, writing
from dice_server.errors import NotFound
from dice_server.mail.inbound import Inbound
from dice_server.mail.inbound import read_message as decode
from dice_server.models import InboundMessage
from dice_server.services import ServiceContext
from dice_server.services.inbox_rules import (
    IGNORED,
    QUARANTINED,
    RECORDED,
    REFUSED,
    SPOOLED,
    Fresh,
    decide,
    mark,
)

KEPT_OF_OVERSIZE = 64 * 1024
"""What is kept of a message over ``MAIL_MAX_BYTES`` (quarantined; the SMTP receiver
refuses one at DATA)."""
MAX_KEY = 255
MAX_ATTEMPTS = 5
"""Times a spooled message is processed before it is set aside for an operator (a message
whose processing keeps failing must not be tried forever)."""

log = logging.getLogger(__name__)


# --- receiving ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Received:
    """What became of one message: its spool id, its status and why, and the entry it
    recorded. ``duplicate`` is a re-delivery of a message already received."""

    id: int
    status: str
    reason: str | None = None
    game: int | None = None
    seq: int | None = None
    duplicate: bool = False
    fresh: Fresh | None = field(default=None, compare=False, repr=False)
    """A message just spooled, as it was stored and decoded: processing it at once need
    neither read it back nor decode it again."""


def message_key(raw: bytes, inbound: Inbound) -> str:
    """The message's identity: its Message-ID, else (none, too long, or holding what no
    Message-ID may: a control character such as NUL, which PostgreSQL cannot store in
    text, or undecodable bytes) the SHA-256 of its bytes."""
    found = inbound.message_id
    if found and len(found) <= MAX_KEY and found.isprintable():
        return found
    return "sha256:" + hashlib.sha256(raw).hexdigest()


def receive(
    ctx: ServiceContext,
    raw: bytes,
    *,
    channel: str,
    envelope_from: str | None = None,
    envelope_to: Iterable[str] = (),
    max_bytes: int | None = None,
) -> Received:
    """Spool one message (the exact bytes, once per Message-ID) and process it. The one
    entry point of every mail channel. Never raises for what the message holds."""
    spooled = spool(
        ctx,
        raw,
        channel=channel,
        envelope_from=envelope_from,
        envelope_to=envelope_to,
        max_bytes=max_bytes,
    )
    if spooled.duplicate or spooled.status != SPOOLED:
        return spooled
    return process(ctx, spooled.id, spooled.fresh)


def spool(
    ctx: ServiceContext,
    raw: bytes,
    *,
    channel: str,
    envelope_from: str | None = None,
    envelope_to: Iterable[str] = (),
    max_bytes: int | None = None,
) -> Received:
    """Store the message durably (committed before this returns); a message whose key was
    already received is not stored again (``duplicate``)."""
    if max_bytes is None:
        max_bytes = ctx.inbound.max_bytes
    oversize = len(raw) > max_bytes
    kept = raw[: min(KEPT_OF_OVERSIZE, max_bytes)] if oversize else raw
    inbound = decode(kept)
    key = message_key(raw, inbound)
    recipients = list(envelope_to)
    now = ctx.clock()
    row = InboundMessage(
        message_key=key,
        received_at=now,
        channel=channel,
        envelope_from=envelope_from,
        envelope_to=json.dumps(recipients),
        raw=kept,
        size=len(raw),
        sha256=hashlib.sha256(raw).hexdigest(),
        status=QUARANTINED if oversize else SPOOLED,
        reason=(
            f"the message is {len(raw):,} bytes, over the limit of {max_bytes:,}: its first "
            f"{len(kept):,} bytes are kept"
            if oversize
            else None
        ),
        sender=inbound.sender,
        subject=inbound.subject[:1000],
        attempts=1,  # the receiver processes it at once
        processed_at=now if oversize else None,
    )
    try:
        with writing(ctx.sessions) as session:
            session.add(row)
            session.flush()
            fresh = Fresh(kept, envelope_from, recipients, inbound)
            return Received(row.id, row.status, row.reason, fresh=fresh)
    except IntegrityError:
        with reading(ctx.sessions) as session:
            first = session.execute(
                select(InboundMessage).where(InboundMessage.message_key == key)
            ).scalar_one()
            return Received(
                first.id,
                first.status,
                first.reason,
                first.game_number,
                first.entry_seq,
                duplicate=True,
            )


def process_pending(ctx: ServiceContext, limit: int = 100) -> list[Received]:
    """Process what was spooled but never finished (a crash, a busy database); a message
    that failed :data:`MAX_ATTEMPTS` times is quarantined with that reason."""
    with writing(ctx.sessions) as session:
        rows = list(
            session.execute(
                select(InboundMessage)
                .where(InboundMessage.status == SPOOLED)
                .order_by(InboundMessage.id)
                .limit(limit)
            ).scalars()
        )
        ids = []
        for row in rows:
            if row.attempts >= MAX_ATTEMPTS:
                row.status, row.processed_at = QUARANTINED, ctx.clock()
                row.reason = f"processing failed {row.attempts} times: an operator must look"
            else:
                row.attempts += 1
                ids.append(row.id)
    done = []
    for inbound_id in ids:
        try:
            done.append(process(ctx, inbound_id))
        except Exception:  # one message's failure must not hold up the others
            log.exception("inbox: message %s could not be processed; it stays spooled", inbound_id)
    return done


def process(ctx: ServiceContext, inbound_id: int, fresh: Fresh | None = None) -> Received:
    """Decide, record and answer one spooled message (a no-op once it is done). A message
    recorded is marked done, and its receipt queued, in the entry's own transaction."""
    if fresh is None:
        with reading(ctx.sessions) as session:
            row = session.get(InboundMessage, inbound_id)
            if row is None:
                raise NotFound(f"no received message {inbound_id}")
            if row.status != SPOOLED:
                return _received(row)
            fresh = Fresh(
                row.raw, row.envelope_from, json.loads(row.envelope_to or "[]"), decode(row.raw)
            )
    verdict = decide(ctx, inbound_id, fresh)
    if verdict.done:
        return Received(inbound_id, verdict.status, verdict.reason, verdict.game, verdict.seq)
    with writing(ctx.sessions) as session:
        row = session.get(InboundMessage, inbound_id)
        assert row is not None
        if row.status == SPOOLED:  # not processed meanwhile by another receiver
            mark(session, ctx, row, verdict)
        return _received(row)


def _received(row: InboundMessage) -> Received:
    return Received(row.id, row.status, row.reason, row.game_number, row.entry_seq)


# --- reading the inbox ------------------------------------------------------------------------


@dataclass(frozen=True)
class InboxRow:
    id: int
    received_at: datetime
    channel: str
    sender: str | None
    subject: str | None
    status: str
    reason: str | None
    game: int | None
    seq: int | None
    size: int


def _row(m: InboundMessage) -> InboxRow:
    return InboxRow(
        m.id,
        m.received_at,
        m.channel,
        m.sender,
        m.subject,
        m.status,
        m.reason,
        m.game_number,
        m.entry_seq,
        m.size,
    )


def quarantine(ctx: ServiceContext) -> list[InboxRow]:
    """Every quarantined message, oldest first (``pbem mail quarantine``)."""
    with reading(ctx.sessions) as session:
        rows = session.execute(
            select(InboundMessage)
            .where(InboundMessage.status == QUARANTINED)
            .order_by(InboundMessage.id)
        ).scalars()
        return [_row(m) for m in rows]


__all__ = [
    "IGNORED",
    "QUARANTINED",
    "RECORDED",
    "REFUSED",
    "SPOOLED",
    "InboxRow",
    "Received",
    "process",
    "process_pending",
    "quarantine",
    "receive",
    "spool",
]
