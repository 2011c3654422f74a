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
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator.battle import resolve_json
from adjudicator.diagnostics import Rule
from adjudicator.notation import parse
from adjudicator.rolls import battle_document
from dice_server.db import reading
from dice_server.errors import NotFound
from dice_server.kinds.battle import place
from dice_server.models import Game, GameTurn, LedgerEntry, Member
from dice_server.services import ServiceContext
from dice_server.services.games import check_participant

COMBAT = "combat"


def _body(session: Session, number: int, seq: int) -> dict[str, Any]:
    body = session.execute(
        select(LedgerEntry.body).where(LedgerEntry.game_number == number, LedgerEntry.seq == seq)
    ).scalar_one()
    parsed: dict[str, Any] = json.loads(body)
    return parsed


def linked_rolls(session: Session, number: int, submission: int) -> list[dict[str, Any]]:
    """The roll entries (bodies) linked to a battle of pre-combat submission ``submission``,
    in seq order."""
    bodies = session.execute(
        select(LedgerEntry.body)
        .where(
            LedgerEntry.game_number == number,
            LedgerEntry.seq > submission,
            LedgerEntry.kind == "roll",
        )
        .order_by(LedgerEntry.seq)
    ).scalars()
    found = []
    for body in bodies:
        entry = json.loads(body)
        if entry["data"].get("declared", {}).get("submission") == submission:
            found.append(entry)
    return found


def _finding(rule: Rule, message: str) -> dict[str, Any]:
    return {"severity": "error", "rule": rule.citation, "message": message}


