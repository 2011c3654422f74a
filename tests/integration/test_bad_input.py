"""Every case issue 12 names (points 7 and 8), over HTTP against a real migrated database:
a 400 that says what is wrong and where, in the league's words, and nothing recorded.

Each of these was a 500, or a 400 quoting Python ("maximum recursion depth",
"sys.set_int_max_str_digits()"), before the one JSON reader and the total fingerprint.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from dice_server.db import reading
from dice_server.models import IdempotencyKey, LedgerEntry, Member, OutboxMessage, TableEntry
from dice_server.services import ServiceContext
from dice_server.triplea.addresses import register_now
from tests.conftest import League, battle

#: Python's own words, which no answer may show a player.
LEAKS = ("sys.", "recursion", "Traceback", "set_int_max_str_digits", "Exceeds the limit")
HUGE = "1" + "0" * 5000  # 10**5000, written out
NOTE = {"topic": "general", "text": "my retreat goes to Karelia"}


def recorded(ctx: ServiceContext) -> tuple[int, ...]:
    tables = (LedgerEntry, TableEntry, OutboxMessage, IdempotencyKey)
    counts = [select(func.count()).select_from(t).scalar_subquery() for t in tables]
    with reading(ctx.sessions) as session:
        return tuple(session.execute(select(*counts)).one())


def post_raw(
    client: FlaskClient, league: League, what: str, raw: bytes, key: str | None = None
) -> Any:
    headers = {**league.auth("axis"), "Content-Type": "application/json"}
    if key is not None:
        headers["Idempotency-Key"] = key
    return client.post(f"/api/v1/games/{league.game}/{what}", data=raw, headers=headers)


def refused(response: Any, words: str, field: str | None = None) -> dict[str, Any]:
    """A 400 in the league's words, naming the field when there is one."""
    body: dict[str, Any] = response.get_json()
    assert response.status_code == 400, body
    assert words in body["error"], body
    assert body.get("field") == field, body
    for leak in LEAKS:
        assert leak not in body["error"], body
    return body


def with_field(template: dict[str, Any], name: str, token: str) -> bytes:
    """``template`` as JSON with field ``name`` written as the raw JSON ``token``."""
    text = json.dumps({**template, name: "@@"})
    return text.replace('"@@"', token).encode()


# --- An Idempotency-Key with a body holding what the ledger cannot ------------------------


@pytest.mark.parametrize(
    ("token", "words", "field"),
    [
        ("true", "true or false (a boolean) is not allowed here", "round"),
        ("null", "null is not allowed here", "round"),
        (HUGE, "it holds a number of 5001 digits", None),
        ('"\\ud800"', "lone surrogate (half of a \\u escape pair) in the text at round", "round"),
    ],
    ids=["true", "null", "10**5000", "lone surrogate"],
)
@pytest.mark.parametrize("what", ["rolls", "notes"])
def test_a_retry_key_with_a_body_the_ledger_cannot_hold(
    client: FlaskClient, league: League, what: str, token: str, words: str, field: str | None
) -> None:
    """Issue 12.7: the fingerprint was computed as canonical JSON before the body was checked,
    so each of these was a 500. Now the body is refused and the key stays unused."""
    valid = battle() if what == "rolls" else {**NOTE, "ref_seq": 1}
    name = "round" if what == "rolls" else "ref_seq"
    before = recorded(league.ctx)
    response = post_raw(client, league, what, with_field(valid, name, token), key="retry-1")
    refused(response, words.replace("round", name), field and field.replace("round", name))
    assert recorded(league.ctx) == before
    # The key was not spent on the refusal: the good request goes through under it.
    assert post_raw(client, league, what, json.dumps(valid).encode(), "retry-1").status_code == 201


