"""adjudicator/ is a pure rules engine: no web, no database, no server, no clock, no dice.

DESIGN.md, Layers: "adjudicator/ never imports dice_server, Flask, SQLAlchemy, datetime.now
or random. Time and dice are arguments. A test enforces this." This is that test: it reads
the source of every module (AST, not import, so a module that is never imported is checked
too) and lists each offending line.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[3] / "adjudicator"

FORBIDDEN_MODULES = frozenset(
    {
        "flask",
        "sqlalchemy",
        "dice_server",
        "random",
        "secrets",
        "werkzeug",
        "alembic",
    }
)
"""Top-level modules the engine may not import (web, storage, the server, randomness)."""

FORBIDDEN_CALLS = frozenset(
    {
        ("datetime", "now"),
        ("datetime", "utcnow"),
        ("datetime", "today"),
        ("date", "today"),
        ("time", "time"),
        ("time", "time_ns"),
        ("time", "monotonic"),
        ("time", "perf_counter"),
        ("time", "localtime"),
        ("time", "gmtime"),
        ("os", "urandom"),
    }
)
"""(object, attribute) pairs that read the clock or the system's randomness."""

FORBIDDEN_NAMES = frozenset(
    {("time", n) for n in ("time", "time_ns", "monotonic")}
    | {
        ("os", "urandom"),
    }
)
"""(module, name) pairs that may not be imported with ``from module import name``."""


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


def violations(source: str, filename: str = "<source>") -> list[str]:
    """Every impure import or call in ``source``, as "file:line: what"."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        where = f"{filename}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in FORBIDDEN_MODULES:
                    found.append(f"{where}: imports {alias.name}")
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if module.split(".")[0] in FORBIDDEN_MODULES:
                found.append(f"{where}: imports from {module}")
            for alias in node.names:
                if (module, alias.name) in FORBIDDEN_NAMES:
                    found.append(f"{where}: imports {module}.{alias.name}")
        elif isinstance(node, ast.Attribute):
            owner = _dotted(node.value).split(".")[-1]
            if (owner, node.attr) in FORBIDDEN_CALLS:
                found.append(f"{where}: uses {owner}.{node.attr}")
        elif isinstance(node, ast.Call):
            name = _dotted(node.func)
            dynamic = name in {"__import__", "importlib.import_module", "import_module"}
            if dynamic and node.args and isinstance(node.args[0], ast.Constant):
                target = str(node.args[0].value).split(".")[0]
                if target in FORBIDDEN_MODULES:
                    found.append(f"{where}: imports {target} dynamically")
    return found


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_adjudicator_module_is_pure() -> None:
    modules = _modules()
    assert len(modules) >= 10, f"expected the adjudicator's modules under {PACKAGE}"
    found = [
        v
        for path in modules
        for v in violations(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE)))
    ]
    assert found == [], "adjudicator/ must stay pure (DESIGN.md Layers):\n" + "\n".join(found)


@pytest.mark.parametrize(
    "source",
    [
        "import random",
        "import flask",
        "from flask import Flask",
        "import sqlalchemy.orm",
        "from sqlalchemy import select",
        "import dice_server.ledger",
        "from dice_server import dice",
        "from random import randint",
        "import secrets",
        "from datetime import datetime\nx = datetime.now()",
        "import datetime\nx = datetime.datetime.utcnow()",
        "import datetime\nx = datetime.date.today()",
        "import time\nx = time.time()",
        "from time import time",
        "import os\nx = os.urandom(8)",
        "import importlib\nm = importlib.import_module('random')",
        "m = __import__('flask')",
    ],
)
def test_the_checker_catches(source: str) -> None:
    assert violations(source) != []


@pytest.mark.parametrize(
    "source",
    [
        "from datetime import datetime, timezone\ndef f(now: datetime) -> datetime: return now",
        "import dataclasses\nfrom enum import Enum",
        "from adjudicator.units import UnitType",
        "import importlib.resources",
        "x = 'random'",
    ],
)
def test_the_checker_allows(source: str) -> None:
    assert violations(source) == []
