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
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from email.utils import parseaddr

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from adjudicator.notation.messages import read_message
from dice_server.db import reading, writing
from dice_server.errors import NotFound, ServiceError
from dice_server.ledger import SignedEntry
from dice_server.mail.addresses import GameRecipient, read_address
from dice_server.mail.inbound import Inbound
from dice_server.mail.inbound import read_message as decode
from dice_server.models import Game, InboundMessage, Member
from dice_server.services import ServiceContext, TxtLookup
from dice_server.services.entries import Retry, fingerprint
from dice_server.services.game_addresses import address_key, masked, owner_of
from dice_server.services.mail_answers import (
    Letter,
    answer,
    answered_before,
    neutral,
    receipt_text,
    refusal_text,
    warning_to_owner,
)
from dice_server.services.outbox import Envelope, enqueue

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
    fresh: Fresh | None = field(default=None, compare=False, repr=False)
    """A message just spooled, as it was stored and decoded: processing it at once need
    neither read it back nor decode it again."""


@dataclass(frozen=True)
class Fresh:
    raw: bytes
    envelope_from: str | None
    envelope_to: list[str]
    inbound: Inbound


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
    return process(ctx, spooled.id, spooled.fresh)


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
        attempts=1,  # the receiver processes it at once
        processed_at=now if oversize else None,
    )
    try:
        with writing(ctx.sessions) as session:
            session.add(row)
            session.flush()
            fresh = Fresh(kept, envelope_from, list(json.loads(row.envelope_to)), inbound)
            return Received(row.id, row.status, row.reason, fresh=fresh)
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


log = logging.getLogger(__name__)

MAX_ATTEMPTS = 5
"""Times a spooled message is processed before it is set aside for an operator (a message
whose processing keeps failing must not be tried forever)."""


def process_pending(ctx: ServiceContext, limit: int = 100) -> list[Received]:
    """Process what was spooled but never finished (a crash, a busy database); a message
    that failed :data:`MAX_ATTEMPTS` times is quarantined with that reason."""
    with writing(ctx.sessions) as session:
        rows = list(
            session.execute(
                select(InboundMessage)
                .where(InboundMessage.status == SPOOLED)
                .order_by(InboundMessage.id)
                .limit(limit)
            ).scalars()
        )
        ids = []
        for row in rows:
            if row.attempts >= MAX_ATTEMPTS:
                row.status, row.processed_at = QUARANTINED, ctx.clock()
                row.reason = f"processing failed {row.attempts} times: an operator must look"
            else:
                row.attempts += 1
                ids.append(row.id)
    done = []
    for inbound_id in ids:
        try:
            done.append(process(ctx, inbound_id))
        except Exception:  # one message's failure must not hold up the others
            log.exception("inbox: message %s could not be processed; it stays spooled", inbound_id)
    return done


@dataclass(frozen=True)
class _Verdict:
    """What processing decided, to be written with any answers in one transaction."""

    status: str
    reason: str | None = None
    game: int | None = None
    member_id: int | None = None
    seq: int | None = None
    answers: tuple[Letter, ...] = ()
    done: bool = False
    """Already written, with the entry (see :func:`_record`)."""


def process(ctx: ServiceContext, inbound_id: int, fresh: Fresh | None = None) -> Received:
    """Decide, record and answer one spooled message (a no-op once it is done). A message
    recorded is marked done, and its receipt queued, in the entry's own transaction."""
    if fresh is None:
        with reading(ctx.sessions) as session:
            row = session.get(InboundMessage, inbound_id)
            if row is None:
                raise NotFound(f"no received message {inbound_id}")
            if row.status != SPOOLED:
                return _received(row)
            fresh = Fresh(
                row.raw, row.envelope_from, json.loads(row.envelope_to or "[]"), decode(row.raw)
            )
    verdict = _decide(ctx, inbound_id, fresh)
    if verdict.done:
        return Received(inbound_id, verdict.status, verdict.reason, verdict.game, verdict.seq)
    with writing(ctx.sessions) as session:
        row = session.get(InboundMessage, inbound_id)
        assert row is not None
        if row.status == SPOOLED:  # not processed meanwhile by another receiver
            _mark(session, ctx, row, verdict)
        return _received(row)


def _received(row: InboundMessage) -> Received:
    return Received(row.id, row.status, row.reason, row.game_number, row.entry_seq)


def _mark(session: Session, ctx: ServiceContext, row: InboundMessage, verdict: _Verdict) -> None:
    """Write what became of a message, and queue its answers (a neutral answer only to a
    sender who never had one)."""
    now = ctx.clock()
    row.status, row.reason, row.processed_at = verdict.status, verdict.reason, now
    row.game_number, row.member_id, row.entry_seq = verdict.game, verdict.member_id, verdict.seq
    answers = [a for a in verdict.answers if not answered_before(session, a)]
    for letter in answers:
        enqueue(session, now, letter.message_id, Envelope((letter.to,)), raw=letter.raw)
    if answers:
        row.answer_id = answers[0].message_id


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


