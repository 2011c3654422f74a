"""Issue 12, point 8: anyone holding a TripleA table's page link (it is in every roll mail)
could close the table while logged out. Now a participant confirms by mail: the POST on
the page only mails a one-time link to one of the table's addresses; opening the link
shows a button (a GET changes nothing); the button's POST, with the token in the form's
body, closes the table and reveals its seed, once."""

from __future__ import annotations

import dataclasses
import email
import hashlib
import json
import re
from email import policy
from email.message import EmailMessage

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from dice_server.db import reading
from dice_server.models import AddressToken, DiceTable, OutboxMessage, TableEntry
from dice_server.services import ServiceContext
from dice_server.services.members import add_member
from dice_server.triplea.addresses import register_now
from dice_server.triplea.closing import CLOSE_MAILS_PER_HOUR
from tests.bulk import table_rolls
from tests.conftest import SteppingClock

LINK = re.compile(r"https?://[^/\s]+(/tables/[^/\s]+/close\?t=\S+)")


@pytest.fixture
def table(ctx: ServiceContext) -> str:
    """The path of an open table of ger (to) and rus (cc) with two rolls; obs is registered
    too but plays elsewhere."""
    for address in ("ger@example.org", "rus@example.org", "obs@example.org"):
        register_now(ctx, address)
    return f"/tables/{table_rolls(ctx, 'ger@example.org', 'rus@example.org', 2)}"


def csrf(client: FlaskClient, path: str = "/dice/register") -> str:
    match = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', client.get(path).get_data(True))
    assert match, "no CSRF token on the page"
    return match.group(1)


def ask(client: FlaskClient, path: str, address: str) -> tuple[int, str]:
    response = client.post(
        f"{path}/close-link", data={"csrf_token": csrf(client), "email": address}
    )
    return response.status_code, response.get_data(as_text=True)


