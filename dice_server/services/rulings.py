"""The Minister of Law's decisions, each a signed ``ruling`` entry naming the entry it
decides (``refers_to``): a forfeit request approved (the game ends ``forfeited``, the
requester winning) or denied with conditions and a deadline; and the deadline watched.

Every channel calls :func:`decide` (``POST /api/v1/games/<n>/rulings``, the Minister's page,
``pbem ruling decide``). Only a minister decides; a request is decided once.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator.rulings.forfeits import deadline_missed
from dice_server.db import Fetched, reading, writing
from dice_server.dice import SealedSeed
from dice_server.errors import Conflict, Forbidden, NotFound
from dice_server.ledger import Chain, SignedEntry, format_time
from dice_server.models import Game, LedgerEntry
from dice_server.requests import check_fields, field_error, positive_int, text
from dice_server.services import ServiceContext
from dice_server.services.entries import Actor, Who, record, resolve
from dice_server.services.forfeits import due, entry_time, players, requester_side, written
from dice_server.services.games import check_participant, end_game
from dice_server.services.outbox import publish
from dice_server.services.proposals import (
    decide_proposal,
    referred,
    ruling_bodies,
    to_players_and_ministers,
)

VERDICTS = {"forfeit-request": ("approve", "deny")}
"""What may be decided of each kind of request (by the note topic it was filed under)."""
MAX_REASON = 4000
MAX_DAYS = 60


def _request(session: Session, number: int, seq: int) -> dict[str, Any]:
    body = session.execute(
        select(LedgerEntry.body).where(LedgerEntry.game_number == number, LedgerEntry.seq == seq)
    ).scalar_one_or_none()
    if body is None:
        raise field_error("refers_to", f"game {number} has no entry {seq}")
    found: dict[str, Any] = json.loads(body)
    return found


def read_decision(payload: Any) -> dict[str, Any]:
    """``{"refers_to": seq, "verdict": ..., "reason"?, "conditions"?, "deadline_days"?,
    "decision"?, "correction"?}``: what is required depends on the verdict."""
    fields = check_fields(
        payload,
        {"refers_to", "verdict", "reason", "conditions", "deadline_days", "decision", "correction"},
        {"refers_to", "verdict"},
    )
    decision: dict[str, Any] = {
        "refers_to": positive_int(fields, "refers_to", 2**31 - 1),
        "verdict": fields["verdict"],
    }
    if not isinstance(decision["verdict"], str):
        raise field_error("verdict", "must be a word, such as approve, deny, confirm or agree")
    for name in ("reason", "conditions", "decision", "correction"):
        if name in fields:
            decision[name] = text(fields, name, MAX_REASON)
    if "deadline_days" in fields:
        decision["deadline_days"] = positive_int(fields, "deadline_days", MAX_DAYS)
    return decision


def _referred(ctx: ServiceContext, who: Who, number: int, seq: int) -> str:
    """What the entry a decision refers to is: a forfeit request or a proposed ruling. Only
    the game's players, its mentor and a minister learn it (a stranger's decision is refused
    before the game's ledger is read)."""
    with reading(ctx.sessions) as session:
        game = session.get(Game, number)
        if game is None:
            raise NotFound(f"there is no game {number}: check the game number", "game")
        check_participant(number, set(game.participant_ids()), resolve(session.connection(), who))
        entry = _request(session, number, seq)
    if entry["kind"] == "note" and entry["data"].get("topic") == "forfeit-request":
        return "forfeit-request"
    if entry["kind"] == "ruling" and entry["data"].get("status") == "proposed":
        return "proposed"
    raise field_error("refers_to", f"entry {seq} is no request or proposed ruling to decide")


def decide(ctx: ServiceContext, who: Who, number: int, payload: Any) -> SignedEntry:
    """Record a decision on the entry ``refers_to``: a minister's on a forfeit request
    (approve or deny) or on a proposed ruling (confirm, amend, override), or a player's
    agreement to a correction of a proposed ruling. Returns the ruling entry written."""
    decision = read_decision(payload)
    if _referred(ctx, who, number, decision["refers_to"]) == "proposed":
        return decide_proposal(ctx, who, number, decision)
    return _decide_forfeit(ctx, who, number, decision)


