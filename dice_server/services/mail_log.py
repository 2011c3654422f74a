"""A game's mail as its page lists it: every message received for the game (with what
became of it and the entry it recorded) and every message sent (entries' announcements,
receipts and refusals, with their delivery state), and the viewer's own game address."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import or_, select

from dice_server.db import reading
from dice_server.models import InboundMessage, Member, OutboxMessage
from dice_server.services import ServiceContext
from dice_server.services.game_addresses import my_address
from dice_server.services.views import GameSummary, summary_of, viewed_game


@dataclass(frozen=True)
class ReceivedMail:
    id: int
    at: datetime
    sender: str | None
    subject: str | None
    status: str
    reason: str | None
    seq: int | None
    answered: bool


@dataclass(frozen=True)
class SentMail:
    id: int
    at: datetime
    message_id: str
    to: list[str]
    seq: int | None
    status: str
    error: str | None


@dataclass(frozen=True)
class MailLog:
    summary: GameSummary
    address: str | None
    received: list[ReceivedMail]
    sent: list[SentMail]


def game_mail(ctx: ServiceContext, number: int, viewer: Member) -> MailLog:
    """Every message received and sent for game ``number``, newest first. A player sees his
    own address; the received messages of the game are listed for every participant (the
    quarantine reasons never show a secret)."""
    with reading(ctx.sessions) as session:
        game = viewed_game(session, number, viewer)
        summary = summary_of(session, game, viewer)
        inbound = list(
            session.execute(
                select(InboundMessage)
                .where(InboundMessage.game_number == number)
                .order_by(InboundMessage.id.desc())
            ).scalars()
        )
        answers = [m.answer_id for m in inbound if m.answer_id]
        outbound = session.execute(
            select(OutboxMessage)
            .where(
                or_(
                    OutboxMessage.game_number == number,
                    OutboxMessage.message_id.in_(answers),
                )
            )
            .order_by(OutboxMessage.id.desc())
        ).scalars()
        received = [
            ReceivedMail(
                m.id,
                m.received_at,
                m.sender,
                m.subject,
                m.status,
                m.reason,
                m.entry_seq,
                m.answer_id is not None,
            )
            for m in inbound
        ]
        sent = [
            SentMail(
                m.id,
                m.created_at,
                m.message_id,
                [*json.loads(m.to_addrs), *json.loads(m.cc_addrs or "[]")],
                m.entry_seq,
                m.status,
                m.last_error,
            )
            for m in outbound
        ]
    return MailLog(summary, my_address(ctx, number, viewer.id), received, sent)
