"""Addresses registered to receive TripleA rolls. An address must prove it is its owner's
(a one-time link mailed to it) before anyone can send it dice; so must its removal."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from dice_server.db import writing
from dice_server.errors import Conflict, NotFound, TooManyRequests
from dice_server.models import AddressToken, DiceAddress, Member
from dice_server.services import ServiceContext
from dice_server.services.links import issue, spend
from dice_server.services.mailer import queue_mail
from dice_server.services.members import normalize_email
from dice_server.services.throttle import admit, take

LINK_FOR = timedelta(hours=48)
CLIENT_WINDOW = timedelta(hours=1)


#: Link mails one client may make anyone send, per hour (addresses of its own, or not).
LINKS_PER_CLIENT = 10


def request_link(ctx: ServiceContext, email: str, purpose: str, client: str) -> None:
    """Mail a one-time link that registers (``register``) or unregisters (``unregister``)
    the address. Limited to three a day per address, and per client (``client``: its IP
    address) so that nobody can make the server mail a list of strangers."""
    address, key = normalize_email(email)
    now = ctx.clock()
    with writing(ctx.sessions) as session:
        wait = admit(session, f"address-link-client:{client}", LINKS_PER_CLIENT, CLIENT_WINDOW, now)
        if wait is not None:
            raise TooManyRequests(
                f"too many link requests from here: wait {int(wait.total_seconds() // 60) + 1} "
                "minutes",
                retry_after=int(wait.total_seconds()) + 1,
            )
    with writing(ctx.sessions) as session:
        row = session.execute(
            select(DiceAddress).where(DiceAddress.email_key == key)
        ).scalar_one_or_none()
        member = session.execute(
            select(Member).where(Member.email_key == key, Member.confirmed.is_(True))
        ).scalar_one_or_none()
        if purpose == "register" and ((row and row.confirmed) or member):
            raise Conflict(f"email: {address} can already receive dice", "email")
        if purpose == "unregister" and not (row and row.confirmed):
            raise NotFound(f"email: {address} is not registered here", "email")
        if not take(session, f"address-link:{key}", 3, timedelta(days=1), now):
            raise TooManyRequests("three links a day per address at most: check your inbox")
        if row is None:
            row = DiceAddress(email=address, email_key=key, confirmed=False)
            session.add(row)
            session.flush()
        token = issue(session, AddressToken, row.id, purpose, LINK_FOR, now)
        verb = "receive TripleA dice from" if purpose == "register" else "stop receiving dice from"
        queue_mail(
            session,
            ctx,
            now,
            address,
            f"Confirm: {address} to {verb} the PBEM dice server",
            ctx.mail.render("address_link.txt", verb=verb, purpose=purpose, token=token),
        )


def use_link(ctx: ServiceContext, token: str, purpose: str) -> str:
    """Spend a link; returns the address it registered or unregistered."""
    with writing(ctx.sessions) as session:
        link = spend(session, AddressToken, token, purpose, ctx.clock())
        address = session.get_one(DiceAddress, link.address_id)
        address.confirmed = purpose == "register"
        return address.email


def register_now(ctx: ServiceContext, email: str) -> str:
    """For operators (`pbem table register`): the address is confirmed at once."""
    address, key = normalize_email(email)
    with writing(ctx.sessions) as session:
        row = session.execute(
            select(DiceAddress).where(DiceAddress.email_key == key)
        ).scalar_one_or_none()
        if row is None:
            session.add(DiceAddress(email=address, email_key=key, confirmed=True))
        else:
            row.confirmed = True
    return address
