"""Retreat locations and sub withdrawals, checked against the board.

IAAPA Rules Clarifications, Retreats: "Any adjacent friendly land territory or sea zone will
qualify as a legal retreat location as long as an attacking unit originates from or passes
through the territory or sea zone. flight paths cannot validate retreat locations. the retreat
location does not need to be friendly at the start of the turn; it just needs to be friendly at
the time of the retreat. Any territory or sea zone that could possibly provide a retreat zone
for blitzing armor or naval units will be considered valid. ... If an invalid retreat location
is declared, all subsequent battles may, at the discretion of the Minister of Law, be voided
and subject to re-rolling." Amphibious Assaults: "If units are unloaded from a transport then
the attacker may not retreat any ground units" (the facts sheet, section 2: "the attacker may
not retreat anything"). Sub Withdrawal, with the facts sheet, section 2: "Defending subs may
withdraw to any adjacent sea zone with no enemy ships or planes in it at that moment."

A retreat location is written three ways: a result's "retreated to X", a retreat order (a
special order, or a note for the dice roller), and a defender's sub withdrawal. Each illegal
one is a warning (the Minister decides what to void; the finding voids nothing). What cannot
be known is never held against the player:

- without the turn's combat moves, only adjacency, land or sea, and friendliness are checked;
- with no battle of the turn known (no combat moves, no results), nor is friendliness: any
  battle might have taken the place;
- the order of battles is not known, so a place any won battle of the turn took (or one whose
  result is not given) counts as friendly at the time of the retreat;
- a tank that came two spaces, or a ship, may have passed through any space between its origin
  and the battle it could have used, named or not;
- survivors written as aircraft only have no retreat location to judge: "Planes that retreat
  simply land in non-combat" (facts sheet, section 2), where the landing rules judge them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from adjudicator.declarations.findings import Code, warning_finding
from adjudicator.declarations.geometry import Movement, movement_of
from adjudicator.declarations.plan import Plan, Site
from adjudicator.declarations.sites import planned
from adjudicator.diagnostics import Diagnostic, Rule
from adjudicator.fastrecord import quick_init
from adjudicator.notation.model import BattleKind, CombatOutcome, Retreat, SubWithdrawal, Turn
from adjudicator.position.model import Position
from adjudicator.position.serialize import POWER_NAMES
from adjudicator.powers import Power
from adjudicator.units import NO_UNITS, Domain, Units, UnitType

_TAKEN = frozenset({CombatOutcome.WON, CombatOutcome.WALKED_IN})
"""Outcomes that leave a territory the attacker's."""
_CLEARED = _TAKEN | {CombatOutcome.BOTH_DESTROYED}
"""Outcomes that leave a sea zone with no enemy unit."""
_GROUND = (UnitType.INF, UnitType.ARM)
"""What a transport must deliver to make an assault amphibious (Amphibious Assaults)."""

RETREAT_SUGGESTION = (
    "name an adjacent friendly {kind} an attacking unit came from or passed through; later "
    "battles may be voided and re-rolled at the Minister of Law's discretion"
)
WITHDRAWAL_SUGGESTION = (
    "name an adjacent sea zone with no enemy ships or planes in it, or keep the sub in the battle"
)


@quick_init
@dataclass(frozen=True)
class RetreatBattle:
    """A battle a retreat belongs to: where it was, and its combat moves if known."""

    space: str
    is_sea: bool
    name: str
    site: Site | None = None


def _declared(turn: Turn) -> Iterator[tuple[Retreat, Units]]:
    """Every retreat location written, with the survivors written beside it (a result's)."""
    for result in turn.results:
        if result.retreat_to is not None:
            written = Retreat(result.line, result.retreat_to, result.number, result.territory)
            yield written, result.survivors
    for order in turn.retreats:
        yield order, NO_UNITS


