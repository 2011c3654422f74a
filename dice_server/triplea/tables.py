"""TripleA tables: rolls for TripleA clients, on the same ledger format, dice algorithm and
signatures as league games (DESIGN.md, "Rolls outside a league game").

A table is keyed by its set of addresses (and, for the legacy protocol, the game name; the
current protocol sends none, so its tables are keyed by the unordered, case-folded address
pair under "TripleA"). Every roll is a numbered entry: a reload-and-reroll shows as one more
roll, in order. A participant may close a table, revealing its seed (by a link mailed to
the participant: dice_server.triplea.closing); the next roll for the same key opens
a new table.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import BindParameter, bindparam, select, union
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from dice_server import dice, ledger
from dice_server.db import Prepared, reading, writing
from dice_server.dice import SealedSeed
from dice_server.errors import Conflict, Forbidden, InvalidRequest, NotFound, TooManyRequests
from dice_server.ledger import Chain, SignedEntry
from dice_server.ledger_queries import CHAINS
from dice_server.models import DiceAddress, DiceTable, Member
from dice_server.services import ServiceContext
from dice_server.services.members import normalize_email
from dice_server.services.outbox import Envelope, mail_states, publish
from dice_server.services.paging import Pager, read_page
from dice_server.services.throttle import take

MAX_DICE = 5000
MAX_SIDES = 5000
MAX_ADDRESSES = 10
CURRENT_GAME_NAME = "TripleA"


@dataclass(frozen=True)
class Limits:
    """Rolls allowed per address and per client in each window (held in the database, so
    across workers). The defaults allow a TripleA player's bursts."""

    per_address: int = 120
    per_client: int = 600
    window: timedelta = timedelta(minutes=1)


@dataclass(frozen=True)
class TripleaRoll:
    """A roll request as a TripleA client sends it, checked."""

    protocol: str
    count: int
    sides: int
    to: tuple[str, ...]
    cc: tuple[str, ...]
    game_name: str
    annotation: str

    @property
    def addresses(self) -> tuple[str, ...]:
        seen: dict[str, str] = {}
        for address in (*self.to, *self.cc):
            seen.setdefault(address.casefold(), address)
        return tuple(seen.values())

    @property
    def key(self) -> str:
        folded = sorted({a.casefold() for a in self.addresses})
        return json.dumps({"addresses": folded, "game": self.game_name}, sort_keys=True)


def _clean(text: str, limit: int) -> str:
    """One line of plain text: no control characters (they would break mail headers)."""
    return " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())[:limit]


def check_roll(
    protocol: str, count: str, sides: str, to: list[str], cc: list[str], subject: str
) -> TripleaRoll:
    """Check the fields; errors name the field but never echo the subject."""
    numbers = []
    for name, raw, limit in (("numdice", count, MAX_DICE), ("numsides", sides, MAX_SIDES)):
        if protocol == "current":
            name = {"numdice": "times", "numsides": "max"}[name]
        text = raw.strip()
        # ASCII digits only ("²" is a digit to isdigit()), and few enough for int().
        if not (text.isascii() and text.isdigit() and len(text) <= 9) or not (
            1 <= int(text) <= limit
        ):
            raise InvalidRequest(f"{name} must be a whole number from 1 to {limit}", name)
        numbers.append(int(text))
    if not to:
        raise InvalidRequest("no address to send the dice to", "roller")
    if len(to) + len(cc) > MAX_ADDRESSES:
        raise InvalidRequest(f"at most {MAX_ADDRESSES} addresses per roll", "roller")
    checked_to = tuple(normalize_email(a, "roller")[0] for a in to)
    checked_cc = tuple(normalize_email(a, "gm")[0] for a in cc)
    game, _, annotation = subject.partition(":")
    return TripleaRoll(
        protocol=protocol,
        count=numbers[0],
        sides=numbers[1],
        to=checked_to,
        cc=checked_cc,
        game_name=_clean(game, 200) or CURRENT_GAME_NAME,
        annotation=_clean(annotation, 400),
    )


@dataclass(frozen=True)
class OpenTable:
    """The table a roll is thrown on: its number and the id its public page goes by."""

    id: int
    public_id: str


@dataclass(frozen=True)
class TableRoll:
    entry: SignedEntry
    table: OpenTable
    dice: list[int]


