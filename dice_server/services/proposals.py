"""Rulings the rules engine proposes, and how they are settled.

"Whenever possible, players are encouraged to seek their own solutions to error correction;
any solution is acceptable as long as there is mutual agreement between the players. If
agreement cannot be reached, then the IAAPA guidelines are to be applied." (IAAPA Error
Correction I.) A ``proposed`` ruling states what the guidelines give; the Minister of Law
confirms, amends or overrides it with his reason, or both players agree their own
correction (the same words from each: the second agreement makes it stand). Each step is a
signed ``ruling`` entry naming the proposal; once settled, a proposal takes no more.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, case, select
from sqlalchemy.orm import Session

from adjudicator.rulings import rule_ledger
from dice_server.db import Fetched, Prepared, reading, writing
from dice_server.dice import SealedSeed
from dice_server.errors import Conflict, Forbidden
from dice_server.ledger import Chain, SignedEntry, entry_values
from dice_server.models import Game, LedgerEntry
from dice_server.requests import field_error
from dice_server.services import ServiceContext
from dice_server.services.entries import Actor, Who, record
from dice_server.services.games import locked_game, recipients
from dice_server.services.outbox import Envelope, ministers, publish

log = logging.getLogger(__name__)

MINISTER_VERDICTS = {"confirm": "confirmed", "amend": "amended", "override": "overridden"}
SETTLED = frozenset({"confirmed", "amended", "overridden", "agreed"})


def ruling_bodies(session: Session, number: int) -> list[dict[str, Any]]:
    """The parsed bodies of the game's ruling entries, in seq order."""
    rows = session.execute(
        select(LedgerEntry.body)
        .where(LedgerEntry.game_number == number, LedgerEntry.kind == "ruling")
        .order_by(LedgerEntry.seq)
    ).scalars()
    return [json.loads(body) for body in rows]


def to_players_and_ministers(session: Session, game: Game) -> Envelope:
    """A ruling's mail: to the players, Cc the mentor and the ministers."""
    envelope = recipients(game)
    return Envelope.each_once(envelope.to, (*envelope.cc, *ministers(session)))


def referred(rulings: list[dict[str, Any]], statuses: Collection[str] | None = None) -> set[int]:
    """The seqs the rulings refer to (``refers_to``): of those with one of ``statuses`` only,
    when given. A proposal or request so referred to is settled, overridden or decided."""
    return {
        r["data"]["refers_to"]
        for r in rulings
        if "refers_to" in r["data"] and (statuses is None or r["data"]["status"] in statuses)
    }


def _words(text: str) -> str:
    return " ".join(text.split()).casefold()


def _same_error(proposed: dict[str, Any], ruling: dict[str, Any]) -> bool:
    """The same rule on the same erroneous entry (the first of ``about``): the entries a
    later ruling adds (a recognition, the next turn) do not make it another error."""
    first = (proposed.get("about") or [None])[0], (ruling.get("about") or [None])[0]
    return proposed.get("rule") == ruling.get("rule") and first[0] == first[1]


def propose(ctx: ServiceContext, number: int, ruling: dict[str, Any]) -> SignedEntry | None:
    """Record what the guidelines give for an error the engine found (``ruling`` as
    ``adjudicator.rulings.Ruling.json()`` writes it), mailed to the players, the mentor and
    the ministers; None when the same error was ruled on before (:func:`_same_error`)."""
    with writing(ctx.sessions) as session:
        game = locked_game(session, number)
        for earlier in ruling_bodies(session, number):
            data = earlier["data"]
            if data.get("status") == "proposed" and _same_error(data, ruling):
                return None
        data = {"status": "proposed", **entry_values(ruling)}
        return publish(
            session,
            ctx,
            ctx.clock(),
            Chain.game(number),
            "ruling",
            lambda _seq: data,
            to_players_and_ministers(session, game),
        )


@dataclass(frozen=True)
class Open:
    """A proposed ruling nobody has settled yet, as the game page lists it."""

    seq: int
    at: str
    rule: str
    decision: str
    agreements: list[str]


