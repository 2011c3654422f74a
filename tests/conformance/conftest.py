"""Conformance tests: the IAAPA rule book as executable cases, one test per rule case.

Each test class is named by rule-book section and quotes the rule in its docstrings. The
class's ``names``/``board`` fixtures give the rules under test; a rule variant re-runs a
class by subclassing it and overriding those fixtures. Tests that check a transcription of
the rule text (a list the engine holds as data) read the rule text itself from ``../shared``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

RULES = Path(__file__).resolve().parents[2].parent / "shared" / "rules"


def _rule_text(name: str) -> str:
    path = RULES / name
    if not path.is_file():
        pytest.fail(f"{path} is missing: the conformance tests need ../shared beside the project")
    return path.read_text(encoding="utf-8")


def docstring_quotes(namespace: Mapping[str, Any]) -> list[str]:
    """Every "..." quoted in the docstring of a test class of a module (its ``globals()``),
    whitespace made single spaces: the module checks each is in its rule text."""
    found = []
    for name, obj in list(namespace.items()):
        if name.startswith("Test") and isinstance(obj, type) and obj.__doc__:
            found += re.findall(r'"([^"]+)"', " ".join(obj.__doc__.split()))
    return found


@pytest.fixture(scope="session")
def rules_text() -> str:
    """The IAAPA 2nd Edition Unabridged Rules (2008), as text."""
    return _rule_text("iaapa-2nd-edition-rules-2008.txt")


@pytest.fixture(scope="session")
def triplea_rule_book() -> str:
    """TripleA's rule book (Big World 1942, Low Luck, the battle calculator), as text."""
    return _rule_text("triplea-rule-book.md")


@pytest.fixture(scope="session")
def triumph_of_the_will() -> str:
    """The Triumph of the Will rules of play, as text."""
    return _rule_text("triumph-of-the-will-rules.txt")


@pytest.fixture(scope="session")
def rule_section(rules_text: str) -> Callable[[str, str], str]:
    """A function giving the rule text from the first ``start`` up to the next ``end``."""

    def cut(start: str, end: str) -> str:
        begin = rules_text.index(start)
        return rules_text[begin : rules_text.index(end, begin + len(start))]

    return cut
