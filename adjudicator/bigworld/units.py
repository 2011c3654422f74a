"""The units of Big World 1942, as TripleA's ``big_world_1942.xml`` defines them.

Big World 1942 is a ruleset of its own, not a variant of Classic's chart: thirteen unit
types (artillery, destroyers and cruisers besides Classic's ten), other numbers for the ten
they share (armour defends at 3, a carrier at 1, a transport holds five slots) and other
combat rules (:mod:`adjudicator.bigworld.combat`). Its units are therefore counted by a
type of their own, :class:`Army`, in this ruleset's chart order, and never mixed with the
Classic :class:`~adjudicator.units.Units` a league game counts.

The numbers are read from the game file by :func:`adjudicator.bigworld.extract.big_world_rules`
through the engine's TripleA reader and shipped as ``data/big_world_1942.json`` (the product
never reads the game file; a test holds the two equal).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType

from adjudicator.fastenum import FastEnum
from adjudicator.units import Battlefield, Domain, Side

RULES_JSON = "big_world_1942.json"
"""File name of the shipped rules under ``adjudicator/bigworld/data/``."""


class BigWorldUnit(FastEnum):
    """The thirteen unit types of Big World 1942, by the abbreviations players write, in
    this ruleset's chart order (land, air, sea, then the two that never fight)."""

    INF = "INF"
    """Infantry; attacks at 2 when paired with an artillery."""
    ART = "ART"
    """Artillery; supports one infantry when attacking."""
    ARM = "ARM"
    """Armour."""
    FTR = "FTR"
    """Fighter."""
    BMB = "BMB"
    """Bomber."""
    TRN = "TRN"
    """Transport; a casualty like any other unit."""
    SUB = "SUB"
    """Submarine; strikes first unless the enemy has a destroyer, never hits aircraft."""
    DD = "DD"
    """Destroyer; cancels the enemy submarines' first strike."""
    CA = "CA"
    """Cruiser."""
    AC = "AC"
    """Aircraft carrier."""
    BB = "BB"
    """Battleship; two hit points, bombards in an amphibious assault."""
    AA = "AA"
    """Anti-aircraft gun; fires at attacking aircraft before the battle."""
    IC = "IC"
    """Factory; never fights."""


TRIPLEA_UNIT_NAMES: Mapping[BigWorldUnit, str] = MappingProxyType(
    {
        BigWorldUnit.INF: "infantry",
        BigWorldUnit.ART: "artillery",
        BigWorldUnit.ARM: "armour",
        BigWorldUnit.FTR: "fighter",
        BigWorldUnit.BMB: "bomber",
        BigWorldUnit.TRN: "transport",
        BigWorldUnit.SUB: "submarine",
        BigWorldUnit.DD: "destroyer",
        BigWorldUnit.CA: "cruiser",
        BigWorldUnit.AC: "carrier",
        BigWorldUnit.BB: "battleship",
        BigWorldUnit.AA: "aaGun",
        BigWorldUnit.IC: "factory",
    }
)
"""Each unit's name in the TripleA game file."""

ALIASES: Mapping[str, BigWorldUnit] = MappingProxyType(
    {
        **{unit.value: unit for unit in BigWorldUnit},
        **{name.upper(): unit for unit, name in TRIPLEA_UNIT_NAMES.items()},
        "TNK": BigWorldUnit.ARM,
        "TANK": BigWorldUnit.ARM,
        "ARTY": BigWorldUnit.ART,
        "CV": BigWorldUnit.AC,
        "SS": BigWorldUnit.SUB,
        "DES": BigWorldUnit.DD,
        "CR": BigWorldUnit.CA,
        "CRU": BigWorldUnit.CA,
        "AAGUN": BigWorldUnit.AA,
    }
)
"""Names a document may give a unit, upper-cased: the abbreviation, TripleA's name, and the
abbreviations players use for the same units elsewhere."""


