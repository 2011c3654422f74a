"""Rules data for Axis & Allies 2nd edition ("Classic") as the IAAPA plays it.

Values come from the Milton Bradley 2nd edition as digitised in TripleA's ``classic.xml``
(unit attachments and production rules; a test cross-checks them against the XML) and from
the IAAPA 2008 rules (default orders of loss). Sources are tagged as in
``shared/rules/classic-2nd-edition-facts.md``: [XML], [SPEC], [IAAPA].

Nothing here knows about a game in progress: these are the printed numbers, plus the
technology modifiers that a power's research adds to them (:func:`unit_profile`), and the
engine's one count of units, :class:`Units`, kept in the chart's order (:data:`CHART_ORDER`):
a turn's orders, a position and a battle all count units with it.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from adjudicator.fastenum import FastEnum
from adjudicator.fastrecord import quick_init


class Domain(FastEnum):
    """Where a unit lives: it decides which battles it fights and how it moves."""

    LAND = "land"
    """Moves over land territories; carried by transports at sea."""
    SEA = "sea"
    """Moves through sea zones; fights sea battles."""
    AIR = "air"
    """Flies over both; must end its turn on friendly land or a carrier with room."""


class UnitType(FastEnum):
    """The ten unit types of Classic, named by the IAAPA abbreviation players write."""

    INF = "INF"
    """Infantry."""
    ARM = "ARM"
    """Armour (tank); may blitz through an empty enemy territory."""
    FTR = "FTR"
    """Fighter; lands on land or on an aircraft carrier."""
    BMB = "BMB"
    """Bomber; the only unit that may make a strategic bombing raid."""
    TRN = "TRN"
    """Transport; attack 0 (rolls nothing), carries land units."""
    SUB = "SUB"
    """Submarine; strikes first when attacking, may withdraw, hits only ships."""
    AC = "AC"
    """Aircraft carrier; holds two fighters."""
    BB = "BB"
    """Battleship; one hit point, fires a support shot in amphibious assaults."""
    AA = "AA"
    """Anti-aircraft gun; never rolls in combat, fires at planes before round 1."""
    IC = "IC"
    """Industrial complex; never fights, produces units, target of bombing raids."""

    @property
    def stats(self) -> UnitStats:
        """The printed (technology-free) numbers of this unit type."""
        return UNIT_STATS[self]

    @property
    def triplea_name(self) -> str:
        """The unit's name in TripleA game files (``classic.xml``)."""
        return _TRIPLEA_NAMES[self]

    @classmethod
    def from_triplea(cls, name: str) -> UnitType:
        """The unit type a TripleA unit name stands for; ValueError if Classic has none."""
        for unit, triplea in _TRIPLEA_NAMES.items():
            if triplea == name:
                return unit
        raise ValueError(f"TripleA unit {name!r} is not a Classic unit type")


@dataclass(frozen=True)
class UnitStats:
    """One unit type's numbers: a hit is a die roll at or below the attack/defence value.

    ``attack``/``defence`` are ``None`` for units that never roll a battle die (AA gun,
    industrial complex); a transport's attack is 0: it may join an attack but rolls nothing.
    Transport slots: a transport holds 2 slots; INF takes 1, ARM and AA take 2, so a load is
    1 or 2 INF, or 1 ARM, or 1 AA gun (no INF+ARM mix) [XML transportCapacity/Cost; W12].
    """

    unit: UnitType
    name: str
    domain: Domain
    cost: int
    movement: int
    attack: int | None
    defence: int | None
    transport_cost: int | None = None
    """Slots taken on a transport, or ``None`` if it cannot be carried."""
    transport_capacity: int = 0
    """Slots this unit offers as a transport."""
    carrier_cost: int | None = None
    """Carrier places taken (fighters), or ``None`` if it cannot land on a carrier."""
    carrier_capacity: int = 0
    """Fighters this unit can hold as a carrier."""
    attack_dice: int = 1
    """Dice rolled per unit when attacking (Heavy Bombers make it 3)."""
    raid_dice: int = 0
    """Dice rolled per surviving unit in a strategic bombing raid."""

    @property
    def is_land(self) -> bool:
        """True for units that stand on land (including AA guns and complexes)."""
        return self.domain is Domain.LAND

    @property
    def is_sea(self) -> bool:
        """True for ships."""
        return self.domain is Domain.SEA

    @property
    def is_air(self) -> bool:
        """True for fighters and bombers."""
        return self.domain is Domain.AIR

    @property
    def rolls_in_battle(self) -> bool:
        """Whether the unit throws a die in an ordinary battle round when attacking."""
        return bool(self.attack)


