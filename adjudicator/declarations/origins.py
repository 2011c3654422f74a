"""Are the attacking units where the orders say, and is nothing sent twice?

IAAPA Error Correction II: "The exact number and type of attacking units, along with their
country/territory or sea zone of origin, must be listed for each declared combat. If any of
this information is incorrect, it is considered a CDE ... If a player makes a CDE by sending
more than the available number of attacking units from the same territory into multiple
battles, ALL battles involving the affected units from that attacking territory will be
considered null and void". And the exception: "if it is clear from the combat orders where
the battle is to occur, and what units are involved, and the units are 100% correct, then no
CDE can be called" (the submarine example: a single possible unit).

An origin written so that it fits several places ("Car SZ": Caroline Islands or Carribean Sea
Zone; the notation keeps them as ``could_be``) is read as the one of them holding every type
the line lists and able to reach the battle, when only one is; otherwise as any origin that is
not given, by the single place on the board the units can come from, else a CDE. The plan
reads them (:mod:`.readings`), so that every check sees the same origin; this check says so.

Transports are counted per zone: the same transports may fight the sea battle that clears a
zone and carry the assault unloading from it, but "Any given transport may only unload into
one amphibious assault" (Rules Clarifications, Transport Unloading).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from adjudicator.declarations.findings import (
    VOID_SUGGESTION,
    Code,
    either,
    error_finding,
    warning_finding,
)
from adjudicator.declarations.geometry import Movement
from adjudicator.declarations.plan import Plan, Site, Sortie
from adjudicator.declarations.readings import Clue, OriginReading
from adjudicator.diagnostics import Diagnostic, Rule
from adjudicator.fastrecord import quick_init
from adjudicator.units import UnitType


@quick_init
@dataclass(frozen=True)
class Demand:
    """``count`` units of one type drawn from one origin for one battle, on ``line``."""

    site: Site
    line: int
    count: int


def _sites(demands: list[Demand]) -> tuple[int, ...]:
    return tuple(sorted({d.site.number for d in demands}))


def _names(demands: list[Demand]) -> str:
    seen: dict[int, str] = {}
    for d in demands:
        seen.setdefault(d.site.number, d.site.name)
    return ", ".join(seen[n] for n in sorted(seen))


class OriginCheck:
    """Collects every battle's demand on every origin, then rules on it."""

    def __init__(self, plan: Plan, movement: Movement) -> None:
        self.plan = plan
        self.position = movement.position
        self.power = plan.power
        self.found: list[Diagnostic] = []
        self.counts = self.position.unit_counts(self.power)
        self.units: dict[tuple[str, UnitType], list[Demand]] = defaultdict(list)

    def have(self, place: str, unit: UnitType) -> int:
        """How many ``unit`` the attacker has in ``place`` at the start of the turn."""
        return self.counts.get((place, unit), 0)

    def run(self) -> list[Diagnostic]:
        """Every finding about origins, in the order of the lines."""
        for sortie in self.plan.sorties:
            if sortie.reading is not None:
                self._read(sortie, sortie.reading)
        for sortie in self.plan.sorties:
            for unit, count in sortie.fighting.counts:
                if unit is not UnitType.TRN or sortie.site.is_sea:
                    self._locate(sortie, unit, count)
        for (place, unit), demands in self.units.items():
            if unit is not UnitType.TRN:
                self._total(place, unit, demands)
        self._transports()
        return self.found

    def _read(self, sortie: Sortie, reading: OriginReading) -> None:
        """The warning that an origin not written right was read as the one place the orders
        make clear (the plan reads it: :mod:`.readings`): no CDE (Error Correction II)."""
        site, place = sortie.site, sortie.place
        written = reading.written
        could_be = written.could_be
        if reading.clue is Clue.NAME:
            self.found.append(
                warning_finding(
                    sortie.line,
                    Rule.CDE,
                    f"{site.name}: {reading.units} listed from a name that could be "
                    f"{either(could_be)}; only {place} holds them and they can reach the "
                    f"battle from there, so it is clear where they come from: read as from "
                    f"{place}",
                    f'write the origin in full to avoid a dispute: "{place} {reading.units}"',
                    Code.INTENT_CLEAR,
                    (site.number,),
                )
            )
            return
        stated = (
            f"from {written.place}"
            if written.place
            else f"from a name that could be {either(could_be)}"
            if could_be
            else "with no origin"
        )
        for unit, count in reading.units.counts:
            self.found.append(
                warning_finding(
                    sortie.line,
                    Rule.CDE,
                    f"{site.name}: {count} {unit.value} listed {stated}; the attacker's only "
                    f"{unit.value} on the board not listed elsewhere are in {place}, and can "
                    f"reach the battle, so the intent is clear and no CDE can be called; read as "
                    f"from {place}",
                    f'write the origin as {place} to avoid a dispute: "{place} {count} '
                    f'{unit.value}"',
                    Code.INTENT_CLEAR,
                    (site.number,),
                )
            )

    def _locate(self, sortie: Sortie, unit: UnitType, count: int) -> None:
        """File the demand under its origin (as written, or as the plan read it), or call the
        CDE: an origin missing, not clear, or not holding the units."""
        place = sortie.place
        if place is not None and self.counts.get((place, unit)):
            self.units[(place, unit)].append(Demand(sortie.site, sortie.line, count))
            return
        site = sortie.site
        could_be = sortie.origin.could_be
        if could_be:
            holding = [p for p in could_be if self.have(p, unit)]
            self.found.append(
                error_finding(
                    sortie.line,
                    Rule.CDE,
                    f"{site.name}: {count} {unit.value} listed from a name that could be "
                    f"{either(could_be)}, and "
                    + (
                        f"{either(holding, 'and')} each hold the attacker's {unit.value}: "
                        "the origin is not clear"
                        if len(holding) > 1
                        else f"only {holding[0]} holds the attacker's {unit.value}, but not "
                        "every unit the line lists, or not able to reach the battle"
                        if holding
                        else f"none of them holds the attacker's {unit.value}"
                    ),
                    f"write the origin in full; {VOID_SUGGESTION}",
                    Code.ORIGIN_NOT_LISTED,
                    (site.number,),
                )
            )
            return
        if place is None:
            self.found.append(
                error_finding(
                    sortie.line,
                    Rule.CDE,
                    f"{site.name}: {count} {unit.value} have no territory or sea zone of origin",
                    f'list where the units start, e.g. "<origin> {count} {unit.value}"; '
                    f"{VOID_SUGGESTION}",
                    Code.ORIGIN_NOT_LISTED,
                    (site.number,),
                )
            )
            return
        self.found.append(
            error_finding(
                sortie.line,
                Rule.CDE,
                f"{site.name}: {count} {unit.value} listed from {place}, where the attacker "
                f"has no {unit.value}",
                f"correct the origin or the units; {VOID_SUGGESTION}",
                Code.NOT_AT_ORIGIN,
                (site.number,),
            )
        )

    def _total(self, place: str, unit: UnitType, demands: list[Demand]) -> None:
        have = self.counts.get((place, unit), 0)
        total = sum([d.count for d in demands])
        if total <= have:
            return
        battles = _sites(demands)
        if len(battles) == 1:
            site = demands[0].site
            self.found.append(
                error_finding(
                    demands[0].line,
                    Rule.CDE,
                    f"{site.name}: {total} {unit.value} listed from {place}, which holds {have}",
                    f"list the {unit.value} {place} holds; {VOID_SUGGESTION}",
                    Code.NOT_AT_ORIGIN,
                    battles,
                )
            )
            return
        sums = " + ".join(str(d.count) for d in demands)
        for number in battles:
            mine = [d for d in demands if d.site.number == number]
            self.found.append(
                error_finding(
                    min(d.line for d in mine),
                    Rule.CDE,
                    f"{mine[0].site.name}: {place} holds {have} {unit.value}, but {sums} = {total} "
                    f"are sent from it into {_names(demands)}: every battle using them is void",
                    "send no more units from a territory than it holds; an over-committed "
                    "territory voids ALL battles using its units (Error Correction II)",
                    Code.OVER_COMMITTED,
                    battles,
                )
            )

    def _transports(self) -> None:
        """Transports per starting zone: carrying assaults, and fighting sea battles."""
        if not self.plan.lifts and not any(unit is UnitType.TRN for _, unit in self.units):
            return  # no transport carries or fights
        carrying: dict[str, dict[object, list[Demand]]] = defaultdict(lambda: defaultdict(list))
        fighting: dict[str, dict[str, list[Demand]]] = defaultdict(lambda: defaultdict(list))
        for lift in self.plan.lifts:
            if lift.zone is None:
                continue
            demand = Demand(lift.site, lift.line, lift.count)
            if lift.site.is_sea:
                fighting[lift.zone][lift.site.space].append(demand)
            else:
                key: object = lift.unload if lift.unload is not None else ("line", lift.line)
                carrying[lift.zone][key].append(demand)
        for (place, unit), demands in self.units.items():
            if unit is UnitType.TRN:
                for d in demands:
                    fighting[place][d.site.space].append(d)
        for zone in sorted(set(carrying) | set(fighting)):
            self._zone(zone, carrying.get(zone, {}), fighting.get(zone, {}))

    def _zone(
        self, zone: str, carrying: dict[object, list[Demand]], fighting: dict[str, list[Demand]]
    ) -> None:
        have = self.have(zone, UnitType.TRN)
        used = 0
        for key, demands in carrying.items():
            used += max(
                sum(d.count for d in demands),
                sum(d.count for d in fighting.get(key, [])) if isinstance(key, str) else 0,
            )
        used += sum(sum(d.count for d in ds) for key, ds in fighting.items() if key not in carrying)
        if used <= have:
            return
        everything = [d for ds in (*carrying.values(), *fighting.values()) for d in ds]
        battles = _sites(everything)
        assaults = sorted({d.site.number for ds in carrying.values() for d in ds})
        if len(battles) == 1:
            d = everything[0]
            code = Code.NOT_ENOUGH_TRANSPORTS if carrying else Code.NOT_AT_ORIGIN
            self.found.append(
                error_finding(
                    d.line,
                    Rule.CDE,
                    f"{d.site.name}: {used} TRN needed from {zone}, which holds {have}: not "
                    "enough transports",
                    f"list only transports that are there; {VOID_SUGGESTION}",
                    code,
                    battles,
                )
            )
            return
        two = len(assaults) > 1
        rule = Rule.TRANSPORT_UNLOADING if two else Rule.CDE
        also = (Rule.CDE,) if two else ()
        why = "; any given transport may only unload into one amphibious assault" if two else ""
        for number in battles:
            mine = [d for d in everything if d.site.number == number]
            self.found.append(
                error_finding(
                    min(d.line for d in mine),
                    rule,
                    f"{mine[0].site.name}: {zone} holds {have} TRN, but {used} are sent from it "
                    f"into {_names(everything)}{why}: every battle using them is void",
                    "give each assault its own transports, no more than the zone holds",
                    Code.TRANSPORT_TWO_ASSAULTS if two else Code.OVER_COMMITTED,
                    battles,
                    also,
                )
            )


def check_origins(plan: Plan, movement: Movement) -> list[Diagnostic]:
    """Findings on where the attacking units and transports come from."""
    return OriginCheck(plan, movement).run()
