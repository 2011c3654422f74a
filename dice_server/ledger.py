"""The signed, hash-chained ledger: the league's timing authority.

An append takes the game's lock (SQLite: the transaction began IMMEDIATE; PostgreSQL:
``SELECT ... FOR UPDATE`` on the game row), reads the head, and writes seq + 1 with
``prev`` = hash of the head's body and ``at`` = max(now, head.at + 1 us), so that
"the time stamped ... is the order" (IAAPA, Using the Dice Server) even when the
clock stalls or steps back. Entries are never updated, deleted or inserted over: triggers
refuse it.

The server also checks its own chain: each append records the head it wrote on the game's
(or table's) row, and the next append extends the ledger only if it still ends there. A
tail replaced, truncated or extended behind the server's back is refused with
:class:`~dice_server.errors.LedgerTampered`, never silently extended; the players' mailed
copies of the entries are what it is restored from (``pbem ledger check`` finds where).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import event, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from dice_server import statements
from dice_server.errors import LedgerTampered
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

log = logging.getLogger(__name__)

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


@dataclass(frozen=True)
class Recorded:
    """The head a chain's last append wrote, as recorded on the game's (or table's) row:
    None for both before the genesis."""

    seq: int | None
    hash: str | None


def head(session: Session, number: int) -> Head | None:
    """The last entry of game ``number``'s ledger as stored."""
    heads = _heads(session, "game", number)
    return None if heads is None else heads[1]


def table_head(session: Session, table: int) -> Head | None:
    heads = _heads(session, "table", table)
    return None if heads is None else heads[1]


def _heads(session: Session, chain: str, number: int) -> tuple[Recorded, Head | None] | None:
    """The chain's recorded head and its last entry as stored (None: no such chain)."""
    conn = session.connection()
    if chain == "game":
        row = conn.execute(statements.HEAD, {"number": number}).first()
    else:
        row = conn.execute(statements.TABLE_HEAD, {"table": number}).first()
    if row is None:
        return None
    stored = None if row.seq is None else Head(row.seq, row.hash, row.at)
    return Recorded(row.head_seq, row.head_hash), stored


def _check_command(chain: str, number: int) -> str:
    return (
        f"pbem ledger check {number}" if chain == "game" else f"pbem ledger check --table {number}"
    )


def head_mismatch(recorded: Recorded, found: Head | None) -> str | None:
    """What is wrong when a ledger does not end at the head its last append recorded, in
    words an operator can act on; None when it does."""
    if (recorded.seq, recorded.hash) == ((found.seq, found.hash) if found else (None, None)):
        return None
    wrote = "no entry yet" if recorded.seq is None else f"seq {recorded.seq} (hash {recorded.hash})"
    if found is None:
        now, how = "holds no entry", "it was emptied"
    else:
        now = f"ends at seq {found.seq} (hash {found.hash})"
        if recorded.seq is None or found.seq > recorded.seq:
            how = "entries were added behind the server's back"
        elif found.seq < recorded.seq:
            how = "its tail was truncated"
        else:
            how = "its last entry was replaced"
    return f"its last append wrote {wrote}, but the ledger now {now} ({how})"


def _checked_head(chain: str, number: int, session: Session) -> Head | None:
    """The head to extend, refused unless it is the one this server last wrote."""
    heads = _heads(session, chain, number)
    if heads is None:
        raise LookupError(f"there is no {chain} {number} to append to")
    recorded, found = heads
    mismatch = head_mismatch(recorded, found)
    if mismatch is not None:
        problem = f"{chain} {number}'s ledger is not as this server left it: {mismatch}"
        log.error("append refused: %s", problem)  # whichever channel asked, the operator sees it
        raise LedgerTampered(
            f"{problem}. Nothing was written and nothing will be until an operator runs "
            f"`{_check_command(chain, number)}` and restores the ledger from the players' "
            "mailed copies."
        )
    return found


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
        try:
            with session.begin_nested():
                session.execute(
                    insert(SigningKey).values(
                        key_id=signer.key_id, public=signer.public_b64, created_at=utcnow()
                    )
                )
        except IntegrityError:
            # Published by a racing transaction since the look-up: the insert is refused
            # (an append-only table takes no second row for a key), the savepoint undone.
            pass
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
    last = _checked_head(chain, number, session)
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
    _insert_and_record(session, chain, number, row)
    return row


def _insert_and_record(session: Session, chain: str, number: int, row: dict[str, Any]) -> None:
    """Write the entry and record it as the chain's head: the next append checks it."""
    conn = session.connection()
    if conn.dialect.name == "postgresql":
        pg = statements.APPEND_ENTRY_PG if chain == "game" else statements.APPEND_TABLE_ENTRY_PG
        conn.execute(pg, row)
        return
    insert_entry, set_head = (
        (statements.INSERT_ENTRY, statements.SET_HEAD)
        if chain == "game"
        else (statements.INSERT_TABLE_ENTRY, statements.SET_TABLE_HEAD)
    )
    conn.execute(insert_entry, row)
    conn.execute(set_head, {"chain": number, "seq": row["seq"], "hash": row["hash"]})


def entries(session: Session, number: int) -> list[LedgerEntry]:
    return list(
        session.execute(
            select(LedgerEntry).where(LedgerEntry.game_number == number).order_by(LedgerEntry.seq)
        ).scalars()
    )