def _stats(
    unit: UnitType,
    name: str,
    domain: Domain,
    cost: int,
    move: int,
    attack: int | None,
    defence: int | None,
    **extra: int,
) -> UnitStats:
    return UnitStats(unit, name, domain, cost, move, attack, defence, **extra)


_L, _S, _A = Domain.LAND, Domain.SEA, Domain.AIR
UNIT_STATS: Mapping[UnitType, UnitStats] = MappingProxyType(
    {
        # cost / movement / attack / defence [XML unit attachments + production rules; SPEC p.9]
        UnitType.INF: _stats(UnitType.INF, "Infantry", _L, 3, 1, 1, 2, transport_cost=1),
        UnitType.ARM: _stats(UnitType.ARM, "Armour", _L, 5, 2, 3, 2, transport_cost=2),
        UnitType.FTR: _stats(UnitType.FTR, "Fighter", _A, 12, 4, 3, 4, carrier_cost=1),
        UnitType.BMB: _stats(UnitType.BMB, "Bomber", _A, 15, 6, 4, 1, raid_dice=1),
        UnitType.TRN: _stats(UnitType.TRN, "Transport", _S, 8, 2, 0, 1, transport_capacity=2),
        UnitType.SUB: _stats(UnitType.SUB, "Submarine", _S, 8, 2, 2, 2),
        UnitType.AC: _stats(UnitType.AC, "Aircraft Carrier", _S, 18, 2, 1, 3, carrier_capacity=2),
        UnitType.BB: _stats(UnitType.BB, "Battleship", _S, 24, 2, 4, 4),
        UnitType.AA: _stats(
            UnitType.AA, "Anti-Aircraft Gun", _L, 5, 1, None, None, transport_cost=2
        ),
        UnitType.IC: _stats(UnitType.IC, "Industrial Complex", _L, 15, 0, None, None),
    }
)

_TRIPLEA_NAMES: Mapping[UnitType, str] = MappingProxyType(
    {
        UnitType.INF: "infantry",
        UnitType.ARM: "armour",
        UnitType.FTR: "fighter",
        UnitType.BMB: "bomber",
        UnitType.TRN: "transport",
        UnitType.SUB: "submarine",
        UnitType.AC: "carrier",
        UnitType.BB: "battleship",
        UnitType.AA: "aaGun",
        UnitType.IC: "factory",
    }
)

CHART_ORDER: Mapping[UnitType, int] = MappingProxyType({u: i for i, u in enumerate(UnitType)})
"""The printed order of the unit chart (INF, ARM, FTR, BMB, TRN, SUB, AC, BB, AA, IC): the
order units are listed in everywhere (turn reports, battles, positions) and the order battle
dice are read in."""

NEVER_CASUALTIES = frozenset({UnitType.AA, UnitType.IC})
"""AA guns and industrial complexes never roll in a round and are never battle casualties:
they change hands with the territory (facts sheet section 1; IAAPA AA Guns)."""


