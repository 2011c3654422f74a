"""Who plays which side once both bids are in (adjudicator.bids.resolution), each case
quoting the rule: IAAPA Bidding and Game Challenge Time Limitations."""

from __future__ import annotations

from datetime import timedelta

import pytest

from adjudicator.bids import CHALLENGE_LIFETIME, Bidder, axis_by_bid, axis_by_die, draw_rule


def test_the_lower_bid_plays_the_axis() -> None:
    """IAAPA Bidding: "The lower bid plays the Axis powers." The rule text's example:
    "Player one bids 15 IPCs ... Player two bids 18 IPCs ... Player one will play the
    Axis"; negative bids are lower still."""
    assert axis_by_bid(15, 18) is Bidder.FIRST
    assert axis_by_bid(18, 15) is Bidder.SECOND
    assert axis_by_bid(-3, 0) is Bidder.FIRST


def test_equal_bids_go_to_a_die() -> None:
    """IAAPA Bidding: "If bids of equal value are received the web server will determine
    the winner by a random process": one die, 1-3 the challenger, 4-6 the opponent."""
    assert axis_by_bid(12, 12) is None
    assert [axis_by_die(d) for d in range(1, 7)] == [Bidder.FIRST] * 3 + [Bidder.SECOND] * 3
    assert draw_rule("a@x", "b@x") == "1-3: a@x plays the Axis; 4-6: b@x does"
    with pytest.raises(ValueError, match="1 to 6"):
        axis_by_die(7)


def test_a_challenge_waits_14_days() -> None:
    """IAAPA Game Challenge Time Limitations: "A game challenge will automatically expire
    after a period of 14 days.\""""
    assert timedelta(days=14) == CHALLENGE_LIFETIME
