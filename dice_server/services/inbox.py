"""Turns by email: every message that reaches the service by mail, from the SMTP receiver
(``pbem smtpd``) or an MTA's pipe or maildir (``pbem mail ingest``), goes through
:func:`receive`, and from there through the same service functions as the API and the pages.

1. **Spool.** The exact bytes are stored, with the envelope, before the sender's server is
   told the message arrived, under a unique key (its Message-ID, or the hash of its bytes when
   it has none): a re-delivery of the same message finds the first and is not processed
   again. A crash after the spool leaves the message ``spooled``: :func:`process_pending`
   (run when the receiver starts and by the scheduler) processes it then.
2. **Route and authenticate.** A message counts only when it reached a player's personal
   game address (:mod:`dice_server.mail.addresses`) and its From is that player's confirmed
   address. Anything else is kept in quarantine with the reason; nothing is recorded under
   anyone's name. When a player's own address was named by someone else, the player is told;
   the sender gets one neutral answer at most.
3. **Read and record.** The engine decides what the text is
   (:func:`adjudicator.notation.messages.read_message`): a turn is a submission
   (:func:`dice_server.services.turns.submit_read`), anything else a note of the matching
   topic (:func:`dice_server.services.notes.send_note`). The entry is written with the
   message's key as its retry key, so processing the same message twice records it once.
4. **Answer.** The sender gets a receipt threaded on his message (or the clear reason it
   was refused), through the outbox in the same transaction that marks the message done.

Bounces, auto-replies and the service's own mail are never answered: no mail loops.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import format_datetime, getaddresses, parseaddr
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from adjudicator.notation.messages import Reading, read_message
from dice_server.db import reading, writing
from dice_server.errors import NotFound, ServiceError
from dice_server.kinds import describe
from dice_server.ledger import SignedEntry
from dice_server.mail.addresses import (
    GameRecipient,
    derive_secret,
    game_address,
    new_nonce,
    read_address,
    secret_hash,
)
from dice_server.mail.inbound import Inbound
from dice_server.mail.inbound import read_message as decode
from dice_server.models import Game, GameAddress, InboundMessage, Member, OutboxMessage
from dice_server.services import ServiceContext, TxtLookup
from dice_server.services.entries import Retry, fingerprint
from dice_server.services.members import normalize_email
from dice_server.services.outbox import Envelope, enqueue
from dice_server.text import neutralise_bidi

KEPT_OF_OVERSIZE = 64 * 1024
"""What is kept of a message over ``MAIL_MAX_BYTES`` (quarantined; the SMTP receiver
refuses one at DATA)."""
MAX_KEY = 255

SPOOLED, RECORDED, REFUSED, QUARANTINED, IGNORED = (
    "spooled",
    "recorded",
    "refused",
    "quarantined",
    "ignored",
)


# --- personal addresses ---------------------------------------------------------------------


def _address_row(session: Session, ctx: ServiceContext, number: int, member_id: int) -> str:
    """Member ``member_id``'s address in game ``number``, made on first use."""
    row = session.execute(
        select(GameAddress).where(
            GameAddress.game_number == number, GameAddress.member_id == member_id
        )
    ).scalar_one_or_none()
    if row is None:
        nonce = new_nonce()
        secret = derive_secret(ctx.keys.secret_key, number, member_id, nonce)
        row = GameAddress(
            game_number=number,
            member_id=member_id,
            nonce=nonce,
            secret_hash=secret_hash(secret),
            created_at=ctx.clock(),
        )
        session.add(row)
        session.flush()
    secret = derive_secret(ctx.keys.secret_key, number, member_id, row.nonce)
    return game_address(number, secret, ctx.mail_domain)


def player_addresses(session: Session, ctx: ServiceContext, game: Game) -> dict[str, str]:
    """Each player's personal address by his address's case-insensitive key (made if
    missing, in the caller's write transaction)."""
    out: dict[str, str] = {}
    for member in (game.axis, game.allies):
        out[member.email_key] = _address_row(session, ctx, game.number, member.id)
    return out