@quick_init
@dataclass(frozen=True)
class Units:
    """How many units of each type: a line of a turn ("8 INF, 1 ARM, 2 FTR"), a side of a
    battle, a power's units in one space. Immutable; compares and hashes as a value.

    Units of one type are interchangeable: a casualty is "one INF", never a named infantry.
    ``counts`` holds (type, count) pairs in :data:`CHART_ORDER` with no zero counts, so two
    listings of the same units are equal however they were written; build with :meth:`of`.
    """

    counts: tuple[tuple[UnitType, int], ...] = ()

    @classmethod
    def of(cls, counts: Mapping[UnitType, int] | Iterable[tuple[UnitType, int]] = ()) -> Units:
        """Units from a mapping or from pairs; repeated types add up; a negative count
        raises ValueError (nobody holds -1 INF)."""
        pairs = counts.items() if isinstance(counts, Mapping) else counts
        total: dict[UnitType, int] = {}
        for unit, count in pairs:
            if count < 0:
                raise ValueError(f"a count of units cannot be {count} {unit.value}")
            total[unit] = total.get(unit, 0) + count
        ranked = sorted(total.items(), key=lambda pair: CHART_ORDER[pair[0]])
        return cls(tuple((u, n) for u, n in ranked if n))

    @classmethod
    def of_units(cls, units: Iterable[UnitType]) -> Units:
        """One unit per element of ``units``."""
        return cls.of((unit, 1) for unit in units)

    def count(self, unit: UnitType) -> int:
        """How many ``unit`` there are (0 if none); ``units[unit]`` says the same. No dict
        is built: the declaration checks ask this thousands of times a turn."""
        for have, n in self.counts:
            if have is unit:
                return n
        return 0

    __getitem__ = count

    def __iter__(self) -> Iterator[tuple[UnitType, int]]:
        return iter(self.counts)

    def __bool__(self) -> bool:
        return bool(self.counts)

    @property
    def total(self) -> int:
        """Units of every type together."""
        return sum(n for _, n in self.counts)

    @property
    def aircraft(self) -> int:
        """Fighters and bombers."""
        return sum(n for unit, n in self.counts if unit is UnitType.FTR or unit is UnitType.BMB)

    @property
    def surface(self) -> int:
        """Every unit that is not an aircraft: what a submarine's hit may sink (at sea)."""
        return self.total - self.aircraft

    def combatants(self) -> Units:
        """The units that can be battle casualties (all but AA guns and complexes)."""
        return Units(tuple(p for p in self.counts if p[0] not in NEVER_CASUALTIES))

    def only(self, *units: UnitType) -> Units:
        """The units of the given types."""
        return Units(tuple(p for p in self.counts if p[0] in units))

    def without(self, *units: UnitType) -> Units:
        """These units less every unit of the given types."""
        return Units(tuple(p for p in self.counts if p[0] not in units))

    def plus(self, other: Units) -> Units:
        """Both together (also ``self + other``)."""
        if not other.counts:
            return self
        if not self.counts:
            return other
        return tally((*self.counts, *other.counts))

    __add__ = plus

    def minus(self, other: Units) -> Units:
        """These units less ``other``; ValueError if ``other`` holds a unit these lack."""
        if not other.counts:
            return self
        if not self.contains(other):
            unit, n = next((u, n) for u, n in other.counts if self.count(u) < n)
            raise ValueError(f"cannot remove {n} {unit.value} from {self.label()}")
        left = tuple((unit, n - other.count(unit)) for unit, n in self.counts)
        return Units(tuple(pair for pair in left if pair[1]))

    def contains(self, other: Units) -> bool:
        """True if every unit of ``other`` is among these."""
        return all(self.count(unit) >= n for unit, n in other.counts)

    def as_dict(self) -> dict[UnitType, int]:
        """A fresh dict of the counts, in chart order."""
        return dict(self.counts)

    def to_json(self) -> dict[str, int]:
        """``{"INF": 8, "ARM": 1}``: the canonical abbreviations as keys, in chart order, zero
        counts omitted (the form of every JSON report and position file)."""
        return {unit.value: n for unit, n in self.counts}

    def label(self) -> str:
        """The units as players write them: "3 INF, 1 ARM, 2 FTR" ("none" if empty)."""
        return ", ".join([f"{n} {_ABBREVIATIONS[unit]}" for unit, n in self.counts]) or "none"

    __str__ = label


NO_UNITS = Units()
"""No units at all."""

_CHART = tuple(UnitType)
_RANK = {unit: rank for rank, unit in enumerate(_CHART)}
"""Each unit type's place in :data:`CHART_ORDER` (a plain dict: members hash by identity)."""
_COUNT = operator.itemgetter(1)


def tally(pairs: Iterable[tuple[UnitType, int]]) -> Units:
    """``Units.of(pairs)`` for counts that are never negative (read from a line, or taken
    from other :class:`Units`), as the parser and the checks do thousands of times a turn:
    pairs already in the chart's order, each type once ("8 INF, 1 ARM, 2 FTR"), are taken as
    they are; others are summed in the chart's order by position rather than sorted."""
    listed = pairs if isinstance(pairs, (list, tuple)) else list(pairs)
    rank = _RANK
    last = -1
    for unit, count in listed:
        at = rank[unit]
        if at <= last or not count:
            break
        last = at
    else:
        return Units(tuple(listed))
    slots = [0] * len(_CHART)
    for unit, count in listed:
        slots[rank[unit]] += count
    return Units(tuple(filter(_COUNT, zip(_CHART, slots, strict=True))))


_ABBREVIATIONS = {unit: unit.value for unit in UnitType}
"""Each unit type's abbreviation (``unit.value``, looked up without the enum's descriptor:
messages name units thousands of times)."""


