"""The forces a declared battle should be rolled with, and the battle document the engine
plays its kept dice in.

The attackers are the declaration's: a declaration that stands is "100% correct" (a wrong
one is a CDE and voids the battle, IAAPA Error Correction II). The defenders are the board's
at the start of the turn ("the defending units are what they are"), the fighting units only:
an AA gun fires only at aircraft before round 1, a complex never fires, and at sea land units
aboard transports are cargo. In a land battle the declared battleships give support shots
when the battle is an amphibious assault (a transport brings units to it); technologies are
the powers' own on the board.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.battle.setup import LAND_FIGHTERS, SEA_FIGHTERS
from adjudicator.names import technology_label
from adjudicator.notation import parse
from adjudicator.position import CARGO, Position
from adjudicator.powers import Power
from adjudicator.rulings.record import DeclaredBattle, power_named
from adjudicator.units import Side, Technology, Units, UnitType, unit_profile

U = UnitType
TECH_OPTIONS = {
    Technology.HEAVY_BOMBERS: ("heavy-bombers", Side.ATTACKER),
    Technology.SUPER_SUBS: ("super-subs", Side.ATTACKER),
    Technology.JET_POWER: ("jet-fighters", Side.DEFENDER),
}
"""The battle roller's options standing for a technology, and the side that uses it."""


def _units(listed: Mapping[str, int]) -> Units:
    counts: dict[UnitType, int] = {}
    for name, n in listed.items():
        try:
            unit = UnitType(str(name).upper())
        except ValueError:
            continue
        counts[unit] = counts.get(unit, 0) + int(n)
    return Units.of(counts)


@dataclass(frozen=True)
class BattleForces:
    """What a declared battle is fought with, as the rules say it should be rolled."""

    battle: DeclaredBattle
    power: Power
    sea: bool
    attacker: Units
    """The attacking units that fight (support battleships apart)."""
    defender: Units
    """The defending units that fight."""
    support: int
    """Battleships giving support shots in round 1 (an amphibious assault's)."""
    amphibious: bool
    aa_gun: bool
    """A defending AA gun is there (a land battle)."""
    cargo: int
    attacker_techs: frozenset[Technology]
    defender_techs: frozenset[Technology]
    orders: Mapping[str, list[str]]

    def dice_per_unit(self, side: str, unit: UnitType) -> int:
        """Dice one unit throws in a round's main roll (0: it does not fire)."""
        if side == "attacker":
            stats = unit_profile(unit, self.attacker_techs)
            return stats.attack_dice if stats.attack else 0
        return 1 if unit_profile(unit, self.defender_techs).defence else 0

    def hits_on(self, side: str, unit: UnitType) -> int:
        techs = self.attacker_techs if side == "attacker" else self.defender_techs
        stats = unit_profile(unit, techs)
        return (stats.attack if side == "attacker" else stats.defence) or 0

    def options(self, side: str) -> list[str]:
        """The roller options for the technologies of ``side``'s power."""
        techs = self.attacker_techs if side == "attacker" else self.defender_techs
        wanted = Side.ATTACKER if side == "attacker" else Side.DEFENDER
        return sorted(name for t, (name, s) in TECH_OPTIONS.items() if t in techs and s is wanted)

    def document(
        self, rounds: list[dict[str, Any]], *, attacker: Units | None = None
    ) -> dict[str, Any]:
        """The battle document (version 1) of these forces with ``rounds`` of kept dice;
        ``attacker``: the attacking units when some never fought (removed before round 1)."""
        attacking = attacker if attacker is not None else self.attacker
        forces = attacking.to_json()
        if self.support:
            forces["BB"] = forces.get("BB", 0) + self.support
        defending = self.defender.to_json()
        if self.aa_gun:
            defending["AA"] = 1
        doc: dict[str, Any] = {
            "version": 1,
            "kind": "sea" if self.sea else "land",
            "amphibious": int(self.amphibious and not self.sea),
            "attacker": forces,
            "defender": defending,
            "technologies": {
                "attacker": sorted(technology_label(t) for t in self.attacker_techs),
                "defender": sorted(technology_label(t) for t in self.defender_techs),
            },
            "rounds": rounds,
        }
        if self.orders:
            doc["order_of_loss"] = dict(self.orders)
        if self.sea and self.cargo:
            doc["loaded"] = {"TRN": self.cargo}
        return doc


def battle_forces(
    battle: DeclaredBattle, start: Position | None, orders: Mapping[str, list[str]]
) -> BattleForces:
    """The forces ``battle`` should be rolled with, on the board ``start`` (the turn's)."""
    data = battle.submission["data"]
    power = power_named(data.get("power")) or (start.to_move if start else Power.USSR)
    declared = _units(battle.attacker)
    if start is not None and battle.territory in start.board.territories:
        sea = start.board.territory(battle.territory).is_sea
    else:
        sea = "Sea Zone" in battle.territory
    if start is not None:
        there = start.enemy_units(battle.territory, power)
        enemies = [
            p
            for p, units in start.units_at(battle.territory).items()
            if p.alliance is not power.alliance and units
        ]
        defender_techs = frozenset().union(*(start.technologies_of(p) for p in enemies))
        attacker_techs = start.technologies_of(power)
    else:
        there = _units(battle.defender or {})
        defender_techs = attacker_techs = frozenset()
    fighting = SEA_FIGHTERS if sea else LAND_FIGHTERS
    support = 0 if sea else declared.count(U.BB)
    amphibious = not sea and (support > 0 or _transported(battle))
    return BattleForces(
        battle=battle,
        power=power,
        sea=sea,
        attacker=declared.only(*(u for u in UnitType if u in fighting)),
        defender=there.only(*(u for u in UnitType if u in fighting)),
        support=support,
        amphibious=amphibious,
        aa_gun=not sea and there.count(U.AA) > 0,
        cargo=there.only(*CARGO).total if sea else 0,
        attacker_techs=frozenset(attacker_techs),
        defender_techs=frozenset(defender_techs),
        orders=orders,
    )


def _transported(battle: DeclaredBattle) -> bool:
    """Whether the declaration brings units to the battle by transport."""
    turn = parse(str(battle.submission["data"]["text"]))
    for declared in turn.battles:
        if declared.number == battle.number or declared.territory == battle.territory:
            return any(origin.transports for origin in declared.origins)
    return False
