"""League bids: the "Details" of a bid read as players write them, checked against the
IAAPA Bidding rules, and placed on the board before the first USSR turn.

``check_bid("3 G INF Ukraine, 1 J ARM Manchuria, 1 J IPC", 15)`` reads the details, values
them at the printed unit costs (:attr:`BidCheck.value`, here 15), and lists every problem as a
:class:`Finding` citing its rule (a value other than the total is a ``discrepancy`` warning:
"the bid that you entered in the 'Your Bid (IPC Total Value)' block will take precedence",
IAAPA How to Start a Game). :func:`apply_bid` places a bid that stands on a position. Nothing
here knows the challenge, the players or which bid won: that is the server's.
"""

from adjudicator.bids.apply import apply_bid
from adjudicator.bids.checking import check_bid
from adjudicator.bids.model import (
    BidCheck,
    BidCode,
    BidError,
    BidFinding,
    BidItem,
    Finding,
    Placements,
)
from adjudicator.bids.reading import BidReading, read_details
from adjudicator.bids.resolution import (
    CHALLENGE_LIFETIME,
    DRAW_SIDES,
    Bidder,
    axis_by_bid,
    axis_by_die,
    draw_rule,
)

__all__ = [
    "CHALLENGE_LIFETIME",
    "DRAW_SIDES",
    "BidCheck",
    "BidCode",
    "BidError",
    "BidFinding",
    "BidItem",
    "BidReading",
    "Bidder",
    "Finding",
    "Placements",
    "apply_bid",
    "axis_by_bid",
    "axis_by_die",
    "check_bid",
    "draw_rule",
    "read_details",
]
