"""Where attacking units come from when the combat orders do not say it right, read once, when
the plan of a turn's battles is built, so that every check sees the same origin: the origin
count, reach and landing, what the units leave behind after combat, the non-combat moves and
the retreats.

IAAPA Error Correction II: "if it is clear from the combat orders where the battle is to occur,
and what units are involved, and the units are 100% correct, then no CDE can be called. ...
For example: There is only 1 German sub on the board (in azo sz), and only 1 UK trn on the
board (in lab sz). The combat orders list the attacking sub in can sz instead of lab sz. In
this case the battle will stand as correct."

Two readings, in this order (:class:`Clue`): an origin written so that it fits several places
("Car SZ"; the notation's ``could_be``) is the one of them holding every type the line lists
and able to reach the battle, when only one is; then units of a type whose origin is not
given, or does not hold them, come from the one place on the board where the attacker has
units of that type not listed from elsewhere, when there is one, with enough of them, able to
reach the battle. A type read the second way leaves its line for an origin of its own. What
is not read stays as written, for the origin check to call the CDE.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from adjudicator.declarations.geometry import Movement, can_reach
from adjudicator.fastenum import FastEnum
from adjudicator.fastrecord import quick_init
from adjudicator.notation.model import Origin
from adjudicator.units import Units, UnitType, tally


class Clue(FastEnum):
    """What made the origin clear."""

    NAME = "name"
    """The name written fits several places, and only one of them holds every type the line
    lists and can send it to the battle."""
    BOARD = "board"
    """The attacker's only units of the type on the board not listed from elsewhere are in
    one place, enough of them, able to reach the battle (the rule's submarine)."""


@dataclass(frozen=True)
class OriginReading:
    """How an origin was read: ``written`` is the line's origin as the notation gives it,
    ``units`` the units listed that were read to come from the place now given."""

    clue: Clue
    written: Origin
    units: Units


@quick_init
@dataclass(frozen=True)
class Claim:
    """Units one origin of one battle draws: the battle's place, the origin as written, and
    the units that leave it to fight (cargo at sea, and transports carrying an assault, are
    the lifts')."""

    space: str
    origin: Origin
    drawn: Units


Part = tuple[Origin, OriginReading | None]
"""An origin of the plan, with how it was read (None: as written)."""


class _Reader:
    """The readings of one turn's claims against the board at the start of the turn."""

    def __init__(self, movement: Movement) -> None:
        self.movement = movement
        self.position = movement.position
        self.power = movement.power
        self.counts = self.position.unit_counts(self.power)
        self.named: dict[tuple[str, UnitType], int] = defaultdict(int)
        """Units listed from each place (as written, or read from a name): not spare."""

    def have(self, place: str, unit: UnitType) -> int:
        """How many ``unit`` the attacker has in ``place``."""
        return self.counts.get((place, unit), 0)

    def read(self, claims: Sequence[Claim]) -> list[list[Part]]:
        """Each claim's origins, in order."""
        named = [self._by_name(c) for c in claims]
        for claim, meant in zip(claims, named, strict=True):
            place = meant or claim.origin.place
            if place is not None:
                for unit, n in claim.drawn.counts:
                    self.named[(place, unit)] += n
        return [self._parts(c, meant) for c, meant in zip(claims, named, strict=True)]

    def _by_name(self, claim: Claim) -> str | None:
        """The one place a name fitting several can mean: it holds every type the line lists,
        and they can reach the battle from it."""
        could_be = claim.origin.could_be
        if not could_be or not claim.drawn:
            return None
        holding = [
            place
            for place in could_be
            if all(
                self.have(place, u) and can_reach(self.movement, u, place, claim.space)
                for u, _ in claim.drawn
            )
        ]
        return holding[0] if len(holding) == 1 else None

    def _parts(self, claim: Claim, meant: str | None) -> list[Part]:
        origin = claim.origin
        if meant is not None:
            reading = OriginReading(Clue.NAME, origin, claim.drawn)
            return [(dataclasses.replace(origin, place=meant), reading)]
        moved: dict[str, list[tuple[UnitType, int]]] = defaultdict(list)
        counts = self.counts
        for unit, n in claim.drawn.counts:
            if origin.place is not None and counts.get((origin.place, unit)):
                continue
            clear = self._on_board(claim, unit, n)
            if clear is not None:
                moved[clear].append((unit, n))
        if not moved:
            return [(origin, None)]
        read = {where: tally(pairs) for where, pairs in moved.items()}
        rest = origin.units
        for units in read.values():
            rest = rest.minus(units)
        parts: list[Part] = [(dataclasses.replace(origin, units=rest), None)] if rest else []
        for where, units in read.items():
            clear_origin = dataclasses.replace(origin, place=where, units=units, could_be=())
            parts.append((clear_origin, OriginReading(Clue.BOARD, origin, units)))
        return parts

    def _on_board(self, claim: Claim, unit: UnitType, count: int) -> str | None:
        """The single place the listed units can only have come from, if there is one.

        As in the rule's example ("There is only 1 German sub on the board"), the attacker's
        units of the type anywhere on the board, less those other lines name, must all be in
        one place, be enough, and be able to reach the battle; units of one type in one place
        are interchangeable, so which of them is meant does not matter."""
        candidates = []
        for place, have in self.position.places_with(self.power, unit):
            spare = have - self.named.get((place, unit), 0)
            if place != claim.origin.place and spare > 0:
                candidates.append((place, spare))
        if len(candidates) != 1 or candidates[0][1] < count:
            return None
        place = candidates[0][0]
        return place if can_reach(self.movement, unit, place, claim.space) else None


def read_origins(claims: Sequence[Claim], movement: Movement) -> list[list[Part]]:
    """The origins of each of a turn's ``claims`` (all of them: what one line lists bears on
    what another's units can be), as the orders make them clear: one or more parts each."""
    return _Reader(movement).read(claims)