def test_a_retry_key_still_returns_the_first_answer(client: FlaskClient, league: League) -> None:
    """Same key and same request: the first response; same key, other body: 409."""
    body = json.dumps(battle(battle="Ukraine S.S.R.")).encode()
    first = post_raw(client, league, "rolls", body, key="k")
    again = post_raw(client, league, "rolls", body, key="k")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.get_data() == first.get_data()
    other = post_raw(client, league, "rolls", json.dumps(battle(round=2)).encode(), key="k")
    assert other.status_code == 409


# --- A note topic that is an object or a list ---------------------------------------------


@pytest.mark.parametrize(("topic", "shown"), [({}, "an object"), ([], "a list"), (5, "5")])
def test_a_note_topic_must_be_a_topic_name(
    client: FlaskClient, league: League, topic: Any, shown: str
) -> None:
    before = recorded(league.ctx)
    response = post_raw(client, league, "notes", json.dumps({**NOTE, "topic": topic}).encode())
    refused(response, f"topic: must be a topic's name, not {shown}; use one of", "topic")
    assert recorded(league.ctx) == before


@pytest.mark.parametrize(
    ("body", "words", "field"),
    [
        (
            battle(attacker=[{"unit": ["INF"], "count": 1}]),
            "must be a unit's name, not a list",
            "attacker[0].unit",
        ),
        (battle(attacker={"INF": 3}), "must be a list of", "attacker"),
        (battle(battle=["West Europe"]), "battle: must be text, not a list", "battle"),
        (battle(comment={"a": 1}), "comment: must be text, not an object", "comment"),
        (battle(round="1"), 'round: must be a whole number from 1 to 9999, not "1"', "round"),
        (battle(defender=[{"unit": "INF", "count": True}]), "boolean", "defender[0].count"),
    ],
    ids=["unit list", "units object", "battle list", "comment object", "round text", "count bool"],
)
def test_a_field_of_the_wrong_type_is_named(
    client: FlaskClient, league: League, body: dict[str, Any], words: str, field: str
) -> None:
    before = recorded(league.ctx)
    refused(post_raw(client, league, "rolls", json.dumps(body).encode()), words, field)
    assert recorded(league.ctx) == before


@pytest.mark.parametrize(
    ("what", "body", "field"),
    [
        (
            "bombing-rolls",
            {"round": 1, "turn": 1, "country": "UK", "target": "Germany", "bombers": 2, "aa": True},
            "aa",
        ),
        ("tech-rolls", {"round": 1, "turn": 1, "country": "UK", "dice": True}, "dice"),
        (
            "rocket-rolls",
            {"round": 1, "turn": 1, "country": "UK", "target": "UK", "rockets": False},
            "rockets",
        ),
    ],
)
def test_true_is_not_the_number_one(
    client: FlaskClient, league: League, what: str, body: dict[str, Any], field: str
) -> None:
    """In Python ``True == 1``: a flag, a dice count or a rocket count sent as a boolean is
    refused, not read as 1 or 0."""
    refused(post_raw(client, league, what, json.dumps(body).encode()), "(a boolean)", field)


# --- Deep nesting and duplicate keys -----------------------------------------------------


@pytest.mark.parametrize("what", ["rolls", "tech-rolls", "bombing-rolls", "rocket-rolls", "notes"])
def test_deep_nesting_on_the_api(client: FlaskClient, league: League, what: str) -> None:
    before = recorded(league.ctx)
    deep = b'{"round":' + b"[" * 10000 + b"]" * 10000 + b"}"
    refused(
        post_raw(client, league, what, deep), "nests deeper than 32 levels (at line 1 column 41)"
    )
    assert recorded(league.ctx) == before


def test_duplicate_keys_are_refused(client: FlaskClient, league: League) -> None:
    """Issue 12.8: {"round": 1, "round": 2} was read as round 2; which was meant?"""
    before = recorded(league.ctx)
    text = json.dumps(battle()).replace('"round": 1', '"round": 1, "round": 2')
    refused(
        post_raw(client, league, "rolls", text.encode()), 'gives the key "round" twice', "round"
    )
    unit = json.dumps(battle()).replace('"unit": "INF"', '"unit": "INF", "unit": "ARM"', 1)
    refused(
        post_raw(client, league, "rolls", unit.encode()), "twice in attacker[0]", "attacker[0].unit"
    )
    assert recorded(league.ctx) == before


