"""A game's turns through the service (IAAPA Declaration and Battle Resolution Procedures):
the mover sends his pre-combat turn, rolls the declared battles, then sends his post-combat
turn, which moves the board on to the next power. Each email is a ``submission`` entry,
signed and timestamped like a roll, recorded with what the rules engine found in it against
the game's own position; the position and whose turn it is are kept beside the ledger
(:class:`~dice_server.models.GameTurn`) and the ledger alone rebuilds them (:func:`rebuild`).

Timing (IAAPA Amendments and Special Orders): "The attacker may modify his combat moves
provided that he sends an updated pre-combat turn before rolling any dice. No changes will be
allowed once any combat dice are rolled. The attacker may modify his non-combat or unit
placements at any time as long as the changes are sent out before his opponent sends in his
pre-combat moves." An amendment sent later is recorded (its timing matters under Error
Correction VII) but is marked not in force and changes nothing. The next pre-combat turn ends
the window for the last turn's non-combat moves even when the same player sends it (the US
turn is followed by the USSR's): the board it was checked against must stand.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator.declarations import check_report
from adjudicator.names import power_label
from adjudicator.notation import parse
from adjudicator.notation.jsonreport import diagnostic_report
from adjudicator.notation.model import Turn, TurnKind
from adjudicator.position import Position, dump_json
from adjudicator.powers import Alliance, Power
from adjudicator.turns import Advance, advance
from dice_server.db import Fetched, reading
from dice_server.dice import SealedSeed
from dice_server.errors import Conflict, Forbidden, InvalidRequest, NotFound
from dice_server.ledger import SignedEntry, entry_values
from dice_server.models import Game, GameTurn, LedgerEntry, Member
from dice_server.requests import check_fields, text
from dice_server.services import ServiceContext
from dice_server.services.battles import Body, attacker_email, entries_since, verdicts
from dice_server.services.entries import Actor, Also, Retry, Who, record
from dice_server.services.games import check_participant, classic_turns
from dice_server.services.positions import (
    PRE_COMBAT,
    digest,
    genesis_position,
    kept_position,
    new_turn_row,
    position_text,
)
from dice_server.services.reminders import clock_json

MAX_TURN = 50_000
Players = Mapping[str, str]
"""The game's players' addresses by side: ``{"axis": ..., "allies": ...}``."""
"""Characters of one turn email (a long post-combat turn with a full map is ~5,000)."""

COMBAT, POST_COMBAT = "combat", "post-combat"


def turn_row(session: Session, number: int) -> GameTurn:
    """The game's turn row, made from its genesis when the game predates kept positions."""
    row = session.get(GameTurn, number)
    if row is None:
        body = session.execute(
            select(LedgerEntry.body).where(LedgerEntry.game_number == number, LedgerEntry.seq == 1)
        ).scalar_one_or_none()
        if body is None:
            raise NotFound(f"there is no game {number}: check the game number", "game")
        row = new_turn_row(number, genesis_position(json.loads(body)["data"]))
        session.add(row)
        session.flush()
    return row


# --- whose turn ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnState:
    round: int
    power: str
    phase: str

    def json(self) -> dict[str, Any]:
        return {"round": self.round, "power": self.power, "phase": self.phase}

    def roller_fields(self) -> dict[str, Any]:
        """The roller's game turn and country in this turn."""
        return {"turn": self.round, "country": self.power}


def player_of(game: Game | Any, power: Power) -> int:
    """The member id playing ``power``: the Axis player moves Germany and Japan."""
    return int(game.axis_id if power.alliance is Alliance.AXIS else game.allies_id)


def _power(name: str) -> Power:
    return next(p for p in Power if power_label(p) == name)


def _body_of(session: Session, number: int, seq: int | None) -> dict[str, Any] | None:
    if seq is None:
        return None
    body = session.execute(
        select(LedgerEntry.body).where(LedgerEntry.game_number == number, LedgerEntry.seq == seq)
    ).scalar_one()
    parsed: dict[str, Any] = json.loads(body)
    return parsed


def _entry_data(session: Session, number: int, seq: int | None) -> dict[str, Any] | None:
    if seq is None:
        return None
    body = session.execute(
        select(LedgerEntry.body).where(LedgerEntry.game_number == number, LedgerEntry.seq == seq)
    ).scalar_one()
    data: dict[str, Any] = json.loads(body)["data"]
    return data


