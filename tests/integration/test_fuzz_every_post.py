"""Every POST the service answers, fuzzed (issue 20, "Bad input"): Flask's URL map is the
list, so a new POST route without a request here fails the suite.

Each route has a request its caller would have sent (the JSON API's and TripleA's as JSON,
the pages' as forms, with the one-time nonce the page would have issued); hypothesis sends
it mutated (fields of another type, dropped, repeated, added; any JSON; deep nesting; raw
bytes) under hostile headers (a bogus or missing bearer token, odd content types, a wild
Idempotency-Key, a cookie of garbage, forwarded-for chains). Whatever arrives, the answer
is below 500 and shows none of Python's insides, and a refusal writes nothing.
tests/integration/test_fuzz_inputs.py fuzzes the first endpoints more deeply;
``PBEM_FUZZ_EXAMPLES`` raises the number of examples here too (default 25 a route).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.test import TestResponse

from dice_server.kinds import BY_API_PATH
from dice_server.services import ServiceContext
from dice_server.services.challenges import issue_challenge
from dice_server.services.games import create_game
from dice_server.services.members import add_member
from dice_server.triplea.addresses import register_now
from dice_server.web import nonces
from dice_server.web.openapi import KIND_EXAMPLES
from tests.conftest import Databases
from tests.integration.test_fuzz_inputs import LEAKS, bodies, form_fields
from tests.integration.test_turns import USSR_PRE
from tests.records import UNLIMITED, client_as, module_app, row_counts

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "25"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
CONVERTER = re.compile(r"<(?:\w+(?:\([^)]*\))?:)?(\w+)>")
#: In a form: the nonce the page would have issued to the caller for this purpose.
NONCE = "<nonce>"
BID = {"total": 9, "details": "3 G INF Ukraine"}


# --- The place ----------------------------------------------------------------------------


@dataclass
class Place:
    app: Flask
    ctx: ServiceContext
    ids: dict[str, int]
    tokens: dict[str, str]
    games: dict[str, int]
    challenge: int

    def recorded(self) -> tuple[int, ...]:
        return row_counts(self.ctx)


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory, databases: Databases) -> Iterator[Place]:
    root = tmp_path_factory.mktemp("fuzz-every-post")
    app = module_app(root, databases, WTF_CSRF_ENABLED=False, **UNLIMITED)
    ctx: ServiceContext = app.extensions["pbem"]
    ids, tokens = {}, {}
    for who, role in [("axis", "player"), ("allies", "player"), ("minister", "minister")]:
        made = add_member(ctx, f"{who}@example.org", who.title(), role=role, confirmed=True)
        ids[who], tokens[who] = made.id, made.token
    players = {"axis": "axis@example.org", "allies": "allies@example.org"}
    games = {
        system: create_game(ctx, **players, system=system).game_number
        for system in ("aa-classic", "triumph-and-tragedy", "triumph-of-the-will")
    }
    challenge = issue_challenge(
        ctx, ids["axis"], {"opponent": players["allies"], "method": "pbem", "bid": BID}
    )["id"]
    for address in ("ger@example.org", "rus@example.org"):
        register_now(ctx, address)
    yield Place(app, ctx, ids, tokens, games, challenge)
    ctx.sessions.kw["bind"].dispose()


# --- What each route is sent --------------------------------------------------------------

HEADER = {"round": "1", "turn": "1", "country": "Germany"}
#: Each page form's fields (NONCE: a nonce issued for the purpose the route's ``nonce``
#: names), by the route's path with ``<name>`` for each converter.
FORMS: dict[str, dict[str, Any]] = {
    "/register": {"name": "Erwin", "email": "rommel@example.org", "password": "desert-fox-1942",
                  "again": "desert-fox-1942"},
    "/login": {"email": "axis@example.org", "password": "desert-fox-1942"},
    "/logout": {},
    "/reset": {"email": "axis@example.org"},
    "/reset/password": {"t": "x" * 43, "password": "desert-fox-1943", "again": "desert-fox-1943"},
    "/confirm": {"t": "x" * 43},
    "/account": {"action": "grant", "email": "allies@example.org"},
    "/verify": {"pasted": '{"entries": []}'},
    "/odds": {"kind": "land", "ruleset": "classic", "attacker_INF": "3", "defender_INF": "2"},
    "/dice/register": {"email": "someone@example.org"},
    "/dice/unregister": {"email": "ger@example.org"},
    "/dice/<purpose>/confirm": {"t": "x" * 43},
    "/tables/<public_id>/close": {"t": "x" * 43},
    "/tables/<public_id>/close-link": {"email": "ger@example.org"},
    "/challenges/new": {"nonce": NONCE, "opponent": "allies@example.org", "method": "pbem",
                        "bid_total": "9", "bid_details": "3 G INF Ukraine"},
    "/challenges/<challenge_id>/accept": {"accept-nonce": NONCE, "accept-bid_total": "12",
                                          "accept-bid_details": "4 G INF Ukraine"},
    "/challenges/<challenge_id>/decline": {"decline-nonce": NONCE, "decline-message": "no"},
    "/challenges/<challenge_id>/cancel": {"cancel-nonce": NONCE},
    "/games/<number>/roll": {"nonce": NONCE, **HEADER, "battle": "Karelia S.S.R.",
                             "attacker_INF": "3", "defender_INF": "2"},
    "/games/<number>/tech": {"nonce": NONCE, **HEADER, "dice": "2"},
    "/games/<number>/bombing": {"nonce": NONCE, **HEADER, "target": "UK", "bombers": "1"},
    "/games/<number>/rocket": {"nonce": NONCE, **HEADER, "target": "UK"},
    "/games/<number>/note": {"nonce": NONCE, "topic": "general", "text": "Sunday"},
    "/games/<number>/turn": {"nonce": NONCE, "text": USSR_PRE},
    "/games/<number>/finish": {"winner": "allies", "summary": "conceded"},
    "/games/<number>/annulment": {"reason": "we start again"},
    "/games/<number>/rulings/agree": {"refers_to": "2", "correction": "re-roll"},
    "/minister/games/<number>/rulings": {"refers_to": "2", "verdict": "confirm",
                                         "reason": "as proposed"},
}  # fmt: skip
#: The JSON bodies of the API and of TripleA's current protocol.
JSON_BODIES: dict[str, dict[str, Any]] = {
    "/api/v1/games/<number>/turns": {"text": USSR_PRE},
    "/api/v1/games/<number>/rulings": {"refers_to": 2, "verdict": "confirm", "reason": "ok"},
    "/api/v1/games/<number>/finish": {"winner": "allies"},
    "/api/v1/games/<number>/annulment": {"reason": "we start again"},
    "/api/v1/odds": {"attacker": [{"unit": "INF", "count": 3}],
                     "defender": [{"unit": "INF", "count": 2}], "kind": "land"},
    "/api/v1/bids/check": BID,
    "/api/v1/members/me/calendar": {"renew": True},
    "/api/v1/challenges": {"opponent": "allies@example.org", "method": "pbem", "bid": BID},
    "/api/v1/challenges/<challenge_id>/accept": {"bid": {"total": 12, "details": "4 G INF"}},
    "/api/v1/challenges/<challenge_id>/decline": {"message": "not now"},
    "/api/v1/challenges/<challenge_id>/cancel": {},
    "/api/roll": {"times": "2", "max": "6", "email1": "ger@example.org"},
    "/api/register": {"email": "new@example.org"},
    "/MARTI.php": {"numdice": "2", "numsides": "6", "subject": "Game:Germany attacks",
                   "roller": "ger@example.org", "gm": "rus@example.org"},
}  # fmt: skip


def kind_page(page: str) -> Any:
    return next((kind for kind in BY_API_PATH.values() if kind.page == page), None)


def request_for(path: str) -> tuple[str, dict[str, Any]] | None:
    """("json" or "form", the valid request) for a route, or None when it has none here."""
    if path in FORMS:
        return "form", FORMS[path]
    if path in JSON_BODIES:
        return ("form" if path == "/MARTI.php" else "json"), JSON_BODIES[path]
    if path == "/api/v1/games/<number>/<what>":
        return "json", KIND_EXAMPLES["roll"]
    page = path.removeprefix("/games/<number>/")
    kind = kind_page(page) if path.startswith("/games/<number>/") else None
    if kind is not None and getattr(kind.form, "example", None):
        return "form", {"nonce": NONCE, "request": json.dumps(kind.form.example)}
    return None


#: Every route fuzzed below; the first test holds it equal to the URL map's POST routes.
ROUTES = sorted(
    {
        *FORMS,
        *JSON_BODIES,
        "/api/v1/games/<number>/<what>",
        *(
            f"/games/<number>/{kind.page}"
            for kind in BY_API_PATH.values()
            if getattr(kind.form, "example", None)
        ),
    }
)


def post_routes(app: Flask) -> list[str]:
    return sorted(
        {
            CONVERTER.sub(lambda m: f"<{m.group(1)}>", rule.rule)
            for rule in app.url_map.iter_rules()
            if "POST" in (rule.methods or set())
        }
    )


def test_every_post_route_has_a_request_to_fuzz(app: Flask) -> None:
    routes = post_routes(app)
    assert len(routes) > 40, "the URL map was not read"
    missing = [path for path in routes if path not in ROUTES or request_for(path) is None]
    assert not missing, f"POST routes with no request in test_fuzz_every_post.py: {missing}"
    assert not set(ROUTES) - set(routes), f"no such POST routes: {set(ROUTES) - set(routes)}"


# --- Hostile headers ----------------------------------------------------------------------

header_texts = st.one_of(
    st.text(st.characters(min_codepoint=32, max_codepoint=255), max_size=40),
    st.sampled_from(["", " ", "Bearer", "Bearer ", "bearer x", "Basic Zm9vOmJhcg==", "\t"]),
)
hostile_headers = st.fixed_dictionaries(
    {},
    optional={
        "Authorization": header_texts,
        "Idempotency-Key": header_texts,
        "Content-Type": st.sampled_from(
            [
                "application/json",
                "application/json; charset=latin-1",
                "text/plain",
                "multipart/form-data",
                "multipart/form-data; boundary=x",
                "application/x-www-form-urlencoded; charset=utf-16",
                "application/xml",
                "",
            ]
        ),
        "Cookie": st.one_of(header_texts, st.just("session=" + "A" * 4000)),
        "X-Forwarded-For": st.one_of(header_texts, st.just(", ".join(["10.0.0.1"] * 50))),
        "Accept": header_texts,
        "Origin": header_texts,
        "User-Agent": header_texts,
    },
)


def fill(place: Place, path: str, system: str) -> str:
    values = {
        "number": str(place.games[system]),
        "challenge_id": str(place.challenge),
        "what": "rolls",
        "purpose": "register",
        "public_id": "no-such-table",
    }
    return re.sub(r"<(\w+)>", lambda m: values[m.group(1)], path)


def system_of_path(path: str) -> str:
    page = path.removeprefix("/games/<number>/")
    kind = kind_page(page)
    return kind.system if kind is not None else "aa-classic"


def nonce_purpose(path: str, place: Place, number: str) -> str:
    if path == "/challenges/new":
        return "challenge:new"
    if path.startswith("/challenges/"):
        return f"challenge:{place.challenge}"
    page = path.rsplit("/", 1)[1]
    return f"{page}:{number}"


def caller(path: str) -> str | None:
    """Who sends the route's request: the minister his dashboard's, the Allies (who owe
    the first turn and were challenged) the turn and the answers, else the Axis player;
    nobody the forms a visitor sends."""
    if path.startswith("/minister/"):
        return "minister"
    if path.endswith(("/turn", "/turns", "/accept", "/decline")):
        return "allies"
    if path.startswith(("/api/v1/", "/games/", "/challenges/", "/account", "/odds")):
        return "axis"
    return None


def page_client(place: Place, path: str) -> FlaskClient:
    """A client logged in to the pages as the route's caller (the API's caller sends his
    token instead)."""
    who = caller(path)
    api = path.startswith("/api/")
    return client_as(place.app, place.ids[who] if who is not None and not api else None)


def with_nonces(place: Place, path: str, fields: dict[str, Any]) -> dict[str, Any]:
    """The form's fields, each NONCE replaced by a nonce the page issued to its caller."""
    member = place.ids[caller(path) or "axis"]
    purpose = nonce_purpose(path, place, str(place.games[system_of_path(path)]))
    with place.app.app_context():
        return {k: nonces.issue(member, purpose) if v == NONCE else v for k, v in fields.items()}