def open_proposals(ctx: ServiceContext, number: int) -> list[Open]:
    """The game's proposed rulings not yet settled, with the corrections agreed so far."""
    with reading(ctx.sessions) as session:
        rulings = ruling_bodies(session, number)
    settled = referred(rulings, SETTLED)
    found = []
    for ruling in rulings:
        data = ruling["data"]
        if data["status"] != "proposed" or ruling["seq"] in settled:
            continue
        agreements = [
            f"{r['data']['by']}: {r['data']['correction']}"
            for r in rulings
            if r["data"]["status"] == "agreement" and r["data"].get("refers_to") == ruling["seq"]
        ]
        found.append(
            Open(
                ruling["seq"],
                ruling["at"],
                str(data.get("rule", "")),
                str(data.get("decision", "")),
                agreements,
            )
        )
    return found


@dataclass(frozen=True)
class RulingRoll:
    """A roll a ruling requires, as the battle roller offers it pre-filled."""

    seq: int
    index: int
    label: str
    form: dict[str, Any]


def _form_of(request: dict[str, Any]) -> dict[str, Any]:
    """The battle roller's fields for a roll request body."""
    form: dict[str, Any] = {
        k: request[k] for k in ("battle", "round", "turn", "country") if k in request
    }
    for side in ("attacker", "defender"):
        for listed in request.get(side, []):
            form[f"{side}_{listed['unit']}"] = listed["count"]
    return form


def ruling_rolls(ctx: ServiceContext, number: int) -> list[RulingRoll]:
    """The rolls the game's rulings require and nobody has overridden: each ``to_roll``
    request of a proposed ruling (confirmed, amended or agreed, or still open)."""
    with reading(ctx.sessions) as session:
        return rolls_required(session, number)


def rolls_required(session: Session, number: int) -> list[RulingRoll]:
    """:func:`ruling_rolls`, read in the caller's transaction."""
    rulings = [json.loads(body) for body in _kept_rulings(session, number)]
    overridden = referred(rulings, {"overridden"})
    offered = []
    for ruling in rulings:
        data = ruling["data"]
        if data["status"] != "proposed" or ruling["seq"] in overridden:
            continue
        for index, request in enumerate(data.get("to_roll") or []):
            where = request.get("battle", "?")
            offered.append(
                RulingRoll(
                    ruling["seq"],
                    index,
                    f"ruling #{ruling['seq']}: {where}, round {request.get('round', '?')}",
                    _form_of(request),
                )
            )
    return offered


@dataclass(frozen=True)
class _KeptRulings:
    """A game's ledger read up to entry ``seq`` (whose hash is ``hash``): the bodies of its
    ruling entries, in seq order."""

    seq: int
    hash: str
    bodies: tuple[bytes, ...]


_KEPT_RULINGS: dict[tuple[int, int], _KeptRulings] = {}
"""Each game's ruling bodies, by (database engine, game): a ledger only grows, so the next
reading adds the entries appended since (every process keeps its own), where a query for a
game's rulings would walk its whole ledger on every roller page."""
_MAX_KEPT = 4096

_ENTRIES_SINCE = Prepared(
    select(
        LedgerEntry.seq,
        LedgerEntry.hash,
        case((LedgerEntry.kind == "ruling", LedgerEntry.body)).label("body"),
    )
    .where(LedgerEntry.game_number == bindparam("number"), LedgerEntry.seq >= bindparam("seq"))
    .order_by(LedgerEntry.seq)
)
"""A game's entries from ``seq`` on (each one's body when it is a ruling)."""


def _kept_rulings(session: Session, number: int) -> tuple[bytes, ...]:
    """The bodies of game ``number``'s ruling entries: those kept from the last reading, if
    its last entry is still there unchanged, and those appended since."""
    key = (id(session.get_bind().engine), number)
    kept = _KEPT_RULINGS.get(key)
    since = kept.seq if kept is not None else 0
    found = _ENTRIES_SINCE.all(session.connection(), {"number": number, "seq": since})
    if kept is not None:
        if found and (found[0].seq, found[0].hash) == (kept.seq, kept.hash):
            if len(found) == 1:
                return kept.bodies
            found = found[1:]
        else:  # another database, or a ledger rebuilt: read it whole
            kept = None
            found = _ENTRIES_SINCE.all(session.connection(), {"number": number, "seq": 0})
    if not found:
        return ()
    bodies = (*(kept.bodies if kept else ()), *(r.body for r in found if r.body is not None))
    if len(_KEPT_RULINGS) >= _MAX_KEPT:
        _KEPT_RULINGS.clear()
    _KEPT_RULINGS[key] = _KeptRulings(found[-1].seq, found[-1].hash, bodies)
    return bodies


