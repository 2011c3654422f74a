"""Challenges as their players read them: one challenge, a member's sent and received, the
league's open challenges board, and the variants register (IAAPA Variants). Bids stay sealed
from everyone but their bidder until the challenge is accepted."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import or_, select

from adjudicator.bids import check_bid
from dice_server.db import reading
from dice_server.errors import Forbidden, NotFound
from dice_server.models import Challenge, Game, Member, Variant
from dice_server.services import ServiceContext

METHODS = {"pbem": "PBEM", "face-to-face": "Face to face"}
"""IAAPA Approved Methods of Play: "The GM method of play is no longer supported"."""
AGREEMENTS_NOTE = (
    "Gentlemen's agreements are recorded with the game but are not binding: the Minister of "
    "Law will not adjudicate or enforce them (IAAPA Gentlemen's Agreements)."
)
BATTLE_DICE = {
    False: "by dice (one die for each unit)",
    True: (
        "by Low Luck (each side's power added up, a sure hit for each 6, one die for the "
        "rest): a variant, not rated"
    ),
}
"""How the game's battle rounds are thrown, by the challenge's ``low_luck`` (TripleA rule
book, "Low Luck vs. Dice"). Low Luck is not the MB 2nd edition's dice, so its games are
variant games (IAAPA Variants: "A variant game is a game where the MB 2nd Edition rules with
the Association clarifications are not followed"), recorded in the register, not rated."""


def aware(moment: datetime) -> datetime:
    """SQLite returns naive times; they were written in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def day(moment: datetime) -> str:
    return aware(moment).strftime("%Y-%m-%d %H:%M UTC")


def challenge_document(
    challenge: Challenge, viewer_id: int | None, now: datetime, *, findings: bool = False
) -> dict[str, Any]:
    """A challenge as its players see it. The challenger's bid is sealed from anyone else
    until the challenge is accepted (then both bids are in the game's genesis). An open
    challenge past its 14 days reads ``expired`` before the scheduler's job marks it.
    ``findings``: each bid shown also carries its value and what the bid check says of it
    (warnings such as a total that differs from the details; a bid with errors is never
    recorded)."""
    shown_bid = viewer_id == challenge.challenger_id or challenge.status == "accepted"
    status = challenge.status
    if status == "open" and aware(challenge.expires_at) <= now:
        status = "expired"
    bid: dict[str, Any] | str = "sealed until the challenge is accepted"
    if shown_bid:
        bid = _bid(challenge.bid_total, challenge.bid_details, findings)
    doc: dict[str, Any] = {
        "id": challenge.id,
        "status": status,
        "challenger": challenge.challenger.email,
        "challenger_name": challenge.challenger.name,
        "opponent": challenge.opponent.email,
        "opponent_name": challenge.opponent.name,
        "method": challenge.method,
        "low_luck": int(challenge.low_luck),
        "variant": challenge.variant.name if challenge.variant else None,
        "agreements": json.loads(challenge.agreements),
        "mentor": challenge.mentor.email if challenge.mentor else None,
        "mentor_name": challenge.mentor.name if challenge.mentor else None,
        "instructions": challenge.instructions,
        "message": challenge.message,
        "issued_at": day(challenge.created_at),
        "expires_at": day(challenge.expires_at),
        "closed_at": day(challenge.closed_at) if challenge.closed_at else None,
        "game": challenge.game_number,
        "bid": bid,
    }
    if challenge.status in ("accepted", "declined"):
        doc["reply_message"] = challenge.reply_message or ""
    if challenge.status == "accepted":
        doc["reply_bid"] = _bid(
            challenge.reply_bid_total or 0, challenge.reply_bid_details or "", findings
        )
    return doc


def _bid(total: int, details: str, findings: bool) -> dict[str, Any]:
    bid: dict[str, Any] = {"total": total, "details": details}
    if findings:
        check = check_bid(details, total).to_json()
        bid |= {"value": check["value"], "findings": check["findings"]}
    return bid


def challenge_view(ctx: ServiceContext, challenge_id: int, viewer: Member) -> dict[str, Any]:
    """One challenge, for its players, its mentor and the Minister of Law."""
    with reading(ctx.sessions) as session:
        challenge = session.get(Challenge, challenge_id)
        if challenge is None:
            raise NotFound(f"there is no challenge {challenge_id}: check its number", "challenge")
        allowed = {challenge.challenger_id, challenge.opponent_id, challenge.mentor_id}
        if viewer.id not in allowed and not viewer.is_minister:
            raise Forbidden(f"challenge {challenge_id} is between other members")
        return challenge_document(challenge, viewer.id, ctx.clock(), findings=True)


def my_challenges(ctx: ServiceContext, viewer: Member) -> dict[str, list[dict[str, Any]]]:
    """A member's challenges, newest first: ``sent`` and ``received``, each with its
    status (open, accepted, declined, cancelled, expired)."""
    with reading(ctx.sessions) as session:
        rows = (
            session.execute(
                select(Challenge)
                .where(
                    or_(Challenge.challenger_id == viewer.id, Challenge.opponent_id == viewer.id)
                )
                .order_by(Challenge.id.desc())
                .limit(500)
            )
            .scalars()
            .all()
        )
        now = ctx.clock()
        docs = [challenge_document(row, viewer.id, now) for row in rows]
    sent = [doc for doc, row in zip(docs, rows, strict=True) if row.challenger_id == viewer.id]
    received = [doc for doc, row in zip(docs, rows, strict=True) if row.challenger_id != viewer.id]
    return {"sent": sent, "received": received}


def open_challenges(ctx: ServiceContext) -> list[dict[str, Any]]:
    """The league's open challenges board: who challenged whom, how, and until when (bids
    stay sealed)."""
    now = ctx.clock()
    with reading(ctx.sessions) as session:
        rows = (
            session.execute(
                select(Challenge)
                .where(Challenge.status == "open", Challenge.expires_at > now)
                .order_by(Challenge.expires_at)
                .limit(500)
            )
            .scalars()
            .all()
        )
        return [challenge_document(row, None, now) for row in rows]


LOW_LUCK_VARIANT = "Low Luck battle rounds (TripleA)"
"""The register's name for every game played by Low Luck, whatever else it varies."""


def variants_register(ctx: ServiceContext) -> list[dict[str, Any]]:
    """IAAPA Variants: every variant named in a challenge, with the games played under it
    (not rated: "Your 2nd edition ratings ... will not [be] affect[ed] by variant game
    play")."""
    with reading(ctx.sessions) as session:
        variants = session.execute(select(Variant).order_by(Variant.name_key)).scalars().all()
        out = []
        for variant in variants:
            games = (
                session.execute(
                    select(Challenge.game_number)
                    .where(Challenge.variant_id == variant.id, Challenge.game_number.is_not(None))
                    .order_by(Challenge.game_number)
                )
                .scalars()
                .all()
            )
            out.append(
                {"name": variant.name, "since": day(variant.created_at), "games": list(games)}
            )
        lucky = session.execute(
            select(Game.number, Game.created_at).where(Game.low_luck).order_by(Game.number)
        ).all()
        if lucky:
            since = day(min(created for _, created in lucky))
            out.append({"name": LOW_LUCK_VARIANT, "since": since, "games": [n for n, _ in lucky]})
        return out
