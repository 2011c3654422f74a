"""Shared fixtures: a real instance (keys from `pbem init`), a real migrated database
(file-backed SQLite, or PostgreSQL when PBEM_TEST_DATABASE_URL names one), the app and
its test client, loopback ports for test servers, and helpers to make members and games
through the services."""

from __future__ import annotations

import os
import shutil
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import Engine, create_engine, text

from dice_server.app import create_app
from dice_server.db import make_engine
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
    """Leave the database empty: no tables, no triggers, no revision."""
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def migrate(url: str) -> None:
    engine = make_engine(url)
    upgrade(engine)
    engine.dispose()


#: Everything a test could change in the schema of the PostgreSQL database (drop a
#: trigger, downgrade), as one hash: while it is the freshly migrated one, emptying the
#: tables is enough to give the next test a fresh database.
PG_SCHEMA = """
SELECT md5(string_agg(item, E'\\n' ORDER BY item)) FROM (
    SELECT 'relation ' || relname || ' ' || relkind::text AS item
      FROM pg_class WHERE relnamespace = 'public'::regnamespace
    UNION ALL
    SELECT 'column ' || attrelid::regclass || ' ' || attnum || ' ' || attname || ' '
           || format_type(atttypid, atttypmod) || ' ' || attnotnull
      FROM pg_attribute
     WHERE attnum > 0 AND NOT attisdropped
       AND attrelid IN (SELECT oid FROM pg_class WHERE relnamespace = 'public'::regnamespace)
    UNION ALL
    SELECT 'constraint ' || conrelid::regclass || ' ' || conname || ' '
           || pg_get_constraintdef(oid)
      FROM pg_constraint WHERE connamespace = 'public'::regnamespace
    UNION ALL
    SELECT 'trigger ' || pg_get_triggerdef(oid) || ' ' || tgenabled::text
      FROM pg_trigger
     WHERE NOT tgisinternal
       AND tgrelid IN (SELECT oid FROM pg_class WHERE relnamespace = 'public'::regnamespace)
    UNION ALL
    SELECT 'function ' || proname || ' ' || md5(prosrc)
      FROM pg_proc WHERE pronamespace = 'public'::regnamespace
    UNION ALL
    SELECT 'revision ' || version_num FROM public.alembic_version
) AS items
"""


class Databases:
    """Fresh databases without running the migrations for every test.

    SQLite: each test gets a copy of a database file migrated once per session.
    PostgreSQL (the one database PBEM_TEST_DATABASE_URL names): migrated once, then emptied
    before each test (TRUNCATE, skipping the append-only triggers as a replica does), and
    dropped and migrated again only after a test changed its schema, or every time when the
    role is no superuser and so may not skip the triggers.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.sqlite_template: Path | None = None
        self.pg_engine: Engine | None = None
        self.pg_schema = ""
        self.pg_tables = ""
        self.pg_superuser = False

    def fresh(self, directory: Path, name: str = "test.sqlite3") -> str:
        """The URL of a migrated database holding no rows (on SQLite, the file ``name`` in
        ``directory``)."""
        if PG_URL:
            self._empty_postgres()
            return PG_URL
        if self.sqlite_template is None:
            template = self.directory / "template.sqlite3"
            migrate(f"sqlite:///{template}")
            self.sqlite_template = template
        shutil.copyfile(self.sqlite_template, directory / name)
        return f"sqlite:///{directory / name}"

    def empty(self, directory: Path, name: str = "empty.sqlite3") -> str:
        """The URL of a database never migrated, to test the migrations themselves."""
        if PG_URL:
            reset_postgres(PG_URL)
            return PG_URL
        return f"sqlite:///{directory / name}"

    def _empty_postgres(self) -> None:
        if self.pg_engine is None:
            self.pg_engine = create_engine(PG_URL)
            with self.pg_engine.connect() as conn:
                self.pg_superuser = bool(
                    conn.execute(
                        text("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
                    ).scalar_one()
                )
        elif self.pg_superuser and self._postgres_schema() == self.pg_schema:
            with self.pg_engine.begin() as conn:
                # A connection a test leaked holding a lock fails the next test, not the run.
                conn.execute(text("SET LOCAL lock_timeout = '20s'"))
                conn.execute(text("SET LOCAL session_replication_role = replica"))
                conn.execute(text(f"TRUNCATE {self.pg_tables} RESTART IDENTITY"))
            return
        reset_postgres(PG_URL)
        migrate(PG_URL)
        self.pg_schema = self._postgres_schema()
        with self.pg_engine.connect() as conn:
            tables = conn.execute(
                text(
                    "SELECT quote_ident(tablename) FROM pg_tables "
                    "WHERE schemaname = 'public' AND tablename <> 'alembic_version'"
                )
            ).scalars()
            self.pg_tables = ", ".join(sorted(tables))

    def _postgres_schema(self) -> str:
        assert self.pg_engine is not None
        with self.pg_engine.connect() as conn:
            if conn.execute(text("SELECT to_regclass('public.alembic_version')")).scalar() is None:
                return ""  # not migrated
            return str(conn.execute(text(PG_SCHEMA)).scalar_one())

    def close(self) -> None:
        if self.pg_engine is not None:
            self.pg_engine.dispose()


@pytest.fixture(scope="session")
def databases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Databases]:
    made = Databases(tmp_path_factory.mktemp("databases"))
    yield made
    made.close()


@pytest.fixture
def instance(tmp_path: Path) -> Path:
    path = tmp_path / "instance"
    init_instance(path)
    return path


@pytest.fixture
def database_url(databases: Databases, tmp_path: Path) -> str:
    """A migrated database of the test's own, holding no rows."""
    return databases.fresh(tmp_path)


