"""The turn conformance cases quote the rules exactly.

Each class of the ``test_turn_*`` modules opens its docstring with the rule it plays out,
quoted from the IAAPA rule book or, for the printed game's own rules, from the Classic facts
sheet. This reads those docstrings from the source (no import) and checks each opening
paragraph against the text, ignoring line breaks and list dashes, so a misquote fails here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
RULES = HERE.parents[1].parent / "shared" / "rules"

IAAPA, FACTS = "iaapa-2nd-edition-rules-2008.txt", "classic-2nd-edition-facts.md"
QUOTING = {
    "test_turn_post_combat_orders.py": {
        "TestPostCombatOrders": IAAPA,
        "TestNonCombatMovesTakePrecedence": IAAPA,
        "TestValidDiceRollsArePreserved": IAAPA,
        "TestTerritoryAndIpcCount": IAAPA,
        "TestTheMapUpdateIsTheMoversOwn": IAAPA,
        "TestAircraftHomeFromTheirBattle": IAAPA,
    },
    "test_turn_capture_and_income.py": {
        "TestIncomeCollection": IAAPA,
        "TestNoPurchaseWithoutTheCapital": IAAPA,
        "TestCapitalCapture": FACTS,
        "TestLiberation": FACTS,
        "TestAaGuns": IAAPA,
        "TestPlacementOfNewUnits": IAAPA,
        "TestNeutrals": FACTS,
    },
    "test_turn_combat_results.py": {
        "TestAmphibiousAssaults": IAAPA,
        "TestSeaBattles": FACTS,
        "TestFailedAttack": FACTS,
        "TestRetreats": IAAPA,
        "TestCombatResolution": IAAPA,
        "TestWalkIn": IAAPA,
        "TestStrategicBombing": FACTS,
    },
    "test_turn_order_and_magic_84.py": {"TestTurnOrder": FACTS, "TestMagic84": IAAPA},
}
"""Per module, each class whose docstring opens with a verbatim quotation, and its source."""


def _plain(text: str) -> str:
    text = re.sub(r"(^|\s)-{1,2}(?=\s)", " ", text)
    return " ".join(text.split())


def _opening(module: str, name: str) -> str:
    tree = ast.parse((HERE / module).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return (ast.get_docstring(node) or "").split("\n\n")[0]
    raise AssertionError(f"{module} has no class {name}")


def _classes(module: str) -> set[str]:
    tree = ast.parse((HERE / module).read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.ClassDef) and n.name.startswith("Test")}


@pytest.mark.parametrize(
    ("module", "name", "source"),
    [(m, n, s) for m, names in QUOTING.items() for n, s in names.items()],
)
def test_class_quotes_the_rules(module: str, name: str, source: str) -> None:
    path = RULES / source
    if not path.is_file():
        pytest.fail(f"{path} is missing: the conformance tests need ../shared beside the project")
    quote = _plain(_opening(module, name))
    assert len(quote) > 30, f"{name}: the docstring should open with the rule quoted"
    assert quote in _plain(path.read_text(encoding="utf-8")), f"{module}::{name}: {quote!r}"


@pytest.mark.parametrize("module", sorted(QUOTING))
def test_every_case_is_checked(module: str) -> None:
    assert _classes(module) == set(QUOTING[module])
