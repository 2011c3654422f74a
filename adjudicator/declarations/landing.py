"""Aircraft: can they reach the battle, and is there a potential place to land?

IAAPA Rules Clarifications, Fighters: "A fighter may only move a total of 4 spaces on any given
turn. ... A fighter may participate in a battle provided there is a potential place to land.
This does not mean that there must be a place to land regardless of the battle outcomes. In
this context a potential landing place means that if all the attacker's battles are won without
a loss, regardless of the odds, will the fighter be able to land. If the answer is yes then the
attack is legal and will not be considered a kamikaze attack. An aircraft carrier's retreat from
a battle would also satisfy the potential landing requirement."

Ranges are 4 (FTR) and 6 (BMB), 2 more with Long Range Aircraft [SPEC; TA], spent over the
combat and non-combat moves together. A plane lands in a territory its side held at the start
of the turn (never one taken this turn) or, a fighter, on a carrier with room: two fighters a
carrier, its own side's [SPEC p.14,21; XML carrierCapacity 2]. The carriers counted are where
they could be once every battle is won without a loss: in their battle's zone, in a zone they
could retreat to, or anywhere a carrier that did not fight can reach in the non-combat move
(carriers move before fighters land [SPEC FAQ p.1]).
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.declarations.findings import VOID_SUGGESTION, Code, error_finding, warning_finding
from adjudicator.declarations.geometry import FAR, Movement, air_range
from adjudicator.declarations.plan import Plan, Sortie
from adjudicator.diagnostics import Diagnostic, Rule
from adjudicator.fastrecord import quick_init
from adjudicator.notation.model import BattleKind
from adjudicator.units import UnitType

_PLANES = frozenset({UnitType.FTR, UnitType.BMB})

SEARCH_LIMIT = 20_000
"""Steps the carrier search may take; beyond them the landing is given the benefit of the
doubt (a finding must never be a guess)."""


@quick_init
@dataclass(frozen=True)
class Flight:
    """Planes of one type from one origin line: ``spare`` moves left after the battle."""

    sortie: Sortie
    unit: UnitType
    count: int
    spare: int


@dataclass
class Carrier:
    """One carrier and where it could be when the fighters land."""

    zones: frozenset[str]
    room: int


class LandingCheck:
    """Rules on every plane of the combat move."""

    def __init__(self, plan: Plan, movement: Movement) -> None:
        self.plan = plan
        self.movement = movement
        self.position = movement.position
        self.power = plan.power
        self.geometry = movement.geometry
        self.techs = self.position.technologies_of(self.power)
        self.taken = frozenset(s.space for s in plan.sites if s.space in self.geometry.neutrals)
        self.airfields = self.position.friendly_land(self.power.alliance)
        self._nearest: dict[str, int] = {}
        self.found: list[Diagnostic] = []

    def flights(self) -> list[Flight]:
        """Every group of planes, with the moves it has left once at its battle."""
        flights = []
        counts = self.position.unit_counts(self.power)
        for sortie in self.plan.sorties:
            place = sortie.place
            if place is None or place not in self.movement.board.territories:
                continue
            raid = sortie.site.battle.kind is BattleKind.RAID
            for unit, planes in sortie.fighting.counts:  # FTR before BMB, the chart's order
                if unit not in _PLANES or (raid and unit is not UnitType.BMB):
                    continue  # a fighter on a raid: a reach finding says so
                if not counts.get((place, unit)):
                    continue  # not there: an origin finding says so
                reach = air_range(unit, self.techs)
                out = self.geometry.air(place, sortie.site.space)
                if out > reach:
                    self.found.append(
                        error_finding(
                            sortie.line,
                            Rule.FIGHTERS,
                            f"{sortie.site.name}: {planes} {unit.value} from {place} cannot reach "
                            f"the battle: {out} moves, and a {unit.value} has {reach}",
                            f"take them out of the battle; {VOID_SUGGESTION}",
                            Code.UNREACHABLE,
                            (sortie.site.number,),
                        )
                    )
                    continue
                flights.append(Flight(sortie, unit, planes, reach - out))
        return flights

    def to_land(self, flight: Flight) -> bool:
        """Whether the planes can reach a territory their side held at the start."""
        site = flight.sortie.site.space
        nearest = self._nearest.get(site)
        if nearest is None:
            table = self.geometry.landing_table(site, self.taken)
            nearest = self._nearest[site] = next(
                (d for space, d in table.items() if space in self.airfields), FAR
            )
        return nearest <= flight.spare

    def carriers(self) -> list[Carrier]:
        """Every carrier of the attacker's side, where it could be, and its free room."""
        flying: dict[str, int] = {}
        sailing: dict[str, list[str]] = {}
        for sortie in self.plan.sorties:
            if sortie.place is None:
                continue
            flying[sortie.place] = flying.get(sortie.place, 0) + sortie.fighting.count(UnitType.FTR)
            if sortie.site.is_sea:
                sailing.setdefault(sortie.place, []).extend(
                    [sortie.site.space] * sortie.fighting.count(UnitType.AC)
                )
        found: list[Carrier] = []
        alliance = self.power.alliance
        for zone in self.geometry.sea:
            per_power = self.position.units_at(zone)
            ours = [(p, u) for p, u in per_power.items() if p.alliance is alliance]
            if not any(u.count(UnitType.AC) for _, u in ours):
                continue
            aboard = sum(u.count(UnitType.FTR) for _, u in ours)
            aboard -= flying.get(zone, 0)
            for power, units in per_power.items():
                if power.alliance is not alliance:
                    continue
                battles = list(sailing.get(zone, [])) if power is self.power else []
                for _ in range(units.count(UnitType.AC)):
                    room = max(0, 2 - max(0, aboard))
                    aboard -= 2 - room
                    if power is not self.power:
                        zones = frozenset({zone})
                    elif battles:
                        zones = self._after_battle(zone, battles.pop())
                    else:
                        zones = self._after_sailing(zone)
                    found.append(Carrier(zones, room))
        return found

    def _after_battle(self, start: str, site: str) -> frozenset[str]:
        """Where a carrier attacking ``site`` from ``start`` can be: the battle's zone, or a
        zone it retreats to (one an attacking unit came from or passed through)."""
        adjacency = self.movement.board.adjacency
        origins = {s.place for s in self.plan.sorties if s.site.space == site and s.place}
        steps = self.movement.sea_steps(start)
        retreats = {
            z
            for z in adjacency[site]
            if self.movement.is_sea(z) and (z in origins or steps.get(z, 9) < steps.get(site, 9))
        }
        return frozenset({site, *retreats})

    def _after_sailing(self, start: str) -> frozenset[str]:
        """Where a carrier that does not fight can be after its non-combat move, every sea
        battle won (their zones cleared)."""
        cleared = {s.space for s in self.plan.sites if s.is_sea}
        adjacency = self.movement.board.adjacency
        seen = {start}
        frontier = [start]
        for _ in range(2):
            following = []
            for here in frontier:
                if here != start and self.movement.blocked(here) and here not in cleared:
                    continue
                for there in adjacency[here]:
                    if (
                        there not in seen
                        and self.movement.is_sea(there)
                        and not self.movement.canal_closed(here, there)
                    ):
                        seen.add(there)
                        following.append(there)
            frontier = following
        return frozenset(z for z in seen if not self.movement.blocked(z) or z in cleared)

    def run(self) -> list[Diagnostic]:
        """Every finding about the planes of the combat move."""
        flights = self.flights()
        needing: list[tuple[Flight, list[tuple[int, str]]]] = []
        carriers: list[Carrier] | None = None
        for flight in flights:
            if self.to_land(flight):
                self._stated(flight, True)
                continue
            if flight.unit is UnitType.FTR:
                carriers = self.carriers() if carriers is None else carriers
                options = [
                    (i, z)
                    for i, c in enumerate(carriers)
                    for z in sorted(c.zones)
                    if c.room
                    and self.geometry.landing(flight.sortie.site.space, z, self.taken)
                    <= flight.spare
                ]
                if options:
                    needing.append((flight, options))
                    continue
            self._none(flight)
        if needing and carriers is not None and not _assign(needing, carriers):
            battles = tuple(sorted({f.sortie.site.number for f, _ in needing}))
            total = sum(f.count for f, _ in needing)
            for flight, _ in needing:
                self.found.append(
                    error_finding(
                        flight.sortie.line,
                        Rule.FIGHTERS,
                        f"{flight.sortie.site.name}: {flight.count} FTR from {flight.sortie.place} "
                        f"can land only on a carrier, and the carriers in reach have no room for "
                        f"all {total} FTR that need one, even if every battle is won without a "
                        "loss: a kamikaze attack",
                        f"send fewer fighters or move a carrier to them; {VOID_SUGGESTION}",
                        Code.NO_LANDING_PLACE,
                        battles,
                    )
                )
        else:
            for flight, _ in needing:
                self._stated(flight, False)
        return self.found

    def _none(self, flight: Flight) -> None:
        sortie = flight.sortie
        where = "a carrier or " if flight.unit is UnitType.FTR else ""
        self.found.append(
            error_finding(
                sortie.line,
                Rule.FIGHTERS,
                f"{sortie.site.name}: {flight.count} {flight.unit.value} from {sortie.place} have "
                f"{flight.spare} moves left after the battle and no potential landing place "
                f"({where}a territory held since the start of the turn) within them, even if every "
                "battle is won without a loss: a kamikaze attack",
                f"take them out of the battle; {VOID_SUGGESTION}",
                Code.NO_LANDING_PLACE,
                (sortie.site.number,),
            )
        )

    def _stated(self, flight: Flight, on_land: bool) -> None:
        """A warning when the landing written cannot be used, though another can."""
        lands = flight.sortie.origin.lands
        if lands is None:
            return
        site = flight.sortie.site.space
        usable = (
            lands in self.airfields
            and self.geometry.landing(site, lands, self.taken) <= flight.spare
        )
        if usable or (not on_land and self.movement.is_sea(lands)):
            return
        self.found.append(
            warning_finding(
                flight.sortie.line,
                Rule.FIGHTERS,
                f"{flight.sortie.site.name}: the {flight.unit.value} cannot land in {lands} (not "
                f"held since the start of the turn, or beyond the {flight.spare} moves left), "
                "but another potential landing place exists, so the attack is legal",
                "correct the landing place in the non-combat move",
                Code.LANDING_NOT_POSSIBLE,
                (flight.sortie.site.number,),
            )
        )


def _assign(needing: list[tuple[Flight, list[tuple[int, str]]]], carriers: list[Carrier]) -> bool:
    """Whether every fighter needing a carrier gets one: each carrier ends in one zone and
    holds at most its room. A search too long to finish counts as a yes."""
    planes = [(options) for flight, options in needing for _ in range(flight.count)]
    planes.sort(key=len)
    room = [c.room for c in carriers]
    chosen: list[str | None] = [None] * len(carriers)
    steps = 0

    def place(k: int) -> bool:
        nonlocal steps
        if k == len(planes):
            return True
        steps += 1
        if steps > SEARCH_LIMIT:
            return True
        for i, zone in planes[k]:
            if room[i] == 0 or chosen[i] not in (None, zone):
                continue
            before = chosen[i]
            chosen[i], room[i] = zone, room[i] - 1
            if place(k + 1):
                return True
            chosen[i], room[i] = before, room[i] + 1
        return False

    return place(0)


def check_landing(plan: Plan, movement: Movement) -> list[Diagnostic]:
    """Every finding about the range and landing of the planes in the combat move."""
    if not any(unit in _PLANES for s in plan.sorties for unit, _ in s.fighting.counts):
        return []  # no plane flies in the combat move
    return LandingCheck(plan, movement).run()
