"""A side's units in a battle, as immutable counts per unit type.

Units of one type are interchangeable in a battle: a casualty is "one INF", never a named
infantry. The two exceptions (the aircraft an AA die points at, the transports that carry
cargo) are handled where they arise, by position and by count.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from adjudicator.units import UnitType

CHART_ORDER: Mapping[UnitType, int] = {unit: i for i, unit in enumerate(UnitType)}
"""The printed order of the unit chart (INF, ARM, FTR, BMB, TRN, SUB, AC, BB, AA, IC): the
order units are listed in, and the order their dice are read in."""

NEVER_CASUALTIES = frozenset({UnitType.AA, UnitType.IC})
"""AA guns and industrial complexes never roll in a round and are never battle casualties:
they change hands with the territory (facts sheet section 1; IAAPA AA Guns)."""


@dataclass(frozen=True)
class Forces:
    """Counts per unit type, zero counts dropped, kept in chart order. Immutable.

    Build with :meth:`of`; the ``items`` field is the canonical form (two equal forces have
    equal ``items``), so forces compare and hash as values.
    """

    items: tuple[tuple[UnitType, int], ...] = ()

    @classmethod
    def of(
        cls,
        counts: Mapping[UnitType, int] | Iterable[tuple[UnitType, int]] = (),
    ) -> Forces:
        """Forces from a mapping or pairs; repeated types add up; a negative count raises."""
        pairs = counts.items() if isinstance(counts, Mapping) else counts
        total: dict[UnitType, int] = {}
        for unit, count in pairs:
            if count < 0:
                raise ValueError(f"a force cannot hold {count} {unit.value}")
            total[unit] = total.get(unit, 0) + count
        return cls(
            tuple(
                sorted(
                    ((u, n) for u, n in total.items() if n), key=lambda pair: CHART_ORDER[pair[0]]
                )
            )
        )

    @classmethod
    def of_units(cls, units: Iterable[UnitType]) -> Forces:
        """Forces holding one unit per element of ``units``."""
        return cls.of((unit, 1) for unit in units)

    def count(self, unit: UnitType) -> int:
        """How many units of ``unit`` the force holds (0 if none)."""
        for have, n in self.items:
            if have is unit:
                return n
        return 0

    def as_dict(self) -> dict[UnitType, int]:
        """A fresh dict of the counts (chart order)."""
        return dict(self.items)

    def __iter__(self) -> Iterator[tuple[UnitType, int]]:
        return iter(self.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    @property
    def total(self) -> int:
        """Units of every type together."""
        return sum(n for _, n in self.items)

    @property
    def aircraft(self) -> int:
        """Fighters and bombers."""
        return sum(n for unit, n in self.items if unit is UnitType.FTR or unit is UnitType.BMB)

    @property
    def surface(self) -> int:
        """Every unit that is not an aircraft: what a submarine's hit may sink (at sea)."""
        return self.total - self.aircraft

    def combatants(self) -> Forces:
        """The units that can be casualties (everything but AA guns and complexes)."""
        return Forces(tuple(p for p in self.items if p[0] not in NEVER_CASUALTIES))

    def only(self, *units: UnitType) -> Forces:
        """The part of the force made of the given types."""
        return Forces(tuple(p for p in self.items if p[0] in units))

    def without(self, *units: UnitType) -> Forces:
        """The force less every unit of the given types."""
        return Forces(tuple(p for p in self.items if p[0] not in units))

    def plus(self, other: Forces) -> Forces:
        """Both forces together."""
        if not other.items:
            return self
        if not self.items:
            return other
        return Forces.of([*self.items, *other.items])

    def minus(self, other: Forces) -> Forces:
        """This force less ``other``; ValueError if ``other`` holds a unit this one lacks."""
        if not other.items:
            return self
        if not self.contains(other):
            lacking = next((u, n) for u, n in other.items if self.count(u) < n)
            raise ValueError(f"cannot remove {lacking[1]} {lacking[0].value} from {self.label()}")
        left = tuple((unit, n - other.count(unit)) for unit, n in self.items)
        return Forces(tuple(pair for pair in left if pair[1]))

    def contains(self, other: Forces) -> bool:
        """True if every unit of ``other`` is in this force."""
        return all(self.count(unit) >= n for unit, n in other.items)

    def label(self) -> str:
        """The force as players write it: "3 INF, 1 ARM, 2 FTR" ("none" if empty)."""
        return ", ".join(f"{n} {unit.value}" for unit, n in self.items) or "none"

    def to_json(self) -> dict[str, int]:
        """``{"INF": 3, ...}`` in chart order, zero counts omitted."""
        return {unit.value: n for unit, n in self.items}


NO_UNITS = Forces()
"""The empty force."""
