"""A Big World 1942 battle round on the dice server: what it throws, in what order, and the
engine's reading of the dice.

A game created with the Big World ruleset throws its battle rounds by the rule book's
segments ("Battle"), each die in the order thrown:

1. the defender's AA gun, round 1 of a land battle: one die per attacking aircraft, a group
   per aircraft type as listed, hit on 1;
2. the bombardment, round 1 of an amphibious assault: one die per bombarding BB (and DD,
   with Destroyer Bombard) at its attack;
3. the attacking submarines' opening shot, then the defending submarines';
4. the rest of the attacker's units as listed: the infantry paired with artillery ("on a
   1-to-1 basis") as a group of their own at attack + 1, an attacking heavy bomber's two
   dice with only the better counting (LHTR: the group says ``best_of``); a transport
   throws nothing;
5. the rest of the defender's units as listed.

The whole round is thrown in one entry, before any unit is lost; the reading
(:func:`read_big_world_roll`) then plays the round through the battle engine
(:func:`adjudicator.bigworld.resolve.resolve_big_world`) with the default orders of loss,
and the dice of a unit lost before it fires (an aircraft the AA gun downed, a casualty of
the bombardment or of a submarine's opening shot when no destroyer is there) are void: the
last dice of its type. A group's own ``hits`` counts its dice at or under ``hit_on``, as a
Classic group's do, so the ledger's format and the standalone verifier's check of it are
the same for both rulesets; only the reading differs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from adjudicator.battle.errors import BattleInputError
from adjudicator.battle.reading import RULESET
from adjudicator.bigworld.combat import AA_HIT_ON, SIDES_OF_A_DIE, BigWorldTech
from adjudicator.bigworld.resolve import resolve_big_world
from adjudicator.bigworld.units import AIRCRAFT_TYPES, BigWorldUnit, big_world_rules
from adjudicator.powers import Alliance
from adjudicator.units import Domain

W = BigWorldUnit

BigWorldListing = tuple[tuple[BigWorldUnit, int], ...]
"""Units as a player listed them, in the order entered (the order their dice are thrown)."""

BIG_WORLD_ROLL_OPTIONS: Mapping[str, str] = MappingProxyType(
    {
        "heavy-bombers": "the attacker has Heavy Bombers: each attacking BMB throws 2 dice, "
        "the better counts",
        "super-subs": "the attacker has Super Subs: attacking SUBs hit 1 higher",
        "jet-fighters": "the defender has Jet Power: defending FTRs hit 1 higher",
        "destroyer-bombard": "the attacker has Destroyer Bombard: his DDs may bombard",
    }
)
"""Every option of a Big World battle roll, with what it does."""

_TECH_OF_OPTION: Mapping[str, tuple[str, BigWorldTech]] = MappingProxyType(
    {
        "heavy-bombers": ("attacker", BigWorldTech.HEAVY_BOMBERS),
        "super-subs": ("attacker", BigWorldTech.SUPER_SUBS),
        "jet-fighters": ("defender", BigWorldTech.JET_POWER),
        "destroyer-bombard": ("attacker", BigWorldTech.DESTROYER_BOMBARD),
    }
)
_TECH_NAMES = {
    BigWorldTech.HEAVY_BOMBERS: "Heavy Bombers",
    BigWorldTech.SUPER_SUBS: "Super Subs",
    BigWorldTech.JET_POWER: "Jet Power",
    BigWorldTech.DESTROYER_BOMBARD: "Destroyer Bombard",
}

BIG_WORLD_COUNTRIES: Mapping[str, str] = MappingProxyType(
    {
        "ussr": "USSR",
        "russia": "USSR",
        "russians": "USSR",
        "germany": "Germany",
        "germans": "Germany",
        "uk": "UK",
        "britain": "UK",
        "british": "UK",
        "china": "China",
        "chinese": "China",
        "japan": "Japan",
        "japanese": "Japan",
        "usa": "USA",
        "us": "USA",
        "americans": "USA",
    }
)
"""The six powers of Big World 1942 (its ``playerList``: Russians, Germans, British, Chinese,
Japanese, Americans) by the names players write, to the name a roll records."""

BIG_WORLD_ALLIANCES: Mapping[str, Alliance] = MappingProxyType(
    {
        "USSR": Alliance.ALLIES,
        "Germany": Alliance.AXIS,
        "UK": Alliance.ALLIES,
        "China": Alliance.ALLIES,
        "Japan": Alliance.AXIS,
        "USA": Alliance.ALLIES,
    }
)
"""Each Big World power by its recorded name, in turn order, with its alliance
(``big_world_1942.xml``'s ``alliance`` of each player)."""


class BigWorldRollError(ValueError):
    """A Big World roll the rules refuse before any die: ``field`` names the request's field,
    ``problem`` says why."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


@dataclass(frozen=True)
class BigWorldThrow:
    """One labelled run of dice: ``units`` units throwing ``dice_each`` dice each, hitting on
    ``hit_on`` or less; ``recorded`` is its entry data but the dice and hits."""

    units: int
    dice_each: int
    hit_on: int
    recorded: Mapping[str, Any]

    @property
    def dice(self) -> int:
        """How many dice the run throws."""
        return self.units * self.dice_each


def _throw(side: str, unit: BigWorldUnit, count: int, hit_on: int, **label: Any) -> BigWorldThrow:
    recorded = {"side": side, "unit": unit.value, "count": count, "hit_on": hit_on, **label}
    return BigWorldThrow(count, 2 if label.get("best_of") else 1, hit_on, recorded)


@dataclass(frozen=True)
class BigWorldRollHeader:
    """What every Big World roll states besides its dice (IAAPA "all header information")."""

    round: int
    turn: int
    country: str
    """The power's name as :data:`BIG_WORLD_COUNTRIES` records it."""
    comment: str = ""


def big_world_country(written: str) -> str | None:
    """The recorded name of the Big World power ``written`` names, or ``None``."""
    return BIG_WORLD_COUNTRIES.get(" ".join(written.casefold().replace(".", "").split()))


@dataclass(frozen=True)
class BigWorldRoll:
    """A Big World battle round the rules allow, laid out and ready to throw."""

    header: BigWorldRollHeader
    battle: str
    attacker: BigWorldListing
    defender: BigWorldListing
    bombard: BigWorldListing
    options: tuple[str, ...]
    throws: tuple[BigWorldThrow, ...]

    @property
    def dice_count(self) -> int:
        """Every die the roll throws."""
        return sum(t.dice for t in self.throws)

    @classmethod
    def of(
        cls,
        header: BigWorldRollHeader,
        battle: str,
        attacker: BigWorldListing,
        defender: BigWorldListing,
        bombard: BigWorldListing = (),
        options: Sequence[str] = (),
    ) -> BigWorldRoll:
        """The roll of these units, or :class:`BigWorldRollError` naming the field at fault
        (units listed once each with positive counts: the caller checked the shape)."""
        chosen = tuple(sorted(set(options)))
        unknown = [o for o in chosen if o not in BIG_WORLD_ROLL_OPTIONS]
        if unknown:
            raise BigWorldRollError(
                "options",
                f"no option {unknown[0]!r} in Big World; use {', '.join(BIG_WORLD_ROLL_OPTIONS)}",
            )
        _check(attacker, defender, bombard, chosen)
        throws = big_world_layout(header.round, attacker, defender, bombard, frozenset(chosen))
        if not throws:
            raise BigWorldRollError(
                "attacker", "these units throw no dice (transports and factories do not fire)"
            )
        return cls(header, battle, attacker, defender, bombard, chosen, throws)

    def record(self, by: str, draw: Callable[[int], list[int]]) -> dict[str, Any]:
        """The entry's data: header, units as entered, and every die in thrown order."""
        dice = draw(self.dice_count)
        groups, hits, start = [], {"attacker": 0, "defender": 0}, 0
        for each in self.throws:
            thrown = dice[start : start + each.dice]
            start += each.dice
            scored = sum(die <= each.hit_on for die in thrown)
            hits[str(each.recorded["side"])] += scored
            groups.append({**each.recorded, "dice": thrown, "hits": scored})
        data: dict[str, Any] = {
            "ruleset": RULESET,
            "round": self.header.round,
            "turn": self.header.turn,
            "country": self.header.country,
            "by": by,
            "sides": SIDES_OF_A_DIE,
            "battle": self.battle,
            "attacker": _listed(self.attacker),
            "defender": _listed(self.defender),
            "options": list(self.options),
        }
        if self.header.comment:
            data["comment"] = self.header.comment
        if self.bombard:
            data["bombard"] = _listed(self.bombard)
        return {**data, "groups": groups, "dice": dice, "hits": hits}


def _listed(units: BigWorldListing) -> list[dict[str, Any]]:
    return [{"unit": unit.value, "count": n} for unit, n in units]


def _check(
    attacker: BigWorldListing,
    defender: BigWorldListing,
    bombard: BigWorldListing,
    options: tuple[str, ...],
) -> None:
    """Refuse what no Big World battle has, naming the field."""
    stats = big_world_rules().stats
    if not attacker:
        raise BigWorldRollError("attacker", "list the attacking units")
    for unit, _ in attacker:
        if unit in (W.AA, W.IC):
            raise BigWorldRollError("attacker", f"{unit.value} never attacks")
    sea = any(stats[u].domain is Domain.SEA for u, _ in (*attacker, *defender))
    land = any(stats[u].domain is Domain.LAND for u, _ in (*attacker, *defender))
    if sea and land:
        ships = [u.value for u, _ in (*attacker, *defender) if stats[u].domain is Domain.SEA]
        raise BigWorldRollError(
            "defender" if any(stats[u].domain is Domain.SEA for u, _ in defender) else "attacker",
            f"land units and ships ({', '.join(ships)}) in one battle: list bombarding ships "
            "under bombard",
        )
    fighting = [u for u, _ in defender if u not in (W.AA, W.IC)]
    aircraft = any(u in AIRCRAFT_TYPES for u, _ in attacker)
    if not fighting and not (aircraft and any(u is W.AA for u, _ in defender)):
        raise BigWorldRollError(
            "defender",
            "nothing defends that fights (and no AA gun fires): the attacker takes it without "
            "a roll",
        )
    if sea and any(u is W.BMB for u, _ in defender):
        raise BigWorldRollError("defender", "a bomber cannot defend at sea")
    if bombard and sea:
        raise BigWorldRollError("bombard", "ships bombard a land battle, not a sea battle")
    for unit, _ in bombard:
        if unit is W.DD and "destroyer-bombard" not in options:
            raise BigWorldRollError(
                "bombard", "a DD bombards only with Destroyer Bombard (option destroyer-bombard)"
            )
        if not (stats[unit].bombards or unit is W.DD):
            raise BigWorldRollError(
                "bombard", f"{unit.value} cannot bombard (only BB, and DD with Destroyer Bombard)"
            )


def big_world_layout(
    round_: int,
    attacker: BigWorldListing,
    defender: BigWorldListing,
    bombard: BigWorldListing,
    options: frozenset[str],
) -> tuple[BigWorldThrow, ...]:
    """The runs a Big World battle round throws, in the order thrown (the module's list)."""
    rules = big_world_rules()
    stats = rules.stats

    def value(side: str, unit: BigWorldUnit) -> int:
        s = stats[unit]
        if side == "attacker":
            bonus = int(unit is W.SUB and "super-subs" in options)
            return (s.attack or 0) + bonus
        return (s.defence or 0) + int(unit is W.FTR and "jet-fighters" in options)

    throws: list[BigWorldThrow] = []
    opening = round_ == 1
    if opening and any(u is W.AA for u, _ in defender):
        for unit, n in attacker:
            if unit in AIRCRAFT_TYPES:
                throws.append(_throw("defender", W.AA, n, AA_HIT_ON, target=unit.value))
    if opening:
        for unit, n in bombard:
            throws.append(_throw("attacker", unit, n, value("attacker", unit), fire="bombardment"))
    for side, units in (("attacker", attacker), ("defender", defender)):
        for unit, n in units:
            if unit is W.SUB:
                throws.append(_throw(side, unit, n, value(side, unit), fire="subs"))
    artillery = sum(n for u, n in attacker if stats[u].supports)
    for unit, n in attacker:
        hit_on = value("attacker", unit)
        if unit is W.SUB or hit_on <= 0:
            continue
        if stats[unit].supportable and artillery:
            paired = min(n, artillery)
            artillery -= paired
            throws.append(_throw("attacker", unit, paired, hit_on + 1, support="ART"))
            if n > paired:
                throws.append(_throw("attacker", unit, n - paired, hit_on))
        elif unit is W.BMB and "heavy-bombers" in options and rules.lhtr_heavy_bombers:
            throws.append(_throw("attacker", unit, n, hit_on, best_of=rules.heavy_bomber_dice))
        else:
            throws.append(_throw("attacker", unit, n, hit_on))
    for unit, n in defender:
        hit_on = value("defender", unit)
        if unit is not W.SUB and hit_on > 0:
            throws.append(_throw("defender", unit, n, hit_on))
    return tuple(throws)


# --- the reading -------------------------------------------------------------------------


def big_world_roll_document(data: Mapping[str, Any]) -> dict[str, Any]:
    """The Big World battle document of one roll entry's data, read as the first round of a
    battle of the units it lists (:mod:`adjudicator.bigworld.reading`)."""
    return big_world_battle_document([data])


def big_world_battle_document(rolls: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The Big World battle document of the roll entries of one battle, in the order rolled
    (their data): the first entry's units are the battle's forces, each entry a round (the
    ledger's order is the order rolled; the round numbers entered are not used); the AA gun
    and the bombardment are the first entry's, when it threw them."""
    first = rolls[0]
    stats = big_world_rules().stats
    attacker = _counts(first.get("attacker"))
    defender = _counts(first.get("defender"))
    bombard = _counts(first.get("bombard"))
    sea = any(stats[W(u)].domain is Domain.SEA for u in (*attacker, *defender) if u in _UNITS)
    rounds = [_round_of(data) for data in rolls]
    techs: dict[str, list[str]] = {"attacker": [], "defender": []}
    options = {o for data in rolls for o in data.get("options") or () if isinstance(o, str)}
    for option in sorted(options):
        if option in _TECH_OF_OPTION:
            side, tech = _TECH_OF_OPTION[option]
            techs[side].append(_TECH_NAMES[tech])
    if "aa" not in rounds[0]:
        defender.pop("AA", None)  # a later round: the AA gun fired before round 1
    amphibious = bool(rounds[0].get("bombard"))
    if amphibious:
        for unit, n in bombard.items():
            attacker[unit] = attacker.get(unit, 0) + n
    return {
        "version": 1,
        "ruleset": RULESET,
        "name": str(first.get("battle", "")),
        "kind": "sea" if sea else "land",
        "amphibious": int(amphibious),
        "attacker": attacker,
        "defender": defender,
        "technologies": techs,
        "rounds": rounds,
    }


def _round_of(data: Mapping[str, Any]) -> dict[str, Any]:
    """One roll entry's groups as a round of a battle document."""
    rnd: dict[str, Any] = {}
    for group in data.get("groups") or ():
        side, unit, dice = group.get("side"), group.get("unit"), list(group.get("dice", []))
        if unit == "AA":
            rnd.setdefault("aa", []).extend(dice)
        elif group.get("fire") == "bombardment":
            rnd.setdefault("bombard", {}).setdefault(unit, []).extend(dice)
        else:
            rnd.setdefault(side, {}).setdefault(unit, []).extend(dice)
    return rnd


_UNITS = frozenset(u.value for u in BigWorldUnit)


def _counts(listed: object) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in listed if isinstance(listed, list) else ():
        if isinstance(item, Mapping):
            unit, n = str(item.get("unit")), item.get("count")
            if isinstance(n, int):
                out[unit] = out.get(unit, 0) + n
    return out


def read_big_world_roll(data: Mapping[str, Any]) -> list[str]:
    """The engine's reading of one Big World roll entry, in a player's words: the round its
    dice make with the default orders of loss, the void dice, the hits and the casualties."""
    document = big_world_roll_document(data)
    try:
        result = resolve_big_world(document, void=True)
    except (BattleInputError, ValueError) as exc:
        return [f"Not read by the rules as one Big World battle round: {exc}"]
    rounds = result["rounds"]
    assert isinstance(rounds, list)
    out = [
        "Read by the Big World rules (the service's default orders of loss, cheapest first; "
        "special orders are not applied here):"
    ]
    if not rounds:
        out.append("  Nothing defends and no AA gun fires: these dice decide nothing")
        return out
    r = rounds[0]
    if "aa" in document["rounds"][0]:
        out.append(f"  AA gun: {_hits(r['aa_hits'])}")
    if r["bombard_hits"]:
        out.append(f"  Bombardment: {_hits(r['bombard_hits'])} (its casualties do not fire)")
    subs = r["sub_hits"]
    if subs["attacker"] or subs["defender"]:
        out.append(
            f"  Submarines' opening shots: attacker {_hits(subs['attacker'])}, defender "
            f"{_hits(subs['defender'])}"
        )
    for side, lists in sorted(r["void"].items()):
        for unit, dice in lists.items():
            who = {"aa": "the AA gun's", "bombard": f"the bombarding {unit}"}.get(
                side, f"{side} {unit}"
            )
            out.append(
                f"  Void: {who} {' '.join(map(str, dice))} (thrown for units lost before they "
                "fire: the last dice of their type)"
            )
    out.append(f"  Hits: attacker {r['attacker_hits']}, defender {r['defender_hits']}")
    lost = [
        f"{side} loses {_units(r[f'{side}_casualties'])}"
        for side in ("attacker", "defender")
        if r[f"{side}_casualties"]
    ]
    if lost:
        out.append(f"  Casualties: {'; '.join(lost)}")
    damaged = [f"{side} {n}" for side, n in r["damaged"].items() if n]
    if damaged:
        out.append(f"  Battleships damaged, not sunk: {', '.join(damaged)}")
    return out


def _hits(n: int) -> str:
    return f"{n} hit{'s' * (n != 1)}"


def _units(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {unit}" for unit, n in counts.items())
