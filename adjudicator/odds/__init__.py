"""The exact odds of a battle before it is rolled ("what are my chances").

TripleA's calculator samples battles; this one follows every outcome of every round as an
absorbing Markov chain over the casualty states, using the battle engine's own pieces
(:mod:`adjudicator.odds.rounds`): the same unit values and technologies, the same orders of
loss and casualty choice, the same AA shots, support shots and sub first strike, so that the
odds and ``pbem battle resolve`` cannot disagree about what a roll does.

Floats take one of two routes to the same odds. When each side's casualties always follow
one sequence (:mod:`adjudicator.odds.lines`: every land battle, and sea battles in which no
submarine's hit can meet an aircraft), a state is a pair of casualty counts and a round is
computed for all of them at once with numpy (:mod:`adjudicator.odds.grid`); otherwise, and
with Low Luck, the chain is followed state by state. Fractions always go state by state:
they are the reference the tests hold the floats to.

Input, version 1: a battle document of :mod:`adjudicator.battle` without ``rounds`` (kind,
amphibious, attacker, defender, order_of_loss, loaded, technologies, no_retreat, name), and
optionally when the attacker retreats::

    "retreat": {"attackers_at_most": N}   # after a round that leaves him N units or fewer
    "retreat": {"after_round": K}          # after round K

(never in an amphibious assault or with no_retreat: those fight to the end), and
``"low_luck": true`` (or 1) for TripleA's Low Luck: each volley's powers added up, the
quotient by 6 hits for sure and one die is thrown for the remainder (the main rolls with
submarines' hits apart, the AA shots, the support shots and the subs' first strike each a
volley of their own).

Output, version 1::

    {"version": 1, "attacker_wins", "defender_wins", "draw",
     "captures",                  # land: attacker wins with a land unit left
     "retreated"?, "stalemate"?,  # when above 0
     "survivors": {"attacker": [{"units": {UNIT: n}, "p"}], "defender": [...]},
     "retreating"?: [{"units", "p"}],
     "expected_ipc_lost": {"attacker", "defender"},
     "rounds": [{"round": k, "p"}]}

``survivors`` are the winner's units left, likeliest first: the attacker's sum to
``attacker_wins``, the defender's to ``defender_wins``. IPC lost count the units that fight
(not AA guns, complexes or support battleships). ``rounds`` is the chance the battle ends in
each round. A stalemate is a state neither side can ever change (no unit can hit one of
the other side's: :func:`adjudicator.odds.chain.no_round_can_change`; none comes about in
Classic): the engine would roll for ever, the calculator stops.

Not modelled: submarine withdrawal, casualties a player names instead of his order
of loss, and a retreat chosen by any rule other than the two above. Attacking subs always
strike first (the engine lets the attacker choose).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from adjudicator.battle.errors import InvalidValue, WrongType
from adjudicator.battle.reading import RULESET, read_battle, ruleset_of
from adjudicator.battle.setup import BattleSetup
from adjudicator.odds.chain import (
    Ending,
    RetreatPolicy,
    absorbed,
    by_rounds,
    read_retreat_policy,
    walk_in,
)
from adjudicator.odds.grid_rounds import by_rounds_on_grid
from adjudicator.odds.lines import GridBattle, grid_battle
from adjudicator.odds.report import Odds, odds_to_json, render_odds, summarise
from adjudicator.odds.rounds import RoundChain

__all__ = [
    "Ending",
    "Odds",
    "RetreatPolicy",
    "RoundChain",
    "exact_odds",
    "odds",
    "odds_json",
    "on_the_grid",
    "read_odds_request",
    "render_odds",
]

FLOAT_PRUNE = 1e-17
"""Outcomes of one side's roll less likely than this are dropped (floats only)."""
FLOOR = 1e-16
"""Paths of a battle less likely than this are not followed (floats only)."""
SETTLED_BELOW = 1e-13
"""The round-by-round pass stops when less than this is still in play (floats only)."""
GRID_FROM = 64
"""Cells (attacker's longest line + 1 by defender's line + 1) from which the float odds take
the grid: below, a round's fixed cost in numpy calls exceeds what the states cost one by
one (about 8 units a side)."""
GRID_FLOOR = 1e-14
"""Cells of the grid (:mod:`adjudicator.odds.grid`) lighter than this after a round are
dropped. Coarser than :data:`FLOOR`, which prunes each path rather than each cell: the
benchmark's 230-unit land battle loses 9e-11 of its probability to it (the state-by-state
pass loses 8e-10 to its own), and the printed odds do not change."""


