"""The dice server's layers, enforced: channels -> services -> ledger -> storage.

DESIGN.md, Layers: "imports point downward only". A channel (the pages, the JSON API, mail,
the TripleA protocol, the command line, the scheduler) only translates and calls services;
a service owns the transaction and writes through the ledger; the ledger signs and chains
entries in storage. Like the engine's purity test, this reads the source (AST), so a module
nobody imports is checked too, and each failure names the file, the line and both layers.
An import inside a function counts the same as one at the top: a cycle is fixed by the
layering, not dodged by a late import.
"""

from __future__ import annotations

import ast
import fnmatch
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "dice_server"

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "channels",
        (
            "dice_server.app",
            "dice_server.wsgi",
            "dice_server.cli",
            "dice_server.cli.*",
            "dice_server.scheduler",
            "dice_server.smtpd",
            "dice_server.web",
            "dice_server.web.*",
            "dice_server.mail",
            "dice_server.mail.*",
            "dice_server.triplea.protocol",
            "dice_server.triplea.pages",
            "dice_server.triplea.mail",
        ),
    ),
    (
        "services",
        (
            "dice_server.services",
            "dice_server.services.*",
            "dice_server.triplea",
            "dice_server.triplea.tables",
            "dice_server.triplea.addresses",
            "dice_server.triplea.closing",
            "dice_server.requests",
            "dice_server.kinds",
            "dice_server.kinds.*",
        ),
    ),
    (
        "ledger",
        (
            "dice_server.ledger",
            "dice_server.ledger_queries",
            "dice_server.dice",
            "dice_server.keys",
            "dice_server.verifier",
        ),
    ),
    ("storage", ("dice_server.models", "dice_server.db", "dice_server.migrate")),
    (
        "shared",
        (
            "dice_server",
            "dice_server.config",
            "dice_server.errors",
            "dice_server.jsonbody",
            "dice_server.text",
            # What a message is, whoever reads it: the gateway's service decodes mail with
            # these, and the channels (`pbem turn check`) too.
            "dice_server.mail.inbound",
            "dice_server.mail.mime",
            "dice_server.mail.htmltext",
            "dice_server.mail.addresses",
        ),
    ),
)
"""Each layer, highest first, and the modules in it (a module named exactly belongs to its
layer before any pattern). ``shared`` holds what every layer may use (errors,
configuration, reading JSON, neutralising text, decoding mail); it imports nothing above it.
The rules engine (``adjudicator``) is the domain, below them all: every layer may use it."""

RANK = {name: rank for rank, (name, _) in enumerate(LAYERS)}


def layer_of(module: str) -> str:
    """The layer naming ``module`` itself, else the first whose pattern matches it."""
    for name, patterns in LAYERS:
        if module in patterns:
            return name
    for name, patterns in LAYERS:
        if any(fnmatch.fnmatchcase(module, p) for p in patterns):
            return name
    raise LookupError(module)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> list[tuple[str, Path]]:
    return [(_module_name(p), p) for p in sorted(PACKAGE.rglob("*.py"))]


def _imports(module: str, path: Path) -> list[tuple[int, str]]:
    """Every dice_server module ``module`` imports, with the line (``from x import y``
    counts as importing ``x.y`` when that is a module, else ``x``)."""
    known = {name for name, _ in _modules()}
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        else:
            continue
        found += [(node.lineno, n) for n in names if n.split(".")[0] == "dice_server"]
    return found


def test_every_module_has_a_layer() -> None:
    unplaced = []
    for module, _ in _modules():
        try:
            layer_of(module)
        except LookupError:
            unplaced.append(module)
    assert unplaced == [], "place these modules in LAYERS"


def test_imports_point_downward_only() -> None:
    upward = []
    for module, path in _modules():
        mine = layer_of(module)
        for line, target in _imports(module, path):
            theirs = layer_of(target)
            if RANK[theirs] < RANK[mine]:
                where = path.relative_to(ROOT)
                upward.append(f"{where}:{line}: {mine} imports {target} ({theirs})")
    assert upward == []


@pytest.mark.parametrize(
    ("module", "layer"),
    [
        ("dice_server.web.api", "channels"),
        ("dice_server.triplea.protocol", "channels"),
        ("dice_server.triplea.tables", "services"),
        ("dice_server.services.rolls", "services"),
        ("dice_server.ledger", "ledger"),
        ("dice_server.models", "storage"),
    ],
)
def test_the_layers_are_where_the_design_puts_them(module: str, layer: str) -> None:
    assert layer_of(module) == layer


def test_an_upward_import_is_found(tmp_path: Path) -> None:
    """The check itself: a service importing a page blueprint is reported."""
    path = PACKAGE / "services" / "rolls.py"
    source = path.read_text(encoding="utf-8")
    assert "dice_server.web" not in source
    fake = tmp_path / "rolls.py"
    fake.write_text(source + "\nfrom dice_server.web import api\n", encoding="utf-8")
    found = [target for _, target in _imports("dice_server.services.rolls", fake)]
    assert "dice_server.web.api" in found
    assert RANK[layer_of("dice_server.web.api")] < RANK[layer_of("dice_server.services.rolls")]
