"""Big World 1942 battles played with dice, many times: the Monte Carlo the exact odds are
held to (``scripts/check_odds --ruleset big_world_1942``).

Every round is the engine's own (:func:`~adjudicator.bigworld.combat.open_battle` and
:func:`~adjudicator.bigworld.combat.play_big_world_round`, as ``battle resolve`` plays
them), and every die is thrown: a number in [0, 1), a hit when it falls on a face at or
under the unit's value, counted as the engine counts the dice a player writes (an LHTR
heavy bomber's better die). Nothing here uses the calculator's distributions.

A round depends on the dice only through each volley's hits, so what the engine did with
a given run of hits is kept: per state, a tree whose branches are the hits of the volleys
in the order the engine asked for them and whose leaves are the armies it left. A run
throws the dice of each volley and walks the tree; the engine is called only for a run of
hits never met before.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from adjudicator.bigworld.combat import (
    Salvo,
    holds_territory,
    ipc_of,
    open_battle,
    play_big_world_round,
    stalemate,
    taken_without_a_roll,
)
from adjudicator.bigworld.odds import read_big_world_odds_request
from adjudicator.bigworld.units import Army
from adjudicator.odds.chain import Ending
from adjudicator.odds.sample import Sample
from adjudicator.odds.simulate import DiceSource, hit_below

Armies = tuple[Army, Army]
Engine = Callable[[Callable[[Salvo], int]], Armies]
"""One round of the engine, given how to fire a volley."""


@dataclass
class _Branch:
    """A point in a state's tree: the volley the engine asks for next, or (at a leaf) the
    armies it left."""

    salvo: Salvo | None = None
    plan: tuple[tuple[float, int, int, bool], ...] = ()
    """The volley's shots as thrown: (hit below, units, dice each, better die only)."""
    after: dict[int, _Branch] = field(default_factory=dict)
    left: Armies | None = None


def plan(salvo: Salvo) -> tuple[tuple[float, int, int, bool], ...]:
    """How :func:`throw` throws a volley: per shot, the numbers in [0, 1) that show a face at
    or under its value lie below :func:`~adjudicator.odds.simulate.hit_below` of it."""
    return tuple(
        (hit_below(s.hit_on), s.units, s.dice_each, s.best_of) for s in salvo.shots if s.units
    )


def throw(shots: tuple[tuple[float, int, int, bool], ...], dice: DiceSource) -> int:
    """The hits of a volley (as :func:`plan` gives it) thrown with ``dice``: each die a hit
    when it shows a face at or under the unit's value, an LHTR heavy bomber's when either of
    its dice does."""
    hits = 0
    rnd = dice.random
    for cut, units, each, best in shots:
        if best:
            for _ in range(units):
                hits += min(rnd() for _ in range(each)) < cut
        else:
            hits += sum(rnd() < cut for _ in range(units * each))
    return hits


def _walk(
    root: _Branch, engine: Callable[[Callable[[Salvo], int]], Armies], dice: DiceSource
) -> Armies:
    """The armies a round leaves for freshly thrown dice (the engine asked only for hits
    never met before from this state)."""
    node = root
    seen: list[int] = []
    while node.left is None:
        if node.salvo is None:
            return _discover(root, seen, engine, dice)
        hits = throw(node.plan, dice)
        seen.append(hits)
        nxt = node.after.get(hits)
        if nxt is None:
            return _discover(root, seen, engine, dice)
        node = nxt
    return node.left


def _discover(
    root: _Branch,
    seen: list[int],
    engine: Engine,
    dice: DiceSource,
) -> Armies:
    """Run the engine with the hits already thrown, throwing on for the volleys after them,
    and grow the tree along the way."""
    node, step = root, 0

    def fire(salvo: Salvo) -> int:
        nonlocal node, step
        if node.salvo is not None and node.salvo != salvo:
            raise RuntimeError("the engine asked for another volley after the same hits")
        if node.salvo is None:
            node.salvo, node.plan = salvo, plan(salvo)
        hits = seen[step] if step < len(seen) else throw(node.plan, dice)
        nxt = node.after.get(hits)
        if nxt is None:
            nxt = node.after[hits] = _Branch()
        node, step = nxt, step + 1
        return hits

    left = engine(fire)
    node.left = left
    return left


