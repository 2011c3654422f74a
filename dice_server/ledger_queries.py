"""Every query of the ledgers, written once for both kinds of chain.

A league game's ledger and a TripleA table's are stored alike: an owner row (``games``,
``dice_tables``) holding the head its last append recorded, its entries, and its seeds.
:class:`ChainQueries` is each query built over one kind's tables; :data:`CHAINS` holds the
two, keyed by the name a body gives its chain ("game", "table").

The hot path of an append (every roll and note) runs statements built once at import with
bind parameters, so that a request skips building and caching a new statement: through
the ORM a statement costs about four times as much. They run on ``session.connection()``,
inside the session's transaction, with the bind parameter ``chain`` naming the game's
number or the table's id. Pages, exports and mail read whole entries as ORM rows
(:meth:`ChainQueries.rows`), where the rows cost more than the statement.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    BindParameter,
    ColumnElement,
    Insert,
    Select,
    Table,
    Update,
    bindparam,
    insert,
    select,
    true,
    update,
)
from sqlalchemy.orm import InstrumentedAttribute, Session

from dice_server.models import Base, LedgerEntry, TableEntry

TABLES = Base.metadata.tables
games = TABLES["games"].c
members = TABLES["members"].c

#: The columns an append writes beside the chain's, each bound under its own name.
ENTRY_COLUMNS = ("seq", "kind", "at", "body", "hash", "sig", "key_id")
#: The columns a seed is read with (dice_server.dice.SealedSeed).
SEED_COLUMNS = ("id", "commitment_seq", "commitment", "sealed", "revealed_seq")

_axis, _allies, _mentor = (TABLES["members"].alias(name) for name in ("ax", "al", "me"))
_turns = TABLES["game_turns"]
_entries, _seeds = TABLES["ledger_entries"], TABLES["seeds"]
_last = (
    select(_entries.c.seq, _entries.c.hash, _entries.c.at)
    .where(_entries.c.game_number == bindparam("number"))
    .order_by(_entries.c.seq.desc())
    .limit(1)
    .subquery("last_entry")
)
_open_seed = (
    select(_seeds.c.id)
    .where(_seeds.c.game_number == games.number, _seeds.c.revealed_seq.is_(None))
    .order_by(_seeds.c.commitment_seq.desc())
    .limit(1)
    .correlate(TABLES["games"])
    .scalar_subquery()
)

#: What an append to a game reads under its lock (SQLite: held by BEGIN IMMEDIATE;
#: PostgreSQL: :data:`GAME_ROW_LOCK`, taken first): the addresses its mail goes to, the
#: rules fixed at its creation (``low_luck``, ``ruleset``), where its turn stands
#: (``turn_*``: all None for a game without a kept position), its heads as
#: :attr:`ChainQueries.head` reads them (``head_*``, ``last_*``) and the seed rolls draw
#: on (``seed_*``: None when none is open): a roll needs nothing more before it appends.
GAME_LOCK = (
    select(
        games.number,
        games.status,
        games.axis_id,
        games.allies_id,
        games.mentor_id,
        games.low_luck,
        games.ruleset,
        _axis.c.email.label("axis_email"),
        _allies.c.email.label("allies_email"),
        _mentor.c.email.label("mentor_email"),
        _turns.c.power.label("turn_power"),
        _turns.c.phase.label("turn_phase"),
        _turns.c.precombat_seq.label("turn_precombat_seq"),
        _turns.c.rolled_seq.label("turn_rolled_seq"),
        games.head_seq,
        games.head_hash,
        _last.c.seq.label("last_seq"),
        _last.c.hash.label("last_hash"),
        _last.c.at.label("last_at"),
        *(_seeds.c[column].label(f"seed_{column}") for column in SEED_COLUMNS),
    )
    .select_from(
        TABLES["games"]
        .join(_axis, _axis.c.id == games.axis_id)
        .join(_allies, _allies.c.id == games.allies_id)
        .outerjoin(_mentor, _mentor.c.id == games.mentor_id)
        .outerjoin(_turns, _turns.c.game_number == games.number)
        .outerjoin(_last, true())
        .outerjoin(_seeds, _seeds.c.id == _open_seed)
    )
    .where(games.number == bindparam("number"))
)
#: PostgreSQL's row lock on the game, taken by a statement of its own before
#: :data:`GAME_LOCK` reads: a statement that waited for a row lock sees the locked row as
#: committed since, but the rows it joins as they were when it began (READ COMMITTED).
GAME_ROW_LOCK = select(games.number).where(games.number == bindparam("number")).with_for_update()

#: The first die of a declared turn (dice_server.services.rolls.started).
TURN_ROLLED = (
    update(_turns)
    .where(
        _turns.c.game_number == bindparam("number"),
        _turns.c.phase == "combat",
        _turns.c.rolled_seq.is_(None),
    )
    .values(rolled_seq=bindparam("seq"))
)


@dataclass(frozen=True, eq=False)
class ChainQueries:
    """The queries of one kind of chain: its head, its append, its entries and its seeds."""

    #: The ORM class of its entries, and its column naming the chain.
    entry: type[LedgerEntry] | type[TableEntry]
    entry_chain: InstrumentedAttribute[int]
    #: The head its last append recorded (``head_seq``, ``head_hash``) beside its last
    #: entry as stored (``seq``, ``hash``, ``at``; None when it has none), in one round trip:
    #: an append extends the chain only when the two agree. No row: no such chain.
    head: Select[Any]
    #: SQLite: the entry's INSERT, then ``set_head`` recording the head it makes.
    insert_entry: Insert
    set_head: Update
    #: PostgreSQL: both in one round trip (an INSERT in a WITH).
    append_and_record: Update
    #: The seed rolls draw on: the latest commitment not yet revealed.
    open_seed: Select[Any]
    all_seeds: Select[Any]
    insert_seed: Insert
    #: Record the entry that revealed a seed (triggers refuse any other change of a seed).
    reveal_seed: Update

    def rows(
        self,
        session: Session,
        number: int,
        seqs: range | Collection[int] | None = None,
        *,
        newest_first: bool = False,
    ) -> list[LedgerEntry | TableEntry]:
        """The chain's entries as stored: all, a ``range`` of seqs (read with one index
        range scan), or the seqs named; in seq order, or newest first."""
        model = self.entry
        query: Select[Any] = select(model).where(self.entry_chain == number)
        if isinstance(seqs, range):
            query = query.where(model.seq.between(seqs.start, seqs.stop - 1))
        elif seqs is not None:
            query = query.where(model.seq.in_(seqs))
        order: ColumnElement[Any] = model.seq.desc() if newest_first else model.seq.asc()
        return list(session.execute(query.order_by(order)).scalars())


def _chain_queries(
    entry: type[LedgerEntry] | type[TableEntry],
    entry_chain: InstrumentedAttribute[int],
    owner: Table,
    owner_key: str,
    seeds: Table,
    chain_column: str,
) -> ChainQueries:
    entries = entry.__table__
    assert isinstance(entries, Table)
    chain: BindParameter[Any] = bindparam("chain")
    last_entry = (
        select(entries.c.seq, entries.c.hash, entries.c.at)
        .where(entries.c[chain_column] == chain)
        .order_by(entries.c.seq.desc())
        .limit(1)
        .subquery("last_entry")
    )
    head = (
        select(
            owner.c.head_seq,
            owner.c.head_hash,
            last_entry.c.seq,
            last_entry.c.hash,
            last_entry.c.at,
        )
        .select_from(owner.outerjoin(last_entry, true()))
        .where(owner.c[owner_key] == chain)
    )
    values = {chain_column: chain, **{column: bindparam(column) for column in ENTRY_COLUMNS}}
    appended = (
        insert(entries)
        .values(values)
        .returning(entries.c[chain_column], entries.c.seq, entries.c.hash)
        .cte("appended")
    )
    chain_seeds = select(*(seeds.c[column] for column in SEED_COLUMNS)).where(
        seeds.c[chain_column] == chain
    )
    return ChainQueries(
        entry=entry,
        entry_chain=entry_chain,
        head=head,
        insert_entry=insert(entries).values(values),
        set_head=update(owner)
        .where(owner.c[owner_key] == chain)
        .values(head_seq=bindparam("seq"), head_hash=bindparam("hash")),
        append_and_record=update(owner)
        .where(owner.c[owner_key] == appended.c[chain_column])
        .values(head_seq=appended.c.seq, head_hash=appended.c.hash),
        open_seed=chain_seeds.where(seeds.c.revealed_seq.is_(None))
        .order_by(seeds.c.commitment_seq.desc())
        .limit(1),
        all_seeds=chain_seeds.order_by(seeds.c.commitment_seq),
        insert_seed=insert(seeds).values(
            {
                chain_column: chain,
                "commitment_seq": bindparam("commitment_seq"),
                "commitment": bindparam("commitment"),
                "sealed": bindparam("sealed"),
            }
        ),
        reveal_seed=update(seeds)
        .where(seeds.c.id == bindparam("seed"))
        .values(revealed_seq=bindparam("seq")),
    )


#: Each kind of chain's queries, by the name its bodies give it.
CHAINS = {
    "game": _chain_queries(
        LedgerEntry,
        LedgerEntry.game_number,
        TABLES["games"],
        "number",
        TABLES["seeds"],
        "game_number",
    ),
    "table": _chain_queries(
        TableEntry,
        TableEntry.table_id,
        TABLES["dice_tables"],
        "id",
        TABLES["table_seeds"],
        "table_id",
    ),
}
