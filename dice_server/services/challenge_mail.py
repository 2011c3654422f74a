"""The mail of a challenge: to both players when it is issued (the challenger's bid sealed
from the opponent), and when it is declined, cancelled or expires. The game a challenge
starts is announced by its genesis entry, like every game."""

from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy.orm import Session

from adjudicator.bids import BidCheck
from dice_server.models import Challenge
from dice_server.services import ServiceContext
from dice_server.services.challenge_views import AGREEMENTS_NOTE, BATTLE_DICE, METHODS, day
from dice_server.services.mailer import queue_mail


def _rules(challenge: Challenge) -> str:
    if challenge.variant is None and not challenge.low_luck:
        return "standard 2nd edition"
    named = challenge.variant.name if challenge.variant else "2nd edition with Low Luck"
    return f"{named} (a variant: not rated)"


def _describe(challenge: Challenge, check: BidCheck | None) -> list[str]:
    lines = [
        f"Challenger: {challenge.challenger.name} <{challenge.challenger.email}>",
        f"Opponent: {challenge.opponent.name} <{challenge.opponent.email}>",
        f"Method of play: {METHODS[challenge.method]}",
        f"Rules: {_rules(challenge)}",
        f"Battle rounds: {BATTLE_DICE[challenge.low_luck]}",
    ]
    if challenge.mentor:
        lines.append(f"Mentor: {challenge.mentor.email}")
    agreements = json.loads(challenge.agreements)
    if agreements:
        lines += [f"Gentlemen's agreement: {item}" for item in agreements]
        lines.append(AGREEMENTS_NOTE)
    if challenge.instructions:
        lines += ["", "Special instructions and order of loss:", challenge.instructions]
    if challenge.message:
        lines += ["", "Personal message:", challenge.message]
    if check is not None:
        lines += ["", f"Bid: {challenge.bid_total} IPCs: {challenge.bid_details or '(no details)'}"]
        lines += [f"  {f.severity.value}: {f.message}" for f in check.findings]
    return lines


def mail_issued(
    session: Session, ctx: ServiceContext, challenge: Challenge, check: BidCheck, now: datetime
) -> None:
    names = f"{challenge.challenger.name} challenges {challenge.opponent.name}"
    subject = f"[Challenge {challenge.id}] {names}"
    until = f"It expires on {day(challenge.expires_at)} unless it is answered."
    link = ctx.mail.link("challenges.show", challenge_id=challenge.id)
    to_challenger = [
        "Your challenge was issued. Your bid commits you to play the game (IAAPA Game "
        "Commitments); you may cancel the challenge until it is answered.",
        "",
        *_describe(challenge, check),
        "",
        until,
        link,
    ]
    to_opponent = [
        f"{challenge.challenger.name} challenges you to a league game.",
        "",
        *_describe(challenge, None),
        "",
        "The challenger's bid is sealed until you answer. Accept with your own bid (the "
        "lower bid plays the Axis and gets its bid; equal bids are decided by a die the "
        "server draws), or decline.",
        until,
        link,
    ]
    queue_mail(session, ctx, now, challenge.challenger.email, subject, "\n".join(to_challenger))
    queue_mail(session, ctx, now, challenge.opponent.email, subject, "\n".join(to_opponent))


def mail_closed(
    session: Session, ctx: ServiceContext, challenge: Challenge, now: datetime, what: str
) -> None:
    subject = f"[Challenge {challenge.id}] {what.split(':')[0]}"
    lines = [f"Challenge {challenge.id} was {what}.", "", *_describe(challenge, None)]
    if challenge.reply_message:
        lines += ["", "Message:", challenge.reply_message]
    for member in (challenge.challenger, challenge.opponent):
        queue_mail(session, ctx, now, member.email, subject, "\n".join(lines))
