"""Every ledger entry queues one message, in the same transaction as the entry: the
game's players in To, the mentor (and for some notes the Minister of Law) in Cc.

Only the envelope is stored here; the message is rendered at delivery from the immutable
entry (dice_server.mail.compose), so every attempt sends the same bytes under the
Message-ID fixed now.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, and_, case, func, or_, select, update
from sqlalchemy.orm import Session

from dice_server import ledger, statements
from dice_server.db import reading, writing
from dice_server.errors import Conflict, NotFound
from dice_server.ledger import DataBuilder
from dice_server.models import DiceTable, LedgerEntry, OutboxMessage, TableEntry
from dice_server.services import ServiceContext


def entry_message_id(entry: LedgerEntry, domain: str) -> str:
    """Fixed per entry (its body hash makes it unique across instances and resets)."""
    return f"<{entry.hash[:24]}.game-{entry.game_number}.entry-{entry.seq}@{domain}>"


def ministers(session: Session) -> list[str]:
    return list(session.connection().execute(statements.MINISTERS).scalars())


def unique(values: Iterable[str | None], leaving_out: Iterable[str] = ()) -> list[str]:
    """Each address once (ignoring letter case), in order, without those left out."""
    seen = {address.casefold() for address in leaving_out}
    out = []
    for value in values:
        if value and value.casefold() not in seen:
            seen.add(value.casefold())
            out.append(value)
    return out


def publish(
    session: Session,
    ctx: ServiceContext,
    now: datetime,
    number: int,
    kind: str,
    build: DataBuilder,
    *,
    to: Iterable[str | None],
    cc: Iterable[str | None] = (),
) -> LedgerEntry:
    """Append an entry and queue its message, both or neither."""
    entry = ledger.append(session, ctx.keys.signer, now, number, kind, build)
    to_list = unique(to)
    cc_list = unique(cc, leaving_out=to_list)
    session.connection().execute(
        statements.INSERT_OUTBOX,
        {
            "message_id": entry_message_id(entry, ctx.mail_domain),
            "game_number": number,
            "entry_seq": entry.seq,
            "to_addrs": json.dumps(to_list),
            "cc_addrs": json.dumps(cc_list),
            "status": "pending",
            "attempts": 0,
            "next_attempt_at": now,
        },
    )
    return entry


@dataclass(frozen=True)
class Backoff:
    """How the outbox retries: after attempt n it waits base * 2**(n-1), at most ``cap``;
    after ``max_attempts`` the message is marked failed (kept and reported, never dropped)."""

    base_seconds: float = 30.0
    cap_seconds: float = 3600.0
    max_attempts: int = 8

    def delay(self, attempts: int) -> timedelta:
        return timedelta(seconds=min(self.cap_seconds, self.base_seconds * 2 ** (attempts - 1)))


@dataclass(frozen=True)
class Claimed:
    """A message this delivery run holds the claim on, with what it needs to render."""

    row: OutboxMessage
    entry: LedgerEntry | None
    thread_root: str | None
    table: DiceTable | None = None
    table_entry: TableEntry | None = None


def due_ids(ctx: ServiceContext, now: datetime, batch: int) -> list[int]:
    """The next ``batch`` messages due, in the order they should go: account mail
    (confirmations, resets: someone is waiting at a page) ahead of game mail, and the games
    and tables taken in turn, one message of each before a second of any, so that one busy
    game cannot delay every other game's mail."""
    account = and_(OutboxMessage.game_number.is_(None), OutboxMessage.table_id.is_(None))
    turn = (
        func.row_number()
        .over(
            partition_by=(OutboxMessage.game_number, OutboxMessage.table_id),
            order_by=OutboxMessage.id,
        )
        .label("turn")
    )
    due = (
        select(OutboxMessage.id, case((account, 0), else_=1).label("account_last"), turn)
        .where(_claimable(now))
        .subquery()
    )
    with reading(ctx.sessions) as session:
        return list(
            session.execute(
                select(due.c.id).order_by(due.c.account_last, due.c.turn, due.c.id).limit(batch)
            ).scalars()
        )


