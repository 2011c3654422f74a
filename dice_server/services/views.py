"""What the pages show: a member's games with whose turn it is and the players' names, a
game with its current turn (its emails, its battles, the board) and its ledger as a
timeline a page at a time (dice_server.services.paging, dice_server.services.timeline),
and the roller's game with the declared battles it fills the battle form from. A turn
email's report is dice_server.services.turn_reports."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from sqlalchemy import and_, bindparam, or_, select
from sqlalchemy.orm import Session, aliased, joinedload, selectinload

from adjudicator.boards.drawing import draw_svg
from adjudicator.names import power_label
from adjudicator.position import Position
from adjudicator.powers import Alliance, Power
from dice_server import ledger
from dice_server.db import Fetched, Prepared, reading
from dice_server.errors import NotFound
from dice_server.kinds import system_rolls
from dice_server.kinds.systems import RULES_NAMES, keeps_turns, system_of
from dice_server.ledger import Chain
from dice_server.models import Game, GameTurn, LedgerEntry, Member
from dice_server.services import ServiceContext
from dice_server.services.battle_states import BattleState, battle_states
from dice_server.services.games import check_participant, classic_turns
from dice_server.services.outbox import mail_states
from dice_server.services.paging import PAGE_ENTRIES, Pager, read_page
from dice_server.services.positions import PRE_COMBAT, genesis_position, kept_position
from dice_server.services.proposals import RulingRoll, rolls_required
from dice_server.services.reminders import GameClock, read_clock
from dice_server.services.timeline import (
    TimelineEntry,
    TurnBlock,
    group_turns,
    timeline_entry,
    void_claims,
)
from dice_server.services.turns import TurnState


@dataclass(frozen=True)
class Person:
    name: str
    email: str

    @property
    def label(self) -> str:
        """``Rommel (rommel@example.org)``: the name a player knows, the address that
        proves it."""
        return f"{self.name} ({self.email})"


@dataclass(frozen=True)
class GameSummary:
    number: int
    axis: Person
    allies: Person
    mentor: Person | None
    variant: str | None
    status: str
    winner: str | None
    role: str
    turn: TurnState
    """The round, the power to move and the phase of its turn."""
    mover: Person
    """The player of the power to move."""
    mover_side: str
    """``Axis`` or ``Allies``: the side of the power to move."""
    last_at: str | None
    """When the newest ledger entry was stamped."""
    clock: GameClock | None = None
    """Whom an active game waits for and since when (the turn clock)."""
    ruleset: str = "classic"
    """The rules its battle rounds are thrown and read by (``big_world_1942``: Big World's
    units on the roller), or the game system of a game of another (its rolls alone)."""

    @property
    def system(self) -> str:
        """The game system (``aa-classic``, ``triumph-and-tragedy``, ...)."""
        return system_of(self.ruleset)

    @property
    def roller_turn(self) -> dict[str, Any]:
        """A blank roller's game turn and country: the round and power to move of the turn
        the service keeps (none in a game whose players keep the board)."""
        return self.turn.roller_fields() if keeps_turns(self.ruleset) else {}

    @property
    def rules_name(self) -> str:
        """The game's rules as the pages name them: ``Big World 1942``."""
        return RULES_NAMES.get(self.ruleset, self.ruleset)

    @property
    def roll_pages(self) -> list[tuple[str, str]]:
        """The roller's pages of another system's game, as (title, endpoint)."""
        return [(k.title, f"roller.{k.endpoint}") for k in system_rolls(self.system)]

    @property
    def waiting_since(self) -> str:
        """When the clock started, as the pages stamp times ("" without a clock)."""
        return self.clock.json()["since"] if self.clock is not None else ""

    @property
    def waiting_for(self) -> Person | None:
        """The player the clock waits for, by name (None without a clock)."""
        if self.clock is None:
            return None
        address = self.clock.json()["waiting_for"].casefold()
        return self.axis if self.axis.email.casefold() == address else self.allies

    @property
    def my_move(self) -> bool:
        """The viewer plays the power to move."""
        return self.status == "active" and self.role == self.mover_side


