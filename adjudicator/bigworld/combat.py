"""A Big World 1942 battle round: who fires, at what, and who is lost.

TripleA's rule book ("Battle") gives the segments of a round, which this module follows
with Big World's own units (``big_world_1942.xml``: WW2V2 rules, two-hit battleships,
submersible subs, LHTR heavy bombers, AA always on):

0. before round 1, the defender's AA gun fires one die at 1 per attacking aircraft, and the
   attacker loses aircraft by his order of loss; in an amphibious assault each attacking
   battleship (each destroyer too, with Destroyer Bombard) fires one bombardment die at its
   attack, and "the bombardment casualty does not get to return fire";
1. "attacking subs (stealth units) fire, and the defender allocates the casualties. If the
   defender has no anti-stealth units (destroyers) present, the non-submarine casualties are
   removed immediately and do not participate further in this combat" (a submarine hit
   still fires back, :func:`still_firing`);
2. "defending subs fire using the equivalent procedure";
3. the rest of the attacker's units fire: each infantry paired with an artillery "on a
   1-to-1 basis" attacks 1 higher; an attacking heavy bomber throws two dice and only the
   better counts (LHTR); a transport rolls nothing;
4. the rest of the defender's units fire;
5. casualties are removed.

"Subs cannot inflict casualties on air units, ever", while in Big World "air units can hit
submarines without a destroyer present". A hit is taken first as damage on a battleship
that has none ("The first hit only damages them"), then by the side's order of loss;
battleships are repaired when the battle ends.

Every die goes through one callable, ``fire(volley) -> hits``: the battle engine reads the
dice thrown (:mod:`adjudicator.bigworld.resolve`), the Monte Carlo throws them
(:mod:`adjudicator.bigworld.simulate`), and the exact odds follow each volley's
distribution through the same functions (:mod:`adjudicator.bigworld.odds`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from adjudicator.bigworld.units import (
    AIRCRAFT_TYPES,
    BIG_WORLD_ORDERS_OF_LOSS,
    NO_ARMY,
    Army,
    BigWorldRules,
    BigWorldUnit,
    big_world_rules,
)
from adjudicator.fastenum import FastEnum
from adjudicator.units import Battlefield, Side

W = BigWorldUnit
AA_HIT_ON = 1
"""An AA gun's die hits on a 1."""
SIDES_OF_A_DIE = 6


class BigWorldTech(FastEnum):
    """The technologies that change a Big World battle (TripleA rule book, "Available
    Technologies")."""

    JET_POWER = "jet_power"
    """"Each Fighter's defense power is increased by 1.\""""
    SUPER_SUBS = "super_subs"
    """"Each Submarine's attack power is increased by 1.\""""
    HEAVY_BOMBERS = "heavy_bombers"
    """"Each of your bombers rolls 2 dice when attacking": with LHTR only the better counts."""
    DESTROYER_BOMBARD = "destroyer_bombard"
    """"Each of your Destroyers may conduct shore bombardment.\""""


class Fire(FastEnum):
    """What a volley is."""

    AA = "aa"
    BOMBARD = "bombard"
    SUBS = "subs"
    UNITS = "units"


@dataclass(frozen=True)
class Shot:
    """``units`` units of one type throwing ``dice_each`` dice each, hitting on ``hit_on`` or
    less; with ``best_of`` one hit at most per unit (LHTR heavy bombers)."""

    unit: BigWorldUnit
    units: int
    hit_on: int
    dice_each: int = 1
    best_of: bool = False

    @property
    def dice(self) -> int:
        """How many dice the shot throws."""
        return self.units * self.dice_each


@dataclass(frozen=True)
class Salvo:
    """Dice one side throws at once, and what their hits may take: a submarine's hits
    (``spares_aircraft``) never take an aircraft, an AA gun's only aircraft."""

    side: Side
    fire: Fire
    shots: tuple[Shot, ...]

    @property
    def spares_aircraft(self) -> bool:
        """Hits that no aircraft can take."""
        return self.fire is Fire.SUBS

    def __bool__(self) -> bool:
        return any(shot.dice and shot.hit_on > 0 for shot in self.shots)


