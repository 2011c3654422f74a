"""Challenges: how a league game starts (IAAPA How to Start a Game, Game Commitments, Game
Challenge Time Limitations, Bidding, Variants, Gentlemen's Agreements, Approved Methods of
Play).

A member issues a challenge to another with his bid; the opponent accepts with his own bid
or declines; the challenger may cancel before that; a challenge not answered in 14 days
expires (:func:`expire_challenges`, a job of ``pbem scheduler``). Each submitted bid commits
its member to play (a :class:`~dice_server.models.BidCommitment`). Bids are sealed: the
opponent bids without seeing the challenger's bid, and both are shown when the challenge is
accepted. On acceptance the lower bid plays the Axis and gets its bid, applied to the new
game's position before the first USSR turn; equal bids are decided by a die drawn in the
genesis entry (:class:`~dice_server.services.games.Draw`). What a bid is worth and where it
may place units is the rules engine's (:mod:`adjudicator.bids`). The challenger may propose
Low Luck (TripleA rule book, "Low Luck vs. Dice"); the opponent who accepts agrees to it, and
the game throws its battle rounds by it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from adjudicator.bids import (
    CHALLENGE_LIFETIME,
    BidCheck,
    Bidder,
    BidError,
    apply_bid,
    axis_by_bid,
    check_bid,
)
from adjudicator.position import Position, initial
from dice_server.db import writing
from dice_server.errors import Conflict, Forbidden, InvalidRequest, NotFound
from dice_server.jsonbody import shown
from dice_server.models import BidCommitment, Challenge, Game, Member, Variant
from dice_server.requests import check_fields, field_error, flag, text
from dice_server.services import ServiceContext
from dice_server.services.challenge_mail import mail_closed, mail_issued
from dice_server.services.challenge_views import METHODS, aware, challenge_document, day
from dice_server.services.entries import Actor, Retry, Who, resolve
from dice_server.services.games import Draw, NewGame, new_game
from dice_server.services.members import member_by_email

MAX_BID = 999
MAX_DETAILS = 2000
MAX_MESSAGE = 4000
MAX_VARIANT = 200
MAX_AGREEMENTS = 20
ISSUE_FIELDS = {
    "opponent",
    "method",
    "variant",
    "agreements",
    "mentor",
    "instructions",
    "message",
    "bid",
    "low_luck",
}


class BidRefused(InvalidRequest):
    """A bid with errors (units that do not exist, a place the power does not control...):
    nothing is recorded. The findings say each problem and its rule."""

    def __init__(self, field: str, check: BidCheck) -> None:
        errors = [f.message for f in check.findings if f.severity.value == "error"]
        super().__init__(f"{field}: the bid cannot stand: {'; '.join(errors)}", field)
        self.check = check

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "bid": self.check.to_json()}


def bid_check(payload: Any) -> dict[str, Any]:
    """``POST /api/v1/bids/check`` and ``pbem bid check``: a bid's value, findings,
    placements and IPCs against the Classic opening position. Records nothing."""
    fields = check_fields(payload, {"total", "details"}, {"total"})
    return _read_bid(fields, "").to_json()


def _read_bid(bid: Mapping[str, Any], field: str) -> BidCheck:
    """The bid ``{"total": <IPCs>, "details": "<as written>"}`` read and checked."""
    where = f"{field}." if field else ""
    total = bid.get("total")
    if type(total) is not int or not -MAX_BID <= total <= MAX_BID:
        raise field_error(
            f"{where}total",
            f"must be a whole number of IPCs from -{MAX_BID} to {MAX_BID}, not {shown(total)}",
        )
    return check_bid(text(bid, "details", MAX_DETAILS, required=False), total)


def _checked_bid(bid: Mapping[str, Any], field: str) -> BidCheck:
    """A bid that can stand: one with errors is refused (:class:`BidRefused`)."""
    check = _read_bid(bid, field)
    if not check.ok:
        raise BidRefused(field, check)
    return check


def _bid_field(payload: Mapping[str, Any]) -> tuple[BidCheck, str]:
    bid = payload.get("bid")
    if not isinstance(bid, dict):
        raise field_error("bid", 'must be an object: {"total": <IPCs>, "details": "..."}')
    check_fields(bid, {"total", "details"}, {"total"})
    check = _checked_bid(bid, "bid")
    return check, text(bid, "details", MAX_DETAILS, required=False)


def _agreements(payload: Mapping[str, Any]) -> list[str]:
    """Gentlemen's agreements: a list of texts, or one text with one agreement a line."""
    value = payload.get("agreements", [])
    if isinstance(value, str):
        value = value.splitlines()
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise field_error("agreements", "must be a list of texts (one agreement each)")
    found = [text({"agreements": a}, "agreements", MAX_VARIANT, required=False) for a in value]
    found = [item for item in found if item]
    if len(found) > MAX_AGREEMENTS:
        raise field_error("agreements", f"at most {MAX_AGREEMENTS} agreements")
    return found