class RetreatCheck:
    """The retreats of one email against ``power``'s turn in ``position``."""

    def __init__(
        self, position: Position, power: Power, turn: Turn, precombat: Turn | None
    ) -> None:
        self.position = position
        self.power = power
        self.board = position.board
        self.movement = movement_of(position, power)
        known = precombat is not None and bool(precombat.battles)
        self.plan: Plan | None = None
        sites: tuple[Site, ...] = ()
        if precombat is not None and known:
            sites, _, self.plan = planned(precombat, self.movement)
        self.sites = sites
        self.results = turn.results
        self.outcomes: dict[int, CombatOutcome] = {}
        for result in turn.results:
            named = _named(sites, result.number, result.territory)
            if named is not None:
                self.outcomes.setdefault(named.number, result.outcome)
        self.battles_known = known or bool(turn.results)
        self.taken = self._taken()

    # --- which battle ------------------------------------------------------------------

    def battle(self, number: int | None, territory: str | None) -> RetreatBattle | None:
        """The battle ``number``/``territory`` names: its site when the combat moves are
        known, else the territory written (None when neither says where it was)."""
        site = _named(self.sites, number, territory)
        if site is not None:
            return RetreatBattle(site.space, site.is_sea, site.name, site)
        if territory is None or territory not in self.board.territories:
            return None
        name = (
            f"battle #{number} ({territory})"
            if number is not None
            else f"the battle in {territory}"
        )
        return RetreatBattle(territory, self.board.territories[territory].is_sea, name)

    # --- friendly at the time of the retreat ------------------------------------------------

    def _taken(self) -> frozenset[str]:
        """Spaces the turn's battles may have made friendly: land taken (by a won battle, a
        walk-in, a tank blitzing through) and sea zones cleared; a battle whose result is not
        given may have been won (the order of battles is not known)."""
        taken: set[str] = set()
        for site in self.sites:
            outcome = self.outcomes.get(site.number)
            if site.battle.kind is BattleKind.WALK_IN or outcome is None:
                taken.add(site.space)
            elif outcome in (_CLEARED if site.is_sea else _TAKEN):
                taken.add(site.space)
        if self.plan is not None:
            for sortie in self.plan.sorties:
                if sortie.origin.units.count(UnitType.ARM):
                    taken.update(p for p in sortie.origin.via if self._enemy_land(p))
        elif self.results:
            board = self.board
            for result in self.results:
                place = result.territory
                if place is None or place not in board.territories:
                    continue
                if result.outcome in (_CLEARED if board.territories[place].is_sea else _TAKEN):
                    taken.add(place)
        return frozenset(taken)

    def _enemy_land(self, place: str) -> bool:
        owner = self.position.owner(place)
        return owner is not None and owner.alliance is not self.power.alliance

    def friendly(self, place: str, is_sea: bool) -> bool:
        """Whether ``place`` is (or may be) friendly when the attacker retreats there."""
        if not self.battles_known or place in self.taken:
            return True
        if is_sea:
            return not self.position.has_enemy(place, self.power)
        return self.position.is_friendly(place, self.power)

    # --- where the attackers came from ---------------------------------------------------

    def came_from(self, site: Site) -> tuple[set[str], set[str]]:
        """The spaces an attacking unit of ``site`` originates from or passes through (or, a
        tank or a ship, could have), and those only aircraft did: flight paths cannot
        validate retreat locations."""
        assert self.plan is not None
        movement = self.movement
        walked: set[str] = set()
        flown: set[str] = set()
        for sortie in self.plan.sorties:
            origin = sortie.origin
            if sortie.site.number != site.number or origin.place is None:
                continue
            path = (origin.place, *origin.via)
            if all(u.stats.domain is Domain.AIR for u, _ in origin.units):
                flown.update(path)
                continue
            walked.update(path)
            if origin.place not in self.board.territories:
                continue
            if site.is_sea and not movement.is_sea(origin.place):
                continue
            if site.is_sea or (origin.units.count(UnitType.ARM) and not origin.transports):
                walked.update(_between(movement, origin.place, site.space))
        if site.is_sea:
            for lift in self.plan.lifts:
                if lift.site.number == site.number and lift.zone is not None:
                    walked.update((lift.zone, *lift.path))
                    walked.update(_between(movement, lift.zone, site.space))
        return walked, flown - walked

    def amphibious(self, site: Site) -> bool:
        """Whether a transport surely delivered infantry or armor into the land battle at
        ``site``: its unloading zone held no enemy, or the sea battle there was won."""
        if self.plan is None or site.is_sea:
            return False
        for lift in self.plan.lifts:
            if lift.site.number != site.number or not lift.cargo.only(*_GROUND):
                continue
            zones = (lift.unload,) if lift.unload is not None else lift.options
            if zones and all(self._open(z) for z in zones):
                return True
        return False

    def _open(self, zone: str) -> bool:
        if not self.movement.blocked(zone):
            return True
        battle = next((s for s in self.sites if s.is_sea and s.space == zone), None)
        return battle is not None and self.outcomes.get(battle.number) in _CLEARED

    # --- the findings ---------------------------------------------------------------------

    def retreat(self, declared: Retreat, survivors: Units = NO_UNITS) -> Diagnostic | None:
        """The finding about one written retreat location, if it is illegal (``survivors``:
        those the result writes, if any)."""
        fought = self.battle(declared.number, declared.territory)
        to = declared.to
        if fought is None or to not in self.board.territories:
            return None
        space, site = fought.space, fought.site
        if site is not None and self.amphibious(site):
            return warning_finding(
                declared.line,
                Rule.RETREATS,
                f"{fought.name}: a retreat to {to}, but the battle is an amphibious assault "
                "(units were unloaded from a transport into it), and then the attacker may not "
                "retreat anything: it is a fight to the death",
                "fight the battle to the end; later battles may be voided and re-rolled at the "
                "Minister of Law's discretion",
                Code.RETREAT_ILLEGAL,
                also=(Rule.AMPHIBIOUS,),
            )
        if survivors and not survivors.without(UnitType.FTR, UnitType.BMB):
            return None
        if site is not None and not self._ground_or_naval(site):
            return None
        to_sea = self.movement.is_sea(to)
        why: list[str] = []
        if to == space or to not in self.board.adjacency[space]:
            why.append(f"{to} is not adjacent to {space}")
        elif to_sea != fought.is_sea:
            why.append(
                f"{to} is a sea zone, and a land battle's survivors retreat only to land"
                if to_sea
                else f"{to} is land, and naval units retreat only to a sea zone"
            )
        else:
            if not self.friendly(to, to_sea):
                why.append(self._unfriendly(to, to_sea))
            if site is not None:
                walked, flown = self.came_from(site)
                if to not in walked:
                    why.append(
                        f"only aircraft came from or through {to}, and flight paths cannot "
                        "validate retreat locations"
                        if to in flown
                        else f"no attacking unit came from or through {to}"
                    )
        if not why:
            return None
        kind = "sea zone" if fought.is_sea else "land territory"
        return warning_finding(
            declared.line,
            Rule.RETREATS,
            f"{fought.name}: {to} is not a legal retreat location: {'; '.join(why)}",
            RETREAT_SUGGESTION.format(kind=kind),
            Code.RETREAT_ILLEGAL,
        )

    def _fighting(self, site: Site) -> Units:
        """Every unit that fights at ``site`` (cargo at sea is the lifts')."""
        assert self.plan is not None
        fighting = NO_UNITS
        for sortie in self.plan.sorties:
            if sortie.site.number == site.number:
                fighting = fighting + sortie.fighting
        return fighting

    def _ground_or_naval(self, site: Site) -> bool:
        """Whether anything but aircraft attacks at ``site`` (planes alone land in the
        non-combat move: no retreat location to judge)."""
        assert self.plan is not None
        if site.is_sea and any(lift.site.number == site.number for lift in self.plan.lifts):
            return True
        return bool(self._fighting(site).without(UnitType.FTR, UnitType.BMB))

    def _unfriendly(self, to: str, is_sea: bool) -> str:
        if is_sea:
            held = self.position.enemy_units(to, self.power)
            return f"{to} holds enemy units ({held}) and no battle of the turn cleared it"
        owner = self.position.owner(to)
        whose = "a neutral" if owner is None else f"held by {POWER_NAMES[owner]}"
        return f"{to} is {whose} and was not taken this turn: it is not friendly"

    def withdrawal(self, order: SubWithdrawal) -> Diagnostic | None:
        """The finding about one defending sub's withdrawal zone, if it is illegal."""
        line, to = order.line, order.to
        fought = self.battle(order.number, order.territory)
        if fought is None or not fought.is_sea or to not in self.board.territories:
            return None
        space, power = fought.space, self.power
        if not self.position.enemy_units(space, power).count(UnitType.SUB):
            return None  # no defending sub there: not the defender's withdrawal
        if fought.site is not None and self._fighting(fought.site).count(UnitType.SUB):
            return None  # the attacker's subs fought too: whose withdrawal is not clear
        defender = next(
            p for p in self.position.units_at(space) if p.alliance is not power.alliance
        )
        why = ""
        if to == space or to not in self.board.adjacency[space]:
            why = f"{to} is not adjacent to {space}"
        elif not self.movement.is_sea(to):
            why = f"{to} is land: subs withdraw only to a sea zone"
        elif movement_of(self.position, defender).canal_closed(space, to):
            why = f"the canal between {space} and {to} was not the defender's side's at the start"
        else:
            there = self._attackers_in(to)
            if there:
                why = f"the attacker's side has {there} in {to} at that moment"
        if not why:
            return None
        return warning_finding(
            line,
            Rule.SUB_WITHDRAWAL,
            f"{fought.name}: the defending subs may not withdraw to {to}: {why} (defending subs "
            "withdraw to an adjacent sea zone with no enemy ships or planes in it)",
            WITHDRAWAL_SUGGESTION,
            Code.RETREAT_ILLEGAL,
        )

    def _attackers_in(self, zone: str) -> Units:
        """The attacker's side's units surely in ``zone`` during combat: its allies' (they do
        not move in its turn), and, when the combat moves are known, the mover's that did not
        leave and transports unloading there."""
        position, power = self.position, self.power
        there = NO_UNITS
        for other, units in position.units_at(zone).items():
            if other is not power and other.alliance is power.alliance:
                there = there + units
        if self.plan is None:
            return there
        left: dict[UnitType, int] = {}
        arrived = 0
        for sortie in self.plan.sorties:
            if sortie.place == zone:
                for unit, n in sortie.origin.units.counts:
                    left[unit] = left.get(unit, 0) + n
        for lift in self.plan.lifts:
            if lift.zone == zone:
                left[UnitType.TRN] = left.get(UnitType.TRN, 0) + lift.count
            elif lift.unload == zone and not lift.site.is_sea and not self.movement.blocked(zone):
                arrived += lift.count
        stayed = Units.of(
            (u, max(0, n - left.get(u, 0))) for u, n in position.units_of(zone, power)
        )
        return there + stayed + Units.of({UnitType.TRN: arrived})