# --- TripleA: /api/roll and /api/register --------------------------------------------------


@pytest.fixture
def addresses(ctx: ServiceContext) -> ServiceContext:
    for address in ("ger@example.org", "rus@example.org"):
        register_now(ctx, address)
    return ctx


def api_roll(client: FlaskClient, **request: Any) -> tuple[int, list[str]]:
    response = client.post("/api/roll", headers={"User-Agent": "triplea/2.8.0"}, **request)
    body = response.get_json()
    assert body["status"] == ("OK" if response.status_code == 200 else "Error")
    for leak in LEAKS:
        assert leak not in json.dumps(body)
    return response.status_code, body.get("errors", [])


ROLL = {"times": "2", "max": "6", "email1": "ger@example.org", "email2": "rus@example.org"}


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b'{"times":' + b"[" * 10000 + b"]" * 10000 + b"}", "nests deeper than 32 levels"),
        (with_field(ROLL, "times", HUGE), "5001 digits"),
        (with_field(ROLL, "times", "true"), "times must be text or a whole number, not true"),
        (with_field(ROLL, "max", "[6]"), "max must be text or a whole number, not a list"),
        (with_field(ROLL, "email1", '"\\ud800"'), "lone surrogate"),
        (json.dumps(ROLL).replace('"times": "2"', '"times": "2", "times": "9"').encode(), "twice"),
        (with_field(ROLL, "times", '"' + "9" * 5000 + '"'), "times must be a whole number from 1"),
        (with_field(ROLL, "times", '"\\u00b2"'), "times must be a whole number from 1"),
    ],
    ids=["deep", "10**5000", "true", "list", "surrogate", "twice", "5000 nines", "superscript 2"],
)
def test_api_roll_refuses_bad_json_in_its_protocol(
    client: FlaskClient, addresses: ServiceContext, raw: bytes, words: str
) -> None:
    before = recorded(addresses)
    status, errors = api_roll(client, data=raw, content_type="application/json")
    assert status == 400 and any(words in e for e in errors), errors
    assert recorded(addresses) == before


@pytest.mark.parametrize("times", ["9" * 5000, "²", "٣"])
def test_a_count_int_cannot_read_is_refused_on_both_protocols(
    client: FlaskClient, addresses: ServiceContext, times: str
) -> None:
    """``"²".isdigit()`` is true and ``int("²")`` fails; so does ``int()`` of 5,000 nines."""
    before = recorded(addresses)
    status, errors = api_roll(client, data={**ROLL, "times": times})
    assert status == 400 and errors == ["times must be a whole number from 1 to 5000"]
    legacy = client.post(
        "/MARTI.php",
        data={"numdice": times, "numsides": "6", "subject": "G:x", "roller": "ger@example.org"},
    ).get_data(as_text=True)
    assert legacy == "fatal error: numdice must be a whole number from 1 to 5000!"
    assert recorded(addresses) == before


def test_api_roll_reads_null_as_absent(client: FlaskClient, addresses: ServiceContext) -> None:
    """A client without a Cc may send ``"email2": null``."""
    status, _ = api_roll(client, json={**ROLL, "email2": None})
    assert status == 200


def test_api_register_refuses_a_list_of_addresses(
    client: FlaskClient, addresses: ServiceContext
) -> None:
    response = client.post("/api/register", json={"email": ["a@example.org", "b@example.org"]})
    assert response.status_code == 400
    assert response.get_json()["errors"] == ["email must be text or a whole number, not a list"]


# --- The verify page --------------------------------------------------------------------


