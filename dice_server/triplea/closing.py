"""Closing a TripleA table, which reveals its dice seed, is a participant's decision: the
page link travels in every roll mail, so holding it proves nothing (issue 12, point 8).
Whoever asks names one of the table's addresses; a one-time link goes to that address, and
only the link's form closes the table.

The link is an address link (dice_server.models.AddressToken: only its hash is stored; it
expires; spent once, in the transaction that closes the table) whose purpose names the
table, ``close:<table id>``, so that it closes that table and no other.
"""

from __future__ import annotations

import json
from datetime import timedelta

from sqlalchemy import select

from dice_server.db import reading, writing
from dice_server.errors import Conflict, Forbidden, TooManyRequests
from dice_server.ledger import SignedEntry
from dice_server.models import AddressToken, DiceAddress, DiceTable
from dice_server.services import ServiceContext
from dice_server.services.links import check, issue, spend
from dice_server.services.mailer import queue_mail
from dice_server.services.members import normalize_email
from dice_server.services.throttle import take
from dice_server.triplea.tables import by_public_id, mask, reveal_seed

CLOSE_LINK_FOR = timedelta(hours=48)
#: Close links one table may have mailed, per hour, whoever asks.
CLOSE_MAILS_PER_HOUR = 3


def purpose(table: DiceTable) -> str:
    """The link's purpose: closing this table (fits the 16 characters of the column up
    to table 9,999,999,999)."""
    return f"close:{table.id}"


def request_close(ctx: ServiceContext, public_id: str, email: str) -> str:
    """Mail a one-time link that closes the table to ``email``, one of its addresses;
    returns the address as the table knows it."""
    address, key = normalize_email(email)
    now = ctx.clock()
    with writing(ctx.sessions) as session:
        table = by_public_id(session, public_id, lock=True)
        if table.status != "open":
            raise Conflict("this table is already closed: its seed is revealed on its page")
        participants: dict[str, str] = {a.casefold(): a for a in json.loads(table.addresses)}
        if key not in participants:
            raise Forbidden(
                f"email: {address} is not one of this table's addresses: the link goes only "
                "to a player the dice were sent to",
                "email",
            )
        if not take(
            session, f"table-close:{table.id}", CLOSE_MAILS_PER_HOUR, timedelta(hours=1), now
        ):
            raise TooManyRequests(
                f"at most {CLOSE_MAILS_PER_HOUR} close links an hour per table: check the "
                "mail already sent, or ask again in an hour"
            )
        recipient = participants[key]
        row = session.execute(
            select(DiceAddress).where(DiceAddress.email_key == key)
        ).scalar_one_or_none()
        if row is None:
            # A confirmed member's address receives dice without a row of its own; the
            # link needs one to belong to (unconfirmed: it grants nothing).
            row = DiceAddress(email=recipient, email_key=key, confirmed=False)
            session.add(row)
            session.flush()
        token = issue(session, AddressToken, row.id, purpose(table), CLOSE_LINK_FOR, now)
        players = ", ".join(mask(a) for a in participants.values())
        queue_mail(
            session,
            ctx,
            now,
            recipient,
            f"Confirm: close TripleA table {table.id} ({table.game_name})",
            # The token rides in the link's query string (which the access log leaves
            # out); the link's page posts it back in the form's body.
            ctx.mail.render(
                "close_table.txt",
                table_id=table.id,
                game_name=table.game_name,
                players=players,
                public_id=table.public_id,
                token=token,
            ),
        )
        return recipient


def check_close_link(ctx: ServiceContext, public_id: str, token: str) -> DiceTable:
    """The table a close link would close, or why it would not: only reads, so that the
    link's page (a GET) changes nothing."""
    now = ctx.clock()
    with reading(ctx.sessions) as session:
        table = by_public_id(session, public_id)
        check(session, AddressToken, token, purpose(table), now)
        if table.status != "open":
            raise Conflict("this table is already closed: its seed is revealed on its page")
        return table


def close_with_link(ctx: ServiceContext, public_id: str, token: str) -> SignedEntry:
    """Spend the link and close its table, both or neither."""
    now = ctx.clock()
    with writing(ctx.sessions) as session:
        table = by_public_id(session, public_id, lock=True)
        spend(session, AddressToken, token, purpose(table), now)
        return reveal_seed(session, ctx, table, now)