# --- submitting ------------------------------------------------------------------------------


@dataclass
class Plan:
    """What a submission does, worked out under the game's lock before its seq is taken."""

    data: dict[str, Any]
    report: dict[str, Any]
    row: GameTurn
    step: str
    """``precombat`` (the turn is declared), ``amend-precombat``, ``postcombat`` (the board
    moves on), ``amend-postcombat`` (the last turn's board is redone), or ``late`` (recorded,
    not in force)."""
    after: Position | None = None
    after_text: str | None = None
    """``after`` as the game's row keeps it (:func:`position_text`), made once."""


def read_submission(payload: Any) -> tuple[str, Turn]:
    """The turn a member sent: ``{"text": ...}``, read by the notation (leniently). Text that
    holds no turn at all is refused before anything is recorded."""
    fields = check_fields(payload, {"text"}, {"text"})
    body = text(fields, "text", MAX_TURN, verbatim=True)
    turn = parse(body)
    if turn.kind is TurnKind.EMPTY:
        raise InvalidRequest(
            "text: no orders found in it: send the turn as you would mail it (a pre-combat "
            "turn: purchases and combat moves; a post-combat turn: results, non-combat moves, "
            "placements and the map update)",
            "text",
        )
    if turn.kind is TurnKind.SPECIAL_ORDERS:
        raise InvalidRequest(
            "text: only special orders (orders of loss, withdrawals, retreats): send them "
            "as a note through the roller (topic special-orders or retreat), not as a turn",
            "text",
        )
    return body, turn


def submit_turn(
    ctx: ServiceContext, who: Who, number: int, payload: Any, retry: Retry | None = None
) -> tuple[SignedEntry, dict[str, Any]]:
    """Record one turn email of game ``number`` and the engine's findings on it; a
    post-combat turn moves the kept position on. Returns the entry and the report (the JSON
    of ``pbem turn check --json --position`` against the game's position)."""
    body, turn = read_submission(payload)
    return submit_read(ctx, who, number, body, turn, retry)


def submit_read(
    ctx: ServiceContext,
    who: Who,
    number: int,
    body: str,
    turn: Turn,
    retry: Retry | None = None,
    also: Also | None = None,
) -> tuple[SignedEntry, dict[str, Any]]:
    """:func:`submit_turn` for a turn already read (by the mail gateway, which reads each
    message once to decide what it is): ``turn`` must be ``parse(body)`` and hold orders."""
    plans: list[Plan] = []

    def check(session: Session, actor: Actor, locked: Fetched) -> None:
        players = {"axis": locked.axis_email, "allies": locked.allies_email}
        plans.append(_plan(session, number, actor, body, turn, players))

    def build(seq: int, _seed: SealedSeed | None, actor: Actor) -> dict[str, Any]:
        plan = plans[-1]
        _apply(plan, seq)
        return {**plan.data, "by": actor.email}

    entry = record(
        ctx,
        who,
        number,
        "submission",
        build,
        needs_dice=False,
        retry=retry,
        check=check,
        also=also,
    )
    if plans:
        return entry, plans[-1].report
    return entry, report_again(ctx, entry)  # a retry: the first entry and its answer


