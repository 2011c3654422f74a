"""One-time links mailed to an address (confirm it, reset a password, register or
unregister it for TripleA dice): only their hash is stored; they expire; a second use is
refused, even two uses at the same moment (a conditional UPDATE decides). Using one spends
every other link of the same owner and purpose: an older reset link must not work after a
newer one was used."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TypeVar

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from dice_server.errors import Conflict, NotFound
from dice_server.models import AddressToken, EmailToken
from dice_server.services.members import hash_token

Link = TypeVar("Link", EmailToken, AddressToken)


def spend(session: Session, model: type[Link], token: str, purpose: str, now: datetime) -> Link:
    """Spend the link inside the caller's transaction, so that what it does and its use
    are written together or not at all."""
    row = session.execute(
        select(model).where(model.token_hash == hash_token(token), model.purpose == purpose)
    ).scalar_one_or_none()
    if row is None:
        raise NotFound("this link is not valid: copy the whole link from the message")
    if row.used_at is not None:
        raise Conflict("this link was already used: each link works once")
    expires = row.expires_at if row.expires_at.tzinfo else row.expires_at.replace(tzinfo=UTC)
    if expires <= now:
        raise Conflict("this link has expired: ask for a new one")
    spent = session.execute(
        update(model).where(model.id == row.id, model.used_at.is_(None)).values(used_at=now)
    )
    if spent.rowcount != 1:  # type: ignore[attr-defined]
        raise Conflict("this link was already used: each link works once")
    owner = "member_id" if model is EmailToken else "address_id"
    session.execute(
        update(model)
        .where(
            getattr(model, owner) == getattr(row, owner),
            model.purpose == purpose,
            model.used_at.is_(None),
        )
        .values(used_at=now)
        .execution_options(synchronize_session=False)
    )
    return row
