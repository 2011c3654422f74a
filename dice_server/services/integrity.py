"""The stored ledgers checked in place (``pbem ledger check``): what a player's verifier
checks of an export, run by the operator on the database itself, plus what only the
database holds: the stored columns beside each body, the head the last append recorded,
and the sealed seeds behind the commitments.

The walk over each chain is the standalone verifier's own (dice_server.verifier), so the
server accepts exactly what a player's copy of the verifier accepts.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from sqlalchemy import select
from sqlalchemy.orm import Session

from dice_server import dice, ledger
from dice_server.db import reading
from dice_server.dice import SealedSeed
from dice_server.errors import LedgerTampered, NotFound
from dice_server.keys import SeedBox
from dice_server.ledger import Chain, Head, Recorded, SignedEntry, head_mismatch
from dice_server.models import DiceTable, Game, SigningKey
from dice_server.services import ServiceContext
from dice_server.verifier import SEED_KINDS, LedgerVerifier, body_hash, load_keys

#: How the verifier names the entry a problem is about (its position in the chain).
_AT_ENTRY = re.compile(r"\Aentry (\d+): (.*)\Z", re.DOTALL)


@dataclass(frozen=True)
class Problem:
    """The first thing wrong with a chain: where (``seq 5``, ``head``, ``seeds``) and what."""

    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


@dataclass(frozen=True)
class ChainCheck:
    """One chain checked in place: a game's ledger or a TripleA table's."""

    chain: Chain
    entries: int
    head: Head | None
    problem: Problem | None

    @property
    def name(self) -> str:
        return str(self.chain)

    @property
    def ok(self) -> bool:
        return self.problem is None

    def line(self) -> str:
        if self.problem is not None:
            return f"{self.name}: PROBLEM at {self.problem}"
        assert self.head is not None
        return (
            f"{self.name}: ok, {self.entries} entries, head seq {self.head.seq} "
            f"(hash {self.head.hash})"
        )


def check_ledgers(
    ctx: ServiceContext, *, game: int | None = None, table: int | None = None
) -> Iterator[ChainCheck]:
    """Check game ``game`` and/or table ``table``, or (given neither) every game and every
    table, one chain per read transaction, yielding each as it is checked."""
    with reading(ctx.sessions) as session:
        _published_keys(session)  # a key that fails is reported before any chain
        chains: list[Chain] = []
        if game is not None:
            if session.get(Game, game) is None:
                raise NotFound(f"there is no game {game}: check the game number", "game")
            chains.append(Chain.game(game))
        if table is not None:
            if session.get(DiceTable, table) is None:
                raise NotFound(f"there is no table {table}: check the table id", "table")
            chains.append(Chain.table(table))
        if game is None and table is None:
            numbers = session.execute(select(Game.number).order_by(Game.number)).scalars()
            chains += [Chain.game(number) for number in numbers]
            ids = session.execute(select(DiceTable.id).order_by(DiceTable.id)).scalars()
            chains += [Chain.table(number) for number in ids]
    for chain in chains:
        with reading(ctx.sessions) as session:  # the keys as they were when the chain was
            keys = _published_keys(session)  # read (a rotation may sign its next entries)
            yield _check_chain(session, keys, ctx.keys.seed_box, chain)


def _published_keys(session: Session) -> dict[str, Ed25519PublicKey]:
    """The keys as published (``GET /api/v1/keys``): each id must match its key's bytes."""
    rows = session.execute(select(SigningKey).order_by(SigningKey.created_at)).scalars()
    doc = {"keys": [{"id": r.key_id, "alg": "Ed25519", "public": r.public} for r in rows]}
    if not doc["keys"]:
        return {}  # nothing signed yet (an entry signed by no published key fails its check)
    try:
        return load_keys(doc)
    except (KeyError, TypeError, ValueError) as exc:
        raise LedgerTampered(
            f"signing_keys: {exc}: the published keys are not as the server wrote them; "
            "restore them from a published copy (GET /api/v1/keys) before checking ledgers"
        ) from None