def _confirmed(session: Session, address: str, field: str) -> Member:
    member = member_by_email(session, address, field)
    if not member.confirmed:
        raise InvalidRequest(
            f"{field}: {member.email} has not confirmed his membership yet: only members "
            "in good standing play league games (IAAPA Getting Started: Requirements)",
            field,
        )
    return member


def _variant(session: Session, name: str, now: datetime) -> Variant | None:
    """The register's entry for a variant, added the first time it is named."""
    if not name:
        return None
    key = " ".join(name.casefold().split())[:MAX_VARIANT]
    found = session.execute(select(Variant).where(Variant.name_key == key)).scalar_one_or_none()
    if found is not None:
        return found
    try:
        with session.begin_nested():
            variant = Variant(name=name, name_key=key, created_at=now)
            session.add(variant)
    except IntegrityError:  # named at the same moment by another challenge
        return session.execute(select(Variant).where(Variant.name_key == key)).scalar_one()
    return variant


def _actor(session: Session, who: Who) -> Actor:
    actor = resolve(session.connection(), who)
    if not actor.confirmed:
        raise Forbidden("confirm your membership first (the link in your welcome mail)")
    return actor


def issue_challenge(
    ctx: ServiceContext, who: Who, payload: Any, retry: Retry | None = None
) -> dict[str, Any]:
    """Issue a challenge with the challenger's bid; both players are mailed. Sent again
    with the same ``retry`` key (an API Idempotency-Key, a form's nonce) it answers the
    challenge the first sending issued. ``low_luck`` 1 proposes Low Luck battle rounds
    (TripleA rule book, "Low Luck vs. Dice"), a variant game (IAAPA Variants: not rated)."""
    fields = check_fields(payload, ISSUE_FIELDS, {"opponent", "bid"})
    low_luck = "low_luck" in fields and flag(fields, "low_luck") == 1
    opponent_address = text(fields, "opponent", 320)
    method = text(fields, "method", 16, required=False) or "pbem"
    if method not in METHODS:
        raise field_error(
            "method",
            f"must be one of {', '.join(METHODS)} (the GM method is no longer supported), "
            f"not {shown(method)}",
        )
    variant_name = " ".join(text(fields, "variant", MAX_VARIANT, required=False).split())
    agreements = _agreements(fields)
    mentor_address = text(fields, "mentor", 320, required=False)
    instructions = text(fields, "instructions", MAX_MESSAGE, required=False)
    message = text(fields, "message", MAX_MESSAGE, required=False)
    check, details = _bid_field(fields)
    try:
        with writing(ctx.sessions) as session:
            actor = _actor(session, who)
            key = _request_key(actor.id, retry)
            first = _sent_before(session, key, retry)
            if first is not None:
                return challenge_document(first, actor.id, ctx.clock(), findings=True)
            return _issue(
                session,
                ctx,
                actor,
                Challenge(
                    method=method,
                    low_luck=low_luck,
                    agreements=json.dumps(agreements),
                    instructions=instructions,
                    message=message,
                    bid_total=check.total,
                    bid_details=details,
                    status="open",
                    request_key=key,
                    request_fingerprint=retry.fingerprint if retry else None,
                ),
                (opponent_address, mentor_address, variant_name),
                check,
            )
    except IntegrityError:
        raise Conflict("the same challenge was sent twice at the same moment: reload") from None


def _request_key(member_id: int, retry: Retry | None) -> str | None:
    if retry is None:
        return None
    return hashlib.sha256(f"challenge:{member_id}:{retry.key}".encode()).hexdigest()


def _sent_before(session: Session, key: str | None, retry: Retry | None) -> Challenge | None:
    """The challenge a first sending of this request issued, if any."""
    if key is None or retry is None:
        return None
    first = session.execute(
        select(Challenge).where(Challenge.request_key == key)
    ).scalar_one_or_none()
    if first is not None and first.request_fingerprint != retry.fingerprint:
        raise Conflict(
            "Idempotency-Key: this key was used for a different challenge; use a new key",
            "Idempotency-Key",
        )
    return first


