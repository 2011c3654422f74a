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

A place written so that it fits several places ("Can SZ": East Canada, West Canada or West
Africa Sea Zone; the notation's ``could_be``) declares none of them by itself: Error
Correction VI, "In all cases, the correct word must be readily decipherable". It is read as
the one of them holding what the attack needs (enemy units; an enemy complex for a raid; empty
enemy or neutral land for a walk-in) that the attackers moving on their own can reach from
their written origins, and, of several, the one holding exactly the defenders listed. With
none or several, it is not clear where the battle is to occur, and the battle is void.
"""

from __future__ import annotations

from adjudicator.declarations.defenders import mismatches
from adjudicator.declarations.findings import (
    VOID_SUGGESTION,
    Code,
    either,
    error_finding,
    warning_finding,
)
from adjudicator.declarations.geometry import Movement, can_reach
from adjudicator.declarations.plan import Plan, Site, build, fighting
from adjudicator.diagnostics import Diagnostic, Rule
from adjudicator.notation.model import Battle, BattleKind, Turn
from adjudicator.powers import Alliance
from adjudicator.units import Domain, UnitType


def _attackers(battle: Battle, is_sea: bool, movement: Movement) -> list[tuple[str, UnitType]]:
    return [
        (o.place, unit)
        for o in battle.origins
        if o.place is not None and o.place in movement.board.territories
        for unit, _ in fighting(o, is_sea, movement).counts
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


_NEEDS = {
    BattleKind.BATTLE: "enemy units",
    BattleKind.RAID: "an enemy industrial complex",
    BattleKind.WALK_IN: "empty enemy or neutral land",
}
"""What a place must hold for a battle of each kind to be fought there, as findings say it."""


def _fits(battle: Battle, space: str, movement: Movement) -> bool:
    """Whether ``space`` holds what ``battle`` needs (:data:`_NEEDS`)."""
    position, power = movement.position, movement.power
    if battle.kind is BattleKind.RAID:
        return bool(position.enemy_units(space, power).count(UnitType.IC))
    if battle.kind is BattleKind.WALK_IN:
        return not (
            movement.is_sea(space)
            or position.has_enemy(space, power)
            or position.is_friendly(space, power)
        )
    return position.has_enemy(space, power)


def _movers(battle: Battle, is_sea: bool, movement: Movement) -> list[tuple[str, UnitType]]:
    """The attacking units, by written origin, that go to a battle at sea (``is_sea``) or on
    land on their own: planes, ships to sea, land units over land. Units carried by transports
    and a battleship's support shot prove nothing about where the battle is."""
    found = []
    for origin in battle.origins:
        place = origin.place
        if place is None or place not in movement.board.territories:
            continue
        carried = bool(origin.transports) or movement.is_sea(place)
        for unit, _ in origin.units.counts:
            domain = unit.stats.domain
            if (
                domain is Domain.AIR
                or (domain is Domain.SEA and is_sea)
                or (domain is Domain.LAND and not is_sea and not carried)
            ):
                found.append((place, unit))
    return found


def _holding(battle: Battle, movement: Movement) -> list[str]:
    """The places ``battle``'s name could be that hold what it needs and that every attacker
    moving on its own can reach; of several, those holding exactly the defenders listed, if
    that leaves any."""
    found = []
    for space in battle.could_be:
        if space not in movement.board.territories or not _fits(battle, space, movement):
            continue
        movers = _movers(battle, movement.is_sea(space), movement)
        if all(can_reach(movement, unit, origin, space) for origin, unit in movers):
            found.append(space)
    listed = battle.defenders
    if len(found) < 2 or listed is None:
        return found
    planes = any(o.units.aircraft for o in battle.origins)
    exact = [
        space
        for space in found
        if not mismatches(
            listed,
            movement.position.enemy_units(space, movement.power),
            battle.kind,
            movement.is_sea(space),
            planes,
        )
    ]
    return exact or found


def _read_place(battle: Battle, movement: Movement) -> tuple[Site | None, Diagnostic]:
    """The site of a battle whose written place fits several, if the orders make it clear;
    else no site, and the error that voids the battle."""
    n, could_be = battle.number, battle.could_be
    needs = _NEEDS[battle.kind]
    holding = _holding(battle, movement)
    if len(holding) == 1:
        (space,) = holding
        return Site(battle, space, movement.is_sea(space), relocated=True), warning_finding(
            battle.line,
            Rule.CDE,
            f"battle #{n}'s place could be {either(could_be)}; only {space} holds {needs} "
            f"its attackers can reach, so it is clear where the battle is to occur and no CDE "
            f"can be called: read as {space}",
            f"write the battle's place as {space} to avoid a dispute",
            Code.INTENT_CLEAR,
            (n,),
        )
    why = (
        f"{either(holding, 'and')} each hold {needs} its attackers can reach"
        if holding
        else f"none of them holds {needs} its attackers can reach"
    )
    return None, error_finding(
        battle.line,
        Rule.CDE,
        f"battle #{n}'s place could be {either(could_be)}, and {why}: the correct word is not "
        "readily decipherable, so it is not clear where the battle is to occur",
        f"write the battle's place in full; {VOID_SUGGESTION}",
        Code.PLACE_NOT_CLEAR,
        (n,),
        (Rule.TYPOGRAPHICAL_ERRORS,),
    )


def locate(turn: Turn, movement: Movement) -> tuple[tuple[Site, ...], list[Diagnostic]]:
    """The site of every battle whose place could be read, and what locating them found."""
    sites: list[Site] = []
    found: list[Diagnostic] = []
    for battle in turn.battles:
        space = battle.territory
        if space is None and battle.could_be:
            read, note = _read_place(battle, movement)
            sites.extend([read] if read is not None else [])
            found.append(note)
            continue
        if space is None or space not in movement.board.territories:
            continue
        site, notes = _site(battle, space, movement)
        sites.append(site)
        found.extend(notes)
    return tuple(sites), found


def planned(
    turn: Turn, movement: Movement
) -> tuple[tuple[Site, ...], tuple[Diagnostic, ...], Plan]:
    """:func:`locate` and :func:`~.plan.build` of ``turn``'s battles for ``movement``, made
    once: a post-combat check weighs the same combat moves four times (their declarations,
    what they leave, the battles fought, the retreats), and each would read them anew. The
    last plan made is kept on ``movement`` with the battles it was made of (their tuple, by
    identity: battles are immutable, and no other turn's can be the same object)."""
    battles = turn.battles
    kept = movement.last_plan
    made: tuple[tuple[Site, ...], tuple[Diagnostic, ...], Plan]
    if kept is not None and kept[0] is battles:
        made = kept[1]
        return made
    sites, located = locate(turn, movement)
    made = (sites, tuple(located), build(sites, movement))
    movement.last_plan = (battles, made)
    return made
