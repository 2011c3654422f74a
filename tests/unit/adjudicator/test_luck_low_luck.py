"""Dice luck of Low Luck rounds (issue 18), worked by hand.

TripleA rule book, "Low Luck vs. Dice": "In “Low Luck”, all of the attacker’s units have
their attack powers added together. The total is then divided by the dice sides (6), and if
there is any remainder it is rolled for. The defender does the same with the defense powers
of all their units."

So a volley of power ``p`` scores ``p // 6`` hits for certain and throws at most one die, at
``p % 6``: its mean is ``p / 6``, and only that die is luck.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.luck import (
    ImpossibleThrow,
    Throw,
    hits_distribution,
    low_luck_volley,
    luck_of,
    running_luck,
)


def test_a_volley_is_its_sure_hits_and_one_die_at_the_remainder() -> None:
    assert low_luck_volley(7, 1) == Throw(hit_on=1, dice=1, hits=1, sure=1)
    assert low_luck_volley(12, 2) == Throw(hit_on=0, dice=0, hits=2, sure=2)
    assert low_luck_volley(5, 0) == Throw(hit_on=5, dice=1, hits=0, sure=0)
    assert low_luck_volley(0, 0) == Throw(hit_on=0, dice=0, hits=0, sure=0)


def test_a_round_without_a_remainder_adds_its_hits_to_both_sides_of_the_tally() -> None:
    """A round of powers 12 and 6 throws nothing: it adds expected = actual."""
    points = running_luck(
        [[low_luck_volley(7, 2)], [low_luck_volley(12, 2), low_luck_volley(6, 1)]]
    )
    assert [p.hits for p in points] == [2, 3]
    assert [p.expected for p in points] == [Fraction(7, 6), 3]
    assert [p.running_surplus for p in points] == [Fraction(5, 6), Fraction(5, 6)]


def test_three_volleys_of_power_7() -> None:
    """3 sure hits and three dice at 1: 3 hits only if all three miss, (5/6)^3 = 125/216."""
    volleys = [low_luck_volley(7, 1)] * 3
    luck = luck_of(volleys)
    assert (luck.dice, luck.hits, luck.expected) == (3, 3, Fraction(7, 2))
    assert luck.p_at_most == pytest.approx(125 / 216)
    assert luck.p_at_least == 1.0
    assert hits_distribution(volleys)[3:] == (
        Fraction(125, 216),
        Fraction(75, 216),
        Fraction(15, 216),
        Fraction(1, 216),
    )


def test_a_low_luck_die_is_one_more_die_at_its_number() -> None:
    """Power 9 (1 sure hit and a die at 3) with a dice round's die at 3: one sure hit plus
    two dice at 3, i.e. 1, 2 or 3 hits with chances 1/4, 1/2, 1/4; 2 hits is the mean."""
    throws = [low_luck_volley(9, 2), Throw(3, 1, 0)]
    assert hits_distribution(throws) == (
        Fraction(0),
        Fraction(1, 4),
        Fraction(1, 2),
        Fraction(1, 4),
    )
    luck = luck_of(throws)
    assert (luck.dice, luck.hits, luck.expected) == (2, 2, Fraction(2))
    assert luck.variance == Fraction(1, 2)
    assert luck.p_at_most == pytest.approx(3 / 4)
    assert luck.p_at_least == pytest.approx(3 / 4)


@pytest.mark.parametrize(("power", "hits"), [(7, 0), (7, 3), (12, 1), (12, 3), (5, 2), (-1, 0)])
def test_hits_a_volley_could_not_score_are_refused(power: int, hits: int) -> None:
    with pytest.raises(ImpossibleThrow):
        luck_of([low_luck_volley(power, hits)])


def test_a_sure_hit_never_counts_as_a_die_or_as_luck() -> None:
    with pytest.raises(ImpossibleThrow):
        luck_of([Throw(hit_on=3, dice=1, hits=1, sure=-1)])
    assert luck_of([Throw(hit_on=6, dice=2, hits=5, sure=3)]).variance == 0


volleys = st.lists(
    st.tuples(st.integers(0, 40), st.booleans()).map(
        lambda t: low_luck_volley(t[0], t[0] // 6 + (t[1] and t[0] % 6 > 0))
    ),
    max_size=8,
)
dice = st.lists(
    st.tuples(st.integers(1, 5), st.integers(0, 6), st.floats(0, 1)).map(
        lambda t: Throw(t[0], t[1], round(t[1] * t[2]))
    ),
    max_size=3,
)


@settings(max_examples=150, deadline=None)
@given(volleys, dice)
def test_float_chances_match_the_exact_distribution(
    low_luck: list[Throw], thrown: list[Throw]
) -> None:
    """Low Luck volleys among dice: the float chances the pages show are the exact ones,
    the mean is the powers / 6 with the dice's, and only the dice vary."""
    throws = [*low_luck, *thrown]
    exact = hits_distribution(throws)
    assert sum(exact) == 1
    luck = luck_of(throws)
    assert luck.p_at_most == pytest.approx(float(sum(exact[: luck.hits + 1])), abs=1e-12)
    assert luck.p_at_least == pytest.approx(float(sum(exact[luck.hits :])), abs=1e-12)
    mean = sum(k * p for k, p in enumerate(exact))
    assert mean == luck.expected
    powers = sum(6 * t.sure + t.hit_on for t in low_luck)
    assert luck.expected == Fraction(powers, 6) + sum(
        Fraction(t.dice * t.hit_on, 6) for t in thrown
    )
    assert sum((k - mean) ** 2 * p for k, p in enumerate(exact)) == luck.variance
    assert luck.dice == sum(t.dice for t in throws)