def _plan(
    session: Session, number: int, actor: Actor, body: str, turn: Turn, players: Players
) -> Plan:
    """What a submission does (``players``: the game's players' addresses, as its genesis
    names them: a member's address never changes)."""
    game = session.get(Game, number)
    assert game is not None
    if game.status != "active":
        raise Conflict(f"game {number} is {game.status}: no more turns are accepted")
    classic_turns(game)
    row = turn_row(session, number)
    mover = _power(row.power)
    power = turn.power or mover
    name = power_label(power)
    previous_power = _previous_power(session, row)
    amending_post = (
        power is not mover
        and power is previous_power
        and turn.kind is TurnKind.POST_COMBAT
        and row.previous_postcombat_seq is not None
    )
    if power is not mover and not amending_post:
        raise Conflict(
            f"it is {row.power}'s turn (round {row.round}, {row.phase}), not {name}'s: "
            f"check the power named in the turn",
            "text",
        )
    if actor.id != player_of(game, power):
        side = "Axis" if power.alliance is Alliance.AXIS else "Allies"
        raise Forbidden(f"only the {side} player may submit {name}'s turn")
    post = turn.kind in (TurnKind.POST_COMBAT, TurnKind.MIXED)
    if amending_post:
        return _postcombat(session, number, row, (body, turn, name), players, amending=True)
    if not post and row.phase == PRE_COMBAT:
        return _precombat(row, body, turn, name, step="precombat")
    if not post:  # a second pre-combat turn: an amendment of the combat moves
        step = "amend-precombat" if row.rolled_seq is None else "late"
        plan = _precombat(row, body, turn, name, step=step)
        plan.data["amends"] = row.precombat_seq
        if step == "late":
            plan.data["in_force"] = 0
            plan.data["late"] = (
                f'"No changes will be allowed once any combat dice are rolled": entry '
                f"#{row.rolled_seq} rolled first (IAAPA Amendments and Special Orders)"
            )
        return plan
    if turn.kind is TurnKind.POST_COMBAT and row.phase == PRE_COMBAT:
        raise Conflict(
            f"this is a post-combat turn, but {name}'s pre-combat turn for round "
            f"{row.round} has not been sent: send the pre-combat turn (purchases and combat "
            "moves) first",
            "text",
        )
    return _postcombat(session, number, row, (body, turn, name), players)


def _previous_power(session: Session, row: GameTurn) -> Power | None:
    if row.previous_position is None:
        return None
    return kept_position(row.previous_position).to_move


