"""The non-combat moves of a post-combat turn, checked against the board and the turn's combat.

IAAPA Post Combat Orders list "his non-combat moves"; Error Correction VII counts
"non-combat errors" among the errors it applies to, so each finding here is an error, and
none voids a battle (the battles were fought before these moves were made). Each move is
read once, in the order written, against what the combat did (:mod:`.fought`):

1. IAAPA Combat/Non-Combat Movement: "With the exception of air units (which land during
   non-combat), no units may engage in both combat and non-combat during the same turn."
   Units are counted: a space may hold more of a type than fought there, so only a move of
   more than the units that did not fight names a unit that did.
2. How far: INF and AA guns 1, ARM 2, ships 2 sea zones [facts sheet 0], never into or
   through land an enemy or a neutral holds, nor a sea zone holding enemy units ("Land and
   sea units may not enter any territory controlled by an enemy or neutral, or any sea zone
   containing an enemy or neutral unit", TripleA rule book, Non-Combat Movement); land taken
   this turn may be entered. Canals "may be used if and only if you or your allies own the
   territory or territories controlling the canal at the beginning of your turn" (IAAPA
   Canals).
3. Aircraft (:mod:`.flights`): "A fighter may only move a total of 4 spaces on any given
   turn" (IAAPA Fighters; bombers 6, 2 more each with Long Range Aircraft), never over a
   neutral in non-combat (facts sheet 8); they land where their side held land at the start
   of the turn, or fighters on a carrier with room.
4. IAAPA Transport Unloading: "Once a transport unloads ANY of its cargo its turn is completed
   and it may not move, load nor unload again later that turn"; "Transports may unload into
   one or two friendly land territories during non-combat provided both are adjacent to the
   sea zone containing the transport"; a transport holds 2 INF, 1 ARM or 1 AA gun [W12].
5. IAAPA AA Guns: "You may move an AA Gun into but not out of a newly captured territory."

A finding must never be a guess: when the combat moves are unknown, enemy land and waters
are not judged (any of them may have been taken or cleared), and a move naming more units
than are there is a finding only when the units it must then name took part in combat.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Collection, Mapping

from adjudicator.declarations.aftermath import Expectation, Key
from adjudicator.declarations.findings import BY_LINE, Code, error_finding
from adjudicator.declarations.flights import FAR_SUGGESTION, LANDING_SUGGESTION, Flights
from adjudicator.declarations.fought import (
    AIR_UNITS,
    SEA_UNITS,
    Combat,
    Engagement,
    record,
    unloaded,
)
from adjudicator.declarations.geometry import SHIP_MOVES, movement_of
from adjudicator.declarations.routes import (
    NO_ZONES,
    held,
    land_route,
    sails,
    sea_route,
    sea_steps,
)
from adjudicator.diagnostics import Diagnostic, Rule
from adjudicator.notation.model import Move, Turn
from adjudicator.position.model import CARGO, Position, cargo_slots
from adjudicator.powers import Alliance, Power
from adjudicator.units import Units, UnitType

_LAND = tuple(CARGO)
"""Land units that move (complexes never do)."""

SUGGESTIONS = {
    Code.MOVED_AFTER_COMBAT: "take the move out: land units and ships that took part in combat "
    "stay where the combat left them (only aircraft move, to land)",
    Code.TRANSPORT_MOVE: "take the move out, or use transports that neither fought nor unloaded "
    "this turn, with room for the cargo (2 INF, or 1 ARM, or 1 AA gun each)",
    Code.MOVE_TOO_FAR: "correct the move: no unit goes farther than its movement (INF and AA "
    "1, ARM 2, ships 2 sea zones)",
    Code.LANDING_ILLEGAL: LANDING_SUGGESTION,
    Code.MOVE_THROUGH_ENEMY: "move only through friendly land and sea zones without enemy "
    "units; no non-combat move enters or flies over a neutral",
    Code.AA_OUT_OF_CAPTURED: "leave the AA gun in the territory captured this turn",
    Code.NOT_AT_ORIGIN: "move only units that stood there when the turn began and took no part "
    "in combat: correct the units or the place they move from",
}
_COMBAT_RULE = (
    "with the exception of air units (which land during non-combat), no units may engage in "
    "both combat and non-combat during the same turn"
)


class _Report:
    """The findings about one move: its parts grouped by code, one finding a code."""

    def __init__(self, move: Move) -> None:
        self.move = move
        self.parts: dict[Code, list[tuple[tuple[Rule, ...], str]]] = {}
        self.fought: dict[tuple[str, str, Code, Rule], list[str]] = {}

    def __bool__(self) -> bool:
        return bool(self.parts or self.fought)

    def add(self, code: Code, rules: tuple[Rule, ...], text: str) -> None:
        """``text`` about the move, breaking ``rules`` (an IAAPA one first)."""
        self.parts.setdefault(code, []).append((rules, text))

    def engaged(self, space: str, item: Engagement, units: str) -> None:
        """``units`` from ``space`` took part in combat (``item``): said once for all the
        units one engagement names."""
        self.fought.setdefault((space, item.what, item.code, item.rule), []).append(units)

    def findings(self, suggestions: dict[Code, str]) -> list[Diagnostic]:
        for (space, what, code, rule), units in self.fought.items():
            self.add(code, (rule,), f"{', '.join(units)} from {space} {what}")
        found = []
        for code, parts in self.parts.items():
            rules = list(dict.fromkeys(rule for group, _ in parts for rule in group))
            text = "; ".join(text for _, text in parts)
            if code is Code.MOVED_AFTER_COMBAT:
                text += f": {_COMBAT_RULE}"
            found.append(
                error_finding(
                    self.move.line,
                    rules[0],
                    text,
                    suggestions[code],
                    code,
                    also=tuple(rules[1:]),
                )
            )
        return found


class _Idle:
    """Units that did not fight in each space, as the moves so far leave them: kept apart
    from :class:`NonCombatCheck`, so that the flights, which draw on them too, hold no
    reference back to the check (a cycle only the garbage collector would free)."""

    def __init__(self, start: Mapping[Key, int], sent: Mapping[Key, int]) -> None:
        self.start = start
        self.sent = sent
        self.pool: dict[Key, int] = {}

    def idle(self, space: str, unit: UnitType) -> int:
        """Units of ``unit`` in ``space`` that did not fight (at most that many)."""
        key = (space, unit)
        have = self.pool.get(key)
        if have is None:
            have = self.pool[key] = max(0, self.start.get(key, 0) - self.sent.get(key, 0))
        return have

    def use(self, space: str, unit: UnitType, n: int) -> int:
        """``n`` ``unit`` leave ``space``: how many of them did not fight."""
        idle = self.idle(space, unit)
        used = min(n, idle)
        self.pool[(space, unit)] = idle - used
        return used

    def arrive(self, space: str, unit: UnitType, n: int) -> None:
        """``n`` ``unit`` come to ``space`` by a move: they did not fight."""
        self.pool[(space, unit)] = self.idle(space, unit) + n


class NonCombatCheck:
    """Every non-combat move of one post-combat turn, in the order written."""

    def __init__(self, position: Position, power: Power, turn: Turn, combat: Combat) -> None:
        self.position = position
        self.power = power
        self.turn = turn
        self.combat = combat
        self.movement = movement_of(position, power)
        self.board = position.board
        self.start = position.unit_counts(power)
        self.pools = _Idle(self.start, combat.sent)
        self.named_fought: dict[Key, int] = defaultdict(int)
        """Units that fought already named by a move, from each space."""
        self.moved_out: dict[Key, int] = defaultdict(int)
        """Land units and ships the moves so far took out of each space."""
        self.found: list[Diagnostic] = []
        self.flights = Flights(position, power, turn, combat, self.pools)

    @functools.cached_property
    def blocked(self) -> frozenset[str]:
        """Zones holding enemy units no battle cleared (none, when battles are unknown)."""
        if not self.combat.known:
            return NO_ZONES
        power = self.power
        enemy = Alliance.AXIS if power.alliance is Alliance.ALLIES else Alliance.ALLIES
        return frozenset(
            z
            for z in self.position.occupied(enemy)
            if self.movement.is_sea(z) and z not in self.combat.open_sea
        )

    # --- units that fought ----------------------------------------------------------------

    def take(self, space: str, unit: UnitType, n: int) -> tuple[int, Engagement | None]:
        """``n`` ``unit`` leave ``space``, those that did not fight first: how many of the
        rest took part in combat (at least), and what they did."""
        excess = n - self.pools.use(space, unit, n)
        items = self.combat.engaged.get((space, unit)) if excess else None
        if items:
            items = [i for i in items if self.combat.stands(i.battle)]
        if not items:
            return 0, None
        known = [i.count for i in items]
        if None in known:
            count = excess
        else:
            count = min(excess, sum(c or 0 for c in known) - self.named_fought[(space, unit)])
        if count <= 0:
            return 0, None
        self.named_fought[(space, unit)] += count
        return count, items[0]

    def _there(self, space: str, unit: UnitType, n: int) -> list[str]:
        """``n`` land units or ships leave ``space``: what is wrong if the turn began with
        fewer there, in a place no combat touched (those that came in combat may not move
        again, and that is said of them; aircraft, which land now, are weighed by their
        flights)."""
        key = (space, unit)
        before = self.moved_out[key]
        self.moved_out[key] = before + n
        have = self.start.get(key, 0)
        combat = self.combat
        if not before + n > have >= before or space in combat.sites:
            return []
        if space in combat.maybe_land or space in combat.maybe_sea:
            return []
        return [
            f"{before + n} {unit.value} moved from {space}, where the turn began with "
            f"{have or 'none'}"
        ]

    def _engaged(self, report: _Report, space: str, unit: UnitType, n: int) -> None:
        count, item = self.take(space, unit, n)
        if item is None:
            return
        report.engaged(space, item, f"{count} {unit.value}")

    # --- one move -------------------------------------------------------------------------

    def check(self, index: int, move: Move) -> None:
        """Every finding about ``move``, the ``index``-th of the turn."""
        origin, destination = move.origin, move.destination
        territories = self.board.territories
        if origin is None or origin not in territories or destination not in territories:
            return
        report = _Report(move)
        self.flights.note(move)
        land: list[tuple[UnitType, int]] = []
        ships: list[tuple[UnitType, int]] = []
        planes: list[tuple[UnitType, int]] = []
        missing: list[str] = []
        for pair in move.units.counts:
            unit = pair[0]
            if unit in AIR_UNITS:
                planes.append(pair)
                continue
            missing.extend(self._there(origin, unit, pair[1]))
            self._engaged(report, origin, unit, pair[1])
            (ships if unit in SEA_UNITS else land if unit in _LAND else []).append(pair)
        boats = move.transports.count(UnitType.TRN)
        zones = [p for p in move.via if p in territories and territories[p].is_sea]
        if boats and zones:
            self._engaged(report, zones[0], UnitType.TRN, boats)
        guns = move.units.count(UnitType.AA)
        if guns and origin in self.combat.captured:
            report.add(
                Code.AA_OUT_OF_CAPTURED,
                (Rule.AA_GUN_MOVES,),
                f"{guns} AA moved out of {origin}, captured this turn: you may move an AA gun "
                "into but not out of a newly captured territory",
            )
        at_sea = territories[origin].is_sea
        to_sea = territories[destination].is_sea
        if land and zones:  # "on UK SZ" with no TRN written: transports implied
            self._by_sea(report, move, Units(tuple(land)), boats, zones)
        elif land and at_sea and not to_sea:
            self._unload(report, move, Units(tuple(land)))
        elif land and not at_sea and not to_sea:
            self._overland(report, move, Units(tuple(land)))
        if ships and at_sea and to_sea and origin != destination:
            self._sail(report, str(Units(tuple(ships))), origin, destination)
        if planes:
            self.flights.fly(report, index, move, planes)
        for unit, n in move.units.counts:
            self.pools.arrive(destination, unit, n)
        if boats and zones and to_sea:
            self.pools.arrive(destination, UnitType.TRN, boats)
        if missing and not report:  # said only when nothing else explains the units
            report.add(Code.NOT_AT_ORIGIN, (Rule.POST_COMBAT,), "; ".join(missing))
        if report:
            self.found.extend(report.findings(self._suggestions(bool(planes))))

    @staticmethod
    def _suggestions(planes: bool) -> dict[Code, str]:
        if planes:
            return SUGGESTIONS | {Code.MOVE_TOO_FAR: FAR_SUGGESTION}
        return SUGGESTIONS

    def _overland(self, report: _Report, move: Move, land: Units) -> None:
        """Land units over land: their movement, through land open to them."""
        assert move.origin is not None
        via = [p for p in move.via if p in self.board.territories]
        is_open = self.combat.is_open if self.combat.known else None
        for code, rules, text in land_route(
            self.movement, land, move.origin, move.destination, via, is_open
        ):
            if code is Code.MOVE_TOO_FAR and self._voyage(move.origin, move.destination):
                continue  # transports not written may carry them: no finding on a guess
            report.add(code, rules, text)

    def _voyage(self, origin: str, destination: str) -> bool:
        """Whether transports could carry land units from ``origin`` to ``destination``."""
        coast = self.movement.coast
        return any(self._sails(start, end) for start in coast(origin) for end in coast(destination))

    def _near(self, start: str, end: str) -> bool:
        """Whether a ship surely makes the move: within two zones that held no enemy at the
        start (the combat checks' table), into a zone that held none either."""
        movement = self.movement
        return movement.sea_distance(start, end) <= SHIP_MOVES and not movement.blocked(end)

    def _sails(self, start: str, end: str) -> bool:
        """Whether a ship may make the non-combat move from ``start`` to ``end``."""
        return self._near(start, end) or sails(self.movement, start, end, self.blocked)

    def _sail(self, report: _Report, what: str, start: str, end: str) -> None:
        if self._near(start, end):
            return
        problem = sea_route(self.movement, what, start, end, self.blocked)
        if problem is not None:
            report.add(*problem)

    def _by_sea(
        self, report: _Report, move: Move, land: Units, boats: int, zones: list[str]
    ) -> None:
        """Land units carried by transports: room, boarding, the voyage and the landing."""
        assert move.origin is not None
        origin, destination = move.origin, move.destination
        need = cargo_slots(land)
        if boats and need > boats:
            report.add(
                Code.TRANSPORT_MOVE,
                (Rule.TRANSPORT_UNLOADING,),
                f"{land} need {need} TRN, but the move lists {boats}: a transport holds 2 INF, "
                "or 1 ARM, or 1 AA gun",
            )
        coast = self.movement.coast
        if not self.board.territories[origin].is_sea and not coast(origin) & set(zones):
            report.add(
                Code.TRANSPORT_MOVE,
                (Rule.TRANSPORT_UNLOADING,),
                f"{land} in {origin} cannot board transports in {', '.join(zones)}: no zone of "
                f"their voyage touches {origin}",
            )
        boats = boats or need
        what = f"the {boats} TRN carrying {land}"
        if self.board.territories[destination].is_sea:
            self._sail(report, what, zones[0], destination)
            return
        end: str | None = zones[-1]
        if destination in self.board.adjacency[zones[-1]]:
            self._sail(report, what, zones[0], zones[-1])
        else:
            end = self._unloading_zone(report, what, zones[0], destination)
        self._landfall(report, land, end, destination, move.line, boats)

    def _unloading_zone(
        self, report: _Report, what: str, start: str, destination: str
    ) -> str | None:
        """The zone transports from ``start`` unload into ``destination`` from, when the move
        names none touching it: the one they can reach (None: several, or none, and then a
        finding says why)."""
        shore = sorted(self.movement.coast(destination))
        reached = [z for z in shore if self._sails(start, z)]
        if len(reached) == 1:
            return reached[0]
        if reached:
            return None
        if not shore:
            report.add(
                Code.TRANSPORT_MOVE,
                (Rule.TRANSPORT_UNLOADING,),
                f"{what} cannot unload into {destination}: it touches no sea zone",
            )
            return None
        nearest = min(
            shore, key=lambda z: sea_steps(self.movement, start, z, canals=False, blocked=NO_ZONES)
        )
        self._sail(report, f"{what} to unload into {destination}", start, nearest)
        return None

    def _unload(self, report: _Report, move: Move, land: Units) -> None:
        """Cargo at sea put ashore: the transports there have unloaded."""
        assert move.origin is not None
        zone, destination = move.origin, move.destination
        boats = cargo_slots(land)
        end: str | None = zone
        if destination in self.board.adjacency[zone]:
            self.pools.use(zone, UnitType.TRN, boats)
        else:  # the transports may sail first, unwritten: only a voyage none can make is wrong
            what = f"the transports carrying {land} from {zone}"
            end = self._unloading_zone(report, what, zone, destination)
        self._landfall(report, land, end, destination, move.line, boats)

    def _landfall(
        self,
        report: _Report,
        land: Units,
        zone: str | None,
        destination: str,
        line: int,
        boats: int,
    ) -> None:
        """Transports unload ``land`` into ``destination`` (from ``zone``, when it is known):
        friendly land only; their turn is then completed."""
        if self.combat.known and not self.combat.is_open(destination):
            report.add(
                Code.MOVE_THROUGH_ENEMY,
                (Rule.TRANSPORT_UNLOADING,),
                f"{land} unloaded into {destination}: {held(self.movement, destination)}; "
                "transports may unload only into friendly land territories during non-combat",
            )
        if zone is not None:
            self.combat.engaged[(zone, UnitType.TRN)].append(unloaded(boats, line))

    def run(self) -> list[Diagnostic]:
        """Every finding about the turn's non-combat moves."""
        for index, move in enumerate(self.turn.moves):
            self.check(index, move)
        self.found.extend(self.flights.carriers())
        return sorted(self.found, key=BY_LINE)


def check_non_combat(
    position: Position,
    power: Power,
    turn: Turn,
    precombat: Turn | None,
    *,
    void: Collection[int] | None = None,
    expectation: Expectation | None = None,
) -> list[Diagnostic]:
    """Every error in ``turn``'s non-combat moves, ``power``'s, from ``position`` (the start of
    its turn), with ``precombat`` the same turn's combat moves when known (the same Turn when
    one email holds the whole turn). ``void`` are the battles a combat declaration error
    voids and ``expectation`` what the orders leave (:func:`.aftermath.expect`), when the
    caller has them (else they are worked out, if a move needs them)."""
    if not turn.moves:
        return []
    movement = movement_of(position, power)
    combat = record(movement, turn, precombat, void, expectation)
    return NonCombatCheck(position, power, turn, combat).run()
