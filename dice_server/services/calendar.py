"""A member's games in his calendar (issue 22): each active game's forfeit line as an event
of an iCalendar feed (RFC 5545) at an unguessable per-member link, for players who live in
their calendar.

The link holds a random token (``members.calendar_token``) that only opens the feed: it
cannot log in, roll or write anything, and replacing it from the account page makes the old
link answer 404 at once. The feed is read with the turn clock's own reading
(:func:`dice_server.services.reminders.read_clock`), so the event moves when a turn, a roll,
a note or an away notice moves the line.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import or_, select, update
from sqlalchemy.orm import joinedload

from dice_server.db import reading, writing
from dice_server.errors import InvalidRequest, NotFound
from dice_server.jsonbody import shown
from dice_server.models import Game, Member
from dice_server.requests import field_error
from dice_server.services import ServiceContext
from dice_server.services.reminders import read_clock

ICS_TIME = "%Y%m%dT%H%M%SZ"
"""A UTC date-time as iCalendar writes it (RFC 5545, 3.3.5, form 2)."""
LINE_OCTETS = 75
"""Content lines are folded at 75 octets (RFC 5545, 3.1)."""
EVENT_LENGTH = timedelta(minutes=30)
"""How long an event lasts in a calendar (a line is a moment; a calendar wants a span)."""


def read_renew(payload: object) -> bool:
    """A calendar link request: ``{}`` or ``{"renew": true|false}``."""
    if not isinstance(payload, dict):
        raise InvalidRequest(f"the request body must be a JSON object, not {shown(payload)}")
    unknown = sorted(set(payload) - {"renew"})
    if unknown:
        raise field_error(shown(unknown[0]).strip('"'), "unknown field; expected renew")
    renew = payload.get("renew", False)
    if not isinstance(renew, bool):
        raise field_error("renew", f"true or false, not {shown(renew)}")
    return renew


def calendar_token(ctx: ServiceContext, member_id: int, *, renew: bool = False) -> str:
    """The member's calendar token, made on first use; ``renew`` replaces it (the old link
    stops working at once)."""
    with writing(ctx.sessions) as session:
        member = session.get_one(Member, member_id)
        if member.calendar_token is None or renew:
            token = secrets.token_urlsafe(32)
            session.execute(
                update(Member).where(Member.id == member_id).values(calendar_token=token)
            )
            return token
        return member.calendar_token


@dataclass(frozen=True)
class LineEvent:
    """One game's forfeit line as the member's calendar shows it."""

    game: int
    power: str
    waiting_for: str
    since: datetime
    line: datetime
    yours: bool
    """Whether the member is the player the game waits for."""
    opponent: str
    link: str

    @property
    def uid(self) -> str:
        """Fixed per game and wait: a calendar updates the event rather than adding one
        when the line moves (an away notice), and a new wait is a new event."""
        digest = hashlib.sha256(f"{self.game}:{self.since.isoformat()}".encode()).hexdigest()
        return f"game-{self.game}-forfeit-line-{digest[:16]}"

    @property
    def summary(self) -> str:
        if self.yours:
            return f"Game {self.game}: your turn ({self.power}), forfeit line"
        return f"Game {self.game}: {self.power} to move, you may request a forfeit"

    @property
    def description(self) -> str:
        waited = (
            f"The game has waited for {self.waiting_for} since {self.since:%Y-%m-%d %H:%M} UTC."
        )
        if self.yours:
            then = (
                f"From this moment {self.opponent} may request a forfeit if your turn has "
                "not arrived (IAAPA Forfeits)."
            )
        else:
            then = (
                "From this moment you may request a forfeit if his turn has not arrived "
                "(a note with the topic forfeit-request; IAAPA Forfeits)."
            )
        return f"{waited}\n{then}\n{self.link}"


def line_events(ctx: ServiceContext, member_id: int) -> list[LineEvent]:
    """The forfeit line of each active game the member plays, soonest first."""
    wait = ctx.turn_clock.forfeit_after
    query = (
        select(Game)
        .options(joinedload(Game.axis), joinedload(Game.allies))
        .where(
            Game.status == "active",
            or_(Game.axis_id == member_id, Game.allies_id == member_id),
        )
        .order_by(Game.number)
    )
    events = []
    with reading(ctx.sessions) as session:
        for game in session.execute(query).scalars():
            clock = read_clock(session, game)
            if clock is None:
                continue
            waiting = game.axis if clock.owing.side == "axis" else game.allies
            other = game.allies if waiting is game.axis else game.axis
            events.append(
                LineEvent(
                    game=game.number,
                    power=clock.power,
                    waiting_for=f"{waiting.name} ({waiting.email})",
                    since=clock.since.astimezone(UTC),
                    line=clock.forfeit_line(wait).astimezone(UTC),
                    yours=waiting.id == member_id,
                    opponent=f"{other.name} ({other.email})",
                    link=ctx.mail.link("games.game", number=game.number),
                )
            )
    return sorted(events, key=lambda event: (event.line, event.game))


def member_calendar(ctx: ServiceContext, token: str) -> str:
    """The iCalendar feed the link with ``token`` opens (404 for an unknown or replaced
    token: nothing tells a guesser how close he came)."""
    with reading(ctx.sessions) as session:
        member = session.execute(
            select(Member).where(Member.calendar_token == token)
        ).scalar_one_or_none()
        if member is None:
            raise NotFound("no calendar at this link (was it replaced?)")
        member_id, name = member.id, member.name
    return ics(f"PBEM games of {name}", line_events(ctx, member_id), ctx.clock(), ctx.mail_domain)


def ics(name: str, events: Iterable[LineEvent], now: datetime, domain: str) -> str:
    """The feed as iCalendar text: CRLF line ends, long lines folded, text escaped."""
    stamp = now.astimezone(UTC).strftime(ICS_TIME)
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//PBEM league dice server//turn clock//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{escape(name)}",
        "X-PUBLISHED-TTL:PT1H",
    ]
    for event in events:
        lines += [
            "BEGIN:VEVENT",
            f"UID:{event.uid}@{domain}",
            f"DTSTAMP:{stamp}",
            f"DTSTART:{event.line.strftime(ICS_TIME)}",
            f"DTEND:{(event.line + EVENT_LENGTH).strftime(ICS_TIME)}",
            f"SUMMARY:{escape(event.summary)}",
            f"DESCRIPTION:{escape(event.description)}",
            f"URL:{event.link}",
            "TRANSP:TRANSPARENT",
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + "\r\n" for line in lines)


def escape(text: str) -> str:
    """A TEXT value (RFC 5545, 3.3.11): backslash, semicolon, comma and newline escaped."""
    return (
        text.replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\n", "\\n")
    )


def fold(line: str) -> str:
    """Fold a content line into pieces of at most 75 octets, never inside a UTF-8
    character; each continuation starts with one space (RFC 5545, 3.1)."""
    pieces = []
    current = b""
    limit = LINE_OCTETS
    for char in line:
        octets = char.encode()
        if len(current) + len(octets) > limit:
            pieces.append(current.decode())
            current = b""
            limit = LINE_OCTETS - 1  # the leading space counts
        current += octets
    pieces.append(current.decode())
    return "\r\n ".join(pieces)