def _listed(units: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    return {str(u["unit"]): int(u["count"]) for u in units}


def _compare(
    side: str, rolled: Mapping[str, int], expected: Mapping[str, int], what: str
) -> list[dict[str, Any]]:
    """Findings for a side whose rolled units differ from ``expected``."""
    found = []
    for unit in sorted(set(rolled) | set(expected)):
        have, want = rolled.get(unit, 0), expected.get(unit, 0)
        if have == want:
            continue
        if want == 0:
            found.append(
                _finding(
                    Rule.WRONG_UNITS,
                    f"{side}: {have} {unit} rolled, but {what} has no {unit}: "
                    '"if a player enters the wrong type of unit then its roll will be ignored"',
                )
            )
        elif have > want:
            found.append(
                _finding(
                    Rule.TOO_MANY_UNITS,
                    f"{side}: {have} {unit} rolled, {want} in {what}: take the correct number "
                    "of dice from the left",
                )
            )
        else:
            found.append(
                _finding(
                    Rule.TOO_FEW_UNITS,
                    f"{side}: {have} {unit} rolled, {want} in {what}: roll for the missing "
                    "units and then re-roll the remainder of the battle",
                )
            )
    return found


def link_roll(session: Session, number: int, data: Mapping[str, Any]) -> dict[str, Any]:
    """What a battle roll about to be recorded adds to its data: its declared battle and
    the findings on its units; nothing when no pre-combat turn is in force."""
    row = session.get(GameTurn, number)
    if row is None or row.phase != COMBAT or row.precombat_seq is None:
        return {}
    submission = row.precombat_seq
    declared = _body(session, number, submission)["data"].get("battles", [])
    where = place(str(data["battle"]))
    match = next(
        (b for b in declared if b.get("territory") == where and b.get("kind") == "battle"),
        None,
    )
    if match is None:
        listed = ", ".join(f"#{b['number']} {b['territory']}" for b in declared) or "none"
        return {
            "findings": [
                _finding(
                    Rule.CDE,
                    f"{where} is not a battle of the pre-combat turn in force (entry "
                    f"#{submission}; its battles: {listed})",
                )
            ]
        }
    link = {"submission": submission, "number": int(match["number"])}
    earlier = [
        e for e in linked_rolls(session, number, submission) if e["data"]["declared"] == link
    ]
    rolled = {"attacker": _listed(data["attacker"]), "defender": _listed(data["defender"])}
    bombard = _listed(data.get("bombard", []))
    if bombard:  # support shots are the declared battleships' (IAAPA Amphibious Assaults)
        rolled["attacker"]["BB"] = rolled["attacker"].get("BB", 0) + bombard.get("BB", 0)
    if not earlier:
        expected = {s: dict(match.get(s, {})) for s in ("attacker", "defender")}
        what = f"the declaration of battle #{link['number']} (entry #{submission})"
    else:
        game = session.get(Game, number)
        assert game is not None
        orders = orders_of_loss(session, number, game, row, match, earlier[0]["seq"])
        try:
            result = resolved(earlier, orders)
        except ValueError:
            return {"declared": link}
        survivors: Any = result.get("survivors", {})
        expected = {s: dict(survivors.get(s, {})) for s in ("attacker", "defender")}
        if earlier[0]["data"].get("bombard"):  # battleships support the first round only
            expected["attacker"].pop("BB", None)
        what = f"the survivors of battle #{link['number']}'s earlier rolls"
    expected["defender"].pop("IC", None)
    findings = []
    for side in ("attacker", "defender"):
        if side == "defender" and not rolled["defender"]:
            continue  # defenders may go unlisted when the attacker rolls alone
        findings += _compare(side, rolled[side], expected[side], what)
    out: dict[str, Any] = {"declared": link}
    if findings:
        out["findings"] = findings
    return out


def _status(result: Mapping[str, Any] | None) -> str:
    if result is None:
        return "declared"
    if result.get("outcome") != "continues":
        return "decided"
    rounds: Any = result.get("rounds") or []
    pause = rounds[-1].get("pause") if rounds else None
    return "must-pause" if pause and not pause.get("answered") else "in-progress"


def _orders_in(text: str, number: int, territory: str) -> list[str]:
    """The order of loss a turn or note sets for battle ``number`` (by number, territory, or
    for every battle), as unit names lost first; a count written for a step ("1 INF, FTR,
    INF") keeps the unit's first place only."""
    order: list[str] = []
    for special in parse(text).orders_of_loss:
        scoped = special.number is not None or special.territory is not None
        if scoped and special.number != number and special.territory != territory:
            continue
        order = []
        for step in special.order:
            if step.unit.value not in order:
                order.append(step.unit.value)
    return order


def orders_of_loss(
    session: Session,
    number: int,
    game: Game,
    row: GameTurn,
    battle: Mapping[str, Any],
    first_roll: int | None,
) -> dict[str, list[str]]:
    """The orders of loss in force for a declared battle (IAAPA Orders of Loss: "If a
    defender does not send in any special orders of loss prior to the attacker rolling the
    battle then the Association defaults will be used"): the attacker's from his pre-combat
    turn; either side's from a special-orders note sent before the battle's first roll."""
    assert row.precombat_seq is not None
    mover_is_axis = _power_alliance_axis(row.power)
    attacker_email = game.axis.email if mover_is_axis else game.allies.email
    where, which = str(battle["territory"]), int(battle["number"])
    orders: dict[str, list[str]] = {}
    pre = _body(session, number, row.precombat_seq)["data"]["text"]
    if found := _orders_in(str(pre), which, where):
        orders["attacker"] = found
    notes = session.execute(
        select(LedgerEntry.body)
        .where(
            LedgerEntry.game_number == number,
            LedgerEntry.seq > row.precombat_seq,
            LedgerEntry.seq < (first_roll or 2**31),
            LedgerEntry.kind == "note",
        )
        .order_by(LedgerEntry.seq)
    ).scalars()
    for body in notes:
        data = json.loads(body)["data"]
        if data.get("topic") != "special-orders":
            continue
        if found := _orders_in(str(data["text"]), which, where):
            orders["attacker" if data.get("by") == attacker_email else "defender"] = found
    return orders


def _power_alliance_axis(power: str) -> bool:
    return power in ("Germany", "Japan")


def resolved(rolls: Sequence[Mapping[str, Any]], orders: Mapping[str, list[str]]) -> dict[str, Any]:
    """The battle of these roll entries resolved with the orders of loss in force."""
    doc = battle_document(rolls)
    if orders:
        doc["order_of_loss"] = dict(orders)
    return dict(resolve_json(doc))


def current_battles(ctx: ServiceContext, number: int, viewer: Member) -> list[dict[str, Any]]:
    """The current turn's declared battles, their rolls, status and the engine's result from
    the ledger's dice with the orders of loss in force (declared, else the defaults)."""
    out = []
    with reading(ctx.sessions) as session:
        game = session.get(Game, number)
        if game is None:
            raise NotFound(f"there is no game {number}: check the game number", "game")
        check_participant(number, {game.axis_id, game.allies_id, game.mentor_id}, viewer)
        row = session.get(GameTurn, number)
        if row is None or row.precombat_seq is None:
            return []
        submission = row.precombat_seq
        declared = _body(session, number, submission)["data"].get("battles", [])
        rolls = linked_rolls(session, number, submission)
        for battle in declared:
            if battle.get("kind") != "battle":
                continue
            mine = [e for e in rolls if e["data"]["declared"]["number"] == battle["number"]]
            first = mine[0]["seq"] if mine else None
            orders = orders_of_loss(session, number, game, row, battle, first)
            result: dict[str, Any] | None = None
            status = "declared"
            if mine:
                try:
                    result = resolved(mine, orders)
                    status = _status(result)
                except ValueError as exc:
                    result, status = {"error": str(exc)}, "error"
            out.append(
                {
                    "number": battle["number"],
                    "territory": battle["territory"],
                    "declared": {s: battle.get(s, {}) for s in ("attacker", "defender")},
                    "orders_of_loss": orders,
                    "rolls": [e["seq"] for e in mine],
                    "status": status,
                    "result": result,
                }
            )
    return out