def verify(client: FlaskClient, document: bytes) -> tuple[int, str]:
    client.application.config["WTF_CSRF_ENABLED"] = False
    response = client.post("/verify", data={"upload": (io.BytesIO(document), "ledger.json")})
    text = response.get_data(as_text=True)
    for leak in LEAKS:
        assert leak not in text
    return response.status_code, text


@pytest.mark.parametrize(
    ("document", "words"),
    [
        (b"[" * 10000 + b"]" * 10000, "that cannot be read: it nests deeper than 32 levels"),
        (b'{"entries": [], "entries": []}', "that gives the key &#34;entries&#34; twice"),
        (b'{"entries": [' + b"9" * 5000 + b"]}", "it holds a number of 5000 digits"),
        (b'{"entries": ["\xff"]}', "that is not UTF-8"),
    ],
    ids=["deep", "twice", "huge", "not UTF-8"],
)
def test_the_verify_page_refuses_a_document_it_cannot_read(
    client: FlaskClient, document: bytes, words: str
) -> None:
    status, text = verify(client, document)
    assert status == 400 and words in text


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("[" * 5000 + "]" * 5000, "body is not JSON (it is nested too deeply to read)"),
        ('{"a":' + "9" * 5000 + "}", "body is not JSON (it holds an integer too long to read)"),
        ("[1.5," + "[" * 5000 + "]" * 5000 + "]", "float values are not allowed"),
        ("[1]", None),
    ],
    ids=["deep body", "huge integer", "float then deep", "not an object"],
)
def test_the_verify_page_reports_an_unreadable_body(
    client: FlaskClient, league: League, body: str, words: str | None
) -> None:
    """A pasted entry's or ledger's body is read by the verifier's own reader (the standalone
    verifier cannot import the service's): each of these failed with Python's error, and the
    page with a 500; now each is a problem in the report."""
    entry = {"body": body, "sig": "AAAA", "key": "0123456789abcdef"}
    for document in ({"entries": [entry]}, entry):
        status, text = verify(client, json.dumps(document).encode())
        assert status == 200 and "Problems found" in text
        assert words is None or words in text


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ('{"kind":[],"data":{},"seq":1}', "unknown kind []"),
        (
            '{"kind":"roll","seq":2,"data":{"sides":6,"dice":[1],"groups":[{"dice":5}]}}',
            "group 1 dice are not a list of numbers",
        ),
        (
            '{"kind":"roll","seq":2,"data":{"sides":6,"dice":[1],"groups":[{"dice":["a"],"hit_on":1}]}}',
            "group 1 dice are not a list of numbers",
        ),
    ],
    ids=["list kind", "dice a number", "dice of text"],
)
def test_the_verify_page_reports_a_malformed_ledger_entry(
    client: FlaskClient, body: str, words: str
) -> None:
    entry = {"body": body, "sig": "AAAA", "key": "0123456789abcdef"}
    status, text = verify(client, json.dumps({"entries": [entry]}).encode())
    assert status == 200 and "Problems found" in text and words in text


# --- The roller's forms -----------------------------------------------------------------


def test_a_nonce_this_server_never_issues_is_refused(client: FlaskClient, league: League) -> None:
    """Issued nonces are ASCII; ``hmac.compare_digest`` cannot compare other text, and a
    forged "x.é" was a 500."""
    client.application.config["WTF_CSRF_ENABLED"] = False
    with reading(league.ctx.sessions) as session:
        axis = session.execute(select(Member.id).where(Member.email == "axis@example.org"))
        member_id = axis.scalar_one()
    with client.session_transaction() as cookie:
        cookie["_user_id"] = str(member_id)
    before = recorded(league.ctx)
    response = client.post(
        f"/games/{league.game}/note", data={"nonce": "x.é", "topic": "general", "text": "hi"}
    )
    assert response.status_code == 400
    assert "reload the page" in response.get_data(as_text=True)
    assert recorded(league.ctx) == before