@pytest.fixture
def reserve_port() -> Iterator[Callable[[], int]]:
    """Loopback ports for test servers that no other process can take in the meantime.

    Each port stays bound here, with SO_REUSEPORT but never listening, until the test ends:
    the kernel gives it to no other ``bind`` (port 0 included), while a server that sets
    SO_REUSEPORT too (``gunicorn --reuse-port``, the test SMTP relay) binds it beside the
    holder. Until one does, connections to it are refused, as a server that is down would.
    """
    held: list[socket.socket] = []

    def reserve() -> int:
        sock = socket.socket()
        held.append(sock)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])

    yield reserve
    for sock in held:
        sock.close()


@pytest.fixture
def clock() -> SteppingClock:
    return SteppingClock()


@pytest.fixture
def app(instance: Path, database_url: str) -> Iterator[Flask]:
    app = create_app(
        {"TESTING": True, "INSTANCE_PATH": str(instance), "DATABASE_URL": database_url}
    )
    yield app
    app.extensions["pbem"].sessions.kw["bind"].dispose()


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


@pytest.fixture
def low_luck_game(ctx: ServiceContext, league: League) -> int:
    """A second game between the league's players, thrown by Low Luck."""
    entry = create_game(ctx, axis="axis@example.org", allies="allies@example.org", low_luck=True)
    return entry.game_number


def pbem_cli(app: Flask, *args: str) -> Any:
    """``pbem ARGS`` run on the app's instance and database (click's result)."""
    from click.testing import CliRunner

    from dice_server.cli import main

    env = {
        "PBEM_INSTANCE_PATH": str(app.instance_path),
        "PBEM_DATABASE_URL": str(app.config["DATABASE_URL"]),
    }
    return CliRunner(env=env).invoke(main, list(args), catch_exceptions=False)


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


def verify_game(client: Any, league: Any, game: int, tmp_path: Any) -> Any:
    """Run the standalone verifier (``dice_server/verifier.py``, as a player would, in its
    own process) on game ``game``'s ledger and the published keys, both fetched through the
    API into ``tmp_path``; the finished process (``returncode``, ``stdout``)."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    verifier = Path(__file__).resolve().parents[1] / "dice_server" / "verifier.py"
    ledger = client.get(f"/api/v1/games/{game}/ledger", headers=league.auth("axis"))
    keys = client.get("/api/v1/keys")
    (tmp_path / "ledger.json").write_text(json.dumps(ledger.get_json()))
    (tmp_path / "keys.json").write_text(json.dumps(keys.get_json()))
    return subprocess.run(
        [sys.executable, str(verifier), "ledger.json", "--keys", "keys.json"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
