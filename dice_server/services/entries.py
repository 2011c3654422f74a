"""The one path every player-made entry takes: lock the game, honour a retry, check who
may write, check the game's state, append, and remember the retry key, in one transaction.

This is the hot path of the dice server (every roll and note), so it runs the prebuilt
Core statements of :mod:`dice_server.statements` rather than ORM queries.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from dice_server import dice, statements
from dice_server.db import writing
from dice_server.errors import (
    Conflict,
    Forbidden,
    InvalidRequest,
    NotFound,
    TooManyRequests,
    Unauthorized,
)
from dice_server.models import LedgerEntry, Seed
from dice_server.services import ServiceContext
from dice_server.services.games import check_participant
from dice_server.services.members import hash_token
from dice_server.services.outbox import ministers, publish
from dice_server.services.throttle import admit

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
        return cls(key, fingerprint(method, path, payload))


def fingerprint(method: str, path: str, payload: Any) -> str:
    """SHA-256 of the request, defined for any parsed JSON: it is taken before the body is
    checked, so a boolean, a null or a lone surrogate must get one (the check then refuses
    them) rather than crash. For a body the ledger can hold, the bytes hashed are exactly its
    canonical JSON (the fingerprints stored before this function keep matching); a lone
    surrogate is hashed as the three bytes it would take were it encodable ("surrogatepass"),
    which no valid text encodes to, so distinct requests keep distinct fingerprints.
    """
    request = {"method": method, "path": path, "body": payload}
    try:
        text = json.dumps(request, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError):
        raise InvalidRequest(
            "the request holds a value JSON cannot carry: send integers and strings only"
        ) from None
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class ApiToken:
    """The member is whoever holds this API token (checked inside the transaction)."""

    token: str


#: Who writes: a member id (already authenticated, as by a login) or an API token.
Who = int | ApiToken


@dataclass(frozen=True)
class Actor:
    """The member writing an entry, as read under the game's lock."""

    id: int
    email: str
    role: str
    confirmed: bool

    @property
    def is_minister(self) -> bool:
        return self.role == "minister"


def resolve(conn: Connection, who: Who) -> Actor:
    if isinstance(who, ApiToken):
        digest = hash_token(who.token)
        row = conn.execute(statements.ACTOR_BY_TOKEN, {"digest": digest}).first()
        if row is None or not hmac.compare_digest(row.token_hash, digest):
            raise Unauthorized("unknown API token: send Authorization: Bearer <your token>")
    else:
        row = conn.execute(statements.ACTOR_BY_ID, {"id": who}).first()
        if row is None:
            raise Forbidden("your membership no longer exists")
    return Actor(id=row.id, email=row.email, role=row.role, confirmed=bool(row.confirmed))


#: Builds the entry's data once the seq is fixed, from (seq, the game's open seed or None,
#: the member writing it).
Builder = Callable[[int, Seed | None, Actor], dict[str, Any]]


def _earlier(conn: Connection, actor: Actor, retry: Retry) -> LedgerEntry | None:
    row = conn.execute(statements.RETRY, {"member_id": actor.id, "key": retry.key}).first()
    if row is None:
        return None
    if row.fingerprint != retry.fingerprint:
        raise Conflict(
            "Idempotency-Key was already used with a different request: use a new key",
            "Idempotency-Key",
        )
    entry = conn.execute(statements.ENTRY, {"number": row.game_number, "seq": row.seq}).one()
    return LedgerEntry(**entry._asdict())


def record(
    ctx: ServiceContext,
    who: Who,
    number: int,
    kind: str,
    build: Builder,
    *,
    needs_dice: bool,
    retry: Retry | None = None,
    check: Callable[[Session], None] | None = None,
    cc_ministers: bool = False,
) -> LedgerEntry:
    """Append a member's entry to game ``number``; a retry returns the first entry.

    A roll (``needs_dice``) needs an active game with an open seed commitment; a note may
    be sent to an ended game too (a dispute outlives the game). ``check`` runs any further
    test of the request against the game's records under the lock. The entry's message goes
    to the players, Cc the mentor (and the Minister of Law when ``cc_ministers``). Any
    refusal rolls the
    transaction back: nothing written, no seq consumed.
    """
    try:
        with writing(ctx.sessions) as session:
            conn = session.connection()
            game = conn.execute(statements.LOCK_GAME, {"number": number}).first()
            actor = resolve(conn, who)
            if game is None:
                raise NotFound(f"there is no game {number}: check the game number", "game")
            if retry is not None:
                earlier = _earlier(conn, actor, retry)
                if earlier is not None:
                    return earlier
            if not actor.confirmed:
                raise Forbidden("confirm your address before using the dice server")
            check_participant(number, {game.axis_id, game.allies_id, game.mentor_id}, actor)
            _within_limit(session, ctx, actor, number)
            if check is not None:
                check(session)
            seed_row = None
            if needs_dice:
                if game.status != "active":
                    raise Conflict(f"game {number} is {game.status}: no more rolls are accepted")
                found = conn.execute(statements.OPEN_SEED, {"number": number}).first()
                if found is None:
                    raise Conflict(f"game {number} has no open seed commitment: no roll accepted")
                seed_row = Seed(**found._asdict())
            entry = publish(
                session,
                ctx,
                ctx.clock(),
                number,
                kind,
                lambda seq: build(seq, seed_row, actor),
                to=(game.axis_email, game.allies_email),
                cc=(game.mentor_email, *(ministers(session) if cc_ministers else ())),
            )
            if retry is not None:
                conn.execute(
                    statements.INSERT_RETRY,
                    {
                        "member_id": actor.id,
                        "key": retry.key,
                        "fingerprint": retry.fingerprint,
                        "game_number": number,
                        "seq": entry.seq,
                    },
                )
            return entry
    except IntegrityError:
        raise Conflict(
            "Idempotency-Key is in use by another request at this moment: retry with the same key",
            "Idempotency-Key",
        ) from None


def _within_limit(session: Session, ctx: ServiceContext, actor: Actor, number: int) -> None:
    limit = ctx.entry_limit
    wait = admit(session, f"entries:{actor.id}:{number}", limit.entries, limit.window, ctx.clock())
    if wait is not None:
        seconds = int(wait.total_seconds()) + 1
        raise TooManyRequests(
            f"more than {limit.entries} rolls and notes in {int(limit.window.total_seconds())} "
            f"seconds for game {number}: wait {seconds} seconds and send it again",
            retry_after=seconds,
        )


def thrower(ctx: ServiceContext, seq: int, seed_row: Seed | None) -> Callable[[int], list[int]]:
    """Draws the next ``count`` dice of entry ``seq`` each call, continuing one stream in
    thrown order; built only inside the entry's append."""
    if seed_row is None:
        raise RuntimeError("a roll was built without its seed")
    dice_of_entry = dice.stream(ctx.keys.seed_box, seed_row, seq)
    return lambda count: [next(dice_of_entry) for _ in range(count)]