def player_addresses_of(ctx: ServiceContext, number: int) -> dict[str, str]:
    """:func:`player_addresses` of game ``number`` in a transaction of its own (the
    delivery of a game's mail); {} for a game that no longer exists."""
    with writing(ctx.sessions) as session:
        game = session.get(Game, number)
        return {} if game is None else player_addresses(session, ctx, game)


def email_key(address: str) -> str:
    """The case-insensitive key of an address as the members table keeps it (the address
    itself, case-folded, when it does not validate)."""
    return _key(address) or address.casefold()


def copy_message(msg: EmailMessage) -> EmailMessage:
    """An independent copy of a message (headers and body), to change one header."""
    parsed = message_from_bytes(msg.as_bytes(), policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    return parsed


def address_of(ctx: ServiceContext, number: int, email: str) -> str:
    """The personal address of the player ``email`` in game ``number`` (``pbem game
    address``)."""
    _, key = normalize_email(email)
    with writing(ctx.sessions) as session:
        game = session.get(Game, number)
        if game is None:
            raise NotFound(f"there is no game {number}: check the game number", "game")
        addresses = player_addresses(session, ctx, game)
        if key not in addresses:
            raise NotFound(f"{email} does not play in game {number}", "email")
        return addresses[key]


def _owner(session: Session, recipient: GameRecipient) -> GameAddress | None:
    if recipient.secret is None:
        return None
    return session.execute(
        select(GameAddress).where(GameAddress.secret_hash == secret_hash(recipient.secret))
    ).scalar_one_or_none()


# --- receiving ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Received:
    """What became of one message: its spool id, its status and why, and the entry it
    recorded. ``duplicate`` is a re-delivery of a message already received."""

    id: int
    status: str
    reason: str | None = None
    game: int | None = None
    seq: int | None = None
    duplicate: bool = False


def message_key(raw: bytes, inbound: Inbound) -> str:
    """The message's identity: its Message-ID, else the SHA-256 of its bytes."""
    if inbound.message_id and len(inbound.message_id) <= MAX_KEY:
        return inbound.message_id
    return "sha256:" + hashlib.sha256(raw).hexdigest()


def receive(
    ctx: ServiceContext,
    raw: bytes,
    *,
    channel: str,
    envelope_from: str | None = None,
    envelope_to: Iterable[str] = (),
    max_bytes: int | None = None,
) -> Received:
    """Spool one message (the exact bytes, once per Message-ID) and process it. The one
    entry point of every mail channel. Never raises for what the message holds."""
    spooled = spool(
        ctx,
        raw,
        channel=channel,
        envelope_from=envelope_from,
        envelope_to=envelope_to,
        max_bytes=max_bytes,
    )
    if spooled.duplicate or spooled.status != SPOOLED:
        return spooled
    return process(ctx, spooled.id)


def spool(
    ctx: ServiceContext,
    raw: bytes,
    *,
    channel: str,
    envelope_from: str | None = None,
    envelope_to: Iterable[str] = (),
    max_bytes: int | None = None,
) -> Received:
    """Store the message durably (committed before this returns); a message whose key was
    already received is not stored again (``duplicate``)."""
    if max_bytes is None:
        max_bytes = ctx.inbound.max_bytes
    oversize = len(raw) > max_bytes
    kept = raw[: min(KEPT_OF_OVERSIZE, max_bytes)] if oversize else raw
    inbound = decode(kept)
    key = message_key(raw, inbound)
    now = ctx.clock()
    row = InboundMessage(
        message_key=key,
        received_at=now,
        channel=channel,
        envelope_from=envelope_from,
        envelope_to=json.dumps(list(envelope_to)),
        raw=kept,
        size=len(raw),
        sha256=hashlib.sha256(raw).hexdigest(),
        status=QUARANTINED if oversize else SPOOLED,
        reason=(
            f"the message is {len(raw):,} bytes, over the limit of {max_bytes:,}: its first "
            f"{len(kept):,} bytes are kept"
            if oversize
            else None
        ),
        sender=inbound.sender,
        subject=inbound.subject[:1000],
        attempts=0,
        processed_at=now if oversize else None,
    )
    try:
        with writing(ctx.sessions) as session:
            session.add(row)
            session.flush()
            return Received(row.id, row.status, row.reason)
    except IntegrityError:
        with reading(ctx.sessions) as session:
            first = session.execute(
                select(InboundMessage).where(InboundMessage.message_key == key)
            ).scalar_one()
            return Received(
                first.id,
                first.status,
                first.reason,
                first.game_number,
                first.entry_seq,
                duplicate=True,
            )


def process_pending(ctx: ServiceContext, limit: int = 100) -> list[Received]:
    """Process what was spooled but never finished (a crash, a busy database)."""
    with reading(ctx.sessions) as session:
        ids = list(
            session.execute(
                select(InboundMessage.id)
                .where(InboundMessage.status == SPOOLED)
                .order_by(InboundMessage.id)
                .limit(limit)
            ).scalars()
        )
    return [process(ctx, i) for i in ids]


@dataclass(frozen=True)
class _Verdict:
    """What processing decided, to be written with any answers in one transaction."""

    status: str
    reason: str | None = None
    game: int | None = None
    member_id: int | None = None
    seq: int | None = None
    answers: tuple[EmailMessage, ...] = ()


def process(ctx: ServiceContext, inbound_id: int) -> Received:
    """Decide, record and answer one spooled message (a no-op once it is done)."""
    with writing(ctx.sessions) as session:
        row = session.get(InboundMessage, inbound_id)
        if row is None:
            raise NotFound(f"no received message {inbound_id}")
        if row.status != SPOOLED:
            return Received(row.id, row.status, row.reason, row.game_number, row.entry_seq)
        row.attempts += 1
        raw, envelope_from = row.raw, row.envelope_from
        envelope_to = json.loads(row.envelope_to or "[]")
    inbound = decode(raw)
    verdict = _decide(ctx, inbound_id, raw, inbound, envelope_from, envelope_to)
    with writing(ctx.sessions) as session:
        row = session.get(InboundMessage, inbound_id)
        assert row is not None
        if row.status != SPOOLED:  # processed meanwhile by another receiver
            return Received(row.id, row.status, row.reason, row.game_number, row.entry_seq)
        now = ctx.clock()
        row.status, row.reason = verdict.status, verdict.reason
        row.game_number, row.member_id, row.entry_seq = (
            verdict.game,
            verdict.member_id,
            verdict.seq,
        )
        row.processed_at = now
        answers = [a for a in verdict.answers if not _answered_before(session, a)]
        for answer in answers:
            to = Envelope(tuple(address for _, address in getaddresses([str(answer["To"])])))
            enqueue(session, now, str(answer["Message-ID"]), to, raw=answer.as_bytes())
        if answers:
            row.answer_id = str(answers[0]["Message-ID"])
        return Received(row.id, row.status, row.reason, row.game_number, row.entry_seq)


NEUTRAL = "<neutral-"
"""How the Message-ID of a neutral answer starts: a sender gets one, ever."""


def _answered_before(session: Session, answer: EmailMessage) -> bool:
    """Whether ``answer`` is a neutral answer to a sender who already had one (so that
    nobody can use the service to mail a stranger again and again)."""
    if not str(answer["Message-ID"]).startswith(NEUTRAL):
        return False
    to = json.dumps([address for _, address in getaddresses([str(answer["To"])])])
    earlier = session.execute(
        select(OutboxMessage.id)
        .where(OutboxMessage.message_id.startswith(NEUTRAL), OutboxMessage.to_addrs == to)
        .limit(1)
    ).first()
    return earlier is not None


def _loop_risk(ctx: ServiceContext, inbound: Inbound, envelope_from: str | None) -> str | None:
    """Why answering this message could start a mail loop, or None."""
    if envelope_from == "":
        return "a bounce (empty return path): never answered"
    if inbound.bounce:
        return "a bounce (delivery status notification): never answered"
    if inbound.auto_submitted:
        return "an automatic message (auto-reply or list mail): never answered"
    own = parseaddr(ctx.mail_from)[1].casefold()
    sender = (inbound.sender or "").casefold()
    if sender and (sender == own or sender.rpartition("@")[2] == ctx.mail_domain.casefold()):
        return "sent by this service itself: never answered"
    return None


def _decide(
    ctx: ServiceContext,
    inbound_id: int,
    raw: bytes,
    inbound: Inbound,
    envelope_from: str | None,
    envelope_to: list[str],
) -> _Verdict:
    loop = _loop_risk(ctx, inbound, envelope_from)
    if loop is not None:
        return _Verdict(IGNORED, loop)
    targets = [
        found
        for found in (read_address(a, ctx.mail_domain) for a in envelope_to or inbound.recipients)
        if found is not None
    ]
    if not targets:
        return _quarantine(ctx, inbound_id, inbound, "not sent to a game address of this service")
    personal = [t for t in targets if t.secret is not None]
    if not personal:
        return _quarantine(
            ctx,
            inbound_id,
            inbound,
            f"sent to the bare address {targets[0].address}: a player writes from his own "
            "address to his personal game address (the Reply-To of his game's mail)",
            game=targets[0].game,
        )
    with reading(ctx.sessions) as session:
        target = personal[0]
        game = session.get(Game, target.game)
        if game is None:
            return _quarantine(ctx, inbound_id, inbound, f"there is no game {target.game}")
        owner = _owner(session, target)
        if owner is None or owner.game_number != target.game:
            return _quarantine(
                ctx,
                inbound_id,
                inbound,
                f"{_masked(target)} is no player's address in game {target.game}",
                game=target.game,
            )
        member = session.get(Member, owner.member_id)
        assert member is not None
        member_id, member_email, confirmed = member.id, member.email, member.confirmed
        member_key = member.email_key
    sender_key = _key(inbound.sender)
    if sender_key is None or sender_key != member_key:
        told = _tell_owner(ctx, inbound, member_email, target, inbound_id)
        return _quarantine(
            ctx,
            inbound_id,
            inbound,
            f"From {inbound.sender or '(none)'} is not the player whose address "
            f"{_masked(target)} this is",
            game=target.game,
            extra=(told,),
        )
    if ctx.inbound.require_dkim:
        failed = dkim_failure(raw, inbound.sender or "", ctx.inbound.dns)
        if failed is not None:
            return _quarantine(ctx, inbound_id, inbound, failed, game=target.game)
    if not confirmed:
        return _quarantine(
            ctx,
            inbound_id,
            inbound,
            f"{member_email} has not confirmed his address",
            game=target.game,
        )
    return _record(ctx, inbound_id, inbound, target, member_id, member_email)


def dkim_failure(raw: bytes, sender: str, dns: TxtLookup | None) -> str | None:
    """Why the message's DKIM signature does not vouch for its From domain, or None when
    it does: the first signature must verify, and its domain (d=) must be the From
    domain or a parent of it."""
    import dkim

    checker = dkim.DKIM(raw)
    try:
        verified = checker.verify(dnsfunc=dns) if dns is not None else checker.verify()
    except Exception as exc:  # dkimpy raises many kinds on a broken signature or DNS
        return f"DKIM could not be checked: {exc}"
    if not verified:
        return "no DKIM signature, or it does not verify"
    signer = (checker.domain or b"").decode("ascii", "replace").lower().rstrip(".")
    domain = sender.rpartition("@")[2].lower().rstrip(".")
    if not signer or not (domain == signer or domain.endswith("." + signer)):
        return f"DKIM signed by {signer or '(nobody)'}, not by the From domain {domain}"
    return None


def _key(address: str | None) -> str | None:
    if not address:
        return None
    try:
        return normalize_email(address)[1]
    except ServiceError:
        return None


def _masked(target: GameRecipient) -> str:
    """An address with its secret hidden (quarantine reasons are shown to operators)."""
    return target.address.split(".", 1)[0] + ".…@" + target.address.rpartition("@")[2]


def _record(
    ctx: ServiceContext,
    inbound_id: int,
    inbound: Inbound,
    target: GameRecipient,
    member_id: int,
    member_email: str,
) -> _Verdict:
    """Record the message as what the engine reads it to be, under the player's name."""
    from dice_server.services.notes import send_note
    from dice_server.services.turns import MAX_TURN, submit_read

    text = inbound.text
    reading_ = read_message(inbound.subject, text)
    key = f"mail:{inbound_id}"  # one spooled message, one entry, however often processed
    try:
        if reading_.is_turn:
            if len(text) > MAX_TURN:
                raise ServiceError(f"the turn is {len(text):,} characters, over {MAX_TURN:,}")
            retry = Retry(key, fingerprint("MAIL", f"turn/{target.game}", {"text": text}))
            entry, _report = submit_read(
                ctx, member_id, target.game, text, reading_.turn, retry=retry
            )
        else:
            payload = {"topic": reading_.kind, "text": _note_text(inbound)}
            retry = Retry(key, fingerprint("MAIL", f"note/{target.game}", payload))
            entry = send_note(ctx, member_id, target.game, payload, retry=retry)
    except ServiceError as exc:
        answer = _answer(
            ctx,
            inbound,
            target,
            member_email,
            inbound_id,
            f"Your message was not recorded: {exc}\n\nNothing was written to game "
            f"{target.game}'s ledger. Correct it and send it again.",
        )
        return _Verdict(REFUSED, str(exc), target.game, member_id, answers=(answer,))
    receipt = _answer(
        ctx, inbound, target, member_email, inbound_id, _receipt_text(ctx, entry, reading_, inbound)
    )
    return _Verdict(RECORDED, None, target.game, member_id, entry.seq, answers=(receipt,))


def _note_text(inbound: Inbound) -> str:
    from dice_server.kinds.note import MAX_NOTE

    text = inbound.text.strip() or inbound.subject or "(an empty message)"
    return text[:MAX_NOTE]


def _receipt_text(
    ctx: ServiceContext, entry: SignedEntry, reading_: Reading, inbound: Inbound
) -> str:
    data: dict[str, Any] = json.loads(entry.body)["data"]
    attachments = [
        f"  {a.filename or '(unnamed)'} ({a.content_type}, {a.size:,} bytes)"
        for a in inbound.attachments
    ]
    return ctx.mail.render(
        "receipt.txt",
        number=entry.chain.number,
        seq=entry.seq,
        kind=entry.kind,
        what="your turn" if reading_.is_turn else f"your note ({reading_.kind})",
        at=entry.at,
        signature=entry.sig,
        key=entry.key_id,
        description=describe(entry.kind, data),
        attachments=attachments,
    )


def _answer(
    ctx: ServiceContext,
    inbound: Inbound,
    target: GameRecipient,
    to: str,
    inbound_id: int,
    text: str,
) -> EmailMessage:
    """The answer to a message, threaded on it (a receipt or a refusal)."""
    msg = EmailMessage()
    msg["From"] = ctx.mail_from
    msg["To"] = to
    msg["Reply-To"] = target.address
    subject = inbound.subject or f"[Game {target.game}]"
    msg["Subject"] = neutralise_bidi(
        subject if subject.lower().startswith("re:") else f"Re: {subject}"
    )
    msg["Message-ID"] = f"<answer-{inbound_id}.{_stamp(inbound)}@{ctx.mail_domain}>"
    msg["Date"] = format_datetime(ctx.clock())
    msg["Auto-Submitted"] = "auto-replied"
    if inbound.message_id:
        msg["In-Reply-To"] = inbound.message_id
        msg["References"] = " ".join([*inbound.references, inbound.message_id][-10:])
    msg.set_content(neutralise_bidi(text))
    return msg


def _stamp(inbound: Inbound) -> str:
    return hashlib.sha256((inbound.message_id or "").encode()).hexdigest()[:12]


def _tell_owner(
    ctx: ServiceContext, inbound: Inbound, owner: str, target: GameRecipient, inbound_id: int
) -> EmailMessage:
    """Tell a player that a message named his personal address from another sender."""
    msg = EmailMessage()
    msg["From"] = ctx.mail_from
    msg["To"] = owner
    msg["Subject"] = f"[Game {target.game}] a message to your game address was not accepted"
    msg["Message-ID"] = f"<warned-{inbound_id}.{_stamp(inbound)}@{ctx.mail_domain}>"
    msg["Date"] = format_datetime(ctx.clock())
    msg["Auto-Submitted"] = "auto-generated"
    msg.set_content(
        neutralise_bidi(
            ctx.mail.render(
                "address_misused.txt",
                number=target.game,
                sender=inbound.sender or "(no From)",
                subject=inbound.subject,
                address=target.address,
            )
        )
    )
    return msg


def _quarantine(
    ctx: ServiceContext,
    inbound_id: int,
    inbound: Inbound,
    reason: str,
    *,
    game: int | None = None,
    extra: tuple[EmailMessage, ...] = (),
) -> _Verdict:
    """Keep the message aside; the sender (if answerable) gets one neutral answer."""
    answers = list(extra)
    if inbound.sender:
        answers.append(_neutral(ctx, inbound_id, inbound))
    return _Verdict(QUARANTINED, reason, game, answers=tuple(answers))


def _neutral(ctx: ServiceContext, inbound_id: int, inbound: Inbound) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = ctx.mail_from
    msg["To"] = inbound.sender or ""
    subject = inbound.subject or "your message"
    msg["Subject"] = neutralise_bidi(
        subject if subject.lower().startswith("re:") else f"Re: {subject}"
    )
    msg["Message-ID"] = f"{NEUTRAL}{inbound_id}.{_stamp(inbound)}@{ctx.mail_domain}>"
    msg["Date"] = format_datetime(ctx.clock())
    msg["Auto-Submitted"] = "auto-replied"
    if inbound.message_id:
        msg["In-Reply-To"] = inbound.message_id
        msg["References"] = inbound.message_id
    msg.set_content(ctx.mail.render("not_accepted.txt"))
    return msg


# --- reading the inbox ------------------------------------------------------------------------


@dataclass(frozen=True)
class InboxRow:
    id: int
    received_at: datetime
    channel: str
    sender: str | None
    subject: str | None
    status: str
    reason: str | None
    game: int | None
    seq: int | None
    size: int


def _row(m: InboundMessage) -> InboxRow:
    return InboxRow(
        m.id,
        m.received_at,
        m.channel,
        m.sender,
        m.subject,
        m.status,
        m.reason,
        m.game_number,
        m.entry_seq,
        m.size,
    )


def quarantine(ctx: ServiceContext) -> list[InboxRow]:
    """Every quarantined message, oldest first (``pbem mail quarantine``)."""
    with reading(ctx.sessions) as session:
        rows = session.execute(
            select(InboundMessage)
            .where(InboundMessage.status == QUARANTINED)
            .order_by(InboundMessage.id)
        ).scalars()
        return [_row(m) for m in rows]


__all__ = [
    "IGNORED",
    "QUARANTINED",
    "RECORDED",
    "REFUSED",
    "SPOOLED",
    "InboxRow",
    "Received",
    "address_of",
    "player_addresses",
    "process",
    "process_pending",
    "quarantine",
    "receive",
    "spool",
]
