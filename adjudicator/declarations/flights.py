"""Aircraft in the non-combat move: the range the combat move left them, and where they land.

IAAPA Rules Clarifications, Fighters: "A fighter may only move a total of 4 spaces on any given
turn" (a bomber 6, two more each with Long Range Aircraft [SPEC; TA]), so planes that fought
fly on from their battle with what the flight to it left; planes that did not fight have their
whole range. In non-combat they may not fly over a neutral (facts sheet 8) unless it was taken
this turn. They land "in a territory that was friendly at the start of your turn, never one
captured this turn, or a carrier with room" (facts sheet 4 [SPEC p.14,21]): two fighters a
carrier, and "Carriers make their non-combat moves before fighters land" [SPEC FAQ p.1], so the
carriers counted in a zone are those every move leaves there.

A move of planes from a battle's place ("W Europe 2 FTR to UK") takes first any that did not
fight, then those in the air there, the nearest first (the reading most favourable to the
player); planes a move names from their combat origin are given their whole range, their
flight to the battle not being certain.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Protocol

from adjudicator.declarations.aftermath import Key
from adjudicator.declarations.findings import Code, error_finding
from adjudicator.declarations.fought import AIR_UNITS, Aloft, Combat
from adjudicator.declarations.geometry import FAR, air_range, geometry
from adjudicator.diagnostics import Diagnostic, Rule
from adjudicator.notation.model import Move, Turn
from adjudicator.position.model import Position
from adjudicator.position.serialize import POWER_NAMES
from adjudicator.powers import Power
from adjudicator.units import UnitType

LANDING_SUGGESTION = (
    "land the aircraft in a territory held since the start of the turn within their range, "
    "or a fighter on a carrier with room"
)
FAR_SUGGESTION = (
    "correct the move: aircraft fly at most their range (FTR 4, BMB 6, 2 more with Long Range "
    "Aircraft) over the combat and non-combat moves together"
)


class Notes(Protocol):
    """Where the findings about one move are gathered."""

    def add(self, code: Code, rules: tuple[Rule, ...], text: str) -> None: ...


class Pools(Protocol):
    """The units that did not fight, as the moves so far leave them."""

    def use(self, space: str, unit: UnitType, n: int) -> int: ...


class Flights:
    """The aircraft of one turn's non-combat moves."""

    def __init__(
        self, position: Position, power: Power, turn: Turn, combat: Combat, pools: Pools
    ) -> None:
        self.position = position
        self.power = power
        self.combat = combat
        self.pools = pools
        self.geometry = geometry(position.board)
        self.techs = position.technologies_of(power)
        self.friendly = position.friendly_land(power.alliance)
        self.start = position.unit_counts(power)
        self.last_leave: dict[Key, int] = {}
        """The last move taking planes out of each space, by index."""
        for index, move in enumerate(turn.moves):
            origin = move.origin
            if origin is None:
                continue
            for unit, _ in move.units.counts:
                if unit in AIR_UNITS:
                    self.last_leave[(origin, unit)] = index
        self.aloft_used: dict[tuple[Key, int], int] = defaultdict(int)
        self.at_sea: dict[str, list[tuple[int, int]]] = defaultdict(list)
        """Fighters landing in each sea zone: (line, count)."""
        self.carriers_in: dict[str, int] = defaultdict(int)
        self.carriers_out: dict[str, int] = defaultdict(int)
        self.fighters_out: dict[str, int] = defaultdict(int)

    def note(self, move: Move) -> None:
        """Carriers and fighters a move takes in and out of sea zones."""
        if move.origin is None:
            return
        carriers = move.units.count(UnitType.AC)
        if carriers:
            self.carriers_in[move.destination] += carriers
            self.carriers_out[move.origin] += carriers
        self.fighters_out[move.origin] += move.units.count(UnitType.FTR)

    def fly(self, notes: Notes, index: int, move: Move, planes: list[tuple[UnitType, int]]) -> None:
        """The range and the landing of the planes of ``move`` (``planes``: how many of each
        type)."""
        for unit, n in planes:
            self._range(notes, move, unit, n)
            self._landing(notes, index, move, unit, n)

    def _groups(self, origin: str, unit: UnitType, n: int) -> list[tuple[int, Aloft]]:
        """The planes of a move, how many of each group: those that did not fight first (as
        a group that flew nothing), then those in the air there, least spent first."""
        idle = self.pools.use(origin, unit, n)
        groups = [(idle, Aloft(origin, idle, 0))] if idle else []
        rest = n - idle
        key = (origin, unit)
        aloft = sorted(enumerate(self.combat.aloft.get(key, ())), key=lambda a: a[1].spent)
        for number, group in aloft:
            if rest <= 0:
                break
            used = self.aloft_used[(key, number)]
            k = rest if group.count is None else min(rest, group.count - used)
            if k > 0:
                self.aloft_used[(key, number)] = used + k
                groups.append((k, group))
                rest -= k
        return groups

    def _range(self, notes: Notes, move: Move, unit: UnitType, n: int) -> None:
        assert move.origin is not None
        destination = move.destination
        reach = air_range(unit, self.techs)
        for k, group in self._groups(move.origin, unit, n):
            start, spent = group.site, group.spent
            left = reach - spent
            if self.geometry.landing(start, destination) <= left:
                continue  # not even over a neutral taken this turn
            need = self.geometry.landing(start, destination, self.combat.taken)
            if need <= left or not self.combat.stands(group.battle):
                continue
            if spent:
                most, least = ("at most ", "at least ") if group.least else ("", "")
                where = (
                    f"{k} {unit.value} from the battle in {start} to {destination}: "
                    f"{self._moves(need)}, and {most}{left} of a {unit.value}'s {reach} are left "
                    f"after flying {least}{spent} to the battle"
                )
            else:
                where = (
                    f"{k} {unit.value} from {start} to {destination}: {self._moves(need)}, and a "
                    f"{unit.value} has {reach}"
                )
            if self.geometry.air(start, destination) <= left:
                notes.add(
                    Code.MOVE_THROUGH_ENEMY,
                    (Rule.NON_COMBAT, Rule.NON_COMBAT_ROUTE),
                    f"{where} without flying over a neutral, which aircraft may not do in the "
                    "non-combat move",
                )
            elif unit is UnitType.FTR:
                notes.add(
                    Code.MOVE_TOO_FAR,
                    (Rule.FIGHTERS, Rule.MOVEMENT),
                    f"{where}: a fighter may only move a total of {reach} spaces on any given "
                    "turn, combat and non-combat moves together",
                )
            else:
                notes.add(
                    Code.MOVE_TOO_FAR,
                    (Rule.NON_COMBAT, Rule.MOVEMENT),
                    f"{where}: a bomber's range is spent over the combat and non-combat moves "
                    "together",
                )

    @staticmethod
    def _moves(need: int) -> str:
        return f"{need} moves" if need < FAR else "no flight reaches it"

    def _landing(self, notes: Notes, index: int, move: Move, unit: UnitType, n: int) -> None:
        destination = move.destination
        if self.last_leave.get((destination, unit), -1) > index:
            return  # a later move takes them on: they land there
        if not self.geometry.board.territories[destination].is_sea:
            if destination in self.friendly:
                return
            owner = self.position.owner(destination)
            if destination in self.combat.captured:
                why = "captured this turn"
            elif owner is None:
                why = "a neutral"
            else:
                why = f"held by {POWER_NAMES[owner]} at the start of the turn"
            notes.add(
                Code.LANDING_ILLEGAL,
                (Rule.FIGHTERS if unit is UnitType.FTR else Rule.NON_COMBAT, Rule.LANDING),
                f"{n} {unit.value} would land in {destination}, {why}: aircraft land only in a "
                "territory their side held at the start of the turn, never one captured this "
                "turn",
            )
        elif unit is UnitType.BMB:
            notes.add(
                Code.LANDING_ILLEGAL,
                (Rule.NON_COMBAT, Rule.LANDING),
                f"{n} BMB end the turn in {destination}: a bomber never lands at sea (only "
                "fighters land on carriers)",
            )
        else:
            self.at_sea[destination].append((move.line, n))

    def carriers(self) -> list[Diagnostic]:
        """A finding for each sea zone where more fighters land than its carriers can hold
        after every move, counting every carrier that could be there."""
        found = []
        alliance = self.power.alliance
        for zone, landings in self.at_sea.items():
            items = self.combat.engaged.get((zone, UnitType.AC), [])
            if not self.combat.known and zone in self.combat.sites:
                continue  # carriers may have come by combat: how many is not known
            came = sum(i.count or 0 for i in items)
            carriers = (
                self.position.side_units(zone, alliance).count(UnitType.AC)
                + came
                + self.carriers_in[zone]
                - self.carriers_out[zone]
            )
            room = 2 * max(0, carriers)
            landing = sum(n for _, n in landings)
            staying = 0
            if self.combat.known:
                key = (zone, UnitType.FTR)
                staying = max(
                    0,
                    self.start.get(key, 0) - self.combat.sent.get(key, 0) - self.fighters_out[zone],
                )
            if landing + staying <= room:
                continue
            lines = sorted({line for line, _ in landings})
            stay = f" and {staying} FTR stay there" if staying else ""
            found.append(
                error_finding(
                    lines[-1],
                    Rule.FIGHTERS,
                    f"{landing} FTR would land in {zone} (line{'s' if len(lines) > 1 else ''} "
                    f"{', '.join(map(str, lines))}){stay}, but the carriers there after every "
                    f"non-combat move hold at most {room}: a fighter lands at sea only on a "
                    "carrier with room, two fighters a carrier",
                    LANDING_SUGGESTION,
                    Code.LANDING_ILLEGAL,
                    also=(Rule.LANDING,),
                )
            )
        return found
