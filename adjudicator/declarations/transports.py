"""Transports in the combat move: capacity, route, unloading zone and the clearing battle.

IAAPA Error Correction II names among the combat declaration errors "not enough transports",
"failure to include transports in the sea zone clearing portion of an amphibious assault" and
"failure to disclose the unloading sea zone if more than one potential zone exists in an
amphibious assault". Rules Clarifications, Amphibious Assaults: "If there is a sea zone battle
... Transports need to be declared as part of the attacking force." A transport holds 1 or 2
INF, or 1 ARM, or 1 AA gun [W12; XML transportCapacity], moves 2 sea zones, and loads land
units from the territories touching the zones it passes [SPEC p.12-16].
"""

from __future__ import annotations

import itertools
from collections import defaultdict

from adjudicator.declarations.findings import VOID_SUGGESTION, Code, error_finding, warning_finding
from adjudicator.declarations.geometry import SHIP_MOVES, Movement
from adjudicator.declarations.plan import Lift, Plan
from adjudicator.diagnostics import Diagnostic, Rule
from adjudicator.units import UnitType


def _error(
    lift: Lift,
    message: str,
    suggestion: str,
    code: Code,
    rule: Rule = Rule.CDE,
    also: tuple[Rule, ...] = (),
) -> Diagnostic:
    return error_finding(
        lift.line,
        rule,
        f"{lift.site.name}: {message}",
        f"{suggestion}; {VOID_SUGGESTION}",
        code,
        (lift.site.number,),
        also,
    )


def _route_length(lift: Lift, end: str, movement: Movement) -> int:
    """Moves from the transports' zone to ``end`` along the zones the line names (or the
    shortest way, since the route need not be written)."""
    assert lift.zone is not None
    legs = [lift.zone, *(z for z in lift.path if z != end), end]
    total = sum(movement.sea_distance(a, b) for a, b in itertools.pairwise(legs))
    return min(total, movement.sea_distance(lift.zone, end))


def _check_lift(lift: Lift, movement: Movement) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    if lift.zone is None:
        return [
            _error(
                lift,
                f"the {lift.count} TRN carrying {lift.cargo} have no sea zone of origin",
                'write the zone the transports are in: "UK 2 INF on UK SZ 1 TRN"',
                Code.ORIGIN_NOT_LISTED,
            )
        ]
    if lift.inferred:
        found.append(
            warning_finding(
                lift.line,
                Rule.CDE,
                f"{lift.site.name}: the transports' zone is not written; only "
                f"{lift.zone} holds {lift.count} TRN by the cargo, so the intent is clear",
                f'write it: "on {lift.zone} {lift.count} TRN"',
                Code.INTENT_CLEAR,
                (lift.site.number,),
            )
        )
    if not lift.implied and lift.needed > lift.count:
        found.append(
            _error(
                lift,
                f"{lift.cargo} need {lift.needed} TRN, but {lift.count} are listed (a "
                "transport holds 2 INF, or 1 ARM, or 1 AA gun)",
                "list enough transports for the cargo",
                Code.TRANSPORT_CAPACITY,
            )
        )
    stops = {lift.zone, *lift.path}
    for place in lift.boarding:
        if movement.is_sea(place):
            if place != lift.zone:
                found.append(
                    _error(
                        lift,
                        f"the cargo at sea in {place} is not aboard the transports in {lift.zone}",
                        "correct the zone",
                        Code.UNREACHABLE,
                    )
                )
        elif not movement.coast(place) & stops:
            found.append(
                _error(
                    lift,
                    f"units in {place} cannot board transports in "
                    f"{', '.join(sorted(stops))}: no zone of their route touches {place}",
                    "load units only from a territory touching the transports' zone",
                    Code.UNREACHABLE,
                )
            )
    end = lift.site.space if lift.site.is_sea else lift.unload
    if end is None:
        if len(lift.options) > 1:
            found.append(
                _error(
                    lift,
                    f"the transports in {lift.zone} could unload from "
                    f"{' or '.join(lift.options)}; the unloading sea zone is not disclosed",
                    f'name it: "... on {lift.zone} {lift.count} TRN to {lift.options[0]}"',
                    Code.UNLOADING_ZONE_UNDISCLOSED,
                )
            )
        else:
            found.append(
                _error(
                    lift,
                    f"the transports in {lift.zone} cannot reach a sea zone touching "
                    f"{lift.site.space} this turn",
                    "correct the transports' zone or the battle",
                    Code.UNREACHABLE,
                )
            )
        return found
    if not lift.site.is_sea and lift.site.space not in movement.board.adjacency[end]:
        found.append(
            _error(
                lift,
                f"{end} does not touch {lift.site.space}: transports unload "
                "only into a territory touching their zone",
                "name the zone the transports unload from",
                Code.UNREACHABLE,
            )
        )
    elif _route_length(lift, end, movement) > SHIP_MOVES:
        found.append(
            _error(
                lift,
                f"the transports in {lift.zone} cannot reach {end}: transports move "
                f"{SHIP_MOVES} sea zones, not through enemy ships or a canal the attacker's side "
                "did not hold at the start of the turn",
                "correct the transports' zone or route",
                Code.UNREACHABLE,
            )
        )
    return found


