"""Non-combat moves and the placement of new units, played out as written.

IAAPA Error Correction V: "If there is a dispute between listed non-combat moves and the map
update the listed non-combat moves will take precedence", so the moves, not the map update,
move the board. A move takes what it names from its origin (aircraft still in the air after a
battle are taken from where their force went, when the move names the battle as origin);
transports named on the move ("E US 2 INF on E US SZ 1 TRN to UK SZ to UK") sail from the
first sea zone of the route to the last and stay there; ships that move carry what is aboard
(:mod:`.table`). The legality of each move is the declaration checks' business; here a move
naming more than is there moves what is there, with a finding.

New units come from the purchases of the pre-combat turn (IAAPA Precombat: "the remainder of
his purchases"); with none written, the placements are taken as the purchases. Placed units
nobody bought are not placed; units bought and not placed are lost ("Units that can't be
placed are lost", facts sheet 8 [XML Unplaced units live=false]). IAAPA Placement of New Units:
"You must have owned the IC at the beginning of your turn and you must still control the
industrial complex at the time of the placement"; "Shipping may be placed in any water area on
the board that is adjacent to a land territory possessing an IC" (not an enemy-occupied one,
facts sheet 8); "A newly purchased fighter may not be placed on an aircraft carrier". A
placement breaking these is made as written, with a finding. Production limits of non-original
complexes are checked with the turn's report (:mod:`adjudicator.declarations.placement`), not
here.
"""

from __future__ import annotations

from adjudicator.diagnostics import Rule, Severity
from adjudicator.notation.model import Move
from adjudicator.turns.findings import Finding
from adjudicator.turns.fronts import TurnInPlay
from adjudicator.units import NO_UNITS, Domain, Units, UnitType

_SHIPS = (UnitType.TRN, UnitType.SUB, UnitType.AC, UnitType.BB)
_AIR = (UnitType.FTR, UnitType.BMB)


def _airborne(play: TurnInPlay, battle_site: str, wanted: Units) -> Units:
    """Aircraft in the air after the battle at ``battle_site`` that a move naming that site
    takes from where their force went (a retreat location)."""
    got = NO_UNITS
    for front in play.fronts:
        for flight in front.flights:
            need = wanted.count(flight.unit) - got.count(flight.unit)
            if flight.site != battle_site or flight.at == battle_site or need <= 0:
                continue
            have = play.table.units_of(flight.at, play.mover).count(flight.unit)
            taken = play.table.take(
                flight.at, play.mover, Units.of({flight.unit: min(need, have, flight.count)})
            )
            got = got + taken
    return got


def _move(play: TurnInPlay, move: Move) -> None:
    table, mover = play.table, play.mover
    origin, destination = move.origin, move.destination
    board = table.board
    if origin is None or origin not in board.territories or destination not in board.territories:
        return
    ships = move.units.only(*_SHIPS)
    rest = move.units.without(*_SHIPS)
    taken = table.take(origin, mover, rest)
    sailed, carried = table.sail(origin, mover, ships) if ships else (NO_UNITS, {})
    if taken != rest:
        taken = taken + _airborne(play, origin, rest.minus(taken).only(*_AIR))
    table.put(destination, mover, sailed + taken)
    for power, units in carried.items():
        table.put(destination, power, units)
    boats = move.transports.count(UnitType.TRN)
    zones = [p for p in move.via if p in board.territories and board.territories[p].is_sea]
    lifted = NO_UNITS
    if boats and zones:
        lifted, aboard = table.sail(zones[0], mover, Units.of({UnitType.TRN: boats}))
        table.put(zones[-1], mover, lifted)
        for power, units in aboard.items():
            table.put(zones[-1], power, units)
    wanted = move.units + (Units.of({UnitType.TRN: boats}) if boats and zones else NO_UNITS)
    got = sailed + taken + lifted
    if got != wanted:
        play.note(
            Severity.WARNING,
            Rule.POST_COMBAT,
            Finding.NOT_THERE,
            f"the non-combat move names {wanted} from {origin}"
            + (f" and {zones[0]}" if boats and zones else "")
            + f", but only {got or 'none'} are there after combat: {got or 'nothing'} moves",
            "check the move against the results of combat",
            line=move.line,
        )


def move_all(play: TurnInPlay) -> None:
    """Every non-combat move of the post-combat orders, in the order written."""
    for move in play.post.moves:
        _move(play, move)


def _factories(play: TurnInPlay) -> set[str]:
    """Where the mover may place: complexes it owned at the start and still holds."""
    start, table, mover = play.table.start, play.table, play.mover
    return {
        space
        for space, units in start.holdings(mover).items()
        if units.count(UnitType.IC)
        and table.units_of(space, mover).count(UnitType.IC)
        and table.owners.get(space) is mover
    }


def _placement_problem(play: TurnInPlay, place: str, units: Units, factories: set[str]) -> str:
    board, table = play.table.board, play.table
    if board.territories[place].is_sea:
        if not any(t in factories for t in board.adjacency[place]):
            return f"{place} touches no industrial complex {play.mover.name} may place at"
        if table.enemies(place, play.mover):
            return f"{place} holds enemy units"
        if units.count(UnitType.FTR):
            return "a new fighter may not be placed on a carrier"
        return ""
    if place not in factories:
        return f"{place} has no industrial complex held since the start of the turn"
    if any(u.stats.domain is Domain.SEA for u, _ in units):
        return f"ships cannot be placed on land in {place}"
    return ""


def place_all(play: TurnInPlay, bought: Units) -> Units:
    """The placements of the post-combat orders, up to what was ``bought``; what was
    placed."""
    left = bought
    placed = NO_UNITS
    factories = _factories(play)
    for placement in play.post.placements:
        if placement.place not in play.table.board.territories:
            continue
        units = Units.of((u, min(n, left.count(u))) for u, n in placement.units)
        if units != placement.units:
            play.note(
                Severity.WARNING,
                Rule.PLACEMENT,
                Finding.NOT_PURCHASED,
                f"{placement.place}: {placement.units.minus(units)} placed but not bought: "
                "not placed",
                "place only the units of the pre-combat purchases",
                line=placement.line,
            )
        problem = _placement_problem(play, placement.place, units, factories)
        if problem and units:
            play.note(
                Severity.WARNING,
                Rule.PLACEMENT,
                Finding.PLACEMENT_ILLEGAL,
                f"{units} placed in {placement.place}, but {problem}: placed as written",
                "place new units at an IC owned since the start of the turn, ships beside it",
                line=placement.line,
            )
        play.table.put(placement.place, play.mover, units)
        left = left.minus(units)
        placed = placed + units
    if left:
        line = min((p.line for p in play.post.placements), default=0)
        play.note(
            Severity.WARNING,
            Rule.PLACEMENT,
            Finding.NOT_PLACED,
            f"{left} bought and not placed: lost (units that cannot be placed are lost)",
            "list every new unit under Placement",
            line=line,
        )
    return placed