@dataclass(frozen=True)
class BigWorldStats:
    """One unit type's numbers and abilities (TripleA unit attachment and purchase rule).

    ``attack``/``defence`` are ``None`` for the AA gun and the factory, which never roll in a
    battle round."""

    unit: BigWorldUnit
    domain: Domain
    cost: int
    movement: int
    attack: int | None
    defence: int | None
    hit_points: int
    supports: bool
    """Artillery: gives one supportable unit +1 attack."""
    supportable: bool
    """Infantry: attacks 1 higher when paired with an artillery."""
    destroyer: bool
    """Cancels the abilities of enemy submarines."""
    submarine: bool
    """Strikes first, hits no aircraft."""
    bombards: bool
    """Fires a bombardment shot in an amphibious assault."""
    anti_aircraft: bool
    factory: bool
    transport_cost: int | None
    transport_capacity: int
    carrier_cost: int | None
    carrier_capacity: int

    @property
    def is_air(self) -> bool:
        """Fighters and bombers."""
        return self.domain is Domain.AIR

    @property
    def fights(self) -> bool:
        """Whether the unit takes part in battle rounds (rolls, and can be a casualty)."""
        return self.defence is not None


@dataclass(frozen=True)
class BigWorldRules:
    """The ruleset's units and the game options its battles obey."""

    stats: Mapping[BigWorldUnit, BigWorldStats]
    two_hit_battleship: bool
    heavy_bomber_dice: int
    """Dice an attacking heavy bomber throws ("Heavy Bomber Dice Rolls")."""
    lhtr_heavy_bombers: bool
    """Only the better of a heavy bomber's dice counts ("LHTR Heavy Bombers")."""
    super_sub_defence_bonus: int

    def hit_points(self, unit: BigWorldUnit) -> int:
        """Hits that sink or kill one ``unit`` (2 for a battleship with "Two hit battleship")."""
        if unit is BigWorldUnit.BB and self.two_hit_battleship:
            return 2
        return self.stats[unit].hit_points


def rules_from_json(document: Mapping[str, object]) -> BigWorldRules:
    """The rules a ``big_world_1942.json`` document holds."""
    units = document["units"]
    options = document["options"]
    assert isinstance(units, Mapping) and isinstance(options, Mapping)
    stats = {}
    for unit in BigWorldUnit:
        row = dict(units[unit.value])
        row["domain"] = Domain(row["domain"])
        stats[unit] = BigWorldStats(unit=unit, **row)
    return BigWorldRules(
        stats=MappingProxyType(stats),
        two_hit_battleship=bool(options["two_hit_battleship"]),
        heavy_bomber_dice=int(options["heavy_bomber_dice"]),
        lhtr_heavy_bombers=bool(options["lhtr_heavy_bombers"]),
        super_sub_defence_bonus=int(options["super_sub_defence_bonus"]),
    )


@functools.cache
def big_world_rules() -> BigWorldRules:
    """The shipped rules of Big World 1942."""
    text = resources.files("adjudicator.bigworld").joinpath("data", RULES_JSON).read_text("utf-8")
    return rules_from_json(json.loads(text))


_CHART = tuple(BigWorldUnit)
_RANK = {unit: rank for rank, unit in enumerate(_CHART)}
AIRCRAFT_TYPES = frozenset({BigWorldUnit.FTR, BigWorldUnit.BMB})
"""The units a submarine's hit can never take and an AA gun fires at."""


