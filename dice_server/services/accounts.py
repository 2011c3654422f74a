"""Membership on the web: registration with a confirmed address, passwords, one-time
mailed links, API tokens, and the Minister of Law's role."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy import bindparam, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, make_transient_to_detached
from werkzeug.security import check_password_hash, generate_password_hash

from dice_server.db import Prepared, reading, writing
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
from dice_server.services.links import issue, spend
from dice_server.services.mailer import queue_mail
from dice_server.services.members import hash_token, normalize_email
from dice_server.services.throttle import admit, remaining_wait, take

MIN_PASSWORD = 10
MAX_PASSWORD = 200
CONFIRM_FOR = timedelta(hours=48)
RESET_FOR = timedelta(hours=1)
LOGIN_WINDOW = timedelta(minutes=15)
#: Failed log-ins allowed per address from one client, and per client over all addresses.
#: None is counted per address alone: a stranger's wrong guesses must not lock the owner
#: out (he logs in from his own client).
LOGIN_FAILURES_PER_ADDRESS = 5
LOGIN_FAILURES_PER_CLIENT = 30
#: Registrations one client may make in an hour (each costs a scrypt hash).
REGISTRATIONS_PER_CLIENT = 10
# Checked against when the address is unknown, so that a wrong address takes as long.
_DUMMY_HASH = generate_password_hash("not a password of anyone", method="scrypt")


def check_password(password: str, field: str = "password") -> None:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise InvalidRequest(
            f"{field}: choose a password of {MIN_PASSWORD} to {MAX_PASSWORD} characters", field
        )


def register(ctx: ServiceContext, email: str, name: str, password: str, client: str) -> str:
    """Register a new, unconfirmed member; the confirmation link goes out through the
    outbox. Returns the address as written.

    The answer is the same whether or not the address is already a member's (it must not
    tell a stranger who plays here): the owner of a known address is mailed instead, and
    learns that someone tried. The scrypt hash is computed before the write transaction,
    so a flood of registrations never holds the database's write lock for a hash, and
    ``client`` (its IP address) may register only a few times an hour, so that nobody can
    keep the server's processors busy hashing.
    """
    address, key = normalize_email(email)
    name = name.strip()
    if not 1 <= len(name) <= 100:
        raise InvalidRequest("name: give a name of 1 to 100 characters", "name")
    check_password(password)
    with writing(ctx.sessions) as session:
        wait = admit(
            session,
            f"register:client:{client}",
            REGISTRATIONS_PER_CLIENT,
            timedelta(hours=1),
            ctx.clock(),
        )
    if wait is not None:
        raise TooManyRequests(
            f"too many registrations from here: wait {int(wait.total_seconds() // 60) + 1} minutes",
            retry_after=int(wait.total_seconds()) + 1,
        )
    password_hash = generate_password_hash(password, method="scrypt")
    now = ctx.clock()
    try:
        with writing(ctx.sessions) as session:
            known = session.execute(
                select(Member).where(Member.email_key == key)
            ).scalar_one_or_none()
            if known is not None:
                _tell_owner(session, ctx, known, now)
                return address
            member = Member(
                email=address,
                email_key=key,
                name=name,
                role="player",
                confirmed=False,
                password_hash=password_hash,
            )
            session.add(member)
            session.flush()
            _send_confirmation(session, ctx, member, now)
            return address
    except IntegrityError:
        # Registered by a concurrent request a moment ago: the same answer again.
        return address


def _tell_owner(session: Session, ctx: ServiceContext, member: Member, now: datetime) -> None:
    """Someone registered with a member's address: tell the owner (at most three a day)."""
    if not take(session, f"register-known:{member.id}", 3, timedelta(days=1), now):
        return
    queue_mail(
        session,
        ctx,
        now,
        member.email,
        "Someone tried to register your address at the PBEM dice server",
        ctx.mail.render("already_member.txt", name=member.name),
    )