@dataclass(frozen=True)
class BigWorldBattle:
    """A Big World battle before its first die: the units that fight on each side (AA guns
    and factories apart), the attacker's bombarding ships, the orders of loss and the
    technologies in force."""

    battlefield: Battlefield
    attacker: Army
    defender: Army
    amphibious: bool = False
    bombarding: Army = NO_ARMY
    aa_guns: int = 0
    attacker_order: tuple[BigWorldUnit, ...] = ()
    defender_order: tuple[BigWorldUnit, ...] = ()
    """Orders of loss, first lost first; empty for the default
    (:data:`~adjudicator.bigworld.units.BIG_WORLD_ORDERS_OF_LOSS`). Units left out are lost
    last, in chart order."""
    technologies: Mapping[Side, frozenset[BigWorldTech]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    no_retreat: bool = False
    rules: BigWorldRules = field(default_factory=big_world_rules)

    @property
    def is_land(self) -> bool:
        """A battle for a land territory."""
        return self.battlefield is Battlefield.LAND

    @property
    def retreat_possible(self) -> bool:
        """ "The invading amphibious units may not retreat"; nor may an attacker who said so."""
        return not (self.amphibious or self.no_retreat)

    def has(self, side: Side, tech: BigWorldTech) -> bool:
        """Whether ``side`` owns ``tech``."""
        return tech in self.technologies.get(side, frozenset())

    def order(self, side: Side) -> tuple[BigWorldUnit, ...]:
        """``side``'s order of loss with every unit type in it."""
        given = self.attacker_order if side is Side.ATTACKER else self.defender_order
        listed = given or BIG_WORLD_ORDERS_OF_LOSS[(side, self.battlefield)]
        return listed + tuple(u for u in BigWorldUnit if u not in listed)

    def value(self, side: Side, unit: BigWorldUnit) -> int:
        """What ``unit`` hits on for ``side`` (technologies applied; 0 for units that never
        roll)."""
        stats = self.rules.stats[unit]
        if side is Side.ATTACKER:
            value = stats.attack or 0
            if unit is W.SUB and self.has(side, BigWorldTech.SUPER_SUBS):
                value += 1
        else:
            value = stats.defence or 0
            if unit is W.FTR and self.has(side, BigWorldTech.JET_POWER):
                value += 1
            if unit is W.SUB and self.has(side, BigWorldTech.SUPER_SUBS):
                value += self.rules.super_sub_defence_bonus
        return value


def has_destroyer(battle: BigWorldBattle, army: Army) -> bool:
    """Whether ``army`` holds a unit that cancels enemy submarines' abilities."""
    return any(battle.rules.stats[unit].destroyer for unit, _ in army)


def aa_volley(battle: BigWorldBattle, attackers: Army) -> Salvo:
    """The AA gun's shots before round 1 of a land battle: one die at 1 per attacking
    aircraft (none without an AA gun)."""
    if not (battle.is_land and battle.aa_guns):
        return Salvo(Side.DEFENDER, Fire.AA, ())
    shots = tuple(Shot(unit, attackers.count(unit), AA_HIT_ON) for unit in (W.FTR, W.BMB))
    return Salvo(Side.DEFENDER, Fire.AA, tuple(s for s in shots if s.units))


def taken_without_a_roll(battle: BigWorldBattle) -> bool:
    """Nothing defends and no AA gun fires: the attacker takes the territory (or sea zone)
    without a die."""
    return not battle.defender and not aa_volley(battle, battle.attacker)


def bombard_volley(battle: BigWorldBattle) -> Salvo:
    """The bombardment before round 1 of an amphibious assault: one die per bombarding
    ship at its attack."""
    if not battle.amphibious:
        return Salvo(Side.ATTACKER, Fire.BOMBARD, ())
    shots = []
    for unit, n in battle.bombarding:
        able = battle.rules.stats[unit].bombards or (
            unit is W.DD and battle.has(Side.ATTACKER, BigWorldTech.DESTROYER_BOMBARD)
        )
        if able:
            shots.append(Shot(unit, n, battle.value(Side.ATTACKER, unit)))
    return Salvo(Side.ATTACKER, Fire.BOMBARD, tuple(shots))


def sub_volley(battle: BigWorldBattle, side: Side, army: Army) -> Salvo:
    """``side``'s submarines' volley (their opening shot, in segment 1 or 2)."""
    subs = army.count(W.SUB)
    shots = (Shot(W.SUB, subs, battle.value(side, W.SUB)),) if subs else ()
    return Salvo(side, Fire.SUBS, shots)


def main_volley(battle: BigWorldBattle, side: Side, army: Army) -> Salvo:
    """Every other unit of ``side`` that rolls: supported infantry first (attacking only,
    one per artillery), heavy bombers' two dice (attacking only)."""
    shots: list[Shot] = []
    stats = battle.rules.stats
    supporters = sum(n for unit, n in army if stats[unit].supports)
    for unit, n in army:
        if unit is W.SUB:
            continue
        value = battle.value(side, unit)
        if value <= 0:
            continue
        if side is Side.ATTACKER and stats[unit].supportable and supporters:
            paired = min(n, supporters)
            supporters -= paired
            shots.append(Shot(unit, paired, value + 1))
            if n > paired:
                shots.append(Shot(unit, n - paired, value))
        elif (
            side is Side.ATTACKER and unit is W.BMB and battle.has(side, BigWorldTech.HEAVY_BOMBERS)
        ):
            rules = battle.rules
            shots.append(Shot(unit, n, value, rules.heavy_bomber_dice, rules.lhtr_heavy_bombers))
        else:
            shots.append(Shot(unit, n, value))
    return Salvo(side, Fire.UNITS, tuple(shots))


def take_hits(
    battle: BigWorldBattle, side: Side, army: Army, hits: int, *, spare_aircraft: bool = False
) -> Army:
    """What is left of ``side``'s ``army`` after ``hits``: battleships without damage take a
    hit each first, then units go by the side's order of loss (aircraft skipped for a
    submarine's hits); hits beyond what can be taken are wasted."""
    if hits <= 0:
        return army
    if battle.rules.two_hit_battleship:
        fresh = army.count(W.BB) - army.damaged
        soak = min(hits, fresh)
        if soak:
            army = Army(army.counts, army.damaged + soak)
            hits -= soak
    for unit in battle.order(side):
        if not hits:
            break
        if spare_aircraft and unit in AIRCRAFT_TYPES:
            continue
        lost = min(army.count(unit), hits)
        if lost:
            army = army.less(unit, lost)
            hits -= lost
    return army


def aircraft_downed(battle: BigWorldBattle, attackers: Army, hits: int) -> Army:
    """The attacker's units left after the AA gun's ``hits``: aircraft only, by his order."""
    for unit in battle.order(Side.ATTACKER):
        if unit in AIRCRAFT_TYPES and hits:
            lost = min(attackers.count(unit), hits)
            attackers = attackers.less(unit, lost)
            hits -= lost
    return attackers


FireDice = Callable[[Salvo], int]
"""Throws a volley and says how many hits it scored."""


@dataclass(frozen=True)
class BigWorldRound:
    """One round's hits, by segment, and the armies it left."""

    attackers: Army
    defenders: Army
    attacker_sub_hits: int
    defender_sub_hits: int
    attacker_hits: int
    defender_hits: int


def open_battle(battle: BigWorldBattle, fire: FireDice) -> tuple[Army, Army, int, int]:
    """The shots before round 1: the armies left after the AA gun and the bombardment, and
    each volley's hits."""
    attackers, defenders = battle.attacker, battle.defender
    aa = aa_volley(battle, attackers)
    aa_hits = fire(aa) if aa else 0
    attackers = aircraft_downed(battle, attackers, aa_hits)
    bombard = bombard_volley(battle)
    bombard_hits = fire(bombard) if bombard and defenders else 0
    defenders = take_hits(battle, Side.DEFENDER, defenders, bombard_hits)
    return attackers, defenders, aa_hits, bombard_hits


def still_firing(battle: BigWorldBattle, before: Army, left: Army) -> Army:
    """Who fires on after the enemy submarines' opening shot took ``before`` to ``left``:
    everyone, if ``before`` has a destroyer; else "the non-submarine casualties are removed
    immediately and do not participate further in this combat", so a submarine hit still
    fires (TripleA's WW2V2 rules: subs return fire against subs)."""
    if has_destroyer(battle, before):
        return before
    return left.with_count(W.SUB, before.count(W.SUB))


def play_big_world_round(
    battle: BigWorldBattle, attackers: Army, defenders: Army, fire: FireDice
) -> BigWorldRound:
    """One round from these armies (segments 1 to 5 of the module's note)."""
    a_fire, d_fire = attackers, defenders
    d_left, a_left = defenders, attackers
    subs = sub_volley(battle, Side.ATTACKER, attackers)
    h1 = fire(subs) if subs else 0
    if h1:
        d_left = take_hits(battle, Side.DEFENDER, defenders, h1, spare_aircraft=True)
        d_fire = still_firing(battle, defenders, d_left)
    subs = sub_volley(battle, Side.DEFENDER, d_fire)
    h2 = fire(subs) if subs else 0
    if h2:
        a_left = take_hits(battle, Side.ATTACKER, attackers, h2, spare_aircraft=True)
        a_fire = still_firing(battle, attackers, a_left)
    shots = main_volley(battle, Side.ATTACKER, a_fire)
    h3 = fire(shots) if shots else 0
    shots = main_volley(battle, Side.DEFENDER, d_fire)
    h4 = fire(shots) if shots else 0
    return BigWorldRound(
        attackers=take_hits(battle, Side.ATTACKER, a_left, h4),
        defenders=take_hits(battle, Side.DEFENDER, d_left, h3),
        attacker_sub_hits=h1,
        defender_sub_hits=h2,
        attacker_hits=h3,
        defender_hits=h4,
    )


def stalemate(battle: BigWorldBattle, attackers: Army, defenders: Army) -> bool:
    """Whether no round from here can change anything: no unit of either side rolls a die
    whose hit one of the other side's units could take (a transport rolls nothing; a
    submarine's hit takes no aircraft)."""

    def can_hit(side: Side, shooters: Army, targets: Army) -> bool:
        ships = targets.total - targets.aircraft
        for unit, _ in shooters:
            if battle.value(side, unit) > 0 and (ships if unit is W.SUB else targets.total):
                return True
        return False

    return not (
        can_hit(Side.ATTACKER, attackers, defenders) or can_hit(Side.DEFENDER, defenders, attackers)
    )


def holds_territory(battle: BigWorldBattle, attackers: Army) -> bool:
    """Whether attackers who won a land battle take it: a land unit is left ("Air units
    cannot capture territories")."""
    stats = battle.rules.stats
    return battle.is_land and any(not stats[unit].is_air for unit, _ in attackers)


def ipc_of(battle: BigWorldBattle, army: Army) -> int:
    """What the units cost to build."""
    return sum(battle.rules.stats[unit].cost * n for unit, n in army)
