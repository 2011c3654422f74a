"""The turn-check report: a parsed turn as a versioned JSON object.

``pbem turn check FILE [--json]`` prints :func:`report` (as JSON) or its text form
(:func:`adjudicator.notation.render.render_report`).
The object holds integers, strings, lists and objects only: no floats, booleans or nulls;
an absent value is an absent key (a flag is 0 or 1, as in the ledger). Lists are always
present, in the order the email gives them. Places are the board's canonical names
(classic.xml's: "West Europe", "North Sea Zone"); unit keys are the canonical
abbreviations INF ARM FTR BMB TRN SUB AC BB AA IC; powers are USSR, Germany, UK, Japan, USA.

Version 1::

    {"version": 1,
     "kind": "pre-combat" | "post-combat" | "special-orders" | "mixed" | "empty",
     "power": "UK", "round": 3,                                   (when the email says)
     "tech": [{"line", "dice", "technologies": ["Jet Power", ...]}],
     "purchases": [{"line", "units": {UNIT: n}, "spent", "remaining"}],
     "battles": [{"number", "territory", "line", "kind": "battle" | "walk-in" | "raid",
                  "could_be": [place, ...],   (no "territory": the name written fits
                                            each of these places)
                  "attacker": {UNIT: n},    origins added up, else the Total line's
                  "defender": {UNIT: n},    as the header lists them (AA included), else
                                            the Total line's; {} for a walk-in ("WI", "MT");
                                            absent if neither lists them
                  "origins": [{"line", "from", "units", "via": [place, ...],
                               "transports": {UNIT: n}, "land": place,
                               "could_be": [place, ...]}],     (no "from": the name
                                            written fits each of these places)
                  "total": {"line", "attacker", "defender", "attacking_power",
                            "defending_power"}}],
     "results": [{"line", "number", "territory", "outcome": "won" | "lost" | "retreated" |
                  "walked-in" | "both-destroyed" | "raided", "survivors", "losses",
                  "retreat_to", "damage"}],
     "moves": [{"line", "from", "units", "to", "via", "transports"}],     non-combat moves
     "placements": [{"line", "territory", "units"}],
     "map": [{"line", "territory", "units",                              the map update
              "others": {POWER: {UNIT: n}}}],     another power's units written with the
                                            place, "(2 US INF)"; absent if none
     "counts": [{"line", "power", "territories", "ipcs", "units_written": 0 | 1}],
     "orders_of_loss": [{"line", "number", "territory", "battles": "sea" | "land",
                         "order": [{"unit", "count"}]}],
     "withdrawals": [{"line", "number", "territory", "to"}],             sub withdrawals
     "retreats": [{"line", "number", "territory", "to"}],
     "diagnostics": [{"line", "severity": "error" | "warning" | "info", "rule", "message",
                      "suggestion", "code"}],
     "summary": {"errors", "warnings", "infos"}}

``via`` lists the spaces between the origin and the battle in order: the transports' sea
zone, the zone they sail to, a blitz route. ``line`` numbers are 1-based lines of the email
as received (quoted lines counted); a diagnostic's line 0 means the email as a whole.

A diagnostic's ``rule`` cites the rule book as the whole engine does
(:class:`adjudicator.diagnostics.Rule`: "IAAPA <part>: <heading>", e.g. "IAAPA Declaration
and Battle Resolution Procedures: Post Combat Orders"); a citation's wording, like a message's,
is for people and not part of the format (version 1 printed "<part>, <heading>" until the
engine's citations were made one). A diagnostic's ``code`` is stable (messages may be
reworded). Errors (part of the turn not
read): unknown-name, ambiguous-name, bad-number ("1O inf"), unreadable, no-battle,
no-units, no-place, no-destination, count-units (both numbers in $, or the IPCs alone:
"IPC: 35"). Warnings (read, but
look): typo (a corrected misspelling), ambiguous-origin (an attacking origin written so
that it fits several places, "Car SZ": read as ``could_be``), ambiguous-battle (a battle's
place written so, "Attack #1 - Can SZ": the battle is kept with its ``could_be``),
count-units ("UK 30/32"),
total-mismatch, defender-mismatch, missing-origin, no-attackers, destination-mismatch,
duplicate-battle, not-read (a line naming units that was not understood), no-orders,
unstated-outcome (a result giving casualties but not how the battle ended: "lost my sub"
read as lost, "sank their BB, 1 SUB left" as won), unclear-survivors (units after "lost"
that could split anywhere between lost and left, "lost 2 INF, 1 ARM, 3 FTR left": read as
the first lost), no-move (a non-combat move whose units start where it takes them: "Japan SZ
2 TRN -> Manchuria SZ"), no-origin
(a non-combat move naming no place its units start from: "bmb returns to Germany"). Notes:
quoted, implicit-battle (a battle read from a move, with no header), not-read (chat),
corrected (an order of loss the player corrected as he wrote it, "inf, art... sorry, inf,
arm": read from the correction), unknown-heading (a line "Units:" heading no part the engine
knows: the lines under it are read as under no heading),
abbreviation (a shortened place name read as the one place it fits: "Caro SZ"), stays (a
non-combat line saying its units do not move, "Germany 1 BMB -> stays").
Example (the rule book's Precombat example, battle #1 only)::

    {"number": 1, "territory": "West Europe", "line": 2, "kind": "battle",
     "attacker": {"INF": 8, "ARM": 1, "FTR": 2}, "defender": {"INF": 10, "AA": 1},
     "origins": [
       {"line": 3, "from": "United Kingdom", "units": {"INF": 8},
        "via": ["North Sea Zone"], "transports": {"TRN": 4}},
       {"line": 4, "from": "East Canada", "units": {"ARM": 1},
        "via": ["East Canada Sea Zone", "North Sea Zone"], "transports": {"TRN": 1}},
       {"line": 5, "from": "Karelia S.S.R.", "units": {"FTR": 2}, "land": "Karelia S.S.R."}],
     "total": {"line": 6, "attacker": {"INF": 8, "ARM": 1, "FTR": 2},
               "defender": {"INF": 10, "AA": 1}, "attacking_power": "UK",
               "defending_power": "Germany"}}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from adjudicator.diagnostics import Diagnostic, Severity
from adjudicator.names import POWER_ALIASES, Names
from adjudicator.notation.model import Battle, Origin, Total, Turn
from adjudicator.notation.parser import parse
from adjudicator.powers import Power
from adjudicator.units import NO_UNITS, Units

REPORT_VERSION = 1
"""Bumped whenever a key changes meaning or disappears (adding a key is compatible)."""

Report = dict[str, Any]


def power_name(power: Power) -> str:
    """The league's name of ``power`` (USSR, Germany, UK, Japan, USA)."""
    return POWER_ALIASES[power][0]


