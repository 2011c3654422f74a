"""Schemathesis holds a live server to its own OpenAPI document (issue 20, point 4).

A real HTTP server on a loopback port (werkzeug, threaded) serves the app over a database of
the suite's (SQLite, then PostgreSQL when the suite runs there); schemathesis reads
``/api/v1/openapi.json`` from it and sends every operation generated requests, valid and
invalid (a bounded number each: ``PBEM_CONTRACT_EXAMPLES``, 25 by default), as the game's
Axis player with his bearer token. Every answer must be below 500, in a documented status,
with a documented content type, and match its documented schema: every refusal in the
error shape, ``{"error", "field"?}`` (the TripleA protocol's own for its endpoints).
"""

from __future__ import annotations

import json
import os
import threading
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode, checks
from werkzeug.serving import make_server

from dice_server.services.games import create_game
from dice_server.services.members import add_member
from dice_server.triplea.addresses import register_now
from dice_server.web.openapi import document
from tests.conftest import Databases
from tests.records import UNLIMITED, module_app

pytestmark = pytest.mark.slow
EXAMPLES = int(os.environ.get("PBEM_CONTRACT_EXAMPLES", "25"))
#: What the contract holds the server to: no 5xx, and every answer as documented.
CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_schema_conformance,
]


@dataclass
class Live:
    base: str
    token: str


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory, databases: Databases) -> Iterator[Live]:
    app = module_app(tmp_path_factory.mktemp("contract"), databases, **UNLIMITED)
    ctx = app.extensions["pbem"]
    token = add_member(ctx, "axis@example.org", "Axis", confirmed=True).token
    add_member(ctx, "allies@example.org", "Allies", confirmed=True)
    create_game(ctx, axis="axis@example.org", allies="allies@example.org")
    register_now(ctx, "ger@example.org")
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Live(f"http://127.0.0.1:{server.server_port}", token)
    finally:
        server.shutdown()
        thread.join(timeout=10)
        ctx.sessions.kw["bind"].dispose()


#: The document as the code builds it; the first test holds the served one equal to it.
SCHEMA = schemathesis.openapi.from_dict(document())
OPERATIONS = {op.ok().label: op.ok() for op in SCHEMA.get_all_operations()}
#: The statuses each operation answered in this run.
SEEN: dict[str, set[int]] = {}


def test_the_server_serves_the_document_the_contract_is_read_from(live: Live) -> None:
    with urllib.request.urlopen(f"{live.base}/api/v1/openapi.json", timeout=30) as answer:
        assert json.loads(answer.read()) == json.loads(json.dumps(document()))


def cases(operation: Any) -> st.SearchStrategy[schemathesis.Case]:
    """The operation's documented examples, requests its schema allows, and requests it
    does not (a wrong type, a missing field: each must be a documented refusal)."""
    return st.one_of(
        *operation.get_strategies_from_examples(),
        operation.as_strategy(GenerationMode.POSITIVE),
        operation.as_strategy(GenerationMode.NEGATIVE),
    )


@pytest.mark.parametrize("label", sorted(OPERATIONS))
def test_the_live_server_keeps_its_contract(live: Live, label: str) -> None:
    operation = OPERATIONS[label]
    headers = {"Authorization": f"Bearer {live.token}"}

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=cases(operation))
    def call(case: schemathesis.Case) -> None:
        response = case.call_and_validate(base_url=live.base, headers=headers, checks=CHECKS)
        SEEN.setdefault(label, set()).add(response.status_code)

    call()


def test_the_contract_run_saw_both_answers_and_refusals() -> None:
    """The run above is not empty: documented examples were recorded (a roll, a note), and
    generated requests were refused."""
    if len(SEEN) < len(OPERATIONS):
        pytest.skip("only part of the contract ran (a -k selection)")
    assert 201 in SEEN["POST /api/v1/games/{number}/rolls"], SEEN
    assert 201 in SEEN["POST /api/v1/games/{number}/notes"], SEEN
    assert 200 in SEEN["GET /api/v1/games/{number}/ledger"], SEEN
    refusals = {label for label, statuses in SEEN.items() if any(400 <= s < 500 for s in statuses)}
    assert len(refusals) >= len(OPERATIONS) // 2, SEEN
