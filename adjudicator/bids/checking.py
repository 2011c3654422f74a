"""A bid read from its details and checked against a position: :func:`check_bid`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from adjudicator.bids import rules
from adjudicator.bids.model import BidCheck, BidItem, Placements
from adjudicator.bids.reading import read_details
from adjudicator.names import Names, classic_names
from adjudicator.position import Position, initial
from adjudicator.powers import Power
from adjudicator.units import UnitType


def check_bid(
    details: str,
    total: int,
    position: Position | None = None,
    names: Names | None = None,
) -> BidCheck:
    """The bid of ``total`` IPCs ("Your Bid (IPC Total Value)") with these ``details``, read
    and checked against ``position`` (default: the Classic opening, where a bid is placed
    "before the first USSR turn", IAAPA Bidding) with ``names`` (default: Classic's).

    Every item whose unit is known counts toward ``value``, even one whose place is not on
    the board ("the check names each unknown place while the values and the comparison
    still resolve as the text says"); ``total`` is what bids are compared by.
    """
    position = initial() if position is None else position
    reading = read_details(
        details, classic_names() if names is None else names, _axis_controller(position)
    )
    items = reading.items
    value = sum(item.value for item in items)
    findings = (
        *reading.findings,
        *rules.axis_only(items),
        *rules.mixed_signs(items, total),
        *rules.placement_errors(items, position),
        *rules.removals(items, position),
        *rules.discrepancies(total, value, reading.written_total),
    )
    return BidCheck(
        total=total,
        value=value,
        findings=findings,
        placements=_placements(items),
        ipcs=_ipcs(items),
        items=items,
        written_total=reading.written_total,
    )


def _axis_controller(position: Position) -> Callable[[str, bool], Power | None]:
    """The one Axis power that may place units in a place of ``position`` (None if no Axis
    power may, or both may): "Land units may be placed in any territory controlled by the
    appropriate Axis power. Naval units may be placed in any sea zone adjacent to a land
    territory controlled by the appropriate Axis power" (IAAPA Bidding). A sea zone's is the
    Axis power whose land alone of the Axis touches it, for naval units (the second
    argument) only: no other unit is placed at sea."""

    def controller(place: str, naval: bool) -> Power | None:
        territory = position.board.territories.get(place)
        if territory is None:
            return None
        if territory.is_land:
            owner = position.owner(place)
            return owner if owner in (Power.GERMANY, Power.JAPAN) else None
        if not naval:
            return None
        coasts = {position.owner(n) for n in position.board.neighbours(place)}
        axis = coasts & {Power.GERMANY, Power.JAPAN}
        return axis.pop() if len(axis) == 1 else None

    return controller


def _placements(items: tuple[BidItem, ...]) -> Placements:
    """Place -> power -> unit -> count of the items read with a place and a power; a
    removal counts negative."""
    placed: dict[str, dict[Power, dict[UnitType, int]]] = {}
    for item in items:
        if item.unit is None or item.place is None or item.power is None:
            continue
        units = placed.setdefault(item.place, {}).setdefault(item.power, {})
        units[item.unit] = units.get(item.unit, 0) + item.sign * item.count
    return MappingProxyType(
        {
            place: MappingProxyType(
                {
                    power: MappingProxyType({u: n for u, n in units.items() if n})
                    for power, units in per_power.items()
                    if any(units.values())
                }
            )
            for place, per_power in sorted(placed.items())
            if any(any(units.values()) for units in per_power.values())
        }
    )


def _ipcs(items: tuple[BidItem, ...]) -> Mapping[Power, int]:
    """The IPCs bid for each power (negative: taken from its bank)."""
    ipcs: dict[Power, int] = {}
    for item in items:
        if item.unit is None and item.power is not None:
            ipcs[item.power] = ipcs.get(item.power, 0) + item.sign * item.count
    return MappingProxyType({power: n for power, n in ipcs.items() if n})
