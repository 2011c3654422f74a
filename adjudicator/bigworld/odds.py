"""The exact odds of a Big World 1942 battle: its rounds as an absorbing Markov chain.

:class:`BigWorldChain` is a :class:`~adjudicator.odds.chain.Chain`: the passes of
:mod:`adjudicator.odds.chain` and the report of :mod:`adjudicator.odds.report` follow it as
they follow Classic's. Each round is :func:`~adjudicator.bigworld.combat.play_big_world_round`
with every volley replaced by its distribution of hits, and every casualty chosen by the
same :func:`~adjudicator.bigworld.combat.take_hits`: the two cannot disagree about what a
roll does. A state is both sides' :class:`~adjudicator.bigworld.units.Army` (damaged
battleships counted), and its size the hit points left, which every round that changes
anything lowers.

A volley's hits: a die hits on its value or less, with chance ``value / 6``; an LHTR heavy
bomber hits if either of its two dice does, ``1 - (1 - value / 6) ** 2``; units of a shot
are independent, so a shot's hits are binomial and a volley's the convolution of its shots'.

Not modelled, as for Classic: submarines submerging, casualties a player picks instead of
his order of loss, and a retreat chosen by any rule but the policy's. Low Luck is not
offered for Big World yet.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from math import comb
from typing import Generic

from adjudicator.battle.errors import InvalidValue
from adjudicator.bigworld.combat import (
    SIDES_OF_A_DIE,
    BigWorldBattle,
    Salvo,
    aa_volley,
    aircraft_downed,
    bombard_volley,
    holds_territory,
    ipc_of,
    main_volley,
    stalemate,
    still_firing,
    sub_volley,
    take_hits,
    taken_without_a_roll,
)
from adjudicator.bigworld.reading import read_big_world_battle
from adjudicator.bigworld.units import Army
from adjudicator.odds import FLOAT_PRUNE, FLOOR, SETTLED_BELOW
from adjudicator.odds.chain import (
    RetreatPolicy,
    absorbed,
    by_rounds,
    read_retreat_policy,
    walk_in,
)
from adjudicator.odds.report import Odds, odds_to_json, summarise
from adjudicator.odds.rounds import SHIFT, Mixture, Prob, ranked_mixture
from adjudicator.units import Side

Dist = dict[int, Prob]


class BigWorldChain(Generic[Prob]):
    """The rounds of one Big World battle between states, memoised (``ratio(a, b)`` makes
    ``a / b`` in the chosen number type: float, or Fraction for exact answers)."""

    def __init__(
        self, battle: BigWorldBattle, ratio: Callable[[int, int], Prob], prune: float = 0.0
    ) -> None:
        self.battle = battle
        self.ratio: Callable[[int, int], Prob] = ratio
        self.zero: Prob = ratio(0, 1)
        self.one: Prob = ratio(1, 1)
        self.prune = prune
        self._armies: list[Army] = []
        self._ids: dict[Army, int] = {}
        self.sizes: list[int] = []
        self._salvos: dict[Salvo, Dist[Prob]] = {}
        self._taken: dict[tuple[Side, int, int, bool], int] = {}
        self._later: dict[tuple[int, int], Mixture[Prob]] = {}

    def intern(self, army: Army) -> int:
        """The id of ``army``."""
        known = self._ids.get(army)
        if known is None:
            known = self._ids[army] = len(self._armies)
            self._armies.append(army)
            hp = self.battle.rules.hit_points
            self.sizes.append(sum(hp(unit) * n for unit, n in army) - army.damaged)
        return known

    def units(self, ident: int) -> Army:
        """The army an id stands for, battleships repaired (what survives a battle)."""
        return self._armies[ident].repaired()

    @property
    def retreat_possible(self) -> bool:
        """Whether the attacker may retreat."""
        return self.battle.retreat_possible

    def start(self) -> int:
        """The state before any die."""
        return self.intern(self.battle.attacker) << SHIFT | self.intern(self.battle.defender)

    def taken_at_once(self) -> bool:
        """Nothing defends and no AA gun fires: taken without a roll."""
        return taken_without_a_roll(self.battle)

    def stuck(self, a_id: int, d_id: int) -> bool:
        """:func:`~adjudicator.bigworld.combat.stalemate`."""
        return stalemate(self.battle, self._armies[a_id], self._armies[d_id])

    def ipc(self, ident: int) -> int:
        """What the army of an id cost to build."""
        return ipc_of(self.battle, self._armies[ident])

    def captures(self, ident: int) -> bool:
        """Whether these attackers, having won, take the territory."""
        return holds_territory(self.battle, self._armies[ident])

    def hits(self, salvo: Salvo) -> Dist[Prob]:
        """The distribution of a volley's hits."""
        found = self._salvos.get(salvo)
        if found is not None:
            return found
        ratio = self.ratio
        total: Dist[Prob] = {0: self.one}
        for shot in salvo.shots:
            value = max(0, min(shot.hit_on, SIDES_OF_A_DIE))
            if shot.best_of:
                miss = ratio(
                    (SIDES_OF_A_DIE - value) ** shot.dice_each, SIDES_OF_A_DIE**shot.dice_each
                )
                tries = shot.units
            else:
                miss = ratio(SIDES_OF_A_DIE - value, SIDES_OF_A_DIE)
                tries = shot.dice
            p = self.one - miss
            dist = {k: comb(tries, k) * p**k * miss ** (tries - k) for k in range(tries + 1)}
            out: Dist[Prob] = {}
            for a, pa in total.items():
                for b, pb in dist.items():
                    out[a + b] = out.get(a + b, self.zero) + pa * pb
            total = out
        self._salvos[salvo] = total
        return total

    def _after(self, side: Side, ident: int, hits: int, spare: bool) -> int:
        key = (side, ident, hits, spare)
        found = self._taken.get(key)
        if found is None:
            army = take_hits(self.battle, side, self._armies[ident], hits, spare_aircraft=spare)
            found = self._taken[key] = self.intern(army)
        return found

    def _left(self, side: Side, ident: int, hits: Dist[Prob], weight: Prob) -> Dist[Prob]:
        out: Dist[Prob] = {}
        for k, p in hits.items():
            if p <= self.prune:
                continue
            left = self._after(side, ident, k, False)
            out[left] = out.get(left, self.zero) + weight * p
        return out

    def _firing(self, before: Army, left: int) -> Army:
        return still_firing(self.battle, before, self._armies[left])

    def _round(self, a0: int, d0: int) -> list[tuple[Dist[Prob], Dist[Prob]]]:
        """Segments 1 to 5 from ``(a0, d0)`` as independent pairs of distributions."""
        battle = self.battle
        attackers, defenders = self._armies[a0], self._armies[d0]
        if not attackers or not defenders:
            return [({a0: self.one}, {d0: self.one})]
        parts = []
        first = self.hits(sub_volley(battle, Side.ATTACKER, attackers))
        for h1, p1 in first.items():
            if p1 <= self.prune:
                continue
            d_left = self._after(Side.DEFENDER, d0, h1, True)
            d_fire = self._firing(defenders, d_left)
            second = self.hits(sub_volley(battle, Side.DEFENDER, d_fire))
            for h2, p2 in second.items():
                if p2 <= self.prune:
                    continue
                a_left = self._after(Side.ATTACKER, a0, h2, True)
                a_fire = self._firing(attackers, a_left)
                on_d = self.hits(main_volley(battle, Side.ATTACKER, a_fire))
                on_a = self.hits(main_volley(battle, Side.DEFENDER, d_fire))
                parts.append(
                    (
                        self._left(Side.ATTACKER, a_left, on_a, self.one),
                        self._left(Side.DEFENDER, d_left, on_d, p1 * p2),
                    )
                )
        return parts

    def later(self, a0: int, d0: int) -> Mixture[Prob]:
        """A round after the first from ``(a0, d0)``."""
        key = (a0, d0)
        found = self._later.get(key)
        if found is None:
            found = self._later[key] = ranked_mixture(self._round(a0, d0))
        return found

    def first(self) -> Mixture[Prob]:
        """Round 1 from the start: the AA gun and the bombardment, then the round."""
        battle = self.battle
        aa = self.hits(aa_volley(battle, battle.attacker))
        shelled = self.hits(bombard_volley(battle)) if battle.defender else {0: self.one}
        parts = []
        for k, pa in aa.items():
            a1 = self.intern(aircraft_downed(battle, battle.attacker, k))
            for j, pd in shelled.items():
                d1 = self._after(Side.DEFENDER, self.intern(battle.defender), j, False)
                for left_a, left_d in self._round(a1, d1):
                    weight = pa * pd
                    parts.append((left_a, {d: weight * q for d, q in left_d.items()}))
        return ranked_mixture(parts)


