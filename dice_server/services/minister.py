"""The Minister of Law's dashboard: what waits for his decision (forfeit requests, rulings
the engine proposed), the deadlines he set, the members the rules flag, and every game's
state, and every active game whose forfeit line has passed. Each decision he takes from it
is a signed ``ruling`` entry (dice_server.services.rulings)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select

from dice_server.db import reading
from dice_server.errors import Forbidden
from dice_server.models import Game, LedgerEntry, Member
from dice_server.services import ServiceContext
from dice_server.services.forfeits import entry_time
from dice_server.services.reminders import read_clock
from dice_server.services.views import GameSummary, Person, games_for

REPEATED = 2
"""Forfeited or annulled games that flag a member for the Minister (IAAPA: "Players who
continually forfeit may be subject to a Code of Conduct action"; "Players who continually
annul games may be subject to a Code of Conduct action")."""


@dataclass(frozen=True)
class Waiting:
    """A request or proposed ruling no decision refers to yet."""

    game: int
    seq: int
    at: str
    what: str
    by: str
    text: str


@dataclass(frozen=True)
class Deadline:
    game: int
    seq: int
    deadline: datetime
    absent: str
    conditions: str
    missed: bool


@dataclass(frozen=True)
class Flagged:
    member: str
    email: str
    forfeits: int
    annulments: int


@dataclass(frozen=True)
class PastLine:
    """An active game whose forfeit line has passed: whom it waits for (and the power he
    moves), since when, and when the line passed (pushed back by his away notices)."""

    game: int
    waiting_for: Person
    power: str
    since: datetime
    line: datetime


@dataclass(frozen=True)
class Dashboard:
    waiting: list[Waiting]
    deadlines: list[Deadline]
    flagged: list[Flagged]
    games: list[GameSummary]
    past_line: list[PastLine] = field(default_factory=list)


def _entries(session: Any, kinds: tuple[str, ...]) -> list[tuple[int, dict[str, Any]]]:
    rows = session.execute(
        select(LedgerEntry.game_number, LedgerEntry.body)
        .where(LedgerEntry.kind.in_(kinds))
        .order_by(LedgerEntry.game_number, LedgerEntry.seq)
    )
    return [(number, json.loads(body)) for number, body in rows]


def dashboard(ctx: ServiceContext, viewer: Member) -> Dashboard:
    if not viewer.is_minister:
        raise Forbidden("the dashboard is the Minister of Law's")
    now = ctx.clock()
    with reading(ctx.sessions) as session:
        entries = _entries(session, ("note", "ruling"))
        decided = {
            (number, body["data"]["refers_to"])
            for number, body in entries
            if body["kind"] == "ruling" and "refers_to" in body["data"]
        }
        active = set(session.execute(select(Game.number).where(Game.status == "active")).scalars())
        waiting = [
            Waiting(
                number,
                body["seq"],
                body["at"],
                "forfeit request" if body["kind"] == "note" else "proposed ruling",
                str(body["data"].get("by", "the rules engine")),
                str(body["data"].get("text") or body["data"].get("decision", "")),
            )
            for number, body in entries
            if number in active
            and (number, body["seq"]) not in decided
            and (
                (body["kind"] == "note" and body["data"]["topic"] == "forfeit-request")
                or (body["kind"] == "ruling" and body["data"]["status"] == "proposed")
            )
        ]
        deadlines = [
            Deadline(
                number,
                body["seq"],
                entry_time(body["data"]["deadline"]),
                body["data"]["absent"],
                body["data"].get("conditions", ""),
                missed=(number, body["seq"]) in decided
                or entry_time(body["data"]["deadline"]) <= now,
            )
            for number, body in entries
            if body["kind"] == "ruling" and body["data"]["status"] == "forfeit-denied"
        ]
        flagged = _flagged(session)
        past_line = _past_line(ctx, session, now)
    return Dashboard(waiting, deadlines, flagged, games_for(ctx, viewer), past_line)


def _past_line(ctx: ServiceContext, session: Any, now: datetime) -> list[PastLine]:
    """The active games whose forfeit line (``FORFEIT_AFTER``, the rule's 5 days, after
    the wait began, pushed back by away notices) has passed at ``now``, longest past first."""
    wait = ctx.turn_clock.forfeit_after
    found = []
    games = session.execute(select(Game).where(Game.status == "active").order_by(Game.number))
    for game in games.scalars():
        clock = read_clock(session, game)
        if clock is None:
            continue
        line = clock.forfeit_line(wait)
        if line <= now:
            silent = game.axis if clock.owing.side == "axis" else game.allies
            who = Person(silent.name, silent.email)
            found.append(PastLine(game.number, who, clock.power, clock.since, line))
    return sorted(found, key=lambda past: (past.line, past.game))


def _flagged(session: Any) -> list[Flagged]:
    """Members who lost :data:`REPEATED` games by forfeit, or were in as many annulled."""
    forfeits: Counter[int] = Counter()
    annulments: Counter[int] = Counter()
    for game in session.execute(
        select(Game).where(Game.status.in_(("forfeited", "annulled")))
    ).scalars():
        if game.status == "annulled":
            annulments.update((game.axis_id, game.allies_id))
        elif game.winner in ("axis", "allies"):
            forfeits[game.allies_id if game.winner == "axis" else game.axis_id] += 1
    ids = {i for i, n in forfeits.items() if n >= REPEATED} | {
        i for i, n in annulments.items() if n >= REPEATED
    }
    members = session.execute(select(Member).where(Member.id.in_(ids))).scalars()
    return sorted(
        (Flagged(m.name, m.email, forfeits[m.id], annulments[m.id]) for m in members),
        key=lambda f: (-f.forfeits, -f.annulments, f.email),
    )
