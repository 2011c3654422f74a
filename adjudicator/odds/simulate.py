"""Battles played out with dice through the engine's own rounds: the Monte Carlo the exact
odds answer to (issue 18: "exact odds equal a 1,000,000-run Monte Carlo of the engine's own
``battle resolve`` within its error").

Each round is thrown as a player throws it and handed to
:func:`adjudicator.battle.engine.play_round`, which alone says what the dice do: the AA
shots before round 1 (one die per attacking aircraft), the support shots in round 1 of an
amphibious assault, the attacking subs rolled first in every round at sea (as the calculator
assumes), then both main rolls for the units still there, at the values technologies give.
The player's decisions are the calculator's: casualties by the declared order of loss or the
default, and a retreat (``RoundInput.retreat``) by the :class:`~adjudicator.odds.chain.
RetreatPolicy`, after a round that leaves the attacker ``attackers_at_most`` units or fewer,
or after round ``after_round``, never where no retreat is allowed. As in
:func:`~adjudicator.odds.chain.by_rounds`, a state no round can change
(:func:`~adjudicator.odds.chain.no_round_can_change`) is a stalemate, checked after the size
limit and before the round limit.

Speed: the states a battle reaches are kept, and with each the state every round from it
led to, keyed by the hits of each volley (AA, support shots, the attacking subs' first
strike, the attacker's main roll, and the defender's as the engine counts it: submarines'
hits apart) and by whether the round is the first or the last the policy allows. The engine
is asked once about each; the rest of a run is dice and dictionaries. That holds the engine
to what the rules make it: a die counts only as a hit or a miss, and rounds after the first
differ only by their dice.
:meth:`MonteCarlo.recorded` throws the same dice with no round cache (the states are still
kept), every round through the engine, and the tests hold both to the same battles run by
run.

Dice come from the caller (:mod:`adjudicator` may not import :mod:`random`: DESIGN.md
Layers): anything with a ``random()`` in [0, 1), such as :class:`random.Random`; a die is the
sixth of [0, 1) the number falls in (:func:`face`). :meth:`MonteCarlo.sample` counts the
battles as a :class:`~adjudicator.odds.sample.Sample`, which
:func:`~adjudicator.odds.sample.compare` puts beside the exact odds, figure by figure, in
standard errors.

Low Luck is not played (:class:`MonteCarlo` refuses it). Its place is
:meth:`MonteCarlo._round`: each volley's dice and the hits counted from them would become
one die for the remainder of the volley's power, recorded as ``RoundInput.low_luck``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Protocol

from adjudicator.battle.casualties import aa_casualties, casualties_by_order
from adjudicator.battle.engine import BattleState, play_round, start
from adjudicator.battle.errors import InvalidValue
from adjudicator.battle.firing import AA_HITS_ON, SUPPORT_SHOT_HITS_ON
from adjudicator.battle.result import Outcome, captures
from adjudicator.battle.setup import RoundInput
from adjudicator.diagnostics import Severity
from adjudicator.odds import read_odds_request
from adjudicator.odds.chain import Ending
from adjudicator.odds.rounds import ipc_value, no_round_can_change
from adjudicator.odds.sample import Sample
from adjudicator.rolls.battle import SIDES
from adjudicator.units import NO_UNITS, Side, Units, UnitType

U = UnitType

EDGES = tuple(k / SIDES for k in range(1, SIDES))
"""Where one face of a die ends and the next begins, for a number in [0, 1)."""


def face(number: float) -> int:
    """The die a number in [0, 1) throws: 1 below ``EDGES[0]``, 6 from ``EDGES[-1]``."""
    return bisect_right(EDGES, number) + 1


def hit_below(value: int) -> float:
    """Numbers below this throw a die at or under ``value``: a hit."""
    if value <= 0:
        return 0.0
    return EDGES[value - 1] if value < SIDES else 1.0


AA_CUT = hit_below(AA_HITS_ON)
SUPPORT_CUT = hit_below(SUPPORT_SHOT_HITS_ON)


class DiceSource(Protocol):
    """Where the dice come from: :class:`random.Random`, or anything with its ``random``."""

    def random(self) -> float:
        """A number in [0, 1)."""
        ...


class DiceMismatch(RuntimeError):
    """The engine found fault with dice this module threw: a bug here or in the engine."""


@dataclass(frozen=True)
class Played:
    """One battle played out: how it ended, what each side had left, after how many rounds
    (0: taken without a roll), and the IPC each side lost (units that fight, as
    :func:`~adjudicator.odds.report.ipc_value` counts them for the odds)."""

    ending: Ending
    attacker: Units
    defender: Units
    rounds: int
    attacker_ipc_lost: int
    defender_ipc_lost: int
    captures: bool
    """Land: the attacker won with a land unit left (planes never capture:
    :func:`~adjudicator.battle.result.captures`)."""


_ENDINGS = {
    Outcome.ATTACKER_WINS: Ending.ATTACKER_WINS,
    Outcome.DEFENDER_WINS: Ending.DEFENDER_WINS,
    Outcome.BOTH_DESTROYED: Ending.DRAW,
    Outcome.ATTACKER_RETREATS: Ending.RETREATED,
}

_Throw = tuple[int, float, int]
"""Dice of a main roll that hit on the same numbers and count alike: how many, :func:`hit_below`
of their value, and where their hits count in a round's key: 3 the attacker's (no submarine
of his throws in the main roll), 4 the defender's submarines, 5 his other units (0 to 2 are
the AA shots, support shots and first strike, 6 whether the round is the last)."""


@dataclass(slots=True, eq=False)
class _Main:
    """A round once the first strike's casualties are known: the dice of the main roll, and
    the unit types they are thrown for, in order (each with its number of dice)."""

    throws: tuple[_Throw, ...]
    types: tuple[tuple[Side, UnitType, int], ...]


@dataclass(slots=True, eq=False)
class _Strike:
    """A round once the AA shots' casualties are known: the subs that strike first."""

    attacker: Units
    subs: int
    after: dict[int, _Main] = field(default_factory=dict)


