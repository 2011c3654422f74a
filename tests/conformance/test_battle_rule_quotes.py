"""The battle conformance cases quote the rule book exactly.

A conformance class's docstring opens with the rule it tests, quoted. This reads those
docstrings from the source (no import) and checks each opening paragraph against the IAAPA
rule text, ignoring line breaks and list dashes, so a misquote fails here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

QUOTING = {
    "test_orders_of_loss_in_battle.py": [
        "TestLandTerritories",
        "TestSeaZones",
        "TestNoteAirOnlyNoRetreat",
        "TestSpecialOrders",
    ],
    "test_battle_pauses.py": ["TestNavalBattle", "TestLandBattle", "TestRollingThroughAPause"],
    "test_battle_combat_sequence.py": ["TestSubFirstStrike", "TestAaGuns"],
    "test_battle_retreats.py": [
        "TestAmphibiousAssaults",
        "TestOrderOfBattles",
        "TestRetreatDeclaration",
    ],
    "test_battle_rolling_errors.py": [
        "TestTooManyUnits",
        "TestTooFewUnits",
        "TestWrongUnits",
        "TestBbSupportShots",
    ],
    "test_battle_magic_84.py": ["TestMagic84"],
}
"""Per module, the classes whose docstring opens with a verbatim IAAPA quotation."""


def _plain(text: str) -> str:
    text = re.sub(r"(^|\s)-{1,2}(?=\s)", " ", text)
    return " ".join(text.split())


def _opening(module: str, name: str) -> str:
    tree = ast.parse((HERE / module).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            doc = ast.get_docstring(node) or ""
            return doc.split("\n\n")[0]
    raise AssertionError(f"{module} has no class {name}")


@pytest.mark.parametrize(
    ("module", "name"), [(module, name) for module, names in QUOTING.items() for name in names]
)
def test_class_quotes_the_rule_book(rules_text: str, module: str, name: str) -> None:
    quote = _plain(_opening(module, name))
    assert len(quote) > 40, f"{name}: the docstring should open with the rule quoted"
    assert quote in _plain(rules_text), f"{module}::{name} misquotes the rules: {quote!r}"
