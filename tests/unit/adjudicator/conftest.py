"""Fixtures for the adjudicator's unit tests: the shared TripleA game files beside the project.

The product never reads ``../shared``; tests may, to check the shipped data against its source.
CI runs in a clean clone with ``shared/`` beside it, so a missing file is a failure, not a skip.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.boards import Board, load_triplea_xml

PROJECT = Path(__file__).resolve().parents[3]
SHARED = PROJECT.parent / "shared"


def _shared_file(*parts: str) -> Path:
    path = SHARED.joinpath(*parts)
    if not path.is_file():
        pytest.fail(f"{path} is missing: the tests need ../shared beside the project")
    return path


@pytest.fixture(scope="session")
def classic_xml() -> Path:
    """TripleA's classic.xml, the source of the shipped Classic board."""
    return _shared_file("data", "triplea", "classic.xml")


@pytest.fixture(scope="session")
def big_world_xml() -> Path:
    """TripleA's Big World 1942, a second, larger game file."""
    return _shared_file("data", "triplea", "big_world_1942.xml")


@pytest.fixture(scope="session")
def xml_board(classic_xml: Path) -> Board:
    """The Classic board freshly read from classic.xml (no overlay)."""
    return load_triplea_xml(classic_xml)


@pytest.fixture(scope="session")
def rules_text() -> str:
    """The IAAPA 2008 rule text, to check quotations against."""
    return _shared_file("rules", "iaapa-2nd-edition-rules-2008.txt").read_text(encoding="utf-8")
