"""Aircraft a non-combat move takes home without saying where they are: "bmb returns to
Germany", "2 ftr land in E Europe".

After combat a plane is over the battle it fought in, until its non-combat move lands it
(IAAPA Rules Clarifications, Fighters: "A fighter may only move a total of 4 spaces on any
given turn": its flight home starts where its flight to the battle ended). So a move of
aircraft that names no origin is read as from the one battle of the turn whose attackers
hold them, when only one does, with a note saying so: the intent is clear (the reasoning of
Error Correction II: "if it is clear from the combat orders ... then no CDE can be
called"). Otherwise the move keeps no origin and the map update stands for its units.

Both the check of the email (:func:`adjudicator.declarations.check_turn`) and the turn
played out from the dice (:func:`adjudicator.turns.advance`) read the moves so.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from adjudicator.notation.model import Turn
from adjudicator.units import Units, UnitType

_AIRCRAFT = frozenset({UnitType.FTR, UnitType.BMB})


@dataclass(frozen=True)
class Return:
    """A move of aircraft with no origin written, read as from ``origin``, its battle."""

    line: int
    units: Units
    destination: str
    origin: str

    suggestion = "write where the units are: the battle's place, then the units and destination"

    @property
    def message(self) -> str:
        return (
            f"{self.units} to {self.destination}: no origin is written; read as from "
            f"{self.origin}, the only battle of the turn whose attackers hold them"
        )


def returning(turn: Turn, precombat: Turn | None) -> tuple[Turn, tuple[Return, ...]]:
    """``turn`` with each move of aircraft that names no origin read as from its battle,
    where one battle of ``precombat`` (the turn's combat moves) alone holds such aircraft
    among its attackers; and the moves so read."""
    battles = precombat.battles if precombat is not None else ()
    if not battles or all(move.origin is not None for move in turn.moves):
        return turn, ()
    moves = []
    found: list[Return] = []
    for move in turn.moves:
        units = move.units
        if (
            move.origin is not None
            or not units.counts
            or any(unit not in _AIRCRAFT for unit, _ in units.counts)
        ):
            moves.append(move)
            continue
        places = {
            battle.territory
            for battle in battles
            if battle.territory is not None and battle.attacker.contains(units)
        }
        if len(places) != 1:
            moves.append(move)
            continue
        (origin,) = places
        moves.append(dataclasses.replace(move, origin=origin))
        found.append(Return(move.line, units, move.destination, origin))
    if not found:
        return turn, ()
    return dataclasses.replace(turn, moves=tuple(moves)), tuple(found)
