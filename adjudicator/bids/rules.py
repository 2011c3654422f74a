"""The IAAPA Bidding rules, each checked on the items of a bid read from its details.

Every function here returns findings and changes nothing; each finding cites the sentence of
the rule book it applies (:class:`~adjudicator.diagnostics.Rule`, the ``BID_*`` members and
``HOW_TO_START``). Items whose place or unit could not be read were reported by the reading
(:mod:`adjudicator.bids.reading`) and are skipped here: one finding per fault.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from adjudicator.bids.model import BidCode, BidItem, Finding, bid_finding
from adjudicator.diagnostics import Rule, Severity
from adjudicator.names import power_label
from adjudicator.position import Position
from adjudicator.powers import Alliance, Power
from adjudicator.units import Units, UnitType

_ERROR, _WARNING, _INFO = Severity.ERROR, Severity.WARNING, Severity.INFO


def discrepancies(total: int, value: int, written_total: int | None) -> list[Finding]:
    """IAAPA How to Start a Game: "If there is a discrepancy between these the bid that you
    entered in the "Your Bid (IPC Total Value)" block will take precedence." A figure that
    differs from the block is a warning: the block stands, the details are to be adjusted."""
    found = []
    if written_total is not None and written_total != total:
        found.append(
            bid_finding(
                _WARNING,
                Rule.HOW_TO_START,
                BidCode.DISCREPANCY,
                f"The details open with a total of {written_total} IPCs, but the Your Bid "
                f"(IPC Total Value) block says {total}: the block's {total} IPCs take "
                f"precedence. Adjust the details to match a bid of {total}.",
            )
        )
    if value != total:
        found.append(
            bid_finding(
                _WARNING,
                Rule.HOW_TO_START,
                BidCode.DISCREPANCY,
                f"The details are worth {value} IPCs at the printed unit costs, but the Your "
                f"Bid (IPC Total Value) block says {total}: the block's {total} IPCs take "
                f"precedence. Adjust the details to match a bid of {total}.",
            )
        )
    return found


def mixed_signs(items: Sequence[BidItem], total: int) -> list[Finding]:
    """IAAPA Bidding: "Negative value bids are allowed (removing Axis units and/or IPCs) but
    may not be combined with the addition of additional units or IPCs." A negative total is
    a bid of removals only, and a positive one of additions only."""
    removals = [item.written for item in items if item.removal]
    additions = [item.written for item in items if not item.removal]
    if removals and additions:
        why = (
            f"it removes ({_listed(removals)}) and adds ({_listed(additions)}) at once. Bid "
            "either removals only (a negative bid) or additions only"
        )
    elif total < 0 and additions:
        why = (
            f"the total of {total} IPCs is a negative bid, yet the details add "
            f"({_listed(additions)}). A negative bid only removes Axis units or IPCs"
        )
    elif total > 0 and removals:
        why = (
            f"the total of {total} IPCs is a positive bid, yet the details only remove "
            f"({_listed(removals)}). Write a negative total for a bid of removals"
        )
    else:
        return []
    return [
        bid_finding(
            _ERROR,
            Rule.BID_NEGATIVE,
            BidCode.NEGATIVE_MIXED,
            f"The bid cannot stand: {why}.",
        )
    ]


def axis_only(items: Iterable[BidItem]) -> list[Finding]:
    """IAAPA Bidding: a bid is "extra units (land, sea or air) and/or additional IPCs for the
    Axis powers"."""
    return [
        bid_finding(
            _ERROR,
            Rule.BIDDING,
            BidCode.ALLIED_POWER,
            f"In {item.written!r}: {power_label(item.power)} is an Allied power; a bid gives extra "
            "units or IPCs to the Axis powers only. Bid for Germany or Japan.",
            item.line,
        )
        for item in items
        if item.power is not None and item.power.alliance is not Alliance.AXIS
    ]