def _decide(ctx: ServiceContext, inbound_id: int, fresh: Fresh) -> _Verdict:
    inbound, envelope_to = fresh.inbound, fresh.envelope_to
    loop = _loop_risk(ctx, inbound, fresh.envelope_from)
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
        owner = owner_of(session, target)
        if owner is None or owner.game_number != target.game:
            return _quarantine(
                ctx,
                inbound_id,
                inbound,
                f"{masked(target)} is no player's address in game {target.game}",
                game=target.game,
            )
        member = session.get(Member, owner.member_id)
        assert member is not None
        member_id, member_email, confirmed = member.id, member.email, member.confirmed
        member_key = member.email_key
    sender_key = address_key(inbound.sender)
    if sender_key is None or sender_key != member_key:
        told = warning_to_owner(ctx, inbound_id, inbound, member_email, target)
        return _quarantine(
            ctx,
            inbound_id,
            inbound,
            f"From {inbound.sender or '(none)'} is not the player whose address "
            f"{masked(target)} this is",
            game=target.game,
            extra=(told,),
        )
    if ctx.inbound.require_dkim:
        failed = dkim_failure(fresh.raw, inbound.sender or "", ctx.inbound.dns)
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


def _record(
    ctx: ServiceContext,
    inbound_id: int,
    inbound: Inbound,
    target: GameRecipient,
    member_id: int,
    member_email: str,
) -> _Verdict:
    """Record the message as what the engine reads it to be, under the player's name: the
    entry, the message marked recorded and its receipt queued, in one transaction."""
    from dice_server.services.notes import send_note
    from dice_server.services.turns import MAX_TURN, submit_read

    text = inbound.text
    reading_ = read_message(inbound.subject, text)
    key = f"mail:{inbound_id}"  # one spooled message, one entry, however often processed
    written: list[_Verdict] = []

    def also(session: Session, entry: SignedEntry) -> None:
        receipt = answer(
            ctx,
            inbound_id,
            inbound,
            target,
            member_email,
            receipt_text(ctx, entry, reading_, inbound),
        )
        verdict = _Verdict(RECORDED, None, target.game, member_id, entry.seq, (receipt,))
        row = session.get(InboundMessage, inbound_id)
        assert row is not None
        _mark(session, ctx, row, verdict)
        written.append(replace(verdict, done=True))

    try:
        if reading_.is_turn:
            if len(text) > MAX_TURN:
                raise ServiceError(f"the turn is {len(text):,} characters, over {MAX_TURN:,}")
            retry = Retry(key, fingerprint("MAIL", f"turn/{target.game}", {"text": text}))
            entry, _report = submit_read(
                ctx, member_id, target.game, text, reading_.turn, retry=retry, also=also
            )
        else:
            payload = {"topic": reading_.kind, "text": _note_text(inbound)}
            retry = Retry(key, fingerprint("MAIL", f"note/{target.game}", payload))
            entry = send_note(ctx, member_id, target.game, payload, retry=retry, also=also)
    except ServiceError as exc:
        refused = answer(
            ctx, inbound_id, inbound, target, member_email, refusal_text(str(exc), target.game)
        )
        return _Verdict(REFUSED, str(exc), target.game, member_id, answers=(refused,))
    if written:
        return written[0]
    # A retry found the entry recorded before (by another receiver, or before a crash):
    # mark the message and send its receipt now.
    receipt = answer(
        ctx, inbound_id, inbound, target, member_email, receipt_text(ctx, entry, reading_, inbound)
    )
    return _Verdict(RECORDED, None, target.game, member_id, entry.seq, answers=(receipt,))


def _note_text(inbound: Inbound) -> str:
    from dice_server.kinds.note import MAX_NOTE

    text = inbound.text.strip() or inbound.subject or "(an empty message)"
    return text[:MAX_NOTE]


def _quarantine(
    ctx: ServiceContext,
    inbound_id: int,
    inbound: Inbound,
    reason: str,
    *,
    game: int | None = None,
    extra: tuple[Letter, ...] = (),
) -> _Verdict:
    """Keep the message aside; the sender (if answerable) gets one neutral answer."""
    answers = list(extra)
    if inbound.sender:
        answers.append(neutral(ctx, inbound_id, inbound))
    return _Verdict(QUARANTINED, reason, game, answers=tuple(answers))


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
    "process",
    "process_pending",
    "quarantine",
    "receive",
    "spool",
]
