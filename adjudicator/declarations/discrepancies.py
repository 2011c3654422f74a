"""A post-combat turn applied to the position: the map update weighed against the orders.

IAAPA Post Combat Orders: "The attacker will then send a final e-mail indicating the results of
combat, his non-combat moves, a map update (This is a list that contains all territories that
said country has units in and/or possesses), and give a territory and IPC count. ... In the
event of a discrepancy between the non-combat moves and the map update, the non-combat moves
take precedence." Error Correction V: "If there is a dispute between listed non-combat moves and
the map update the listed non-combat moves will take precedence."

So, space by space and type by type, the map update is compared with the bounds the orders
give (:mod:`.aftermath`). Within them, the map update is taken. Outside them, a listed
non-combat move into or out of the space wins, and the finding says which line won; with no
such move, the map update stands (Section V decides only between the two), with a warning. A
space the map update leaves out keeps what the orders put there. Territories taken change hands
(an ally's original territory goes back to it if its capital is free [SPEC p.14,20]:
:mod:`adjudicator.position.liberation`), enemy units there and in cleared sea zones are gone,
and the bank pays for purchases, research (5 a die), neutrals entered (3 each [XML
neutralCharge]) and collects income (IAAPA Income Collection and Spending).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from adjudicator.declarations.aftermath import NONE_THERE, STAY, Expectation, captors, expect
from adjudicator.declarations.findings import BY_LINE, Code, info_finding, warning_finding
from adjudicator.declarations.placement import check_placements
from adjudicator.diagnostics import Diagnostic, Rule
from adjudicator.fastrecord import quick_init
from adjudicator.notation.model import Turn
from adjudicator.position.liberation import new_owner, restored
from adjudicator.position.model import Position, PositionError, check, copied
from adjudicator.position.serialize import POWER_NAMES
from adjudicator.powers import Power
from adjudicator.units import (
    CHART_ORDER,
    NO_UNITS,
    Domain,
    Technology,
    Units,
    UnitType,
    tally,
    unit_profile,
)

NEUTRAL_FEE = 3
"""IPCs paid to enter a neutral [SPEC p.8,13; XML neutralCharge=3]."""
TECH_DIE = 5
"""IPCs a research die costs [W6]."""


@quick_init
@dataclass(frozen=True)
class PostCombat:
    """A post-combat turn applied: the position after it, and what was found on the way."""

    power: Power
    position: Position
    findings: tuple[Diagnostic, ...]
    expectation: Expectation | None = None
    """What the orders were read to leave (:func:`.aftermath.expect`), for later checks."""


def _could_stay(listed: Units, start: Units) -> bool:
    """Whether ``listed`` units could be what is left of ``start`` after combat moves nobody
    wrote down: no more of any type, and every AA gun and complex still there."""
    had = dict(start.counts)
    return all(n <= had.get(u, 0) for u, n in listed.counts) and all(
        dict(listed.counts).get(u, 0) == n for u, n in start.counts if u in STAY
    )


def _bounds(lo: int, hi: int | None, unit: UnitType) -> str:
    if hi == lo:
        return f"{lo} {unit.value}"
    return f"{lo} to {hi} {unit.value}" if hi is not None else f"at least {lo} {unit.value}"


def _lines(lines: list[int]) -> str:
    unique = sorted(set(lines))
    return ("line " if len(unique) == 1 else "lines ") + ", ".join(map(str, unique))


class Reconciler:
    """Weighs one post-combat turn's map update against its orders."""

    def __init__(self, position: Position, power: Power, turn: Turn, exp: Expectation) -> None:
        self.position = position
        self.power = power
        self.turn = turn
        self.exp = exp
        self.found: list[Diagnostic] = []
        self.listed: dict[str, Units] = {}
        self.map_line: dict[str, int] = {}
        for entry in turn.map:
            self.listed[entry.place] = self.listed.get(entry.place, Units()) + entry.own(power)
            self.map_line.setdefault(entry.place, entry.line)

    def units(self) -> dict[str, Units]:
        """The mover's units after the turn in every space where they changed."""
        exp = self.exp
        has_map = bool(self.turn.map)
        final: dict[str, Units] = {}
        omitted: list[str] = []
        for space in sorted(set(exp.base) | set(exp.spans) | set(self.listed)):
            listed = self.listed.get(space)
            if space not in exp.spans:  # untouched by the orders (:meth:`~Expectation.touched`)
                start = exp.base.get(space, NO_UNITS)
                if not has_map or (listed is not None and listed.counts == start.counts):
                    continue
                if listed is None:
                    if start.counts:
                        omitted.append(f"{space} ({start})")
                    continue
                if exp.loose and _could_stay(listed, start):
                    final[space] = listed
                    continue
            final[space] = self._space(space, listed, has_map, omitted)
        if omitted:
            self.found.append(
                warning_finding(
                    min(self.map_line.values()),
                    Rule.DISCREPANCIES,
                    f"the map update leaves out {len(omitted)} space(s) where the orders leave "
                    f"units: {'; '.join(omitted)}; they are kept where they were",
                    "list every territory and sea zone with units, and every territory held "
                    "(Post Combat Orders: the map update is a list of them all)",
                    Code.MAP_OMITS,
                )
            )
        return final

    def _space(self, space: str, listed: Units | None, has_map: bool, omitted: list[str]) -> Units:
        """The mover's units in one space, type by type, and the findings about it."""
        exp = self.exp
        bounds = exp.space_bounds(space)
        if not has_map:  # the orders alone: each type at the most they leave
            return tally([(unit, lo if hi is None else hi) for unit, (lo, hi) in bounds.items()])
        said_all: dict[UnitType, int] = dict(listed.counts) if listed is not None else {}
        captured = self._captured(space, listed)
        if captured:
            bounds = dict(bounds)
            for unit, n in captured:
                lo, hi = bounds.get(unit, NONE_THERE)
                bounds[unit] = (lo, None if hi is None else hi + n)  # listed or not
        counts: dict[UnitType, int] = {}
        overruled: list[tuple[UnitType, int, int, list[int]]] = []
        standing: list[tuple[UnitType, int, int, int | None]] = []
        excess: list[tuple[UnitType, int, int, int | None]] = []
        left_out = False
        hostile = listed is None and self._hostile(space)
        for unit in bounds.keys() | said_all.keys():
            lo, hi = bounds.get(unit, NONE_THERE)
            estimate = hi if hi is not None else lo
            if hostile and unit.stats.domain is Domain.AIR:
                estimate = lo  # no plane stays over land the enemy holds: lost, or landed
            moves = exp.moves.get((space, unit), [])
            if listed is None:
                counts[unit] = estimate
                if lo and moves:
                    overruled.append((unit, 0, estimate, moves))
                elif estimate:
                    left_out = True
                continue
            said = said_all.get(unit, 0)
            if lo <= said and (hi is None or said <= hi):
                counts[unit] = said
                continue
            bounded = max(lo, said) if hi is None else min(max(lo, said), hi)
            if moves:
                counts[unit] = bounded
                overruled.append((unit, said, bounded, moves))
            elif hi is not None and said > hi:
                counts[unit] = hi
                excess.append((unit, said, lo, hi))
            else:
                counts[unit] = said
                standing.append((unit, said, lo, hi))
        # the AA guns and complexes taken are given to the new owner with the territory
        result = (
            tally((unit, max(0, n - captured.count(unit))) for unit, n in counts.items())
            if captured
            else tally(counts.items())
        )
        if overruled:
            self._overruled(space, listed, sorted(overruled, key=lambda o: CHART_ORDER[o[0]]))
        if standing:
            self._standing(
                space, sorted(standing, key=lambda o: CHART_ORDER[o[0]]), Code.MAP_DIFFERS
            )
        if excess:
            self._standing(space, sorted(excess, key=lambda o: CHART_ORDER[o[0]]), Code.MAP_EXCESS)
        if left_out:
            omitted.append(f"{space} ({result})")
        return result

    def _captured(self, space: str, listed: Units | None) -> Units:
        """The AA guns and complexes the mover takes with ``space`` (facts sheet, section
        8: "Captured AA guns and ICs change owner"): the map
        update lists them among his units there, and :func:`apply_post_combat` gives them
        to the new owner. None unless the space is taken, by a result or by the map update
        listing land units where his side held nothing."""
        if space not in self.exp.captured and not (listed is not None and captors(listed)):
            return NO_UNITS
        if self.position.board.territories[space].is_sea or self.position.is_friendly(
            space, self.power
        ):
            return NO_UNITS
        enemy = self.position.enemy_units(space, self.power)
        return Units.of((u, n) for u, n in enemy if u in STAY)

    def _hostile(self, space: str) -> bool:
        """Whether ``space`` is land the mover's side neither held nor took this turn: where
        his aircraft cannot end it (a plane the dice spared lands elsewhere)."""
        return (
            not self.position.board.territories[space].is_sea
            and space not in self.exp.captured
            and not self.position.is_friendly(space, self.power)
        )

    def _overruled(
        self,
        space: str,
        listed: Units | None,
        overruled: list[tuple[UnitType, int, int, list[int]]],
    ) -> None:
        """A warning naming the non-combat move that won over the map update (Section V)."""
        if not overruled:
            return
        numbers = sorted({line for *_, lines in overruled for line in lines})
        moves = _lines(numbers)
        kind = "non-combat move" if len(numbers) == 1 else "non-combat moves"
        verb = "takes" if len(numbers) == 1 else "take"
        gives = ", ".join(f"{value} {unit.value}" for unit, _, value, _ in overruled)
        if listed is None:
            line = numbers[0]
            said = f"the map update leaves {space} out"
            loser = "the map update"
        else:
            line = self.map_line[space]
            lists = ", ".join(f"{n} {unit.value}" for unit, n, _, _ in overruled)
            said = f"{space}: the map update (line {line}) lists {lists}"
            loser = f"line {line} (map update)"
        self.found.append(
            warning_finding(
                line,
                Rule.DISCREPANCIES,
                f"{said}, but with the {kind} on {moves} the orders give {gives} there: {moves} "
                f"({kind}) {verb} precedence over {loser}; the position has {gives} in {space}",
                "correct the map update to agree with the non-combat moves",
                Code.MAP_OVERRULED,
            )
        )

    def _standing(
        self, space: str, standing: list[tuple[UnitType, int, int, int | None]], code: Code
    ) -> None:
        """A warning for a map update the orders do not explain, no non-combat move being
        involved: fewer units than the orders leave stand (losses the position does not
        know of); more than they can leave do not (no order puts them there)."""
        if not standing:
            return
        line = self.map_line[space]
        lists = ", ".join(f"{said} {unit.value}" for unit, said, _, _ in standing)
        orders = ", ".join(_bounds(lo, hi, unit) for unit, _, lo, hi in standing)
        placed = [ln for unit, *_ in standing for ln in self.exp.placed.get((space, unit), [])]
        note = f" (placements on {_lines(placed)})" if placed else ""
        if code is Code.MAP_EXCESS:
            kept = ", ".join(f"{hi} {unit.value}" for unit, _, _, hi in standing)
            ruling = (
                f"no order puts that many there, so the position keeps {kept} (Error "
                "Correction V decides only between non-combat moves and the map; a map "
                "update cannot make units)"
            )
        else:
            ruling = (
                "no non-combat move is listed for them, so the map update stands (Error "
                "Correction V gives precedence only to non-combat moves)"
            )
        self.found.append(
            warning_finding(
                line,
                Rule.DISCREPANCIES,
                f"{space}: the map update (line {line}) lists {lists}, but the position and the "
                f"orders{note} give {orders}; {ruling}",
                "check the map update and the moves; either player may ask to correct it before "
                "the next turn (Error Correction VII)",
                code,
            )
        )

    def owners(self, final: dict[str, Units]) -> dict[str, int]:
        """Land taken this turn, with the line that says so: by a result, or by the map update
        listing land units in a territory the mover's side did not hold."""
        taken = dict(self.exp.captured)
        for space, units in final.items():
            if (
                captors(units)
                and space in self.listed
                and not self.position.board.territories[space].is_sea
                and not self.position.is_friendly(space, self.power)
            ):
                taken.setdefault(space, self.map_line[space])
        return taken