def read_big_world_odds_request(
    document: Mapping[str, object],
) -> tuple[BigWorldBattle, RetreatPolicy]:
    """The battle and retreat policy a Big World odds request asks about; a
    BattleInputError naming the field when it is malformed."""
    body = dict(document)
    policy = read_retreat_policy(body.pop("retreat", None))
    if body.pop("low_luck", None) not in (None, False, 0):
        raise InvalidValue("low_luck", "Low Luck is not offered for Big World 1942 battles yet")
    if body.get("rounds"):
        raise InvalidValue(
            "rounds", "the odds are for a battle not yet rolled: leave the rounds out"
        )
    body.pop("rounds", None)
    return read_big_world_battle(body).battle, policy


def big_world_odds(document: Mapping[str, object]) -> Odds[float]:
    """The odds of a Big World battle document (no rounds; ``retreat`` as for Classic), in
    floats, round by round."""
    battle, policy = read_big_world_odds_request(document)
    chain: BigWorldChain[float] = BigWorldChain(battle, lambda a, b: a / b, FLOAT_PRUNE)
    tally = walk_in(chain) or by_rounds(chain, policy, tolerance=SETTLED_BELOW, floor=FLOOR)
    return summarise(chain, tally)


def big_world_exact_odds(document: Mapping[str, object]) -> Odds[Fraction]:
    """The same odds in fractions, each state visited once."""
    battle, policy = read_big_world_odds_request(document)
    chain: BigWorldChain[Fraction] = BigWorldChain(battle, Fraction)
    return summarise(chain, absorbed(chain, policy))


def big_world_odds_json(document: Mapping[str, object]) -> dict[str, object]:
    """The version-1 odds output for a Big World battle document."""
    battle, _ = read_big_world_odds_request(document)
    out = odds_to_json(big_world_odds(document), land=battle.is_land)
    return {"version": out.pop("version"), "ruleset": "big_world_1942", **out}
