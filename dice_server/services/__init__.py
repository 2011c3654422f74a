"""Services: one function per use case; each owns its database transaction.

Every channel (the JSON API, the pages, the CLI and TripleA's dice server endpoints) calls
these, so a roll made anywhere lands in the same ledger by the same code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy.orm import Session, sessionmaker

from dice_server.keys import InstanceKeys


@dataclass(frozen=True)
class EntryLimit:
    """How many entries (rolls and notes) one member may write to one game per window: a
    rate no honest player reaches, so that nobody can flood the outbox and delay every
    other game's mail (``ENTRIES_PER_MEMBER_GAME`` per ``ENTRIES_WINDOW_SECONDS``)."""

    entries: int = 60
    window: timedelta = timedelta(seconds=60)


@dataclass(frozen=True)
class ServiceContext:
    """What every service needs: sessions, the instance's keys and the clock."""

    sessions: sessionmaker[Session]
    keys: InstanceKeys
    clock: Callable[[], datetime]
    mail_domain: str = "localhost"
    mail_from: str = "PBEM dice server <dice@localhost>"
    base_url: str = "http://127.0.0.1:5000"
    entry_limit: EntryLimit = field(default_factory=EntryLimit)