def _declared(report: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [
        entry_values({k: b.get(k) for k in ("number", "territory", "kind", "attacker", "defender")})
        for b in report.get("battles", [])
    ]


def _data(
    name: str, round_: int, phase: str, body: str, checked: str, report: Any
) -> dict[str, Any]:
    return {
        "power": name,
        "round": round_,
        "phase": phase,
        "text": body,
        "position_sha256": checked,
        "findings": entry_values(report.get("diagnostics", [])),
        "in_force": 1,
    }


def _precombat(row: GameTurn, body: str, turn: Turn, name: str, *, step: str) -> Plan:
    position = kept_position(row.position, row.position_sha256)
    report = check_report(body, position, read=turn)
    data = _data(name, row.round, PRE_COMBAT, body, row.position_sha256, report)
    data["battles"] = _declared(report)
    return Plan(data, report, row, step)


def play_out(
    position: Position,
    precombat: Body | None,
    later: Sequence[Body],
    players: Mapping[str, str],
    turn: Turn,
    before: Turn | None = None,
) -> Advance:
    """The turn played out by the rules engine (:func:`adjudicator.turns.advance`): from the
    position at its start, its pre-combat submission (``precombat``, an entry body; None
    when one email holds the whole turn) and the battles' verdicts from the dice recorded
    after it (``later``), the post-combat ``turn``. The dice and the orders move the board;
    what the email writes of results, the map and the count is weighed against them
    (``before``: the pre-combat text parsed, when the caller has it)."""
    if precombat is not None and before is None:
        before = parse(str(precombat["data"]["text"]))
    battles = {}
    if precombat is not None:
        mover = attacker_email(players, power_label(position.to_move))
        battles = verdicts(precombat, later, mover, before)
    return advance(position, before, turn, battles)


def _played_data(data: dict[str, Any], report: dict[str, Any], played: Advance) -> str:
    """What playing the turn out adds to a post-combat entry and its report: the engine's
    findings against the dice, the new position's SHA-256, and the Magic 84 count (IAAPA
    Rules Clarifications, MAGIC 84: "The Magic 84 count is performed immediately after the
    United States' turn ..."; recorded and reported, the Minister of Law or the players end
    the game, the service does not)."""
    findings = [entry_values(diagnostic_report(f)) for f in played.findings]
    data["played_out"] = findings
    report["played_out"] = findings
    shown = position_text(played.position)
    data["new_position_sha256"] = digest(shown)
    if played.magic84.performed:
        found = {"axis_count": played.magic84.axis_count, "game_over": int(played.game_over)}
        data["magic_84"] = found
        report["magic_84"] = found
    return shown


def _postcombat(
    session: Session,
    number: int,
    row: GameTurn,
    sent: tuple[str, Turn, str],
    players: Players,
    *,
    amending: bool = False,
) -> Plan:
    """A post-combat turn (``sent``: its text, as read, and its power's name) played out
    from the kept turn's position; ``amending``: an amendment of the last post-combat turn,
    played out again from that turn's start."""
    body, turn, name = sent
    if amending:
        assert row.previous_position is not None
        start = kept_position(row.previous_position)
        precombat_seq, sha = row.previous_precombat_seq, digest(row.previous_position)
    else:
        start = kept_position(row.position, row.position_sha256)
        precombat_seq, sha = row.precombat_seq, row.position_sha256
    precombat = _body_of(session, number, precombat_seq)
    before = str(precombat["data"]["text"]) if precombat is not None else None
    declared = parse(before) if before is not None else None
    report = check_report(body, start, precombat=before, read=turn, precombat_read=declared)
    data = _data(name, start.round, POST_COMBAT, body, sha, report)
    if amending:
        data["amends"] = row.previous_postcombat_seq
        if row.phase != PRE_COMBAT:
            data["in_force"] = 0
            data["late"] = (
                '"non-combat or unit placements" may be modified only "before his opponent '
                f"sends in his pre-combat moves\": {row.power}'s pre-combat turn (entry "
                f"#{row.precombat_seq}) came first (IAAPA Amendments and Special Orders)"
            )
            return Plan(data, report, row, "late")
    elif turn.kind is TurnKind.MIXED:
        data["battles"] = _declared(report)
    later = entries_since(session, number, precombat["seq"]) if precombat else []
    played = play_out(start, precombat, later, players, turn, declared)
    shown = _played_data(data, report, played)
    step = "amend-postcombat" if amending else "postcombat"
    return Plan(data, report, row, step, played.position, shown)


def _apply(plan: Plan, seq: int) -> None:
    """The kept turn moves with the entry, in its transaction."""
    row = plan.row
    if plan.step in ("precombat", "amend-precombat"):
        row.phase, row.precombat_seq = COMBAT, seq
        return
    if plan.step == "postcombat":
        assert plan.after is not None
        row.previous_position = row.position
        row.previous_precombat_seq = row.precombat_seq
    if plan.step in ("postcombat", "amend-postcombat"):
        assert plan.after is not None
        shown_json = plan.after_text or position_text(plan.after)
        row.position, row.position_sha256 = shown_json, digest(shown_json)
        row.round, row.power = plan.after.round, power_label(plan.after.to_move)
        row.phase, row.precombat_seq, row.rolled_seq = PRE_COMBAT, None, None
        row.previous_postcombat_seq = seq


# --- reading ---------------------------------------------------------------------------------


def game_position(
    ctx: ServiceContext, number: int, viewer: Member | None, *, at: int | None = None
) -> dict[str, Any]:
    """``{"position": <position JSON>, "turn": {"round", "power", "phase"}, "clock":
    {"waiting_for", "since", "reminded", "forfeit_line"}}`` for the game's players, mentor
    and ministers (``viewer`` None: the operator, on the command line); the clock is None
    once the game has ended (dice_server.services.reminders). With ``at``, the position as
    the ledger alone rebuilds it after entry ``at`` (the clock is still the present's)."""
    with reading(ctx.sessions) as session:
        game = session.get(Game, number)
        if game is None:
            raise NotFound(f"there is no game {number}: check the game number", "game")
        if viewer is not None:
            check_participant(number, {game.axis_id, game.allies_id, game.mentor_id}, viewer)
        classic_turns(game)
        if at is not None:
            if at < 1 or at > (game.head_seq or 0):
                raise InvalidRequest(
                    f"at: game {number} has entries 1 to {game.head_seq}, not {at}", "at"
                )
            bodies = session.execute(
                select(LedgerEntry.body)
                .where(LedgerEntry.game_number == number, LedgerEntry.seq <= at)
                .order_by(LedgerEntry.seq)
            ).scalars()
            kept = rebuild(json.loads(b) for b in bodies)
            return {
                "position": dump_json(kept.position),
                "turn": kept.state.json(),
                "clock": clock_json(session, game, ctx.turn_clock.forfeit_after),
            }
        row = session.get(GameTurn, number)
        if row is None:
            position = genesis_position(_entry_data(session, number, 1) or {})
            state = TurnState(position.round, power_label(position.to_move), PRE_COMBAT)
            return {
                "position": dump_json(position),
                "turn": state.json(),
                "clock": clock_json(session, game, ctx.turn_clock.forfeit_after),
            }
        return {
            "position": json.loads(row.position),
            "turn": TurnState(row.round, row.power, row.phase).json(),
            "clock": clock_json(session, game, ctx.turn_clock.forfeit_after),
        }


# --- the ledger alone --------------------------------------------------------------------------


@dataclass(frozen=True)
class Rebuilt:
    """A game's position and turn as its ledger alone says, and any post-combat entry whose
    recorded new position the engine no longer reaches."""

    position: Position
    state: TurnState
    mismatches: tuple[int, ...] = ()
    precombat: str | None = None
    """The text of the current turn's pre-combat submission in force."""
    previous: Position | None = None
    """The start of the last finished turn (what an amendment of its post-combat redoes)."""
    previous_precombat: str | None = None

    def checked_against(self, data: Mapping[str, Any]) -> tuple[Position, str | None]:
        """The position and pre-combat text a submission with ``data``, recorded next, was
        checked against."""
        if data["phase"] != PRE_COMBAT and "amends" in data and self.previous is not None:
            return self.previous, self.previous_precombat
        return self.position, self.precombat if data["phase"] != PRE_COMBAT else None


def rebuild(entries: Iterable[Mapping[str, Any]]) -> Rebuilt:
    """Replay a game's entries (bodies, in seq order): the genesis names the start, each
    submission in force moves the turn as :func:`submit_turn` did when it was recorded, each
    post-combat turn played out with the dice recorded since its pre-combat turn."""
    start: Position | None = None
    previous: Position | None = None
    players: dict[str, str] = {}
    precombat: Body | None = None
    previous_precombat: Body | None = None
    since: list[Body] = []
    since_previous: list[Body] = []
    phase = PRE_COMBAT
    mismatches = []
    for entry in entries:
        data = entry["data"]
        if entry["kind"] == "genesis":
            start, players = genesis_position(data), dict(data["players"])
            continue
        since.append(entry)
        since_previous.append(entry)
        if entry["kind"] != "submission" or not data.get("in_force", 1) or start is None:
            continue
        if data["phase"] == PRE_COMBAT:
            precombat, since, phase = entry, [], COMBAT
            continue
        amending = "amends" in data and previous is not None
        if amending:
            assert previous is not None
            base, pre, later = previous, previous_precombat, since_previous
        else:
            base, pre, later = start, precombat, since
        after = play_out(base, pre, later, players, parse(str(data["text"]))).position
        if digest(position_text(after)) != data.get("new_position_sha256"):
            mismatches.append(int(entry["seq"]))
        if not amending:
            previous, previous_precombat, since_previous = start, precombat, since
        start, precombat, since, phase = after, None, [], PRE_COMBAT
    if start is None:
        raise InvalidRequest("the ledger has no genesis entry: it does not start a game")
    state = TurnState(start.round, power_label(start.to_move), phase)
    return Rebuilt(
        start, state, tuple(mismatches), _text(precombat), previous, _text(previous_precombat)
    )


def _text(body: Body | None) -> str | None:
    return str(body["data"]["text"]) if body is not None else None


def report_again(ctx: ServiceContext, entry: SignedEntry) -> dict[str, Any]:
    """The report a recorded submission was answered with, computed again from the ledger
    (for a retry, which returns exactly the first response)."""
    number = entry.game_number
    with reading(ctx.sessions) as session:
        bodies = session.execute(
            select(LedgerEntry.body)
            .where(LedgerEntry.game_number == number, LedgerEntry.seq < entry.seq)
            .order_by(LedgerEntry.seq)
        ).scalars()
        before = rebuild(json.loads(b) for b in bodies)
    data = json.loads(entry.body)["data"]
    position, precombat = before.checked_against(data)
    report = check_report(str(data["text"]), position, precombat=precombat)
    for recorded in ("played_out", "magic_84"):
        if recorded in data:
            report[recorded] = data[recorded]
    return report