class Technology(FastEnum):
    """The six weapons developments; the value is the number on the tech chart die.

    Chart 1 Jet Power .. 6 Heavy Bombers [SPEC p.10; uncertain: only one source gives the
    mapping]. A breakthrough is a 6 on a 5-IPC research die, then this die picks the
    technology; a technology already owned is re-rolled [W6; SPEC p.10-11].
    """

    JET_POWER = 1
    """Fighters defend at 5 (attack stays 3)."""
    ROCKETS = 2
    """Once per turn one AA gun within 3 spaces of an enemy IC makes a 1-die raid."""
    SUPER_SUBS = 3
    """Submarines attack at 3 (defence stays 2)."""
    LONG_RANGE_AIRCRAFT = 4
    """Fighters and bombers move 2 spaces further (6 and 8)."""
    INDUSTRIAL_TECHNOLOGY = 5
    """Every unit costs 1 IPC less."""
    HEAVY_BOMBERS = 6
    """Bombers roll 3 dice when attacking, each a separate hit, and 3 dice in a raid."""

    @property
    def chart_number(self) -> int:
        """The die face that selects this technology on the chart."""
        return self.value

    @classmethod
    def from_chart(cls, roll: int) -> Technology:
        """The technology a chart die of ``roll`` selects (1..6)."""
        return cls(roll)


@dataclass(frozen=True)
class TechEffect:
    """What one technology changes, as data: modifiers applied to the listed unit types.

    Bonuses add to the printed value; ``cost_change`` adds to the cost; ``attack_dice`` and
    ``raid_dice``, when set, replace the unit's dice counts; ``rocket_range`` gives AA guns a
    rocket shot at an enemy IC within that many spaces (``rocket_dice`` dice).
    """

    technology: Technology
    units: frozenset[UnitType]
    attack_bonus: int = 0
    defence_bonus: int = 0
    movement_bonus: int = 0
    cost_change: int = 0
    attack_dice: int | None = None
    raid_dice: int | None = None
    rocket_range: int | None = None
    rocket_dice: int | None = None


TECH_EFFECTS: Mapping[Technology, TechEffect] = MappingProxyType(
    {
        # Jet Power: defence +1 [SPEC; TA TechAbilityAttachment non-V3]
        Technology.JET_POWER: TechEffect(
            Technology.JET_POWER, frozenset({UnitType.FTR}), defence_bonus=1
        ),
        # Rockets: one AA gun within 3 of an enemy IC, 1 die of IPC loss [IAAPA Rocket Technology]
        Technology.ROCKETS: TechEffect(
            Technology.ROCKETS, frozenset({UnitType.AA}), rocket_range=3, rocket_dice=1
        ),
        # Super Subs: attack +1, no defence bonus [SPEC; XML Super Sub Defence Bonus=0]
        Technology.SUPER_SUBS: TechEffect(
            Technology.SUPER_SUBS, frozenset({UnitType.SUB}), attack_bonus=1
        ),
        # Long Range Aircraft: +2 movement for all air [SPEC; TA]
        Technology.LONG_RANGE_AIRCRAFT: TechEffect(
            Technology.LONG_RANGE_AIRCRAFT,
            frozenset({UnitType.FTR, UnitType.BMB}),
            movement_bonus=2,
        ),
        # Industrial Technology: -1 IPC on every unit [XML productionIndustrialTechnology]
        Technology.INDUSTRIAL_TECHNOLOGY: TechEffect(
            Technology.INDUSTRIAL_TECHNOLOGY, frozenset(UnitType), cost_change=-1
        ),
        # Heavy Bombers: 3 attack dice, 3 raid dice [XML Heavy Bomber Dice Rolls=3; SPEC p.10]
        Technology.HEAVY_BOMBERS: TechEffect(
            Technology.HEAVY_BOMBERS, frozenset({UnitType.BMB}), attack_dice=3, raid_dice=3
        ),
    }
)


_PROFILES: dict[tuple[UnitType, frozenset[Technology]], UnitStats] = {}
"""Each unit's numbers with each set of technologies, worked out once (at most 10 units
times 64 sets)."""


def unit_profile(unit: UnitType, technologies: Iterable[Technology] = ()) -> UnitStats:
    """The unit's numbers for a power owning ``technologies`` (a tech works at once).

    Technologies never reduce a ``None`` attack or defence to a number: an AA gun with
    rockets still never rolls in battle.
    """
    techs = technologies if isinstance(technologies, frozenset) else frozenset(technologies)
    key = (unit, techs)
    found = _PROFILES.get(key)
    if found is None:
        found = _PROFILES[key] = _profile(unit, techs)
    return found


def _profile(unit: UnitType, technologies: frozenset[Technology]) -> UnitStats:
    stats = unit.stats
    for tech in sorted(technologies, key=lambda t: t.value):
        effect = TECH_EFFECTS[tech]
        if unit not in effect.units:
            continue
        stats = dataclasses.replace(
            stats,
            attack=None if stats.attack is None else stats.attack + effect.attack_bonus,
            defence=None if stats.defence is None else stats.defence + effect.defence_bonus,
            movement=stats.movement + effect.movement_bonus,
            cost=stats.cost + effect.cost_change,
            attack_dice=effect.attack_dice or stats.attack_dice,
            raid_dice=effect.raid_dice or stats.raid_dice,
        )
    return stats


