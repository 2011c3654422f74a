"""Who may call what (issue 20, point 6). README's table "Who may call what" has a row for
every route the service answers, and this module holds the two to each other:

- Flask's URL map against the table, both ways: a new route without a row fails here;
- for every row, each person the row does not name (anonymous, a member outside the game or
  the challenge, its mentor, the other player, a bogus link) asks the route and is refused:
  401, 403 or 404, the login page, a page saying the link is not valid, or, where a page
  answers a form by going back to the game, a flashed "not recorded" saying who may. A
  refused POST writes nothing. POSTs carry a request the person the row names would have
  accepted, so the refusal is of the person and not of the request;
- for every GET row, the least of the people it names is answered (so a row cannot say
  "minister" of a page every member sees).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from werkzeug.test import TestResponse

from dice_server.db import reading
from dice_server.models import (
    LedgerEntry,
)
from dice_server.services import ServiceContext
from dice_server.services.challenges import issue_challenge
from dice_server.services.games import create_game
from dice_server.services.members import add_member
from dice_server.services.rolls import write
from dice_server.services.turns import submit_turn
from dice_server.web import nonces
from dice_server.web.openapi import KIND_EXAMPLES
from tests.conftest import Databases
from tests.integration.test_turns import UKRAINE_ROLL
from tests.integration.test_turns import USSR_PRE as TURN
from tests.records import client_as, module_app, row_counts

ROOT = Path(__file__).resolve().parents[2]
BID = {"total": 9, "details": "3 G INF Ukraine"}
PROPOSED = object()  # in a request: the seq of the game's proposed ruling

#: Who, of the people a probe can be, each word of the table leaves out.
REFUSED = {
    "anyone": (),
    "link": ("bogus link",),
    "member": ("anonymous",),
    "participant": ("anonymous", "stranger"),
    "player": ("anonymous", "stranger", "mentor"),
    "mover": ("anonymous", "stranger", "mentor", "axis"),  # USSR moves first: the Allies
    "minister": ("anonymous", "stranger", "axis"),
    "challenge party": ("anonymous", "stranger"),
    "opponent": ("anonymous", "stranger", "axis"),  # axis issued the challenge
    "challenger": ("anonymous", "stranger", "allies"),
}
#: The least of the people each word names, for the GETs they must be answered.
ANSWERED = {
    "anyone": "anonymous",
    "member": "stranger",
    "participant": "mentor",
    "challenge party": "allies",
    "minister": "minister",
}
CONVERTER = re.compile(r"<(?:\w+(?:\([^)]*\))?:)?(\w+)>")
ROW = re.compile(r"^\| ([A-Z, ]+) \| `([^`]+)` \| ([a-z ]+) \|$")


@dataclass(frozen=True)
class Row:
    method: str
    path: str
    who: str


def table() -> list[Row]:
    """The rows of README's "Who may call what", one per method."""
    text = (ROOT / "README.md").read_text()
    section = text.split("## Who may call what", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        match = ROW.match(line)
        if match:
            methods, path, who = match.groups()
            rows += [Row(m.strip(), path, who) for m in methods.split(",")]
    return rows


ROWS = table()


def routes(app: Flask) -> set[tuple[str, str]]:
    """(method, path) of every route, each ``<converter:name>`` written ``<name>``."""
    found = set()
    for rule in app.url_map.iter_rules():
        path = CONVERTER.sub(lambda m: f"<{m.group(1)}>", rule.rule)
        found |= {(m, path) for m in (rule.methods or set()) - {"HEAD", "OPTIONS"}}
    return found


# --- The league the probes ask in ---------------------------------------------------------


@dataclass
class Place:
    app: Flask
    ctx: ServiceContext
    ids: dict[str, int]
    tokens: dict[str, str]
    game: int
    challenge: int
    turn: int
    proposed: int

    def recorded(self) -> tuple[int, ...]:
        return row_counts(self.ctx)


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory, databases: Databases) -> Iterator[Place]:
    # The forms' CSRF token is not who the caller is: switched off, each form is refused
    # or answered on its caller alone.
    app = module_app(tmp_path_factory.mktemp("access"), databases, WTF_CSRF_ENABLED=False)
    ctx: ServiceContext = app.extensions["pbem"]
    ids, tokens = {}, {}
    for who, role in [
        ("axis", "player"),
        ("allies", "player"),
        ("mentor", "player"),
        ("minister", "minister"),
        ("stranger", "player"),
    ]:
        made = add_member(ctx, f"{who}@example.org", who.title(), role=role, confirmed=True)
        ids[who], tokens[who] = made.id, made.token
    game = create_game(
        ctx, axis="axis@example.org", allies="allies@example.org", mentor="mentor@example.org"
    ).game_number
    challenge = issue_challenge(
        ctx, ids["axis"], {"opponent": "allies@example.org", "method": "pbem", "bid": BID}
    )["id"]
    # The USSR's pre-combat turn (a turn report to read), and a roll of one unit too many,
    # which the service answers with a proposed ruling (something to decide).
    turn, _ = submit_turn(ctx, ids["allies"], game, {"text": TURN})
    seven = [{"unit": "INF", "count": 7}, *UKRAINE_ROLL["attacker"][1:]]
    write(ctx, "roll", ids["allies"], game, {**UKRAINE_ROLL, "attacker": seven})
    with reading(ctx.sessions) as session:
        proposed = session.scalars(
            select(LedgerEntry.seq).where(
                LedgerEntry.game_number == game, LedgerEntry.kind == "ruling"
            )
        ).one()
    yield Place(app, ctx, ids, tokens, game, challenge, turn.seq, proposed)
    ctx.sessions.kw["bind"].dispose()


