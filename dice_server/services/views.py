"""What the pages show: a member's games, and a game with its ledger as a timeline."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import selectinload

from dice_server import ledger
from dice_server.db import reading
from dice_server.errors import NotFound
from dice_server.models import Game, Member, OutboxMessage
from dice_server.readable import describe, subject
from dice_server.services import ServiceContext
from dice_server.services.games import check_participant


@dataclass(frozen=True)
class GameSummary:
    number: int
    axis: str
    allies: str
    mentor: str | None
    variant: str | None
    status: str
    winner: str | None
    role: str


@dataclass(frozen=True)
class TimelineEntry:
    seq: int
    at: str
    kind: str
    by: str
    title: str
    lines: list[str]
    groups: list[dict[str, Any]]
    signed: dict[str, str]
    mail: str


@dataclass(frozen=True)
class GamePage:
    summary: GameSummary
    agreements: list[str]
    entries: list[TimelineEntry] = field(default_factory=list)


def _role(game: Game, member: Member) -> str:
    if member.id == game.axis_id:
        return "Axis"
    if member.id == game.allies_id:
        return "Allies"
    if member.id == game.mentor_id:
        return "Mentor"
    return "Minister of Law" if member.is_minister else ""


def _summary(game: Game, member: Member) -> GameSummary:
    return GameSummary(
        number=game.number,
        axis=game.axis.email,
        allies=game.allies.email,
        mentor=game.mentor.email if game.mentor else None,
        variant=game.variant,
        status=game.status,
        winner=game.winner,
        role=_role(game, member),
    )


def _games_query() -> Any:
    return select(Game).options(
        selectinload(Game.axis), selectinload(Game.allies), selectinload(Game.mentor)
    )


def games_for(ctx: ServiceContext, member: Member) -> list[GameSummary]:
    """The member's games; a Minister of Law sees every game."""
    query = _games_query().order_by(Game.number.desc())
    if not member.is_minister:
        query = query.where(
            or_(
                Game.axis_id == member.id,
                Game.allies_id == member.id,
                Game.mentor_id == member.id,
            )
        )
    with reading(ctx.sessions) as session:
        return [_summary(game, member) for game in session.execute(query).scalars()]


def game_summary(ctx: ServiceContext, number: int, viewer: Member) -> GameSummary:
    """A game as the roller shows it before rolling: both players' addresses."""
    with reading(ctx.sessions) as session:
        game = session.execute(_games_query().where(Game.number == number)).scalar_one_or_none()
        if game is None:
            raise NotFound(f"there is no game {number}: check the game number", "game")
        check_participant(number, set(game.participant_ids()), viewer)
        return _summary(game, viewer)


def game_page(ctx: ServiceContext, number: int, viewer: Member) -> GamePage:
    with reading(ctx.sessions) as session:
        game = session.execute(_games_query().where(Game.number == number)).scalar_one_or_none()
        if game is None:
            raise NotFound(f"there is no game {number}: check the game number", "game")
        check_participant(number, set(game.participant_ids()), viewer)
        mail = {
            row.entry_seq: row
            for row in session.execute(
                select(OutboxMessage).where(OutboxMessage.game_number == number)
            ).scalars()
        }
        timeline = []
        for entry in ledger.entries(session, number):
            data = json.loads(entry.body)["data"]
            row = mail.get(entry.seq)
            state = "not queued"
            if row is not None:
                state = row.status + (f" ({row.last_error})" if row.last_error else "")
            timeline.append(
                TimelineEntry(
                    seq=entry.seq,
                    at=entry.at,
                    kind=entry.kind,
                    by=data.get("by", "dice server"),
                    title=subject(number, entry.seq, entry.kind, data),
                    lines=describe(entry.kind, data),
                    groups=data.get("groups", []),
                    signed=entry.signed(),
                    mail=state,
                )
            )
        return GamePage(
            summary=_summary(game, viewer),
            agreements=[a.text for a in game.agreements],
            entries=timeline,
        )
