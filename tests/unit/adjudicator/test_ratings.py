"""Elo as the rankings page publishes it: K = 32, start 1500, scale 400."""

from __future__ import annotations

import math

import pytest

from adjudicator.ratings import K_FACTOR, START, expected, rate


def test_an_even_game_moves_each_side_half_of_k() -> None:
    [winner, loser] = rate([("ann", "bob")])
    assert (winner.member, winner.rating, winner.games) == ("ann", START + K_FACTOR / 2, 1)
    assert (loser.member, loser.rating, loser.games) == ("bob", START - K_FACTOR / 2, 1)


def test_beating_a_stronger_player_gains_more_than_beating_a_weaker_one() -> None:
    # ann 1516, bob 1484 after one game; then bob beats ann: the upset pays more than 16.
    table = {r.member: r for r in rate([("ann", "bob"), ("bob", "ann")])}
    e_bob = 1 / (1 + 10 ** ((1516 - 1484) / 400))
    assert math.isclose(table["bob"].rating, 1484 + 32 * (1 - e_bob))
    assert table["bob"].rating - 1484 > 16
    assert math.isclose(table["ann"].rating + table["bob"].rating, 2 * START)  # zero-sum


def test_expected_scores_are_complementary() -> None:
    assert math.isclose(expected(1700, 1500) + expected(1500, 1700), 1.0)
    assert expected(1900, 1500) == pytest.approx(10 / 11)  # 400 points: ten to one


def test_ranked_by_rating_then_games() -> None:
    ranked = rate([("ann", "bob"), ("cid", "dan"), ("ann", "cid")])
    assert [r.member for r in ranked][:1] == ["ann"]
    assert [r.points for r in ranked] == sorted((r.points for r in ranked), reverse=True)
    with pytest.raises(ValueError, match="cannot beat himself"):
        rate([("ann", "ann")])
