"""Commit-reveal dice seeds (DESIGN.md, "Dice").

A seed is drawn with ``secrets`` when a game is created (or reopened); only its SHA-256
commitment goes into the ledger. The seed is sealed at rest and opened only inside a
roll's append or at the reveal, when the game ends and anyone can recompute every die.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator

from sqlalchemy import select
from sqlalchemy.orm import Session

from dice_server.keys import SeedBox
from dice_server.models import Seed, TableSeed
from dice_server.verifier import dice_stream, seed_commitment

SEED_BYTES = 32


def _label(game: int, commitment_seq: int, chain: str = "game") -> str:
    return f"pbem-seed:{chain}:{game}:commitment:{commitment_seq}"


def _chain(row: Seed | TableSeed) -> tuple[str, int]:
    if isinstance(row, TableSeed):
        return "table", row.table_id
    return "game", row.game_number


def new_seed(session: Session, box: SeedBox, game: int, commitment_seq: int) -> tuple[Seed, str]:
    """Draw, seal and store a seed; return it with the commitment for the ledger."""
    seed = secrets.token_bytes(SEED_BYTES)
    commitment = seed_commitment(seed)
    row = Seed(
        game_number=game,
        commitment_seq=commitment_seq,
        commitment=commitment,
        sealed=box.seal(seed, _label(game, commitment_seq)),
    )
    session.add(row)
    return row, commitment


def open_seed(session: Session, game: int) -> Seed | None:
    """The game's unrevealed seed, if any (a revealed game has none until it reopens)."""
    return session.execute(
        select(Seed)
        .where(Seed.game_number == game, Seed.revealed_seq.is_(None))
        .order_by(Seed.commitment_seq.desc())
        .limit(1)
    ).scalar_one_or_none()


def new_table_seed(
    session: Session, box: SeedBox, table: int, commitment_seq: int
) -> tuple[TableSeed, str]:
    """A TripleA table's seed, drawn, sealed and stored like a game's."""
    seed = secrets.token_bytes(SEED_BYTES)
    commitment = seed_commitment(seed)
    row = TableSeed(
        table_id=table,
        commitment_seq=commitment_seq,
        commitment=commitment,
        sealed=box.seal(seed, _label(table, commitment_seq, "table")),
    )
    session.add(row)
    return row, commitment


def open_table_seed(session: Session, table: int) -> TableSeed | None:
    return session.execute(
        select(TableSeed)
        .where(TableSeed.table_id == table, TableSeed.revealed_seq.is_(None))
        .order_by(TableSeed.commitment_seq.desc())
        .limit(1)
    ).scalar_one_or_none()


def unseal(box: SeedBox, row: Seed | TableSeed) -> bytes:
    chain, number = _chain(row)
    seed = box.open(row.sealed, _label(number, row.commitment_seq, chain))
    if seed_commitment(seed) != row.commitment:
        raise RuntimeError(f"seed of {chain} {number} does not match its commitment")
    return seed


def stream(box: SeedBox, row: Seed | TableSeed, seq: int, sides: int = 6) -> Iterator[int]:
    """The dice of entry ``seq`` in thrown order: use only inside that entry's append."""
    return dice_stream(unseal(box, row), _chain(row)[1], seq, sides)
