"""How far units can go: flights over the whole board, ships through sea zones, land moves.

Flight distances depend only on the board and are computed once per board and start (a
breadth-first search over 128 spaces); sea and land moves depend on the position (enemy
units block ships and stop tanks; canals open only to their owners' side) and are searched
per check, never more than two steps deep.

- Air: any space but impassable land. In the combat move a plane may fly over a neutral
  (IAAPA Neutral Territories: "An air unit may fly over a neutral territory, capture it, and
  then continue on to another battle"); landing flights in the non-combat move may not [SPEC
  p.8,13; facts sheet section 8], except over a neutral taken this turn.
- Ships: sea zone to sea zone, never through a zone holding enemy units (it must stop there
  to fight) [facts sheet: enemy subs and transports block ships]; between the two zones of a
  canal only if the attacker's side held every territory of the canal at the start of the turn
  (IAAPA Rules Clarifications, Canals).
- Land: INF one territory; ARM two, passing through a friendly territory or blitzing an
  enemy one with no units but AA guns and complexes (which never fight [SPEC p.13,20]), never
  through a neutral (land units must stop there [SPEC p.8,17]).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from adjudicator.boards import Board
from adjudicator.position.model import Position
from adjudicator.powers import Power
from adjudicator.units import Domain, Technology, UnitType, unit_profile

FAR = 1_000
"""A distance longer than any move: unreachable."""

NEVER_FIGHT = frozenset({UnitType.AA, UnitType.IC})
"""Units that never fight: an enemy territory holding only these may be blitzed."""

SHIP_MOVES = 2
"""Every Classic ship moves 2 [XML; SPEC p.9]."""


class Geometry:
    """Flight distances on one board, computed lazily and kept."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.sea = frozenset(t.name for t in board.sea)
        self.neutrals = frozenset(t.name for t in board.neutrals)
        self._open = frozenset(n for n, t in board.territories.items() if not t.impassable)
        self._air: dict[str, dict[str, int]] = {}
        self._landing: dict[tuple[str, frozenset[str]], dict[str, int]] = {}

    def _search(self, start: str, through: frozenset[str]) -> dict[str, int]:
        """Distances from ``start`` to every space, passing only ``through`` spaces (the end
        of a flight may be any open space)."""
        adjacency = self.board.adjacency
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if here != start and here not in through:
                continue
            step = seen[here] + 1
            for there in adjacency[here]:
                if there not in seen and there in self._open:
                    seen[there] = step
                    queue.append(there)
        return seen

    def air(self, start: str, end: str) -> int:
        """Moves a plane needs from ``start`` to ``end`` in the combat move."""
        table = self._air.get(start)
        if table is None:
            table = self._air[start] = self._search(start, self._open)
        return table.get(end, FAR)

    def landing_table(self, start: str, taken: frozenset[str] = frozenset()) -> dict[str, int]:
        """Moves a plane needs from ``start`` to every space in the non-combat move, nearest
        first: not over a neutral, unless it is one of the neutrals ``taken`` this turn."""
        key = (start, taken & self.neutrals if taken else taken)
        table = self._landing.get(key)
        if table is None:
            through = (self._open - self.neutrals) | key[1]
            table = self._landing[key] = self._search(start, through)
        return table

    def landing(self, start: str, end: str, taken: frozenset[str] = frozenset()) -> int:
        """Moves a plane needs from ``start`` to ``end`` in the non-combat move."""
        return self.landing_table(start, taken).get(end, FAR)


_GEOMETRIES: dict[int, tuple[Board, Geometry]] = {}


def geometry(board: Board) -> Geometry:
    """The (shared) geometry of ``board``."""
    kept = _GEOMETRIES.get(id(board))
    if kept is None or kept[0] is not board:
        kept = _GEOMETRIES[id(board)] = (board, Geometry(board))
    return kept[1]


def movement_of(position: Position, power: Power) -> Movement:
    """The (shared) :class:`Movement` of ``power`` in ``position``: positions are immutable,
    so what one check learns about them serves the next."""
    cache = position.memo()
    key = ("movement", power)
    found = cache.get(key)
    if not isinstance(found, Movement):
        found = cache[key] = Movement(position, power)
    return found


