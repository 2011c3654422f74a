"""Battle rolls made while no pre-combat turn is in force: players who use the dice server
alone (IAAPA Error Correction III, weighed from the dice alone).

With no declaration there is nothing to hold the first round against: "A player must
declare all combat prior to rolling any dice" and the declaration is what says "the exact
number and type of attacking units" (Error Correction II), so the first round is taken as
declared, its units (as the roller listed them) the battle's forces. The rounds after it
can still be weighed against the survivors the dice left, as Error Correction III weighs
any round: too many, too few and wrong units; an AA gun firing after round 1 (a ghost gun);
support shots left on after round 1 ("the generic ghost rule").

Kept conservative, since no turn records what the players chose: casualties are the
defaults (no order of loss is on record), and a side that rolled as many units as survived,
none of a type beyond what it had, may have chosen its casualties otherwise, so it is not
ruled on (:meth:`adjudicator.rulings.rolling._Review._decidable`); a round-1 reading that
does not add up rules nothing for the battle; the orders-of-loss pause is not ruled (which
defending transports are loaded is not on record).

The rolls of one battle are those of the same country, turn and place, in the order rolled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.battle.setup import LAND_FIGHTERS, SEA_FIGHTERS
from adjudicator.names import NameResolutionError, classic_names
from adjudicator.rolls.battle import ATTACKER_TECH, DEFENDER_TECH
from adjudicator.rolls.replay import BATTLE_ROLL_KINDS, SHIPS
from adjudicator.rulings.dice import NotADiceEntry, RollDice, read_dice, take_round
from adjudicator.rulings.forces import BattleForces
from adjudicator.rulings.record import Body, DeclaredBattle, GameRecord, LedgerTurn, power_named
from adjudicator.rulings.rolling import Correctable, ReviewTerms, review_battle
from adjudicator.units import Units, UnitType

U = UnitType


def _place(written: object) -> str | None:
    try:
        return classic_names().place(str(written)).label
    except NameResolutionError:
        return None


def unrecorded_battles(turn: LedgerTurn) -> list[list[Body]]:
    """The turn's battle rolls linked to no declaration, grouped by battle (country, turn
    and place), when no pre-combat turn is in force."""
    if turn.precombat is not None:
        return []
    found: dict[tuple[str, int, str], list[Body]] = {}
    for entry in turn.entries:
        data = entry["data"]
        if entry["kind"] not in BATTLE_ROLL_KINDS or "declared" in data or data.get("findings"):
            continue
        place = _place(data.get("battle"))
        if place is None:
            continue
        key = (str(data.get("country", "")), int(data.get("turn", 0)), place)
        found.setdefault(key, []).append(entry)
    return list(found.values())


def _listed(data: Mapping[str, Any], side: str) -> dict[UnitType, int]:
    out: dict[UnitType, int] = {}
    for item in data.get(side, []):
        try:
            unit = UnitType(str(item.get("unit", "")).upper())
        except ValueError:
            continue
        out[unit] = max(out.get(unit, 0), int(item.get("count", 0)))
    return out


def _most(into: dict[UnitType, int], listed: Mapping[UnitType, int]) -> None:
    for unit, n in listed.items():
        into[unit] = max(into.get(unit, 0), n)


def first_round_forces(battle: DeclaredBattle, rolls: Sequence[RollDice]) -> BattleForces | None:
    """The forces of a battle no turn declares: the units its first round lists (the
    subs' first strike and the main roll, or the defence and the attack rolled apart)."""
    power = power_named(battle.submission["data"].get("power"))
    if power is None or not rolls:
        return None
    attacker: dict[UnitType, int] = {}
    defender: dict[UnitType, int] = {}
    support = 0
    for roll in take_round(rolls, 0):
        if "defenders-only" not in roll.options:
            _most(attacker, _listed(roll.data, "attacker"))
        _most(defender, _listed(roll.data, "defender"))
        support = max(support, _listed(roll.data, "bombard").get(U.BB, 0))
    options = frozenset(o for r in rolls for o in r.options)
    sea = any(u.value in SHIPS for u in (*attacker, *defender))
    fighting = SEA_FIGHTERS if sea else LAND_FIGHTERS
    return BattleForces(
        battle=battle,
        power=power,
        sea=sea,
        attacker=Units.of(attacker).only(*fighting),
        defender=Units.of(defender).only(*fighting),
        support=0 if sea else support,
        amphibious=not sea and support > 0,
        aa_gun=not sea and defender.get(U.AA, 0) > 0,
        cargo=0,
        attacker_techs=frozenset(t for n, t in ATTACKER_TECH.items() if n in options),
        defender_techs=frozenset(t for n, t in DEFENDER_TECH.items() if n in options),
        orders={},
    )


def _battle(entries: list[Body]) -> DeclaredBattle:
    data = entries[0]["data"]
    country, turn = str(data.get("country", "")), int(data.get("turn", 0))
    place = _place(data.get("battle")) or str(data.get("battle"))
    submission = {
        "seq": int(entries[0]["seq"]),
        "kind": "submission",
        "data": {"power": country, "round": turn, "phase": "pre-combat", "text": ""},
    }
    return DeclaredBattle(
        submission, 0, place, {}, {}, tuple(entries), name=f"{country} {turn} {place}"
    )


def unrecorded_rulings(record: GameRecord, turn: LedgerTurn) -> list[Correctable]:
    """Error Correction III rulings on the rounds after the first of battles rolled while no
    pre-combat turn is in force."""
    out: list[Correctable] = []
    for entries in unrecorded_battles(turn):
        battle = _battle(entries)
        try:
            forces = first_round_forces(battle, [read_dice(b) for b in entries])
        except NotADiceEntry:
            continue
        if forces is None:
            continue
        preface = (
            f"no pre-combat turn was recorded, so no declaration holds the rolls: the first "
            f"round (#{entries[0]['seq']}) is taken as declared, and this round is weighed "
            "against the survivors the dice left"
        )
        terms = ReviewTerms(preface=preface, first_round_as_declared=True)
        out += review_battle(record, turn, battle, terms, forces).rulings
    return out
