"""The signed, hash-chained ledger: the league's timing authority.

Every ledger is a :class:`Chain`: a league game's, named by its number, or a TripleA
table's, named by its id (DESIGN.md, "Rolls outside a league game": the same format, with
"table" for "game"). Both are appended, guarded and read by the same code here; what is
stored differently is in :mod:`dice_server.ledger_queries`. An entry, once signed, is a
:class:`SignedEntry`: a frozen value, like the row it is.

An append takes the chain's lock (SQLite: the transaction began IMMEDIATE; PostgreSQL:
``SELECT ... FOR UPDATE`` on the game's or table's row), reads the head, and writes seq + 1
with ``prev`` = hash of the head's body and ``at`` = max(now, head.at + 1 us), so that
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
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from sqlalchemy import Connection, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from dice_server.db import Fetched, after_commit
from dice_server.errors import LedgerTampered
from dice_server.keys import Signer
from dice_server.ledger_queries import CHAINS, GAME_LOCK, GAME_ROW_LOCK, ChainQueries
from dice_server.models import SignedEntryFields, SigningKey, utcnow
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


@dataclass(frozen=True, slots=True)
class Chain:
    """One ledger: a league game's (``Chain.game(12)``) or a TripleA table's
    (``Chain.table(3)``). ``owner`` is the key its bodies name it by, ``{"game": 12, ...}``
    or ``{"table": 3, ...}``, and the word for it in messages."""

    owner: Literal["game", "table"]
    number: int

    @classmethod
    def game(cls, number: int) -> Chain:
        return cls("game", number)

    @classmethod
    def table(cls, table_id: int) -> Chain:
        return cls("table", table_id)

    @property
    def queries(self) -> ChainQueries:
        return CHAINS[self.owner]

    @property
    def check_command(self) -> str:
        """The operator's command that checks this chain in place."""
        flag = "" if self.owner == "game" else "--table "
        return f"pbem ledger check {flag}{self.number}"

    def __str__(self) -> str:
        return f"{self.owner} {self.number}"


@dataclass(frozen=True, slots=True)
class SignedEntry:
    """One entry of a ledger as signed and stored: the exact body bytes, their SHA-256
    (the next entry's ``prev``), the Ed25519 signature and the id of the key that made it.
    Appends return it and reads give it; nothing changes it, as nothing changes the row."""

    chain: Chain
    seq: int
    kind: str
    at: str
    body: bytes
    hash: str
    sig: str
    key_id: str

    @classmethod
    def of(cls, chain: Chain, row: SignedEntryFields) -> SignedEntry:
        return cls(chain, row.seq, row.kind, row.at, row.body, row.hash, row.sig, row.key_id)

    @property
    def game_number(self) -> int:
        """The number of the league game whose ledger holds the entry."""
        if self.chain.owner != "game":
            raise AttributeError(f"an entry of {self.chain} belongs to no league game")
        return self.chain.number

    def signed(self) -> dict[str, str]:
        """The entry as exported and mailed: exact body text, signature, key id."""
        return {"body": self.body.decode("utf-8"), "sig": self.sig, "key": self.key_id}


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


def lock_game(session: Session, number: int) -> Fetched | None:
    """Take game ``number``'s append lock (on SQLite the IMMEDIATE transaction already
    holds it), then read what an append needs (:data:`GAME_LOCK`): the game's status,
    players, the addresses its mail goes to, its turn, heads and open seed. A table is
    locked by the look-up that finds it (dice_server.triplea.tables)."""
    conn = session.connection()
    if conn.dialect.name != "sqlite":
        if GAME_ROW_LOCK.first(conn, {"number": number}) is None:
            return None
    return GAME_LOCK.first(conn, {"number": number})


def heads(session: Session, chain: Chain) -> tuple[Recorded, Head | None]:
    """The chain's recorded head and its last entry as stored."""
    found = _heads(session.connection(), chain)
    if found is None:
        raise LookupError(f"there is no {chain}")
    return found


def head(session: Session, chain: Chain) -> Head | None:
    """The last entry of the chain as stored (None: no entry, or no such chain)."""
    found = _heads(session.connection(), chain)
    return None if found is None else found[1]


def _heads(conn: Connection, chain: Chain) -> tuple[Recorded, Head | None] | None:
    row = conn.execute(chain.queries.head, {"chain": chain.number}).first()
    if row is None:
        return None
    stored = None if row.seq is None else Head(row.seq, row.hash, row.at)
    return Recorded(row.head_seq, row.head_hash), stored


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


def locked_heads(row: Fetched) -> tuple[Recorded, Head | None]:
    """A game's heads as its lock read them (:data:`GAME_LOCK`), for :func:`append`."""
    stored = None if row.last_seq is None else Head(row.last_seq, row.last_hash, row.last_at)
    return Recorded(row.head_seq, row.head_hash), stored


