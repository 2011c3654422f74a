"""Membership on the web: registration with a confirmed address, passwords, one-time
mailed links, API tokens, and the Minister of Law's role."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from werkzeug.security import check_password_hash, generate_password_hash

from dice_server.db import reading, writing
from dice_server.errors import (
    Conflict,
    Forbidden,
    InvalidRequest,
    NotFound,
    TooManyRequests,
    Unauthorized,
)
from dice_server.models import EmailToken, Member
from dice_server.services import ServiceContext
from dice_server.services.links import spend
from dice_server.services.mailer import queue_mail
from dice_server.services.members import hash_token, normalize_email
from dice_server.services.throttle import exhausted, take, wait_left

MIN_PASSWORD = 10
MAX_PASSWORD = 200
CONFIRM_FOR = timedelta(hours=48)
RESET_FOR = timedelta(hours=1)
LOGIN_WINDOW = timedelta(minutes=15)
LOGIN_FAILURES_PER_ADDRESS = 5
LOGIN_FAILURES_PER_CLIENT = 30
# Checked against when the address is unknown, so that a wrong address takes as long.
_DUMMY_HASH = generate_password_hash("not a password of anyone", method="scrypt")


def check_password(password: str, field: str = "password") -> None:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise InvalidRequest(
            f"{field}: choose a password of {MIN_PASSWORD} to {MAX_PASSWORD} characters", field
        )


def _new_link(
    member: Member, purpose: str, lifetime: timedelta, now: datetime
) -> tuple[EmailToken, str]:
    token = secrets.token_urlsafe(32)
    row = EmailToken(
        member_id=member.id,
        purpose=purpose,
        token_hash=hash_token(token),
        expires_at=now + lifetime,
    )
    return row, token


def register(ctx: ServiceContext, email: str, name: str, password: str) -> Member:
    """A new, unconfirmed member; the confirmation link goes out through the outbox."""
    address, key = normalize_email(email)
    name = name.strip()
    if not 1 <= len(name) <= 100:
        raise InvalidRequest("name: give a name of 1 to 100 characters", "name")
    check_password(password)
    now = ctx.clock()
    try:
        with writing(ctx.sessions) as session:
            if session.execute(select(Member.id).where(Member.email_key == key)).first():
                raise Conflict(
                    f"email: {address} is already registered (addresses ignore letter case); "
                    "log in, or reset the password",
                    "email",
                )
            member = Member(
                email=address,
                email_key=key,
                name=name,
                role="player",
                confirmed=False,
                password_hash=generate_password_hash(password, method="scrypt"),
            )
            session.add(member)
            session.flush()
            _send_confirmation(session, ctx, member, now)
            return member
    except IntegrityError:
        raise Conflict(f"email: {address} is already registered", "email") from None


def _mail_link(
    session: Session,
    ctx: ServiceContext,
    member: Member,
    purpose: str,
    now: datetime,
    subject: str,
    text: str,
) -> None:
    """Make a one-time link and queue it to the member; ``text`` holds ``{link}``."""
    lifetime = CONFIRM_FOR if purpose == "confirm" else RESET_FOR
    row, token = _new_link(member, purpose, lifetime, now)
    session.add(row)
    session.flush()
    link = f"{ctx.base_url}/{purpose}/{token}"
    queue_mail(session, ctx, now, member.email, subject, text.format(link=link))


def _send_confirmation(
    session: Session, ctx: ServiceContext, member: Member, now: datetime
) -> None:
    _mail_link(
        session,
        ctx,
        member,
        "confirm",
        now,
        "Confirm your address for the PBEM dice server",
        f"Hello {member.name},\n\nconfirm your address by opening this link within 48 hours:\n"
        "{link}\n\nThe link works once. If you did not register, ignore this message.\n",
    )


def resend_confirmation(ctx: ServiceContext, member_id: int) -> None:
    now = ctx.clock()
    with writing(ctx.sessions) as session:
        member = session.get_one(Member, member_id)
        if member.confirmed:
            raise Conflict("your address is already confirmed")
        if not take(session, f"confirm-mail:{member_id}", 3, timedelta(hours=1), now):
            raise TooManyRequests("three confirmation mails an hour at most: check your inbox")
        _send_confirmation(session, ctx, member, now)


def confirm(ctx: ServiceContext, token: str) -> Member:
    with writing(ctx.sessions) as session:
        link = spend(session, EmailToken, token, "confirm", ctx.clock())
        member = session.get_one(Member, link.member_id)
        member.confirmed = True
        return member


def authenticate(ctx: ServiceContext, email: str, password: str, client: str) -> Member:
    """Check a password; failures are limited per address and per client (a 429 then)."""
    now = ctx.clock()
    try:
        _, key = normalize_email(email)
    except InvalidRequest:
        key = email.strip().casefold()
    keys = (
        (f"login:address:{key}", LOGIN_FAILURES_PER_ADDRESS),
        (f"login:client:{client}", LOGIN_FAILURES_PER_CLIENT),
    )
    with writing(ctx.sessions) as session:
        for throttle, limit in keys:
            if exhausted(session, throttle, limit, LOGIN_WINDOW, now):
                minutes = (
                    int(wait_left(session, throttle, LOGIN_WINDOW, now).total_seconds() // 60) + 1
                )
                raise TooManyRequests(
                    f"too many failed log-ins: wait {minutes} minutes, or reset your password"
                )
        member = session.execute(select(Member).where(Member.email_key == key)).scalar_one_or_none()
        stored = member.password_hash if member and member.password_hash else _DUMMY_HASH
        if check_password_hash(stored, password) and member is not None and member.password_hash:
            return member
        for throttle, limit in keys:
            take(session, throttle, limit, LOGIN_WINDOW, now)
    raise Unauthorized("wrong address or password")


def request_reset(ctx: ServiceContext, email: str) -> None:
    """Mail a reset link if the address is a member's; say nothing either way."""
    now = ctx.clock()
    try:
        _, key = normalize_email(email)
    except InvalidRequest:
        return
    with writing(ctx.sessions) as session:
        member = session.execute(select(Member).where(Member.email_key == key)).scalar_one_or_none()
        if member is None:
            return
        if not take(session, f"reset-mail:{member.id}", 3, timedelta(hours=1), now):
            return
        _mail_link(
            session,
            ctx,
            member,
            "reset",
            now,
            "Reset your password for the PBEM dice server",
            f"Hello {member.name},\n\nchoose a new password within the hour at:\n"
            "{link}\n\nIf you did not ask for this, ignore it: your password is unchanged.\n",
        )


