"""How a game ends by its players: the finish posted (IAAPA Game Completion) and an
annulment agreed (IAAPA Forfeits and Annulments, Annulments).

"Game finishes are to be entered by the victor. If, after 7 days have elapsed since the game
officially ended and the game finish has not been posted, the loser may enter the game
finish." The game officially ended with its last entry (the last turn played); the victor
may post at once, the loser 7 days after it. Posting ends the game ``finished`` with that
winner and reveals the seed.

"By mutual agreement a game may be annulled." Each player's agreement is a signed
``ruling`` entry (status ``annulment-agreement``); the second player's ends the game
``annulled`` (no winner, not rated).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from dice_server.db import reading
from dice_server.dice import SealedSeed
from dice_server.errors import Conflict, Forbidden, NotFound
from dice_server.ledger import SignedEntry
from dice_server.models import Game, LedgerEntry
from dice_server.requests import check_fields, field_error, text
from dice_server.services import ServiceContext
from dice_server.services.entries import Actor, Who, record, resolve
from dice_server.services.forfeits import entry_time
from dice_server.services.games import SIDES, end_game

LOSER_WAITS = timedelta(days=7)
"""How long after the game's end the loser waits before he may post the finish."""
MAX_REASON = 2000


def _side_of(game: Game, member_id: int) -> str:
    if member_id == game.axis_id:
        return "axis"
    if member_id == game.allies_id:
        return "allies"
    raise Forbidden(f"only a player of game {game.number} may do this")


def _last_entry(session: Session, number: int) -> dict[str, Any]:
    body = session.execute(
        select(LedgerEntry.body)
        .where(LedgerEntry.game_number == number)
        .order_by(LedgerEntry.seq.desc())
        .limit(1)
    ).scalar_one()
    last: dict[str, Any] = json.loads(body)
    return last


@dataclass(frozen=True)
class Offer:
    """What the game page offers a player of an active game: his side, and whether the
    rules engine has found Magic 84 at the end of a round (IAAPA Magic 84: the Axis have
    won, and "game finishes are to be entered by the victor")."""

    side: str
    magic_84: bool


def offer(ctx: ServiceContext, number: int, viewer_id: int) -> Offer | None:
    """The finish and annulment a player may post; None for anyone else or an ended game."""
    with reading(ctx.sessions) as session:
        game = session.get(Game, number)
        if game is None or game.status != "active":
            return None
        if viewer_id not in (game.axis_id, game.allies_id):
            return None
        latest = session.execute(
            select(LedgerEntry.body)
            .where(LedgerEntry.game_number == number, LedgerEntry.kind == "submission")
            .order_by(LedgerEntry.seq.desc())
            .limit(1)
        ).scalar_one_or_none()
        magic = bool(latest and json.loads(latest)["data"].get("magic_84", {}).get("game_over"))
        return Offer(_side_of(game, viewer_id), magic)


def finish(ctx: ServiceContext, who: Who, number: int, payload: Any) -> SignedEntry:
    """A player posts the finish: ``{"winner": "axis"|"allies", "summary"?: text}``."""
    fields = check_fields(payload, {"winner", "summary"}, {"winner"})
    winner = fields["winner"]
    if winner not in SIDES:
        raise field_error("winner", "must be axis or allies")
    summary = text(fields, "summary", MAX_REASON) if "summary" in fields else ""
    with reading(ctx.sessions) as session:
        actor = resolve(session.connection(), who)
        game = session.get(Game, number)
        if game is None:
            raise NotFound(f"there is no game {number}: check the game number", "game")
        side = _side_of(game, actor.id)
        if game.status != "active":
            raise Conflict(f"game {number} is already {game.status}")
        if side != winner:
            ended = entry_time(_last_entry(session, number)["at"])
            allowed = ended + LOSER_WAITS
            if ctx.clock() < allowed:
                raise Conflict(
                    "game finishes are to be entered by the victor; the loser may enter it "
                    f"7 days after the game ended, from {allowed:%Y-%m-%d %H:%M} UTC "
                    "(IAAPA Game Completion)"
                )
    reason = f"finish posted by {actor.email} ({side})" + (f": {summary}" if summary else "")
    return end_game(ctx, number, status="finished", winner=winner, reason=reason)


def agree_to_annul(ctx: ServiceContext, who: Who, number: int, payload: Any) -> SignedEntry:
    """A player agrees to annul the game (``{"reason": text}``); the second player's
    agreement annuls it. Returns the agreement's entry."""
    fields = check_fields(payload, {"reason"}, {"reason"})
    reason = text(fields, "reason", MAX_REASON)
    agreed: list[int] = []

    def check(session: Session, actor: Actor) -> None:
        game = session.get_one(Game, number)
        _side_of(game, actor.id)
        if game.status != "active":
            raise Conflict(f"game {number} is {game.status}: there is nothing to annul")
        emails = {actor.email.casefold()}
        for body in session.execute(
            select(LedgerEntry.body).where(
                LedgerEntry.game_number == number, LedgerEntry.kind == "ruling"
            )
        ).scalars():
            entry = json.loads(body)
            if entry["data"]["status"] != "annulment-agreement":
                continue
            if str(entry["data"]["by"]).casefold() in emails:
                raise Conflict(f"you agreed to annul game {number} in entry #{entry['seq']}")
            agreed.append(int(entry["seq"]))

    def build(_seq: int, _seed: SealedSeed | None, actor: Actor) -> dict[str, Any]:
        data: dict[str, Any] = {
            "status": "annulment-agreement",
            "reason": reason,
            "by": actor.email,
            "decision": (
                "both players agree: the game is annulled"
                if agreed
                else "one player agrees to annul the game; the other's agreement annuls it"
            ),
        }
        if agreed:
            data["refers_to"] = agreed[0]
        return data

    entry = record(ctx, who, number, "ruling", build, needs_dice=False, check=check)
    if agreed:
        end_game(
            ctx,
            number,
            status="annulled",
            reason=f"annulled by mutual agreement (entries #{agreed[0]} and #{entry.seq})",
        )
    return entry