def _spent(
    position: Position, power: Power, turn: Turn, precombat: Turn | None
) -> tuple[int, frozenset[Technology]]:
    """IPCs spent on units and research, and the technologies gained."""
    orders = precombat if precombat is not None else turn
    techs = set(position.technologies_of(power))
    dice = 0
    for result in (*orders.tech, *(turn.tech if orders is not turn else ())):
        dice += result.dice or 0
        techs.update(result.technologies)
    bought = [p.units for p in orders.purchases] or [p.units for p in turn.placements]
    cost = sum(unit_profile(u, techs).cost * n for units in bought for u, n in units.counts)
    return cost + TECH_DIE * dice, frozenset(techs)


def apply_post_combat(
    position: Position, turn: Turn, *, precombat: Turn | None = None, power: Power | None = None
) -> PostCombat:
    """``turn``'s post-combat orders applied to ``position`` (the start of the mover's turn),
    with ``precombat`` the same turn's combat moves when known."""
    mover = (
        power
        or turn.power
        or next((c.power for c in turn.counts if c.power is not None), position.to_move)
    )
    exp = expect(position, mover, turn, precombat)
    rec = Reconciler(position, mover, turn, exp)
    final = rec.units()
    changes: dict[str, dict[Power, Units]] = {}
    for space, units in final.items():
        if units.counts != exp.base.get(space, NO_UNITS).counts:
            changes[space] = copied(position.units_at(space))
            changes[space][mover] = units
    after = position
    taken = rec.owners(final)
    for territory in taken:
        new = new_owner(position, position.owners, territory, mover)
        after = after.with_owner(territory, new)
        here = changes.setdefault(territory, copied(position.units_at(territory)))
        for enemy, held in list(here.items()):
            if enemy.alliance is not mover.alliance:
                kept = Units.of((u, n) for u, n in held if u in (UnitType.AA, UnitType.IC))
                here[enemy] = Units()
                here[new] = here.get(new, Units()) + kept
        if new is not mover and position.capital(new) == territory:
            for back in restored(position, position.owners, new):
                after = after.with_owner(back, new)
                there = changes.setdefault(back, copied(position.units_at(back)))
                for holder, held in list(there.items()):
                    if holder is not new and held.count(UnitType.IC):
                        complexes = Units.of({UnitType.IC: held.count(UnitType.IC)})
                        there[holder] = held.minus(complexes)
                        there[new] = there.get(new, Units()) + complexes
    for zone in exp.cleared:
        here = changes.setdefault(zone, copied(position.units_at(zone)))
        for enemy in list(here):
            if enemy.alliance is not mover.alliance:
                here[enemy] = Units()
    found = rec.found
    orders = precombat if precombat is not None else turn
    found.extend(
        check_placements(
            position,
            mover,
            turn.placements,
            owners=after.owners,
            cleared=exp.cleared,
            bought=bool(orders.purchases),
        )
    )
    for territory, line in exp.air_only.items():
        defender = position.owner(territory)
        stays = f"{POWER_NAMES[defender]}'s" if defender is not None else "neutral"
        found.append(
            info_finding(
                line,
                Rule.POST_COMBAT,
                f"{territory}: won with only aircraft left, and planes never capture: "
                f"{territory} stays {stays}",
                "only a land unit left in the territory takes it",
                Code.AIR_ONLY,
                also=(Rule.CAPTURE,),
            )
        )
    bank = copied(position.bank)
    cost, techs = _spent(position, mover, turn, precombat)
    neutrals = sum(1 for t in taken if position.owner(t) is None)
    for territory in taken:
        loser = position.owner(territory)
        if loser is not None and position.capital(loser) == territory:
            bank[mover] += bank[loser]
            bank[loser] = 0
    for target, damage in exp.damage.items():
        victim = position.owner(target)
        if victim is not None:
            bank[victim] = max(0, bank[victim] - damage)
    left = bank[mover] - cost - NEUTRAL_FEE * neutrals
    if left < 0:
        found.append(
            warning_finding(
                0,
                Rule.INCOME,
                f"the turn spends {cost + NEUTRAL_FEE * neutrals}"
                f" IPCs, but only {bank[mover]} were in hand",
                "check the purchases and research",
                Code.OVERSPENT,
                also=(Rule.PURCHASE_UNITS,),
            )
        )
    technologies = copied(position.technologies)
    technologies[mover] = techs
    bank[mover] = max(0, left) + after.income(mover)  # income: the owners, not the units
    result = (after.with_spaces(changes) if changes else after).with_funds(
        MappingProxyType(bank), MappingProxyType(technologies)
    )
    try:
        check(result, changes)
    except PositionError as exc:
        found.append(
            warning_finding(
                min(rec.map_line.values(), default=0),
                Rule.DISCREPANCIES,
                f"the position the turn leaves is not a legal one: {exc}",
                "check the map update and the non-combat moves",
                Code.IMPOSSIBLE_POSITION,
            )
        )
    found.extend(_others_listed(turn, mover, result))
    if mover is position.to_move:
        result = result.next_turn()
    return PostCombat(mover, result, tuple(sorted(found, key=BY_LINE)), exp)


