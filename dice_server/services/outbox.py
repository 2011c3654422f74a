"""Every ledger entry queues one message, in the same transaction as the entry: a game's
players in To, the mentor (and for some notes the Minister of Law) in Cc; a TripleA
table's addresses as its client named them.

Only the envelope is stored for an entry; the message is rendered at delivery from the
immutable entry (dice_server.mail.compose), so every attempt sends the same bytes under the
Message-ID fixed now. Other mail (dice_server.services.mailer) is queued with its bytes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, and_, bindparam, case, func, insert, or_, select, update
from sqlalchemy.orm import Session

from dice_server import ledger
from dice_server.db import Prepared, reading, writing
from dice_server.errors import Conflict, NotFound
from dice_server.ledger import Chain, DataBuilder, SignedEntry
from dice_server.models import Base, DiceTable, LedgerEntry, OutboxMessage, TableEntry, utcnow
from dice_server.services import ServiceContext

_members = Base.metadata.tables["members"].c
MINISTERS = select(_members.email).where(_members.role == "minister").order_by(_members.id)
_OUTBOX = Base.metadata.tables["outbox"]
_QUEUED = (
    "message_id",
    "game_number",
    "table_id",
    "entry_seq",
    "to_addrs",
    "cc_addrs",
    "raw",
    "status",
    "attempts",
    "next_attempt_at",
    "created_at",
)
ENQUEUE = Prepared(insert(_OUTBOX), column_keys=_QUEUED)
#: The outbox's column naming the chain of the entry a message announces.
CHAIN_COLUMNS = {"game": OutboxMessage.game_number, "table": OutboxMessage.table_id}


def entry_message_id(entry: SignedEntry, domain: str) -> str:
    """Fixed per entry (its body hash makes it unique across instances and resets)."""
    chain = entry.chain
    return f"<{entry.hash[:24]}.{chain.owner}-{chain.number}.entry-{entry.seq}@{domain}>"


def ministers(session: Session) -> list[str]:
    return list(session.connection().execute(MINISTERS).scalars())


def unique(values: Iterable[str | None], leaving_out: Iterable[str] = ()) -> list[str]:
    """Each address once (ignoring letter case), in order, without those left out."""
    seen = {address.casefold() for address in leaving_out}
    out = []
    for value in values:
        if value and value.casefold() not in seen:
            seen.add(value.casefold())
            out.append(value)
    return out


@dataclass(frozen=True)
class Envelope:
    """Who a message goes to, stored as given."""

    to: tuple[str, ...]
    cc: tuple[str, ...] = ()

    @classmethod
    def each_once(cls, to: Iterable[str | None], cc: Iterable[str | None] = ()) -> Envelope:
        """A game's mail: each address once (ignoring letter case), in order, the missing
        (a game without a mentor) left out, and Cc without those already in To."""
        to_list = unique(to)
        return cls(tuple(to_list), tuple(unique(cc, leaving_out=to_list)))


def enqueue(
    session: Session,
    now: datetime,
    message_id: str,
    envelope: Envelope,
    *,
    entry: SignedEntry | None = None,
    raw: bytes | None = None,
    game: int | None = None,
) -> None:
    """Queue one message in the caller's transaction: an entry's (rendered at delivery
    from the entry) or, with ``raw``, other mail as rendered now (``game``: mail of that
    game that announces no entry, such as a key rotation, delivered in the game's turn)."""
    table = seq = None
    if entry is not None:
        seq = entry.seq
        if entry.chain.owner == "game":
            game = entry.chain.number
        else:
            table = entry.chain.number
    ENQUEUE.execute(
        session.connection(),
        {
            "message_id": message_id,
            "game_number": game,
            "table_id": table,
            "entry_seq": seq,
            "to_addrs": json.dumps(list(envelope.to)),
            "cc_addrs": json.dumps(list(envelope.cc)),
            "raw": raw,
            "status": "pending",
            "attempts": 0,
            "next_attempt_at": now,
            "created_at": utcnow(),
        },
    )


def publish(
    session: Session,
    ctx: ServiceContext,
    now: datetime,
    chain: Chain,
    kind: str,
    build: DataBuilder,
    envelope: Envelope,
    heads: tuple[ledger.Recorded, ledger.Head | None] | None = None,
) -> SignedEntry:
    """Append an entry and queue its message, both or neither (``heads``: as
    :func:`dice_server.ledger.append` takes them)."""
    entry = ledger.append(session, ctx.keys.signer, now, chain, kind, build, heads)
    enqueue(session, now, entry_message_id(entry, ctx.mail_domain), envelope, entry=entry)
    return entry


def mail_states(
    session: Session, domain: str, chain: Chain, entries: Sequence[SignedEntry]
) -> dict[int, str]:
    """The state of each entry's message by seq, found by its Message-ID (a unique index);
    only a message queued under another mail domain is looked for by chain and seq."""
    columns = (
        OutboxMessage.message_id,
        OutboxMessage.entry_seq,
        OutboxMessage.status,
        OutboxMessage.last_error,
    )
    ids = {entry_message_id(entry, domain): entry.seq for entry in entries}
    rows = list(session.execute(select(*columns).where(OutboxMessage.message_id.in_(ids))))
    missing = {entry.seq for entry in entries} - {ids[row.message_id] for row in rows}
    if missing:
        rows += session.execute(
            select(*columns).where(
                CHAIN_COLUMNS[chain.owner] == chain.number, OutboxMessage.entry_seq.in_(missing)
            )
        )
    return {
        row.entry_seq: row.status + (f" ({row.last_error})" if row.last_error else "")
        for row in rows
    }


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
    """A message this delivery run holds the claim on, with what it needs to render: the
    stored entry it announces (None: other mail, which keeps its bytes); for a game's
    entry the Message-ID of the game's first message, which threads the game; for a
    table's entry the table; for a game's first message the keys published when its
    genesis was signed (those up to the genesis's key), which travel with the game."""

    row: OutboxMessage
    entry: LedgerEntry | TableEntry | None = None
    thread_root: str | None = None
    table: DiceTable | None = None
    keys: dict[str, list[dict[str, str]]] | None = None


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
    """Claim one message (:func:`claim_many`); None when another run holds it."""
    found = claim_many(ctx, [message], now, lease)
    return found[0] if found else None


def claim_many(
    ctx: ServiceContext, messages: Sequence[int], now: datetime, lease: timedelta
) -> list[Claimed]:
    """Claim messages with one conditional UPDATE: of two runs at once, each message goes
    to one. Returns those won, in the order asked, each with what it needs to render
    (read after the claim's commit: a claimed message is this run's alone, and what it
    announces never changes).

    A claim lasts ``lease``: if the claimer dies between sending and marking, the message
    is sent again after the lease, under the same Message-ID (delivery at least once).
    Claims and marks are not flushed to disk before the run goes on (``durable=False``):
    a power loss can only make a message go again, as a crash can.
    """
    if not messages:
        return []
    with writing(ctx.sessions, durable=False) as session:
        won = set(
            session.execute(
                update(OutboxMessage)
                .where(OutboxMessage.id.in_(messages), _claimable(now))
                .values(claimed_until=now + lease, attempts=OutboxMessage.attempts + 1)
                .returning(OutboxMessage.id)
                .execution_options(synchronize_session=False)
            ).scalars()
        )
    if not won:
        return []
    with reading(ctx.sessions) as session:
        rows = {
            row.id: row
            for row in session.execute(
                select(OutboxMessage).where(OutboxMessage.id.in_(won))
            ).scalars()
        }
        return [_loaded(session, ctx, rows[m]) for m in messages if m in won]


def _loaded(session: Session, ctx: ServiceContext, row: OutboxMessage) -> Claimed:
    chain = announced(row)
    if chain is None or row.entry_seq is None:
        return Claimed(row)
    if chain.owner == "table":
        (entry,) = chain.queries.rows(session, chain.number, (row.entry_seq,))
        return Claimed(row, entry, table=session.get_one(DiceTable, chain.number))
    stored = chain.queries.rows(session, chain.number, (1, row.entry_seq))
    by_seq = {entry.seq: entry for entry in stored}
    root = by_seq.get(1)
    keys = None
    if root is not None and row.entry_seq == 1:
        keys = ledger.keys_document(ledger.published(session, through=root.key_id))
    return Claimed(
        row,
        by_seq[row.entry_seq],
        entry_message_id(SignedEntry.of(chain, root), ctx.mail_domain) if root else None,
        keys=keys,
    )


def announced(row: OutboxMessage) -> Chain | None:
    """The chain whose entry the message announces (None: other mail)."""
    if row.table_id is not None:
        return Chain.table(row.table_id)
    if row.game_number is not None:
        return Chain.game(row.game_number)
    return None


#: :func:`mark_sent`'s UPDATE, built once (every message of a delivery run runs it).
MARK_SENT = Prepared(
    update(_OUTBOX)
    .where(_OUTBOX.c.id == bindparam("message"))
    .values(
        status="sent",
        sent_at=bindparam("sent_at"),
        claimed_until=None,
        last_error=bindparam("last_error"),
        raw=None,
    )
)


def mark_sent(ctx: ServiceContext, message: int, now: datetime, note: str = "") -> None:
    """Delivered; ``note`` keeps what the relay said of recipients it refused (reported by
    ``pbem outbox list --failed``; sending again would only repeat it to the others).

    Account mail's stored bytes are dropped once sent: they may hold a one-time link, which
    must not stay readable in the database (the row keeps who, when and its Message-ID).
    An entry's message holds no bytes: it is rendered again from the ledger."""
    with writing(ctx.sessions, durable=False) as session:
        MARK_SENT.execute(
            session.connection(), {"message": message, "sent_at": now, "last_error": note or None}
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
    with writing(ctx.sessions, durable=False) as session:
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
