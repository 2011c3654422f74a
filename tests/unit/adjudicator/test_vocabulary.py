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

import pytest

from adjudicator.battle import diagnostics as battle_diagnostics
from adjudicator.diagnostics import Diagnostic, Rule, Severity

PACKAGE = Path(__file__).resolve().parents[3] / "adjudicator"

AWAITING_BATTLE = {
    "CHART_ORDER": "units.py",
    "NEVER_CASUALTIES": "units.py",
    "NO_UNITS": "units.py",
    "Diagnostic": "diagnostics.py",
    "Rule": "diagnostics.py",
    "Severity": "diagnostics.py",
}
"""Names battle/ still defines for itself, with their one home: it adopts them (and drops
``battle/forces.py``) once its current work lands. Empty this, and remove the ``xfail`` of
:func:`test_battle_speaks_the_one_vocabulary`, when it does."""

PENDING_FILES = frozenset({"battle/forces.py"})
"""Files that still hold a second unit count and chart order (see AWAITING_BATTLE)."""


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
    for name, home in AWAITING_BATTLE.items():
        if name in twice and all(p == home or p.startswith("battle/") for p in twice[name]):
            del twice[name]
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
        if where == "units.py" or where in PENDING_FILES:
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
    """The battle engine's rules are the registry's, so adopting it changes no citation the
    battle JSON prints."""
    for rule in battle_diagnostics.Rule:
        assert Rule[rule.name].citation == rule.citation, rule


def test_a_diagnostic_cites_its_rule_and_any_further_rules() -> None:
    one = Diagnostic(Severity.ERROR, Rule.CDE, "m", line=3)
    two = Diagnostic(Severity.ERROR, Rule.TRANSPORT_UNLOADING, "m", also=(Rule.CDE,))
    assert one.citation == "IAAPA Error Correction II"
    assert two.citation == (
        "IAAPA Rules Clarifications: Transport Unloading; IAAPA Error Correction II"
    )
    assert (one.line, one.round, one.battles, one.code) == (3, None, (), "")


@pytest.mark.xfail(
    strict=True,
    reason="battle/ adopts adjudicator.units and "
    "adjudicator.diagnostics after its current work (issue 13)",
)
def test_battle_speaks_the_one_vocabulary() -> None:
    assert battle_diagnostics.Severity is Severity
    assert battle_diagnostics.Rule is Rule
    assert battle_diagnostics.Diagnostic is Diagnostic
    assert importlib.util.find_spec("adjudicator.battle.forces") is None
    assert AWAITING_BATTLE == {}