# --- The fuzz -----------------------------------------------------------------------------


def check(place: Place, before: tuple[int, ...], response: TestResponse, path: str) -> None:
    text = response.get_data(as_text=True)
    assert response.status_code < 500, f"{path}: {response.status_code} {text[:400]}"
    assert "internal error" not in text, text[:400]
    for leak in LEAKS:
        assert leak not in text, text[:400]
    refused = response.status_code >= 400 or (path == "/MARTI.php" and "fatal error:" in text)
    if refused:
        assert place.recorded() == before, f"{path} refused ({response.status_code}) but wrote"


@pytest.mark.parametrize("path", ROUTES)
def test_every_post_survives_hostile_input(place: Place, path: str) -> None:
    way, valid = request_for(path) or ("form", {})
    system = system_of_path(path)
    url = fill(place, path, system)
    who = caller(path)

    if way == "json":
        requests = bodies(valid).map(lambda body: {"data": body})
    else:
        requests = st.one_of(
            form_fields(valid).map(lambda fields: {"form": fields}),
            st.binary(max_size=64).map(lambda body: {"data": body}),
        )

    @FUZZ
    @given(request=requests, headers=hostile_headers, token=st.sampled_from(["own", "none"]))
    def post(request: dict[str, Any], headers: dict[str, str], token: str) -> None:
        headers = dict(headers)
        if path.startswith("/api/v1/") and token == "own" and who is not None:
            headers.setdefault("Authorization", f"Bearer {place.tokens[who]}")
        headers.setdefault(
            "Content-Type",
            "application/json" if way == "json" else "application/x-www-form-urlencoded",
        )
        before = place.recorded()
        data = with_nonces(place, path, request["form"]) if "form" in request else request["data"]
        response = page_client(place, path).post(url, data=data, headers=headers)
        check(place, before, response, path)

    post()


