"""The OpenAPI contract (issue 20, point 4): ``GET /api/v1/openapi.json`` describes every
JSON endpoint, and nothing that is not one. Flask's URL map is the list of routes: a JSON
route without an operation in the document, or an operation without its route (or with
another method), fails here."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from dice_server.kinds import BY_API_PATH
from dice_server.web.openapi import MACHINE_PATHS, document

#: ``<int:number>`` becomes ``{number}``; an ``any(...)`` converter, one path per choice.
CONVERTER = re.compile(r"<(?:(\w+)(?:\(([^)]*)\))?:)?(\w+)>")


def openapi_paths(rule: str) -> list[str]:
    """The OpenAPI path (or paths) of one Flask rule."""
    match = next((m for m in CONVERTER.finditer(rule) if m.group(1) == "any"), None)
    if match is not None:
        choices = [c.strip().strip("'\"") for c in match.group(2).split(",")]
        return [
            p
            for choice in choices
            for p in openapi_paths(rule[: match.start()] + choice + rule[match.end() :])
        ]
    return [CONVERTER.sub(lambda m: "{" + m.group(3) + "}", rule)]


def is_json(path: str) -> bool:
    return path.startswith("/api/") or path in MACHINE_PATHS


def json_routes(app: Flask) -> set[tuple[str, str]]:
    routes = set()
    for rule in app.url_map.iter_rules():
        for path in openapi_paths(rule.rule):
            if is_json(path):
                methods = (rule.methods or set()) - {"HEAD", "OPTIONS"}
                routes |= {(path, method.lower()) for method in methods}
    return routes


def documented() -> set[tuple[str, str]]:
    return {(path, method) for path, ops in document()["paths"].items() for method in ops}


def test_every_json_route_is_documented_and_every_operation_is_a_route(app: Flask) -> None:
    routes = json_routes(app)
    missing = sorted(routes - documented())
    assert not missing, f"JSON routes with no operation in dice_server/web/openapi.py: {missing}"
    stale = sorted(documented() - routes)
    assert not stale, f"operations in the OpenAPI document with no route: {stale}"


def test_the_url_map_reading_finds_the_entry_kinds_and_the_machine_endpoints(app: Flask) -> None:
    """The walk above must see what it checks: one path per entry kind, the TripleA
    protocol, the downloads (else an empty walk would pass)."""
    routes = json_routes(app)
    for api_path in BY_API_PATH:
        assert (f"/api/v1/games/{{number}}/{api_path}", "post") in routes
    assert ("/api/roll", "post") in routes
    assert ("/games/{number}/entries/{seq}.json", "get") in routes
    assert ("/api/v1/openapi.json", "get") in routes
    assert ("/games/{number}", "get") not in routes  # a page, not in the contract


def test_the_document_is_served_and_every_operation_names_its_refusals(
    client: FlaskClient,
) -> None:
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    served = response.get_json()
    assert served["openapi"].startswith("3.")
    error = served["components"]["schemas"]["Error"]
    assert error["required"] == ["error"]
    assert set(error["properties"]) == {"error", "field"}
    for path, operations in served["paths"].items():
        for method, op in operations.items():
            refusal = op["responses"]["4XX"]["content"]["application/json"]["schema"]["$ref"]
            expected = "TripleAError" if path.startswith("/api/r") else "Error"
            assert refusal.endswith("/" + expected), (path, method)
            if method == "post":
                assert "requestBody" in op, (path, method)


def test_every_entry_kind_has_its_own_request_body() -> None:
    paths = document()["paths"]
    for api_path, kind in BY_API_PATH.items():
        body = paths[f"/api/v1/games/{{number}}/{api_path}"]["post"]["requestBody"]
        schema = body["content"]["application/json"]["schema"]
        assert schema.get("properties"), f"{kind.name} has no documented fields"
        assert schema.get("required"), f"{kind.name} names no required field"
        example = body["content"]["application/json"]["example"]
        assert set(schema["required"]) <= set(example), f"{kind.name}'s example lacks a field"


def test_a_refusal_of_a_json_download_is_json(client: FlaskClient) -> None:
    """The JSON downloads answer a refusal in the documented shape, not an HTML page."""
    response = client.get("/tables/no-such-table/ledger.json")
    assert response.status_code == 404
    assert response.mimetype == "application/json"
    assert "error" in response.get_json()