def _decide_forfeit(
    ctx: ServiceContext, who: Who, number: int, decision: dict[str, Any]
) -> SignedEntry:
    """A minister approves or denies a forfeit request."""
    facts: dict[str, Any] = {}

    def check(session: Session, actor: Actor, _game: Fetched) -> None:
        if not actor.is_minister:
            raise Forbidden("only the Minister of Law decides a request")
        if "reason" not in decision:
            raise field_error("reason", "give the reason for the decision")
        request = _request(session, number, decision["refers_to"])
        topic = request["data"].get("topic") if request["kind"] == "note" else None
        if topic not in VERDICTS:
            raise field_error(
                "refers_to", f"entry {decision['refers_to']} is no request the Minister decides"
            )
        if decision["verdict"] not in VERDICTS[topic]:
            raise field_error("verdict", f"decide a {topic} with {' or '.join(VERDICTS[topic])}")
        for ruling in ruling_bodies(session, number):
            if ruling["data"].get("refers_to") == decision["refers_to"]:
                raise Conflict(
                    f"entry {decision['refers_to']} was decided by ruling #{ruling['seq']}"
                )
        game = session.get_one(Game, number)
        if game.status != "active":
            raise Conflict(f"game {number} is {game.status}: there is nothing to forfeit")
        if decision["verdict"] == "deny" and "deadline_days" not in decision:
            raise field_error("deadline_days", "a denial sets the days allowed to move again")
        facts["winner"] = requester_side(players(session, game), request["data"]["by"])
        facts["absent"] = due(session, game).email

    def build(_seq: int, _seed: SealedSeed | None, actor: Actor) -> dict[str, Any]:
        approved = decision["verdict"] == "approve"
        data: dict[str, Any] = {
            "status": "forfeit-approved" if approved else "forfeit-denied",
            "refers_to": decision["refers_to"],
            "reason": decision["reason"],
            "by": actor.email,
        }
        if approved:
            data["decision"] = f"{facts['absent']} forfeits; the {facts['winner']} win"
        else:
            deadline = ctx.clock() + timedelta(days=decision["deadline_days"])
            data["decision"] = f"the game goes on; {facts['absent']} must move by the deadline"
            data["deadline"] = format_time(deadline)
            data["absent"] = facts["absent"]
            if decision.get("conditions"):
                data["conditions"] = decision["conditions"]
        return data

    entry = record(
        ctx, who, number, "ruling", build, needs_dice=False, check=check, cc_ministers=True
    )
    if decision["verdict"] == "approve":
        end_game(
            ctx,
            number,
            status="forfeited",
            winner=facts["winner"],
            reason=f"forfeit approved by ruling #{entry.seq}: {decision['reason']}",
        )
    return entry


def missed_deadlines(ctx: ServiceContext) -> list[SignedEntry]:
    """Report to the Minister every deadline of a denied forfeit that has passed without a
    turn (a submission or a roll) from the player it bound: a ``deadline-missed`` ruling
    (once a deadline), mailed
    to the players, the mentor and the ministers (the scheduler runs this)."""
    now = ctx.clock()
    with reading(ctx.sessions) as session:
        due = [
            (number, ruling)
            for number in session.execute(
                select(Game.number).where(Game.status == "active")
            ).scalars()
            for ruling in _unmet(session, number, now)
        ]
    reported = []
    for number, ruling in due:
        with writing(ctx.sessions) as session:
            if ruling["seq"] not in referred(ruling_bodies(session, number)):
                reported.append(_report_missed(session, ctx, now, number, ruling))
    return reported


def _report_missed(
    session: Session, ctx: ServiceContext, now: datetime, number: int, ruling: dict[str, Any]
) -> SignedEntry:
    data = {
        "status": "deadline-missed",
        "refers_to": ruling["seq"],
        "decision": (
            f"{ruling['data']['absent']} has written nothing to the game since ruling "
            f"#{ruling['seq']}, whose deadline {ruling['data']['deadline']} has passed: the "
            "Minister of Law may declare the game a forfeit"
        ),
    }
    envelope = to_players_and_ministers(session, session.get_one(Game, number))
    return publish(session, ctx, now, Chain.game(number), "ruling", lambda _seq: data, envelope)


def _unmet(session: Session, number: int, now: datetime) -> list[dict[str, Any]]:
    """The denied forfeits of a game whose deadline passed without a turn from the player."""
    rulings = ruling_bodies(session, number)
    reported = referred(rulings, {"deadline-missed"})
    unmet = []
    for ruling in rulings:
        data = ruling["data"]
        if data["status"] != "forfeit-denied" or ruling["seq"] in reported:
            continue
        later = session.execute(
            select(LedgerEntry.body).where(
                LedgerEntry.game_number == number, LedgerEntry.seq > ruling["seq"]
            )
        ).scalars()
        since = [written(json.loads(body)) for body in later]
        if deadline_missed(entry_time(data["deadline"]), data["absent"], since, now):
            unmet.append(ruling)
    return unmet
