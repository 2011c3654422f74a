"""One battle round as a probability distribution over the casualty states it can lead to.

The round is the engine's own (:func:`adjudicator.battle.engine.play_round`), phase by phase,
with every die replaced by its distribution:

1. before round 1 of a land battle, the AA gun fires one die per attacking aircraft (a 1
   hits), and :func:`~adjudicator.battle.casualties.aa_casualties` picks the aircraft lost;
2. in round 1 of an amphibious assault the support battleships fire (4 or less); their
   hits join the attacker's main roll, so their casualties fire back;
3. attacking subs strike first in every round of a sea battle (the attacker's discretion
   in the engine; always taken here, since it can only spare the subs' targets' return fire);
   their casualties are removed before the main roll and sub hits never take aircraft;
4. both main rolls, at the values :meth:`~adjudicator.battle.setup.BattleSetup.profile` gives
   (technologies applied, heavy bombers' extra dice counted), casualties chosen by
   :func:`~adjudicator.battle.casualties.casualties_by_order` under
   :meth:`~adjudicator.battle.setup.BattleSetup.order` (special orders, the default, and the
   default's note for air-only attacks that cannot retreat).

A side's hits are a pair ``(restricted, unrestricted)``: submarines' hits apart, as the engine
counts them. Probabilities are of a numeric type chosen by the caller (``float`` for speed,
:class:`fractions.Fraction` for exact checks): ``ratio(a, b)`` builds ``a / b`` in it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from math import comb
from typing import Generic, Protocol, TypeVar

from adjudicator.battle.casualties import aa_casualties, casualties_by_order
from adjudicator.battle.engine import start
from adjudicator.battle.firing import AA_HITS_ON, SUPPORT_SHOT_HITS_ON
from adjudicator.battle.lowluck import power, split
from adjudicator.battle.result import Outcome, captures
from adjudicator.battle.setup import BattleSetup
from adjudicator.rolls.battle import SIDES
from adjudicator.units import NO_UNITS, Side, Units, UnitType

U = UnitType
Prob = TypeVar("Prob", float, Fraction)
Hits = dict[tuple[int, int], Prob]
"""Probability of each ``(restricted, unrestricted)`` number of hits."""


def binomial(dice: int, value: int, ratio: Callable[[int, int], Prob]) -> dict[int, Prob]:
    """Hits of ``dice`` dice that each hit on ``value`` or less."""
    value = max(0, min(value, SIDES))
    if dice == 0 or value == 0:
        return {0: ratio(1, 1)}
    if value == SIDES:
        return {dice: ratio(1, 1)}
    p, q = ratio(value, SIDES), ratio(SIDES - value, SIDES)
    return {k: comb(dice, k) * p**k * q ** (dice - k) for k in range(dice + 1)}


def low_luck(power: int, ratio: Callable[[int, int], Prob]) -> dict[int, Prob]:
    """Hits of a Low Luck volley of total ``power`` (TripleA rule book, "Low Luck vs. Dice":
    "all of the attacker's units have their attack powers added together. The total is then
    divided by the dice sides (6), and if there is any remainder it is rolled for"): the
    quotient for sure, one more on a die at or under the remainder."""
    sure, remainder = split(power)
    if remainder == 0:
        return {sure: ratio(1, 1)}
    return {sure: ratio(SIDES - remainder, SIDES), sure + 1: ratio(remainder, SIDES)}


def convolve(a: Hits[Prob], b: Hits[Prob]) -> Hits[Prob]:
    """The hits of two independent volleys together."""
    out: Hits[Prob] = {}
    for (r1, u1), p1 in a.items():
        for (r2, u2), p2 in b.items():
            key = (r1 + r2, u1 + u2)
            out[key] = out.get(key, 0 * p1) + p1 * p2
    return out


State = int
"""A casualty state: the attacker's units' id shifted left by :data:`SHIFT`, or'ed with the
defender's (a plain int keys the hot loop's dicts fastest)."""
SHIFT = 24
LOW = (1 << SHIFT) - 1


class Force(Hashable, Protocol):
    """What a state holds of one side: Classic's :class:`~adjudicator.units.Units` or Big
    World's :class:`~adjudicator.bigworld.units.Army`."""

    @property
    def total(self) -> int:
        """How many units."""
        ...

    def __bool__(self) -> bool: ...

    def label(self) -> str:
        """The units as players write them."""
        ...

    def to_json(self) -> dict[str, int]:
        """The units as a JSON object."""
        ...


def no_round_can_change(setup: BattleSetup, attackers: Units, defenders: Units) -> bool:
    """Whether no round from here can change the battle: no unit of either side throws a
    die whose hit could take a unit (a submarine's hit takes no aircraft: "Combat sequence:
    subs hit only ships"). The engine would roll for ever: a stalemate. No Classic battle
    comes to one (every defending unit hits on 1 or more, and attacking aircraft can hit the
    submarines that cannot hit them); transports that defend at 0 facing transports would."""

    def can_hit(side: Side, shooters: Units, targets: Units) -> bool:
        for unit, _ in shooters:
            if setup.hits_on(side, unit) > 0 and (
                targets.surface if unit is U.SUB else targets.total
            ):
                return True
        return False

    return not (
        can_hit(Side.ATTACKER, attackers, defenders) or can_hit(Side.DEFENDER, defenders, attackers)
    )


