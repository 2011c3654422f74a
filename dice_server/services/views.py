"""What the pages show: a member's games, and a game with its ledger as a timeline, a
page at a time (dice_server.services.paging)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session, selectinload

from dice_server import ledger
from dice_server.db import reading
from dice_server.errors import NotFound
from dice_server.kinds import describe, subject
from dice_server.ledger import Chain, SignedEntry
from dice_server.models import Game, GameTurn, Member
from dice_server.services import ServiceContext
from dice_server.services.games import check_participant
from dice_server.services.outbox import mail_states
from dice_server.services.paging import PAGE_ENTRIES, Pager, read_page


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
    turn: int | None
    signed: dict[str, str]
    mail: str


@dataclass(frozen=True)
class GamePage:
    """A page of a game's timeline, newest entry first."""

    summary: GameSummary
    agreements: list[str]
    entries: list[TimelineEntry]
    pages: Pager

    @property
    def turns(self) -> str:
        """The game turns the page's rolls name ("turn 3", "turns 3 to 5"; "" for a page
        without rolls)."""
        turns = sorted({e.turn for e in self.entries if isinstance(e.turn, int)})
        if not turns:
            return ""
        return f"turn {turns[0]}" if len(turns) == 1 else f"turns {turns[0]} to {turns[-1]}"


@dataclass(frozen=True)
class EntryPage:
    """One entry, and where the timeline page that shows it starts (None: the newest)."""

    summary: GameSummary
    entry: TimelineEntry
    start: int | None


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
        return _summary(_game(session, number, viewer), viewer)


def _game(session: Session, number: int, viewer: Member) -> Game:
    game: Game | None = session.execute(
        _games_query().where(Game.number == number)
    ).scalar_one_or_none()
    if game is None:
        raise NotFound(f"there is no game {number}: check the game number", "game")
    check_participant(number, set(game.participant_ids()), viewer)
    return game


def _timeline_entry(number: int, entry: SignedEntry, mail: str) -> TimelineEntry:
    data = json.loads(entry.body)["data"]
    return TimelineEntry(
        seq=entry.seq,
        at=entry.at,
        kind=entry.kind,
        by=data.get("by", "dice server"),
        title=subject(number, entry.seq, entry.kind, data),
        lines=describe(entry.kind, data),
        groups=data.get("groups", []),
        turn=data.get("turn"),
        signed=entry.signed(),
        mail=mail,
    )


def game_page(
    ctx: ServiceContext, number: int, viewer: Member, start: int | None = None
) -> GamePage:
    """One page of the game's timeline, down from entry ``start`` (else the newest): only
    that page's entries and their messages are read."""
    with reading(ctx.sessions) as session:
        game = _game(session, number, viewer)
        chain = Chain.game(number)
        page = read_page(session, chain, start)
        mail = mail_states(session, ctx.mail_domain, chain, page.entries)
        return GamePage(
            summary=_summary(game, viewer),
            agreements=[a.text for a in game.agreements],
            entries=[
                _timeline_entry(number, e, mail.get(e.seq, "not queued")) for e in page.entries
            ],
            pages=page.pages,
        )


def game_entry(ctx: ServiceContext, number: int, seq: int, viewer: Member) -> EntryPage:
    """One entry of the game's ledger, and the timeline page to go back to."""
    with reading(ctx.sessions) as session:
        game = _game(session, number, viewer)
        chain = Chain.game(number)
        entry = ledger.entry(session, chain, seq)
        if entry is None:
            raise NotFound(f"game {number} has no entry #{seq}")
        mail = mail_states(session, ctx.mail_domain, chain, [entry])
        head = ledger.head(session, chain)
        newest = head is not None and seq > head.seq - PAGE_ENTRIES
        return EntryPage(
            summary=_summary(game, viewer),
            entry=_timeline_entry(number, entry, mail.get(seq, "not queued")),
            start=None if newest else seq,
        )


def all_games(ctx: ServiceContext) -> list[str]:
    """Every game in a line (for the operator's list): number, status, the players, and
    the round and power to move."""
    with reading(ctx.sessions) as session:
        games = session.execute(
            select(Game)
            .options(selectinload(Game.axis), selectinload(Game.allies))
            .order_by(Game.number)
        ).scalars()
        turns = {t.game_number: t for t in session.execute(select(GameTurn)).scalars()}
        lines = []
        for game in games:
            turn = turns.get(game.number)
            where = f"round {turn.round}, {turn.power} {turn.phase}" if turn else "round 1, USSR"
            lines.append(
                f"{game.number}\t{game.status}\t{game.axis.name} <{game.axis.email}> (Axis) v "
                f"{game.allies.name} <{game.allies.email}> (Allies)\t{where}"
            )
        return lines
