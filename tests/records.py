"""For the tests that ask one app many times (the access walk, the fuzz of every POST, the
contract): an app of the module's own over a database of the suite's, and the count of
every row a request could write, to see that a refusal wrote none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from dice_server.app import create_app
from dice_server.db import reading
from dice_server.keys import init_instance
from dice_server.models import (
    AddressToken,
    BidCommitment,
    Challenge,
    DiceAddress,
    EmailToken,
    Game,
    IdempotencyKey,
    LedgerEntry,
    Member,
    OutboxMessage,
    TableEntry,
)
from dice_server.services import ServiceContext
from tests.conftest import Databases

#: Every table a request can write to (throttle counters aside: counting attempts is their
#: purpose).
WRITTEN = (
    LedgerEntry,
    TableEntry,
    OutboxMessage,
    IdempotencyKey,
    Member,
    Game,
    Challenge,
    BidCommitment,
    DiceAddress,
    EmailToken,
    AddressToken,
)
#: Limits a module's many requests must not meet.
UNLIMITED = {
    "ENTRIES_PER_MEMBER_GAME": 10**6,
    "TRIPLEA_ROLLS_PER_ADDRESS": 10**6,
    "TRIPLEA_ROLLS_PER_CLIENT": 10**6,
}


def module_app(root: Path, databases: Databases, **config: Any) -> Flask:
    """A testing app over a fresh instance in ``root`` and a fresh database."""
    init_instance(root / "instance")
    return create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(root / "instance"),
            "DATABASE_URL": databases.fresh(root, f"{root.name}.sqlite3"),
            **config,
        }
    )


def row_counts(ctx: ServiceContext) -> tuple[int, ...]:
    """The number of rows in each table of :data:`WRITTEN`, read at once."""
    counts = [select(func.count()).select_from(t).scalar_subquery() for t in WRITTEN]
    with reading(ctx.sessions) as session:
        return tuple(session.execute(select(*counts)).one())


def client_as(app: Flask, member_id: int | None) -> FlaskClient:
    """A test client logged in to the pages as the member, as a login leaves it (None: not
    logged in)."""
    client = app.test_client()
    if member_id is not None:
        with client.session_transaction() as session:
            session["_user_id"] = str(member_id)
            session["_fresh"] = True
    return client
