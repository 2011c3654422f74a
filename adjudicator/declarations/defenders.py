"""Listed defenders: optional, but exactly right when given.

IAAPA Error Correction II: "The attacker, at his discretion, may list all the defending units
and the defending territory or alternatively, may list only the defending territory, as the
defending units are what they are. If any defending units are listed, then they must be 100%
correct. If any of this information is incorrect, it is considered a CDE". Among its examples:
"incorrect number of defending units ... note: defending AA guns must be listed only when
attacking air is involved".

So an AA gun left out is an error only when planes attack; an AA gun listed that is not there
is always one. Complexes never fight: leaving one out is no error, listing a missing one is.
At sea, land units aboard transports are cargo and never fight [SPEC p.13,16]: the same holds.
A walk-in lists no defenders ("WI": "an empty enemy or neutral territory"); a bombing raid's
only defender is the AA gun.
"""

from __future__ import annotations

from adjudicator.declarations.findings import VOID_SUGGESTION, Code, error_finding
from adjudicator.declarations.geometry import Movement
from adjudicator.declarations.plan import Plan, Site
from adjudicator.diagnostics import Diagnostic, Rule
from adjudicator.notation.model import BattleKind
from adjudicator.position.model import CARGO
from adjudicator.units import CHART_ORDER, Units, UnitType

U = UnitType
LAND_DEFENDERS = frozenset({U.INF, U.ARM, U.FTR, U.BMB})
"""The units that fight when defending land: a listing must count them exactly."""
SEA_DEFENDERS = frozenset({U.TRN, U.SUB, U.AC, U.BB, U.FTR})
"""The units that fight when defending a sea zone (fighters aboard carriers included)."""
_RAID_LISTING = (frozenset({U.AA}), frozenset(UnitType) - {U.AA})
_SEA_LISTING = (SEA_DEFENDERS, CARGO)
_LAND_LISTING_WITH_PLANES = (LAND_DEFENDERS | {U.AA}, frozenset({U.IC}))
_LAND_LISTING = (LAND_DEFENDERS, frozenset({U.AA, U.IC}))
"""What :func:`must_list` gives for each kind of battle, made once."""


def must_list(
    kind: BattleKind, is_sea: bool, air_attacks: bool
) -> tuple[frozenset[UnitType], frozenset[UnitType]]:
    """The unit types a defender listing must give exactly, and those it may leave out (but
    never over-count)."""
    if kind is BattleKind.RAID:
        return _RAID_LISTING
    if is_sea:
        return _SEA_LISTING
    return _LAND_LISTING_WITH_PLANES if air_attacks else _LAND_LISTING


def mismatches(
    listed: Units, present: Units, kind: BattleKind, is_sea: bool, air_attacks: bool
) -> list[str]:
    """What is wrong with ``listed`` defenders against those ``present`` (empty: right)."""
    if listed.counts == present.counts:
        return []
    exact, _ = must_list(kind, is_sea, air_attacks)
    wrong = []
    said_by = dict(listed.counts)
    there_by = dict(present.counts)
    for unit in sorted(said_by.keys() | there_by.keys(), key=CHART_ORDER.__getitem__):
        said, there = said_by.get(unit, 0), there_by.get(unit, 0)
        if said != there and (unit in exact or said > there):
            wrong.append(f"{said} {unit.value} listed, {there} there")
    return wrong


def air_attacks(plan: Plan, site: Site) -> bool:
    """Whether planes attack in the battle at ``site``."""
    number = site.number
    for sortie in plan.sorties:
        if sortie.site.number == number:
            for unit, _ in sortie.fighting.counts:
                if unit is U.FTR or unit is U.BMB:
                    return True
    return False


def check_defenders(plan: Plan, movement: Movement) -> list[Diagnostic]:
    """An error for every battle whose listed defenders are not exactly those there."""
    found: list[Diagnostic] = []
    power = plan.power
    for site in plan.sites:
        battle = site.battle
        listed = battle.defenders
        if listed is None:
            continue
        present = movement.position.enemy_units(site.space, power)
        planes = air_attacks(plan, site)
        wrong = mismatches(listed, present, battle.kind, site.is_sea, planes)
        if not wrong:
            continue
        line = (
            battle.line
            if battle.defender is not None or battle.total is None
            else battle.total.line
        )
        said = (
            "a walk-in (no defenders)"
            if battle.kind is BattleKind.WALK_IN and not listed
            else f"defenders listed as {listed}"
        )
        aa = (
            present.count(U.AA)
            and not listed.count(U.AA)
            and planes
            and battle.kind is not BattleKind.WALK_IN
        )
        note = "; an AA gun must be listed when planes attack" if aa else ""
        found.append(
            error_finding(
                line,
                Rule.CDE,
                f"{site.name}: {said}, but {site.space} holds {present or 'no enemy units'} "
                f"({'; '.join(wrong)}){note}",
                "list the defenders exactly, or list only the territory (then nothing about them "
                f"can be wrong); {VOID_SUGGESTION}",
                Code.DEFENDERS_WRONG,
                (site.number,),
            )
        )
    return found