def _checked_head(
    conn: Connection, chain: Chain, heads: tuple[Recorded, Head | None] | None = None
) -> Head | None:
    """The head to extend, refused unless it is the one this server last wrote."""
    if heads is None:
        heads = _heads(conn, chain)
    if heads is None:
        raise LookupError(f"there is no {chain} to append to")
    recorded, found = heads
    mismatch = head_mismatch(recorded, found)
    if mismatch is not None:
        problem = f"{chain}'s ledger is not as this server left it: {mismatch}"
        log.error("append refused: %s", problem)  # whichever channel asked, the operator sees it
        raise LedgerTampered(
            f"{problem}. Nothing was written and nothing will be until an operator runs "
            f"`{chain.check_command}` and restores the ledger from the players' "
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
    after_commit(session, lambda: _published.add(known))


def entry_values(value: Any) -> Any:
    """``value`` as an entry's data may hold it: the canonical JSON has integers and text
    and no nulls, so a ``None`` is left out and a boolean becomes 0 or 1."""
    if isinstance(value, dict):
        return {k: entry_values(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [entry_values(v) for v in value if v is not None]
    if isinstance(value, bool):
        return int(value)
    return value


def keys_document(keys: Iterable[tuple[str, str]]) -> dict[str, list[dict[str, str]]]:
    """Keys as ``GET /api/v1/keys`` serves them, from (key id, base64 public key) pairs."""
    return {"keys": [{"id": kid, "alg": "Ed25519", "public": public} for kid, public in keys]}


def published(session: Session, through: str | None = None) -> list[tuple[str, str]]:
    """Every published key, (key id, base64 public key), oldest first.

    With ``through``, only the keys published up to that one: the keys that were published
    while it was the newest. A game's first message carries those for its genesis's key,
    so that a resend, however much later, carries the same keys.
    """
    rows = session.execute(
        select(SigningKey.key_id, SigningKey.public).order_by(
            SigningKey.created_at, SigningKey.key_id
        )
    ).all()
    keys = [(row.key_id, row.public) for row in rows]
    ids = [kid for kid, _ in keys]
    return keys[: ids.index(through) + 1] if through in ids else keys


def append(
    session: Session,
    signer: Signer,
    now: datetime,
    chain: Chain,
    kind: str,
    build_data: DataBuilder,
    heads: tuple[Recorded, Head | None] | None = None,
) -> SignedEntry:
    """Append one entry to ``chain`` inside the caller's write transaction.

    ``build_data(seq)`` runs under the lock once the seq is fixed: a roll draws its dice
    there, so dice exist only inside the append and a rolled-back transaction shows none.
    The caller must hold the chain's lock in this transaction (a game's:
    :func:`lock_game`); ``heads``, when given, are the chain's heads read under that lock
    in this transaction (:func:`locked_heads`), else they are read here.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown ledger kind {kind!r}")
    conn = session.connection()
    last = _checked_head(conn, chain, heads)
    if last is None:
        seq, prev, at = 1, ZERO_HASH, now
    else:
        seq, prev = last.seq + 1, last.hash
        at = max(now.astimezone(UTC), parse_time(last.at).replace(tzinfo=UTC) + ONE_MICROSECOND)
    stamped = format_time(at)
    obj = {
        "v": FORMAT_VERSION,
        chain.owner: chain.number,
        "seq": seq,
        "kind": kind,
        "at": stamped,
        "prev": prev,
        "data": build_data(seq),
    }
    body = canonical_json(obj)
    publish_key(session, signer)
    written = SignedEntry(
        chain, seq, kind, stamped, body, body_hash(body), signer.sign(body), signer.key_id
    )
    _insert_and_record(conn, written)
    return written


def _insert_and_record(conn: Connection, entry: SignedEntry) -> None:
    """Write the entry and record it as the chain's head: the next append checks it."""
    queries, number = entry.chain.queries, entry.chain.number
    row = {
        "chain": number,
        "seq": entry.seq,
        "kind": entry.kind,
        "at": entry.at,
        "body": entry.body,
        "hash": entry.hash,
        "sig": entry.sig,
        "key_id": entry.key_id,
    }
    if conn.dialect.name == "postgresql":
        queries.append_and_record.execute(conn, row)
        return
    queries.insert_entry.execute(conn, row)
    queries.set_head.execute(conn, {"chain": number, "seq": entry.seq, "hash": entry.hash})


def entries(
    session: Session,
    chain: Chain,
    seqs: range | Collection[int] | None = None,
    *,
    newest_first: bool = False,
) -> list[SignedEntry]:
    """The chain's entries (all, a range of seqs, or the seqs named), in seq order."""
    rows = chain.queries.rows(session, chain.number, seqs, newest_first=newest_first)
    return [SignedEntry.of(chain, row) for row in rows]


def entry(session: Session, chain: Chain, seq: int) -> SignedEntry | None:
    found = entries(session, chain, (seq,))
    return found[0] if found else None


def exported(session: Session, chain: Chain) -> dict[str, Any]:
    """The whole ledger as exported, for the verifier: exact bodies, signatures, key ids."""
    return {"entries": [each.signed() for each in entries(session, chain)]}
