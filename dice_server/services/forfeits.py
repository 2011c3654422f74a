"""Forfeits (IAAPA Forfeits and Annulments, Forfeits): when a request may be made, and what
the Minister of Law decides on it.

"If a player has not submitted his turn within 5 days and has not complied with the turn
submission guidelines then you may initiate a forfeit." A ``forfeit-request`` note is
accepted only from a player whose opponent owes the next move and has written nothing to
the game for 5 days since the move became his; otherwise the refusal says from when a
request becomes possible. The note reaches the opponent (who may answer with a note or a
turn), the mentor and the ministers like any note of that topic.

"If the forfeit request is approved the Minister of Law will notify both parties, issue the
forfeit victory and close out the game." "If the forfeit is not approved then the Minister of
Law will instruct both parties to continue the game and may impose special conditions as
appropriate to ensure that the game is played in a timely manner." An approval ends the
game ``forfeited``, the requester winning (the seed revealed); a denial records its
conditions and a deadline, which the scheduler watches (:func:`missed_deadlines`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator.powers import Alliance
from dice_server.errors import Conflict, Forbidden
from dice_server.models import Game, GameTurn, LedgerEntry, Member
from dice_server.verifier import parse_time

WAIT = timedelta(days=5)
"""How long a player may go without sending his turn before a forfeit may be requested."""
MOVES = frozenset({"submission", "roll", "tech-roll", "bombing-roll", "rocket-roll"})
"""The entries that are a player's turn (or part of it): a note explaining an absence is
not a turn ("has not submitted his turn")."""
SIDE_OF_ALLIANCE = {Alliance.AXIS: "axis", Alliance.ALLIES: "allies"}


def entry_time(at: str) -> datetime:
    return parse_time(at).replace(tzinfo=UTC)


@dataclass(frozen=True)
class Owing:
    """Who owes the game its next move, and since when he has been silent."""

    member_id: int
    email: str
    side: str
    silent_since: datetime


def _bodies_newest_first(session: Session, number: int) -> Iterable[dict[str, Any]]:
    rows = session.execute(
        select(LedgerEntry.body)
        .where(LedgerEntry.game_number == number)
        .order_by(LedgerEntry.seq.desc())
    ).scalars()
    for body in rows:
        yield json.loads(body)


def owing(session: Session, game: Game) -> Owing:
    """The player who owes the next move and the time since which he has sent none of his
    turn: the later of his own last turn entry (a submission or a roll) and the last one that
    made the move his (his opponent's; the game's creation when neither has played). With
    turns sent through the service the power to move decides who owes it; in a game played
    with the dice server alone, whoever did not roll last."""
    players = {game.axis_id: "axis", game.allies_id: "allies"}
    members = session.execute(select(Member).where(Member.id.in_(players))).scalars()
    emails = {m.id: m.email for m in members}
    by_email = {emails[i].casefold(): i for i in players}
    last: dict[int, datetime] = {}
    created: datetime | None = None
    submissions = False
    for body in _bodies_newest_first(session, game.number):
        submissions = submissions or body["kind"] == "submission"
        writer = by_email.get(str(body["data"].get("by", "")).casefold())
        if writer is not None and writer not in last and body["kind"] in MOVES:
            last[writer] = entry_time(body["at"])
        if body["seq"] == 1:
            created = entry_time(body["at"])
    assert created is not None
    turn = session.get(GameTurn, game.number)
    if submissions and turn is not None:
        from dice_server.services.turns import _power, player_of

        debtor = player_of(game, _power(turn.power))
    else:
        latest = max(players, key=lambda i: last.get(i, created))
        debtor = game.allies_id if latest == game.axis_id else game.axis_id
        if not last:
            debtor = game.allies_id  # nobody has written: the Allies move first (USSR)
    other = game.axis_id if debtor == game.allies_id else game.allies_id
    since = max(last.get(debtor, created), last.get(other, created))
    return Owing(debtor, emails[debtor], players[debtor], since)


def check_request(session: Session, game: Game, requester_id: int, now: datetime) -> Owing:
    """Refuse a forfeit request that the rule does not allow yet, saying when it will."""
    if requester_id not in (game.axis_id, game.allies_id):
        raise Forbidden(
            f"only a player of game {game.number} may request that his opponent forfeit"
        )
    if game.status != "active":
        raise Conflict(f"game {game.number} is {game.status}: there is nothing to forfeit")
    due = owing(session, game)
    if due.member_id == requester_id:
        raise Conflict(
            "the next move is yours: a forfeit may be requested only of a player who has not "
            "sent his turn (IAAPA Forfeits)"
        )
    possible = due.silent_since + WAIT
    if now < possible:
        raise Conflict(
            f"{due.email} has been silent only since {due.silent_since:%Y-%m-%d %H:%M} UTC: a "
            f"forfeit may be requested once he has not sent his turn within 5 days, from "
            f"{possible:%Y-%m-%d %H:%M} UTC (IAAPA Forfeits)"
        )
    return due


def requester_side(game: Game, email: str, emails: dict[int, str]) -> str:
    """The side of the player who wrote a request (by its ``by`` address)."""
    for member_id, side in ((game.axis_id, "axis"), (game.allies_id, "allies")):
        if emails[member_id].casefold() == email.casefold():
            return side
    raise Conflict("the request was not written by a player of the game")