@dataclass(frozen=True)
class _End:
    ending: Ending
    armies: Armies


class BigWorldMonteCarlo:
    """One Big World battle document (no rounds; ``retreat`` as for the odds), to be played
    many times."""

    def __init__(self, document: Mapping[str, object]) -> None:
        self.battle, self.policy = read_big_world_odds_request(document)
        self._trees: dict[Armies | None, _Branch] = {}
        self._ends: dict[Armies, Ending | None] = {}

    def _engine(self, armies: Armies | None) -> Engine:
        battle = self.battle

        def first(fire: Callable[[Salvo], int]) -> Armies:
            a, d, _, _ = open_battle(battle, fire)
            if a and d:
                played = play_big_world_round(battle, a, d, fire)
                return played.attackers, played.defenders
            return a, d

        if armies is None:
            return first

        def later(fire: Callable[[Salvo], int]) -> Armies:
            played = play_big_world_round(battle, armies[0], armies[1], fire)
            return played.attackers, played.defenders

        return later

    def _ending(self, armies: Armies, number: int) -> Ending | None:
        """As the exact odds decide it (:func:`adjudicator.odds.chain.by_rounds`): by the
        armies left, else by the round limit."""
        if armies in self._ends:
            ending = self._ends[armies]
        else:
            ending = self._ends[armies] = self._settled(armies)
        if ending is not None:
            return ending
        stop = self.policy.after_round if self.battle.retreat_possible else None
        if stop is not None and number >= stop:
            return Ending.RETREATED
        return None

    def _settled(self, armies: Armies) -> Ending | None:
        a, d = armies
        if not a:
            return Ending.DRAW if not d else Ending.DEFENDER_WINS
        if not d:
            return Ending.ATTACKER_WINS
        battle, policy = self.battle, self.policy
        limit = policy.attackers_at_most
        if limit is not None and battle.retreat_possible and a.total <= limit:
            return Ending.RETREATED
        if stalemate(battle, a, d):
            return Ending.STALEMATE
        return None

    def _play(self, dice: DiceSource) -> tuple[_End, int]:
        battle = self.battle
        if taken_without_a_roll(battle):
            return _End(Ending.ATTACKER_WINS, (battle.attacker, battle.defender)), 0
        armies: Armies | None = None
        number = 0
        while True:
            number += 1
            tree = self._trees.get(armies)
            if tree is None:
                tree = self._trees[armies] = _Branch()
            armies = _walk(tree, self._engine(armies), dice)
            ending = self._ending(armies, number)
            if ending is not None:
                return _End(ending, armies), number

    def sample(self, runs: int, dice: DiceSource) -> Sample:
        """``runs`` battles, counted."""
        ends: Counter[_End] = Counter()
        lengths: Counter[int] = Counter()
        for _ in range(runs):
            end, number = self._play(dice)
            ends[end] += 1
            lengths[number] += 1
        battle = self.battle
        start_a, start_d = ipc_of(battle, battle.attacker), ipc_of(battle, battle.defender)
        endings: Counter[Ending] = Counter()
        captured = lost_a = lost_d = 0
        for end, n in ends.items():
            a, d = end.armies
            endings[end.ending] += n
            if end.ending is Ending.ATTACKER_WINS and holds_territory(battle, a):
                captured += n
            lost_a += n * (start_a - ipc_of(battle, a))
            lost_d += n * (start_d - ipc_of(battle, d))
        return Sample(runs, dict(endings), captured, dict(sorted(lengths.items())), lost_a, lost_d)
