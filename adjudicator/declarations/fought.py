"""What the combat of a turn did to the mover's units, as its non-combat moves must respect.

IAAPA Rules Clarifications, Combat/Non-Combat Movement: "With the exception of air units (which
land during non-combat), no units may engage in both combat and non-combat during the same
turn." So every land unit and ship that attacked, a battleship that fired a support shot
[SPEC p.15,18], a transport that unloaded into an assault (Transport Unloading: "Once a
transport unloads ANY of its cargo its turn is completed") and the cargo of a loaded transport
that retreated from a sea battle (Amphibious Assaults: it "may not move nor unload cargo during
the non-combat phase") is an :class:`Engagement`: where a move may name it (its origin, the
battle, the zone it fired or unloaded from, the retreat location) and why it may not move.
Aircraft are :class:`Aloft`: in the air at their battle with the moves the combat move left.

Only a battle the results report counts as fought: "If the attacker elects not to fight the
battle, he may move the previously assigned units during non-combat", so a battle the results
say nothing of, or one a combat declaration error voids, engages nobody. Without the combat
moves (``precombat`` unknown) a reported battle still tells something: land units and ships of
the mover in its place, more than were there at the start, can only have come by combat.

What the turn took and cleared (:func:`.aftermath.expect`) and which battles are void are
worked out only when a move needs them: most moves go between spaces held all along.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass

from adjudicator.declarations.aftermath import Expectation, Key, expect, result_for
from adjudicator.declarations.combat import check_declarations, void_battles
from adjudicator.declarations.findings import Code
from adjudicator.declarations.geometry import FAR, Movement
from adjudicator.declarations.plan import Lift, Site
from adjudicator.declarations.sites import planned
from adjudicator.diagnostics import Rule
from adjudicator.fastrecord import quick_init
from adjudicator.notation.model import CombatOutcome, CombatResult, Turn
from adjudicator.position.model import CARGO
from adjudicator.units import Domain, UnitType

SEA_UNITS = (UnitType.TRN, UnitType.SUB, UnitType.AC, UnitType.BB)
AIR_UNITS = (UnitType.FTR, UnitType.BMB)
_TROOPS = (UnitType.INF, UnitType.ARM)
"""Land units that attack (AA guns never do, IAAPA AA Guns)."""
_UNLOADED = (
    "once a transport unloads any of its cargo its turn is completed and it may not move, "
    "load nor unload again later that turn"
)


@quick_init
@dataclass(frozen=True)
class Engagement:
    """Units of one type that took part in combat: ``count`` of them (None: not known), what
    they did (``what``, with the line saying so), the finding a non-combat move of them is,
    and the declared ``battle`` (None: none, or not known)."""

    count: int | None
    what: str
    code: Code
    rule: Rule
    battle: int | None = None


def unloaded(count: int, line: int) -> Engagement:
    """Transports that unloaded on ``line`` of the non-combat moves."""
    what = f"unloaded on line {line}; {_UNLOADED}"
    return Engagement(count, what, Code.TRANSPORT_MOVE, Rule.TRANSPORT_UNLOADING)


@quick_init
@dataclass(frozen=True)
class Aloft:
    """Aircraft in the air after a battle at ``site``: ``count`` (None: not known) with
    ``spent`` moves flown to it (at least that many, when the combat moves are unknown)."""

    site: str
    count: int | None
    spent: int
    battle: int | None = None
    least: bool = False
    """``spent`` is only the least the flight to the battle can have taken."""


def _named(turn: Turn) -> frozenset[Key]:
    """The spaces and unit types the non-combat moves of ``turn`` may ask about: the units
    they take from each space, and carriers where fighters may land."""
    found: set[Key] = set()
    for move in turn.moves:
        if move.origin is None:
            continue
        found.update((move.origin, unit) for unit, _ in move.units.counts)
        found.add((move.destination, UnitType.AC))
        if move.transports.counts:
            found.update((place, UnitType.TRN) for place in move.via)
    return frozenset(found)


class Combat:
    """What the turn's combat did, as the non-combat check reads it.

    ``known``: the combat moves are known (else enemy land and waters are not judged).
    ``sent`` counts units that left each space for a reported battle (a lower bound);
    ``engaged`` and ``aloft`` are keyed by the spaces a move may name them from; ``sites``
    are the places of reported battles and their retreat locations."""

    def __init__(
        self,
        movement: Movement,
        turn: Turn,
        precombat: Turn | None,
        void: Collection[int] | None = None,
        expectation: Expectation | None = None,
    ) -> None:
        self.movement = movement
        self.turn = turn
        self.precombat = precombat
        self.known = precombat is not None
        self.named = _named(turn)
        self.sent: dict[Key, int] = defaultdict(int)
        self.engaged: dict[Key, list[Engagement]] = defaultdict(list)
        self.aloft: dict[Key, list[Aloft]] = defaultdict(list)
        self.sites: frozenset[str] = frozenset()
        self.maybe_land: frozenset[str] = frozenset()
        """Land whose declared battle the results do not report: perhaps taken."""
        self.maybe_sea: frozenset[str] = frozenset()
        self.friendly = movement.position.friendly_land(movement.power.alliance)
        self._void = frozenset(void) if void is not None else None
        self._expectation = expectation

    def wants(self, spaces: Collection[str | None], unit: UnitType) -> list[str]:
        """Those of ``spaces`` a move asks about ``unit`` in."""
        named = self.named
        return [s for s in dict.fromkeys(spaces) if s is not None and (s, unit) in named]

    @functools.cached_property
    def expectation(self) -> Expectation:
        """What the orders leave (:func:`.aftermath.expect`): what was taken and cleared."""
        if self._expectation is not None:
            return self._expectation
        movement = self.movement
        return expect(movement.position, movement.power, self.turn, self.precombat)

    @functools.cached_property
    def captured(self) -> dict[str, int]:
        """Land taken this turn."""
        return dict(self.expectation.captured)

    @functools.cached_property
    def void(self) -> frozenset[int]:
        """The battles a combat declaration error voids."""
        if self._void is not None:
            return self._void
        pre = self.precombat
        if pre is None or not pre.battles:
            return frozenset()
        movement = self.movement
        found = check_declarations(pre, movement.position, power=movement.power)
        return frozenset(void_battles(found))

    @functools.cached_property
    def open_sea(self) -> frozenset[str]:
        """Zones a battle cleared this turn, or perhaps cleared."""
        return frozenset(self.expectation.cleared) | self.maybe_sea

    @functools.cached_property
    def taken(self) -> frozenset[str]:
        """Neutrals planes may fly over in the non-combat move: those taken this turn (any,
        when the combat moves are unknown)."""
        neutrals = self.movement.geometry.neutrals
        if not self.known:
            return neutrals
        return neutrals & (self.captured.keys() | self.maybe_land)

    def is_open(self, territory: str) -> bool:
        """Whether a land unit may enter ``territory`` in the non-combat move: held at the
        start of the turn, or taken (or perhaps taken) this turn."""
        return (
            territory in self.friendly or territory in self.maybe_land or territory in self.captured
        )

    def stands(self, battle: int | None) -> bool:
        """Whether what ``battle`` did stands (it is not void)."""
        return battle is None or battle not in self.void


def _ends(site: str, result: CombatResult) -> list[str]:
    """Where a battle's attackers may be after it: its place and the retreat location."""
    return [p for p in dict.fromkeys((site, result.retreat_to)) if p is not None]


