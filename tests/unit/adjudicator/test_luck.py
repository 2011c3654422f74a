"""Dice luck (issue 18, point 5): the hits of battle dice against their odds, worked by hand.

A die thrown at ``n`` hits on ``n`` or less (Classic rules, "Combat"): chance ``n/6``."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.luck import (
    ImpossibleThrow,
    Throw,
    expected_hits,
    hits_distribution,
    hits_variance,
    luck_of,
    running_luck,
)


def test_one_die_at_one_misses_five_times_in_six() -> None:
    assert hits_distribution([Throw(1, 1, 0)]) == (Fraction(5, 6), Fraction(1, 6))
    luck = luck_of([Throw(1, 1, 0)])
    assert luck.p_at_most == pytest.approx(5 / 6)
    assert luck.p_at_least == 1.0
    assert luck.expected == Fraction(1, 6)
    assert luck.variance == Fraction(5, 36)


def test_two_dice_at_two_and_one_at_three() -> None:
    throws = [Throw(2, 2, 1), Throw(3, 1, 1)]
    assert expected_hits(throws) == Fraction(2 * 2, 6) + Fraction(3, 6)
    # 0 hits: both 2s miss (4/6 each) and the 3 misses (3/6).
    chances = hits_distribution(throws)
    assert chances[0] == Fraction(4, 6) ** 2 * Fraction(3, 6)
    # 3 hits: all hit.
    assert chances[3] == Fraction(2, 6) ** 2 * Fraction(3, 6)
    assert sum(chances) == 1
    luck = luck_of(throws)
    assert luck.hits == 2
    assert luck.p_at_most == pytest.approx(float(1 - chances[3]))
    assert luck.p_at_least == pytest.approx(float(chances[2] + chances[3]))


def test_variance_is_the_binomials_summed() -> None:
    assert hits_variance([Throw(3, 4, 0), Throw(1, 6, 0)]) == 4 * Fraction(1, 4) + 6 * Fraction(
        5, 36
    )


def test_a_die_at_six_always_hits_and_at_zero_never() -> None:
    luck = luck_of([Throw(6, 3, 3), Throw(0, 2, 0)])
    assert (luck.expected, luck.variance, luck.z) == (Fraction(3), Fraction(0), None)
    assert luck.p_at_most == luck.p_at_least == 1.0


def test_no_dice_is_no_luck() -> None:
    luck = luck_of([])
    assert (luck.dice, luck.hits, luck.p_at_most, luck.p_at_least) == (0, 0, 1.0, 1.0)
    assert luck.expected == 0


@pytest.mark.parametrize(
    "throw", [Throw(3, 2, 3), Throw(3, -1, 0), Throw(3, 2, -1), Throw(0, 2, 1), Throw(6, 2, 1)]
)
def test_impossible_throws_are_refused(throw: Throw) -> None:
    with pytest.raises(ImpossibleThrow):
        luck_of([throw])


def test_z_score() -> None:
    # 6 dice at 3: mean 3, variance 1.5; 6 hits is 3 / sqrt(1.5) above.
    assert luck_of([Throw(3, 6, 6)]).z == pytest.approx(3 / math.sqrt(1.5))


def test_running_luck_keeps_totals() -> None:
    points = running_luck([[Throw(1, 6, 2)], [Throw(3, 2, 0), Throw(2, 3, 1)], []])
    assert [p.hits for p in points] == [2, 1, 0]
    assert [p.expected for p in points] == [1, Fraction(2) / 2 + Fraction(1, 1), 0]
    assert [p.cumulative_hits for p in points] == [2, 3, 3]
    assert [p.cumulative_expected for p in points] == [1, 3, 3]
    assert [p.running_surplus for p in points] == [1, 0, 0]


def test_a_career_of_dice_is_judged_quickly_and_sanely() -> None:
    """Thousands of dice at the mean sit near the middle of the distribution."""
    throws = [Throw(1, 6000, 1000), Throw(2, 6000, 2000), Throw(3, 6000, 3000)]
    luck = luck_of(throws)
    assert luck.expected == luck.hits == 6000
    assert 0.5 < luck.p_at_most < 0.51
    assert 0.5 < luck.p_at_least < 0.51


throws = st.lists(
    st.tuples(st.integers(0, 6), st.integers(0, 12), st.floats(0, 1)).map(
        lambda t: Throw(
            t[0], t[1], round(t[1] * t[2]) if 0 < t[0] < 6 else (t[1] if t[0] >= 6 else 0)
        )
    ),
    max_size=6,
)


@settings(max_examples=150, deadline=None)
@given(throws)
def test_float_chances_match_the_exact_distribution(given_throws: list[Throw]) -> None:
    exact = hits_distribution(given_throws)
    assert sum(exact) == 1
    luck = luck_of(given_throws)
    at_most = sum(exact[: luck.hits + 1])
    at_least = sum(exact[luck.hits :])
    assert luck.p_at_most == pytest.approx(float(at_most), abs=1e-12)
    assert luck.p_at_least == pytest.approx(float(at_least), abs=1e-12)
    # The two chances overlap at the hits scored: P(<=) + P(>=) - P(=) = 1.
    assert at_most + at_least - exact[luck.hits] == 1
    mean = sum(k * p for k, p in enumerate(exact))
    assert mean == luck.expected
    assert sum((k - mean) ** 2 * p for k, p in enumerate(exact)) == luck.variance
