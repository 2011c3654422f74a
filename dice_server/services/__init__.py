"""Services: one function per use case; each owns its database transaction.

Every channel (the JSON API, the pages, the CLI and TripleA's dice server endpoints) calls
these, so a roll made anywhere lands in the same ledger by the same code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy.orm import Session, sessionmaker

from adjudicator.rulings.clock import TurnClock
from dice_server.keys import InstanceKeys


@dataclass(frozen=True)
class EntryLimit:
    """How many entries (rolls and notes) one member may write to one game per window: a
    rate no honest player reaches, so that nobody can flood the outbox and delay every
    other game's mail (``ENTRIES_PER_MEMBER_GAME`` per ``ENTRIES_WINDOW_SECONDS``)."""

    entries: int = 60
    window: timedelta = timedelta(seconds=60)


#: Looks up a DNS TXT record (name, timeout) -> its text, as dkimpy's ``dnsfunc``.
TxtLookup = Callable[..., bytes | None]


@dataclass(frozen=True)
class InboundPolicy:
    """How mail from players is received: the largest message kept whole
    (``MAIL_MAX_BYTES``), and whether a message must carry a valid DKIM signature of its
    From domain besides reaching the player's personal address (``MAIL_REQUIRE_DKIM``).
    ``dns`` replaces the resolver dkimpy asks for the signing key (None: the real DNS)."""

    max_bytes: int = 10 * 1024 * 1024
    require_dkim: bool = False
    dns: TxtLookup | None = None


class MailTemplates(Protocol):
    """Mail text from the templates under ``templates/mail/``, every link in it made by
    ``url_for(..., _external=True)`` under the public address (``BASE_URL``), never under
    the host of a request. A service names a template and gives it stored values; the
    channels implement this with the app's routes (dice_server.mail.templates)."""

    def render(self, template: str, /, **values: Any) -> str:
        """The text of ``templates/mail/<template>`` with ``values``."""
        ...

    def link(self, endpoint: str, /, **values: Any) -> str:
        """The public URL of ``endpoint`` with ``values``, for text that is not a mail's
        (a refusal a client shows, a TripleA client's answer)."""
        ...

    def at(self, base_url: str) -> MailTemplates:
        """The same templates with their links under another public address."""
        ...


class NoMailTemplates:
    """The default of a context built without the app: it renders nothing rather than
    mail a link the routes did not make."""

    def render(self, template: str, /, **values: Any) -> str:
        raise RuntimeError(f"no mail templates to render {template}: create_app sets them")

    def link(self, endpoint: str, /, **values: Any) -> str:
        raise RuntimeError(f"no routes to link {endpoint}: create_app sets them")

    def at(self, base_url: str) -> MailTemplates:
        return self


@dataclass(frozen=True)
class ServiceContext:
    """What every service needs: sessions, the instance's keys, the clock, and the mail
    templates (which make every link under the public ``BASE_URL``)."""

    sessions: sessionmaker[Session]
    keys: InstanceKeys
    clock: Callable[[], datetime]
    mail_domain: str = "localhost"
    mail_from: str = "PBEM dice server <dice@localhost>"
    entry_limit: EntryLimit = field(default_factory=EntryLimit)
    mail: MailTemplates = field(default_factory=NoMailTemplates)
    inbound: InboundPolicy = field(default_factory=InboundPolicy)
    turn_clock: TurnClock = field(default_factory=TurnClock)
    """When the player to move is reminded, and the forfeit line (``TURN_REMINDER_AFTER``,
    ``TURN_REMINDER_EVERY``, ``FORFEIT_AFTER``)."""