class _Known:
    """The record built from the combat moves and the results."""

    def __init__(self, combat: Combat, precombat: Turn) -> None:
        self.combat = combat
        self.movement = combat.movement
        self.separate = precombat is not combat.turn
        self.plan = planned(precombat, self.movement)[2]
        self.lifts: dict[int, list[Lift]] = defaultdict(list)
        for lift in self.plan.lifts:
            self.lifts[lift.site.number].append(lift)
        self.sea_boats: dict[str, int] = defaultdict(int)
        self.land_boats: dict[str, int] = defaultdict(int)

    def at(self, line: int) -> str:
        """How a finding names a line of the combat moves."""
        return f"pre-combat line {line}" if self.separate else f"line {line}"

    def run(self) -> None:
        """Every reported battle recorded; the places whose battle is not reported noted."""
        combat = self.combat
        maybe_land: set[str] = set()
        maybe_sea: set[str] = set()
        places: set[str] = set()
        for site in self.plan.sites:
            result = result_for(site.battle, combat.turn.results, site.space)
            if result is None:
                (maybe_sea if site.is_sea else maybe_land).add(site.space)
                continue
            places.update(_ends(site.space, result))
            self._battle(site, result)
        for zone in self.sea_boats.keys() | self.land_boats.keys():
            combat.sent[(zone, UnitType.TRN)] += max(
                self.sea_boats.get(zone, 0), self.land_boats.get(zone, 0)
            )  # the same transports may fight the clearing battle and unload
        combat.sites = frozenset(places)
        combat.maybe_land = frozenset(maybe_land)
        combat.maybe_sea = frozenset(maybe_sea)

    def _engage(
        self,
        spaces: Collection[str | None],
        unit: UnitType,
        n: int,
        what: str,
        code: Code,
        rule: Rule,
        battle: int,
    ) -> None:
        """An :class:`Engagement` recorded where a move may name it."""
        wanted = self.combat.wants(spaces, unit)
        if wanted:
            engagement = Engagement(n, what, code, rule, battle)
            for space in wanted:
                self.combat.engaged[(space, unit)].append(engagement)

    def _battle(self, site: Site, result: CombatResult) -> None:
        combat = self.combat
        ends = _ends(site.space, result)
        retreated = result.outcome is CombatOutcome.RETREATED
        lifts = self.lifts.get(site.number, [])
        support = next((lf.unload for lf in lifts if lf.unload is not None), None)
        name, number = site.name, site.number
        for sortie in (s for s in self.plan.sorties if s.site is site):
            place = sortie.place
            if place is None or place not in self.movement.board.territories:
                continue
            at = self.at(sortie.line)
            for unit, n in sortie.origin.units.counts:
                if unit is UnitType.TRN and site.is_sea:
                    self.sea_boats[place] += n
                else:
                    combat.sent[(place, unit)] += n
                if unit.stats.domain is Domain.AIR:
                    spent = self.movement.geometry.air(place, site.space)
                    for end in combat.wants(ends, unit) if spent < FAR else ():
                        combat.aloft[(end, unit)].append(Aloft(site.space, n, spent, number))
                elif unit.stats.domain is Domain.SEA and not site.is_sea:
                    what = f"fired a support shot in {name} ({at})"
                    code, rule = Code.MOVED_AFTER_COMBAT, Rule.NON_COMBAT
                    self._engage((place, support), unit, n, what, code, rule, number)
                elif unit in CARGO and site.is_sea:
                    self._aboard((place, *ends), unit, n, name, at, retreated, number)
                else:
                    what = f"attacked in {name} ({at})"
                    code, rule = Code.MOVED_AFTER_COMBAT, Rule.NON_COMBAT
                    self._engage((place, *ends), unit, n, what, code, rule, number)
        for lift in lifts:
            self._lift(lift, ends, retreated)

    def _aboard(
        self,
        spaces: Collection[str],
        unit: UnitType,
        n: int,
        name: str,
        at: str,
        retreated: bool,
        number: int,
    ) -> None:
        """Cargo (or transports) aboard in a sea battle: moved in the combat move."""
        if retreated:
            what = (
                f"is aboard loaded transports that retreated from {name} ({at}); loaded "
                "transports that retreat from the sea zone battle may not move nor unload "
                "cargo during the non-combat phase"
            )
            self._engage(spaces, unit, n, what, Code.TRANSPORT_MOVE, Rule.AMPHIBIOUS, number)
            return
        what = f"was carried into {name} ({at})" if unit in CARGO else f"attacked in {name} ({at})"
        self._engage(spaces, unit, n, what, Code.MOVED_AFTER_COMBAT, Rule.NON_COMBAT, number)

    def _lift(self, lift: Lift, ends: list[str], retreated: bool) -> None:
        if lift.zone is None:
            return
        name, at, number = lift.site.name, self.at(lift.line), lift.site.number
        if lift.site.is_sea:
            self.sea_boats[lift.zone] += lift.count
            self._aboard((lift.zone, *ends), UnitType.TRN, lift.count, name, at, retreated, number)
            return
        self.land_boats[lift.zone] += lift.count
        what = f"unloaded into {name} ({at}); {_UNLOADED}"
        code, rule = Code.TRANSPORT_MOVE, Rule.TRANSPORT_UNLOADING
        self._engage((lift.zone, lift.unload), UnitType.TRN, lift.count, what, code, rule, number)


