"""Who plays which side once both bids are in, and how long a challenge waits for them.

IAAPA Bidding: "The lower bid plays the Axis powers with the benefits of the winning bid
placed on the board before the first USSR turn. ... If bids of equal value are received the
web server will determine the winner by a random process." The random process is one die
the server throws under a committed seed: 1-3 the first bidder (the challenger) plays the
Axis, 4-6 the second. IAAPA Game Challenge Time Limitations: "A game challenge will
automatically expire after a period of 14 days."

Bids are compared by their totals, the "Your Bid (IPC Total Value)" block, which takes
precedence over the details (IAAPA How to Start a Game).
"""

from __future__ import annotations

from datetime import timedelta
from enum import Enum

CHALLENGE_LIFETIME = timedelta(days=14)
"""How long a challenge waits for its answer (IAAPA Game Challenge Time Limitations)."""
DRAW_SIDES = 6
"""The die thrown between equal bids."""


class Bidder(Enum):
    """One of the two bids of a challenge."""

    FIRST = "first"
    """The challenger's, submitted with the challenge."""
    SECOND = "second"
    """The opponent's, submitted with the acceptance."""


def axis_by_bid(first_total: int, second_total: int) -> Bidder | None:
    """The bidder who plays the Axis (the lower total), or None when the totals are equal
    and a die decides (:func:`axis_by_die`)."""
    if first_total == second_total:
        return None
    return Bidder.FIRST if first_total < second_total else Bidder.SECOND


def axis_by_die(die: int) -> Bidder:
    """The bidder a die thrown between equal bids gives the Axis: 1-3 the first, 4-6 the
    second."""
    if not 1 <= die <= DRAW_SIDES:
        raise ValueError(f"a die between equal bids shows 1 to {DRAW_SIDES}, not {die}")
    return Bidder.FIRST if die <= DRAW_SIDES // 2 else Bidder.SECOND


def draw_rule(first: str, second: str) -> str:
    """The draw's rule as the genesis entry records it, naming both bidders."""
    return f"1-3: {first} plays the Axis; 4-6: {second} does"