def _others_listed(turn: Turn, mover: Power, after: Position) -> list[Diagnostic]:
    """Other powers' units the map update writes beside the mover's ("Egypt 1 INF (2 US
    INF)") that ``after``, the position the turn leaves, does not have there. The map update
    is "a list that contains all territories that said country has units in and/or
    possesses": the mover's, so another power's units are only compared, never taken."""
    written: dict[tuple[str, Power], tuple[Units, int]] = {}
    for entry in turn.map:
        for power, units in entry.others:
            if power is not mover:
                before, line = written.get((entry.place, power), (NO_UNITS, entry.line))
                written[(entry.place, power)] = (before + units, line)
    found: list[Diagnostic] = []
    for (place, power), (units, line) in written.items():
        have = after.units_of(place, power)
        if units == have:
            continue
        found.append(
            warning_finding(
                line,
                Rule.DISCREPANCIES,
                f"{place}: the map update lists {POWER_NAMES[power]}'s {units} there, and "
                f"the position has {have or 'none'} of {POWER_NAMES[power]}'s; a map update "
                f"lists {POWER_NAMES[mover]}'s own units, so {POWER_NAMES[power]}'s stay as "
                "the position has them",
                "check the board: either player may ask to correct the position before the "
                "next turn is rolled (Error Correction VII)",
                Code.MAP_OTHERS,
            )
        )
    return found
