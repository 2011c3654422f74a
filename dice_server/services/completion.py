"""How a game ends by its players: the finish posted (IAAPA Game Completion) and an
annulment agreed (IAAPA Forfeits and Annulments, Annulments).

Who may post the finish and when, and when an annulment is mutual, are the rules engine's
(:mod:`adjudicator.rulings.completion`); this module gives it the facts (the poster's side,
the time of the game's last entry, the clock; the agreements recorded) and records the
outcome. Posting ends the game ``finished`` with that winner and reveals the seed. Each
player's agreement to annul is a signed ``ruling`` entry (status ``annulment-agreement``);
the one that makes it mutual ends the game ``annulled`` (no winner, not rated).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator.rulings.completion import annulment_agreed, finish_posting
from dice_server.db import Fetched, reading
from dice_server.dice import SealedSeed
from dice_server.errors import Conflict, Forbidden, NotFound
from dice_server.ledger import SignedEntry
from dice_server.models import Game, LedgerEntry
from dice_server.requests import check_fields, field_error, text
from dice_server.services import ServiceContext
from dice_server.services.entries import Actor, Who, record, resolve
from dice_server.services.forfeits import entry_time, players
from dice_server.services.games import SIDES, end_game
from dice_server.services.proposals import ruling_bodies

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
        ended = entry_time(_last_entry(session, number)["at"])
        permission = finish_posting(side, winner, ended, ctx.clock())
        if not permission.allowed:
            raise Conflict(permission.reason)
    reason = f"finish posted by {actor.email} ({side})" + (f": {summary}" if summary else "")
    return end_game(ctx, number, status="finished", winner=winner, reason=reason)


def agree_to_annul(ctx: ServiceContext, who: Who, number: int, payload: Any) -> SignedEntry:
    """A player agrees to annul the game (``{"reason": text}``); the second player's
    agreement annuls it. Returns the agreement's entry."""
    fields = check_fields(payload, {"reason"}, {"reason"})
    reason = text(fields, "reason", MAX_REASON)
    agreed: list[int] = []  # the earlier agreements' seqs, when this one makes it mutual

    def check(session: Session, actor: Actor, _game: Fetched) -> None:
        game = session.get_one(Game, number)
        _side_of(game, actor.id)
        if game.status != "active":
            raise Conflict(f"game {number} is {game.status}: there is nothing to annul")
        earlier = [
            ruling
            for ruling in ruling_bodies(session, number)
            if ruling["data"]["status"] == "annulment-agreement"
        ]
        for ruling in earlier:
            if str(ruling["data"]["by"]).casefold() == actor.email.casefold():
                raise Conflict(f"you agreed to annul game {number} in entry #{ruling['seq']}")
        by = [str(ruling["data"]["by"]) for ruling in earlier] + [actor.email]
        agreed.clear()
        if annulment_agreed(by, list(players(session, game).values())):
            agreed.extend(int(ruling["seq"]) for ruling in earlier)

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
