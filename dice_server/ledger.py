"""The signed, hash-chained ledger: the league's timing authority.

An append takes the game's lock (SQLite: the transaction began IMMEDIATE; PostgreSQL:
``SELECT ... FOR UPDATE`` on the game row), reads the head, and writes seq + 1 with
``prev`` = hash of the head's body and ``at`` = max(now, head.at + 1 us), so that
"the time stamped ... is the order" (IAAPA, Using the Dice Server) even when the
clock stalls or steps back. Entries are never updated or deleted: triggers refuse it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import event, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from dice_server import statements
from dice_server.keys import Signer
from dice_server.models import Game, LedgerEntry, SigningKey, TableEntry, utcnow
from dice_server.verifier import (
    FORMAT_VERSION,
    KINDS,
    TIME_FORMAT,
    ZERO_HASH,
    body_hash,
    canonical_json,
    parse_time,
)

ONE_MICROSECOND = timedelta(microseconds=1)

DataBuilder = Callable[[int], dict[str, Any]]


def format_time(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime(TIME_FORMAT)


def lock_game(session: Session, number: int) -> Game | None:
    """Take the game's append lock; on SQLite the IMMEDIATE transaction already holds it."""
    return session.execute(
        select(Game).where(Game.number == number).with_for_update()
    ).scalar_one_or_none()


@dataclass(frozen=True)
class Head:
    """What an append needs of the latest entry."""

    seq: int
    hash: str
    at: str


def head(session: Session, number: int) -> Head | None:
    row = session.connection().execute(statements.HEAD, {"number": number}).first()
    return None if row is None else Head(row.seq, row.hash, row.at)


def table_head(session: Session, table: int) -> Head | None:
    row = session.connection().execute(statements.TABLE_HEAD, {"table": table}).first()
    return None if row is None else Head(row.seq, row.hash, row.at)


#: (database URL, key id) of keys known to be published in a committed transaction.
_published: set[tuple[str, str]] = set()


def publish_key(session: Session, signer: Signer) -> None:
    """Publish the signing key before its first signature (idempotent under concurrency:
    two games' first appends may race to insert it). Remembered once committed, so the
    hot path of a roll does not look it up again."""
    bind = session.get_bind()
    known = (str(bind.engine.url), signer.key_id)
    if known in _published:
        return
    if session.get(SigningKey, signer.key_id) is None:
        insert = pg_insert if bind.dialect.name == "postgresql" else sqlite_insert
        session.execute(
            insert(SigningKey)
            .values(key_id=signer.key_id, public=signer.public_b64, created_at=utcnow())
            .on_conflict_do_nothing()
        )
    event.listen(session, "after_commit", lambda _session: _published.add(known), once=True)


def append(
    session: Session,
    signer: Signer,
    now: datetime,
    number: int,
    kind: str,
    build_data: DataBuilder,
) -> LedgerEntry:
    """Append one entry to game ``number``'s ledger inside the caller's write transaction.

    ``build_data(seq)`` runs under the lock once the seq is fixed: a roll draws its dice
    there, so dice exist only inside the append and a rolled-back transaction shows none.
    The caller must have locked the game with :func:`lock_game` in this transaction.
    """
    return LedgerEntry(**_append(session, signer, now, "game", number, kind, build_data))


def append_to_table(
    session: Session,
    signer: Signer,
    now: datetime,
    table: int,
    kind: str,
    build_data: DataBuilder,
) -> TableEntry:
    """Append to a TripleA table's ledger: the same format, with "table" for "game".
    The caller must hold the table's row lock (or SQLite's write lock)."""
    return TableEntry(**_append(session, signer, now, "table", table, kind, build_data))


def _append(
    session: Session,
    signer: Signer,
    now: datetime,
    chain: str,
    number: int,
    kind: str,
    build_data: DataBuilder,
) -> dict[str, Any]:
    if kind not in KINDS:
        raise ValueError(f"unknown ledger kind {kind!r}")
    last = head(session, number) if chain == "game" else table_head(session, number)
    if last is None:
        seq, prev, at = 1, ZERO_HASH, now
    else:
        seq, prev = last.seq + 1, last.hash
        at = max(now.astimezone(UTC), parse_time(last.at).replace(tzinfo=UTC) + ONE_MICROSECOND)
    obj = {
        "v": FORMAT_VERSION,
        chain: number,
        "seq": seq,
        "kind": kind,
        "at": format_time(at),
        "prev": prev,
        "data": build_data(seq),
    }
    body = canonical_json(obj)
    publish_key(session, signer)
    row = {
        "game_number" if chain == "game" else "table_id": number,
        "seq": seq,
        "kind": kind,
        "at": obj["at"],
        "body": body,
        "hash": body_hash(body),
        "sig": signer.sign(body),
        "key_id": signer.key_id,
    }
    insert = statements.INSERT_ENTRY if chain == "game" else statements.INSERT_TABLE_ENTRY
    session.connection().execute(insert, row)
    return row


def entries(session: Session, number: int) -> list[LedgerEntry]:
    return list(
        session.execute(
            select(LedgerEntry).where(LedgerEntry.game_number == number).order_by(LedgerEntry.seq)
        ).scalars()
    )
