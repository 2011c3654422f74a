"""The battle as an absorbing Markov chain over casualty states: where its probability ends.

Two ways through the same :class:`Chain` (a ruleset's rounds):

- :func:`by_rounds` carries the probability round by round (what the round distribution
  needs, and the only way a retreat after a fixed round can be followed); with floats it
  stops once less than ``tolerance`` is left in play;
- :func:`absorbed` visits each state once, from the most units left to the fewest (every
  round that changes anything removes a unit), folding the chance that a round changes
  nothing into a geometric series: exact in :class:`fractions.Fraction`, however long the
  battle might last.

A battle ends when a side is destroyed, when the attacker's retreat policy says so, or in a
stalemate: a state no round can change (:meth:`Chain.stuck`), where the engine would roll
for ever.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Generic, Protocol

from adjudicator.battle.errors import InvalidValue, UnknownField, WrongType
from adjudicator.odds.rounds import LOW, SHIFT, Force, Mixture, Prob, State


def _ids(state: State) -> tuple[int, int]:
    return state >> SHIFT, state & LOW


class Ending(Enum):
    """How a battle the calculator follows comes to an end."""

    ATTACKER_WINS = "attacker_wins"
    """Every defender destroyed, an attacker left."""
    DEFENDER_WINS = "defender_wins"
    """Every attacker destroyed, a defender left."""
    DRAW = "draw"
    """Both sides destroyed in the same round."""
    RETREATED = "retreated"
    """The attacker retreated, by the retreat policy."""
    STALEMATE = "stalemate"
    """Neither side can ever score a hit."""


@dataclass(frozen=True)
class RetreatPolicy:
    """When the attacker retreats: after any round that leaves him ``attackers_at_most``
    units or fewer, or after round ``after_round``. Ignored where no retreat is allowed
    (:attr:`~adjudicator.battle.setup.BattleSetup.retreat_possible`)."""

    attackers_at_most: int | None = None
    after_round: int | None = None


class Chain(Protocol[Prob]):
    """The rounds of one battle between casualty states, as the passes below follow them:
    :class:`~adjudicator.odds.rounds.RoundChain` for Classic,
    :class:`~adjudicator.bigworld.odds.BigWorldChain` for Big World 1942."""

    one: Prob
    zero: Prob
    sizes: list[int]
    """For each id, a number every round that changes anything lowers (units, or hit
    points left): the exact pass visits states from the largest down."""

    @property
    def retreat_possible(self) -> bool:
        """Whether the attacker may retreat at all."""
        ...

    def units(self, ident: int) -> Force:
        """The units an id stands for."""
        ...

    def start(self) -> State:
        """The state before any die."""
        ...

    def taken_at_once(self) -> bool:
        """Whether the battle is over before any round (nothing defends)."""
        ...

    def stuck(self, a_id: int, d_id: int) -> bool:
        """Whether no round from here can change anything: a stalemate."""
        ...

    def ipc(self, ident: int) -> int:
        """What the units of an id cost to build (the units that fight)."""
        ...

    def captures(self, ident: int) -> bool:
        """Whether these attackers, having won, take the territory."""
        ...

    def first(self) -> Mixture[Prob]:
        """Round 1 from the start."""
        ...

    def later(self, a0: int, d0: int) -> Mixture[Prob]:
        """A round after the first."""
        ...


def read_retreat_policy(value: object) -> RetreatPolicy:
    """The policy a document's ``retreat`` gives (none when absent); a BattleInputError
    naming the field when it is malformed."""
    if value is None:
        return RetreatPolicy()
    if not isinstance(value, Mapping):
        raise WrongType("retreat", f"expected an object, got {type(value).__name__}")
    keys = set(value)
    extra = sorted(keys - {"attackers_at_most", "after_round"})
    if extra:
        raise UnknownField(f"retreat.{extra[0]}", 'expected "attackers_at_most" or "after_round"')
    if len(keys) != 1:
        raise InvalidValue("retreat", 'give exactly one of "attackers_at_most" and "after_round"')
    key = next(iter(keys))
    n = value[key]
    least = 1 if key == "after_round" else 0
    if not isinstance(n, int) or isinstance(n, bool) or n < least:
        raise InvalidValue(f"retreat.{key}", f"expected a whole number >= {least}, got {n!r}")
    if key == "after_round":
        return RetreatPolicy(after_round=n)
    return RetreatPolicy(attackers_at_most=n)


@dataclass
class Tally(Generic[Prob]):
    """Where the probability went: by ending and final state, and by the round it ended."""

    ends: dict[tuple[Ending, State], Prob]
    rounds: dict[int, Prob]
    unsettled: Prob
    """Probability still in play when :func:`by_rounds` stopped (floats only)."""


def _outer(parts: Mixture[Prob], weight: Prob, out: dict[State, Prob], floor: float = 0.0) -> None:
    """Add ``weight`` times the round's outcomes into ``out``, skipping any below ``floor``
    (both lists are likeliest first, so the first one below it ends a loop)."""
    zero = 0 * weight
    get = out.get
    for left_a, left_d in parts:
        for a, pa in left_a:
            wa = weight * pa
            if wa <= floor:
                break
            cut = floor / wa
            base = a << SHIFT
            for d, pd in left_d:
                if pd <= cut:
                    break
                key = base | d
                out[key] = get(key, zero) + wa * pd


def _ending(chain: Chain[Prob], policy: RetreatPolicy, state: State) -> Ending | None:
    a_id, d_id = _ids(state)
    a, d = chain.units(a_id), chain.units(d_id)
    if not a:
        return Ending.DRAW if not d else Ending.DEFENDER_WINS
    if not d:
        return Ending.ATTACKER_WINS
    limit = policy.attackers_at_most
    if limit is not None and chain.retreat_possible and a.total <= limit:
        return Ending.RETREATED
    if chain.stuck(a_id, d_id):
        return Ending.STALEMATE
    return None


def walk_in(chain: Chain[Prob]) -> Tally[Prob] | None:
    """A defence with nothing that fights and no AA gun to fire is taken without a roll
    (:meth:`Chain.taken_at_once`)."""
    if not chain.taken_at_once():
        return None
    return Tally({(Ending.ATTACKER_WINS, chain.start()): chain.one}, {0: chain.one}, chain.zero)


def by_rounds(
    chain: Chain[Prob],
    policy: RetreatPolicy,
    *,
    tolerance: float = 0.0,
    floor: float = 0.0,
    most_rounds: int = 10_000,
) -> Tally[Prob]:
    """Follow the battle round by round until nothing is in play (or less than
    ``tolerance``, or ``most_rounds`` are rolled)."""
    taken = walk_in(chain)
    if taken is not None:
        return taken
    live: dict[State, Prob] = {}
    _outer(chain.first(), chain.one, live, floor)
    ends: dict[tuple[Ending, State], Prob] = defaultdict(lambda: chain.zero)
    rounds: dict[int, Prob] = {}
    stop = policy.after_round if chain.retreat_possible else None
    number = 1
    while True:
        going: dict[State, Prob] = {}
        ended = chain.zero
        for state, mass in live.items():
            ending = _ending(chain, policy, state)
            if ending is None and stop is not None and number >= stop:
                ending = Ending.RETREATED
            if ending is None:
                going[state] = mass
            else:
                ends[(ending, state)] += mass
                ended += mass
        if ended:
            rounds[number] = ended
        left = sum(going.values(), chain.zero)
        if not going or left <= tolerance or number >= most_rounds:
            return Tally(dict(ends), rounds, left)
        live = {}
        for state, mass in going.items():
            _outer(chain.later(*_ids(state)), mass, live, floor)
        number += 1


def absorbed(chain: Chain[Prob], policy: RetreatPolicy, *, floor: float = 0.0) -> Tally[Prob]:
    """Where the battle ends, each state visited once (no round distribution)."""
    if policy.after_round is not None and chain.retreat_possible:
        return by_rounds(chain, policy)
    taken = walk_in(chain)
    if taken is not None:
        return taken
    first: dict[State, Prob] = {}
    _outer(chain.first(), chain.one, first)
    pending: dict[int, dict[State, Prob]] = defaultdict(dict)

    sizes = chain.sizes

    def size(state: State) -> int:
        return sizes[state >> SHIFT] + sizes[state & LOW]

    for state, mass in first.items():
        pending[size(state)][state] = mass
    ends: dict[tuple[Ending, State], Prob] = defaultdict(lambda: chain.zero)
    while pending:
        bucket = pending.pop(max(pending))
        for state, mass in bucket.items():
            ending = _ending(chain, policy, state)
            if ending is not None:
                ends[(ending, state)] += mass
                continue
            onward: dict[State, Prob] = {}
            _outer(chain.later(*_ids(state)), chain.one, onward, floor / mass)
            stay = onward.pop(state, chain.zero)
            share = mass / (chain.one - stay)
            for nxt, p in onward.items():
                into = pending[sizes[nxt >> SHIFT] + sizes[nxt & LOW]]
                into[nxt] = into.get(nxt, chain.zero) + share * p
    return Tally(dict(ends), {}, chain.zero)