def _claimable(now: datetime) -> ColumnElement[bool]:
    return and_(
        OutboxMessage.status == "pending",
        OutboxMessage.next_attempt_at <= now,
        or_(OutboxMessage.claimed_until.is_(None), OutboxMessage.claimed_until < now),
    )


def claim(ctx: ServiceContext, message: int, now: datetime, lease: timedelta) -> Claimed | None:
    """Claim one message with a conditional UPDATE: of two runs at once, only one wins.

    A claim lasts ``lease``: if the claimer dies between sending and marking, the message
    is sent again after the lease, under the same Message-ID (delivery at least once).
    """
    with writing(ctx.sessions) as session:
        won = session.execute(
            update(OutboxMessage)
            .where(OutboxMessage.id == message, _claimable(now))
            .values(claimed_until=now + lease, attempts=OutboxMessage.attempts + 1)
            .execution_options(synchronize_session=False)
        )
        if won.rowcount != 1:  # type: ignore[attr-defined]
            return None
        row = session.get_one(OutboxMessage, message)
        if row.table_id is not None and row.entry_seq is not None:
            entry = session.execute(
                select(TableEntry).where(
                    TableEntry.table_id == row.table_id, TableEntry.seq == row.entry_seq
                )
            ).scalar_one()
            return Claimed(row, None, None, session.get_one(DiceTable, row.table_id), entry)
        if row.game_number is None or row.entry_seq is None:
            return Claimed(row, None, None)
        entries = session.execute(
            select(LedgerEntry).where(
                LedgerEntry.game_number == row.game_number,
                LedgerEntry.seq.in_((1, row.entry_seq)),
            )
        ).scalars()
        by_seq = {entry.seq: entry for entry in entries}
        root = by_seq.get(1)
        return Claimed(
            row,
            by_seq[row.entry_seq],
            entry_message_id(root, ctx.mail_domain) if root else None,
        )


def mark_sent(ctx: ServiceContext, message: int, now: datetime, note: str = "") -> None:
    """Delivered; ``note`` keeps what the relay said of recipients it refused (reported by
    ``pbem outbox list --failed``; sending again would only repeat it to the others).

    Account mail's stored bytes are dropped once sent: they may hold a one-time link, which
    must not stay readable in the database (the row keeps who, when and its Message-ID).
    An entry's message holds no bytes: it is rendered again from the ledger."""
    with writing(ctx.sessions) as session:
        session.execute(
            update(OutboxMessage)
            .where(OutboxMessage.id == message)
            .values(
                status="sent", sent_at=now, claimed_until=None, last_error=note or None, raw=None
            )
        )


def mark_failed(
    ctx: ServiceContext,
    message: int,
    now: datetime,
    error: str,
    backoff: Backoff,
    *,
    permanent: bool = False,
) -> str:
    """Record what went wrong and when to try again; returns the message's new status.
    A permanent refusal, or the last allowed attempt, marks the message failed: kept and
    reported until an operator retries it."""
    with writing(ctx.sessions) as session:
        row = session.get_one(OutboxMessage, message)
        given_up = permanent or row.attempts >= backoff.max_attempts
        row.status = "failed" if given_up else "pending"
        row.next_attempt_at = now + backoff.delay(row.attempts)
        row.claimed_until = None
        row.last_error = error[:2000]
        return row.status


def list_messages(ctx: ServiceContext, *, failed_only: bool = False) -> list[OutboxMessage]:
    """For operators: every message, or those failed or still failing."""
    with reading(ctx.sessions) as session:
        query = select(OutboxMessage).order_by(OutboxMessage.id)
        if failed_only:
            query = query.where(
                or_(OutboxMessage.status == "failed", OutboxMessage.last_error.is_not(None))
            )
        return list(session.execute(query).scalars())


def retry_message(ctx: ServiceContext, message: int, now: datetime) -> OutboxMessage:
    """Put a message back in the queue now, with a fresh round of attempts."""
    with writing(ctx.sessions) as session:
        row = session.get(OutboxMessage, message)
        if row is None:
            raise NotFound(f"there is no outbox message {message}")
        if row.status == "sent":
            raise Conflict(f"outbox message {message} was delivered at {row.sent_at}")
        row.status, row.attempts, row.next_attempt_at = "pending", 0, now
        row.claimed_until = None
        return row
