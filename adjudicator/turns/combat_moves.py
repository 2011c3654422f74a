"""Combat moves played out: the declared attackers leave their origins for their battles.

IAAPA Precombat: "Combat moves must list the attacking units, specifying the territory of
origin for each unit." Each battle's site and origins are read as the declaration checks read
them (:mod:`adjudicator.declarations.plan`, :mod:`~adjudicator.declarations.sites`). How each
battle is settled:

- with its verdict from the dice (:class:`~adjudicator.turns.verdicts.BattleOutcome`);
- a walk-in (WI) needs none: "The attacker simply 'walks in' to an empty enemy or neutral
  territory. No combat rolls are required, but it happens during the combat phase" (IAAPA
  Abbreviations). A battle declared where no enemy unit fights (only AA guns and complexes,
  which never fight) and rolled nowhere is read as one;
- a battle with enemies and no verdict was not fought: its units stay at their origins (Error
  Correction II: "If the attacker elects not to fight the battle, he may move the previously
  assigned units during non-combat").

Transports of an amphibious assault end in the zone they unload from; when that zone has a
sea battle of its own that lists them, that battle moves them ("Transports need to be declared
as part of the attacking force", IAAPA Amphibious Assaults). Battleships listed in a land
battle give support shots from the unloading zone and stay there. A tank blitzing through an
empty enemy territory takes it, and aircraft flying over a neutral take it (IAAPA Neutral
Territories).
"""

from __future__ import annotations

from adjudicator.declarations.geometry import Movement, movement_of
from adjudicator.declarations.plan import Lift, Site, Sortie
from adjudicator.declarations.sites import planned
from adjudicator.diagnostics import Rule, Severity
from adjudicator.notation.model import BattleKind
from adjudicator.position.model import CARGO
from adjudicator.powers import Power
from adjudicator.turns.capture import take_land
from adjudicator.turns.findings import Finding
from adjudicator.turns.fronts import Airborne, Front, TurnInPlay
from adjudicator.turns.table import clamp
from adjudicator.units import NO_UNITS, Units, UnitType

_SHIPS = (UnitType.TRN, UnitType.SUB, UnitType.AC, UnitType.BB)
_AIR = (UnitType.FTR, UnitType.BMB)


def _mode(play: TurnInPlay, site: Site) -> str:
    """How the battle at ``site`` is settled, with a finding when it is not by its dice."""
    verdict = play.verdicts.get(site.number)
    kind = site.battle.kind
    enemy = play.table.enemy_fighters(site.space, play.mover)
    line, said = play.where(site.number, site.battle.line, site.space)
    name = f"battle #{site.number} ({site.space}, {said})"
    if kind is BattleKind.RAID:
        if verdict is not None:
            return "raid"
    elif kind is BattleKind.WALK_IN:
        if not enemy:
            return "walk-in"
        play.note(
            Severity.WARNING,
            Rule.ABBREVIATIONS,
            Finding.NOT_A_WALK_IN,
            f"{name} is a walk-in, but {site.space} holds enemy {enemy}: it is not empty, so "
            "nobody walks in and the units stay where they were",
            "declare a battle and roll it, or move the units in the non-combat move",
            line=line,
            battles=(site.number,),
        )
        return "void"
    elif verdict is not None:
        return "battle"
    elif not enemy:
        play.note(
            Severity.INFO,
            Rule.ABBREVIATIONS,
            Finding.WALKED_IN,
            f"{name}: {site.space} holds no enemy unit that fights and no dice were rolled: "
            "the attackers walk in",
            line=line,
            battles=(site.number,),
        )
        return "walk-in"
    play.note(
        Severity.WARNING,
        Rule.CDE,
        Finding.NO_VERDICT,
        f"{name} has no dice rolled: it is not fought, and its units stay where they were "
        "(they may move in the non-combat move)",
        "roll the battle on the dice server, or leave it out of the turn",
        line=line,
        battles=(site.number,),
    )
    return "void"


def _short(
    play: TurnInPlay, front: Front, pre_line: int, place: str, want: Units, got: Units
) -> None:
    if got == want:
        return
    line, said = play.where(front.number, pre_line, front.site.space)
    play.note(
        Severity.WARNING,
        Rule.PRECOMBAT,
        Finding.NOT_THERE,
        f"battle #{front.number} ({said}): {want} from {place}, but only {got or 'none'} "
        f"there: {got or 'nothing'} moves",
        "check the origins of the combat moves",
        line=line,
        battles=(front.number,),
    )


def _board(front: Front, carried: dict[Power, Units], mover: Power) -> None:
    """What sails unnamed with the ships of a sea battle: cargo and passengers."""
    for power, units in carried.items():
        if power is mover:
            front.cargo = front.cargo + units.only(*CARGO)
            units = units.without(*CARGO)
        if units:
            front.passengers[power] = front.passengers.get(power, NO_UNITS) + units


