"""Storage: SQLAlchemy 2.0 typed models. Models never commit; services own transactions."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class Member(Base):
    """A league member. Addresses are unique whatever their letter case."""

    __tablename__ = "members"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(320))
    email_key: Mapped[str] = mapped_column(String(320), unique=True)
    name: Mapped[str] = mapped_column(String(100))
    role: Mapped[str] = mapped_column(String(16), default="player")
    confirmed: Mapped[bool] = mapped_column(default=False)
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(255))
    calendar_token: Mapped[str | None] = mapped_column(String(64), index=True, unique=True)
    """The secret of the member's calendar link (dice_server.services.calendar): it opens
    only his games' forfeit lines, so it is kept as it is, to be shown again."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    @property
    def is_minister(self) -> bool:
        return self.role == "minister"

    # Flask-Login's user protocol (the storage layer knows nothing else of the web).
    @property
    def is_authenticated(self) -> bool:
        return True

    @property
    def is_active(self) -> bool:
        return True

    @property
    def is_anonymous(self) -> bool:
        return False

    def get_id(self) -> str:
        return str(self.id)


class Game(Base):
    """A league game between two members; its ledger is the record of everything rolled."""

    __tablename__ = "games"

    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    axis_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    allies_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    mentor_id: Mapped[int | None] = mapped_column(ForeignKey("members.id"))
    variant: Mapped[str | None] = mapped_column(Text)
    low_luck: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Battle rounds are thrown by Low Luck (``low-luck-roll`` entries), as its genesis says."""
    ruleset: Mapped[str] = mapped_column(String(32), default="classic", server_default="classic")
    """The rules its battle rounds are thrown and read by: ``classic`` or ``big_world_1942``
    (its genesis records a ruleset other than Classic)."""
    status: Mapped[str] = mapped_column(String(16), default="active")
    winner: Mapped[str | None] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The seq and body hash of the last entry this server appended (None before the
    # genesis): each append checks the ledger still ends there (dice_server.ledger).
    head_seq: Mapped[int | None] = mapped_column(Integer)
    head_hash: Mapped[str | None] = mapped_column(String(64))

    axis: Mapped[Member] = relationship(foreign_keys=[axis_id])
    allies: Mapped[Member] = relationship(foreign_keys=[allies_id])
    mentor: Mapped[Member | None] = relationship(foreign_keys=[mentor_id])
    agreements: Mapped[list[Agreement]] = relationship(
        order_by="Agreement.position", cascade="all, delete-orphan"
    )

    def participant_ids(self) -> set[int]:
        ids = {self.axis_id, self.allies_id}
        if self.mentor_id is not None:
            ids.add(self.mentor_id)
        return ids


class GameTurn(Base):
    """Where a game stands: the position at the start of the current turn and whose turn
    it is (IAAPA Declaration and Battle Resolution Procedures: a pre-combat email, the
    battles, a post-combat email). Kept beside the ledger so a submission or a roll need
    not replay the game; the ledger alone rebuilds it (dice_server.services.turns)."""

    __tablename__ = "game_turns"

    game_number: Mapped[int] = mapped_column(ForeignKey("games.number"), primary_key=True)
    position: Mapped[str] = mapped_column(Text)
    """The position JSON (canonical) at the start of the current turn."""
    position_sha256: Mapped[str] = mapped_column(String(64))
    round: Mapped[int] = mapped_column(Integer)
    power: Mapped[str] = mapped_column(String(16))
    phase: Mapped[str] = mapped_column(String(16), default="pre-combat")
    """``pre-combat`` (waiting for the mover's pre-combat turn) or ``combat`` (declared:
    battles are rolled; the post-combat turn ends it)."""
    precombat_seq: Mapped[int | None] = mapped_column(Integer)
    """The pre-combat submission in force for the current turn."""
    rolled_seq: Mapped[int | None] = mapped_column(Integer)
    """The first roll of the current turn: combat moves may be amended until it."""
    previous_position: Mapped[str | None] = mapped_column(Text)
    """The start of the last finished turn, for an amendment of its post-combat orders."""
    previous_precombat_seq: Mapped[int | None] = mapped_column(Integer)
    previous_postcombat_seq: Mapped[int | None] = mapped_column(Integer)


class Agreement(Base):
    """A gentlemen's agreement recorded with the game (not enforced by the league)."""

    __tablename__ = "agreements"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_number: Mapped[int] = mapped_column(ForeignKey("games.number"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)


class SigningKey(Base):
    """A published Ed25519 public key; kept after rotation so old entries still verify."""

    __tablename__ = "signing_keys"

    key_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    public: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SeedFields:
    """A dice seed, sealed at rest, committed by the entry at ``commitment_seq`` of its
    ledger, revealed by the entry at ``revealed_seq``."""

    id: Mapped[int] = mapped_column(primary_key=True)
    commitment_seq: Mapped[int] = mapped_column(Integer)
    commitment: Mapped[str] = mapped_column(String(64))
    sealed: Mapped[bytes] = mapped_column(LargeBinary)
    revealed_seq: Mapped[int | None] = mapped_column(Integer)


class SignedEntryFields:
    """One signed entry of a ledger (a game's or a table's): the exact body bytes, their
    hash (the next entry's ``prev``) and signature."""

    id: Mapped[int] = mapped_column(primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    at: Mapped[str] = mapped_column(String(27))
    body: Mapped[bytes] = mapped_column(LargeBinary)
    hash: Mapped[str] = mapped_column(String(64))
    sig: Mapped[str] = mapped_column(String(88))
    key_id: Mapped[str] = mapped_column(ForeignKey("signing_keys.key_id"))

    def signed(self) -> dict[str, str]:
        """The entry as exported and mailed: exact body text, signature, key id."""
        return {"body": self.body.decode("utf-8"), "sig": self.sig, "key": self.key_id}


class Seed(SeedFields, Base):
    """A game's dice seed."""

    __tablename__ = "seeds"
    __table_args__ = (UniqueConstraint("game_number", "commitment_seq"),)

    game_number: Mapped[int] = mapped_column(ForeignKey("games.number"), index=True)


class LedgerEntry(SignedEntryFields, Base):
    """One entry of a game's ledger. Append-only: triggers refuse UPDATE and DELETE."""

    __tablename__ = "ledger_entries"
    __table_args__ = (UniqueConstraint("game_number", "seq"),)

    game_number: Mapped[int] = mapped_column(ForeignKey("games.number"))


class IdempotencyKey(Base):
    """A client's ``Idempotency-Key``: a retry of the same request returns the same entry."""

    __tablename__ = "idempotency_keys"
    __table_args__ = (UniqueConstraint("member_id", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    key: Mapped[str] = mapped_column(String(200))
    fingerprint: Mapped[str] = mapped_column(String(64))
    game_number: Mapped[int] = mapped_column(ForeignKey("games.number"))
    seq: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class OutboxMessage(Base):
    """A message waiting for, or past, delivery. Queued in the same transaction as what it
    announces; claimed by a conditional UPDATE; never deleted (a failure stays reported).

    An entry's message is rendered at delivery from the immutable entry, so every attempt
    sends the same bytes under the same Message-ID; other mail keeps its rendered bytes.
    """

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(primary_key=True)
    message_id: Mapped[str] = mapped_column(String(255), unique=True)
    game_number: Mapped[int | None] = mapped_column(ForeignKey("games.number"))
    # A TripleA table's entry (dice_tables.id; no foreign key: SQLite adds the column
    # in place, without rebuilding the table and its triggers).
    table_id: Mapped[int | None] = mapped_column(Integer)
    entry_seq: Mapped[int | None] = mapped_column(Integer)
    to_addrs: Mapped[str] = mapped_column(Text)
    cc_addrs: Mapped[str] = mapped_column(Text, default="")
    raw: Mapped[bytes | None] = mapped_column(LargeBinary)
    status: Mapped[str] = mapped_column(String(16), default="pending", index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class OneTimeLinkFields:
    """A one-time link mailed to an address: only its hash is stored; it expires, and a
    second use is refused (dice_server.services.links)."""

    id: Mapped[int] = mapped_column(primary_key=True)
    purpose: Mapped[str] = mapped_column(String(16))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class EmailToken(OneTimeLinkFields, Base):
    """A member's link: confirm the address, or reset the password."""

    __tablename__ = "email_tokens"

    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Throttle(Base):
    """A fixed-window counter kept in the database, so a limit holds across workers."""

    __tablename__ = "throttles"

    key: Mapped[str] = mapped_column(String(255), primary_key=True)
    window_start: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    count: Mapped[int] = mapped_column(Integer, default=0)


class DiceTable(Base):
    """A TripleA "table": the ledger of rolls for one set of addresses (and, for the legacy
    protocol, one game name). Open until a participant closes it; the next roll for the same
    key then opens a new table."""

    __tablename__ = "dice_tables"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True)
    key: Mapped[str] = mapped_column(Text)
    open_key: Mapped[str | None] = mapped_column(String(64), unique=True)
    game_name: Mapped[str] = mapped_column(String(200))
    protocol: Mapped[str] = mapped_column(String(8))
    addresses: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(8), default="open")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The last entry this server appended, as on a game.
    head_seq: Mapped[int | None] = mapped_column(Integer)
    head_hash: Mapped[str | None] = mapped_column(String(64))


class TableEntry(SignedEntryFields, Base):
    """One entry of a table's ledger (the same format as a game's, with "table" in place
    of "game"). Append-only: triggers refuse UPDATE and DELETE."""

    __tablename__ = "table_entries"
    __table_args__ = (UniqueConstraint("table_id", "seq"),)

    table_id: Mapped[int] = mapped_column(ForeignKey("dice_tables.id"))


class TableSeed(SeedFields, Base):
    """A table's dice seed, committed by its first entry."""

    __tablename__ = "table_seeds"
    __table_args__ = (UniqueConstraint("table_id", "commitment_seq"),)

    table_id: Mapped[int] = mapped_column(ForeignKey("dice_tables.id"), index=True)


class DiceAddress(Base):
    """An address registered to receive TripleA rolls (a confirmed member's counts too)."""

    __tablename__ = "dice_addresses"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(320))
    email_key: Mapped[str] = mapped_column(String(320), unique=True)
    confirmed: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AddressToken(OneTimeLinkFields, Base):
    """An address's link: register it for TripleA dice, or unregister it."""

    __tablename__ = "address_tokens"

    address_id: Mapped[int] = mapped_column(ForeignKey("dice_addresses.id"), index=True)


class GameAddress(Base):
    """A player's personal address for one game, ``game-<n>.<secret>@<MAIL_DOMAIN>``: mail
    to it is his (dice_server.services.inbox). Only the secret's hash is stored, to find the
    address a message reached; the secret itself is derived again from the instance secret
    and this row's random nonce whenever a mail must carry it (dice_server.mail.addresses),
    so a copy of the database alone forges no player's mail."""

    __tablename__ = "game_addresses"
    __table_args__ = (UniqueConstraint("game_number", "member_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_number: Mapped[int] = mapped_column(ForeignKey("games.number"))
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    nonce: Mapped[str] = mapped_column(String(64))
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class InboundMessage(Base):
    """A message that reached the service by mail, spooled with its exact bytes before the
    sender's server is told it was received; then recorded (``entry_seq``), refused with an
    answer, quarantined (``reason``) or ignored (a bounce, an auto-reply). ``message_key``
    (the Message-ID, or the bytes' hash when it has none) is unique: a re-delivery finds
    the first and is not processed again. Never deleted."""

    __tablename__ = "inbound_messages"

    id: Mapped[int] = mapped_column(primary_key=True)
    message_key: Mapped[str] = mapped_column(String(255), unique=True)
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    channel: Mapped[str] = mapped_column(String(16))
    envelope_from: Mapped[str | None] = mapped_column(String(320))
    envelope_to: Mapped[str] = mapped_column(Text, default="[]")
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    size: Mapped[int] = mapped_column(Integer)
    sha256: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), default="spooled", index=True)
    reason: Mapped[str | None] = mapped_column(Text)
    sender: Mapped[str | None] = mapped_column(String(320))
    subject: Mapped[str | None] = mapped_column(Text)
    game_number: Mapped[int | None] = mapped_column(Integer, index=True)
    member_id: Mapped[int | None] = mapped_column(ForeignKey("members.id"))
    entry_seq: Mapped[int | None] = mapped_column(Integer)
    answer_id: Mapped[str | None] = mapped_column(String(255))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    processed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Variant(Base):
    """The variants register (IAAPA Variants: "Variant games will be recorded Variants
    database"): each rule change players named, once whatever its letter case."""

    __tablename__ = "variants"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(Text)
    name_key: Mapped[str] = mapped_column(String(200), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Challenge(Base):
    """A game challenge (IAAPA How to Start a Game): issued with the challenger's bid,
    accepted with the opponent's (then ``game_number`` is the game it started), declined,
    cancelled by the challenger, or expired 14 days after issue (IAAPA Game Challenge Time
    Limitations). ``agreements`` is a JSON list of the gentlemen's agreements."""

    __tablename__ = "challenges"

    id: Mapped[int] = mapped_column(primary_key=True)
    challenger_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    opponent_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    mentor_id: Mapped[int | None] = mapped_column(ForeignKey("members.id"))
    method: Mapped[str] = mapped_column(String(16))
    variant_id: Mapped[int | None] = mapped_column(ForeignKey("variants.id"))
    low_luck: Mapped[bool] = mapped_column(default=False, server_default=false())
    """The challenger proposes Low Luck: the game the acceptance starts throws its battle
    rounds by it (``games.low_luck``, ``"low_luck": 1`` in its genesis)."""
    agreements: Mapped[str] = mapped_column(Text, default="[]")
    instructions: Mapped[str] = mapped_column(Text, default="")
    message: Mapped[str] = mapped_column(Text, default="")
    bid_total: Mapped[int] = mapped_column(Integer)
    bid_details: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    reply_bid_total: Mapped[int | None] = mapped_column(Integer)
    reply_bid_details: Mapped[str | None] = mapped_column(Text)
    reply_message: Mapped[str | None] = mapped_column(Text)
    game_number: Mapped[int | None] = mapped_column(ForeignKey("games.number"), unique=True)
    request_key: Mapped[str | None] = mapped_column(String(64), unique=True)
    """SHA-256 of the challenger's id and the request's Idempotency-Key (or the form's
    nonce): the same request sent twice issues one challenge."""
    request_fingerprint: Mapped[str | None] = mapped_column(String(64))

    challenger: Mapped[Member] = relationship(foreign_keys=[challenger_id])
    opponent: Mapped[Member] = relationship(foreign_keys=[opponent_id])
    mentor: Mapped[Member | None] = relationship(foreign_keys=[mentor_id])
    variant: Mapped[Variant | None] = relationship()


class BidCommitment(Base):
    """A bid submitted, which commits the member to play (IAAPA Game Commitments: "Once you
    submit a bid you commit yourself to play the game. If you quit at any time after the
    bid submission you will forfeit the game."). The service never updates or deletes one."""

    __tablename__ = "bid_commitments"

    id: Mapped[int] = mapped_column(primary_key=True)
    challenge_id: Mapped[int] = mapped_column(ForeignKey("challenges.id"), index=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    total: Mapped[int] = mapped_column(Integer)
    details: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TurnReminder(Base):
    """A turn-clock mail sent (dice_server.services.reminders): the ``reminder``-th reminder
    to the player to move (``"1"``, ``"2"``, ...), or ``"forfeit-line"`` (both players told a
    forfeit may be requested), in the wait that began at ``waiting_since`` (the ledger
    ``at`` the silence is counted from). The key is unique and the row is written in the
    outbox row's transaction: a second scheduler, or a run after a crash, finds it and sends
    nothing."""

    __tablename__ = "turn_reminders"
    __table_args__ = (UniqueConstraint("game_number", "waiting_since", "reminder"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_number: Mapped[int] = mapped_column(ForeignKey("games.number"))
    waiting_since: Mapped[str] = mapped_column(String(32))
    reminder: Mapped[str] = mapped_column(String(16))
    power: Mapped[str] = mapped_column(String(32))
    message_id: Mapped[str] = mapped_column(String(255))
    sent_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