def _person(member: Member) -> Person:
    return Person(member.name, member.email)


def _role(axis_id: int, allies_id: int, mentor_id: int | None, member: Member) -> str:
    if member.id == axis_id:
        return "Axis"
    if member.id == allies_id:
        return "Allies"
    if member.id == mentor_id:
        return "Mentor"
    return "Minister of Law" if member.is_minister else ""


@lru_cache(maxsize=64)
def _side(power: str) -> str:
    found = next((p for p in Power if power_label(p) == power), None)
    return "Axis" if found is not None and found.alliance is Alliance.AXIS else "Allies"


def _summary(
    game: Game | Fetched,
    member: Member,
    turn: TurnState,
    last_at: str | None,
    clock: GameClock | None,
    people: tuple[Person, Person, Person | None] | None = None,
) -> GameSummary:
    """The summary of ``game`` (a game, or a row read with its columns); ``people``: its
    players and mentor, when ``game`` is a row (a game has them)."""
    if people is None:
        assert isinstance(game, Game)
        mentor = _person(game.mentor) if game.mentor else None
        people = _person(game.axis), _person(game.allies), mentor
    axis, allies, mentor = people
    side = _side(turn.power)
    return GameSummary(
        number=game.number,
        axis=axis,
        allies=allies,
        mentor=mentor,
        variant=game.variant,
        status=game.status,
        winner=game.winner,
        role=_role(game.axis_id, game.allies_id, game.mentor_id, member),
        turn=turn,
        mover=axis if side == "Axis" else allies,
        mover_side=side,
        last_at=last_at,
        clock=clock,
        ruleset=game.ruleset,
    )


def _clock(session: Session, game: Game) -> GameClock | None:
    return read_clock(session, game) if game.status == "active" else None


def _start(session: Session, number: int) -> Position:
    """The position the game started from (its genesis names it)."""
    body = session.execute(
        select(LedgerEntry.body).where(LedgerEntry.game_number == number, LedgerEntry.seq == 1)
    ).scalar_one_or_none()
    return genesis_position(json.loads(body)["data"] if body else {})


def _turn(session: Session, number: int, row: GameTurn | None) -> TurnState:
    """Whose turn it is: the kept turn, else (a game older than kept positions) the start
    of the position its genesis names."""
    if row is not None:
        return TurnState(row.round, row.power, row.phase)
    start = _start(session, number)
    return TurnState(start.round, power_label(start.to_move), PRE_COMBAT)


def _last_at(session: Session, game: Game) -> str | None:
    if game.head_seq is None:
        return None
    return session.execute(
        select(LedgerEntry.at).where(
            LedgerEntry.game_number == game.number, LedgerEntry.seq == game.head_seq
        )
    ).scalar_one_or_none()


def summary_of(session: Session, game: Game, member: Member) -> GameSummary:
    """The game as ``member`` sees it at the top of its pages."""
    turn = _turn(session, game.number, session.get(GameTurn, game.number))
    return _summary(game, member, turn, _last_at(session, game), _clock(session, game))


def _games_query() -> Any:
    """Games with their players and mentor, read in the same query."""
    return select(Game).options(
        joinedload(Game.axis), joinedload(Game.allies), joinedload(Game.mentor)
    )


