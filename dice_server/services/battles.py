"""The current turn's battles: each declared battle of the pre-combat turn in force, the
rolls made for it, and what the rules engine makes of their dice.

A battle roll whose ``battle`` names a territory the pre-combat turn declares is linked to
that battle (the entry records ``"declared": {"submission", "number"}``), and units that
differ from what should be rolling are recorded as findings: in the first round the
declaration (IAAPA Error Correction III: too few units, too many units, wrong units), after
it the survivors the engine computes from the dice already recorded. A roll for a battle the
pre-combat turn does not declare is recorded with that finding. Games whose players use the
dice server alone (no pre-combat turn in force) get their rolls recorded unlinked, exactly
as before turns went through the service.

Everything here reads entry bodies (``{"seq", "kind", "data", ...}``), so the same code
serves the current turn (from the database) and any past turn (from the ledger alone).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator.battle import resolve_json
from adjudicator.diagnostics import Diagnostic, Rule, Severity
from adjudicator.notation import Turn
from adjudicator.notation.messages import SPECIAL_ORDERS, read_note
from adjudicator.rolls import BATTLE_ROLL_KINDS, battle_document
from adjudicator.rolls.declared import order_of_loss_in, rolling_errors
from adjudicator.rulings.record import Fight, declaration_errors, fight
from adjudicator.rulings.record import declared_battles as ledger_battles
from adjudicator.rulings.record import verdicts as ledger_verdicts
from adjudicator.rulings.refights import refight_forces, void_roll
from adjudicator.turns import (
    BattleOutcome,
)
from dice_server.db import Fetched, reading
from dice_server.errors import NotFound
from dice_server.kinds.battle import place
from dice_server.models import Game, GameTurn, LedgerEntry, Member
from dice_server.services import ServiceContext
from dice_server.services.games import check_participant
from dice_server.services.positions import kept_position

COMBAT = "combat"
AXIS_POWERS = frozenset({"Germany", "Japan"})

Body = Mapping[str, Any]


def _body(session: Session, number: int, seq: int) -> dict[str, Any]:
    body = session.execute(
        select(LedgerEntry.body).where(LedgerEntry.game_number == number, LedgerEntry.seq == seq)
    ).scalar_one()
    parsed: dict[str, Any] = json.loads(body)
    return parsed


def entries_since(session: Session, number: int, seq: int) -> list[dict[str, Any]]:
    """The bodies of the rolls, notes and rulings recorded after entry ``seq``, in seq
    order (a ruling may override the void a combat declaration error makes)."""
    bodies = session.execute(
        select(LedgerEntry.body)
        .where(
            LedgerEntry.game_number == number,
            LedgerEntry.seq > seq,
            LedgerEntry.kind.in_((*BATTLE_ROLL_KINDS, "bombing-roll", "note", "ruling")),
        )
        .order_by(LedgerEntry.seq)
    ).scalars()
    return [json.loads(body) for body in bodies]


def attacker_email(players: Mapping[str, str], power: str) -> str:
    """The address of the player moving ``power`` (the Axis player moves Germany, Japan)."""
    return players["axis"] if power in AXIS_POWERS else players["allies"]


# --- orders of loss ----------------------------------------------------------------------------


def orders_of_loss(
    precombat: str,
    later: Iterable[Body],
    attacker: str,
    battle: Mapping[str, Any],
    first_roll: int | None,
) -> dict[str, list[str]]:
    """The orders of loss in force for a declared battle (IAAPA Orders of Loss: "If a
    defender does not send in any special orders of loss prior to the attacker rolling the
    battle then the Association defaults will be used"): the attacker's from his pre-combat
    turn (``precombat``); either side's from a special-orders note sent before the battle's
    first roll (``attacker``: the address of the attacking player)."""
    where, which = str(battle.get("territory") or ""), int(battle["number"])
    orders: dict[str, list[str]] = {}
    if found := order_of_loss_in(precombat, which, where):
        orders["attacker"] = found
    for entry in later:
        data = entry["data"]
        if first_roll is not None and entry["seq"] >= first_roll:
            break
        if entry["kind"] != "note" or data.get("topic") != SPECIAL_ORDERS:
            continue
        note = read_note(SPECIAL_ORDERS, str(data["text"]))
        if found := order_of_loss_in(str(data["text"]), which, where, note):
            orders["attacker" if data.get("by") == attacker else "defender"] = found
    return orders


# --- the declared battles and their dice -------------------------------------------------------


@dataclass(frozen=True)
class DeclaredBattle:
    """A battle the pre-combat turn in force declares, its rolls and the engine's result."""

    declared: Mapping[str, Any]
    rolls: list[Body]
    """The rolls that decide the battle (:func:`adjudicator.rulings.record.fight`)."""
    orders: dict[str, list[str]]
    result: dict[str, Any] | None
    error: str | None = None
    void: Sequence[Body] = ()
    """Rolls a combat declaration error voids (made before the error was recognised)."""
    recognised: int | None = None
    """The error-recognition note after which the battle is fought again."""

    @property
    def status(self) -> str:
        if self.error is not None:
            return "error"
        if self.result is None:
            return "void" if self.void and self.recognised is None else "declared"
        if self.result.get("outcome") != "continues":
            return "decided"
        rounds: Any = self.result.get("rounds") or []
        pause = rounds[-1].get("pause") if rounds else None
        return "must-pause" if pause and not pause.get("answered") else "in-progress"


def resolved(rolls: Sequence[Body], orders: Mapping[str, list[str]]) -> dict[str, Any]:
    """The battle of these roll entries resolved with the orders of loss in force."""
    doc = battle_document(rolls)
    if orders:
        doc["order_of_loss"] = dict(orders)
    return dict(resolve_json(doc))


def declared_battles(precombat: Body, later: Sequence[Body], attacker: str) -> list[DeclaredBattle]:
    """Each battle (kind ``battle``) the pre-combat submission ``precombat`` declares, with
    the roll entries among ``later`` linked to it and their result."""
    submission = int(precombat["seq"])
    linked = [
        e
        for e in later
        if e["kind"] in BATTLE_ROLL_KINDS
        and e["data"].get("declared", {}).get("submission") == submission
    ]
    fights = {b.number: fight(b, later) for b in ledger_battles(precombat, later)}
    out = []
    for battle in precombat["data"].get("battles", []):
        if battle.get("kind") != "battle":
            continue
        mine = [e for e in linked if e["data"]["declared"]["number"] == battle["number"]]
        fought = fights.get(int(battle["number"]), Fight((), tuple(mine)))
        mine, void, noted = list(fought.deciding), fought.void, fought.recognised
        first = int(mine[0]["seq"]) if mine else None
        text = str(precombat["data"]["text"])
        orders = orders_of_loss(text, later, attacker, battle, first)
        if not mine:
            out.append(DeclaredBattle(battle, mine, orders, None, void=void, recognised=noted))
            continue
        try:
            result: dict[str, Any] | None = resolved(mine, orders)
            error = None
        except ValueError as exc:
            result, error = None, str(exc)
        out.append(DeclaredBattle(battle, mine, orders, result, error, void, noted))
    return out


def verdicts(
    precombat: Body, later: Sequence[Body], attacker: str, read: Turn | None = None
) -> dict[int, BattleOutcome]:
    """Each declared battle's verdict from the recorded dice, by battle number, for the
    engine to play the turn out (:func:`adjudicator.turns.advance`): the rules engine's own
    reading (:func:`adjudicator.rulings.record.verdicts`), which the ruling engine plays a
    game out with, so the service and the rulings never disagree on a battle."""
    return ledger_verdicts(precombat, later, attacker, read)


# --- linking a roll ----------------------------------------------------------------------------


def roll_finding(found: Diagnostic) -> dict[str, Any]:
    """A finding as a roll entry records it."""
    return {"severity": found.severity.value, "rule": found.rule.citation, "message": found.message}


def _listed(units: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    return {str(u["unit"]): int(u["count"]) for u in units}


def link_roll(
    session: Session, number: int, game: Fetched, data: Mapping[str, Any]
) -> dict[str, Any]:
    """What a battle roll about to be recorded adds to its data: its declared battle and
    the findings on its units; nothing when no pre-combat turn is in force. ``game`` is the
    game's row as locked (:data:`dice_server.ledger_queries.GAME_LOCK`): where its turn
    stands and its players' addresses."""
    precombat_seq = game.turn_precombat_seq
    if game.turn_phase != COMBAT or precombat_seq is None:
        return {}
    precombat = _body(session, number, precombat_seq)
    declared = precombat["data"].get("battles", [])
    where = place(str(data["battle"]))
    match = next(
        (b for b in declared if b.get("territory") == where and b.get("kind") == "battle"),
        None,
    )
    if match is None:
        listed = ", ".join(f"#{b['number']} {b['territory']}" for b in declared) or "none"
        message = (
            f"{where} is not a battle of the pre-combat turn in force (entry "
            f"#{precombat_seq}; its battles: {listed})"
        )
        return {"findings": [roll_finding(Diagnostic(Severity.ERROR, Rule.CDE, message))]}
    link = {"submission": precombat_seq, "number": int(match["number"])}
    attacker = attacker_email(
        {"axis": game.axis_email, "allies": game.allies_email}, game.turn_power
    )
    later = entries_since(session, number, precombat_seq)
    battle = next(b for b in declared_battles(precombat, later, attacker) if b.declared is match)
    rolled = {"attacker": _listed(data["attacker"]), "defender": _listed(data["defender"])}
    bombard = _listed(data.get("bombard", []))
    if bombard:  # support shots are the declared battleships' (IAAPA Amphibious Assaults)
        rolled["attacker"]["BB"] = rolled["attacker"].get("BB", 0) + bombard.get("BB", 0)
    errors = declaration_errors(precombat, link["number"])
    if errors and battle.recognised is None and (battle.void or not battle.rolls):
        void = void_roll(link["number"], match.get("territory"), precombat_seq, errors)
        return {"declared": link, "findings": [roll_finding(void)]}
    upcoming = next_roll(session, number, precombat, later, battle)
    if upcoming is None:
        return {"declared": link}
    expected, what = upcoming
    findings = []
    for side in ("attacker", "defender"):
        if side == "defender" and not rolled["defender"]:
            continue  # defenders may go unlisted when the attacker rolls alone
        findings += [
            roll_finding(f) for f in rolling_errors(side, rolled[side], expected[side], what)
        ]
    out: dict[str, Any] = {"declared": link}
    if findings:
        out["findings"] = findings
    return out


def next_roll(
    session: Session, number: int, precombat: Body, later: Sequence[Body], battle: DeclaredBattle
) -> tuple[dict[str, dict[str, int]], str] | None:
    """The units the next roll of ``battle`` rolls (IAAPA Error Correction III), and where
    they come from: in the first round the declaration (a battle fought again after a
    combat declaration error: the correct units), after it the survivors of the rolls that
    decide it; None when its rolls cannot be read as one battle."""
    which = int(battle.declared["number"])
    if not battle.rolls and battle.void:
        expected = _correct_units(session, number, precombat, later, which, battle.declared)
        noted = f" (entry #{battle.recognised})" if battle.recognised is not None else ""
        what = (
            f"the correct units of battle #{which}, fought again after the combat declaration "
            f"error is recognised{noted}"
        )
    elif not battle.rolls:
        expected = {s: dict(battle.declared.get(s, {})) for s in ("attacker", "defender")}
        what = f"the declaration of battle #{which} (entry #{precombat['seq']})"
    elif battle.result is not None:
        survivors: Any = battle.result.get("survivors", {})
        expected = {s: dict(survivors.get(s, {})) for s in ("attacker", "defender")}
        if battle.rolls[0]["data"].get("bombard"):  # battleships support the first round only
            expected["attacker"].pop("BB", None)
        what = f"the survivors of battle #{which}'s earlier rolls"
    else:
        return None
    expected["defender"].pop("IC", None)
    return expected, what


def _correct_units(
    session: Session,
    number: int,
    precombat: Body,
    later: Sequence[Body],
    which: int,
    match: Mapping[str, Any],
) -> dict[str, dict[str, int]]:
    """What the first roll of a battle fought again after a combat declaration error rolls
    (:func:`adjudicator.rulings.refights.refight_forces`, on the turn's kept position); the
    declaration where the board cannot say."""
    row = session.get(GameTurn, number)
    battle = next((b for b in ledger_battles(precombat, later) if b.number == which), None)
    forces = None
    if row is not None and battle is not None:
        forces = refight_forces(battle, kept_position(row.position, row.position_sha256))
    return forces or {s: dict(match.get(s, {})) for s in ("attacker", "defender")}


# --- reading -----------------------------------------------------------------------------------


def current_battles(ctx: ServiceContext, number: int, viewer: Member) -> list[dict[str, Any]]:
    """The current turn's declared battles, their rolls, status and the engine's result from
    the ledger's dice with the orders of loss in force (declared, else the defaults)."""
    with reading(ctx.sessions) as session:
        game = session.get(Game, number)
        if game is None:
            raise NotFound(f"there is no game {number}: check the game number", "game")
        check_participant(number, {game.axis_id, game.allies_id, game.mentor_id}, viewer)
        row = session.get(GameTurn, number)
        if row is None or row.precombat_seq is None:
            return []
        precombat = _body(session, number, row.precombat_seq)
        later = entries_since(session, number, row.precombat_seq)
        attacker = attacker_email({"axis": game.axis.email, "allies": game.allies.email}, row.power)
        battles = declared_battles(precombat, later, attacker)
        upcoming = [next_roll(session, number, precombat, later, b) for b in battles]
    return [
        {
            "number": b.declared["number"],
            "territory": b.declared.get("territory"),
            "declared": {s: b.declared.get(s, {}) for s in ("attacker", "defender")},
            "orders_of_loss": b.orders,
            "rolls": [e["seq"] for e in b.rolls],
            "void_rolls": [e["seq"] for e in b.void],
            "status": b.status,
            "result": b.result if b.error is None else {"error": b.error},
            "next_roll": units[0] if units is not None else None,
        }
        for b, units in zip(battles, upcoming, strict=True)
    ]
