"""Dice luck: a player's battle dice against what the dice thrown should have hit.

A battle die hits at or under its unit's number (Classic rules, "Combat": a unit scores a
hit when it rolls its combat value or less), so a die thrown at ``hit_on`` hits with chance
``hit_on / 6``, independently of every other die. The hits of any run of dice are therefore
a sum of independent binomials, one per number thrown at; this module gives its mean, its
variance, its exact distribution, and how rare the hits actually scored were: the chance of
scoring that few or fewer (``p_at_most``) and that many or more (``p_at_least``).

"Was I unlucky?" is answered by ``p_at_most``: 0.03 means only 3 players in 100 throwing
the same dice would have scored as few hits. The two chances overlap at the hits scored, so
``p_at_most + p_at_least - P(exactly) = 1``.

A Low Luck round (TripleA rule book, "Low Luck vs. Dice") throws fewer dice: each volley's
powers are "added together. The total is then divided by the dice sides (6), and if there is
any remainder it is rolled for." A volley of power ``p`` is ``p // 6`` sure hits, which are
no luck at all, and at most one die, at ``p % 6``, which is a battle die like any other
(:func:`low_luck_volley`). So its mean is ``p / 6``, its variance and its chances are its
die's, shifted by the sure hits, and it joins the same sum of binomials as dice rounds do: a
Low Luck die at 3 is one more die at 3.

The exact distribution (:func:`hits_distribution`, in :class:`~fractions.Fraction`) is for
checking and small rolls; the chances the pages show come from a float distribution that
drops only outcomes rarer than 1e-40 (:func:`luck_of`), so a whole league career of dice is
judged in well under a second. The tests hold one against the other.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from operator import mul
from typing import NamedTuple

from adjudicator.battle.lowluck import split
from adjudicator.rolls.battle import SIDES as FACES

NEGLIGIBLE = 1e-40
"""Outcomes rarer than this are left out of the float distribution: far below the sixth
significant figure of any chance shown."""


class ImpossibleThrow(ValueError):
    """A group of dice that cannot have been thrown: a negative count, or more hits than
    dice and sure hits (or hits where no die could hit)."""


class Throw(NamedTuple):
    """One group of battle dice thrown at one number: a roll's ``groups`` entry, reduced to
    what luck needs. ``hit_on`` 0 never hits, 6 always does."""

    hit_on: int
    dice: int
    hits: int
    """Every hit the group scored, its sure hits included."""
    sure: int = 0
    """Hits scored without a die: a Low Luck volley's one for each full 6 of its power
    (:func:`low_luck_volley`). They count in the hits and the mean, never in the dice thrown
    or the chances."""


def low_luck_volley(power: int, hits: int) -> Throw:
    """A Low Luck volley of ``power`` that scored ``hits`` (TripleA rule book, "Low Luck vs.
    Dice": the total "is then divided by the dice sides (6), and if there is any remainder
    it is rolled for"): ``power // 6`` sure hits and, when there is a remainder, one die
    that hits at the remainder or under. Its mean is ``power / 6``. Raises
    :class:`ImpossibleThrow` for hits that power cannot score."""
    if power < 0:
        raise ImpossibleThrow(f"a Low Luck volley of power {power}: power is never negative")
    sure, remainder = split(power)
    [throw] = _checked([Throw(hit_on=remainder, dice=1 if remainder else 0, hits=hits, sure=sure)])
    return throw


def _chance(hit_on: int) -> Fraction:
    return Fraction(min(max(hit_on, 0), FACES), FACES)


def _checked(throws: Iterable[Throw]) -> list[Throw]:
    out = []
    for each in throws:
        hit_on, dice, hits, sure = (int(v) for v in each)
        rolled = hits - sure
        if dice < 0 or sure < 0 or not 0 <= rolled <= dice:
            raise ImpossibleThrow(
                f"{hits} hit(s) from {dice} dice and {sure} sure hit(s): hits run from the "
                "sure hits to the sure hits and the dice"
            )
        if hit_on <= 0 < rolled or (hit_on >= FACES and rolled < dice):
            raise ImpossibleThrow(
                f"{rolled} hit(s) from {dice} dice at {hit_on}: "
                "a die at 0 never hits and a die at 6 always does"
            )
        out.append(Throw(hit_on, dice, hits, sure))
    return out


def _by_number(throws: Iterable[Throw]) -> dict[int, int]:
    """Dice per number thrown at (numbers clamped to 0..6): dice at one number are one
    binomial, whatever groups they came in."""
    counted: dict[int, int] = {}
    for each in throws:
        number = min(max(each.hit_on, 0), FACES)
        counted[number] = counted.get(number, 0) + each.dice
    return counted


def _sure(throws: Iterable[Throw]) -> int:
    return sum(each.sure for each in throws)


def expected_hits(throws: Iterable[Throw]) -> Fraction:
    """The mean hits of these dice: the sum of ``dice * hit_on / 6``, and the sure hits."""
    return sum((each.dice * _chance(each.hit_on) + each.sure for each in throws), Fraction(0))


def hits_variance(throws: Iterable[Throw]) -> Fraction:
    """The variance of the hits: the sum of ``dice * p * (1 - p)``, ``p = hit_on / 6``."""
    total = Fraction(0)
    for each in throws:
        p = _chance(each.hit_on)
        total += each.dice * p * (1 - p)
    return total


def hits_distribution(throws: Iterable[Throw]) -> tuple[Fraction, ...]:
    """The exact chance of each total of hits, index = hits (0 to every die thrown and
    sure hit; fewer hits than the sure ones have chance 0).

    Counted in whole numbers of the ``6 ** dice`` equally likely throws, each number's
    binomial convolved into the total, then divided once: exact, and slow only for
    hundreds of dice (use :func:`luck_of` there)."""
    throws = list(throws)
    ways = [0] * _sure(throws) + [1]
    throws_total = 0
    for number, dice in sorted(_by_number(throws).items()):
        hit, miss = number, FACES - number
        term = [math.comb(dice, k) * hit**k * miss ** (dice - k) for k in range(dice + 1)]
        combined = [0] * (len(ways) + dice)
        for i, a in enumerate(ways):
            if a:
                for k, b in enumerate(term):
                    combined[i + k] += a * b
        ways = combined
        throws_total += dice
    whole = FACES**throws_total
    return tuple(Fraction(w, whole) for w in ways)


@dataclass(frozen=True)
class _Spread:
    """A float distribution of hits: ``chances[i]`` is the chance of ``start + i`` hits;
    hits outside the span are rarer than :data:`NEGLIGIBLE`."""

    start: int
    chances: list[float]

    def at_most(self, hits: int) -> float:
        end = min(hits - self.start + 1, len(self.chances))
        return min(1.0, math.fsum(self.chances[:end])) if end > 0 else 0.0

    def at_least(self, hits: int) -> float:
        begin = max(hits - self.start, 0)
        return min(1.0, math.fsum(self.chances[begin:]))


def _binomial_spread(dice: int, number: int) -> _Spread:
    if number <= 0 or dice == 0:
        return _Spread(0, [1.0])
    if number >= FACES:
        return _Spread(dice, [1.0])
    p = number / FACES
    log_p, log_q, log_all = math.log(p), math.log1p(-p), math.lgamma(dice + 1)

    def log_chance(k: int) -> float:
        return (
            log_all
            - math.lgamma(k + 1)
            - math.lgamma(dice - k + 1)
            + k * log_p
            + (dice - k) * log_q
        )

    floor = math.log(NEGLIGIBLE)
    mode = min(int((dice + 1) * p), dice)
    low, high = mode, mode
    while low > 0 and log_chance(low - 1) > floor:
        low -= 1
    while high < dice and log_chance(high + 1) > floor:
        high += 1
    return _Spread(low, [math.exp(log_chance(k)) for k in range(low, high + 1)])


def _combined(a: _Spread, b: _Spread) -> _Spread:
    """The distribution of the sum of two independent hit counts (each output a C-level
    ``sum(map(mul, ...))``), trimmed again of what is negligible."""
    x, y = a.chances, b.chances
    if len(x) < len(y):
        x, y = y, x
    reverse = y[::-1]
    n, m = len(x), len(y)
    out = []
    for t in range(n + m - 1):
        lo, hi = max(0, t - m + 1), min(t, n - 1)
        start = m - 1 - t + lo
        out.append(sum(map(mul, x[lo : hi + 1], reverse[start : start + hi - lo + 1])))
    first = 0
    while first < len(out) - 1 and out[first] < NEGLIGIBLE:
        first += 1
    last = len(out) - 1
    while last > first and out[last] < NEGLIGIBLE:
        last -= 1
    return _Spread(a.start + b.start + first, out[first : last + 1])


def _spread(throws: Sequence[Throw]) -> _Spread:
    total = _Spread(_sure(throws), [1.0])
    for number, dice in sorted(_by_number(throws).items(), key=lambda item: item[1]):
        total = _combined(total, _binomial_spread(dice, number))
    return total


@dataclass(frozen=True)
class Luck:
    """How a run of battle dice went against the odds."""

    dice: int
    hits: int
    expected: Fraction
    """The mean hits of the dice thrown (exact)."""
    variance: Fraction
    p_at_most: float
    """The chance of this many hits or fewer: small means unlucky."""
    p_at_least: float
    """The chance of this many hits or more: small means lucky."""

    @property
    def surplus(self) -> Fraction:
        """Hits scored above the mean (negative: below)."""
        return self.hits - self.expected

    @property
    def z(self) -> float | None:
        """Standard deviations above the mean; None when the dice could go only one way."""
        if self.variance == 0:
            return None
        return float(self.surplus) / math.sqrt(self.variance)


def luck_of(throws: Iterable[Throw]) -> Luck:
    """The luck of these dice together (one roll's groups, or a whole game's)."""
    checked = _checked(throws)
    hits = sum(each.hits for each in checked)
    spread = _spread(checked)
    return Luck(
        dice=sum(each.dice for each in checked),
        hits=hits,
        expected=expected_hits(checked),
        variance=hits_variance(checked),
        p_at_most=spread.at_most(hits),
        p_at_least=spread.at_least(hits),
    )


@dataclass(frozen=True)
class LuckPoint:
    """One roll in a running tally of luck: its own hits and mean, and the totals so far."""

    hits: int
    expected: Fraction
    cumulative_hits: int
    cumulative_expected: Fraction

    @property
    def running_surplus(self) -> Fraction:
        """Hits above the mean so far (what the luck chart draws)."""
        return self.cumulative_hits - self.cumulative_expected


def running_luck(rolls: Iterable[Sequence[Throw]]) -> list[LuckPoint]:
    """The running tally over rolls in the order thrown, one point per roll."""
    points: list[LuckPoint] = []
    hits, expected = 0, Fraction(0)
    for roll in rolls:
        checked = _checked(roll)
        mean = expected_hits(checked)
        scored = sum(each.hits for each in checked)
        hits, expected = hits + scored, expected + mean
        points.append(LuckPoint(scored, mean, hits, expected))
    return points
