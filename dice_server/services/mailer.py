"""Mail that is not a ledger entry (confirmation links, password resets): rendered now and
queued in the outbox with its bytes, in the caller's transaction."""

from __future__ import annotations

import secrets
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime

from sqlalchemy.orm import Session

from dice_server.services import ServiceContext
from dice_server.services.outbox import Envelope, enqueue
from dice_server.text import neutralise_bidi


def queue_mail(
    session: Session, ctx: ServiceContext, now: datetime, to: str, subject: str, text: str
) -> str:
    """Queue a plain-text message to one address; returns its Message-ID. Bidirectional
    controls in it (a member's name, a game's) are made visible (dice_server.text)."""
    message_id = f"<{secrets.token_hex(12)}.mail@{ctx.mail_domain}>"
    msg = EmailMessage()
    msg["From"] = ctx.mail_from
    msg["To"] = to
    msg["Subject"] = neutralise_bidi(subject)
    msg["Message-ID"] = message_id
    msg["Date"] = format_datetime(now)
    msg.set_content(neutralise_bidi(text))
    enqueue(session, now, message_id, Envelope((to,)), raw=msg.as_bytes())
    return message_id