_addresses = DiceAddress.__table__.c
_members = Member.__table__.c
_tables = DiceTable.__table__.c
_keys: BindParameter[str] = bindparam("keys", expanding=True)
#: Those of a roll's case-folded addresses that may receive dice, in one round trip.
REGISTERED = union(
    select(_addresses.email_key).where(
        _addresses.email_key.in_(_keys), _addresses.confirmed.is_(True)
    ),
    select(_members.email_key).where(_members.email_key.in_(_keys), _members.confirmed.is_(True)),
)
#: The open table of a key with what a roll on it needs, in one round trip: its heads and
#: the seed rolls draw on (:attr:`dice_server.ledger_queries.ChainQueries.heads_and_seed`).
#: Under the lock: SQLite's write lock, or on PostgreSQL :data:`TABLE_ROW_LOCK` taken first
#: (a statement that waited for a row lock would join the other tables as they were when
#: it began).
OPEN_TABLE = Prepared(
    select(_tables.id, _tables.public_id, *CHAINS["table"].heads_and_seed)
    .select_from(CHAINS["table"].with_heads)
    .where(_tables.open_key == bindparam("open_key"))
)
TABLE_ROW_LOCK = Prepared(
    select(_tables.id).where(_tables.open_key == bindparam("open_key")).with_for_update()
)


def registered(session: Session, addresses: tuple[str, ...]) -> list[str]:
    """Those of ``addresses`` that may receive rolls (registered and confirmed, or a
    confirmed member's)."""
    keys = {a.casefold(): a for a in addresses}
    found = set(session.connection().execute(REGISTERED, {"keys": list(keys)}).scalars())
    return [keys[k] for k in keys if k in found]


def _open_table(
    session: Session, ctx: ServiceContext, request: TripleaRoll, now: datetime
) -> tuple[OpenTable, SealedSeed | None, tuple[ledger.Recorded, ledger.Head | None] | None]:
    """The open table of the roll's key (opened now if there is none), locked, with its
    open seed and, for a table opened before, its heads as read under the lock."""
    open_key = hashlib.sha256(request.key.encode()).hexdigest()
    conn = session.connection()
    locked = conn.dialect.name == "sqlite" or (
        TABLE_ROW_LOCK.first(conn, {"open_key": open_key}) is not None
    )
    found = OPEN_TABLE.first(conn, {"open_key": open_key}) if locked else None
    if found is not None:
        chain = Chain.table(found.id)
        opened = OpenTable(found.id, found.public_id)
        return opened, dice.locked_seed(chain, found), ledger.locked_heads(found)
    table = DiceTable(
        public_id=secrets.token_urlsafe(16),
        key=request.key,
        open_key=open_key,
        game_name=request.game_name,
        protocol=request.protocol,
        addresses=json.dumps(list(request.addresses)),
    )
    session.add(table)
    session.flush()
    chain = Chain.table(table.id)
    commitment = dice.new_seed(session, ctx.keys.seed_box, chain, 1)
    publish(
        session,
        ctx,
        now,
        chain,
        "genesis",
        lambda _seq: {
            "addresses": recorded(request.addresses),
            "game_name": request.game_name,
            "protocol": request.protocol,
            "seed_commitment": commitment,
        },
        Envelope(request.addresses),
    )
    return OpenTable(table.id, table.public_id), dice.open_seed(session, chain), None


def roll(ctx: ServiceContext, request: TripleaRoll, client: str, limits: Limits) -> TableRoll:
    """Throw ``count`` dice of ``sides`` on the table of these addresses."""
    try:
        return _roll(ctx, request, client, limits)
    except IntegrityError:
        # Two first rolls for one key raced to open its table: the loser rolls on it now.
        return _roll(ctx, request, client, limits)


def _roll(ctx: ServiceContext, request: TripleaRoll, client: str, limits: Limits) -> TableRoll:
    now = ctx.clock()
    with writing(ctx.sessions) as session:
        allowed = registered(session, request.addresses)
        missing = [a for a in request.addresses if a not in allowed]
        if missing:
            raise Forbidden(
                f"{missing[0]} is not registered to receive dice: register it at "
                f"{ctx.mail.link('tables.register')}",
                "roller",
            )
        for key, limit in [
            *((f"triplea:address:{a.casefold()}", limits.per_address) for a in request.addresses),
            (f"triplea:client:{client}", limits.per_client),
        ]:
            if not take(session, key, limit, limits.window, now):
                raise TooManyRequests("too many rolls: wait a minute and roll again")
        table, seed, heads = _open_table(session, ctx, request, now)
        chain = Chain.table(table.id)
        if seed is None:
            raise Conflict(f"table {table.id} has no open seed")
        thrown: list[int] = []

        def build(seq: int) -> dict[str, Any]:
            stream = dice.stream(ctx.keys.seed_box, seed, seq, request.sides)
            thrown.extend(next(stream) for _ in range(request.count))
            return {
                "game_name": request.game_name,
                "annotation": request.annotation,
                "protocol": request.protocol,
                "to": recorded(request.to),
                "cc": recorded(request.cc),
                "count": request.count,
                "sides": request.sides,
                "dice": list(thrown),
            }

        entry = publish(
            session, ctx, now, chain, "roll", build, Envelope(request.to, request.cc), heads
        )
        return TableRoll(entry=entry, table=table, dice=thrown)