def games_for(ctx: ServiceContext, member: Member) -> list[GameSummary]:
    """The member's games, each with whose turn it is and its last activity; a Minister of
    Law sees every game."""
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
        games = list(session.execute(query).scalars())
        numbers = [game.number for game in games]
        rows = session.execute(select(GameTurn).where(GameTurn.game_number.in_(numbers)))
        turns = {row.game_number: row for row in rows.scalars()}
        newest = session.execute(
            select(LedgerEntry.game_number, LedgerEntry.at)
            .join(
                Game,
                and_(Game.number == LedgerEntry.game_number, Game.head_seq == LedgerEntry.seq),
            )
            .where(LedgerEntry.game_number.in_(numbers))
        )
        last = {number: at for number, at in newest}
        return [
            _summary(
                game,
                member,
                _turn(session, game.number, turns.get(game.number)),
                last.get(game.number),
                _clock(session, game),
            )
            for game in games
        ]


def game_summary(ctx: ServiceContext, number: int, viewer: Member) -> GameSummary:
    """A game as the roller and the turn form show it: the players by name and address,
    and whose turn it is."""
    with reading(ctx.sessions) as session:
        return summary_of(session, viewed_game(session, number, viewer), viewer)


def viewed_game(session: Session, number: int, viewer: Member) -> Game:
    """Game ``number`` with its players, for one of its participants (or a minister)."""
    game: Game | None = session.execute(
        _games_query().where(Game.number == number)
    ).scalar_one_or_none()
    if game is None:
        raise _no_game(number)
    check_participant(number, set(game.participant_ids()), viewer)
    return game


def _no_game(number: int) -> NotFound:
    return NotFound(f"there is no game {number}: check the game number", "game")


# --- the game page ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Submission:
    """A turn email of the current turn, as the game page lists it."""

    seq: int
    at: str
    headline: str
    phase: str
    in_force: bool
    late: str | None
    amends: int | None
    errors: int
    findings: int


@dataclass(frozen=True)
class GamePage:
    """The game's current turn, and a page of its timeline, newest entry first."""

    summary: GameSummary
    agreements: list[str]
    submissions: list[Submission]
    battles: list[BattleState]
    entries: list[TimelineEntry]
    pages: Pager

    @property
    def blocks(self) -> list[TurnBlock]:
        return group_turns(self.entries)

    @property
    def turns(self) -> str:
        """The game turns the page's rolls name ("turn 3", "turns 3 to 5"; "" for a page
        without rolls)."""
        turns = sorted({e.turn for e in self.entries if isinstance(e.turn, int)})
        if not turns:
            return ""
        return f"turn {turns[0]}" if len(turns) == 1 else f"turns {turns[0]} to {turns[-1]}"


def _submissions(session: Session, number: int, turn: TurnState) -> list[Submission]:
    """The turn emails of the current turn, newest first: those after the post-combat turn
    that began it (a late amendment of the turn before is not the current turn's)."""
    row = session.get(GameTurn, number)
    after = (row.previous_postcombat_seq or 0) if row is not None else 0
    found = session.execute(
        select(LedgerEntry.seq, LedgerEntry.at, LedgerEntry.body)
        .where(
            LedgerEntry.game_number == number,
            LedgerEntry.kind == "submission",
            LedgerEntry.seq > after,
        )
        .order_by(LedgerEntry.seq.desc())
    )
    out = []
    for seq, at, body in found:
        data = json.loads(body)["data"]
        if (data.get("round"), data.get("power")) != (turn.round, turn.power):
            continue
        findings = data.get("findings", [])
        amended = " (amendment)" if "amends" in data else ""
        out.append(
            Submission(
                seq=seq,
                at=at,
                headline=f"{data['phase']} turn{amended}",
                phase=str(data["phase"]),
                in_force=bool(data.get("in_force", 1)),
                late=data.get("late"),
                amends=data.get("amends"),
                errors=sum(1 for f in findings if f.get("severity") == "error"),
                findings=len(findings),
            )
        )
    return out


def _claims(session: Session, number: int, since: int) -> dict[int, tuple[int, ...]]:
    """The void-claim notes sent since entry ``since``, by the roll each names."""
    notes = session.execute(
        select(LedgerEntry.seq, LedgerEntry.body).where(
            LedgerEntry.game_number == number,
            LedgerEntry.kind == "note",
            LedgerEntry.seq > since,
        )
    )
    return void_claims((seq, body) for seq, body in notes)