def _mail_link(
    session: Session,
    ctx: ServiceContext,
    member: Member,
    purpose: str,
    now: datetime,
    subject: str,
    template: str,
) -> None:
    """Make a one-time link and queue it to the member in the mail ``template``, whose
    link lands on the page that posts the token on from a form."""
    lifetime = CONFIRM_FOR if purpose == "confirm" else RESET_FOR
    token = issue(session, EmailToken, member.id, purpose, lifetime, now)
    # The token travels in the query string: the access log records paths only.
    text = ctx.mail.render(template, name=member.name, token=token)
    queue_mail(session, ctx, now, member.email, subject, text)


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
        "confirm.txt",
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
    """Check a password. Failures are limited per client for each address and per client
    over all addresses (a 429 then), never per address alone: the owner, from his own
    client, can always log in with the right password. The hash is checked outside any
    write transaction."""
    now = ctx.clock()
    try:
        _, key = normalize_email(email)
    except InvalidRequest:
        key = None  # no member has it; the dummy hash below still takes the same time
    # The address is hashed into the throttle's key: whatever was typed (a NUL byte, 60 KB)
    # fits the column and every database's text type.
    typed = hashlib.sha256(
        (key if key is not None else email.strip().casefold()).encode("utf-8", "surrogatepass")
    ).hexdigest()
    keys = (
        (f"login:client-address:{client}:{typed}", LOGIN_FAILURES_PER_ADDRESS),
        (f"login:client:{client}", LOGIN_FAILURES_PER_CLIENT),
    )
    with reading(ctx.sessions) as session:
        for throttle, limit in keys:
            left = remaining_wait(session, throttle, limit, LOGIN_WINDOW, now)
            if left is not None:
                minutes = int(left.total_seconds() // 60) + 1
                raise TooManyRequests(
                    f"too many failed log-ins from here: wait {minutes} minutes, "
                    "or reset your password",
                    retry_after=int(left.total_seconds()) + 1,
                )
        member = (
            None
            if key is None
            else session.execute(select(Member).where(Member.email_key == key)).scalar_one_or_none()
        )
    stored = member.password_hash if member and member.password_hash else _DUMMY_HASH
    if check_password_hash(stored, password) and member is not None and member.password_hash:
        return member
    with writing(ctx.sessions) as session:
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
            "reset.txt",
        )


def reset_password(ctx: ServiceContext, token: str, password: str) -> Member:
    """Spend a reset link (and every other reset link of the member) and set the password."""
    check_password(password)
    password_hash = generate_password_hash(password, method="scrypt")
    with writing(ctx.sessions) as session:
        link = spend(session, EmailToken, token, "reset", ctx.clock())
        member = session.get_one(Member, link.member_id)
        member.password_hash = password_hash
        return member


def set_password(ctx: ServiceContext, email: str, password: str) -> Member:
    """For operators (`pbem member password`): set a member's password directly."""
    check_password(password)
    _, key = normalize_email(email)
    password_hash = generate_password_hash(password, method="scrypt")
    with writing(ctx.sessions) as session:
        member = session.execute(select(Member).where(Member.email_key == key)).scalar_one_or_none()
        if member is None:
            raise NotFound(f"email: no member with the address {email}", "email")
        member.password_hash = password_hash
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


_MEMBER_COLUMNS = tuple(Member.__mapper__.column_attrs)
MEMBER_BY_ID = Prepared(
    select(*(attr.columns[0].label(attr.key) for attr in _MEMBER_COLUMNS)).where(
        Member.id == bindparam("id")
    )
)


def load_member(ctx: ServiceContext, member_id: int) -> Member | None:
    """The member logged in, for a page: read by one statement outside any session (every
    page asks, before anything else), as a detached member like one a session loaded."""
    row = MEMBER_BY_ID.read(ctx.sessions.kw["bind"], {"id": member_id})
    if row is None:
        return None
    member = Member(**row._asdict())
    make_transient_to_detached(member)
    return member