def propose_for(ctx: ServiceContext, number: int) -> list[SignedEntry]:
    """Run the rules engine (:func:`adjudicator.rulings.rule_ledger`) over the game's ledger
    and propose every ruling it finds that was not proposed before. Called after an entry
    that may hold an error (a roll or turn with findings, an error recognition); an engine
    failure is logged and proposes nothing (the entry stands recorded)."""
    with reading(ctx.sessions) as session:
        bodies = [
            json.loads(body)
            for body in session.execute(
                select(LedgerEntry.body)
                .where(LedgerEntry.game_number == number)
                .order_by(LedgerEntry.seq)
            ).scalars()
        ]
    try:
        found = rule_ledger(bodies)
    except Exception:  # the engine must never cost a player his entry
        log.exception("rulings: the engine failed on game %s", number)
        return []
    made = (propose(ctx, number, ruling.json()) for ruling in found)
    return [entry for entry in made if entry is not None]


def worth_a_look(kind: str, data: dict[str, Any]) -> bool:
    """Whether an entry may hold an error the engine rules on: a roll the service found at
    odds with its declaration, a turn with errors, an error recognised."""
    if kind == "note":
        return data.get("topic") == "error-recognition"
    if kind == "submission":
        return any(f.get("severity") == "error" for f in data.get("findings", []))
    return bool(data.get("findings"))


def _check_minister(verdict: str, decision: dict[str, Any], actor: Actor) -> None:
    if not actor.is_minister:
        raise Forbidden("only the Minister of Law confirms, amends or overrides a ruling")
    if "reason" not in decision:
        raise field_error("reason", "give the reason for the decision")
    if verdict == "amend" and "decision" not in decision:
        raise field_error("decision", "an amendment states the ruling as amended")


def _agreement_settles(
    rulings: list[dict[str, Any]], game: Game, decision: dict[str, Any], actor: Actor
) -> bool:
    """Whether a player's agreement to the decision's correction settles the proposal: the
    other player agreed the same words before (Error Correction I, "mutual agreement between
    the players"). Refuses a non-player, and a player agreeing the same words twice."""
    if actor.id not in (game.axis_id, game.allies_id):
        raise Forbidden("only the game's players agree a correction of their own")
    if "correction" not in decision:
        raise field_error("correction", "say the correction you agree to")
    proposal, correction = decision["refers_to"], decision["correction"]
    same = [
        ruling
        for ruling in rulings
        if ruling["data"].get("refers_to") == proposal
        and ruling["data"]["status"] == "agreement"
        and _words(str(ruling["data"].get("correction", ""))) == _words(correction)
    ]
    for ruling in same:
        if str(ruling["data"]["by"]).casefold() == actor.email.casefold():
            raise Conflict(f"you agreed to this correction in entry #{ruling['seq']}")
    return bool(same)


def decide_proposal(
    ctx: ServiceContext, who: Who, number: int, decision: dict[str, Any]
) -> SignedEntry:
    """A minister's confirm / amend / override, or a player's ``agree`` with a correction."""
    verdict, proposal = decision["verdict"], decision["refers_to"]
    settles: list[bool] = []

    def check(session: Session, actor: Actor, _game: Fetched) -> None:
        settles.clear()
        rulings = ruling_bodies(session, number)
        for ruling in rulings:
            data = ruling["data"]
            if data.get("refers_to") == proposal and data["status"] in SETTLED:
                raise Conflict(f"the proposed ruling #{proposal} was settled by #{ruling['seq']}")
        if verdict in MINISTER_VERDICTS:
            _check_minister(verdict, decision, actor)
            return
        if verdict != "agree":
            raise field_error("verdict", "confirm, amend or override (a minister), or agree")
        if _agreement_settles(rulings, session.get_one(Game, number), decision, actor):
            settles.append(True)

    def build(_seq: int, _seed: SealedSeed | None, actor: Actor) -> dict[str, Any]:
        data: dict[str, Any] = {"refers_to": proposal, "by": actor.email}
        if verdict in MINISTER_VERDICTS:
            data["status"] = MINISTER_VERDICTS[verdict]
        else:
            data["status"] = "agreed" if settles else "agreement"
            data["correction"] = decision["correction"]
            data["decision"] = (
                "both players agree this correction: it stands (Error Correction I)"
                if settles
                else "one player agrees this correction; the other's agreement makes it stand"
            )
        for name in ("reason", "decision"):
            if name in decision:
                data[name] = decision[name]
        return data

    return record(
        ctx, who, number, "ruling", build, needs_dice=False, check=check, cc_ministers=True
    )
