"""The rulings' conformance cases quote the rule book exactly.

Each class of a ``test_rulings_*`` module opens its docstring with the rule it tests, quoted
from the IAAPA rules (an elision written `` ... ``). This reads those docstrings from the
source (no import) and checks each opening paragraph against the rule text, ignoring line
breaks and list dashes, the parts of an elided quote in order, so a misquote fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conformance.cases import class_openings

HERE = Path(__file__).resolve().parent
MODULES = (
    "test_rulings_combat_declaration_errors.py",
    "test_rulings_rolling_errors.py",
    "test_rulings_orders_of_loss_pause.py",
    "test_rulings_tech_discrepancies_typos.py",
    "test_rulings_time_limit.py",
)
"""The modules of rule cases for the ruling engine (Error Correction II-VII and the
orders-of-loss pause)."""
CASES = [
    (module, name, opening)
    for module in MODULES
    for name, opening in class_openings(str(HERE / module))
]


def _plain(text: str) -> str:
    text = re.sub(r"(^|\s)-{1,2}(?=\s)", " ", text)
    return " ".join(text.split())


def test_every_section_is_covered() -> None:
    """Error Correction II, III, IV, V, VI, VII and the orders-of-loss pause each have a
    module of cases."""
    assert len(CASES) >= 35


@pytest.mark.parametrize(("module", "name", "opening"), CASES)
def test_the_class_quotes_the_rule_book(
    rules_text: str, module: str, name: str, opening: str
) -> None:
    rules = _plain(rules_text)
    parts = [_plain(p) for p in _plain(opening).split(" ... ")]
    assert sum(len(p) for p in parts) > 30, f"{name}: the docstring should open with the rule"
    at = 0
    for part in parts:
        found = rules.find(part, at)
        assert found >= 0, f"{module}::{name} misquotes the rules: {part!r}"
        at = found + len(part)