def _flag(value: object) -> bool:
    if value is None:
        return False
    if value in (True, False, 0, 1) and isinstance(value, bool | int):
        return bool(value)
    raise InvalidValue("low_luck", f"expected true, false, 0 or 1, got {value!r}")


@dataclass(frozen=True)
class OddsRequest:
    """What a document asks the odds of: the battle, the retreat policy, the dice rule."""

    setup: BattleSetup
    policy: RetreatPolicy
    low_luck: bool


def read_odds_request(document: object) -> OddsRequest:
    """The battle, retreat policy and dice rule a document asks the odds of; raises a
    :class:`~adjudicator.battle.errors.BattleInputError` naming the bad field."""
    if not isinstance(document, Mapping):
        raise WrongType("(document)", f"expected an object, got {type(document).__name__}")
    body = dict(document)
    policy = read_retreat_policy(body.pop("retreat", None))
    lucky = _flag(body.pop("low_luck", None))
    if body.get("rounds"):
        raise InvalidValue(
            "rounds", "the odds are for a battle not yet rolled: leave the rounds out"
        )
    body.pop("rounds", None)
    return OddsRequest(read_battle(body).setup, policy, lucky)


def on_the_grid(asked: OddsRequest) -> GridBattle | None:
    """The battle as casualty lines when the float odds take the grid: both sides are lines
    and the grid has at least :data:`GRID_FROM` cells."""
    battle = grid_battle(asked.setup, low_luck=asked.low_luck)
    if battle is None:
        return None
    longest = max(len(line) for line in battle.attackers)
    return battle if (longest + 1) * (len(battle.defenders) + 1) >= GRID_FROM else None


def odds(document: Mapping[str, object]) -> Odds[float]:
    """The odds of the battle ``document`` describes, in floats: on the grid of casualty
    counts (:mod:`adjudicator.odds.grid`) when :func:`on_the_grid` says so, else state by
    state."""
    asked = read_odds_request(document)
    chain: RoundChain[float] = RoundChain(
        asked.setup, lambda a, b: a / b, FLOAT_PRUNE, low_luck=asked.low_luck
    )
    battle = on_the_grid(asked)
    tally = walk_in(chain)
    if tally is None and battle is not None:
        tally = by_rounds_on_grid(
            chain, battle, asked.policy, tolerance=SETTLED_BELOW, floor=GRID_FLOOR
        )
    if tally is None:
        tally = by_rounds(chain, asked.policy, tolerance=SETTLED_BELOW, floor=FLOOR)
    return summarise(chain, tally)


def exact_odds(document: Mapping[str, object]) -> Odds[Fraction]:
    """The same odds in exact fractions (no round distribution unless a round limit ends
    the battle): for checking the float path on small battles."""
    asked = read_odds_request(document)
    chain: RoundChain[Fraction] = RoundChain(asked.setup, Fraction, low_luck=asked.low_luck)
    return summarise(chain, absorbed(chain, asked.policy))


def odds_json(document: Mapping[str, object]) -> dict[str, object]:
    """The version-1 output object for ``document``: by Classic's rules, or by Big World
    1942's when it says ``"ruleset": "big_world_1942"``
    (:func:`adjudicator.bigworld.odds.big_world_odds_json`)."""
    if not isinstance(document, Mapping):
        raise WrongType("(document)", f"expected an object, got {type(document).__name__}")
    if ruleset_of(document) == RULESET:
        from adjudicator.bigworld.odds import big_world_odds_json

        return big_world_odds_json(document)
    return odds_to_json(odds(document), land=read_odds_request(document).setup.is_land)