# --- Asking -------------------------------------------------------------------------------


def fill(place: Place, path: str, link: str = "no-such-link") -> str:
    values = {
        "number": str(place.game),
        "seq": str(place.turn),
        "challenge_id": str(place.challenge),
        "what": "notes",
        "purpose": "register",
        "token": link,
        "public_id": link,
        "filename": "no-such-file",
    }
    return re.sub(r"<(\w+)>", lambda m: values[m.group(1)], path)


def api_body(place: Place, path: str) -> dict[str, Any]:
    """A request the person the row names would have recorded."""
    if path.endswith("/<what>"):
        return dict(KIND_EXAMPLES["note"])
    bodies: dict[str, dict[str, Any]] = {
        "/turns": {"text": TURN},
        "/finish": {"winner": "allies"},
        "/annulment": {"reason": "we agree to start again"},
        "/rulings": {"refers_to": PROPOSED, "verdict": "confirm", "reason": "as proposed"},
        "/accept": {"bid": {"total": 12, "details": "4 G INF Ukraine"}},
    }
    body = next((body for end, body in bodies.items() if path.endswith(end)), {})
    return {k: place.proposed if v is PROPOSED else v for k, v in body.items()}


def form_body(place: Place, path: str, who: str) -> dict[str, Any]:
    """The form the person the row names would have sent (a nonce issued to the caller)."""
    member = place.ids.get(who, 0)
    with place.app.app_context():
        if path.endswith("/turn"):
            return {"text": TURN, "nonce": nonces.issue(member, f"turn:{place.game}")}
        if path.endswith("/note"):
            return {"topic": "general", "text": "I will move on Sunday"}
        if path.endswith("/finish"):
            return {"winner": "allies"}
        if path.endswith("/annulment"):
            return {"reason": "we agree to start again"}
        if path.endswith("/rulings/agree"):
            return {"refers_to": str(place.proposed), "correction": "re-roll the round"}
        if path.endswith("/rulings"):
            return {"refers_to": str(place.proposed), "verdict": "confirm", "reason": "as proposed"}
        if path.startswith("/challenges/<challenge_id>/"):
            name = path.rsplit("/", 1)[1]  # the form's prefix: accept, decline, cancel
            nonce = nonces.issue(member, f"challenge:{place.challenge}")
            fields = {"nonce": nonce, "bid_total": "12", "bid_details": "4 G INF Ukraine"}
            return {f"{name}-{key}": value for key, value in fields.items()}
        if path.endswith(("/confirm", "/password")):
            password = "a-long-new-password"
            return {"t": "no-such-link", "password": password, "again": password}
        return {}