@dataclass(frozen=True)
class TableRow:
    seq: int
    at: str
    kind: str
    annotation: str
    dice: list[int]
    sides: int
    mail: str


@dataclass(frozen=True)
class TableView:
    """A page of a table's rolls, newest first."""

    table: DiceTable
    masked: list[str]
    rows: list[TableRow]
    pages: Pager


def mask(address: str) -> str:
    local, _, domain = address.partition("@")
    return f"{local[:1]}{'•' * 3}@{domain}"


def address_digest(address: str) -> str:
    """How a table's ledger names an address: a player can check his own (sha256 of the
    case-folded address), while a ledger posted in a dispute shows nobody's."""
    return hashlib.sha256(address.casefold().encode()).hexdigest()[:16]


def recorded(addresses: tuple[str, ...]) -> list[str]:
    return [f"{mask(a)} sha256:{address_digest(a)}" for a in addresses]


def by_public_id(session: Session, public_id: str, *, lock: bool = False) -> DiceTable:
    """The table of a page link; ``lock`` takes its row lock (SQLite: the write lock is
    already held) before anything is read of it."""
    query = select(DiceTable).where(DiceTable.public_id == public_id)
    table = session.execute(query.with_for_update() if lock else query).scalar_one_or_none()
    if table is None:
        raise NotFound("there is no such table: check the link in your roll mail")
    return table


def view(ctx: ServiceContext, public_id: str, start: int | None = None) -> TableView:
    """One page of the table's rolls, down from entry ``start`` (else the newest): only
    that page's entries and their messages are read."""
    with reading(ctx.sessions) as session:
        table = by_public_id(session, public_id)
        chain = Chain.table(table.id)
        page = read_page(session, chain, start)
        mail = mail_states(session, ctx.mail_domain, chain, page.entries)
        rows = []
        for entry in page.entries:
            data = json.loads(entry.body)["data"]
            rows.append(
                TableRow(
                    seq=entry.seq,
                    at=entry.at,
                    kind=entry.kind,
                    annotation=data.get("annotation", ""),
                    dice=data.get("dice", []),
                    sides=data.get("sides", 0),
                    mail=mail.get(entry.seq, "not queued"),
                )
            )
        return TableView(
            table=table,
            masked=[mask(a) for a in json.loads(table.addresses)],
            rows=rows,
            pages=page.pages,
        )


def reveal_seed(
    session: Session, ctx: ServiceContext, table: DiceTable, now: datetime
) -> SignedEntry:
    """Close the table: reveal its seed, so that every die of it can be recomputed. The
    caller holds the table's lock (:func:`by_public_id` with ``lock``) and has checked who
    asks (dice_server.triplea.closing)."""
    if table.status != "open":
        raise Conflict("this table is already closed")
    chain = Chain.table(table.id)
    sealed = dice.open_seed(session, chain)
    if sealed is None:
        raise Conflict("this table has no open seed")
    seed = dice.unseal(ctx.keys.seed_box, sealed)
    entry = publish(
        session,
        ctx,
        now,
        chain,
        "seed-reveal",
        lambda _seq: {
            "status": "closed",
            "seed": seed.hex(),
            "commitment_seq": sealed.commitment_seq,
        },
        Envelope(tuple(json.loads(table.addresses))),
    )
    dice.mark_revealed(session, sealed, entry.seq)
    table.status, table.open_key, table.closed_at = "closed", None, now
    return entry


def export(ctx: ServiceContext, table_id: int) -> dict[str, Any]:
    with reading(ctx.sessions) as session:
        if session.get(DiceTable, table_id) is None:
            raise NotFound(f"there is no table {table_id}")
        return ledger.exported(session, Chain.table(table_id))


def export_by_link(ctx: ServiceContext, public_id: str) -> dict[str, Any]:
    """The whole signed ledger of the table of a page link, for the verifier."""
    with reading(ctx.sessions) as session:
        table = by_public_id(session, public_id)
        return ledger.exported(session, Chain.table(table.id))
