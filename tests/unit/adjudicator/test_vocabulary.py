"""One adjudicator vocabulary: one count of units, one chart order, one severity, diagnostic
and rule registry, no public name meaning two things, and positions that never read notation.

Like the purity test, the structural checks read the source (AST), so a module nobody imports
is checked too, and each failure names the file.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from collections import defaultdict
from pathlib import Path

import adjudicator.battle
from adjudicator.battle import BattleSetup, RoundInput, resolve
from adjudicator.battle.writing import battle_to_json
from adjudicator.diagnostics import Diagnostic, Rule, Severity
from adjudicator.units import Battlefield, Units, UnitType

PACKAGE = Path(__file__).resolve().parents[3] / "adjudicator"

HOMES = {
    "adjudicator.units": frozenset({"CHART_ORDER", "NEVER_CASUALTIES", "NO_UNITS", "Units"}),
    "adjudicator.diagnostics": frozenset({"Diagnostic", "Rule", "Severity"}),
}
"""The one home of each shared name: every module imports it from there."""

BATTLE_CITATIONS = {
    "DICE_FACES": "Battle dice show 1 to 6",
    "SUB_FIRST_STRIKE": "IAAPA Using the Dice Server: attacking subs",
    "SUBS_HIT_SHIPS": "Combat sequence: subs hit only ships",
    "DEFAULT_OOL": "IAAPA Default Orders of Loss",
    "PAUSE": "IAAPA Default Orders of Loss: exceptions",
    "ORDER_OF_BATTLES": "IAAPA Combat Resolution and Order of Battles",
    "BATTLE_OVER": "Combat sequence: a battle ends when a side is gone or retreats",
    "AMPHIBIOUS": "IAAPA Rules Clarifications: Amphibious Assaults",
    "RETREATS": "IAAPA Rules Clarifications: Retreats",
    "SUB_WITHDRAWAL": "IAAPA Rules Clarifications: Sub Withdrawal",
    "AA_GUNS": "IAAPA Error Correction III: AA Guns",
    "BB_SUPPORT": "IAAPA Error Correction III: BB Support Shots",
    "TOO_FEW_UNITS": "IAAPA Error Correction III: Too few units",
    "TOO_MANY_UNITS": "IAAPA Error Correction III: Too many units",
    "WRONG_UNITS": "IAAPA Error Correction III: Wrong Units",
}
"""The rules the battle engine cited when it kept its own list, with the citation its JSON
printed for each: results stored in the ledger carry these words."""


def _modules() -> list[tuple[str, ast.Module]]:
    return [
        (path.relative_to(PACKAGE).as_posix(), ast.parse(path.read_text(encoding="utf-8")))
        for path in sorted(PACKAGE.rglob("*.py"))
    ]


def _defined(tree: ast.Module) -> list[str]:
    """The public names a module defines at top level (an alias such as ``U = UnitType``
    names an existing thing and defines nothing)."""
    names = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.append(node.name)
        elif isinstance(node, ast.Assign) and not isinstance(node.value, ast.Name | ast.Attribute):
            names.extend(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
    return [n for n in names if not n.startswith("_")]


def test_no_public_name_is_defined_twice() -> None:
    """``BattleResult`` and ``Outcome`` once meant one thing in the notation and another in
    the battle engine; a name now means one thing in the whole engine."""
    homes: dict[str, list[str]] = defaultdict(list)
    for where, tree in _modules():
        for name in _defined(tree):
            homes[name].append(where)
    twice = {name: places for name, places in homes.items() if len(places) > 1}
    assert twice == {}


def test_position_never_reads_the_notation() -> None:
    """Positions sit below the turn notation: a position is units and owners, whatever
    email they came from (so the notation and the declaration checks may build on it)."""
    found = []
    for where, tree in _modules():
        if not where.startswith("position/"):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                prefix = "adjudicator." if node.level else ""
                modules = [prefix + (node.module or "")]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                continue
            found.extend(
                f"{where}:{node.lineno}: {m}"
                for m in modules
                if re.match(r"adjudicator\.(notation|declarations)\b", m)
            )
    assert found == []


def test_one_chart_order_and_one_count_of_units() -> None:
    """The chart order is ranked once (``units.CHART_ORDER``) and units are counted by one
    type (``units.Units``): no other module ranks ``UnitType`` or holds its own
    (unit, count) pairs."""
    found = []
    for where, tree in _modules():
        if where == "units.py":
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and ast.unparse(node.func) == "enumerate"
                and [ast.unparse(a) for a in node.args] == ["UnitType"]
            ):
                found.append(f"{where}:{node.lineno}: ranks UnitType")
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if (
                        isinstance(item, ast.AnnAssign)
                        and ast.unparse(item.annotation) == "tuple[tuple[UnitType, int], ...]"
                    ):
                        found.append(f"{where}:{node.lineno}: {node.name} counts units")
    assert found == []


def test_every_rule_is_cited_in_one_form() -> None:
    """ "IAAPA <part>: <heading>" (or the part alone), never "<part>, <heading>"."""
    for rule in Rule:
        assert re.fullmatch(r"[^,;:]+(: [^,;:]+)?", rule.citation), rule
    iaapa = [rule for rule in Rule if rule.citation.startswith("IAAPA ")]
    assert Rule.RETREATS in iaapa and Rule.CDE in iaapa


def test_the_battle_engine_cites_the_registry_word_for_word() -> None:
    """The battle engine's rules are the registry's, so adopting it changed no citation the
    battle JSON prints."""
    for name, citation in BATTLE_CITATIONS.items():
        assert Rule[name].citation == citation, name


def test_a_diagnostic_cites_its_rule_and_any_further_rules() -> None:
    one = Diagnostic(Severity.ERROR, Rule.CDE, "m", line=3)
    two = Diagnostic(Severity.ERROR, Rule.TRANSPORT_UNLOADING, "m", also=(Rule.CDE,))
    assert one.citation == "IAAPA Error Correction II"
    assert two.citation == (
        "IAAPA Rules Clarifications: Transport Unloading; IAAPA Error Correction II"
    )
    assert (one.line, one.round, one.battles, one.code) == (3, None, (), "")


def test_every_shared_name_is_imported_from_its_home() -> None:
    """A module that counts units or reports a finding imports the one ``Units`` or
    ``Diagnostic`` from its home, never from a module that happens to re-export it."""
    found = []
    for where, tree in _modules():
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom) or node.level:
                continue
            for alias in node.names:
                home = next((m for m, names in HOMES.items() if alias.name in names), None)
                if home is not None and node.module != home:
                    found.append(f"{where}:{node.lineno}: {alias.name} from {node.module}")
    assert found == []


def test_battle_speaks_the_one_vocabulary() -> None:
    """The battle engine counts units as ``Units`` and reports ``Diagnostic`` values placed by
    round (issue 13): it keeps no unit count, chart order or rule list of its own."""
    assert importlib.util.find_spec("adjudicator.battle.forces") is None
    assert importlib.util.find_spec("adjudicator.battle.diagnostics") is None
    exported = adjudicator.battle
    assert (exported.Units, exported.Diagnostic, exported.Rule, exported.Severity) == (
        Units,
        Diagnostic,
        Rule,
        Severity,
    )
    setup = BattleSetup(Battlefield.LAND, Units.of({UnitType.INF: 1}), Units.of({UnitType.INF: 1}))
    result = resolve(setup, [RoundInput(attacker={UnitType.INF: (7,)})])
    assert type(result.setup.attacker) is Units and type(result.attacker) is Units
    notes = [d for d in result.diagnostics if d.rule is Rule.DICE_FACES]
    assert len(notes) == 1 and type(notes[0]) is Diagnostic
    assert (notes[0].severity, notes[0].round, notes[0].line) == (Severity.ERROR, 1, 0)
    written = battle_to_json(result)["diagnostics"]
    assert isinstance(written, list) and len(written) == len(result.diagnostics)
    assert written[result.diagnostics.index(notes[0])] == {
        "round": 1,
        "severity": "error",
        "rule": "Battle dice show 1 to 6",
        "message": notes[0].message,
    }