def close_mails(ctx: ServiceContext) -> list[tuple[list[str], str]]:
    """Every close link mailed: (recipients, link path), oldest first."""
    with reading(ctx.sessions) as session:
        rows = session.execute(
            select(OutboxMessage.to_addrs, OutboxMessage.raw)
            .where(OutboxMessage.raw.is_not(None))
            .order_by(OutboxMessage.id)
        ).all()
    found = []
    for to, raw in rows:
        assert raw is not None
        msg = email.message_from_bytes(raw, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        body = msg.get_body(preferencelist=("plain",))
        match = LINK.search(body.get_content() if body else "")
        if match:
            found.append((json.loads(to), match.group(1)))
    return found


def state(ctx: ServiceContext, path: str) -> tuple[str, list[str]]:
    """The table's status and the kinds of its entries."""
    with reading(ctx.sessions) as session:
        table = session.execute(
            select(DiceTable).where(DiceTable.public_id == path.rsplit("/", 1)[1])
        ).scalar_one()
        kinds = session.execute(
            select(TableEntry.kind).where(TableEntry.table_id == table.id).order_by(TableEntry.seq)
        ).scalars()
        return table.status, list(kinds)


def press(client: FlaskClient, link: str) -> int:
    """Open the link and press its button; the POST goes to the link without its token."""
    page = client.get(link)
    assert page.status_code == 200, page.get_data(as_text=True)
    html = page.get_data(as_text=True)
    action = re.search(r'<form method="post" action="([^"]+)"', html)
    token = re.search(r'<input[^>]*name="t"[^>]*value="([^"]+)"', html)
    assert action and token
    assert "t=" not in action.group(1)  # the token rides in the body, never in the POST URL
    assert token.group(1) == link.split("?t=", 1)[1]
    return client.post(
        action.group(1), data={"csrf_token": csrf(client, link), "t": token.group(1)}
    ).status_code


def test_a_post_on_the_page_link_no_longer_closes(
    client: FlaskClient, ctx: ServiceContext, table: str
) -> None:
    """What closed the table before: a logged-out POST with the page's CSRF token."""
    response = client.post(f"{table}/close", data={"csrf_token": csrf(client, table)})
    assert response.status_code == 400
    assert "copy the whole link" in response.get_data(as_text=True)
    response = client.post(f"{table}/close", data={"csrf_token": csrf(client, table), "t": "x"})
    assert response.status_code == 404
    assert state(ctx, table) == ("open", ["genesis", "roll", "roll"])


def test_a_participant_closes_by_the_mailed_link_once(
    client: FlaskClient, ctx: ServiceContext, table: str
) -> None:
    status, page = ask(client, table, "RUS@example.org")  # any letter case
    assert status == 200 and "on its way to rus@example.org" in page
    assert state(ctx, table)[0] == "open"  # asking closes nothing
    ((to, link),) = close_mails(ctx)
    assert to == ["rus@example.org"] and link.startswith(f"{table}/close?t=")
    for _ in range(2):  # opening the link (twice, as a mail scanner might) changes nothing
        shown = client.get(link)
        assert shown.status_code == 200 and "Close the table and reveal its seed" in shown.text
    assert state(ctx, table) == ("open", ["genesis", "roll", "roll"])
    assert press(client, link) == 302
    assert state(ctx, table) == ("closed", ["genesis", "roll", "roll", "seed-reveal"])
    closed = client.get(table).get_data(as_text=True)
    assert "table closed: seed revealed" in closed and "/close-link" not in closed
    # Once only: the link's page and its POST both say so, and nothing more is written.
    again = client.get(link)
    assert again.status_code == 409 and "already used" in again.get_data(as_text=True)
    token = link.split("?t=", 1)[1]
    response = client.post(link.split("?", 1)[0], data={"csrf_token": csrf(client), "t": token})
    assert response.status_code == 409
    assert state(ctx, table)[1].count("seed-reveal") == 1


def test_a_confirmed_member_at_the_table_gets_a_link_too(
    client: FlaskClient, ctx: ServiceContext
) -> None:
    """A confirmed member's address receives dice without registering it."""
    add_member(ctx, "monty@example.org", "Monty", confirmed=True)
    register_now(ctx, "ger@example.org")
    path = f"/tables/{table_rolls(ctx, 'monty@example.org', 'ger@example.org', 1)}"
    assert ask(client, path, "monty@example.org")[0] == 200
    ((to, link),) = close_mails(ctx)
    assert to == ["monty@example.org"] and press(client, link) == 302
    assert state(ctx, path)[0] == "closed"


@pytest.mark.parametrize(
    ("address", "status", "words"),
    [
        ("obs@example.org", 403, "is not one of this table&#39;s addresses"),
        ("stranger@example.org", 403, "is not one of this table&#39;s addresses"),
        ("not an address", 400, "is not a valid address"),
        ("", 400, "This field is required"),
    ],
)
def test_nobody_else_can_get_a_link(
    client: FlaskClient, ctx: ServiceContext, table: str, address: str, status: int, words: str
) -> None:
    got, page = ask(client, table, address)
    assert got == status and words in page
    assert 'role="alert"' in page  # the refusal is shown at the form, on the table's page
    assert close_mails(ctx) == []


def test_close_mails_per_table_are_limited(
    app: Flask, client: FlaskClient, ctx: ServiceContext, clock: SteppingClock, table: str
) -> None:
    """Nobody can make the server mail a table's players without end."""
    app.extensions["pbem"] = dataclasses.replace(ctx, clock=clock)
    for _ in range(CLOSE_MAILS_PER_HOUR):
        assert ask(client, table, "ger@example.org")[0] == 200
    status, page = ask(client, table, "rus@example.org")
    assert status == 429 and "close links an hour per table" in page
    assert len(close_mails(ctx)) == CLOSE_MAILS_PER_HOUR
    clock.advance(hours=1, seconds=1)
    assert ask(client, table, "rus@example.org")[0] == 200
    assert len(close_mails(ctx)) == CLOSE_MAILS_PER_HOUR + 1


def test_a_link_closes_its_own_table_only(
    client: FlaskClient, ctx: ServiceContext, table: str
) -> None:
    other = f"/tables/{table_rolls(ctx, 'ger@example.org', 'obs@example.org', 1)}"
    assert ask(client, table, "ger@example.org")[0] == 200
    ((_, link),) = close_mails(ctx)
    token = link.split("?t=", 1)[1]
    assert client.get(f"{other}/close?t={token}").status_code == 404
    response = client.post(f"{other}/close", data={"csrf_token": csrf(client), "t": token})
    assert response.status_code == 404
    assert state(ctx, other)[0] == "open" and state(ctx, table)[0] == "open"


def test_a_link_expires(
    app: Flask, client: FlaskClient, ctx: ServiceContext, clock: SteppingClock, table: str
) -> None:
    app.extensions["pbem"] = dataclasses.replace(ctx, clock=clock)
    assert ask(client, table, "ger@example.org")[0] == 200
    ((_, link),) = close_mails(ctx)
    clock.advance(hours=48, seconds=1)
    page = client.get(link)
    assert page.status_code == 409 and "expired" in page.get_data(as_text=True)
    token = link.split("?t=", 1)[1]
    response = client.post(link.split("?", 1)[0], data={"csrf_token": csrf(client), "t": token})
    assert response.status_code == 409 and state(ctx, table)[0] == "open"


def test_a_closed_table_sends_no_more_links(
    client: FlaskClient, ctx: ServiceContext, table: str
) -> None:
    assert ask(client, table, "ger@example.org")[0] == 200
    ((_, first),) = close_mails(ctx)
    assert ask(client, table, "rus@example.org")[0] == 200
    second = close_mails(ctx)[1][1]
    assert press(client, first) == 302
    # rus's link, still unused, now finds the table closed.
    page = client.get(second)
    assert page.status_code == 409 and "already closed" in page.get_data(as_text=True)
    status, _ = ask(client, table, "rus@example.org")
    assert status == 409 and len(close_mails(ctx)) == 2


def test_the_link_token_is_stored_only_as_its_hash(
    client: FlaskClient, ctx: ServiceContext, table: str
) -> None:
    assert ask(client, table, "ger@example.org")[0] == 200
    ((_, link),) = close_mails(ctx)
    token = link.split("?t=", 1)[1]
    with reading(ctx.sessions) as session:
        (stored,) = session.execute(select(AddressToken)).scalars().all()
        table_id = session.execute(
            select(DiceTable.id).where(DiceTable.public_id == table.rsplit("/", 1)[1])
        ).scalar_one()
    assert stored.purpose == f"close:{table_id}"  # the link closes this table and no other
    assert stored.token_hash == hashlib.sha256(token.encode()).hexdigest()
