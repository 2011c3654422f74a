"""Prebuilt Core statements for the hot path of an append (every roll and note).

Built once at import with bind parameters, so that each request skips building and
caching a new statement: through the ORM a statement costs about four times as much.
Services run them on ``session.connection()``, inside the session's transaction.
"""

from __future__ import annotations

from sqlalchemy import Update, bindparam, insert, select, true, update

from dice_server.models import Base

TABLES = Base.metadata.tables
games = TABLES["games"].c
members = TABLES["members"].c
seeds = TABLES["seeds"].c
entries = TABLES["ledger_entries"].c
retries = TABLES["idempotency_keys"].c

_axis, _allies, _mentor = (TABLES["members"].alias(name) for name in ("ax", "al", "me"))

#: The game's append lock (PostgreSQL: a row lock on the game; SQLite: already held by
#: BEGIN IMMEDIATE), with the addresses its mail goes to.
LOCK_GAME = (
    select(
        games.number,
        games.status,
        games.axis_id,
        games.allies_id,
        games.mentor_id,
        _axis.c.email.label("axis_email"),
        _allies.c.email.label("allies_email"),
        _mentor.c.email.label("mentor_email"),
    )
    .select_from(
        TABLES["games"]
        .join(_axis, _axis.c.id == games.axis_id)
        .join(_allies, _allies.c.id == games.allies_id)
        .outerjoin(_mentor, _mentor.c.id == games.mentor_id)
    )
    .where(games.number == bindparam("number"))
    .with_for_update(of=TABLES["games"])
)

MINISTERS = select(members.email).where(members.role == "minister").order_by(members.id)

ACTOR_COLUMNS = (members.id, members.email, members.role, members.confirmed, members.token_hash)
ACTOR_BY_TOKEN = select(*ACTOR_COLUMNS).where(members.token_hash == bindparam("digest"))
ACTOR_BY_ID = select(*ACTOR_COLUMNS).where(members.id == bindparam("id"))

OPEN_SEED = (
    select(seeds.id, seeds.game_number, seeds.commitment_seq, seeds.commitment, seeds.sealed)
    .where(seeds.game_number == bindparam("number"), seeds.revealed_seq.is_(None))
    .order_by(seeds.commitment_seq.desc())
    .limit(1)
)

_last_entry = (
    select(entries.seq, entries.hash, entries.at)
    .where(entries.game_number == bindparam("number"))
    .order_by(entries.seq.desc())
    .limit(1)
    .subquery("last_entry")
)

#: The game's head as its last append recorded it (``head_seq``, ``head_hash``) beside its
#: last entry as stored (``seq``, ``hash``, ``at``; None when it has none), in one round
#: trip: an append extends the chain only when the two agree.
HEAD = (
    select(games.head_seq, games.head_hash, _last_entry.c.seq, _last_entry.c.hash, _last_entry.c.at)
    .select_from(TABLES["games"].outerjoin(_last_entry, true()))
    .where(games.number == bindparam("number"))
)

#: Record the head an append wrote (on the row the append holds locked).
SET_HEAD = (
    update(TABLES["games"])
    .where(games.number == bindparam("chain"))
    .values(head_seq=bindparam("seq"), head_hash=bindparam("hash"))
)

tables = TABLES["dice_tables"].c
table_entries = TABLES["table_entries"].c

_last_table_entry = (
    select(table_entries.seq, table_entries.hash, table_entries.at)
    .where(table_entries.table_id == bindparam("table"))
    .order_by(table_entries.seq.desc())
    .limit(1)
    .subquery("last_entry")
)

TABLE_HEAD = (
    select(
        tables.head_seq,
        tables.head_hash,
        _last_table_entry.c.seq,
        _last_table_entry.c.hash,
        _last_table_entry.c.at,
    )
    .select_from(TABLES["dice_tables"].outerjoin(_last_table_entry, true()))
    .where(tables.id == bindparam("table"))
)

SET_TABLE_HEAD = (
    update(TABLES["dice_tables"])
    .where(tables.id == bindparam("chain"))
    .values(head_seq=bindparam("seq"), head_hash=bindparam("hash"))
)

INSERT_TABLE_ENTRY = insert(TABLES["table_entries"])


def _append_and_record(entry_table: str, chain_column: str, owner: str, key: str) -> Update:
    """PostgreSQL: insert the entry and record the head it makes in one round trip (an
    INSERT in a WITH; SQLite, in process, runs the INSERT and SET_HEAD one after the other)."""
    table, owner_table = TABLES[entry_table], TABLES[owner]
    columns = [column.name for column in table.columns if column.name != "id"]
    appended = (
        insert(table)
        .values({name: bindparam(name) for name in columns})
        .returning(table.c[chain_column], table.c.seq, table.c.hash)
        .cte("appended")
    )
    return (
        update(owner_table)
        .where(owner_table.c[key] == appended.c[chain_column])
        .values(head_seq=appended.c.seq, head_hash=appended.c.hash)
    )


APPEND_ENTRY_PG = _append_and_record("ledger_entries", "game_number", "games", "number")
APPEND_TABLE_ENTRY_PG = _append_and_record("table_entries", "table_id", "dice_tables", "id")

ENTRY = select(TABLES["ledger_entries"]).where(
    entries.game_number == bindparam("number"), entries.seq == bindparam("seq")
)

INSERT_ENTRY = insert(TABLES["ledger_entries"])

RETRY = select(retries.fingerprint, retries.game_number, retries.seq).where(
    retries.member_id == bindparam("member_id"), retries.key == bindparam("key")
)

INSERT_RETRY = insert(TABLES["idempotency_keys"])

INSERT_OUTBOX = insert(TABLES["outbox"])
