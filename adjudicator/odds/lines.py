"""Casualty lines: battles in which each side's losses always follow one fixed sequence.

When every hit on a side may take any of its units, :func:`~adjudicator.battle.casualties.
casualties_by_order` takes the first units of the side's order of loss, as many as there are
hits, in every round alike. The side's state is then only *how many* it has lost: its units
in the order they are lost form a line, and ``k`` casualties leave the line's units from
``k`` on. A battle both of whose sides are lines is a grid of casualty counts
(:mod:`adjudicator.odds.grid`), where a round moves every cell by the two sides' hits.

A side is not a line when a submarine's hit ("Subs hit only ships", facts sheet section 1)
can meet one of its aircraft: such a hit skips the aircraft, so two kinds of hit take two
different sequences. Nor is the defender a line when its order changes with the attacker's
units (the default's note on a no-retreat attack by aircraft only). Low Luck is left to the
general calculator: its volleys depend on the sum of a side's powers, not on its units one
by one. Those battles go to :class:`~adjudicator.odds.rounds.RoundChain` unchanged.

AA fire before round 1 removes aircraft by the attacker's choice of casualties among his
aircraft, which need not be the end of his line: each number of AA hits starts a line of
its own, with the chance of that number as its weight.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from adjudicator.battle.casualties import aa_casualties, full_order
from adjudicator.battle.firing import AA_HITS_ON, SUPPORT_SHOT_HITS_ON
from adjudicator.battle.setup import BattleSetup
from adjudicator.odds.rounds import binomial
from adjudicator.units import CHART_ORDER, OrderOfLoss, Side, Units, UnitType

U = UnitType


def _ratio(a: int, b: int) -> float:
    return a / b


@dataclass(frozen=True)
class CasualtyLine:
    """One side's units in the order they are lost: ``units[k]`` is the ``k+1``-th casualty.

    ``weight`` is the chance that the battle starts on this line (less than 1 for the lines
    AA fire leaves the attacker).
    """

    root: Units
    units: tuple[UnitType, ...]
    weight: float = 1.0
    _left: dict[int, Units] = field(default_factory=dict, compare=False, repr=False)
    _kinds: list[UnitType] = field(default_factory=list, compare=False, repr=False)
    """Each kind of unit in the line, in chart order (as :class:`Units` lists them)."""

    def __post_init__(self) -> None:
        self._kinds.extend(sorted(set(self.units), key=CHART_ORDER.__getitem__))

    def __len__(self) -> int:
        return len(self.units)

    def left(self, lost: int) -> Units:
        """The units left after ``lost`` casualties."""
        lost = int(lost)
        found = self._left.get(lost)
        if found is None:
            count = self.units[lost:].count
            found = self._left[lost] = Units(
                tuple((unit, n) for unit in self._kinds if (n := count(unit)))
            )
        return found


def line_of(pool: Units, order: OrderOfLoss, weight: float = 1.0) -> CasualtyLine:
    """The line of ``pool`` under ``order``: what :func:`~adjudicator.battle.casualties.
    casualties_by_order` takes for unrestricted hits, unit by unit (the listed units, then
    the default order, then the chart's)."""
    sequence = full_order(order.units, order.side, order.battlefield)
    units = tuple(unit for unit in sequence for _ in range(pool.count(unit)))
    return CasualtyLine(pool, units, weight)


@dataclass(frozen=True)
class GridBattle:
    """A battle on the grid: the attacker's lines (one per number of AA hits), the
    defender's line, and what each unit throws.

    ``first_strike``: the attacking subs roll before the main roll in every round of a sea
    battle (as :class:`~adjudicator.odds.rounds.RoundChain` assumes) and not in it.
    ``support`` is the distribution of the support shots' hits in round 1 of an amphibious
    assault (``(1.0,)`` when there are none).
    """

    setup: BattleSetup
    attackers: tuple[CasualtyLine, ...]
    defenders: CasualtyLine
    first_strike: bool
    support: tuple[float, ...]

    def main_dice(self, unit: UnitType) -> tuple[float, ...]:
        """The hits one attacking ``unit`` scores in the main roll, as a distribution."""
        if self.first_strike and unit is U.SUB:
            return NO_HITS
        stats = self.setup.profile(Side.ATTACKER, unit)
        return _dice(stats.attack_dice, stats.attack or 0)

    def strike_dice(self, unit: UnitType) -> tuple[float, ...]:
        """The hits one attacking ``unit`` scores in the subs' first strike."""
        if not (self.first_strike and unit is U.SUB):
            return NO_HITS
        return _dice(1, self.setup.profile(Side.ATTACKER, U.SUB).attack or 0)

    def defence_dice(self, unit: UnitType) -> tuple[float, ...]:
        """The hits one defending ``unit`` scores (one die each)."""
        return _dice(1, self.setup.profile(Side.DEFENDER, unit).defence or 0)


NO_HITS: tuple[float, ...] = (1.0,)


@functools.lru_cache(maxsize=64)
def _dice(dice: int, value: int) -> tuple[float, ...]:
    return _spread(binomial(dice, value, _ratio))


def _spread(dist: dict[int, float]) -> tuple[float, ...]:
    out = [0.0] * (max(dist) + 1)
    for k, p in dist.items():
        out[k] = p
    return tuple(out)


def grid_battle(setup: BattleSetup, *, low_luck: bool = False) -> GridBattle | None:
    """The battle as lines, or ``None`` when it is not one (see the module's note)."""
    if low_luck:
        return None
    attacking, defending = setup.attacking, setup.defending
    if not defending:
        return None
    first_strike = not setup.is_land and attacking.count(U.SUB) > 0
    if first_strike and defending.aircraft:
        return None
    if not setup.is_land and defending.count(U.SUB) and attacking.aircraft:
        return None
    order = setup.order(Side.DEFENDER)
    defenders = line_of(defending, order)
    if line_of(defending, setup.order(Side.DEFENDER, attackers_only_air=True)) != defenders:
        return None
    attacker_order = setup.order(Side.ATTACKER)
    roots: list[tuple[Units, float]] = [(attacking, 1.0)]
    aircraft = attacking.aircraft
    if setup.is_land and setup.defender.count(U.AA) and aircraft:
        shots = binomial(aircraft, AA_HITS_ON, _ratio)
        roots = [
            (attacking.minus(aa_casualties(attacking, k, attacker_order)), p)
            for k, p in sorted(shots.items())
        ]
    attackers = tuple(line_of(root, attacker_order, p) for root, p in roots)
    support = _spread(binomial(setup.bombarding, SUPPORT_SHOT_HITS_ON, _ratio))
    return GridBattle(setup, attackers, defenders, first_strike, support)