def _put(obj: Report, key: str, value: object) -> None:
    if value is not None and value != {} and value != []:
        obj[key] = value


def _origin(origin: Origin) -> Report:
    obj: Report = {"line": origin.line}
    _put(obj, "from", origin.place)
    obj["units"] = origin.units.to_json()
    _put(obj, "via", list(origin.via))
    _put(obj, "transports", origin.transports.to_json())
    _put(obj, "land", origin.lands)
    _put(obj, "could_be", list(origin.could_be))
    return obj


def _total(total: Total) -> Report:
    obj: Report = {"line": total.line, "attacker": total.attacker.to_json()}
    if total.defender is not None:
        obj["defender"] = total.defender.to_json()
    _put(obj, "attacking_power", total.attacking_power and power_name(total.attacking_power))
    _put(obj, "defending_power", total.defending_power and power_name(total.defending_power))
    return obj


def _battle(battle: Battle) -> Report:
    obj: Report = {"number": battle.number}
    _put(obj, "territory", battle.territory)
    _put(obj, "could_be", list(battle.could_be))
    obj.update(line=battle.line, kind=battle.kind.value, attacker=battle.attacker.to_json())
    defenders = battle.defenders
    if defenders is not None:
        obj["defender"] = defenders.to_json()
    obj["origins"] = [_origin(o) for o in battle.origins]
    if battle.total is not None:
        obj["total"] = _total(battle.total)
    return obj


def _scoped(line: int, number: int | None, territory: str | None) -> Report:
    obj: Report = {"line": line}
    _put(obj, "number", number)
    _put(obj, "territory", territory)
    return obj


def _units(units: Units) -> dict[str, int]:
    return units.to_json()


