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
    Join,
    Select,
    Table,
    Update,
    and_,
    bindparam,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.orm import InstrumentedAttribute, Session

from dice_server.db import Prepared
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

#: The first die of a declared turn (dice_server.services.rolls.started).
TURN_ROLLED = Prepared(
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
    #: The owner row with its last entry and the seed rolls draw on, outer-joined (for a
    #: statement that reads what an append needs in one round trip), and those columns:
    #: ``head_seq``, ``head_hash``, ``last_seq``, ``last_hash``, ``last_at`` and
    #: ``seed_*`` (None when no seed is open); :func:`dice_server.ledger.locked_heads` and
    #: :func:`dice_server.dice.locked_seed` read them.
    with_heads: Join
    heads_and_seed: tuple[ColumnElement[Any], ...]
    #: SQLite: the entry's INSERT, then ``set_head`` recording the head it makes.
    insert_entry: Prepared
    set_head: Prepared
    #: PostgreSQL: both in one round trip (an INSERT in a WITH).
    append_and_record: Prepared
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
    key = owner.c[owner_key]
    last_seq = (
        select(func.max(entries.c.seq))
        .where(entries.c[chain_column] == key)
        .correlate(owner)
        .scalar_subquery()
    )
    open_seed = (
        select(seeds.c.id)
        .where(seeds.c[chain_column] == key, seeds.c.revealed_seq.is_(None))
        .order_by(seeds.c.commitment_seq.desc())
        .limit(1)
        .correlate(owner)
        .scalar_subquery()
    )
    with_last = owner.outerjoin(
        entries, and_(entries.c[chain_column] == key, entries.c.seq == last_seq)
    )
    head = select(
        owner.c.head_seq, owner.c.head_hash, entries.c.seq, entries.c.hash, entries.c.at
    ).select_from(with_last)
    heads_and_seed = (
        owner.c.head_seq,
        owner.c.head_hash,
        entries.c.seq.label("last_seq"),
        entries.c.hash.label("last_hash"),
        entries.c.at.label("last_at"),
        *(seeds.c[column].label(f"seed_{column}") for column in SEED_COLUMNS),
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
        head=head.where(key == chain),
        with_heads=with_last.outerjoin(seeds, seeds.c.id == open_seed),
        heads_and_seed=heads_and_seed,
        insert_entry=Prepared(insert(entries).values(values)),
        set_head=Prepared(
            update(owner)
            .where(owner.c[owner_key] == chain)
            .values(head_seq=bindparam("seq"), head_hash=bindparam("hash"))
        ),
        append_and_record=Prepared(
            update(owner)
            .where(owner.c[owner_key] == appended.c[chain_column])
            .values(head_seq=appended.c.seq, head_hash=appended.c.hash)
        ),
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

#: What an append to a game reads under its lock (SQLite: held by BEGIN IMMEDIATE;
#: PostgreSQL: :data:`GAME_ROW_LOCK`, taken first): the addresses its mail goes to, the
#: rules fixed at its creation (``low_luck``, ``ruleset``), where its turn stands
#: (``turn_*``: all None for a game without a kept position), its heads as
#: :attr:`ChainQueries.head` reads them (``head_*``, ``last_*``) and the seed rolls draw
#: on (``seed_*``: None when none is open): a roll needs nothing more before it appends.
GAME_LOCK = Prepared(
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
        *CHAINS["game"].heads_and_seed,
    )
    .select_from(
        CHAINS["game"]
        .with_heads.join(_axis, _axis.c.id == games.axis_id)
        .join(_allies, _allies.c.id == games.allies_id)
        .outerjoin(_mentor, _mentor.c.id == games.mentor_id)
        .outerjoin(_turns, _turns.c.game_number == games.number)
    )
    .where(games.number == bindparam("number"))
)
#: PostgreSQL's row lock on the game, taken by a statement of its own before
#: :data:`GAME_LOCK` reads: a statement that waited for a row lock sees the locked row as
#: committed since, but the rows it joins as they were when it began (READ COMMITTED).
GAME_ROW_LOCK = Prepared(
    select(games.number).where(games.number == bindparam("number")).with_for_update()
)
