"""The one path every player-made entry takes: lock the game, honour a retry, check who
may write, check the game's state, append, and remember the retry key, in one transaction."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from dice_server import dice, ledger
from dice_server.db import writing
from dice_server.errors import Conflict, Forbidden, InvalidRequest
from dice_server.models import IdempotencyKey, LedgerEntry, Member, Seed
from dice_server.services import ServiceContext
from dice_server.services.games import check_participant, locked_game
from dice_server.verifier import canonical_json

MAX_KEY_LENGTH = 200


@dataclass(frozen=True)
class Retry:
    """An ``Idempotency-Key`` with the fingerprint of the request it came with."""

    key: str
    fingerprint: str

    @classmethod
    def of(cls, key: str | None, method: str, path: str, payload: Any) -> Retry | None:
        if key is None:
            return None
        key = key.strip()
        if not key or len(key) > MAX_KEY_LENGTH or not key.isprintable():
            raise InvalidRequest(
                f"Idempotency-Key: give 1 to {MAX_KEY_LENGTH} printable characters",
                "Idempotency-Key",
            )
        request = {"method": method, "path": path, "body": payload}
        return cls(key, hashlib.sha256(canonical_json(request)).hexdigest())


#: Builds the entry's data once the seq is fixed, from (seq, the game's open seed or None,
#: the member writing it).
Builder = Callable[[int, Seed | None, Member], dict[str, Any]]


def _earlier(session: Session, member_id: int, retry: Retry) -> LedgerEntry | None:
    row = session.execute(
        select(IdempotencyKey).where(
            IdempotencyKey.member_id == member_id, IdempotencyKey.key == retry.key
        )
    ).scalar_one_or_none()
    if row is None:
        return None
    if row.fingerprint != retry.fingerprint:
        raise Conflict(
            "Idempotency-Key was already used with a different request: use a new key",
            "Idempotency-Key",
        )
    return session.execute(
        select(LedgerEntry).where(
            LedgerEntry.game_number == row.game_number, LedgerEntry.seq == row.seq
        )
    ).scalar_one()


def record(
    ctx: ServiceContext,
    member_id: int,
    number: int,
    kind: str,
    build: Builder,
    *,
    needs_dice: bool,
    retry: Retry | None = None,
    check: Callable[[Session], None] | None = None,
) -> LedgerEntry:
    """Append a member's entry to game ``number``; a retry returns the first entry.

    A roll (``needs_dice``) needs an active game with an open seed commitment; a note may
    be sent to an ended game too (a dispute outlives the game). ``check`` runs any further
    test of the request against the game's records under the lock. Any refusal rolls the
    transaction back: nothing written, no seq consumed.
    """
    try:
        with writing(ctx.sessions) as session:
            game = locked_game(session, number)
            if retry is not None:
                earlier = _earlier(session, member_id, retry)
                if earlier is not None:
                    return earlier
            member = session.get(Member, member_id)
            if member is None:
                raise Forbidden("your membership no longer exists")
            if not member.confirmed:
                raise Forbidden("confirm your address before using the dice server")
            check_participant(game, member)
            if check is not None:
                check(session)
            seed_row = None
            if needs_dice:
                if game.status != "active":
                    raise Conflict(f"game {number} is {game.status}: no more rolls are accepted")
                seed_row = dice.open_seed(session, number)
                if seed_row is None:
                    raise Conflict(f"game {number} has no open seed commitment: no roll accepted")
            entry = ledger.append(
                session,
                ctx.keys.signer,
                ctx.clock(),
                number,
                kind,
                lambda seq: build(seq, seed_row, member),
            )
            if retry is not None:
                session.add(
                    IdempotencyKey(
                        member_id=member_id,
                        key=retry.key,
                        fingerprint=retry.fingerprint,
                        game_number=number,
                        seq=entry.seq,
                    )
                )
                session.flush()
            return entry
    except IntegrityError:
        raise Conflict(
            "Idempotency-Key is in use by another request at this moment: retry with the same key",
            "Idempotency-Key",
        ) from None


def thrower(ctx: ServiceContext, seq: int, seed_row: Seed | None) -> Callable[[int], list[int]]:
    """Draws the next ``count`` dice of entry ``seq`` each call, continuing one stream in
    thrown order; built only inside the entry's append."""
    if seed_row is None:
        raise RuntimeError("a roll was built without its seed")
    dice_of_entry = dice.stream(ctx.keys.seed_box, seed_row, seq)
    return lambda count: [next(dice_of_entry) for _ in range(count)]
