"""One-time links mailed to an address (confirm it, reset a password, register or
unregister it for TripleA dice): only their hash is stored; they expire; a second use is
refused, even two uses at the same moment (a conditional UPDATE decides). Using one spends
every other link of the same owner and purpose: an older reset link must not work after a
newer one was used."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta
from typing import TypeVar

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from dice_server.errors import Conflict, NotFound
from dice_server.models import AddressToken, EmailToken
from dice_server.services.members import hash_token

Link = TypeVar("Link", EmailToken, AddressToken)


def _owner(model: type[Link]) -> str:
    return "member_id" if model is EmailToken else "address_id"


def issue(
    session: Session,
    model: type[Link],
    owner: int,
    purpose: str,
    lifetime: timedelta,
    now: datetime,
) -> str:
    """Make a link for ``owner`` (a member's id for EmailToken, an address's for
    AddressToken) in the caller's transaction; returns the token, which only the mail
    will hold (the database keeps its hash)."""
    token = secrets.token_urlsafe(32)
    session.add(
        model(
            **{_owner(model): owner},
            purpose=purpose,
            token_hash=hash_token(token),
            expires_at=now + lifetime,
        )
    )
    session.flush()
    return token


def check(session: Session, model: type[Link], token: str, purpose: str, now: datetime) -> Link:
    """The link, if it may still be used; else why not. Only reads (a link's page, a GET,
    shows its button with this and changes nothing)."""
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
    return row


def spend(session: Session, model: type[Link], token: str, purpose: str, now: datetime) -> Link:
    """Spend the link inside the caller's transaction, so that what it does and its use
    are written together or not at all."""
    row = check(session, model, token, purpose, now)
    spent = session.execute(
        update(model).where(model.id == row.id, model.used_at.is_(None)).values(used_at=now)
    )
    if spent.rowcount != 1:  # type: ignore[attr-defined]
        raise Conflict("this link was already used: each link works once")
    owner = _owner(model)
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