def _unknown(combat: Combat) -> None:
    """No combat moves: each reported battle's place (and retreat location) holds what
    combat brought there, as many as survived when written."""
    movement = combat.movement
    position, power = movement.position, movement.power
    places: set[str] = set()
    for result in combat.turn.results:
        space = result.territory
        if space is None or space not in movement.board.territories:
            continue
        is_sea = movement.is_sea(space)
        if not is_sea and position.is_friendly(space, power):
            continue
        ends = _ends(space, result)
        places.update(ends)
        left = result.survivors
        for unit in SEA_UNITS if is_sea else _TROOPS:
            count = left.count(unit) if left.counts else None
            for end in combat.wants(ends, unit) if count != 0 else ():
                what = f"came there by combat (the result on line {result.line})"
                item = Engagement(count, what, Code.MOVED_AFTER_COMBAT, Rule.NON_COMBAT)
                combat.engaged[(end, unit)].append(item)
        for unit in AIR_UNITS:
            count = left.count(unit) if left.counts else None
            wanted = combat.wants(ends, unit) if count != 0 else []
            if not wanted:
                continue
            spent = min(
                (
                    movement.geometry.air(start, space)
                    for start, _ in position.places_with(power, unit)
                ),
                default=FAR,
            )
            for end in wanted if spent < FAR else ():
                combat.aloft[(end, unit)].append(Aloft(space, count, spent, least=True))
    combat.sites = frozenset(places)


def record(
    movement: Movement,
    turn: Turn,
    precombat: Turn | None,
    void: Collection[int] | None = None,
    expectation: Expectation | None = None,
) -> Combat:
    """What the combat of ``turn`` did to ``movement``'s power: from ``precombat`` (its
    combat moves) when known, else from the results alone."""
    combat = Combat(movement, turn, precombat, void, expectation)
    if precombat is None:
        _unknown(combat)
    elif precombat.battles:
        _Known(combat, precombat).run()
    return combat