def _sea_battle_transports(plan: Plan) -> dict[str, int]:
    """Transports declared attacking in each sea battle's zone."""
    declared: dict[str, int] = defaultdict(int)
    for sortie in plan.sorties:
        if sortie.site.is_sea:
            declared[sortie.site.space] += sortie.fighting.count(UnitType.TRN)
    for lift in plan.lifts:
        if lift.site.is_sea:
            declared[lift.site.space] += lift.count
    return declared


def _clearing(plan: Plan, movement: Movement) -> list[Diagnostic]:
    """Transports unloading from an enemy-held zone must fight its sea battle.

    Error Correction II lists "failure to include transports in the sea zone clearing portion
    of an amphibious assault" among the CDEs, and Amphibious Assaults says "Transports need to
    be declared as part of the attacking force". Which battle it voids the rules leave open;
    the league's reading (README, "Rulings the rules leave open"): both. The sea battle's
    attacking force is wrong (the defender could have taken the transports, TRN first in the
    default order of loss), so "no portion of the results may stand"; and the landing rides
    transports whose sea battle did not validly happen, so the land battle is void too. With
    no sea battle declared in the zone at all, only the land battle is void."""
    if not plan.lifts:
        return []  # no transports unload anywhere
    sea_battles = {s.space for s in plan.sites if s.is_sea}
    declared = _sea_battle_transports(plan)
    carried: dict[str, list[Lift]] = defaultdict(list)
    for lift in plan.lifts:
        if not lift.site.is_sea and lift.unload is not None and movement.blocked(lift.unload):
            carried[lift.unload].append(lift)
    found: list[Diagnostic] = []
    for zone, lifts in carried.items():
        needed = sum(lift.count for lift in lifts)
        if zone in sea_battles and declared.get(zone, 0) >= needed:
            continue
        why = (
            f"no sea battle is declared in {zone}"
            if zone not in sea_battles
            else f"the sea battle in {zone} lists {declared.get(zone, 0)} TRN"
        )
        clearing = tuple(s.number for s in plan.sites if s.is_sea and s.space == zone)
        for lift in lifts:
            void = tuple(sorted({*clearing, lift.site.number}))
            also = (
                f"; the sea battle #{', #'.join(map(str, clearing))} is void with it (its "
                "attacking force leaves out the transports, which the defender may hit)"
                if clearing
                else ""
            )
            found.append(
                error_finding(
                    lift.line,
                    Rule.CDE,
                    f"{lift.site.name}: the transports unload from {zone}, which holds enemy "
                    f"units, but {why} ({needed} TRN unload there): transports must be declared "
                    f"in the sea zone clearing battle{also}",
                    f"declare the {needed} TRN attacking in the battle for {zone}; "
                    f"{VOID_SUGGESTION}",
                    Code.TRANSPORTS_NOT_IN_SEA_BATTLE,
                    void,
                    (Rule.AMPHIBIOUS,),
                )
            )
    return found


def check_transports(plan: Plan, movement: Movement) -> list[Diagnostic]:
    """Every finding about the transports of the combat move."""
    found = [f for lift in plan.lifts for f in _check_lift(lift, movement)]
    return found + _clearing(plan, movement)