@dataclass(slots=True, eq=False)
class _Node:
    """A state the battle reached (``ending`` ``None`` while it goes on), what its round
    throws before the main roll, and where each round from it led."""

    state: BattleState
    ending: Ending | None
    aa: int
    bombard: int
    strikes: dict[int, _Strike] = field(default_factory=dict)
    rounds: dict[tuple[int | bool, ...], _Node] = field(default_factory=dict)


class MonteCarlo:
    """One battle document (what :func:`adjudicator.odds.odds` reads) played as often as
    asked, keeping the states and rounds met (see the module's note). Raises a
    :class:`~adjudicator.battle.errors.BattleInputError` for a bad document."""

    def __init__(self, document: Mapping[str, object]) -> None:
        asked = read_odds_request(document)
        if asked.low_luck:
            raise InvalidValue("low_luck", "the Monte Carlo throws dice: Low Luck is not played")
        self.setup = setup = asked.setup
        free = setup.retreat_possible
        self._limit = asked.policy.attackers_at_most if free else None
        self._stop = (asked.policy.after_round or 0) if free else 0
        self._orders = (setup.order(Side.ATTACKER), setup.order(Side.DEFENDER))
        self._sub_cut = hit_below(setup.hits_on(Side.ATTACKER, U.SUB))
        self._nodes: dict[tuple[BattleState, bool], _Node] = {}
        self.start = self._node(start(setup), first=True)

    def _node(self, state: BattleState, *, first: bool) -> _Node:
        found = self._nodes.get((state, first))
        if found is None:
            setup, a = self.setup, state.attacker
            ending = _ENDINGS.get(state.outcome)
            if ending is None and not first and no_round_can_change(setup, a, state.defender):
                ending = Ending.STALEMATE
            gun = first and setup.is_land and setup.defender.count(U.AA) > 0
            bombard = setup.bombarding if first else 0
            found = self._nodes[(state, first)] = _Node(state, ending, gun * a.aircraft, bombard)
        return found

    def _strike(self, node: _Node, aa_hits: int) -> _Strike:
        """Who is left to throw after the AA shots (the engine's own choice of aircraft), and
        the subs among them, who strike first (at sea: no sub fights on land)."""
        a0 = node.state.attacker
        a1 = a0.minus(aa_casualties(a0, aa_hits, self._orders[0])) if aa_hits else a0
        found = node.strikes[aa_hits] = _Strike(a1, a1.count(U.SUB))
        return found

    def _main(self, node: _Node, strike: _Strike, sub_hits: int) -> _Main:
        """Who throws in the main roll after the subs' first strike (the engine's own
        casualties, by the defender's order of loss: never the default's note for aircraft
        attacking alone, since the subs are there). No attacking sub throws in it: at sea
        every one struck first, and none fights on land."""
        setup, a1, d0 = self.setup, strike.attacker, node.state.defender
        d1 = d0.minus(casualties_by_order(d0, self._orders[1], sub_hits, 0)) if sub_hits else d0
        groups: dict[tuple[float, int], list[tuple[Side, UnitType, int]]] = {}
        for side, units in (
            (Side.ATTACKER, a1 if d1 else NO_UNITS),
            (Side.DEFENDER, d1 if a1 else NO_UNITS),
        ):
            for unit, n in units:
                value = setup.hits_on(side, unit)
                if value and not (side is Side.ATTACKER and unit is U.SUB):
                    dice = n * setup.dice_each(side, unit)
                    slot = 3 if side is Side.ATTACKER else 4 + (unit is not U.SUB)
                    groups.setdefault((hit_below(value), slot), []).append((side, unit, dice))
        throws = tuple(
            (sum(t[2] for t in types), cut, slot) for (cut, slot), types in groups.items()
        )
        thrown_for = tuple(t for types in groups.values() for t in types)
        found = strike.after[sub_hits] = _Main(throws, thrown_for)
        return found

    def _round(
        self, node: _Node, number: int, dice: DiceSource, record: list[RoundInput] | None
    ) -> _Node:
        """Round ``number`` from ``node``: its dice thrown, and the state they lead to (from
        the cache unless ``record`` is given, where the round's input is added)."""
        draw = dice.random
        aa: list[float] = []
        bombard: list[float] = []
        subs: list[float] = []
        aa_hits = bombard_hits = sub_hits = 0
        if node.aa:
            aa = [draw() for _ in range(node.aa)]
            aa_hits = len([u for u in aa if u < AA_CUT])
        strike = node.strikes.get(aa_hits) or self._strike(node, aa_hits)
        if node.bombard:
            bombard = [draw() for _ in range(node.bombard)]
            bombard_hits = len([u for u in bombard if u < SUPPORT_CUT])
        if strike.subs:
            subs = [draw() for _ in range(strike.subs)]
            cut = self._sub_cut
            sub_hits = len([u for u in subs if u < cut])
        main = strike.after.get(sub_hits) or self._main(node, strike, sub_hits)
        hits = [aa_hits, bombard_hits, sub_hits, 0, 0, 0, number == self._stop]
        thrown = []
        for count, cut, slot in main.throws:
            numbers = [draw() for _ in range(count)]
            thrown.append(numbers)
            hits[slot] += len([u for u in numbers if u < cut])
        key = tuple(hits)
        if record is None:
            found = node.rounds.get(key)
            if found is not None:
                return found
        faces = [face(u) for numbers in thrown for u in numbers]
        by_type: dict[Side, dict[UnitType, tuple[int, ...]]] = {
            Side.ATTACKER: {},
            Side.DEFENDER: {},
        }
        at = 0
        for side, unit, count in main.types:
            by_type[side][unit] = tuple(faces[at : at + count])
            at += count
        rnd = RoundInput(
            aa=tuple(map(face, aa)),
            bombard=tuple(map(face, bombard)),
            subs=tuple(map(face, subs)),
            attacker=by_type[Side.ATTACKER],
            defender=by_type[Side.DEFENDER],
        )
        found, rnd = self._engine(node, number, rnd)
        if record is None:
            node.rounds[key] = found
        else:
            record.append(rnd)
        return found

    def _engine(self, node: _Node, number: int, rnd: RoundInput) -> tuple[_Node, RoundInput]:
        """The engine's round, played again with a retreat when the policy calls for one."""
        after = self._node(self._checked(node, number, rnd), first=False)
        state = after.state
        if state.outcome is Outcome.CONTINUES:
            small = self._limit is not None and state.attacker.total <= self._limit
            if small or (after.ending is None and number == self._stop):
                rnd = replace(rnd, retreat=True)
                after = self._node(self._checked(node, number, rnd), first=False)
        return after, rnd

    def _checked(self, node: _Node, number: int, rnd: RoundInput) -> BattleState:
        play = play_round(self.setup, node.state, number, rnd)
        wrong = [d.message for d in play.diagnostics if d.severity is Severity.ERROR]
        if play.reroll is not None or wrong:
            raise DiceMismatch(f"round {number} from {node.state}, {rnd}: {'; '.join(wrong)}")
        return play.state

    def _figures(self, node: _Node) -> tuple[Ending, int, int, bool]:
        """How a battle that reached ``node`` ended: the ending, the IPC each side lost, and
        whether the attacker captures."""
        if node.ending is None:
            raise ValueError("the battle goes on: no ending to report")
        setup, a, d = self.setup, node.state.attacker, node.state.defender
        return (
            node.ending,
            ipc_value(setup.attacking) - ipc_value(a),
            ipc_value(setup.defending) - ipc_value(d),
            captures(setup, node.state.outcome, a),
        )

    def _run(self, dice: DiceSource, record: list[RoundInput] | None) -> Played:
        node, number = self.start, 0
        while node.ending is None:
            number += 1
            node = self._round(node, number, dice, record)
        ending, lost_a, lost_d, captured = self._figures(node)
        return Played(
            ending, node.state.attacker, node.state.defender, number, lost_a, lost_d, captured
        )

    def play(self, dice: DiceSource) -> Played:
        """One battle."""
        return self._run(dice, None)

    def recorded(self, dice: DiceSource) -> tuple[Played, tuple[RoundInput, ...]]:
        """One battle with no round cache, every round through the engine (the states met
        are still kept), and its rounds' input: the battle :meth:`play` gives from the same
        dice."""
        rounds: list[RoundInput] = []
        return self._run(dice, rounds), tuple(rounds)

    def sample(self, runs: int, dice: DiceSource) -> Sample:
        """``runs`` battles, counted (the loop of :meth:`play` written out, for speed)."""
        ends: Counter[_Node] = Counter()
        lengths: Counter[int] = Counter()
        first, step = self.start, self._round
        for _ in range(runs):
            node, number = first, 0
            while node.ending is None:
                number += 1
                node = step(node, number, dice, None)
            ends[node] += 1
            lengths[number] += 1
        endings: Counter[Ending] = Counter()
        captured = lost_a = lost_d = 0
        for node, n in ends.items():
            ending, attacker_lost, defender_lost, takes = self._figures(node)
            endings[ending] += n
            captured += n * takes
            lost_a += n * attacker_lost
            lost_d += n * defender_lost
        return Sample(runs, dict(endings), captured, dict(sorted(lengths.items())), lost_a, lost_d)
