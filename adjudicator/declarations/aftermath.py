"""What the orders of a turn say the mover's units are at its end, as far as they can say.

A post-combat email gives results, non-combat moves and placements; the combat moves are in
the pre-combat email before it, and casualties are often not written. So each space's units
are known within bounds: ``lo`` to ``hi`` of each type (``hi`` None: no upper bound). Units no
order touches are exactly where they were; a battle whose survivors are not written leaves 0
up to every attacker; without the pre-combat turn, any unit that could attack may have left.
A map update agreeing with these bounds agrees with the orders (IAAPA Error Correction V).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

from adjudicator.declarations.geometry import movement_of
from adjudicator.declarations.sites import planned
from adjudicator.notation.model import Battle, BattleKind, CombatOutcome, CombatResult, Turn
from adjudicator.position.model import CARGO, Position
from adjudicator.powers import Power
from adjudicator.units import NO_UNITS, Domain, Units, UnitType

Key = tuple[str, UnitType]
STAY = frozenset({UnitType.AA, UnitType.IC})
"""Units that never take part in a combat move (IAAPA AA Guns; complexes never move)."""
_MOVERS = tuple(u for u in UnitType if u not in STAY)
CAPTORS = frozenset(u for u in UnitType if u.stats.domain is Domain.LAND and u not in STAY)
"""The units that take a territory: land units that fight (facts sheet section 8: "Only
surviving land units capture a territory. Planes alone never do")."""


NONE_THERE = (0, 0)
"""The bounds on a type the orders say nothing about in a space."""


@dataclass
class Expectation:
    """Bounds on the mover's units in every space after its turn, and what the orders did.

    ``base`` is the mover's units at the start of the turn; ``spans`` maps each space an
    order touched to each unit type's ``[lo, hi]`` there (``hi`` None: unbounded). With
    ``loose`` (combat moves unknown) any unit but an AA gun or complex may have left a space.
    """

    power: Power
    base: Mapping[str, Units]
    loose: bool = False
    spans: dict[str, dict[UnitType, list[int | None]]] = field(default_factory=dict)
    moves: dict[Key, list[int]] = field(default_factory=lambda: defaultdict(list))
    """Lines of non-combat moves into or out of each space, per unit type."""
    placed: dict[Key, list[int]] = field(default_factory=lambda: defaultdict(list))
    captured: dict[str, int] = field(default_factory=dict)
    """Land taken this turn, with the line saying so."""
    air_only: dict[str, int] = field(default_factory=dict)
    """Land battles won with only aircraft left, which take nothing, with the result's line."""
    cleared: set[str] = field(default_factory=set)
    """Sea zones whose battle the mover won."""
    damage: dict[str, int] = field(default_factory=dict)
    """Bombing raid damage by target territory."""
    landings: list[tuple[str, UnitType, int, str]] = field(default_factory=list)
    """Planes' landing places written in the combat moves: (battle, unit, count, place)."""

    def _start(self, unit: UnitType, count: int) -> list[int | None]:
        return [0 if self.loose and unit not in STAY else count, count]

    def _span(self, space: str, unit: UnitType) -> list[int | None]:
        per_space = self.spans.get(space)
        if per_space is None:
            per_space = self.spans[space] = {
                u: self._start(u, n) for u, n in self.base.get(space, NO_UNITS).counts
            }
        span = per_space.get(unit)
        if span is None:
            span = per_space[unit] = [0, 0]
        return span

    def add(self, space: str, unit: UnitType, lo: int, hi: int | None) -> None:
        """``lo`` to ``hi`` more ``unit`` in ``space``."""
        span = self._span(space, unit)
        span[0] = (span[0] or 0) + lo
        before = span[1]
        span[1] = None if before is None or hi is None else before + hi

    def take(self, space: str, unit: UnitType, count: int) -> None:
        """``count`` ``unit`` leave ``space``."""
        span = self._span(space, unit)
        span[0] = max(0, (span[0] or 0) - count)
        before = span[1]
        span[1] = None if before is None else max(0, before - count)

    def touched(self, space: str) -> bool:
        """Whether any order moved units into or out of ``space``."""
        return space in self.spans

    def space_bounds(self, space: str) -> dict[UnitType, tuple[int, int | None]]:
        """The bounds on every type the orders say anything about in ``space`` (any other
        type: none there, ``(0, 0)``), found at once for a space weighed type by type."""
        per_space = self.spans.get(space)
        if per_space is None:
            found: dict[UnitType, tuple[int, int | None]] = {}
            for unit, count in self.base.get(space, NO_UNITS).counts:
                lo, hi = self._start(unit, count)
                found[unit] = (lo or 0, hi)
            return found
        return {unit: (span[0] or 0, span[1]) for unit, span in per_space.items()}

    def bounds(self, space: str, unit: UnitType) -> tuple[int, int | None]:
        """The bounds on ``unit`` in ``space``."""
        return self.space_bounds(space).get(unit, NONE_THERE)


def result_for(
    battle: Battle, results: tuple[CombatResult, ...], space: str | None = None
) -> CombatResult | None:
    """The result reported for ``battle``: by number (and its place, if the result names one),
    else by place; ``space`` is where the battle is fought when the check read it elsewhere
    than written (a name fitting several places)."""
    places = {p for p in (battle.territory, space) if p is not None}
    for result in results:
        if result.number == battle.number and (result.territory in places or not result.territory):
            return result
    for result in results:
        if result.number is None and result.territory in places:
            return result
    return None


def _arrive(
    exp: Expectation, space: str, attackers: Units, result: CombatResult | None, walk_in: bool
) -> None:
    """The attackers of a battle in ``space`` after it, by its result."""
    outcome = result.outcome if result is not None else None
    if walk_in or outcome is CombatOutcome.WALKED_IN:
        for unit, n in attackers.counts:
            exp.add(space, unit, n, n)
        return
    if (
        outcome in (CombatOutcome.WON, CombatOutcome.RETREATED)
        and result is not None
        and result.survivors
    ):
        where = result.retreat_to or space
        for unit, n in result.survivors.counts:
            exp.add(where, unit, n, n)
        return
    where = result.retreat_to if result is not None and result.retreat_to else space
    for unit, n in attackers.counts:
        lost_on_land = (
            outcome in (CombatOutcome.LOST, CombatOutcome.BOTH_DESTROYED)
            and unit.stats.domain is not Domain.AIR
        )
        if not lost_on_land:
            exp.add(where, unit, 0, n)


def _combat_known(exp: Expectation, position: Position, battles: Turn, turn: Turn) -> None:
    """The combat moves of ``battles`` (a pre-combat turn) and their results in ``turn``."""
    movement = movement_of(position, exp.power)
    sites, _, plan = planned(battles, movement)
    for site in sites:
        lifts = [lf for lf in plan.lifts if lf.site.number == site.number]
        support = next((lf.unload for lf in lifts if lf.unload is not None), None)
        attackers = Units()
        for sortie in (s for s in plan.sorties if s.site.number == site.number):
            if sortie.place is None:
                continue
            for unit, n in sortie.origin.units.counts:
                exp.take(sortie.place, unit, n)
                if site.is_sea and unit in CARGO:
                    exp.add(site.space, unit, 0, n)  # aboard, if the transports survive
                elif not site.is_sea and unit.stats.domain is Domain.SEA:
                    exp.add(support or sortie.place, unit, n, n)  # a support shot
                else:
                    attackers = attackers + Units.of({unit: n})
                if unit.stats.domain is Domain.AIR and sortie.origin.lands is not None:
                    exp.landings.append((site.space, unit, n, sortie.origin.lands))
        for lift in lifts:
            if lift.zone is None:
                continue
            exp.take(lift.zone, UnitType.TRN, lift.count)
            if site.is_sea:
                attackers = attackers + Units.of({UnitType.TRN: lift.count})
            elif lift.unload is not None:
                fought = movement.blocked(lift.unload)
                exp.add(lift.unload, UnitType.TRN, 0 if fought else lift.count, lift.count)
        battle = site.battle
        result = result_for(battle, turn.results, site.space)
        walk_in = battle.kind is BattleKind.WALK_IN
        _arrive(exp, site.space, attackers, result, walk_in)
        left = result.survivors if result is not None and result.survivors.counts else attackers
        _outcome(exp, site.space, site.is_sea, result, walk_in, battle.line, captors(left))


def captors(left: Units) -> bool:
    """Whether ``left`` (the survivors written, else every attacker) may hold a land unit:
    only land units take a territory (facts sheet section 8: "Only surviving land units
    capture a territory. Planes alone never do")."""
    for unit, _ in left.counts:
        if unit in CAPTORS:
            return True
    return False


def _outcome(
    exp: Expectation,
    space: str,
    is_sea: bool,
    result: CombatResult | None,
    walk_in: bool,
    line: int,
    captors: bool,
) -> None:
    """What a battle's result does to the board: a won sea battle clears its zone; a won
    land battle takes the territory if ``captors`` (a land unit is left to take it)."""
    won = walk_in or (
        result is not None and result.outcome in (CombatOutcome.WON, CombatOutcome.WALKED_IN)
    )
    if result is not None and result.outcome is CombatOutcome.RAIDED and result.damage:
        exp.damage[space] = result.damage
    if not won:
        return
    at = result.line if result is not None else line
    if is_sea:
        exp.cleared.add(space)
    elif captors:
        exp.captured[space] = at
    else:
        exp.air_only[space] = at


def _combat_unknown(exp: Expectation, position: Position, turn: Turn) -> None:
    """No combat moves known (``exp.loose``): each result's place holds its survivors, or
    any number when they are not written."""
    for result in turn.results:
        if result.territory is None:
            continue
        where = result.retreat_to or result.territory
        for unit, n in result.survivors.counts:
            exp.add(where, unit, n, None)
        if not result.survivors.counts:
            for unit in _MOVERS:
                exp.add(where, unit, 0, None)
        is_sea = position.board.territories[result.territory].is_sea
        taking = not result.survivors.counts or captors(result.survivors)
        _outcome(exp, result.territory, is_sea, result, False, result.line, taking)


def _non_combat(exp: Expectation, position: Position, turn: Turn) -> None:
    movement = movement_of(position, exp.power)
    for move in turn.moves:
        if move.origin is None:
            continue
        for unit, n in move.units.counts:
            exp.take(move.origin, unit, n)
            exp.add(move.destination, unit, n, n)
            exp.moves[(move.origin, unit)].append(move.line)
            exp.moves[(move.destination, unit)].append(move.line)
        boats = move.transports.count(UnitType.TRN)
        zones = [p for p in move.via if movement.is_sea(p)]
        if boats and zones:
            end = zones[-1]
            exp.take(zones[0], UnitType.TRN, boats)
            exp.add(end, UnitType.TRN, boats, boats)
            exp.moves[(zones[0], UnitType.TRN)].append(move.line)
            exp.moves[(end, UnitType.TRN)].append(move.line)
    for placement in turn.placements:
        for unit, n in placement.units.counts:
            exp.add(placement.place, unit, n, n)
            exp.placed[(placement.place, unit)].append(placement.line)


def expect(position: Position, power: Power, turn: Turn, precombat: Turn | None) -> Expectation:
    """Bounds on ``power``'s units after the post-combat orders of ``turn``, from
    ``position`` at the start of its turn and its combat moves ``precombat`` (if known)."""
    known = precombat is not None and bool(precombat.battles)
    exp = Expectation(power, position.holdings(power), loose=not known and bool(turn.results))
    if precombat is not None and precombat.battles:
        _combat_known(exp, position, precombat, turn)
    elif turn.results:
        _combat_unknown(exp, position, turn)
    _non_combat(exp, position, turn)
    _land(exp)
    return exp


def _land(exp: Expectation) -> None:
    """Planes the non-combat moves leave at their battle land where the combat move said
    ("Kar 2 FTR (land Karelia)"): a written landing is an order too."""
    for space, unit, count, place in exp.landings:
        lo, hi = exp.bounds(space, unit)
        flying = min(count, hi if hi is not None else count)
        if flying > 0 and place != space:
            exp.take(space, unit, flying)
            exp.add(place, unit, min(lo, flying), flying)