def _named(sites: tuple[Site, ...], number: int | None, territory: str | None) -> Site | None:
    """The battle a result or an order names: by number (and place, if written), else by
    place alone."""
    for site in sites:
        if number == site.number and territory in (None, site.battle.territory, site.space):
            return site
    if number is None:
        for site in sites:
            if territory in (site.battle.territory, site.space):
                return site
    return None


def _between(movement: Movement, start: str, end: str) -> set[str]:
    """Spaces a tank (land) or a ship (sea) in ``start`` could have passed through on a two
    space move to ``end``: next to both, and open to it (a tank blitzes only a territory with
    nothing that fights; a ship never sails through an enemy zone or a closed canal)."""
    board = movement.board
    if start not in board.adjacency or end not in board.adjacency:
        return set()
    middles = board.adjacency[start] & board.adjacency[end]
    if movement.is_sea(start):
        return {
            z
            for z in middles
            if movement.is_sea(z)
            and not movement.blocked(z)
            and not movement.canal_closed(start, z)
            and not movement.canal_closed(z, end)
        }
    return {t for t in middles if not movement.is_sea(t) and movement.blitzable(t)}


def check_retreats(
    position: Position, power: Power, turn: Turn, precombat: Turn | None
) -> list[Diagnostic]:
    """Every illegal retreat location and sub withdrawal written in ``turn``, ``power``'s
    turn starting at ``position``; ``precombat`` is the turn's combat moves when known (it
    may be ``turn`` itself), None when not: then only what the board alone decides is
    checked."""
    declared = list(_declared(turn))
    if not declared and not turn.withdrawals:
        return []
    check = RetreatCheck(position, power, turn, precombat)
    found = [f for d, left in declared if (f := check.retreat(d, left)) is not None]
    found.extend(f for order in turn.withdrawals if (f := check.withdrawal(order)) is not None)
    return found
