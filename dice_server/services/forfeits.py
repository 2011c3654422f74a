"""Forfeits (IAAPA Forfeits and Annulments, Forfeits): the ledger's facts a forfeit request
is judged on, and the refusal of one the rule does not allow yet.

The rule itself (who owes the move, since when, and when a request may be made) is
:mod:`adjudicator.rulings.forfeits`; this module reads its facts (each entry's kind, writer
and time, the last turn played out, the players' addresses) from the database and turns a
refusal into a :class:`~dice_server.errors.Conflict`. A ``forfeit-request`` note reaches the
opponent (who may answer with a note or a turn), the mentor and the ministers like any note
of that topic; the Minister's decision on it is :mod:`dice_server.services.rulings`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator.rulings.away import AwayNotice
from adjudicator.rulings.forfeits import WAIT, Owing, OwingFold, Written, forfeit_request
from adjudicator.rulings.record import power_named
from dice_server.errors import Conflict, Forbidden
from dice_server.models import Game, GameTurn, LedgerEntry, Member
from dice_server.verifier import parse_time


def entry_time(at: str) -> datetime:
    """A ledger ``at`` stamp (or a deadline written the same way) as an aware UTC time."""
    return parse_time(at).replace(tzinfo=UTC)


def written(body: dict[str, Any]) -> Written:
    """A ledger entry's body as the forfeit rule reads it."""
    data = body["data"]
    topic = str(data.get("topic", "")) if body["kind"] == "note" else ""
    return Written(body["kind"], str(data.get("by", "")), entry_time(body["at"]), topic)


def away_notice(body: dict[str, Any]) -> AwayNotice | None:
    """An ``away`` note's days and when it was given (None for any other entry)."""
    data = body["data"]
    if body["kind"] != "note" or data.get("topic") != "away":
        return None
    days = data.get("away")
    if not isinstance(days, dict):
        return None
    try:
        first, last = date.fromisoformat(days["from"]), date.fromisoformat(days["until"])
    except (KeyError, TypeError, ValueError):
        return None
    return AwayNotice(first, last, entry_time(body["at"]))


@dataclass(frozen=True)
class Due:
    """Who owes the game its next move (the rule's :class:`Owing`), his address, and the
    away notices he has given in the game (which push his forfeit line back)."""

    owing: Owing
    email: str
    away: tuple[AwayNotice, ...] = ()


def players(session: Session, game: Game) -> dict[str, str]:
    """Each side's player's address."""
    ids = (game.axis_id, game.allies_id)
    members = session.execute(select(Member).where(Member.id.in_(ids))).scalars()
    emails = {member.id: member.email for member in members}
    return {"axis": emails[game.axis_id], "allies": emails[game.allies_id]}


@dataclass(frozen=True)
class _Folded:
    """A game's ledger folded up to entry ``seq`` (whose hash is ``hash``): the forfeit
    rule's facts and each writer's away notices."""

    seq: int
    hash: str
    fold: OwingFold
    away: dict[str, tuple[AwayNotice, ...]]


_FOLDS: dict[tuple[int, int], _Folded] = {}
"""Each game's folded ledger, by (database engine, game): a ledger only grows, so the next
reading adds the entries appended since (every process keeps its own)."""
_MAX_FOLDS = 4096


def _folded(session: Session, game: Game) -> _Folded:
    """Game ``game``'s ledger folded to its head: the fold kept from the last reading, if its
    last entry is still there unchanged, and the entries appended since."""
    key = (id(session.get_bind().engine), game.number)
    kept = _FOLDS.get(key)
    if kept is not None:
        stored = session.execute(
            select(LedgerEntry.hash).where(
                LedgerEntry.game_number == game.number, LedgerEntry.seq == kept.seq
            )
        ).scalar()
        if stored != kept.hash:
            kept = None  # another database, or a ledger rebuilt: read it whole
    rows = session.execute(
        select(LedgerEntry.seq, LedgerEntry.hash, LedgerEntry.body)
        .where(LedgerEntry.game_number == game.number, LedgerEntry.seq > (kept.seq if kept else 0))
        .order_by(LedgerEntry.seq)
    ).all()
    if kept is not None and not rows:
        return kept
    fold = kept.fold.copy() if kept is not None else OwingFold()
    away = dict(kept.away) if kept is not None else {}
    for row in rows:
        body = json.loads(row.body)
        entry = written(body)
        fold.add(entry)
        notice = away_notice(body)
        if notice is not None:
            writer = entry.by.casefold()
            away[writer] = (*away.get(writer, ()), notice)
    last = rows[-1]
    folded = _Folded(last.seq, last.hash, fold, away)
    if len(_FOLDS) >= _MAX_FOLDS:
        _FOLDS.clear()
    _FOLDS[key] = folded
    return folded


def due(session: Session, game: Game) -> Due:
    """The player who owes the next move, read from the game's ledger and its last turn
    played out (:func:`adjudicator.rulings.forfeits.owing` decides), with his away notes.
    Only the entries appended since the last reading are read (:func:`_folded`)."""
    folded = _folded(session, game)
    turn = session.get(GameTurn, game.number)
    sides = players(session, game)
    found = folded.fold.owing(sides, power_named(turn.power) if turn is not None else None)
    email = sides[found.side]
    return Due(found, email, folded.away.get(email.casefold(), ()))


def check_request(
    session: Session, game: Game, requester_id: int, now: datetime, wait: timedelta = WAIT
) -> None:
    """Refuse a forfeit request that the rule does not allow yet, saying when it will;
    ``wait`` is the league's forfeit line (``FORFEIT_AFTER``, the rule's 5 days)."""
    if requester_id not in (game.axis_id, game.allies_id):
        raise Forbidden(
            f"only a player of game {game.number} may request that his opponent forfeit"
        )
    if game.status != "active":
        raise Conflict(f"game {game.number} is {game.status}: there is nothing to forfeit")
    found = due(session, game)
    requester = "axis" if requester_id == game.axis_id else "allies"
    permission = forfeit_request(requester, found.owing, found.email, now, wait, found.away)
    if not permission.allowed:
        raise Conflict(permission.reason)


def requester_side(players: dict[str, str], email: str) -> str:
    """The side of the player who wrote a request (by its ``by`` address)."""
    for side, address in players.items():
        if address.casefold() == email.casefold():
            return side
    raise Conflict("the request was not written by a player of the game")
