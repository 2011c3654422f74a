"""Shared fixtures: a real instance (keys from `pbem init`), a real migrated database
(file-backed SQLite, or PostgreSQL when PBEM_TEST_DATABASE_URL names one), the app and
its test client, and helpers to make members and games through the services."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, text

from dice_server import create_app
from dice_server.keys import init_instance
from dice_server.migrate import upgrade
from dice_server.services import ServiceContext
from dice_server.services.games import create_game
from dice_server.services.members import add_member

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
PG_URL = os.environ.get("PBEM_TEST_DATABASE_URL", "")


class SteppingClock:
    """A clock the test controls: it can stall or step back to test the time order."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 21, 12, 0, 0, tzinfo=UTC)
        self.lock = threading.Lock()

    def __call__(self) -> datetime:
        with self.lock:
            return self.now

    def advance(self, **kwargs: float) -> None:
        with self.lock:
            self.now += timedelta(**kwargs)


def reset_postgres(url: str) -> None:
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


@pytest.fixture
def instance(tmp_path: Path) -> Path:
    path = tmp_path / "instance"
    init_instance(path)
    return path


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    if PG_URL:
        reset_postgres(PG_URL)
        return PG_URL
    return f"sqlite:///{tmp_path / 'test.sqlite3'}"


@pytest.fixture
def clock() -> SteppingClock:
    return SteppingClock()


@pytest.fixture
def app(instance: Path, database_url: str) -> Iterator[Flask]:
    app = create_app(
        {"TESTING": True, "INSTANCE_PATH": str(instance), "DATABASE_URL": database_url}
    )
    engine = app.extensions["pbem"].sessions.kw["bind"]
    upgrade(engine)
    yield app
    engine.dispose()


@pytest.fixture
def ctx(app: Flask) -> ServiceContext:
    context: ServiceContext = app.extensions["pbem"]
    return context


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@dataclass
class League:
    """Members and a game made through the services, with their API tokens."""

    ctx: ServiceContext
    tokens: dict[str, str]
    game: int

    def auth(self, who: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[who]}"}


@pytest.fixture
def league(ctx: ServiceContext) -> League:
    tokens = {}
    for who, role, confirmed in [
        ("axis", "player", True),
        ("allies", "player", True),
        ("mentor", "player", True),
        ("minister", "minister", True),
        ("stranger", "player", True),
        ("unconfirmed", "player", False),
    ]:
        made = add_member(ctx, f"{who}@example.org", who.title(), role=role, confirmed=confirmed)
        tokens[who] = made.token
    entry = create_game(
        ctx,
        axis="axis@example.org",
        allies="allies@example.org",
        mentor="mentor@example.org",
        agreements=("no attack on Russia R1",),
    )
    return League(ctx=ctx, tokens=tokens, game=entry.game_number)


def battle(**overrides: Any) -> dict[str, Any]:
    """A valid battle-roll request: UK attacks West Europe."""
    request: dict[str, Any] = {
        "round": 1,
        "turn": 2,
        "country": "UK",
        "battle": "West Europe",
        "attacker": [
            {"unit": "INF", "count": 8},
            {"unit": "ARM", "count": 1},
            {"unit": "FTR", "count": 2},
        ],
        "defender": [{"unit": "INF", "count": 10}, {"unit": "AA", "count": 1}],
        "comment": "Attack #1",
    }
    request.update(overrides)
    return request


def mailed_text(ctx: Any, pattern: str) -> str:
    """The first match of ``pattern`` in the text of the latest queued non-entry message
    that has one (decoded as a mail client would: quoted-printable lines rejoined)."""
    import email
    import re
    from email import policy
    from email.message import EmailMessage

    from sqlalchemy import select

    from dice_server.db import reading
    from dice_server.models import OutboxMessage

    with reading(ctx.sessions) as session:
        raws = (
            session.execute(
                select(OutboxMessage.raw)
                .where(OutboxMessage.raw.is_not(None))
                .order_by(OutboxMessage.id.desc())
            )
            .scalars()
            .all()
        )
    for raw in raws:
        msg = email.message_from_bytes(raw, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        body = msg.get_body(preferencelist=("plain",))
        found = re.search(pattern, body.get_content() if body else "")
        if found:
            return found.group(1)
    raise AssertionError(f"no queued message matches {pattern!r}")


def follow_link(client: Any, link: str, **fields: str) -> Any:
    """Open a mailed one-time link as a member would: the GET shows a form holding the
    token; press its button (with ``fields`` filled in). Returns the POST's response."""
    import re

    page = client.get(link)
    assert page.status_code == 200, page.status_code
    html = page.get_data(as_text=True)
    forms = re.findall(r'<form method="post" action="([^"]+)"[^>]*>(.*?)</form>', html, re.S)
    found = [(action, body) for action, body in forms if 'name="t"' in body]
    assert found, "the link's page has no form with its token"
    action, body = found[0]
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', body)
    token = re.search(r'<input[^>]*name="t"[^>]*value="([^"]*)"', body)
    assert csrf and token
    return client.post(action, data={"csrf_token": csrf.group(1), "t": token.group(1), **fields})


def logged_in(app: Flask, ctx: ServiceContext, address: str) -> FlaskClient:
    """A test client logged in as the member with this address (no password needed)."""
    from sqlalchemy import select

    from dice_server.db import reading
    from dice_server.models import Member

    client = app.test_client()
    with reading(ctx.sessions) as session:
        member = session.execute(select(Member).where(Member.email == address)).scalar_one()
    with client.session_transaction() as cookie:
        cookie["_user_id"] = member.get_id()
    return client
