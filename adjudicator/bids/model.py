"""What a bid is once read, and what its check finds.

A bid is the two things a player enters with a challenge (IAAPA How to Start a Game): the
"Your Bid (IPC Total Value)" block, an IPC figure, and the "Details", the units and IPCs as he
writes them ("3 G INF Ukraine, 1 J ARM Manchuria, 1 J IPC"). The details are read into
:class:`BidItem` values (:mod:`adjudicator.bids.reading`), checked against a position
(:mod:`adjudicator.bids.rules`) and summed up in a :class:`BidCheck`, which
:func:`adjudicator.bids.apply_bid` places on the board before the first USSR turn (IAAPA
Bidding).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from adjudicator.diagnostics import Diagnostic, Rule, Severity
from adjudicator.position.serialize import POWER_NAMES
from adjudicator.powers import TURN_ORDER, Power
from adjudicator.units import CHART_ORDER, UnitType


class BidError(ValueError):
    """A bid that cannot be applied: its check found errors, or it does not fit the position
    it is applied to. The message says which."""


class BidCode(StrEnum):
    """The stable name of each finding of a bid check (messages may be reworded; codes may
    not): a :class:`Finding`'s ``code``, compared as the member or as its text."""

    DISCREPANCY = "discrepancy"
    """Warning: the details (or a total written in them) come to another figure than the
    "Your Bid (IPC Total Value)" block; the block stands (IAAPA How to Start a Game)."""
    NEGATIVE_MIXED = "negative-mixed"
    """Error: removals combined with additions, a negative total with additions, or a
    positive total with only removals (IAAPA Bidding: negative bids)."""
    NOT_THERE = "not-there"
    """Error: a removal of units the power does not have in that place, or of more IPCs than
    it holds (IAAPA Bidding: negative bids)."""
    NATIONALITY = "nationality"
    """Error: German units placed in a Japanese territory or sea zone, or Japanese in a
    German one (IAAPA Bidding: mixed nationality bids)."""
    LAND_PLACEMENT = "land-placement"
    """Error: a land unit (INF, ARM, AA, IC) in a sea zone or in a territory its power does
    not control (IAAPA Bidding: land units)."""
    AIR_PLACEMENT = "air-placement"
    """Error: a fighter or bomber in a territory its power does not control (IAAPA Bidding:
    fighters)."""
    FIGHTERS_ON_CARRIERS = "fighters-on-carriers"
    """Error: a fighter or bomber placed in a sea zone: no aircraft on an existing or a bid
    carrier (IAAPA Bidding: fighters)."""
    NAVAL_PLACEMENT = "naval-placement"
    """Error: a ship on land, or in a sea zone next to no land its power controls (IAAPA
    Bidding: naval units)."""
    ALLIED_UNITS_PRESENT = "allied-units-present"
    """Error: a ship placed in a sea zone that Allied units occupy (IAAPA Bidding: naval
    units)."""
    IC_NOT_ORIGINAL = "ic-not-original"
    """Info: a bid complex is not an original IC and builds at most the territory's income
    in units a turn (IAAPA Bidding: industrial complexes)."""
    SECOND_COMPLEX = "second-complex"
    """Error: a complex placed where there is one already, or two bid into one territory:
    one complex a territory (IAAPA Bidding: industrial complexes)."""
    ALLIED_POWER = "allied-power"
    """Error: units or IPCs bid for the USSR, the UK or the USA: bids are "for the Axis
    powers" (IAAPA Bidding)."""
    NO_POWER = "no-power"
    """Error: an item naming no power (and no other item of the bid lending it one), unless
    its place names it (:attr:`POWER_OF_PLACE`)."""
    POWER_OF_PLACE = "power-of-place"
    """Info: land units naming no power, placed in a territory an Axis power controls: only
    that power may place land units there (IAAPA Bidding), so they are its."""
    UNKNOWN_POWER = "unknown-power"
    """Error: a word where the power goes that names no power ("3 Italian INF Libya")."""
    NO_PLACE = "no-place"
    """Error: units with no territory or sea zone to be placed in (or removed from)."""
    UNKNOWN_PLACE = "unknown-place"
    """Error: a place the board does not have, or that could be several of its places; the
    item's value still counts."""
    UNKNOWN_UNIT = "unknown-unit"
    """Error: a word where the unit goes that names no Classic unit; the item adds no
    value."""
    UNREADABLE = "unreadable"
    """Error: an item (or the words after it) that cannot be read as units or IPCs."""
    TYPO = "typo"
    """Warning: a misspelt place or unit, read as the one name nearest to it (IAAPA Error
    Correction VI)."""
    ABBREVIATION = "abbreviation"
    """Info: a place written as an abbreviation of one name, read as it (IAAPA
    Abbreviations)."""