def ask(place: Place, row: Row, who: str) -> tuple[TestResponse, FlaskClient]:
    """The route's answer to ``who`` (his token for the API, his login for the pages), and
    the client that asked (its cookie holds what a page flashed)."""
    api = row.path.startswith("/api/v1/")
    client = client_as(place.app, place.ids.get(who) if not api else None)
    link = "no-such-link"
    path = fill(place, row.path, link)
    headers = {}
    if who in place.ids and api:
        headers["Authorization"] = f"Bearer {place.tokens[who]}"
    if row.method == "GET":
        return client.get(path, headers=headers), client
    if api:
        return client.post(path, json=api_body(place, row.path), headers=headers), client
    return client.post(path, data=form_body(place, row.path, who), headers=headers), client


def refusal(response: TestResponse, who: str) -> str | None:
    """Why ``response`` is a refusal, or None when it is not one."""
    status = response.status_code
    location = response.headers.get("Location", "")
    if status == 401:
        return "401" if who == "anonymous" else None  # a member's token was not sent
    if status in (403, 404):
        return f"{status}"
    if status in (302, 303) and location.startswith("/login"):
        # Only the anonymous are sent to log in: a member sent there was not logged in.
        return "to the login page" if who == "anonymous" else None
    if who == "bogus link" and 400 <= status < 500:
        return f"{status} for a bogus link"
    return None


# --- The table against the URL map --------------------------------------------------------


def test_every_route_has_a_row_and_every_row_a_route(app: Flask) -> None:
    in_table = {(row.method, row.path) for row in ROWS}
    missing = sorted(routes(app) - in_table)
    assert not missing, f"routes with no row in README's 'Who may call what': {missing}"
    stale = sorted(in_table - routes(app))
    assert not stale, f"rows of README's 'Who may call what' with no route: {stale}"


def test_every_row_says_who_in_the_tables_own_words() -> None:
    assert len(ROWS) > 80, "the table was not read"
    unknown = sorted({row.who for row in ROWS} - set(REFUSED))
    assert not unknown, f"who must be one of {sorted(REFUSED)}, not {unknown}"
    assert len({(row.method, row.path) for row in ROWS}) == len(ROWS), "a route twice"


# --- Refusals and answers -----------------------------------------------------------------

PROBES = [
    pytest.param(row, who, id=f"{row.method} {row.path} as {who}")
    for row in ROWS
    for who in REFUSED[row.who]
]


@pytest.mark.parametrize(("row", "who"), PROBES)
def test_each_route_refuses_whom_its_row_leaves_out(place: Place, row: Row, who: str) -> None:
    before = place.recorded()
    response, client = ask(place, row, who)
    why = refusal(response, who)
    location = response.headers.get("Location", "")
    if why is None and response.status_code == 303 and row.method == "POST" and location:
        # A page that answers its form by going back where it came from, with a message.
        with client.session_transaction() as session:
            message = " ".join(str(text) for _, text in session.get("_flashes", []))
        if "not recorded" in message.lower() and ("only" in message or "do not play" in message):
            why = f"flashed: {message}"
    assert why is not None, (
        f"{row.method} {row.path} answered {who} {response.status_code}: "
        f"{response.get_data(as_text=True)[:300]}"
    )
    if row.method == "POST":
        assert place.recorded() == before, (
            f"{row.method} {row.path} refused {who} ({why}) but wrote"
        )


ANSWER_PROBES = [
    pytest.param(row, id=f"{row.method} {row.path}")
    for row in ROWS
    if row.method == "GET" and row.who in ANSWERED and "<filename>" not in row.path
]


@pytest.mark.parametrize("row", ANSWER_PROBES)
def test_each_get_answers_the_least_of_those_its_row_names(place: Place, row: Row) -> None:
    who = ANSWERED[row.who]
    response, _ = ask(place, row, who)
    assert refusal(response, who) is None, (
        f"GET {row.path} refused {who}, whom its row names ({row.who}): "
        f"{response.status_code} {response.get_data(as_text=True)[:300]}"
    )
    assert response.status_code < 400, response.get_data(as_text=True)[:300]