def _issue(
    session: Session,
    ctx: ServiceContext,
    actor: Actor,
    challenge: Challenge,
    addresses: tuple[str, str, str],
    check: BidCheck,
) -> dict[str, Any]:
    opponent_address, mentor_address, variant_name = addresses
    opponent = _confirmed(session, opponent_address, "opponent")
    if opponent.id == actor.id:
        raise InvalidRequest("opponent: you cannot challenge yourself", "opponent")
    mentor = _confirmed(session, mentor_address, "mentor") if mentor_address else None
    if mentor is not None and mentor.id in (actor.id, opponent.id):
        raise InvalidRequest("mentor: a player cannot mentor his own game", "mentor")
    now = ctx.clock()
    challenge.challenger_id, challenge.opponent_id = actor.id, opponent.id
    challenge.mentor_id = mentor.id if mentor else None
    challenge.variant = _variant(session, variant_name, now)
    challenge.created_at, challenge.expires_at = now, now + CHALLENGE_LIFETIME
    session.add(challenge)
    session.flush()
    _commit(session, challenge, actor.id, check.total, challenge.bid_details, now)
    mail_issued(session, ctx, challenge, check, now)
    return challenge_document(challenge, actor.id, now, findings=True)


def _commit(
    session: Session, challenge: Challenge, member_id: int, total: int, details: str, now: datetime
) -> None:
    """IAAPA Game Commitments: "Once you submit a bid you commit yourself to play the game.\""""
    session.add(
        BidCommitment(
            challenge_id=challenge.id, member_id=member_id, total=total, details=details, at=now
        )
    )


def _claimed(session: Session, challenge_id: int) -> Challenge:
    """The challenge, locked for this transaction (a second accept waits, then finds it
    answered)."""
    challenge = session.execute(
        select(Challenge).where(Challenge.id == challenge_id).with_for_update()
    ).scalar_one_or_none()
    if challenge is None:
        raise NotFound(f"there is no challenge {challenge_id}: check its number", "challenge")
    return challenge


def _answering(
    session: Session, ctx: ServiceContext, who: Who, challenge_id: int, verb: str
) -> tuple[Actor, Challenge, datetime]:
    """The member answering, the challenge locked, and the time, once it is checked that
    he may ``verb`` it (the opponent accepts or declines, the challenger cancels) and that
    it is still open."""
    actor = _actor(session, who)
    challenge = _claimed(session, challenge_id)
    if verb == "cancel":
        if actor.id != challenge.challenger_id:
            raise Forbidden(
                f"only {challenge.challenger.email}, who issued it, may cancel challenge "
                f"{challenge.id}"
            )
    elif actor.id != challenge.opponent_id:
        raise Forbidden(f"only {challenge.opponent.email} may {verb} challenge {challenge.id}")
    now = ctx.clock()
    _still_open(challenge, now)
    return actor, challenge, now


def _still_open(challenge: Challenge, now: datetime) -> None:
    if challenge.status == "open" and aware(challenge.expires_at) <= now:
        raise Conflict(
            f"challenge {challenge.id} expired on {day(challenge.expires_at)} (14 days after "
            "it was issued): issue a new one"
        )
    if challenge.status != "open":
        where = f" (game {challenge.game_number})" if challenge.game_number else ""
        raise Conflict(f"challenge {challenge.id} is already {challenge.status}{where}")


def accept_challenge(
    ctx: ServiceContext, who: Who, challenge_id: int, payload: Any
) -> dict[str, Any]:
    """Accept with the opponent's own bid: the game is created with the winning bid applied
    (IAAPA Bidding: "The lower bid plays the Axis powers with the benefits of the winning bid
    placed on the board before the first USSR turn.")."""
    fields = check_fields(payload, {"bid", "message"}, {"bid"})
    reply, details = _bid_field(fields)
    message = text(fields, "message", MAX_MESSAGE, required=False)
    try:
        with writing(ctx.sessions) as session:
            return _accept(session, ctx, who, challenge_id, reply, details, message)
    except IntegrityError:
        raise Conflict(
            "a game was created at the same moment: accept the challenge again"
        ) from None


