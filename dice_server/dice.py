"""Commit-reveal dice seeds (DESIGN.md, "Dice").

A seed is drawn with ``secrets`` when a game or a TripleA table is created (or a game
reopened); only its SHA-256 commitment goes into the ledger. The seed is sealed at rest and
opened only inside a roll's append or at the reveal, when the chain ends and anyone can
recompute every die.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import dataclass

from sqlalchemy.orm import Session

from dice_server.db import Fetched
from dice_server.keys import SeedBox
from dice_server.ledger import Chain
from dice_server.verifier import dice_stream, seed_commitment

SEED_BYTES = 32


@dataclass(frozen=True, slots=True)
class SealedSeed:
    """A chain's dice seed as stored, sealed: committed by the entry at ``commitment_seq``,
    revealed by the entry at ``revealed_seq`` (None while rolls draw on it)."""

    chain: Chain
    id: int
    commitment_seq: int
    commitment: str
    sealed: bytes
    revealed_seq: int | None


def _label(chain: Chain, commitment_seq: int) -> str:
    return f"pbem-seed:{chain.owner}:{chain.number}:commitment:{commitment_seq}"


def new_seed(session: Session, box: SeedBox, chain: Chain, commitment_seq: int) -> str:
    """Draw, seal and store a seed for the entry at ``commitment_seq``; return its
    commitment for that entry."""
    seed = secrets.token_bytes(SEED_BYTES)
    commitment = seed_commitment(seed)
    session.connection().execute(
        chain.queries.insert_seed,
        {
            "chain": chain.number,
            "commitment_seq": commitment_seq,
            "commitment": commitment,
            "sealed": box.seal(seed, _label(chain, commitment_seq)),
        },
    )
    return commitment


def open_seed(session: Session, chain: Chain) -> SealedSeed | None:
    """The seed rolls draw on, if any (a revealed chain has none until a game reopens)."""
    row = session.connection().execute(chain.queries.open_seed, {"chain": chain.number}).first()
    return None if row is None else SealedSeed(chain, **row._mapping)


def locked_seed(chain: Chain, row: Fetched) -> SealedSeed | None:
    """:func:`open_seed` as a game's lock read it (``seed_*`` of
    :data:`dice_server.ledger_queries.GAME_LOCK`)."""
    if row.seed_id is None:
        return None
    return SealedSeed(
        chain,
        id=row.seed_id,
        commitment_seq=row.seed_commitment_seq,
        commitment=row.seed_commitment,
        sealed=row.seed_sealed,
        revealed_seq=row.seed_revealed_seq,
    )


def seeds(session: Session, chain: Chain) -> list[SealedSeed]:
    """Every seed of the chain, revealed or not, in the order committed."""
    rows = session.connection().execute(chain.queries.all_seeds, {"chain": chain.number})
    return [SealedSeed(chain, **row._mapping) for row in rows]


def mark_revealed(session: Session, seed: SealedSeed, seq: int) -> None:
    """Record that the entry at ``seq`` revealed ``seed``: no roll draws on it again."""
    session.connection().execute(seed.chain.queries.reveal_seed, {"seed": seed.id, "seq": seq})


def unseal(box: SeedBox, seed: SealedSeed) -> bytes:
    opened = box.open(seed.sealed, _label(seed.chain, seed.commitment_seq))
    if seed_commitment(opened) != seed.commitment:
        raise RuntimeError(f"seed of {seed.chain} does not match its commitment")
    return opened


def stream(box: SeedBox, seed: SealedSeed, seq: int, sides: int = 6) -> Iterator[int]:
    """The dice of entry ``seq`` in thrown order: use only inside that entry's append."""
    return dice_stream(unseal(box, seed), seed.chain.number, seq, sides)
