"""The placement of new units, against the complexes the mover may build at.

IAAPA Rules Clarifications, Placement of New Units:

- "You must have owned the IC at the beginning of your turn and you must still control the
  industrial complex at the time of the placement of new units. As such, if you liberate their
  capital you will not be allowed to place any new units in that complex as it has now
  reverted back to your Ally's control." So land and air units go in a territory the mover
  held, with a complex, at the start of its turn and still holds after combat (a complex
  captured this turn builds nothing until the next turn, facts sheet section 8);
- "Shipping may be placed in any water area on the board that is adjacent to a land territory
  possessing an IC" (one the mover may build at), not a zone holding enemy units after combat
  (facts sheet 8: "Ships go in any adjacent sea zone ... that is not enemy-occupied");
- "A newly purchased fighter may not be placed on an aircraft carrier. It must be placed in a
  land territory."

Facts sheet section 8: an original complex (classic.xml's ``originalFactory``: E US, W US, UK,
Germany, S Europe, Japan, Russia, Karelia) builds without limit for its original owner; any
other (new, bid or captured) builds at most its territory's IPC value a turn, at least 1.
Ships placed beside a limited complex count against it; a zone beside an unlimited one is
never short of room. A new complex goes on land the mover held at the start of its turn that
has none ("One IC per territory"), and a territory holds at most one AA gun ("Multiple
AA=false"). Income Collection and Spending: "You may not purchase any new units while your
capital is under enemy control": units placed then were bought then.

Each breach is an error on the placement's line (IAAPA Error Correction VII counts placements
among the non-combat moves a player corrects within one turn); it voids no battle.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from adjudicator.declarations.findings import Code, error_finding
from adjudicator.diagnostics import Diagnostic, Rule
from adjudicator.notation.model import Placement
from adjudicator.position.model import Position
from adjudicator.position.serialize import POWER_NAMES
from adjudicator.powers import Power
from adjudicator.units import Domain, Units, UnitType

_SUGGESTION = "place new units at a complex held since the start of the turn, ships beside it"


def _complexes(position: Position, power: Power) -> tuple[str, ...]:
    """The land ``power`` holds with a complex in ``position`` (found once a position)."""
    cache = position.memo()
    key = ("complexes", power)
    found = cache.get(key)
    if found is None:
        found = cache[key] = tuple(
            name
            for name, owner in position.owners.items()
            if owner is power
            and any(units.count(UnitType.IC) for units in position.units_at(name).values())
        )
    return found


def _factories(position: Position, power: Power, owners: Mapping[str, Power | None]) -> set[str]:
    """Where ``power`` may build: land it held with a complex at the start of the turn
    (``position``) and still holds (``owners``: each territory's owner after combat)."""
    return {name for name in _complexes(position, power) if owners.get(name) is power}


def _limit(position: Position, power: Power, factory: str) -> int | None:
    """What the complex in ``factory`` builds a turn for ``power`` (None: no limit)."""
    territory = position.board.territories[factory]
    if territory.original_factory and territory.original_owner == power.triplea_name:
        return None
    return max(1, territory.ipc)


class _Placing:
    """The placements of one turn weighed one by one, with what each complex has built."""

    def __init__(
        self,
        position: Position,
        power: Power,
        owners: Mapping[str, Power | None],
        cleared: set[str],
    ) -> None:
        self.position, self.power, self.owners, self.cleared = position, power, owners, cleared
        self.built: dict[str, int] = {}
        self.found: list[Diagnostic] = []

    @functools.cached_property
    def factories(self) -> set[str]:
        """Where the mover may build (worked out for the first placement that asks)."""
        return _factories(self.position, self.power, self.owners)

    def error(
        self, placement: Placement, message: str, code: Code = Code.PLACEMENT_ILLEGAL
    ) -> None:
        self.found.append(
            error_finding(
                placement.line,
                Rule.PLACEMENT,
                f"{placement.place}: {placement.units} placed, but {message}",
                _SUGGESTION,
                code,
            )
        )

    def land(self, placement: Placement) -> None:
        place, units = placement.place, placement.units
        if any(u.stats.domain is Domain.SEA for u, _ in units):
            self.error(placement, "ships are placed in a sea zone beside a complex")
        if units.count(UnitType.IC):
            self._complex(placement)
        rest = units.without(UnitType.IC)
        if not rest:
            return
        if place not in self.factories:
            self.error(placement, self._why_not(place))
            return
        if rest.count(UnitType.AA) > 1:
            self.error(placement, "a territory holds at most one AA gun")
        self._build(placement, place, rest.total)

    def _complex(self, placement: Placement) -> None:
        place = placement.place
        here = self.position.units_at(place)
        if self.position.owner(place) is not self.power or self.owners.get(place) is not self.power:
            self.error(
                placement,
                f"a new complex goes on land {self._name} held since the start of the turn",
            )
        elif placement.units.count(UnitType.IC) > 1 or any(
            u.count(UnitType.IC) for u in here.values()
        ):
            self.error(placement, "a territory holds one industrial complex")

    def sea(self, placement: Placement) -> None:
        zone, units = placement.place, placement.units
        board = self.position.board
        beside = sorted(t for t in board.adjacency[zone] if t in self.factories)
        if units.count(UnitType.FTR) or units.count(UnitType.BMB):
            self.error(
                placement,
                "a newly purchased fighter may not be placed on an aircraft carrier: aircraft "
                "are placed on land",
            )
        if any(u.stats.domain is Domain.LAND for u, _ in units):
            self.error(placement, "land units are placed on land, at a complex")
        ships = Units.of((u, n) for u, n in units if u.stats.domain is Domain.SEA)
        if not ships:
            return
        if not beside:
            self.error(placement, f"{zone} touches no complex {self._name} may build at")
            return
        if zone not in self.cleared and self.position.has_enemy(zone, self.power):
            self.error(placement, f"{zone} holds enemy units")
        if any(_limit(self.position, self.power, f) is None for f in beside):
            return
        room = {f: self._room(f) for f in beside}
        need = ships.total
        for factory in beside:
            used = min(need, room[factory])
            self.built[factory] = self.built.get(factory, 0) + used
            need -= used
        if need > 0:
            where = ", ".join(beside)
            self.error(
                placement,
                f"the complexes beside it ({where}) have room for {ships.total - need} more "
                "this turn (a complex that is not an original one builds at most its "
                "territory's IPC value)",
                Code.PRODUCTION_LIMIT,
            )

    def _room(self, factory: str) -> int:
        limit = _limit(self.position, self.power, factory)
        return 10**6 if limit is None else max(0, limit - self.built.get(factory, 0))

    def _build(self, placement: Placement, factory: str, count: int) -> None:
        limit = _limit(self.position, self.power, factory)
        if limit is None:
            return
        room = self._room(factory)
        self.built[factory] = self.built.get(factory, 0) + count
        if count > room:
            self.error(
                placement,
                f"the complex in {factory} is not an original one and builds at most {limit} "
                f"unit(s) a turn (its IPC value); {limit - room} already placed there",
                Code.PRODUCTION_LIMIT,
            )

    @property
    def _name(self) -> str:
        return POWER_NAMES[self.power]

    def _why_not(self, place: str) -> str:
        start = self.position.owner(place)
        has_complex = any(u.count(UnitType.IC) for u in self.position.units_at(place).values())
        if start is not self.power:
            return (
                f"{place} was not {self._name}'s at the start of the turn: new units go at a "
                "complex owned at the beginning of the turn"
            )
        if not has_complex:
            return f"{place} has no industrial complex"
        return (
            f"{place} is no longer {self._name}'s (\"you must still control the industrial "
            'complex at the time of the placement")'
        )


def check_placements(
    position: Position,
    power: Power,
    placements: tuple[Placement, ...],
    *,
    owners: Mapping[str, Power | None],
    cleared: set[str],
    bought: bool,
) -> list[Diagnostic]:
    """The placements of ``power``'s post-combat orders checked against ``position`` (the
    start of its turn); ``owners`` is who holds each territory after combat, ``cleared`` the
    sea zones whose enemies the mover's battles removed; ``bought`` is whether the pre-combat
    purchases are known (their check already refuses purchases without a capital)."""
    placing = _Placing(position, power, owners, cleared)
    board = position.board
    for placement in placements:
        if placement.place not in board.territories or not placement.units:
            continue
        if board.territories[placement.place].is_sea:
            placing.sea(placement)
        else:
            placing.land(placement)
    if placements and not bought and not position.holds_capital(power):
        first = placements[0]
        placing.found.append(
            error_finding(
                first.line,
                Rule.INCOME,
                f"new units placed while {position.capital(power)}, {POWER_NAMES[power]}'s "
                "capital, is under enemy control: you may not purchase any new units while "
                "your capital is under enemy control",
                "place nothing this turn; the IPCs may still go on research or a neutral",
                Code.CAPITAL_LOST,
            )
        )
    return placing.found