def placement_errors(items: Iterable[BidItem], position: Position) -> list[Finding]:
    """Where a bid's units may be placed (IAAPA Bidding): land units (ICs and AA guns
    among them) and aircraft in a territory their power controls, ships in a sea zone next
    to one that no Allied unit occupies, never a German unit in a Japanese territory or sea
    zone or the reverse, and no more than one complex a territory."""
    found = []
    complexes: dict[str, list[BidItem]] = {}
    for item in _placed(items, position, removal=False):
        finding = _placement(item, position)
        if finding is not None:
            found.append(finding)
        elif item.unit is UnitType.IC:
            complexes.setdefault(str(item.place), []).append(item)
    for place, bid in complexes.items():
        found.append(_complex(place, bid, position))
    return found


def removals(items: Iterable[BidItem], position: Position) -> list[Finding]:
    """IAAPA Bidding: a negative bid removes "Axis units and/or IPCs": units its power has
    in the place named, IPCs it holds."""
    found = []
    taken: dict[tuple[str, Power], list[BidItem]] = {}
    for item in _placed(items, position, removal=True):
        if item.place is not None and item.power is not None:
            taken.setdefault((item.place, item.power), []).append(item)
    for (place, power), listed in taken.items():
        asked = Units.of((item.unit, item.count) for item in listed if item.unit is not None)
        there = position.units_of(place, power)
        if not there.contains(asked):
            found.append(
                bid_finding(
                    _ERROR,
                    Rule.BID_NEGATIVE,
                    BidCode.NOT_THERE,
                    f"In {_listed([i.written for i in listed])}: {power_label(power)} has "
                    f"{there.label()} in {place}, so {asked.label()} cannot be removed. "
                    "Remove only units that are there.",
                    listed[0].line,
                )
            )
    owed: dict[Power, list[BidItem]] = {}
    for item in items:
        if item.removal and item.unit is None and item.power is not None and item.power in _AXIS:
            owed.setdefault(item.power, []).append(item)
    for power, listed in owed.items():
        asked_ipcs = sum(item.count for item in listed)
        if asked_ipcs > position.bank[power]:
            found.append(
                bid_finding(
                    _ERROR,
                    Rule.BID_NEGATIVE,
                    BidCode.NOT_THERE,
                    f"In {_listed([i.written for i in listed])}: {power_label(power)} holds "
                    f"{position.bank[power]} IPCs, so {asked_ipcs} cannot be taken away. "
                    f"Remove at most {position.bank[power]} IPCs.",
                    listed[0].line,
                )
            )
    return found


_AXIS = (Power.GERMANY, Power.JAPAN)


def _placed(items: Iterable[BidItem], position: Position, *, removal: bool) -> list[BidItem]:
    """The Axis items of units read with a place on the board, added (or removed)."""
    return [
        item
        for item in items
        if item.removal is removal
        and item.unit is not None
        and item.place in position.board.territories
        and item.power in _AXIS
    ]


def _partner(power: Power) -> Power:
    return Power.JAPAN if power is Power.GERMANY else Power.GERMANY


_ADJECTIVES = {Power.GERMANY: "German", Power.JAPAN: "Japanese"}
"""How the rule book qualifies the Axis powers' units and places ("German units may not be
placed in Japanese territories or sea zones")."""


