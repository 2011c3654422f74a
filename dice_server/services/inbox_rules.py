"""What the mail gateway decides of one spooled message (dice_server.services.inbox):
whether answering it could start a mail loop, which game and player it belongs to, whether
its sender is that player (and, with ``MAIL_REQUIRE_DKIM``, signed for), and what the rules
engine reads it to be; then records it through the same services as the API, or keeps it in
quarantine, and writes what became of it with its answers."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC
from email.utils import parseaddr

from sqlalchemy.orm import Session

from adjudicator.notation.messages import NOTE, read_message
from adjudicator.rulings.away import UnreadAway, away_subject
from dice_server.db import reading
from dice_server.errors import InvalidRequest, ServiceError
from dice_server.kinds.note import MAX_NOTE
from dice_server.ledger import SignedEntry
from dice_server.mail.addresses import GameRecipient, read_address
from dice_server.mail.inbound import Inbound
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
from dice_server.services.notes import send_note
from dice_server.services.outbox import Envelope, enqueue
from dice_server.services.turns import MAX_TURN, submit_read

SPOOLED, RECORDED, REFUSED, QUARANTINED, IGNORED = (
    "spooled",
    "recorded",
    "refused",
    "quarantined",
    "ignored",
)


@dataclass(frozen=True)
class Fresh:
    raw: bytes
    envelope_from: str | None
    envelope_to: list[str]
    inbound: Inbound


@dataclass(frozen=True)
class Verdict:
    """What processing decided, to be written with any answers in one transaction."""

    status: str
    reason: str | None = None
    game: int | None = None
    member_id: int | None = None
    seq: int | None = None
    answers: tuple[Letter, ...] = ()
    done: bool = False
    """Already written, with the entry (see :func:`_record`)."""


def mark(session: Session, ctx: ServiceContext, row: InboundMessage, verdict: Verdict) -> None:
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


def decide(ctx: ServiceContext, inbound_id: int, fresh: Fresh) -> Verdict:
    inbound, envelope_to = fresh.inbound, fresh.envelope_to
    loop = _loop_risk(ctx, inbound, fresh.envelope_from)
    if loop is not None:
        return Verdict(IGNORED, loop)
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
) -> Verdict:
    """Record the message as what the engine reads it to be, under the player's name: the
    entry, the message marked recorded and its receipt queued, in one transaction."""
    text = inbound.text
    reading_ = read_message(inbound.subject, text)
    key = f"mail:{inbound_id}"  # one spooled message, one entry, however often processed
    written: list[Verdict] = []

    def recorded(entry: SignedEntry) -> Verdict:
        receipt = receipt_text(ctx, entry, reading_, inbound)
        answers = (answer(ctx, inbound_id, inbound, target, member_email, receipt),)
        return Verdict(RECORDED, None, target.game, member_id, entry.seq, answers)

    def also(session: Session, entry: SignedEntry) -> None:
        verdict = recorded(entry)
        row = session.get(InboundMessage, inbound_id)
        assert row is not None
        mark(session, ctx, row, verdict)
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
            payload = _note_payload(ctx, inbound, reading_.kind)
            retry = Retry(key, fingerprint("MAIL", f"note/{target.game}", payload))
            entry = send_note(ctx, member_id, target.game, payload, retry=retry, also=also)
    except ServiceError as exc:
        refused = answer(
            ctx, inbound_id, inbound, target, member_email, refusal_text(str(exc), target.game)
        )
        return Verdict(REFUSED, str(exc), target.game, member_id, answers=(refused,))
    # Nothing written when a retry found the entry recorded before (by another receiver,
    # or before a crash): the message is marked and its receipt sent now.
    return written[0] if written else recorded(entry)


def _note_payload(ctx: ServiceContext, inbound: Inbound, kind: str) -> dict[str, str]:
    """The note a message that is not a turn records: of the topic the engine read, or an
    away notice when its subject says "Away" with its days (:func:`away_subject`)."""
    text = _note_text(inbound)
    if kind != NOTE:
        return {"topic": kind, "text": text}
    try:
        days = away_subject(inbound.subject or "", ctx.clock().astimezone(UTC).date())
    except UnreadAway as exc:
        raise InvalidRequest(str(exc)) from None
    if days is None:
        return {"topic": kind, "text": text}
    first, last = days
    return {"topic": "away", "text": text, "from": first.isoformat(), "until": last.isoformat()}


def _note_text(inbound: Inbound) -> str:
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
) -> Verdict:
    """Keep the message aside; the sender (if answerable) gets one neutral answer."""
    answers = list(extra)
    if inbound.sender:
        answers.append(neutral(ctx, inbound_id, inbound))
    return Verdict(QUARANTINED, reason, game, answers=tuple(answers))
