"""Aircraft the orders leave in the air: where they land when nobody wrote it.

Aircraft fight in the combat move and land in the non-combat move (IAAPA Combat/Non-Combat
Movement: "With the exception of air units (which land during non-combat)"); a landing is in
a territory the side held at the start of the turn, never one taken this turn, or, a fighter,
on a carrier with room; the range is 4 for a fighter and 6 for a bomber (2 more with Long
Range Aircraft), spent over both moves (IAAPA Fighters; facts sheet 4 [SPEC p.14,21]).

The post-combat orders usually say where the planes go ("Egypt 1 FTR to Libya"); those moves
are played out first (:mod:`.non_combat`). Planes still where they cannot end the turn
afterwards are landed here, as the rules and the orders allow, in this order:

1. where the combat move said ("Kar 2 FTR (land Karelia)"): a written landing is an order;
2. back at their origin, if they can land there: the move the orders imply by silence;
3. at the nearest place they can land within the range left, the first found by a breadth-first
   search of the board (a carrier with room counts, for fighters).

Each such landing is reported (info), so either player can correct it before the next turn
(Error Correction VII). Planes with nowhere to land within range are lost (warning). Planes
stranded by a non-combat move itself (not in the air after a battle) are left where the move
put them, with a warning.
"""

from __future__ import annotations

from adjudicator.declarations.geometry import air_range, geometry
from adjudicator.diagnostics import Rule, Severity
from adjudicator.turns.findings import Finding
from adjudicator.turns.fronts import Airborne, TurnInPlay
from adjudicator.units import Units, UnitType


class Landing:
    """Where the mover's aircraft may end the turn."""

    def __init__(self, play: TurnInPlay) -> None:
        self.play = play
        self.table = play.table
        self.mover = play.mover
        self.start = play.table.start
        self.geometry = geometry(play.table.board)
        self.taken = frozenset(play.neutrals)

    def airfield(self, space: str) -> bool:
        """Land a plane may end the turn on: held by the side at the start of the turn and
        still, and not taken this turn."""
        territory = self.table.board.territories[space]
        return (
            not territory.is_sea
            and self.start.is_friendly(space, self.mover)
            and self.table.is_friendly(space, self.mover)
            and space not in self.table.captured
        )

    def room(self, space: str) -> int:
        """Free carrier places of the side in sea ``space``."""
        if not self.table.board.territories[space].is_sea:
            return 0
        side = self.table.side(space, self.mover.alliance)
        return 2 * side.count(UnitType.AC) - side.count(UnitType.FTR)

    def stranded(self, space: str, unit: UnitType) -> int:
        """How many of the mover's ``unit`` in ``space`` cannot end the turn there."""
        have = self.table.units_of(space, self.mover).count(unit)
        if not have or self.airfield(space):
            return 0
        if unit is UnitType.FTR and self.table.board.territories[space].is_sea:
            return min(have, max(0, -self.room(space)))
        return have

    def can_land(self, space: str, unit: UnitType, count: int) -> bool:
        """Whether ``count`` ``unit`` can end the turn in ``space``."""
        if self.airfield(space):
            return True
        return unit is UnitType.FTR and self.room(space) >= count

    def choose(self, flight: Airborne, count: int) -> tuple[str | None, str]:
        """Where ``count`` planes of ``flight`` land, and why there."""
        spare = air_range(flight.unit, self.table.technologies[self.mover]) - flight.spent
        table = self.geometry.landing_table(flight.site, self.taken)
        near = {s: d for s, d in table.items() if d <= spare}
        if (
            flight.lands
            and flight.lands in near
            and self.can_land(flight.lands, flight.unit, count)
        ):
            return flight.lands, "as the combat move said"
        if flight.origin in near and self.can_land(flight.origin, flight.unit, count):
            return flight.origin, "back at their origin (no landing written)"
        for space in near:
            if self.can_land(space, flight.unit, count):
                return space, "at the nearest place they can (no landing written)"
        return None, ""

    def land(self) -> None:
        """Land every plane left in the air after its battle; report the rest."""
        play = self.play
        for front in play.fronts:
            for flight in front.flights:
                count = min(flight.count, self.stranded(flight.at, flight.unit))
                if count <= 0:
                    continue
                planes = Units.of({flight.unit: count})
                self.table.take(flight.at, self.mover, planes)
                where, why = self.choose(flight, count)
                line, said = play.where(flight.battle, flight.line, flight.site)
                name = f"{planes} from {flight.origin} ({said}, battle #{flight.battle})"
                if where is None:
                    play.note(
                        Severity.WARNING,
                        Rule.LANDING,
                        Finding.PLANES_LOST,
                        f"{name}: no landing written, and nowhere to land within range of "
                        f"{flight.site}: lost",
                        "write each plane's landing in the non-combat moves",
                        line=line,
                        battles=(flight.battle,),
                        also=(Rule.FIGHTERS,),
                    )
                    continue
                self.table.put(where, self.mover, planes)
                play.note(
                    Severity.INFO,
                    Rule.LANDING,
                    Finding.PLANES_LANDED,
                    f"{name} land in {where}, {why}",
                    "write each plane's landing in the non-combat moves",
                    line=line,
                    battles=(flight.battle,),
                )
        self.report()

    def report(self) -> None:
        """A warning for aircraft left where they cannot end the turn."""
        for space, units in sorted(self.table.units.items()):
            planes = units.get(self.mover)
            if not planes:
                continue
            for unit in (UnitType.FTR, UnitType.BMB):
                count = self.stranded(space, unit)
                if count:
                    line = next((m.line for m in self.play.post.moves if m.destination == space), 0)
                    self.play.note(
                        Severity.WARNING,
                        Rule.LANDING,
                        Finding.PLANES_STRANDED,
                        f"{count} {unit.value} end the turn in {space}, where they cannot land; "
                        "they are left there as the orders put them",
                        "land them in a territory held since the start of the turn, or on a "
                        "carrier with room",
                        line=line,
                    )


def land_planes(play: TurnInPlay) -> None:
    """See :class:`Landing`."""
    Landing(play).land()