def _placement(item: BidItem, position: Position) -> Finding | None:
    """The one finding on where ``item``'s units go, if they may not go there."""
    assert item.unit is not None and item.place is not None and item.power is not None
    place, power, stats = item.place, item.power, item.unit.stats
    territory = position.board.territories[place]
    own, other = _ADJECTIVES[power], _ADJECTIVES[_partner(power)]
    name = power_label(power)

    def error(rule: Rule, code: BidCode, why: str) -> Finding:
        return bid_finding(_ERROR, rule, code, f"In {item.written!r}: {why}", item.line)

    if stats.is_sea:
        if territory.is_land:
            return error(
                Rule.BID_NAVAL_UNITS,
                BidCode.NAVAL_PLACEMENT,
                f"{place} is land, and a {item.unit.value} is a naval unit. Place it in a sea "
                f"zone next to a territory {name} controls.",
            )
        coasts = [n for n in position.board.neighbours(place) if position.owner(n) is not None]
        if not any(position.owner(n) is power for n in coasts):
            if any(position.owner(n) is _partner(power) for n in coasts):
                return error(
                    Rule.BID_NATIONALITY,
                    BidCode.NATIONALITY,
                    f"{place} is a {other} sea zone (of the Axis, only {other} land touches "
                    f"it), and {own} units may not be placed in {other} territories or sea "
                    f"zones due to a bid. Place the {item.unit.value} next to {own} land.",
                )
            return error(
                Rule.BID_NAVAL_UNITS,
                BidCode.NAVAL_PLACEMENT,
                f"{place} is next to no territory {name} controls. Place the "
                f"{item.unit.value} in a sea zone adjacent to {name} land.",
            )
        if position.has_enemy(place, power):
            allied = position.enemy_units(place, power).label()
            return error(
                Rule.BID_NAVAL_UNITS,
                BidCode.ALLIED_UNITS_PRESENT,
                f"Allied units ({allied}) occupy {place}, so no bid unit may be placed "
                "there. Choose a sea zone free of Allied units.",
            )
        return None
    if territory.is_sea:
        if stats.is_air:
            return error(
                Rule.BID_AIRCRAFT,
                BidCode.FIGHTERS_ON_CARRIERS,
                f"{place} is a sea zone, and a bid's {item.unit.value} cannot be placed on an "
                f"existing or a bid carrier. Place it in a territory {name} controls.",
            )
        return error(
            Rule.BID_LAND_UNITS,
            BidCode.LAND_PLACEMENT,
            f"{place} is a sea zone, and the {item.unit.value} is a land unit for bidding "
            f"purposes. Place it in a territory {name} controls.",
        )
    owner = position.owner(place)
    if owner is power:
        return None
    held = "nobody" if owner is None else power_label(owner)
    if owner is _partner(power):
        return error(
            Rule.BID_NATIONALITY,
            BidCode.NATIONALITY,
            f"{place} is a {other} territory, and {own} units may not be placed in {other} "
            f"territories or sea zones due to a bid. Place the {item.unit.value} in a "
            f"territory {name} controls.",
        )
    rule, code = (
        (Rule.BID_AIRCRAFT, BidCode.AIR_PLACEMENT)
        if stats.is_air
        else (Rule.BID_LAND_UNITS, BidCode.LAND_PLACEMENT)
    )
    return error(
        rule,
        code,
        f"{place} is controlled by {held}, not {name}. Place the {item.unit.value} in "
        f"a territory {name} controls.",
    )


def _complex(place: str, bid: list[BidItem], position: Position) -> Finding:
    """IAAPA Bidding: "Industrial Complexes obtained by bid are not 'original' ICs and their
    production is limited to the income value of the territory in which they are placed";
    and a territory holds one complex at most."""
    there = sum(units.count(UnitType.IC) for units in position.units_at(place).values())
    count = sum(item.count for item in bid)
    written = [item.written for item in bid]
    if there + count > 1:
        had = (
            f"{place} has an industrial complex already"
            if there
            else f"the bid places {count} ICs in {place}"
        )
        return bid_finding(
            _ERROR,
            Rule.BID_COMPLEXES,
            BidCode.SECOND_COMPLEX,
            f"In {_listed(written)}: {had}, and a territory holds one complex at most. "
            "Bid at most one IC, in a territory without one.",
            bid[0].line,
        )
    income = position.board.territories[place].ipc
    return bid_finding(
        _INFO,
        Rule.BID_COMPLEXES,
        BidCode.IC_NOT_ORIGINAL,
        f"In {_listed(written)}: the IC in {place} is not an original IC; it may build at "
        f"most {income} unit{'s' if income != 1 else ''} a turn, the income value of "
        f"{place}.",
        bid[0].line,
    )


def _listed(items: Iterable[str]) -> str:
    return ", ".join(repr(item) for item in items)
