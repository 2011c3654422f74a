"""Reading a Big World 1942 battle document (version 1, ``"ruleset": "big_world_1942"``).

The document is the Classic one of :mod:`adjudicator.battle` with Big World's units and
technologies; keys Big World has no use for (``loaded``, a round's ``subs``, ``casualties``,
``withdraw``, ``low_luck``) are refused by name::

    {"version": 1, "ruleset": "big_world_1942",
     "kind": "land" | "sea",
     "amphibious": 0 | 1,            # land: units unloaded from transports (no retreat; the
                                     #   attacker's BB, and DD with Destroyer Bombard, bombard)
     "attacker": {UNIT: n}, "defender": {UNIT: n},  # UNIT: INF ART ARM FTR BMB TRN SUB DD
                                     #   CA AC BB, AA and IC on land defence
     "order_of_loss": {"attacker": [UNIT...], "defender": [UNIT...]},   # optional
     "technologies": {"attacker": [TECH...], "defender": [TECH...]},    # optional: Jet
                                     #   Power, Super Subs, Heavy Bombers, Destroyer Bombard
     "no_retreat": 0 | 1, "name": "...",
     "rounds": [{"aa": [dice],                 # round 1, land: one per attacking aircraft
                 "bombard": {UNIT: [dice]},    # round 1, amphibious: one per bombarding ship
                 "attacker": {UNIT: [dice]},   # every unit that fires, SUB included
                 "defender": {UNIT: [dice]},
                 "retreat": 0 | 1}]}

Dice of a unit are read in the order thrown: the first INF dice are the infantry paired with
artillery (one per artillery), an attacking heavy bomber's dice come in pairs. Malformed
input raises a :class:`~adjudicator.battle.errors.BattleInputError` naming the field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from adjudicator.battle.errors import (
    ImpossibleForces,
    InvalidValue,
    UnknownTechnology,
    UnknownUnit,
    WrongType,
)
from adjudicator.battle.reading import (
    BATTLE_KEYS,
    RULESET,
    battlefield_of,
    check_version,
    dice_list,
    flag_field,
    json_list,
    json_object,
    known_keys,
    ruleset_of,
    technology_names_listed,
    units_keyed,
    whole_number,
)
from adjudicator.bigworld.combat import BigWorldBattle, BigWorldTech
from adjudicator.bigworld.units import ALIASES, Army, BigWorldUnit, big_world_rules
from adjudicator.units import Battlefield, Domain, Side

BIG_WORLD_KEYS = BATTLE_KEYS - {"loaded", "retreat_declared"}
"""A Big World battle document's keys: a Classic one's but the cargo of the defender's
carriers and transports (Big World's fight like any unit) and a turn's retreat marks."""
BIG_WORLD_ROUND_KEYS = frozenset({"aa", "bombard", "attacker", "defender", "retreat"})

BIG_WORLD_TECH_NAMES: Mapping[str, BigWorldTech] = MappingProxyType(
    {
        "jet power": BigWorldTech.JET_POWER,
        "jets": BigWorldTech.JET_POWER,
        "jet fighters": BigWorldTech.JET_POWER,
        "super subs": BigWorldTech.SUPER_SUBS,
        "super submarines": BigWorldTech.SUPER_SUBS,
        "heavy bombers": BigWorldTech.HEAVY_BOMBERS,
        "heavy bomber": BigWorldTech.HEAVY_BOMBERS,
        "destroyer bombard": BigWorldTech.DESTROYER_BOMBARD,
    }
)
"""Technology names a document may give (case, spaces, hyphens and underscores aside)."""

W = BigWorldUnit


def big_world_unit(name: object, where: str) -> BigWorldUnit:
    """The unit a name stands for; :class:`UnknownUnit` naming the field if none."""
    if not isinstance(name, str):
        raise WrongType(where, f"expected a unit name, got {name!r}")
    unit = ALIASES.get(name.strip().upper())
    if unit is None:
        raise UnknownUnit(
            where,
            f"{name!r} is not a Big World 1942 unit; write one of "
            f"{', '.join(u.value for u in BigWorldUnit)}",
        )
    return unit


def _unit_keys(value: object, where: str) -> dict[BigWorldUnit, tuple[str, object]]:
    return units_keyed(value, where, big_world_unit)


def _army(value: object, where: str) -> dict[BigWorldUnit, int]:
    return {
        unit: whole_number(n, f"{where}.{key}")
        for unit, (key, n) in _unit_keys(value, where).items()
    }


def _techs(value: object, where: str) -> frozenset[BigWorldTech]:
    found = set()
    for at, name in technology_names_listed(value, where):
        tech = BIG_WORLD_TECH_NAMES.get(re.sub(r"[\s_-]+", " ", name.strip().lower()))
        if tech is None:
            raise UnknownTechnology(
                at,
                f"{name!r} is not a Big World 1942 battle technology; write Jet Power, "
                f"Super Subs, Heavy Bombers or Destroyer Bombard",
            )
        found.add(tech)
    return frozenset(found)


def _order(value: object, where: str) -> tuple[BigWorldUnit, ...]:
    units = tuple(big_world_unit(n, f"{where}[{i}]") for i, n in enumerate(json_list(value, where)))
    if len(set(units)) != len(units):
        raise InvalidValue(where, "the order of loss lists a unit twice")
    stats = big_world_rules().stats
    for i, unit in enumerate(units):
        if not stats[unit].fights:
            raise ImpossibleForces(f"{where}[{i}]", f"{unit.value} is never a battle casualty")
    return units


def _place(
    land: bool, amphibious: bool, side: Side, counts: dict[BigWorldUnit, int], where: str
) -> None:
    """Refuse a unit that cannot be on this side of this battle."""
    stats = big_world_rules().stats
    for unit, n in counts.items():
        if not n:
            continue
        s = stats[unit]
        at = f"{where}.{unit.value}"
        if side is Side.ATTACKER and not s.fights:
            raise ImpossibleForces(at, f"{unit.value} never attacks")
        if land and s.domain is Domain.SEA:
            if side is Side.ATTACKER and amphibious:
                continue
            raise ImpossibleForces(
                at,
                f"{unit.value} is a ship: a land battle has none"
                + ("" if side is Side.DEFENDER else " (unless amphibious: its ships bombard)"),
            )
        if not land and s.domain is Domain.LAND:
            raise ImpossibleForces(at, f"{unit.value} cannot fight in a sea zone")
        if not land and side is Side.DEFENDER and unit is W.BMB:
            raise ImpossibleForces(
                at, "a bomber cannot defend at sea (it cannot land on a carrier)"
            )


@dataclass(frozen=True)
class BigWorldDocument:
    """A Big World battle document read: the battle, its rounds as written, its name."""

    battle: BigWorldBattle
    rounds: tuple[Mapping[str, object], ...]
    name: str = ""


def read_big_world_battle(value: object) -> BigWorldDocument:
    """Read a Big World 1942 battle document; a BattleInputError naming the bad field."""
    doc = json_object(value, "(document)")
    known_keys(doc, BIG_WORLD_KEYS, "")
    check_version(doc)
    if ruleset_of(doc) != RULESET:
        raise InvalidValue("ruleset", f'expected "{RULESET}"')
    field = battlefield_of(doc)
    land = field is Battlefield.LAND
    amphibious = flag_field(doc, "amphibious", "")
    if amphibious and not land:
        raise InvalidValue("amphibious", "an amphibious assault is a land battle")
    attacking = _army(doc["attacker"], "attacker")
    defending = _army(doc["defender"], "defender")
    _place(land, amphibious, Side.ATTACKER, attacking, "attacker")
    _place(land, amphibious, Side.DEFENDER, defending, "defender")
    stats = big_world_rules().stats
    ships = {u: n for u, n in attacking.items() if land and stats[u].domain is Domain.SEA}
    orders = json_object(doc.get("order_of_loss", {}), "order_of_loss")
    known_keys(orders, frozenset({"attacker", "defender"}), "order_of_loss")
    techs = json_object(doc.get("technologies", {}), "technologies")
    known_keys(techs, frozenset({"attacker", "defender"}), "technologies")
    technologies = {
        Side.ATTACKER: _techs(techs.get("attacker", []), "technologies.attacker"),
        Side.DEFENDER: _techs(techs.get("defender", []), "technologies.defender"),
    }
    for unit, n in ships.items():
        bombards = stats[unit].bombards or (
            unit is W.DD and BigWorldTech.DESTROYER_BOMBARD in technologies[Side.ATTACKER]
        )
        if n and not bombards:
            raise ImpossibleForces(
                f"attacker.{unit.value}",
                f"{unit.value} cannot bombard (only BB, and DD with Destroyer Bombard)",
            )
    name = doc.get("name", "")
    if not isinstance(name, str):
        raise WrongType("name", f"expected a string, got {name!r}")
    rounds = []
    for i, item in enumerate(json_list(doc.get("rounds", []), "rounds")):
        rnd = json_object(item, f"rounds[{i}]")
        known_keys(rnd, BIG_WORLD_ROUND_KEYS, f"rounds[{i}]")
        rounds.append(rnd)
    battle = BigWorldBattle(
        battlefield=field,
        attacker=Army.of({u: n for u, n in attacking.items() if u not in ships}),
        defender=Army.of({u: n for u, n in defending.items() if stats[u].fights}),
        amphibious=amphibious,
        bombarding=Army.of(ships),
        aa_guns=defending.get(W.AA, 0),
        attacker_order=_order(orders.get("attacker", []), "order_of_loss.attacker"),
        defender_order=_order(orders.get("defender", []), "order_of_loss.defender"),
        technologies=MappingProxyType(technologies),
        no_retreat=flag_field(doc, "no_retreat", ""),
    )
    return BigWorldDocument(battle, tuple(rounds), name)


def dice_of_round(rnd: Mapping[str, object], key: str, where: str) -> dict[BigWorldUnit, list[int]]:
    """A round's dice under ``key`` by unit (``aa`` is a flat list, kept under AA), each die
    checked to be 1 to 6."""
    if key not in rnd:
        return {}
    path = f"{where}.{key}"
    if key == "aa":
        lists = {W.AA: (path, rnd[key])}
    else:
        lists = {u: (f"{path}.{k}", v) for u, (k, v) in _unit_keys(rnd[key], path).items()}
    out = {}
    for unit, (at, value) in lists.items():
        dice = list(dice_list(value, at))
        for i, die in enumerate(dice):
            if not 1 <= die <= 6:
                raise InvalidValue(f"{at}[{i}]", f"a die shows 1 to 6, not {die}")
        out[unit] = dice
    return out