def _check_chain(
    session: Session, keys: dict[str, Ed25519PublicKey], box: SeedBox, chain: Chain
) -> ChainCheck:
    rows = ledger.entries(session, chain)
    recorded, _ = ledger.heads(session, chain)
    last = Head(rows[-1].seq, rows[-1].hash, rows[-1].at) if rows else None
    problem = (
        _first_entry_problem(keys, chain, rows)
        or _head_problem(recorded, last)
        or _seed_problem(box, rows, dice.seeds(session, chain))
    )
    return ChainCheck(chain, len(rows), last, problem)


def _first_entry_problem(
    keys: dict[str, Ed25519PublicKey], chain: Chain, rows: Sequence[SignedEntry]
) -> Problem | None:
    """The lowest-seq problem of the verifier's walk (signatures, canonical bodies, seq
    1..n without gaps, prev chain, time order, kinds, revealed dice) and of the stored
    columns beside each body."""
    if not rows:
        return Problem("seq 1", "missing: the ledger holds no entry, not even its genesis")
    found: list[tuple[int, str]] = []
    for text in LedgerVerifier(keys).verify([row.signed() for row in rows]).problems:
        match = _AT_ENTRY.match(text)
        if match is None:
            found.append((len(rows), text))
        else:
            found.append((min(int(match.group(1)), len(rows)), match.group(2)))
    for position, row in enumerate(rows, start=1):
        what = _column_problem(chain, row)
        if what is not None:
            found.append((position, what))
    if not found:
        return None
    position, what = min(found, key=lambda item: item[0])
    return Problem(f"seq {rows[position - 1].seq}", what)


def _column_problem(chain: Chain, row: SignedEntry) -> str | None:
    """The stored columns must be what the signed body says (the server reads them, not
    the body, to find a head and to list a ledger)."""
    if body_hash(row.body) != row.hash:
        return "the stored hash column is not the body's SHA-256"
    try:
        obj = json.loads(row.body)
    except (ValueError, RecursionError):
        return None  # the verifier's walk reports it
    if not isinstance(obj, dict):
        return None
    named = obj.get(chain.owner)
    if named != chain.number:
        return f"the body belongs to {chain.owner} {named!r}, not to {chain}"
    for column in ("seq", "kind", "at"):
        stored = getattr(row, column)
        if obj.get(column) != stored:
            return (
                f"the stored {column} column ({stored!r}) is not the body's ({obj.get(column)!r})"
            )
    return None


def _head_problem(recorded: Recorded, last: Head | None) -> Problem | None:
    mismatch = head_mismatch(recorded, last)
    return None if mismatch is None else Problem("head", mismatch)


def _seed_problem(
    box: SeedBox, rows: Sequence[SignedEntry], seeds: Sequence[SealedSeed]
) -> Problem | None:
    """Each commitment entry has its sealed seed, which opens to the committed hash; each
    reveal is recorded on the seed it reveals (an unrevealed seed is what rolls draw on)."""
    by_seq = {seed.commitment_seq: seed for seed in seeds}
    committed = set()
    for row in rows:
        data = json.loads(row.body).get("data", {})
        if row.kind in SEED_KINDS:
            committed.add(row.seq)
            seed = by_seq.get(row.seq)
            if seed is None:
                return Problem(f"seq {row.seq}", "no stored seed for this commitment")
            if seed.commitment != data.get("seed_commitment"):
                return Problem(f"seq {row.seq}", "the stored seed's commitment is not the entry's")
            try:
                dice.unseal(box, seed)
            except (InvalidTag, RuntimeError, ValueError):
                return Problem(f"seq {row.seq}", "the stored seed does not open to this commitment")
        elif row.kind == "seed-reveal":
            seed = by_seq.get(data.get("commitment_seq"))
            if seed is None or seed.revealed_seq != row.seq:
                return Problem(f"seq {row.seq}", "the seed it reveals is not recorded as revealed")
    orphans = sorted(set(by_seq) - committed)
    if orphans:
        return Problem(
            "seeds", f"a stored seed claims a commitment at seq {orphans[0]}, which has none"
        )
    return None
