"""Base classes the conformance modules share: a rule case builds its own position (or
reads its own turn) and checks the orders against it; a rule variant re-runs a class by
subclassing it and overriding these fixtures."""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from adjudicator.declarations import Code, check_declarations
from adjudicator.diagnostics import Diagnostic
from adjudicator.names import Names, classic_names
from adjudicator.notation import Severity, Turn, parse
from adjudicator.position import Position, arranged
from adjudicator.powers import Power
from adjudicator.units import UnitType as U

UK, G, R, J, US = Power.UK, Power.GERMANY, Power.USSR, Power.JAPAN, Power.USA
Units = Mapping[str, Mapping[Power, Mapping[U, int]]]
Read = Callable[[str], Turn]


class Case:
    """A rule case: a position built for it and the orders checked against it."""

    def position(self, units: Units, **kw: Any) -> Position:
        return arranged(units, **kw)

    def check(self, units: Units, orders: str, **kw: Any) -> tuple[Diagnostic, ...]:
        turn = parse(orders)
        assert turn.errors == () and turn.battles, "the orders themselves must read cleanly"
        return check_declarations(turn, self.position(units, **kw))


def errors(found: tuple[Diagnostic, ...]) -> list[tuple[int, Code, tuple[int, ...]]]:
    """The error findings as (line, code, battles)."""
    return [(f.line, f.code, f.battles) for f in found if f.severity is Severity.ERROR]


class NotationCase:
    """Shared fixtures: the names of the board under test and a lenient reader."""

    @pytest.fixture
    def names(self) -> Names:
        return classic_names()

    @pytest.fixture
    def read(self, names: Names) -> Read:
        return lambda text: parse(text, names=names)


def battle(
    kind: str,
    attacker: dict[str, int],
    defender: dict[str, int],
    *rounds: dict[str, Any],
    **extra: Any,
) -> dict[str, Any]:
    """Resolve one battle document (version 1) from its forces and rounds of dice."""
    from adjudicator.battle import resolve_json

    return resolve_json(
        {
            "version": 1,
            "kind": kind,
            "attacker": attacker,
            "defender": defender,
            "rounds": list(rounds),
            **extra,
        }
    )


def misses(**units: int) -> dict[str, list[int]]:
    """Dice that hit nothing: a 6 for each unit."""
    return {unit: [6] * n for unit, n in units.items()}


def class_openings(module_file: str) -> list[tuple[str, str]]:
    """Each rule-case class of a conformance module with the first paragraph of its
    docstring: the rule it quotes."""
    tree = ast.parse(Path(module_file).read_text(encoding="utf-8"))
    return [
        (node.name, (ast.get_docstring(node) or "").split("\n\n")[0])
        for node in tree.body
        if isinstance(node, ast.ClassDef) and node.name.startswith("Test")
    ]