def test_the_fuzz_reaches_past_the_gate(place: Place) -> None:
    """The requests above are worth fuzzing: each one as sent, unmutated, is accepted by its
    route (so the mutations probe the readers, not only the refusals of a stranger)."""
    accepted = {}
    for path in ["/api/v1/games/<number>/<what>", "/games/<number>/note", "/games/<number>/turn"]:
        way, valid = request_for(path) or ("form", {})
        client = page_client(place, path)
        url = fill(place, path, "aa-classic")
        if way == "json":
            token = place.tokens[caller(path) or "axis"]
            response = client.post(url, json=valid, headers={"Authorization": f"Bearer {token}"})
        else:
            response = client.post(url, data=with_nonces(place, path, valid))
        accepted[path] = response.status_code
    assert accepted == {
        "/api/v1/games/<number>/<what>": 201,
        "/games/<number>/note": 302,
        "/games/<number>/turn": 302,
    }, accepted


PAGE_ROUTES = [path for path in ROUTES if not path.startswith("/api/") and path != "/MARTI.php"]


@pytest.mark.parametrize("path", PAGE_ROUTES)
@pytest.mark.parametrize("body", ["5", "[1, 2]", '"text"', "null", '{"text": "x"}'])
def test_a_json_body_sent_to_a_page_is_refused(place: Place, path: str, body: str) -> None:
    """A page takes a form: JSON posted to it (which Flask-WTF would read as the form, and
    fail on anything but an object) is a 415 saying where JSON goes, and writes nothing."""
    before = place.recorded()
    url = fill(place, path, system_of_path(path))
    response = page_client(place, path).post(url, data=body, content_type="application/json")
    assert response.status_code == 415, response.get_data(as_text=True)[:300]
    assert "/api/v1" in response.get_data(as_text=True)
    assert place.recorded() == before