def _accept(
    session: Session,
    ctx: ServiceContext,
    who: Who,
    challenge_id: int,
    reply: BidCheck,
    details: str,
    message: str,
) -> dict[str, Any]:
    actor, challenge, now = _answering(session, ctx, who, challenge_id, "accept")
    challenge.status, challenge.closed_at = "accepted", now
    challenge.reply_bid_total, challenge.reply_bid_details = reply.total, details
    challenge.reply_message = message
    _commit(session, challenge, actor.id, reply.total, details, now)
    challenger, opponent = challenge.challenger.email, challenge.opponent.email
    first = check_bid(challenge.bid_details, challenge.bid_total)
    bids = {
        challenger.casefold(): (first, challenge.bid_details),
        opponent.casefold(): (reply, details),
    }

    def setup(axis: str) -> tuple[Position, dict[str, Any]]:
        allies = opponent if axis.casefold() == challenger.casefold() else challenger
        check, written = bids[axis.casefold()]
        other, other_written = bids[allies.casefold()]
        record = {
            "challenge": challenge.id,
            "bids": {
                "axis": {"member": axis, "total": check.total, "details": written},
                "allies": {"member": allies, "total": other.total, "details": other_written},
            },
            "bid": {
                k: v
                for k, v in check.to_json().items()
                if k in ("value", "placements", "ipcs", "findings")
            },
        }
        try:
            return apply_bid(initial(), check), record
        except BidError as exc:  # checked when sent; only a changed engine gets here
            raise Conflict(
                f"the winning bid of {axis} no longer fits the opening position ({exc}): "
                "ask the Minister of Law"
            ) from None

    lower = axis_by_bid(first.total, reply.total)
    axis, allies = (opponent, challenger) if lower is Bidder.SECOND else (challenger, opponent)
    draw = None
    if lower is None:
        reason = f"equal bids of {first.total} IPCs (IAAPA Bidding)"
        draw = Draw(first=challenger, second=opponent, reason=reason)
    spec = NewGame(
        axis=axis,
        allies=allies,
        mentor=challenge.mentor.email if challenge.mentor else None,
        variant=challenge.variant.name if challenge.variant else None,
        agreements=tuple(json.loads(challenge.agreements)),
        draw=draw,
        setup=setup,
        low_luck=challenge.low_luck,
    )
    entry = new_game(session, ctx, spec)
    game = session.get_one(Game, entry.chain.number)
    challenge.game_number = game.number
    data = json.loads(entry.body)["data"]
    result: dict[str, Any] = {
        "game": game.number,
        "axis": data["players"]["axis"],
        "allies": data["players"]["allies"],
        "bid": {**data["bids"]["axis"], **data["bid"]},
        "bids": data["bids"],
        "low_luck": int(challenge.low_luck),
        "genesis": entry.signed(),
    }
    if "draw" in data:
        result["draw"] = data["draw"]
    return result


def decline_challenge(
    ctx: ServiceContext, who: Who, challenge_id: int, payload: Any
) -> dict[str, Any]:
    """Decline, with a personal message if desired; both players are mailed."""
    fields = check_fields(payload, {"message"}, set())
    message = text(fields, "message", MAX_MESSAGE, required=False)
    with writing(ctx.sessions) as session:
        actor, challenge, now = _answering(session, ctx, who, challenge_id, "decline")
        challenge.status, challenge.closed_at, challenge.reply_message = "declined", now, message
        mail_closed(session, ctx, challenge, now, f"declined by {challenge.opponent.email}")
        return challenge_document(challenge, actor.id, now, findings=True)


def cancel_challenge(
    ctx: ServiceContext, who: Who, challenge_id: int, payload: Any
) -> dict[str, Any]:
    """IAAPA Game Challenge Time Limitations: "A player may cancel a challenge at any time
    sooner, if desired." Only the challenger, and only before it is answered."""
    check_fields(payload if payload is not None else {}, set(), set())
    with writing(ctx.sessions) as session:
        actor, challenge, now = _answering(session, ctx, who, challenge_id, "cancel")
        challenge.status, challenge.closed_at = "cancelled", now
        mail_closed(session, ctx, challenge, now, f"cancelled by {challenge.challenger.email}")
        return challenge_document(challenge, actor.id, now, findings=True)


def expire_challenges(ctx: ServiceContext) -> list[int]:
    """Mark every open challenge issued 14 days ago or more expired, and tell both players
    (the ``challenges`` job of ``pbem scheduler``). Returns the challenges expired."""
    now = ctx.clock()
    with writing(ctx.sessions) as session:
        due = (
            session.execute(
                select(Challenge)
                .where(Challenge.status == "open", Challenge.expires_at <= now)
                .order_by(Challenge.id)
                .limit(200)
                .with_for_update()
            )
            .scalars()
            .all()
        )
        for challenge in due:
            challenge.status, challenge.closed_at = "expired", now
            mail_closed(session, ctx, challenge, now, "expired: 14 days passed without an answer")
        return [challenge.id for challenge in due]
