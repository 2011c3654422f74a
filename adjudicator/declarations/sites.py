"""Where each declared battle is fought.

IAAPA Error Correction II: "The declared territory or sea zone is always assumed to be correct,
and cannot be considered as a CDE. However, if it is clear from the combat orders where the
battle is to occur, and what units are involved, and the units are 100% correct, then no CDE
can be called. ... For example: There is only 1 German sub on the board (in azo sz), and only 1
UK trn on the board (in lab sz). The combat orders list the attacking sub in can sz instead of
lab sz. In this case the battle will stand as correct."

So a battle declared where there is nothing to attack (a sea zone with no enemy unit, land of
the attacker's own side) is read as the one place the orders can mean, when there is exactly
one: a space of the same kind holding enemy units that every attacking unit can reach from its
origin, holding exactly the defenders listed, if any are. Otherwise the place stands as
declared, with a warning.
"""

from __future__ import annotations

from adjudicator.declarations.defenders import mismatches
from adjudicator.declarations.findings import Code, error_finding, warning_finding
from adjudicator.declarations.geometry import Movement
from adjudicator.declarations.plan import Site, fighting
from adjudicator.declarations.reach import can_reach
from adjudicator.diagnostics import Diagnostic, Rule
from adjudicator.notation.model import Battle, BattleKind, Turn
from adjudicator.powers import Alliance
from adjudicator.units import UnitType


def _attackers(battle: Battle, is_sea: bool, movement: Movement) -> list[tuple[str, UnitType]]:
    return [
        (o.place, unit)
        for o in battle.origins
        if o.place is not None and o.place in movement.board.territories
        for unit, _ in fighting(o, is_sea, movement)
    ]


def _meant(battle: Battle, is_sea: bool, movement: Movement) -> str | None:
    """The one place the orders can mean, if there is exactly one."""
    attackers = _attackers(battle, is_sea, movement)
    if not attackers:
        return None
    planes = any(u in (UnitType.FTR, UnitType.BMB) for _, u in attackers)
    found = []
    power = movement.power
    enemy = Alliance.ALLIES if power.alliance is Alliance.AXIS else Alliance.AXIS
    for space in movement.position.occupied(enemy):  # order-free: one place, or none
        if movement.is_sea(space) != is_sea:
            continue
        if not all(can_reach(movement, unit, origin, space) for origin, unit in attackers):
            continue
        listed = battle.defenders
        present = movement.position.enemy_units(space, movement.power)
        if listed is not None and mismatches(listed, present, battle.kind, is_sea, planes):
            continue
        found.append(space)
        if len(found) > 1:
            return None
    return found[0] if found else None


def _site(battle: Battle, space: str, movement: Movement) -> tuple[Site, list[Diagnostic]]:
    position, power = movement.position, movement.power
    is_sea = movement.is_sea(space)
    declared = Site(battle, space, is_sea)
    if battle.kind is BattleKind.RAID:
        complex_there = position.enemy_units(space, power).count(UnitType.IC)
        if complex_there:
            return declared, []
        return declared, [
            error_finding(
                battle.line,
                Rule.CDE,
                f"{declared.name}: a bombing raid on {space}, which has no "
                "enemy industrial complex",
                "raid a territory with an enemy IC, or take the bombers out",
                Code.NO_COMPLEX,
                (battle.number,),
            )
        ]
    if position.has_enemy(space, power):
        return declared, []
    if not is_sea and not position.is_friendly(space, power):
        return declared, []  # empty enemy or neutral land: taken without a fight
    if battle.kind is BattleKind.BATTLE:
        meant = _meant(battle, is_sea, movement)
        if meant is not None:
            return Site(battle, meant, is_sea, relocated=True), [
                warning_finding(
                    battle.line,
                    Rule.CDE,
                    f"battle #{battle.number} is declared in {space}, where there is no enemy "
                    f"unit; the only place its attackers can reach holding the enemy "
                    f"{'listed' if battle.defenders is not None else 'units'} is {meant}, so the "
                    f"intent is clear and no CDE can be called: read as {meant}",
                    f"write the battle's place as {meant} to avoid a dispute",
                    Code.INTENT_CLEAR,
                    (battle.number,),
                )
            ]
    whose = "a sea zone with no enemy unit" if is_sea else "held by the attacker's side"
    return declared, [
        warning_finding(
            battle.line,
            Rule.PRECOMBAT,
            f"{declared.name}: {space} is {whose}: there is nothing to attack (the declared "
            "place is assumed correct, Error Correction II)",
            "check the battle's place before rolling",
            Code.NOTHING_TO_ATTACK,
            (battle.number,),
        )
    ]


def locate(turn: Turn, movement: Movement) -> tuple[tuple[Site, ...], list[Diagnostic]]:
    """The site of every battle whose place could be read, and what locating them found."""
    sites: list[Site] = []
    found: list[Diagnostic] = []
    for battle in turn.battles:
        space = battle.territory
        if space is None or space not in movement.board.territories:
            continue
        site, notes = _site(battle, space, movement)
        sites.append(site)
        found.extend(notes)
    return tuple(sites), found