def ipc_value(units: Units) -> int:
    """What the units cost to build (the chart's cost)."""
    return sum(unit.stats.cost * n for unit, n in units)


Mixture = list[tuple[list[tuple[int, Prob]], list[tuple[int, Prob]]]]
"""A round's outcome: pairs of independent (attackers left, defenders left) distributions,
as (id, probability) lists, likeliest first; the pairs' weights are folded in."""


def ranked_mixture(parts: list[tuple[dict[int, Prob], dict[int, Prob]]]) -> Mixture[Prob]:
    """A round's independent pairs of distributions, each as a list likeliest first."""

    def order(dist: dict[int, Prob]) -> list[tuple[int, Prob]]:
        return sorted(dist.items(), key=lambda pair: pair[1], reverse=True)

    return [(order(a), order(d)) for a, d in parts]


class RoundChain(Generic[Prob]):
    """The rounds of one battle between casualty states, memoised.

    A state is a pair of ids ``(attacker, defender)`` of the units each side has left
    (:meth:`units` turns an id back into :class:`Units`). ``prune`` drops outcomes of a
    side's round less likely than it (0 keeps every one; floats use about 1e-16).
    """

    def __init__(
        self,
        setup: BattleSetup,
        ratio: Callable[[int, int], Prob],
        prune: float = 0.0,
        *,
        low_luck: bool = False,
    ) -> None:
        self.setup = setup
        self.low_luck = low_luck
        """Every volley by Low Luck: a side's powers added, a die for the remainder only
        (submarines' hits, AA shots and support shots each a volley of their own)."""
        self.ratio: Callable[[int, int], Prob] = ratio
        self.zero: Prob = ratio(0, 1)
        self.one: Prob = ratio(1, 1)
        self.prune = prune
        self._units: list[Units] = []
        self.sizes: list[int] = []
        """How many units each id stands for."""
        self._ids: dict[Units, int] = {}
        self._hits: dict[tuple[Side, Units, bool], Hits[Prob]] = {}
        self._lost: dict[tuple[int, int, int, int], int] = {}
        self._later: dict[tuple[int, int], Mixture[Prob]] = {}
        self.first_strike = not setup.is_land and setup.attacking.count(U.SUB) > 0
        self._orders = (
            setup.order(Side.ATTACKER),
            setup.order(Side.DEFENDER),
            setup.order(Side.DEFENDER, attackers_only_air=True),
        )
        """The orders of loss in force: the attacker's, the defender's, and the defender's
        facing air only (the default's note for a no-retreat air attack)."""

    def intern(self, units: Units) -> int:
        """The id of ``units``."""
        known = self._ids.get(units)
        if known is None:
            known = self._ids[units] = len(self._units)
            self._units.append(units)
            self.sizes.append(units.total)
        return known

    def units(self, ident: int) -> Units:
        """The units an id stands for."""
        return self._units[ident]

    @property
    def retreat_possible(self) -> bool:
        """Whether the attacker may retreat (not in an amphibious assault or when told not)."""
        return self.setup.retreat_possible

    def start(self) -> int:
        """The state before any die."""
        return self.intern(self.setup.attacking) << SHIFT | self.intern(self.setup.defending)

    def taken_at_once(self) -> bool:
        """A defence with nothing that fights and no AA gun to fire is taken without a roll
        (the engine's :func:`~adjudicator.battle.engine.start`)."""
        return start(self.setup).outcome is not Outcome.CONTINUES

    def stuck(self, a_id: int, d_id: int) -> bool:
        """:func:`no_round_can_change` for the units of these ids."""
        return no_round_can_change(self.setup, self._units[a_id], self._units[d_id])

    def ipc(self, ident: int) -> int:
        """What the units of an id cost to build."""
        return ipc_value(self._units[ident])

    def captures(self, ident: int) -> bool:
        """Whether these attackers, having won, take the territory (a land unit left)."""
        return captures(self.setup, Outcome.ATTACKER_WINS, self._units[ident])

    def volley(self, dice: int, value: int) -> dict[int, Prob]:
        """Hits of ``dice`` dice at ``value``: one die each, or by Low Luck."""
        if self.low_luck:
            return low_luck(dice * max(0, min(value, SIDES)), self.ratio)
        return binomial(dice, value, self.ratio)

    def hits(self, side: Side, units: Units, *, skip_subs: bool = False) -> Hits[Prob]:
        """The hits of ``side``'s main roll: one die per unit (an attacking heavy bomber
        three), each hitting at the unit's value; subs' hits restricted (by Low Luck, the
        subs' powers and the others' each added up)."""
        key = (side, units, skip_subs)
        found = self._hits.get(key)
        if found is not None:
            return found
        if self.low_luck:
            subs = NO_UNITS if skip_subs else units.only(U.SUB)
            sub_hits = low_luck(power(self.setup, side, subs), self.ratio)
            other_hits = low_luck(power(self.setup, side, units.without(U.SUB)), self.ratio)
            lucky: Hits[Prob] = convolve(
                {(k, 0): p for k, p in sub_hits.items()},
                {(0, k): p for k, p in other_hits.items()},
            )
            self._hits[key] = lucky
            return lucky
        total: Hits[Prob] = {(0, 0): self.one}
        for unit, count in units:
            if unit is U.SUB and skip_subs:
                continue
            dice = count * self.setup.dice_each(side, unit)
            dist = binomial(dice, self.setup.hits_on(side, unit), self.ratio)
            part: Hits[Prob] = {((k, 0) if unit is U.SUB else (0, k)): p for k, p in dist.items()}
            total = convolve(total, part)
        self._hits[key] = total
        return total

    def after(self, pool: int, order: int, restricted: int, unrestricted: int) -> int:
        """The id of what is left of ``pool`` after these hits, by the engine's choice
        under the order of loss numbered ``order`` (an index of ``_orders``)."""
        key = (pool, order, restricted, unrestricted)
        found = self._lost.get(key)
        if found is None:
            units = self._units[pool]
            lost = casualties_by_order(units, self._orders[order], restricted, unrestricted)
            found = self._lost[key] = self.intern(units.minus(lost))
        return found

    def _left(self, pool: int, order: int, hits: Hits[Prob]) -> dict[int, Prob]:
        out: dict[int, Prob] = {}
        lost, prune, zero, size = self._lost, self.prune, self.zero, self.sizes[pool]
        empty = -1
        for (r, u), p in hits.items():
            if p <= prune:
                continue
            if u >= size:
                if empty < 0:
                    empty = self.after(pool, order, r, u)
                left = empty
            else:
                left = lost.get((pool, order, r, u), -1)
                if left < 0:
                    left = self.after(pool, order, r, u)
            out[left] = out.get(left, zero) + p
        return out

    def _defender_order(self, attackers: int) -> int:
        return 2 if self._units[attackers].surface == 0 else 1

    def _main(
        self, a1: int, d1: int, support: Hits[Prob]
    ) -> tuple[dict[int, Prob], dict[int, Prob]]:
        """Both main rolls from ``(a1, d1)``: the attacker's and the defender's units left,
        each a distribution (independent of the other)."""
        attackers, defenders = self._units[a1], self._units[d1]
        if not attackers or not defenders:
            return {a1: self.one}, {d1: self.one}
        on_defender = self.hits(Side.ATTACKER, attackers, skip_subs=self.first_strike)
        if len(support) > 1:
            on_defender = convolve(on_defender, support)
        on_attacker = self.hits(Side.DEFENDER, defenders)
        return (
            self._left(a1, 0, on_attacker),
            self._left(d1, self._defender_order(a1), on_defender),
        )

    def _struck(self, a1: int, d0: int) -> dict[int, Prob]:
        """The defenders left after the attacking subs' first strike."""
        subs = self._units[a1].count(U.SUB) if self.first_strike else 0
        if not subs:
            return {d0: self.one}
        value = self.setup.profile(Side.ATTACKER, U.SUB).attack or 0
        struck = {(k, 0): p for k, p in self.volley(subs, value).items()}
        return self._left(d0, self._defender_order(a1), struck)

    def later(self, a0: int, d0: int) -> Mixture[Prob]:
        """A round after the first from ``(a0, d0)``: a mixture (its weights folded in)
        of independent pairs (attackers left, defenders left), each likeliest first."""
        key = (a0, d0)
        found = self._later.get(key)
        if found is None:
            found = self._later[key] = ranked_mixture(self._round(a0, d0, {(0, 0): self.one}))
        return found

    def _round(
        self, a1: int, d0: int, support: Hits[Prob]
    ) -> list[tuple[dict[int, Prob], dict[int, Prob]]]:
        parts = []
        for d1, p in self._struck(a1, d0).items():
            left_a, left_d = self._main(a1, d1, support)
            parts.append((left_a, {d: p * q for d, q in left_d.items()}))
        return parts

    def first(self) -> Mixture[Prob]:
        """Round 1 from the start, AA shots and support shots included."""
        setup = self.setup
        a0, d0 = self.intern(setup.attacking), self.intern(setup.defending)
        aircraft = setup.attacking.aircraft
        shots: dict[int, Prob] = {a0: self.one}
        if setup.is_land and setup.defender.count(U.AA) and aircraft:
            shots = {}
            for k, p in self.volley(aircraft, AA_HITS_ON).items():
                lost = aa_casualties(setup.attacking, k, self._orders[0])
                a1 = self.intern(setup.attacking.minus(lost))
                shots[a1] = shots.get(a1, self.zero) + p
        support: Hits[Prob] = {
            (0, k): p for k, p in self.volley(setup.bombarding, SUPPORT_SHOT_HITS_ON).items()
        }
        parts = []
        for a1, p in shots.items():
            for left_a, left_d in self._round(a1, d0, support):
                parts.append(({a: p * q for a, q in left_a.items()}, left_d))
        return ranked_mixture(parts)
