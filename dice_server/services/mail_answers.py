"""What the mail gateway answers (dice_server.services.inbox): a receipt threaded on the
player's message, the reason a message was not recorded, the warning to a player whose
address someone else used, and one neutral answer to a sender who is nobody's player.

Every answer says ``Auto-Submitted`` (RFC 3834), so that a well-behaved responder does not
answer it back, and is queued through the outbox with its bytes, in the transaction that
marks the message done. They are plain text, built with the standard library's compat32
message classes: a receipt is on the path of every turn by mail, and the modern header
registry costs a millisecond a message. Header values come from the decoded message and are
flattened to one line first, so nothing a sender writes can add a header.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from email import charset
from email.header import Header
from email.message import Message
from email.utils import format_datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator.notation.messages import Reading
from dice_server.kinds import describe
from dice_server.ledger import SignedEntry
from dice_server.mail.addresses import GameRecipient
from dice_server.mail.inbound import Inbound
from dice_server.models import OutboxMessage
from dice_server.services import ServiceContext
from dice_server.text import neutralise_bidi, without_surrogates

NEUTRAL = "<neutral-"
"""How the Message-ID of a neutral answer starts: a sender gets one, ever."""
_UTF8_QP = charset.Charset("utf-8")
_UTF8_QP.body_encoding = charset.QP


@dataclass(frozen=True)
class Letter:
    """An answer ready for the outbox: its Message-ID, its one recipient, its bytes."""

    message_id: str
    to: str
    raw: bytes


def _line(value: str) -> str:
    """A header value on one line, its bidirectional controls made visible."""
    return neutralise_bidi(" ".join(value.split()))


def letter(
    ctx: ServiceContext,
    *,
    to: str,
    subject: str,
    message_id: str,
    text: str,
    auto: str = "auto-replied",
    reply_to: str | None = None,
    inbound: Inbound | None = None,
) -> Letter:
    """A plain-text message from the service; threaded on ``inbound`` when given."""
    msg = Message()
    msg["MIME-Version"] = "1.0"
    body = without_surrogates(neutralise_bidi(text))
    msg.set_payload(body, _UTF8_QP)  # text/plain; charset="utf-8", QP
    msg["From"] = ctx.mail_from
    msg["To"] = _line(to)
    if reply_to is not None:
        msg["Reply-To"] = reply_to
    title = _line(subject)
    msg["Subject"] = (
        title if title.isascii() else Header(title, "utf-8", header_name="Subject").encode()
    )
    msg["Message-ID"] = message_id
    msg["Date"] = format_datetime(ctx.clock())
    msg["Auto-Submitted"] = auto
    if inbound is not None and inbound.message_id:
        thread = [*inbound.references, inbound.message_id][-10:]
        msg["In-Reply-To"] = _line(inbound.message_id)
        msg["References"] = _line(" ".join(thread))
    return Letter(message_id, _line(to), msg.as_bytes())


def _re(subject: str) -> str:
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def _stamp(inbound: Inbound) -> str:
    return hashlib.sha256((inbound.message_id or "").encode()).hexdigest()[:12]


def answer(
    ctx: ServiceContext,
    inbound_id: int,
    inbound: Inbound,
    target: GameRecipient,
    to: str,
    text: str,
) -> Letter:
    """The answer to a player's message, threaded on it (a receipt or a refusal); its
    Reply-To is his personal address, so that replying writes to the game again."""
    return letter(
        ctx,
        to=to,
        subject=_re(inbound.subject or f"[Game {target.game}]"),
        message_id=f"<answer-{inbound_id}.{_stamp(inbound)}@{ctx.mail_domain}>",
        text=text,
        reply_to=target.address,
        inbound=inbound,
    )


def receipt_text(
    ctx: ServiceContext, entry: SignedEntry, reading: Reading, inbound: Inbound
) -> str:
    """A receipt: the entry's seq, time, signature and verify link, what it records with
    the engine's findings, and the attachments that were not read."""
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
        what="your turn" if reading.is_turn else f"your note ({reading.kind})",
        at=entry.at,
        signature=entry.sig,
        key=entry.key_id,
        description=describe(entry.kind, data),
        attachments=attachments,
    )


def refusal_text(reason: str, game: int) -> str:
    return (
        f"Your message was not recorded: {reason}\n\nNothing was written to game {game}'s "
        "ledger. Correct it and send it again."
    )


def warning_to_owner(
    ctx: ServiceContext, inbound_id: int, inbound: Inbound, owner: str, target: GameRecipient
) -> Letter:
    """Tell a player that a message named his personal address from another sender."""
    return letter(
        ctx,
        to=owner,
        subject=f"[Game {target.game}] a message to your game address was not accepted",
        message_id=f"<warned-{inbound_id}.{_stamp(inbound)}@{ctx.mail_domain}>",
        text=ctx.mail.render(
            "address_misused.txt",
            number=target.game,
            sender=inbound.sender or "(no From)",
            subject=inbound.subject,
            address=target.address,
        ),
        auto="auto-generated",
        reply_to=target.address,  # his own: it is his game's mail
    )


def neutral(ctx: ServiceContext, inbound_id: int, inbound: Inbound) -> Letter:
    """The one answer a sender who is nobody's player gets: nothing was recorded."""
    return letter(
        ctx,
        to=inbound.sender or "",
        subject=_re(inbound.subject or "your message"),
        message_id=f"{NEUTRAL}{inbound_id}.{_stamp(inbound)}@{ctx.mail_domain}>",
        text=ctx.mail.render("not_accepted.txt"),
        inbound=inbound,
    )


def answered_before(session: Session, answer: Letter) -> bool:
    """Whether ``answer`` is a neutral answer to a sender who already had one (so that
    nobody can use the service to mail a stranger again and again)."""
    if not answer.message_id.startswith(NEUTRAL):
        return False
    earlier = session.execute(
        select(OutboxMessage.id)
        .where(
            OutboxMessage.message_id.startswith(NEUTRAL),
            OutboxMessage.to_addrs == json.dumps([answer.to]),
        )
        .limit(1)
    ).first()
    return earlier is not None