def _others(others: tuple[tuple[Power, Units], ...]) -> dict[str, dict[str, int]]:
    """Other powers' units by power name (a power written twice: its units added up)."""
    added: dict[Power, Units] = {}
    for power, units in others:
        added[power] = added.get(power, NO_UNITS) + units
    return {power_name(power): _units(units) for power, units in added.items()}


def turn_report(turn: Turn) -> Report:
    """The version-1 report object of a parsed turn."""
    obj: Report = {"version": REPORT_VERSION, "kind": turn.kind.value}
    _put(obj, "power", turn.power and power_name(turn.power))
    _put(obj, "round", turn.round)
    obj["tech"] = [
        {
            **_put_all({"line": t.line}, dice=t.dice),
            "technologies": [_tech_name(x.name) for x in t.technologies],
        }
        for t in turn.tech
    ]
    obj["purchases"] = [
        _put_all({"line": p.line, "units": _units(p.units)}, spent=p.spent, remaining=p.remaining)
        for p in turn.purchases
    ]
    obj["battles"] = [_battle(b) for b in turn.battles]
    obj["results"] = [
        _put_all(
            _scoped(r.line, r.number, r.territory),
            outcome=r.outcome.value,
            survivors=_units(r.survivors),
            losses=_units(r.losses),
            retreat_to=r.retreat_to,
            damage=r.damage,
        )
        for r in turn.results
    ]
    obj["moves"] = [
        _put_all(
            {"line": m.line},
            **{"from": m.origin},
            units=_units(m.units),
            to=m.destination,
            via=list(m.via),
            transports=_units(m.transports),
        )
        for m in turn.moves
    ]
    obj["placements"] = [
        {"line": p.line, "territory": p.place, "units": _units(p.units)} for p in turn.placements
    ]
    obj["map"] = [
        {"line": e.line, "territory": e.place, "units": _units(e.units)}
        | ({"others": _others(e.others)} if e.others else {})
        for e in turn.map
    ]
    obj["counts"] = [
        _put_all(
            {"line": c.line},
            power=c.power and power_name(c.power),
            territories=c.territories,
            ipcs=c.ipcs,
            units_written=int(c.units_written),
        )
        for c in turn.counts
    ]
    obj["orders_of_loss"] = [
        _put_all(
            _scoped(o.line, o.number, o.territory),
            battles=o.waters,
            order=[_put_all({"unit": e.unit.value}, count=e.count) for e in o.order],
        )
        for o in turn.orders_of_loss
    ]
    obj["withdrawals"] = [
        _put_all(_scoped(w.line, w.number, w.territory), to=w.to) for w in turn.withdrawals
    ]
    obj["retreats"] = [
        _put_all(_scoped(r.line, r.number, r.territory), to=r.to) for r in turn.retreats
    ]
    obj["diagnostics"] = [diagnostic_report(d) for d in turn.diagnostics]
    obj["summary"] = summary(turn.diagnostics)
    return obj


def diagnostic_report(diagnostic: Diagnostic) -> Report:
    """A diagnostic's report form: line, severity, the rule's citation, message, suggestion
    and code, plus ``battles`` when it concerns declared battles."""
    d = diagnostic
    obj: Report = {
        "line": d.line,
        "severity": d.severity.value,
        "rule": d.citation,
        "message": d.message,
        "suggestion": d.suggestion,
        "code": str(d.code),
    }
    if d.battles:
        obj["battles"] = list(d.battles)
    return obj


def summary(diagnostics: Iterable[Diagnostic]) -> Report:
    """``{"errors", "warnings", "infos"}``: how many diagnostics of each severity."""
    found = Counter(d.severity for d in diagnostics)
    return {
        "errors": found[Severity.ERROR],
        "warnings": found[Severity.WARNING],
        "infos": found[Severity.INFO],
    }


def _put_all(obj: Report, **values: object) -> Report:
    for key, value in values.items():
        _put(obj, key, value)
    return obj


def _tech_name(enum_name: str) -> str:
    return enum_name.replace("_", " ").title()


def report(text: str, *, names: Names | None = None) -> Report:
    """Parse the turn email ``text`` (leniently) and return its version-1 report object."""
    return turn_report(parse(text, names=names))
