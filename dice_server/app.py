"""The app factory: ``create_app`` builds the web application.

The factory reads as a list of named steps. It starts no threads, makes no network calls
and creates no keys: ``pbem init`` makes them, and the app refuses to start without them.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from email.utils import parseaddr
from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.routing import IntegerConverter, Map

from adjudicator.rulings.clock import TurnClock
from dice_server.config import TEMPLATES_DIR, instance_path, load_config
from dice_server.db import make_engine, make_sessions
from dice_server.keys import load_keys
from dice_server.mail.templates import FlaskMailTemplates
from dice_server.services import EntryLimit, InboundPolicy, ServiceContext
from dice_server.text import init_app as init_text
from dice_server.triplea import pages as triplea_pages
from dice_server.triplea import protocol as triplea_protocol
from dice_server.web import (
    api,
    auth,
    challenges,
    errors,
    games,
    health,
    luck,
    minister,
    odds,
    public,
    roller,
    security,
    turns,
    verify,
)
from dice_server.web.extensions import csrf, login_manager


def utc_now() -> datetime:
    return datetime.now(UTC)


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    path = (test_config or {}).get("INSTANCE_PATH") or instance_path()
    app = Flask(__name__, instance_path=str(Path(path)), template_folder=str(TEMPLATES_DIR))
    load_config(app, test_config)
    register_services(app)
    register_blueprints(app)
    return app


def register_services(app: Flask) -> None:
    keys = load_keys(Path(app.instance_path))
    app.secret_key = keys.secret_key
    engine = make_engine(app.config["DATABASE_URL"], int(app.config["SQLITE_BUSY_TIMEOUT_MS"]))
    app.extensions["pbem"] = ServiceContext(
        sessions=make_sessions(engine),
        keys=keys,
        clock=app.config.get("CLOCK") or utc_now,
        mail_domain=mail_domain(app.config),
        mail_from=str(app.config["MAIL_FROM"]),
        entry_limit=EntryLimit(
            entries=int(app.config["ENTRIES_PER_MEMBER_GAME"]),
            window=timedelta(seconds=float(app.config["ENTRIES_WINDOW_SECONDS"])),
        ),
        # Mail text and every link in it, under the public BASE_URL (templates/mail/).
        mail=FlaskMailTemplates(app, str(app.config["BASE_URL"])),
        inbound=InboundPolicy(
            max_bytes=int(app.config["MAIL_MAX_BYTES"]),
            require_dkim=bool(app.config.get("MAIL_REQUIRE_DKIM")),
        ),
        turn_clock=turn_clock(app.config),
    )


def turn_clock(config: Mapping[str, Any]) -> TurnClock:
    """The turn clock's settings (seconds; PBEM_* variables arrive as text)."""

    def seconds(name: str) -> timedelta:
        return timedelta(seconds=float(config[name]))

    return TurnClock(
        after=seconds("TURN_REMINDER_AFTER"),
        every=seconds("TURN_REMINDER_EVERY"),
        forfeit_after=seconds("FORFEIT_AFTER"),
    )


def mail_domain(config: Mapping[str, Any]) -> str:
    """The domain of Message-IDs: MAIL_DOMAIN, else the domain of MAIL_FROM."""
    if config.get("MAIL_DOMAIN"):
        return str(config["MAIL_DOMAIN"])
    _, address = parseaddr(str(config.get("MAIL_FROM", "")))
    return address.rpartition("@")[2] or "localhost"


class RowNumber(IntegerConverter):
    """``<int:...>`` in every route: a whole number a database row can hold (a game, an
    entry's seq, a challenge). A larger one names nothing: the route does not match, a 404,
    rather than an integer the database driver cannot bind."""

    def __init__(self, url_map: Map, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", ROW_NUMBER_MAX)
        super().__init__(url_map, *args, **kwargs)


#: The largest a row number column (SQL INTEGER, 32 bits on PostgreSQL) holds.
ROW_NUMBER_MAX = 2**31 - 1


def register_blueprints(app: Flask) -> None:
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)
    app.url_map.converters["int"] = RowNumber
    security.init_app(app)
    csrf.init_app(app)
    login_manager.init_app(app)
    errors.init_app(app)
    init_text(app)
    for blueprint in (
        health.bp,
        public.bp,
        api.bp,
        triplea_protocol.bp,
        auth.bp,
        games.bp,
        roller.bp,
        turns.bp,
        challenges.bp,
        verify.bp,
        minister.bp,
        triplea_pages.bp,
        luck.bp,
        odds.bp,
    ):
        app.register_blueprint(blueprint)
    csrf.exempt(api.bp)
    csrf.exempt(triplea_protocol.bp)
