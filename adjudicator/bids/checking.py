"""A bid read from its details and checked against a position: :func:`check_bid`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

from adjudicator.bids import rules
from adjudicator.bids.model import BidCheck, BidCode, BidItem, Finding, Placements, bid_finding
from adjudicator.bids.reading import read_details
from adjudicator.diagnostics import Rule, Severity
from adjudicator.names import Names, classic_names, power_label
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
    reading = read_details(details, classic_names() if names is None else names)
    items, read = _powers_of_places(reading.items, reading.findings, position)
    value = sum(item.value for item in items)
    findings = (
        *read,
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


def _powers_of_places(
    items: tuple[BidItem, ...], findings: tuple[Finding, ...], position: Position
) -> tuple[tuple[BidItem, ...], tuple[Finding, ...]]:
    """Land units added with no power named ("2 inf Ukraine") in a territory an Axis power
    controls are that power's: "Land units may be placed in any territory controlled by the
    appropriate Axis power" (IAAPA Bidding), and by no other. Their "no power" error gives
    way to a note saying so."""
    read, kept = [], list(findings)
    for item in items:
        owner = _owner_for(item, position)
        mine = f"In {item.written!r}:"
        unnamed = [f for f in kept if _no_power_of(f, item.line, mine)]
        if owner is None or not unnamed:  # a power written but not known ("Italian") stands
            read.append(item)
            continue
        read.append(replace(item, power=owner))
        kept = [f for f in kept if f not in unnamed]
        kept.append(
            bid_finding(
                Severity.INFO,
                Rule.BID_LAND_UNITS,
                BidCode.POWER_OF_PLACE,
                f"{mine} no power is named, and {item.place} is {power_label(owner)}'s: read as "
                f"{power_label(owner)}'s {item.unit.value if item.unit else 'units'} (only the "
                "power controlling a territory may place land units in it).",
                item.line,
            )
        )
    return tuple(read), tuple(kept)


def _no_power_of(finding: Finding, line: int, start: str) -> bool:
    """Whether ``finding`` is the "no power" error of the item on ``line`` written so."""
    return (
        finding.code == BidCode.NO_POWER
        and finding.line == line
        and finding.message.startswith(start)
    )


def _owner_for(item: BidItem, position: Position) -> Power | None:
    """The Axis power whose land units ``item`` must be, when it names none."""
    if item.power is not None or item.unit is None or item.place is None or item.removal:
        return None
    territory = position.board.territories.get(item.place)
    if territory is None or not territory.is_land or not item.unit.stats.is_land:
        return None
    owner = position.owner(item.place)
    return owner if owner in (Power.GERMANY, Power.JAPAN) else None


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