def _sortie(
    play: TurnInPlay, front: Front, sortie: Sortie, movement: Movement, support: str
) -> None:
    table, mover, site = play.table, play.mover, front.site
    place = sortie.place
    if place is None or place not in table.board.territories:
        return
    origin = sortie.origin
    ships, rest = origin.units.only(*_SHIPS), origin.units.without(*_SHIPS)
    if ships and not site.is_sea:
        shots = table.take(place, mover, ships)
        table.put(support or place, mover, shots)
        _short(play, front, origin.line, place, ships, shots)
        ships = NO_UNITS
    taken = table.take(place, mover, rest)
    sailed, carried = table.sail(place, mover, ships) if ships else (NO_UNITS, {})
    _short(play, front, origin.line, place, ships + rest, sailed + taken)
    moved = sailed + taken
    if site.is_sea:
        fighting = clamp(sortie.fighting, moved)
        front.attackers = front.attackers + fighting
        front.cargo = front.cargo + moved.minus(fighting)
        _board(front, carried, mover)
    else:
        front.attackers = front.attackers + taken
    spent = movement.geometry.air(place, site.space)
    for unit in _AIR:
        if moved.count(unit):
            front.flights.append(
                Airborne(
                    front.number,
                    site.space,
                    site.space,
                    unit,
                    moved.count(unit),
                    place,
                    origin.lands,
                    spent,
                    origin.line,
                )
            )
    if moved.without(*_AIR):  # IAAPA Retreats: "flight paths cannot validate retreat locations"
        front.origins.extend(p for p in (place, *origin.via) if p not in front.origins)
    _passing(play, front, origin.via, moved, origin.line)


def _passing(play: TurnInPlay, front: Front, via: tuple[str, ...], moved: Units, pre: int) -> None:
    """Territories taken on the way: an empty enemy one a tank blitzes through, a neutral
    that aircraft fly over."""
    table = play.table
    for place in via:
        here = table.board.territories.get(place)
        if here is None or here.is_sea or place == front.site.space:
            continue
        line, _ = play.where(front.number, pre, front.site.space)
        owner = table.owners.get(place)
        if owner is None and here.is_neutral and any(moved.count(u) for u in _AIR):
            take_land(play, place, line)
        elif (
            owner is not None
            and owner.alliance is not play.mover.alliance
            and moved.count(UnitType.ARM)
            and not table.enemy_fighters(place, play.mover)
        ):
            take_land(play, place, line)


def _lift(play: TurnInPlay, front: Front, lift: Lift, covered: set[tuple[str, str]]) -> None:
    table, mover = play.table, play.mover
    if lift.zone is None or lift.zone not in table.board.territories:
        return
    listed = sum(  # transports the line lists as units were moved with them
        o.units.count(UnitType.TRN)
        for o in front.site.battle.origins
        if o.line == lift.line and o.place == lift.zone
    )
    if lift.count <= listed:
        return
    boats = Units.of({UnitType.TRN: lift.count - listed})
    if front.site.is_sea:
        sailed, carried = table.sail(lift.zone, mover, boats)
        front.attackers = front.attackers + sailed
        _board(front, carried, mover)
    else:
        unload = lift.unload or lift.zone
        if (unload, lift.zone) in covered:
            return
        sailed, carried = table.sail(lift.zone, mover, boats)
        table.put(unload, mover, sailed)
        for power, units in carried.items():
            table.put(unload, power, units)
    _short(play, front, lift.line, lift.zone, boats, sailed)


def depart(play: TurnInPlay) -> None:
    """Every fought battle's attackers leave their origins; ``play.fronts`` lists them all."""
    mover = play.mover
    movement = movement_of(play.table.start, mover)
    sites, _, plan = planned(play.pre, movement)
    fronts = [Front(site, play.verdicts.get(site.number), _mode(play, site)) for site in sites]
    by_site = {id(front.site): front for front in fronts}
    covered = {
        (s.site.space, s.place)
        for s in plan.sorties
        if s.site.is_sea
        and s.place is not None
        and s.origin.units.count(UnitType.TRN)
        and by_site[id(s.site)].mode != "void"
    }
    for sortie in plan.sorties:
        front = by_site[id(sortie.site)]
        if front.mode == "void":
            continue
        support = next(
            (
                lift.unload
                for lift in plan.lifts
                if lift.site is sortie.site and lift.unload is not None
            ),
            None,
        )
        _sortie(play, front, sortie, movement, support or "")
    for lift in plan.lifts:
        front = by_site[id(lift.site)]
        if front.mode != "void":
            _lift(play, front, lift, covered)
    play.fronts = fronts
    declared = {site.number for site in sites}
    for number in sorted(set(play.verdicts) - declared):
        play.note(
            Severity.WARNING,
            Rule.PRECOMBAT,
            Finding.VERDICT_UNDECLARED,
            f"dice were rolled for battle #{number}, which the combat moves do not declare: "
            "they change nothing",
            "declare every battle in the pre-combat turn before rolling it",
            battles=(number,),
        )


def takes_land(units: Units) -> bool:
    """Whether ``units`` left in a territory take it: an INF or ARM among them (AA guns never
    attack, planes never capture)."""
    return bool(units.count(UnitType.INF) or units.count(UnitType.ARM))
