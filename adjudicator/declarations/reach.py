"""Can the units listed fight the battle at all, and reach it from their origin?

IAAPA Error Correction II lists "incorrect types of units" among the combat declaration errors;
a unit that cannot get to the battle from its stated origin is as wrong as one that is not
there. Land units move 1 (INF) or 2 (ARM) over land, or ride transports (see
:mod:`.transports`); ships move 2 through sea zones; a battleship joins a land battle only to
give a support shot in an amphibious assault, from a sea zone touching it [SPEC p.15,18]; AA
guns and complexes never attack (AA guns may not move in the combat move, IAAPA AA Guns and
Rocket Technology: "A rocket may not accompany any units in a combat attack"); only bombers
fly a bombing raid [SPEC p.15,20]. Planes are checked in :mod:`.landing`.
"""

from __future__ import annotations

from adjudicator.declarations.findings import VOID_SUGGESTION, Code, error_finding
from adjudicator.declarations.geometry import FAR, NEVER_FIGHT, SHIP_MOVES, Movement, can_reach
from adjudicator.declarations.plan import Plan, Site, Sortie
from adjudicator.diagnostics import Diagnostic, Rule
from adjudicator.notation.model import BattleKind
from adjudicator.units import Domain, UnitType

_DOMAINS = {unit: unit.stats.domain for unit in UnitType}
"""Each unit type's domain (read without the stats property: every unit listed is asked)."""


def _support_zone(movement: Movement, origin: str, site: str) -> bool:
    """Whether a battleship at ``origin`` can reach a sea zone touching land ``site``."""
    if not movement.is_sea(origin):
        return False
    steps = movement.sea_steps(origin)
    return any(steps.get(zone, FAR) <= SHIP_MOVES for zone in movement.coast(site))


def _by_sea(movement: Movement, origin: str, site: str) -> bool:
    """Whether transports could carry land units from ``origin`` to ``site`` this turn."""
    landing = movement.coast(site)
    return any(
        z in landing or any(movement.sea_steps(z).get(t, FAR) <= SHIP_MOVES for t in landing)
        for z in movement.coast(origin)
    )


def _wrong(sortie: Sortie, unit: UnitType, count: int, why: str, code: Code) -> Diagnostic:
    site = sortie.site
    return error_finding(
        sortie.line,
        Rule.CDE,
        f"{site.name}: {count} {unit.value} from {sortie.place} {why}",
        f"take them out of the battle or correct their origin; {VOID_SUGGESTION}",
        code,
        (site.number,),
    )


def _check_unit(
    sortie: Sortie, unit: UnitType, count: int, movement: Movement, amphibious: bool, lifted: bool
) -> Diagnostic | None:
    site: Site = sortie.site
    origin = sortie.place
    assert origin is not None
    domain = _DOMAINS[unit]
    if unit in NEVER_FIGHT:
        return _wrong(
            sortie,
            unit,
            count,
            "cannot attack: AA guns and industrial complexes never take part in a combat attack",
            Code.CANNOT_ATTACK,
        )
    if site.battle.kind is BattleKind.RAID and unit is not UnitType.BMB:
        return _wrong(
            sortie,
            unit,
            count,
            "cannot fly a strategic bombing raid: only bombers can",
            Code.CANNOT_ATTACK,
        )
    if domain is Domain.AIR:
        return None  # range and landing: see landing
    if domain is Domain.SEA:
        if site.is_sea:
            if can_reach(movement, unit, origin, site.space):
                return None
            return _wrong(
                sortie,
                unit,
                count,
                f"cannot reach {site.space}: ships move "
                f"{SHIP_MOVES} sea zones, not through enemy ships or a canal the "
                "attacker's side did not hold at the start of the turn",
                Code.UNREACHABLE,
            )
        if unit is not UnitType.BB:
            return _wrong(sortie, unit, count, "cannot attack a land territory", Code.CANNOT_ATTACK)
        if not amphibious:
            return _wrong(
                sortie,
                unit,
                count,
                "can only give support shots in an amphibious "
                "assault, and no transport unloads into this battle",
                Code.CANNOT_ATTACK,
            )
        if _support_zone(movement, origin, site.space):
            return None
        return _wrong(
            sortie, unit, count, f"cannot reach a sea zone touching {site.space}", Code.UNREACHABLE
        )
    if lifted:
        return None  # carried: see transports
    if site.is_sea:
        return _wrong(
            sortie,
            unit,
            count,
            "cannot fight at sea (land units at sea are "
            "cargo aboard transports, which the line does not list)",
            Code.CANNOT_ATTACK,
        )
    if can_reach(movement, unit, origin, site.space):
        return None
    if movement.is_sea(origin):
        return None  # already aboard at sea: see transports
    if _by_sea(movement, origin, site.space):
        return _wrong(
            sortie,
            unit,
            count,
            f"cannot reach {site.space} over land ({unit.value} moves "
            f"{unit.stats.movement}) and no transport is listed to carry them: not enough "
            "transports",
            Code.NOT_ENOUGH_TRANSPORTS,
        )
    return _wrong(
        sortie,
        unit,
        count,
        f"cannot reach {site.space} this turn ({unit.value} moves "
        f"{unit.stats.movement}, and no transport could carry them there)",
        Code.UNREACHABLE,
    )


def check_reach(plan: Plan, movement: Movement) -> list[Diagnostic]:
    """An error for every listed unit that cannot fight its battle or reach it."""
    amphibious = {lift.site.number for lift in plan.lifts if not lift.site.is_sea}
    lifted_lines = {(lift.site.number, lift.line) for lift in plan.lifts}
    found: list[Diagnostic] = []
    for sortie in plan.sorties:
        if sortie.place is None or sortie.place not in movement.board.territories:
            continue
        lifted = (sortie.site.number, sortie.line) in lifted_lines
        for unit, count in sortie.origin.units.counts:
            finding = _check_unit(
                sortie, unit, count, movement, sortie.site.number in amphibious, lifted
            )
            if finding is not None:
                found.append(finding)
    return found