def reset_password(ctx: ServiceContext, token: str, password: str) -> Member:
    check_password(password)
    with writing(ctx.sessions) as session:
        link = spend(session, EmailToken, token, "reset", ctx.clock())
        member = session.get_one(Member, link.member_id)
        member.password_hash = generate_password_hash(password, method="scrypt")
        return member


def set_password(ctx: ServiceContext, email: str, password: str) -> Member:
    """For operators (`pbem member password`): set a member's password directly."""
    check_password(password)
    _, key = normalize_email(email)
    with writing(ctx.sessions) as session:
        member = session.execute(select(Member).where(Member.email_key == key)).scalar_one_or_none()
        if member is None:
            raise NotFound(f"email: no member with the address {email}", "email")
        member.password_hash = generate_password_hash(password, method="scrypt")
        return member


def regenerate_token(ctx: ServiceContext, member_id: int) -> str:
    """A new API token, shown this once; the old one stops working at once."""
    token = secrets.token_urlsafe(32)
    with writing(ctx.sessions) as session:
        session.execute(
            update(Member).where(Member.id == member_id).values(token_hash=hash_token(token))
        )
    return token


def grant_minister(ctx: ServiceContext, granter_id: int, email: str) -> Member:
    """Only a Minister of Law makes another."""
    with writing(ctx.sessions) as session:
        granter = session.get_one(Member, granter_id)
        if not granter.is_minister:
            raise Forbidden("only a Minister of Law may grant the role")
        _, key = normalize_email(email)
        member = session.execute(select(Member).where(Member.email_key == key)).scalar_one_or_none()
        if member is None:
            raise NotFound(f"email: no member with the address {email}", "email")
        member.role = "minister"
        return member


def load_member(ctx: ServiceContext, member_id: int) -> Member | None:
    with reading(ctx.sessions) as session:
        return session.get(Member, member_id)