def rocket_range(technologies: Iterable[Technology]) -> int | None:
    """Spaces an AA gun's rocket reaches for a power with ``technologies``, or None."""
    if Technology.ROCKETS in set(technologies):
        return TECH_EFFECTS[Technology.ROCKETS].rocket_range
    return None


class Side(FastEnum):
    """The two sides of a battle."""

    ATTACKER = "attacker"
    """The power whose turn it is."""
    DEFENDER = "defender"
    """The power (or allied powers, one IAAPA player) whose units are attacked."""


class Battlefield(FastEnum):
    """Where a battle is fought; the default order of loss differs by battlefield."""

    LAND = "land"
    """A land territory."""
    SEA = "sea"
    """A sea zone."""


@dataclass(frozen=True)
class OrderOfLoss:
    """The order in which a side takes casualties, first-lost first.

    IAAPA Orders of Loss: "A player may designate any order of loss that he desires for his
    casualties. If a defender does not send in any special orders of loss prior to the attacker
    rolling the battle then the Association defaults will be used." Units not listed (AA guns,
    industrial complexes) are never battle casualties.
    """

    side: Side
    battlefield: Battlefield
    units: tuple[UnitType, ...]

    def __post_init__(self) -> None:
        if len(set(self.units)) != len(self.units):
            raise ValueError(f"order of loss lists a unit twice: {self.units}")

    def rank(self, unit: UnitType) -> int:
        """0 for the unit lost first; ValueError if this order never loses ``unit``."""
        try:
            return self.units.index(unit)
        except ValueError:
            raise ValueError(
                f"{unit.value} is not in the {self.side.value} order of loss "
                f"for a {self.battlefield.value} battle"
            ) from None

    def casualties(self, present: Mapping[UnitType, int], hits: int) -> tuple[UnitType, ...]:
        """The units removed for ``hits`` hits on ``present`` units, in order of removal.

        Hits beyond the listed units are wasted (everything listed is lost).
        """
        if hits < 0:
            raise ValueError(f"hits must not be negative, got {hits}")
        lost: list[UnitType] = []
        for unit in self.units:
            take = min(present.get(unit, 0), hits - len(lost))
            lost.extend([unit] * take)
        return tuple(lost)


_U = UnitType
DEFAULT_ORDERS_OF_LOSS: Mapping[tuple[Side, Battlefield], OrderOfLoss] = MappingProxyType(
    {
        (Side.ATTACKER, Battlefield.LAND): OrderOfLoss(
            Side.ATTACKER, Battlefield.LAND, (_U.INF, _U.ARM, _U.FTR, _U.BMB)
        ),
        (Side.DEFENDER, Battlefield.LAND): OrderOfLoss(
            Side.DEFENDER, Battlefield.LAND, (_U.INF, _U.ARM, _U.BMB, _U.FTR)
        ),
        (Side.ATTACKER, Battlefield.SEA): OrderOfLoss(
            Side.ATTACKER, Battlefield.SEA, (_U.TRN, _U.SUB, _U.FTR, _U.BMB, _U.AC, _U.BB)
        ),
        (Side.DEFENDER, Battlefield.SEA): OrderOfLoss(
            Side.DEFENDER, Battlefield.SEA, (_U.TRN, _U.SUB, _U.FTR, _U.AC, _U.BB)
        ),
    }
)
"""IAAPA "Default Orders of Loss (OOL)", as printed in the Declaration section."""


def default_order_of_loss(
    side: Side,
    terrain: Battlefield,
    *,
    attackers_only_air_no_retreat: bool = False,
) -> OrderOfLoss:
    """The Association default order of loss for ``side`` in a battle on ``terrain``.

    IAAPA Default Orders of Loss, Note: "In a no retreat situation involving only attacking
    air units, defending subs are lost before other defending units." Set
    ``attackers_only_air_no_retreat`` for such a battle; it moves SUB to the front of the
    defender's sea order and changes nothing else (a land battle has no defending subs, and
    the note speaks only of the defender).
    """
    order = DEFAULT_ORDERS_OF_LOSS[(side, terrain)]
    if attackers_only_air_no_retreat and side is Side.DEFENDER and UnitType.SUB in order.units:
        rest = tuple(u for u in order.units if u is not UnitType.SUB)
        return OrderOfLoss(side, terrain, (UnitType.SUB, *rest))
    return order
