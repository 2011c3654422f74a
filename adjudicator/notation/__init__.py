"""PBEM turn notation: read a turn email into orders, with a diagnostic for every doubt.

The formats are those of the IAAPA rules (Declaration and Battle Resolution Procedures) and
the variations players really type. A **pre-combat turn**::

    Germany 3 pre-combat                       title: power and round (optional)
    Tech: 2 dice, Jet Power                    weapons development ("Tech: none")
    Purchases: 3 INF, 1 ARM, 1 TRN ($22)       purchases (money figures optional)
    Combat Moves:
    Attack #1 - W Europe (10 INF, AA)          battle header: number, place, defenders
    UK 8 INF on UK SZ 4 TRN                    origin, units, transports' zone and count
    E Can 1 ARM on E Can SZ 1 TRN to UK SZ     ... the zone they sail to
    Kar 2 FTR (land Karelia)                   ... where planes land
    Total UK v. Germany --- 8 INF, 1 ARM, 2 FTR v. 10 INF, AA
    Attack #2 - Finland (WI)                   walk-in (also "Kar 1 INF WI Finland")
    Attack #3 - Russia (SBR)                   strategic bombing raid

A **post-combat turn**: "Results:" ("#1 W Europe: won, 6 INF, 1 ARM left", "#2 retreated
to Kar"), "Non-combat moves:" ("Kar 2 FTR to Russia"), "Placement:" ("Ger 3 INF"), "Map
update:" ("Ger: 10 INF, 2 ARM, AA, IC" one place a line, "Sweden" for a place without
units), and the count "UK 30/$32". **Special orders**: "OOL for battle #2 (Baltic SZ):
TRN, SUB, AC, BB", "Battle #2: sub withdraws to Karelia SZ", "Battle #1: retreat to UK SZ".

Names resolve through :mod:`adjudicator.names` (canonical names are classic.xml's; a unit
is always its canonical abbreviation INF ARM FTR BMB TRN SUB AC BB AA IC). Misspellings are
read with a ``warning`` (IAAPA Error Correction VI); only what stops part of the turn being
read is an ``error``. Greetings, sign-offs, quoted replies (``>`` lines, "On ... wrote:"
blocks) and signatures (after "-- ") are not orders. A remark between the orders ("Rolling
Ukraine first.") is at most an ``info``: a line that does not look like an order (no number,
"$" or "#", no unit, no notation abbreviation) and cannot be read is chat; a line that looks
like an order and cannot be read is an error. A result never turns words for losses into
survivors ("lost my sub"); when it gives casualties but no outcome, a warning says how it was
read.

Two modes, as python-chess reads PGN: ``parse(text)`` is lenient and returns the
:class:`Turn` with every :class:`~adjudicator.diagnostics.Diagnostic`;
``parse(text, strict=True)`` raises the first error as a :class:`NotationError` (a
``ValueError``: :class:`UnreadableOrderError`, :class:`UnknownNameError`,
:class:`AmbiguousNameError`) carrying its line. :func:`report` gives the versioned JSON object
(format in :mod:`adjudicator.notation.jsonreport`) and :func:`render_report` its human form.

Units are counted as :class:`adjudicator.units.Units` and diagnostics are
:mod:`adjudicator.diagnostics` values; ``Units``, ``Diagnostic`` and ``Severity`` are
re-exported here (the same objects) because a :class:`Turn` is made of them.
"""

from __future__ import annotations

from adjudicator.diagnostics import Diagnostic, Severity
from adjudicator.notation.errors import (
    AmbiguousNameError,
    NotationError,
    UnknownNameError,
    UnreadableOrderError,
)
from adjudicator.notation.jsonreport import REPORT_VERSION, report, turn_report
from adjudicator.notation.model import (
    Battle,
    BattleKind,
    CombatOutcome,
    CombatResult,
    Count,
    LossEntry,
    MapEntry,
    Move,
    Origin,
    Placement,
    Purchase,
    Retreat,
    SpecialOrderOfLoss,
    SubWithdrawal,
    TechResult,
    Total,
    Turn,
    TurnKind,
)
from adjudicator.notation.parser import parse
from adjudicator.notation.render import render_report
from adjudicator.units import Units

__all__ = [
    "REPORT_VERSION",
    "AmbiguousNameError",
    "Battle",
    "BattleKind",
    "CombatOutcome",
    "CombatResult",
    "Count",
    "Diagnostic",
    "LossEntry",
    "MapEntry",
    "Move",
    "NotationError",
    "Origin",
    "Placement",
    "Purchase",
    "Retreat",
    "Severity",
    "SpecialOrderOfLoss",
    "SubWithdrawal",
    "TechResult",
    "Total",
    "Turn",
    "TurnKind",
    "Units",
    "UnknownNameError",
    "UnreadableOrderError",
    "parse",
    "render_report",
    "report",
    "turn_report",
]