def game_page(
    ctx: ServiceContext, number: int, viewer: Member, start: int | None = None
) -> GamePage:
    """The game's current turn, and one page of its timeline, down from entry ``start``
    (else the newest): only that page's entries and their messages are read."""
    battles = battle_states(ctx, number, viewer)
    with reading(ctx.sessions) as session:
        game = viewed_game(session, number, viewer)
        summary = summary_of(session, game, viewer)
        chain = Chain.game(number)
        page = read_page(session, chain, start)
        mail = mail_states(session, ctx.mail_domain, chain, page.entries)
        oldest = min([page.pages.first_seq, *(seq for b in battles for seq in b.rolls)])
        claims = _claims(session, number, oldest)
        submissions = _submissions(session, number, summary.turn)
        agreements = [a.text for a in game.agreements]
    battles = [
        replace(b, void_claims={seq: claims[seq] for seq in b.rolls if seq in claims})
        for b in battles
    ]
    return GamePage(
        summary=summary,
        agreements=agreements,
        submissions=submissions,
        battles=battles,
        entries=[
            timeline_entry(number, e, mail.get(e.seq, "not queued"), claims) for e in page.entries
        ],
        pages=page.pages,
    )


@dataclass(frozen=True)
class EntryPage:
    """One entry, and where the timeline page that shows it starts (None: the newest)."""

    summary: GameSummary
    entry: TimelineEntry
    start: int | None


def game_entry(ctx: ServiceContext, number: int, seq: int, viewer: Member) -> EntryPage:
    """One entry of the game's ledger, and the timeline page to go back to."""
    with reading(ctx.sessions) as session:
        game = viewed_game(session, number, viewer)
        chain = Chain.game(number)
        entry = ledger.entry(session, chain, seq)
        if entry is None:
            raise NotFound(f"game {number} has no entry #{seq}")
        mail = mail_states(session, ctx.mail_domain, chain, [entry])
        head = ledger.head(session, chain)
        newest = head is not None and seq > head.seq - PAGE_ENTRIES
        return EntryPage(
            summary=summary_of(session, game, viewer),
            entry=timeline_entry(
                number, entry, mail.get(seq, "not queued"), _claims(session, number, seq)
            ),
            start=None if newest else seq,
        )


# --- the board -------------------------------------------------------------------------------


@dataclass(frozen=True)
class BoardPicture:
    svg: str
    etag: str
    """Changes with the picture: a new position, or a new drawing of the same one."""


def board_svg(ctx: ServiceContext, number: int, viewer: Member) -> BoardPicture:
    """The game's current position drawn as the board (an SVG document)."""
    with reading(ctx.sessions) as session:
        classic_turns(viewed_game(session, number, viewer))
        row = session.get(GameTurn, number)
        position = (
            kept_position(row.position, row.position_sha256) if row else _start(session, number)
        )
    svg = draw_svg(position)
    return BoardPicture(svg, hashlib.sha256(svg.encode("utf-8")).hexdigest()[:32])


# --- the battle roller -----------------------------------------------------------------------


@dataclass(frozen=True)
class RollerPage:
    """The game as a roller page shows it, and for the battle roller the current turn's
    declared battles, one of them ``chosen`` to pre-fill the form, and the rolls the game's
    rulings require.

    Its summary has no turn clock and no last activity: a roller page shows neither, and the
    clock is the costliest part of a summary to read."""

    summary: GameSummary
    battles: list[BattleState]
    chosen: BattleState | None
    required: list[RulingRoll] = field(default_factory=list)


_AXIS, _ALLIES, _MENTOR = aliased(Member), aliased(Member), aliased(Member)