@dataclass(frozen=True)
class Army:
    """How many Big World units of each type one side has, and how many of its battleships
    have taken one hit (``damaged``, at most the battleships there are). Immutable; compares
    and hashes as a value (the calculator's states)."""

    counts: tuple[int, ...] = (0,) * len(_CHART)
    """One count per unit type, in chart order."""
    damaged: int = 0

    @classmethod
    def of(cls, counts: Mapping[BigWorldUnit, int], damaged: int = 0) -> Army:
        """An army of these units; ValueError for a negative count."""
        slots = [0] * len(_CHART)
        for unit, n in counts.items():
            if n < 0:
                raise ValueError(f"a count of units cannot be {n} {unit.value}")
            slots[_RANK[unit]] += n
        return cls(tuple(slots), damaged)

    def count(self, unit: BigWorldUnit) -> int:
        """How many ``unit`` there are."""
        return self.counts[_RANK[unit]]

    __getitem__ = count

    def __iter__(self) -> Iterator[tuple[BigWorldUnit, int]]:
        return ((unit, n) for unit, n in zip(_CHART, self.counts, strict=True) if n)

    def __bool__(self) -> bool:
        return any(self.counts)

    @property
    def total(self) -> int:
        """Units of every type together."""
        return sum(self.counts)

    @property
    def aircraft(self) -> int:
        """Fighters and bombers."""
        return self.count(BigWorldUnit.FTR) + self.count(BigWorldUnit.BMB)

    def only(self, units: Iterable[BigWorldUnit]) -> Army:
        """The units of the given types (damage kept with the battleships)."""
        keep = set(units)
        slots = tuple(n if unit in keep else 0 for unit, n in zip(_CHART, self.counts, strict=True))
        return Army(slots, self.damaged if BigWorldUnit.BB in keep else 0)

    def less(self, unit: BigWorldUnit, n: int) -> Army:
        """These units less ``n`` of ``unit`` (damaged battleships go first)."""
        slots = list(self.counts)
        slots[_RANK[unit]] -= n
        damaged = max(0, self.damaged - n) if unit is BigWorldUnit.BB else self.damaged
        return Army(tuple(slots), damaged)

    def with_count(self, unit: BigWorldUnit, n: int) -> Army:
        """These units with ``n`` of ``unit`` (not battleships, whose damage this would lose)."""
        slots = list(self.counts)
        slots[_RANK[unit]] = n
        return Army(tuple(slots), self.damaged)

    def repaired(self) -> Army:
        """The same units with every battleship repaired (after the battle)."""
        return Army(self.counts) if self.damaged else self

    def to_json(self) -> dict[str, int]:
        """``{"INF": 3, "ART": 1}`` in chart order, zero counts left out."""
        return {unit.value: n for unit, n in self}

    def label(self) -> str:
        """ "3 INF, 1 ART" ("none" if empty), with "(1 damaged)" after the battleships."""
        parts = []
        for unit, n in self:
            hurt = f" ({self.damaged} damaged)" if unit is BigWorldUnit.BB and self.damaged else ""
            parts.append(f"{n} {unit.value}{hurt}")
        return ", ".join(parts) or "none"

    __str__ = label


NO_ARMY = Army()
"""No units at all."""

_W = BigWorldUnit
BIG_WORLD_ORDERS_OF_LOSS: Mapping[tuple[Side, Battlefield], tuple[BigWorldUnit, ...]] = (
    MappingProxyType(
        {
            (Side.ATTACKER, Battlefield.LAND): (_W.INF, _W.ART, _W.ARM, _W.FTR, _W.BMB),
            (Side.DEFENDER, Battlefield.LAND): (_W.INF, _W.ART, _W.ARM, _W.FTR, _W.BMB),
            (Side.ATTACKER, Battlefield.SEA): (
                _W.TRN,
                _W.SUB,
                _W.DD,
                _W.CA,
                _W.FTR,
                _W.AC,
                _W.BMB,
                _W.BB,
            ),
            (Side.DEFENDER, Battlefield.SEA): (_W.TRN, _W.SUB, _W.DD, _W.CA, _W.FTR, _W.AC, _W.BB),
        }
    )
)
"""The service's default order of loss for Big World battles (the IAAPA defaults are for
Classic's chart): the cheapest unit first and, of two that cost the same, the one that rolls
lower for this side. A hit is always taken first as damage on a battleship that has none
(TripleA: "The first hit only damages them"), so a battleship listed last is sunk last."""
