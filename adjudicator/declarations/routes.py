"""Non-combat routes over land and sea: how far, and through what.

Land units move 1 (INF, AA guns) or 2 (ARM) territories and ships 2 sea zones [facts sheet 0;
SPEC p.9]. In the non-combat move "land and sea units may not enter any territory controlled by
an enemy or neutral, or any sea zone containing an enemy or neutral unit" (TripleA rule book,
Non-Combat Movement): land held at the start of the turn or taken this turn is open to them,
and zones whose enemy a battle cleared. IAAPA Canals: "Canals may be used if and only if you or
your allies own the territory or territories controlling the canal at the beginning of your
turn." A route need not be written; when one is, a land route is taken as written.

Each judgement is a :data:`RouteProblem` (code, rule, what is wrong), or None when the move is
legal; ``is_open`` None means land that may have been taken this turn is not known, and
then only the distance is judged.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from adjudicator.declarations.findings import Code
from adjudicator.declarations.geometry import FAR, SHIP_MOVES, Movement
from adjudicator.diagnostics import Rule
from adjudicator.position.serialize import POWER_NAMES
from adjudicator.units import Units

RouteProblem = tuple[Code, tuple[Rule, ...], str]
"""What is wrong with a route: the finding's code, the rules it breaks (an IAAPA one first), and
what the finding says."""
NO_ZONES: frozenset[str] = frozenset()


def held(movement: Movement, territory: str) -> str:
    """Who holds ``territory``, as a finding says it."""
    owner = movement.position.owner(territory)
    if owner is None:
        return f"{territory} is a neutral not taken this turn"
    return f"{territory} is held by {POWER_NAMES[owner]}, the enemy"


def sea_steps(
    movement: Movement, start: str, end: str, *, canals: bool, blocked: frozenset[str]
) -> int:
    """Moves a ship needs from ``start`` to ``end`` in the non-combat move (FAR beyond two),
    entering no zone of ``blocked`` and, with ``canals``, using only the canals its side held
    at the start."""
    return movement.sail(start, avoid=blocked, stops=False, canals=canals).get(end, FAR)


def sails(movement: Movement, start: str, end: str, blocked: frozenset[str]) -> bool:
    """Whether a ship may make the non-combat move from ``start`` to ``end``."""
    if end in blocked:
        return False
    if movement.sea_distance(start, end) <= SHIP_MOVES:
        return True  # the common case, from the table the combat checks keep
    return sea_steps(movement, start, end, canals=True, blocked=blocked) <= SHIP_MOVES


def sea_route(
    movement: Movement, what: str, start: str, end: str, blocked: frozenset[str]
) -> RouteProblem | None:
    """Ships (``what``) from ``start`` to ``end``: 2 sea zones, no zone of ``blocked`` (holding
    enemy units no battle cleared), no canal closed to their side."""
    if sails(movement, start, end, blocked):
        return None
    if sea_steps(movement, start, end, canals=False, blocked=NO_ZONES) > SHIP_MOVES:
        return (
            Code.MOVE_TOO_FAR,
            (Rule.NON_COMBAT, Rule.MOVEMENT),
            f"{what} cannot sail from {start} to {end}: more than {SHIP_MOVES} sea zones",
        )
    if sea_steps(movement, start, end, canals=True, blocked=NO_ZONES) > SHIP_MOVES:
        return (
            Code.MOVE_TOO_FAR,
            (Rule.CANALS,),
            f"{what} from {start} to {end} would pass a canal whose territories the "
            f"{movement.power.alliance.value} did not own at the beginning of the turn: a canal "
            "may be used if and only if you or your allies own them then",
        )
    if end in blocked:
        return (
            Code.MOVE_THROUGH_ENEMY,
            (Rule.NON_COMBAT, Rule.NON_COMBAT_ROUTE),
            f"{what} from {start} into {end}, which holds enemy units no battle cleared: no "
            "ship enters a sea zone holding enemy units in the non-combat move",
        )
    return (
        Code.MOVE_THROUGH_ENEMY,
        (Rule.NON_COMBAT, Rule.NON_COMBAT_ROUTE),
        f"{what} from {start} to {end}: every way passes a sea zone holding enemy units no "
        "battle cleared, and no ship enters one in the non-combat move",
    )


def _paths(
    movement: Movement, origin: str, destination: str, via: Sequence[str]
) -> tuple[int, list[list[str]]]:
    """The moves from ``origin`` to ``destination`` over land and the territories passed on
    the way (the written route, else every shortest one within two moves)."""
    adjacency = movement.board.adjacency
    territories = movement.board.territories
    path = [origin, *via, destination]
    if via and all(b in adjacency[a] for a, b in itertools.pairwise(path)):
        return len(path) - 1, [list(via)]
    if destination in adjacency[origin]:
        return 1, [[]]
    middles = [
        [m]
        for m in adjacency[origin]
        if destination in adjacency[m]
        and not territories[m].is_sea
        and not territories[m].impassable
    ]
    return (2 if middles else FAR), middles


def land_route(
    movement: Movement,
    land: Units,
    origin: str,
    destination: str,
    via: Sequence[str],
    is_open: Callable[[str], bool] | None,
) -> list[RouteProblem]:
    """Land units from ``origin`` to ``destination`` over land: their movement, through and
    into land open to them (``is_open``; None: not judged)."""
    steps, middles = _paths(movement, origin, destination, via)
    found: list[RouteProblem] = []
    far = Units.of((u, n) for u, n in land if steps > u.stats.movement)
    if far:
        moves = f"{steps} moves" if steps < FAR else "more than 2 moves"
        allowed = ", ".join(f"{u.value} moves {u.stats.movement}" for u, _ in far)
        found.append(
            (
                Code.MOVE_TOO_FAR,
                (Rule.NON_COMBAT, Rule.MOVEMENT),
                f"{far} cannot go from {origin} to {destination}: {moves}, and {allowed}",
            )
        )
    near = land.minus(far)
    if not near or is_open is None:
        return found
    if not is_open(destination):
        found.append(
            (
                Code.MOVE_THROUGH_ENEMY,
                (Rule.NON_COMBAT, Rule.NON_COMBAT_ROUTE),
                f"{near} from {origin} to {destination}: {held(movement, destination)}, and "
                "land units may not enter enemy or neutral territory in the non-combat move",
            )
        )
    elif not any(all(is_open(m) for m in middle) for middle in middles):
        passed = " or ".join(m for middle in middles for m in middle if not is_open(m))
        found.append(
            (
                Code.MOVE_THROUGH_ENEMY,
                (Rule.NON_COMBAT, Rule.NON_COMBAT_ROUTE),
                f"{near} from {origin} to {destination} pass through {passed}, enemy or "
                "neutral land: land units may not pass through it in the non-combat move",
            )
        )
    return found