_ROLLER_GAME = Prepared(
    select(
        Game.number,
        Game.axis_id,
        Game.allies_id,
        Game.mentor_id,
        Game.variant,
        Game.status,
        Game.winner,
        Game.ruleset,
        _AXIS.name.label("axis_name"),
        _AXIS.email.label("axis_email"),
        _ALLIES.name.label("allies_name"),
        _ALLIES.email.label("allies_email"),
        _MENTOR.name.label("mentor_name"),
        _MENTOR.email.label("mentor_email"),
        GameTurn.round,
        GameTurn.power,
        GameTurn.phase,
    )
    .join(_AXIS, _AXIS.id == Game.axis_id)
    .join(_ALLIES, _ALLIES.id == Game.allies_id)
    .outerjoin(_MENTOR, _MENTOR.id == Game.mentor_id)
    .outerjoin(GameTurn, GameTurn.game_number == Game.number)
    .where(Game.number == bindparam("number"))
)
"""A game's players, mentor and kept turn in one row, as the roller's header shows them
(every roll from a form reads it first)."""


def _roller_summary(session: Session, number: int, viewer: Member) -> GameSummary:
    """Game ``number`` as the roller's header shows it, for one of its participants (or a
    minister): what :func:`summary_of` gives, without the clock and the last activity."""
    row = _ROLLER_GAME.first(session.connection(), {"number": number})
    if row is None:
        raise _no_game(number)
    participants = {row.axis_id, row.allies_id}
    if row.mentor_id is not None:
        participants.add(row.mentor_id)
    check_participant(number, participants, viewer)
    if row.round is not None:
        turn = TurnState(row.round, row.power, row.phase)
    else:
        turn = _turn(session, number, None)
    mentor = Person(row.mentor_name, row.mentor_email) if row.mentor_id is not None else None
    people = (
        Person(row.axis_name, row.axis_email),
        Person(row.allies_name, row.allies_email),
        mentor,
    )
    return _summary(row, viewer, turn, None, None, people)


def roller_game(ctx: ServiceContext, number: int, viewer: Member) -> GameSummary:
    """Game ``number`` as a roller page shows it (refused, as the page is, to anyone but its
    participants and the ministers): what a post needs before its form is read."""
    with reading(ctx.sessions) as session:
        return _roller_summary(session, number, viewer)


def roller_page(
    ctx: ServiceContext,
    number: int,
    viewer: Member,
    *,
    battles: bool = False,
    chosen: int | None = None,
    rulings: bool = False,
) -> RollerPage:
    """The game as a roller page shows it; ``battles``: with the current turn's declared
    battles, ``chosen`` (a battle's number) filling in the form when another round of it
    may be rolled; ``rulings``: with the rolls the game's rulings require."""
    with reading(ctx.sessions) as session:
        summary = _roller_summary(session, number, viewer)
        required = rolls_required(session, number) if rulings else []
    # Battles are declared only while a pre-combat turn is in force.
    in_combat = summary.turn.phase == "combat"
    declared = battle_states(ctx, number, viewer) if battles and in_combat else []
    pick = next((b for b in declared if b.number == chosen and b.open), None)
    return RollerPage(summary, declared, pick, required)


# --- the operator's list ---------------------------------------------------------------------


def all_games(ctx: ServiceContext) -> list[str]:
    """Every game in a line (for the operator's list): number, status, the players, and
    the round and power to move (in a game of other rules, whose turns the service does not
    keep, its rules instead)."""
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
            if not keeps_turns(game.ruleset):
                where = f"{RULES_NAMES.get(game.ruleset, game.ruleset)}: the players keep the board"
            elif turn is None:
                where = "round 1, USSR"
            else:
                where = f"round {turn.round}, {turn.power} {turn.phase}"
            lines.append(
                f"{game.number}\t{game.status}\t{game.axis.name} <{game.axis.email}> (Axis) v "
                f"{game.allies.name} <{game.allies.email}> (Allies)\t{where}"
            )
        return lines