class Movement:
    """Where ``power``'s units can move at the start of its turn in ``position``."""

    def __init__(self, position: Position, power: Power) -> None:
        self.position = position
        self.power = power
        self.board = position.board
        self.geometry = geometry(position.board)
        self._closed_canals = frozenset(
            frozenset(c.sea_zones)
            for c in self.board.canals
            if not all(position.is_friendly(t, power) for t in c.land_territories)
        )
        self._sea: dict[str, dict[str, int]] = {}
        self.is_sea: Callable[[str], bool] = self.geometry.sea.__contains__
        """Whether a space is a sea zone (the set's own test: the checks ask it of every
        origin, battle and step)."""
        self.last_plan: tuple[tuple[object, ...], Any] | None = None
        """The battles of the last turn planned for this movement, with what
        :func:`~.sites.planned` made of them."""

    def blocked(self, zone: str) -> bool:
        """Whether enemy units in sea ``zone`` stop a ship entering it."""
        return self.position.has_enemy(zone, self.power)

    def canal_closed(self, a: str, b: str) -> bool:
        """Whether the move between sea zones ``a`` and ``b`` is a canal the attacker's side
        did not hold at the start of the turn."""
        return bool(self._closed_canals) and frozenset((a, b)) in self._closed_canals

    def sea_steps(self, start: str) -> Mapping[str, int]:
        """Sea zones a ship in ``start`` reaches in the combat move, with the moves taken.

        A zone holding enemy units ends the move (the ship stops there to fight)."""
        found = self._sea.get(start)
        if found is None:
            found = self._sea[start] = self.sail(start)
        return found

    def sail(
        self,
        start: str,
        *,
        avoid: frozenset[str] = frozenset(),
        stops: bool = True,
        canals: bool = True,
    ) -> dict[str, int]:
        """Sea zones a ship in ``start`` reaches in at most :data:`SHIP_MOVES` moves, with the
        moves taken, entering no zone of ``avoid``; with ``stops``, a zone holding enemy units
        ends the move (the combat move), and with ``canals``, only the canals its side held at
        the start of the turn are open."""
        adjacency = self.board.adjacency
        sea = self.geometry.sea
        found = {start: 0}
        frontier = [start]
        for step in range(1, SHIP_MOVES + 1):
            following = []
            for here in frontier:
                if stops and step > 1 and self.blocked(here):
                    continue
                for there in adjacency[here]:
                    if (
                        there in found
                        or there not in sea
                        or there in avoid
                        or (canals and self.canal_closed(here, there))
                    ):
                        continue
                    found[there] = step
                    following.append(there)
            frontier = following
        return found

    def sea_distance(self, start: str, end: str) -> int:
        """Moves a ship needs from ``start`` to ``end`` (FAR beyond two)."""
        return self.sea_steps(start).get(end, FAR)

    def blitzable(self, territory: str) -> bool:
        """Whether an ARM may pass through land ``territory`` on its way to a battle."""
        t = self.board.territories[territory]
        if t.is_sea or t.impassable:
            return False
        if self.position.is_friendly(territory, self.power):
            return True
        if self.position.owner(territory) is None:
            return False  # a neutral: land units must stop there
        enemy = self.position.enemy_units(territory, self.power)
        return all(unit in NEVER_FIGHT for unit, _ in enemy.counts)

    def land_distance(self, start: str, end: str, moves: int) -> int:
        """Moves a land unit with ``moves`` needs from land ``start`` to land ``end``."""
        adjacency = self.board.adjacency
        territories = self.board.territories
        if territories[end].is_sea or territories[end].impassable:
            return FAR
        if end in adjacency[start]:
            return 1
        if moves < 2:
            return FAR
        for middle in adjacency[start]:
            if end in adjacency[middle] and self.blitzable(middle):
                return 2
        return FAR

    def coast(self, territory: str) -> frozenset[str]:
        """The sea zones touching land ``territory``."""
        return frozenset(n for n in self.board.adjacency[territory] if n in self.geometry.sea)


def air_range(unit: UnitType, technologies: Iterable[Technology]) -> int:
    """Moves a FTR or BMB has this turn: 4 and 6, two more with Long Range Aircraft (IAAPA
    Fighters: "A fighter may only move a total of 4 spaces on any given turn")."""
    return unit_profile(unit, technologies).movement


_AIR = frozenset(u for u in UnitType if u.stats.domain is Domain.AIR)
_SEA = frozenset(u for u in UnitType if u.stats.domain is Domain.SEA)


def can_reach(movement: Movement, unit: UnitType, origin: str, site: str) -> bool:
    """Whether ``unit`` at ``origin`` could reach a battle in ``site`` on its own (no
    transport, no thought of landing): what makes a reading of the orders possible."""
    if unit in _AIR:
        techs = movement.position.technologies_of(movement.power)
        return movement.geometry.air(origin, site) <= air_range(unit, techs)
    if unit in _SEA:
        return (
            movement.is_sea(origin)
            and movement.is_sea(site)
            and movement.sea_distance(origin, site) <= SHIP_MOVES
        )
    if unit in NEVER_FIGHT or movement.is_sea(origin) or movement.is_sea(site):
        return False
    moves = unit.stats.movement
    return movement.land_distance(origin, site, moves) <= moves
