"""The one path every player-made entry takes: lock the game, honour a retry, check who
may write, check the game's state, append, and remember the retry key, in one transaction.

This is the hot path of the dice server (every roll and note), so it runs statements
built once at import (here, and the ledger's in :mod:`dice_server.ledger_queries`) rather
than ORM queries.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, bindparam, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from dice_server import dice, ledger
from dice_server.db import Fetched, Prepared, writing
from dice_server.dice import SealedSeed
from dice_server.errors import (
    Conflict,
    Forbidden,
    InvalidRequest,
    NotFound,
    TooManyRequests,
    Unauthorized,
)
from dice_server.ledger import Chain, SignedEntry
from dice_server.models import Base, utcnow
from dice_server.services import ServiceContext
from dice_server.services.games import check_participant
from dice_server.services.members import hash_token
from dice_server.services.outbox import Envelope, ministers, publish
from dice_server.services.throttle import admit

log = logging.getLogger(__name__)

MAX_KEY_LENGTH = 200

_members = Base.metadata.tables["members"].c
_retries = Base.metadata.tables["idempotency_keys"]
_ACTOR = (_members.id, _members.email, _members.role, _members.confirmed, _members.token_hash)
ACTOR_BY_TOKEN = Prepared(select(*_ACTOR).where(_members.token_hash == bindparam("digest")))
ACTOR_BY_ID = Prepared(select(*_ACTOR).where(_members.id == bindparam("id")))
RETRY = Prepared(
    select(_retries.c.fingerprint, _retries.c.game_number, _retries.c.seq).where(
        _retries.c.member_id == bindparam("member_id"), _retries.c.key == bindparam("key")
    )
)
REMEMBER_RETRY = Prepared(
    insert(_retries),
    column_keys=("member_id", "key", "fingerprint", "game_number", "seq", "created_at"),
)


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
        row = ACTOR_BY_TOKEN.first(conn, {"digest": digest})
        if row is None or not hmac.compare_digest(row.token_hash, digest):
            raise Unauthorized("unknown API token: send Authorization: Bearer <your token>")
    else:
        row = ACTOR_BY_ID.first(conn, {"id": who})
        if row is None:
            raise Forbidden("your membership no longer exists")
    return Actor(id=row.id, email=row.email, role=row.role, confirmed=bool(row.confirmed))


#: What a channel writes with the entry, in its transaction (the mail gateway marks the
#: message it came in and queues its receipt): both or neither.
Also = Callable[[Session, SignedEntry], None]

#: A further test of a request under the game's lock, from the session, the member writing
#: and the game's row as locked (:data:`dice_server.ledger_queries.GAME_LOCK`).
Check = Callable[[Session, Actor, Fetched], None]

#: Builds the entry's data once the seq is fixed, from (seq, the game's open seed or None,
#: the member writing it).
Builder = Callable[[int, SealedSeed | None, Actor], dict[str, Any]]


def _earlier(session: Session, actor: Actor, retry: Retry) -> SignedEntry | None:
    conn = session.connection()
    row = RETRY.first(conn, {"member_id": actor.id, "key": retry.key})
    if row is None:
        return None
    if row.fingerprint != retry.fingerprint:
        raise Conflict(
            "Idempotency-Key was already used with a different request: use a new key",
            "Idempotency-Key",
        )
    entry = ledger.entry(session, Chain.game(row.game_number), row.seq)
    if entry is None:
        raise LookupError(f"game {row.game_number} has no entry {row.seq} for a retry key")
    return entry


def record(
    ctx: ServiceContext,
    who: Who,
    number: int,
    kind: str,
    build: Builder,
    *,
    needs_dice: bool,
    retry: Retry | None = None,
    check: Check | None = None,
    cc_ministers: bool = False,
    also: Also | None = None,
) -> SignedEntry:
    """Append a member's entry to game ``number``; a retry returns the first entry.

    A roll (``needs_dice``) needs an active game with an open seed commitment; a note may
    be sent to an ended game too (a dispute outlives the game). ``check`` runs any further
    test of the request against the game's records, and of the member writing it, under
    the lock; ``also`` writes what the channel keeps with the entry, in its transaction.
    The entry's message goes to the players, Cc the mentor (and the Minister of Law when
    ``cc_ministers``). Any refusal rolls the transaction back: nothing written, no seq
    consumed. A new entry (not a retry's) is then shown to the rules engine.
    """
    try:
        with writing(ctx.sessions) as session:
            game = ledger.lock_game(session, number)
            conn = session.connection()
            actor = resolve(conn, who)
            if game is None:
                raise NotFound(f"there is no game {number}: check the game number", "game")
            chain = Chain.game(number)
            if retry is not None:
                earlier = _earlier(session, actor, retry)
                if earlier is not None:
                    return earlier
            if not actor.confirmed:
                raise Forbidden("confirm your address before using the dice server")
            check_participant(number, {game.axis_id, game.allies_id, game.mentor_id}, actor)
            _within_limit(session, ctx, actor, number)
            if check is not None:
                check(session, actor, game)
            seed = None
            if needs_dice:
                if game.status != "active":
                    raise Conflict(f"game {number} is {game.status}: no more rolls are accepted")
                seed = dice.locked_seed(chain, game)
                if seed is None:
                    raise Conflict(f"game {number} has no open seed commitment: no roll accepted")
            built: list[dict[str, Any]] = []

            def data(seq: int) -> dict[str, Any]:
                built.append(build(seq, seed, actor))
                return built[-1]

            entry = publish(
                session,
                ctx,
                ctx.clock(),
                chain,
                kind,
                data,
                Envelope.each_once(
                    (game.axis_email, game.allies_email),
                    (game.mentor_email, *(ministers(session) if cc_ministers else ())),
                ),
                ledger.locked_heads(game),
            )
            if also is not None:
                also(session, entry)
            if retry is not None:
                REMEMBER_RETRY.execute(
                    conn,
                    {
                        "member_id": actor.id,
                        "key": retry.key,
                        "fingerprint": retry.fingerprint,
                        "game_number": number,
                        "seq": entry.seq,
                        "created_at": utcnow(),
                    },
                )
    except IntegrityError:
        raise Conflict(
            "Idempotency-Key is in use by another request at this moment: retry with the same key",
            "Idempotency-Key",
        ) from None
    _looked_at(ctx, number, entry, built[-1])  # after the commit
    return entry


def _looked_at(ctx: ServiceContext, number: int, entry: SignedEntry, data: dict[str, Any]) -> None:
    """Have the rules engine look at the game when a new entry (whose data is ``data``) may
    hold an error it rules on (dice_server.services.proposals), after it is committed."""
    from dice_server.services.proposals import propose_for, worth_a_look

    try:
        if worth_a_look(entry.kind, data):
            propose_for(ctx, number)
    except Exception:  # the entry is recorded: a failure here must not say otherwise
        log.exception("rulings: proposing after entry %s of game %s failed", entry.seq, number)


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


def thrower(ctx: ServiceContext, seq: int, seed: SealedSeed | None) -> Callable[[int], list[int]]:
    """Draws the next ``count`` dice of entry ``seq`` each call, continuing one stream in
    thrown order; built only inside the entry's append."""
    if seed is None:
        raise RuntimeError("a roll was built without its seed")
    dice_of_entry = dice.stream(ctx.keys.seed_box, seed, seq)
    return lambda count: [next(dice_of_entry) for _ in range(count)]