@dataclass(frozen=True)
class BidFinding(Diagnostic):
    """A finding of a bid check: the engine's one :class:`~adjudicator.diagnostics.Diagnostic`
    (the notation, the declaration checks and the battle engine report in the same terms),
    its ``code`` a :class:`BidCode`, its ``line`` the line of the details holding the item (0:
    the bid as a whole), its ``message`` what was wrong, in which item as written, and what to
    do."""

    def to_json(self) -> dict[str, str]:
        """``{"severity", "rule", "code", "message"}``: the rule as the league cites it."""
        message = f"{self.message} {self.suggestion}" if self.suggestion else self.message
        return {
            "severity": self.severity.value,
            "rule": self.citation,
            "code": str(self.code),
            "message": message,
        }


Finding = BidFinding
"""What :func:`adjudicator.bids.check_bid` lists: :class:`BidFinding`."""


def bid_finding(
    severity: Severity, rule: Rule, code: BidCode, message: str, line: int = 0
) -> Finding:
    """A finding of a bid check (``line``: of the details; 0, the bid as a whole)."""
    return BidFinding(severity, rule, message, code=code, line=line)


@dataclass(frozen=True)
class BidItem:
    """One item of the details, read: ``count`` units of ``unit`` (or ``count`` IPCs when
    ``unit`` is None) for ``power``, placed in ``place`` (removed when ``removal``).

    ``place`` is the board's name, or None when none was written or it names no place of
    the board (``place_written`` keeps what was written). ``power`` is None when the item
    names none. ``written`` is the item as the player wrote it, for messages.
    """

    written: str
    count: int
    unit: UnitType | None
    power: Power | None
    place: str | None = None
    place_written: str = ""
    removal: bool = False
    line: int = 1
    """The line of the details the item is on (1-based)."""

    @property
    def sign(self) -> int:
        """+1 for an addition, -1 for a removal."""
        return -1 if self.removal else 1

    @property
    def value(self) -> int:
        """IPCs the item is worth at the printed unit costs (negative for a removal)."""
        each = 1 if self.unit is None else self.unit.stats.cost
        return self.sign * self.count * each

    @property
    def what(self) -> str:
        """The units or IPCs as the league writes them: "3 INF", "1 IPC"."""
        return f"{self.count} {'IPC' if self.unit is None else self.unit.value}"


Placements = Mapping[str, Mapping[Power, Mapping[UnitType, int]]]
"""Place -> power -> unit -> count; a removal is a negative count."""


@dataclass(frozen=True)
class BidCheck:
    """A bid read and checked against a position.

    ``total`` is the "Your Bid (IPC Total Value)" figure: it takes precedence over the
    details (IAAPA How to Start a Game) and is what bids are compared by. ``value`` is what
    the details come to at the printed unit costs plus IPCs (negative for removals), every
    item whose unit is known counted, even one whose place is unknown. ``placements`` holds
    the units of every item whose place and power were read: place (the board's name) ->
    power -> unit -> count, a removal as a negative count (a bid that stands is all
    additions or all removals, IAAPA Bidding: negative bids). ``ipcs`` holds the IPCs for
    each power (negative: taken from its bank). ``items`` are the details as read.
    """

    total: int
    value: int
    findings: tuple[Finding, ...]
    placements: Placements
    ipcs: Mapping[Power, int]
    items: tuple[BidItem, ...] = ()
    written_total: int | None = None
    """A total written in the details ("14 IPCs (...)"), if any."""

    @property
    def ok(self) -> bool:
        """True when no finding is an error: the bid may be recorded and applied."""
        return not any(f.severity is Severity.ERROR for f in self.findings)

    @property
    def errors(self) -> tuple[Finding, ...]:
        """The error findings."""
        return tuple(f for f in self.findings if f.severity is Severity.ERROR)

    def to_json(self) -> dict[str, Any]:
        """``{"total", "value", "findings", "placements", "ipcs"}``: powers named as the
        position JSON names them, units by their abbreviation, in the chart's order."""
        return {
            "total": self.total,
            "value": self.value,
            "findings": [f.to_json() for f in self.findings],
            "placements": {
                place: {
                    POWER_NAMES[power]: {
                        unit.value: n
                        for unit, n in sorted(units.items(), key=lambda p: CHART_ORDER[p[0]])
                    }
                    for power, units in _in_turn_order(per_power)
                }
                for place, per_power in sorted(self.placements.items())
            },
            "ipcs": {POWER_NAMES[power]: n for power, n in _in_turn_order(self.ipcs)},
        }


def _in_turn_order(mapping: Mapping[Power, Any]) -> list[tuple[Power, Any]]:
    return sorted(mapping.items(), key=lambda pair: TURN_ORDER.index(pair[0]))
