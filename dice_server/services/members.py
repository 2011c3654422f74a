"""Members: addresses, API tokens, and the operator's `pbem member add` (registration on the
web, with its confirmation mail, is :mod:`dice_server.services.accounts`)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from functools import lru_cache

from email_validator import EmailNotValidError, validate_email
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from dice_server.db import reading, writing
from dice_server.errors import Conflict, InvalidRequest, NotFound, Unauthorized
from dice_server.models import Member
from dice_server.services import ServiceContext

ROLES = ("player", "minister")


def normalize_email(address: str, field: str = "email") -> tuple[str, str]:
    """The address as the member writes it (domain normalized) and its case-insensitive key."""
    try:
        normalized = _normalized(address)
    except EmailNotValidError as exc:
        raise InvalidRequest(f"{field}: {address!r} is not a valid address: {exc}", field) from None
    return normalized, normalized.casefold()


@lru_cache(maxsize=4096)
def _normalized(address: str) -> str:
    """A valid address normalized (a pure function of the text, and every TripleA roll
    checks two: remembered; an invalid one raises each time, and is not)."""
    return str(validate_email(address, check_deliverability=False).normalized)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class NewMember:
    id: int
    email: str
    token: str


def add_member(
    ctx: ServiceContext, email: str, name: str, *, role: str = "player", confirmed: bool = False
) -> NewMember:
    """Add a member and return the API token, shown this once (only its hash is stored)."""
    address, key = normalize_email(email)
    name = name.strip()
    if not name or len(name) > 100:
        raise InvalidRequest("name: give a name of 1 to 100 characters", "name")
    if role not in ROLES:
        raise InvalidRequest(f"role: must be one of {', '.join(ROLES)}", "role")
    token = secrets.token_urlsafe(32)
    try:
        with writing(ctx.sessions) as session:
            if session.execute(select(Member.id).where(Member.email_key == key)).first():
                raise Conflict(f"{address} is already a member (addresses ignore letter case)")
            member = Member(
                email=address,
                email_key=key,
                name=name,
                role=role,
                confirmed=confirmed,
                token_hash=hash_token(token),
            )
            session.add(member)
            session.flush()
            member_id = member.id
    except IntegrityError:
        raise Conflict(f"{address} is already a member (addresses ignore letter case)") from None
    return NewMember(id=member_id, email=address, token=token)


def member_by_token(session: Session, token: str) -> Member:
    """The member holding this API token; the comparison is constant-time."""
    digest = hash_token(token)
    member = session.execute(select(Member).where(Member.token_hash == digest)).scalar_one_or_none()
    if member is None or member.token_hash is None:
        raise Unauthorized("unknown API token: send Authorization: Bearer <your token>")
    if not hmac.compare_digest(member.token_hash, digest):
        raise Unauthorized("unknown API token: send Authorization: Bearer <your token>")
    return member


def member_by_email(session: Session, address: str, field: str = "email") -> Member:
    _, key = normalize_email(address, field)
    member = session.execute(select(Member).where(Member.email_key == key)).scalar_one_or_none()
    if member is None:
        raise NotFound(f"{field}: no member with the address {address}", field)
    return member


def member_id(ctx: ServiceContext, address: str, field: str = "email") -> int:
    """The id of the member with ``address`` (an operator's command acting for him)."""
    with reading(ctx.sessions) as session:
        return member_by_email(session, address, field).id


def all_members(ctx: ServiceContext) -> list[Member]:
    """Every member, by address (for the operator's list)."""
    with reading(ctx.sessions) as session:
        members = list(session.execute(select(Member).order_by(Member.email_key)).scalars())
        session.expunge_all()
        return members
