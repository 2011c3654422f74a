"""A checked bid placed on the board: :func:`apply_bid`.

IAAPA Bidding: "The lower bid plays the Axis powers with the benefits of the winning bid
placed on the board before the first USSR turn", and in the rule book's example "Japan will
start with 26 IPCs to spend": the bid's units join the position and its IPCs the bank.
"""

from __future__ import annotations

from adjudicator.bids.model import BidCheck, BidError
from adjudicator.names import power_label
from adjudicator.position import Position, PositionError, check
from adjudicator.powers import Power
from adjudicator.units import Units


def apply_bid(position: Position, bid: BidCheck) -> Position:
    """``position`` with the bid's units placed (or removed, for a negative bid) and its
    IPCs added to (or taken from) each power's bank.

    BidError if the check found errors (a bid that cannot stand is never placed), or if the
    bid does not fit ``position`` (it was checked against another).
    """
    if not bid.ok:
        problems = "; ".join(f"{f.code}: {f.message}" for f in bid.errors)
        raise BidError(f"a bid with errors cannot be applied: {problems}")
    changes: dict[str, dict[Power, Units]] = {}
    for place, per_power in bid.placements.items():
        if place not in position.board.territories:
            raise BidError(f"{position.board.name} has no {place!r}: the bid is for another board")
        for power, counts in per_power.items():
            have = position.units_of(place, power)
            added = Units.of((u, n) for u, n in counts.items() if n > 0)
            taken = Units.of((u, -n) for u, n in counts.items() if n < 0)
            try:
                changes.setdefault(place, dict(position.units_at(place)))[power] = have.plus(
                    added
                ).minus(taken)
            except ValueError as exc:
                raise BidError(f"{place}: {power_label(power)}: {exc}") from None
    placed = position.with_spaces(changes) if changes else position
    for power, ipcs in bid.ipcs.items():
        placed = placed.with_bank(power, placed.bank[power] + ipcs)
    try:
        check(placed, changes)
    except PositionError as exc:
        raise BidError(f"the bid does not fit the position: {exc}") from None
    return placed
