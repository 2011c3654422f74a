"""A key rotation's mail: the statement the old key signed, to the players of every active
game, queued through the outbox with its bytes (so a resend after a crash is the same
message under the same Message-ID), threaded on each game's first message."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from dice_server import ledger
from dice_server.ledger import Chain
from dice_server.models import Game
from dice_server.services import ServiceContext
from dice_server.services.games import recipients
from dice_server.services.outbox import enqueue, entry_message_id
from dice_server.text import neutralise_bidi

ACTIVE_GAMES = select(Game).where(Game.status == "active").order_by(Game.number)


def rotation_message_id(statement: dict[str, str], number: int, domain: str) -> str:
    """Fixed per statement and game: the statement's hash makes it unique."""
    digest = hashlib.sha256(statement["body"].encode("utf-8")).hexdigest()[:24]
    return f"<{digest}.game-{number}.key-rotation@{domain}>"


def queue_rotation_mail(
    session: Session,
    ctx: ServiceContext,
    now: datetime,
    statement: dict[str, str],
    new_key: str,
) -> list[int]:
    """Queue the statement to every active game's players (Cc its mentor), in the
    caller's transaction; returns the games' numbers. An ended game's players are not
    mailed: its ledger takes no new entry, so no entry of it needs the new key."""
    attachment = (json.dumps(statement, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
    old_key = statement["key"]
    at = json.loads(statement["body"])["at"]
    numbers = []
    for game in session.execute(ACTIVE_GAMES).scalars():
        envelope = recipients(game)
        message_id = rotation_message_id(statement, game.number, ctx.mail_domain)
        msg = EmailMessage()
        msg["Subject"] = f"[Game {game.number}] the dice server's signing key changed"
        msg["From"] = ctx.mail_from
        msg["To"] = ", ".join(envelope.to)
        if envelope.cc:
            msg["Cc"] = ", ".join(envelope.cc)
        msg["Message-ID"] = message_id
        msg["Date"] = format_datetime(now)
        genesis = ledger.entry(session, Chain.game(game.number), 1)
        if genesis is not None:
            root = entry_message_id(genesis, ctx.mail_domain)
            msg["In-Reply-To"] = root
            msg["References"] = root
        text = ctx.mail.render(
            "key_rotation.txt", number=game.number, old=old_key, new=new_key, at=at
        )
        msg.set_content(neutralise_bidi(text))
        msg.add_attachment(
            attachment,
            maintype="application",
            subtype="json",
            filename=f"key-rotation-{new_key}.json",
        )
        enqueue(session, now, message_id, envelope, raw=msg.as_bytes(), game=game.number)
        numbers.append(game.number)
    return numbers
