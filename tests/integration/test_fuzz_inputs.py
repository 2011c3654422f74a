"""No 5xx from bad input (issue 12, point 7): every POST endpoint is fuzzed with arbitrary
JSON (booleans, nulls, huge integers, lone surrogates, duplicate keys), mutations of a valid
request (one field swapped for another type), raw bytes and deep nesting. Whatever arrives,
the answer is below 500, says nothing of Python's insides, and a refusal records nothing.

One app and one database serve the whole module (a fresh one per example would make the
fuzz a hundred times slower); each example compares the row counts around its own request.
``PBEM_FUZZ_EXAMPLES`` raises the number of examples per endpoint (the issue used 2,000).
"""

from __future__ import annotations

import io
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select
from werkzeug.test import TestResponse

from dice_server.app import create_app
from dice_server.db import reading
from dice_server.keys import init_instance
from dice_server.kinds.battle import BattleForm
from dice_server.kinds.bombing import BombingForm
from dice_server.kinds.note import NoteForm
from dice_server.kinds.rocket import RocketForm
from dice_server.kinds.tech import TechForm
from dice_server.models import (
    AddressToken,
    DiceAddress,
    EmailToken,
    IdempotencyKey,
    LedgerEntry,
    Member,
    OutboxMessage,
    TableEntry,
)
from dice_server.services import ServiceContext
from dice_server.services.games import create_game
from dice_server.services.members import add_member
from dice_server.triplea.addresses import register_now
from dice_server.web import nonces
from tests.conftest import Databases, battle
from tests.records import client_as

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "120"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    # Big bodies and slow examples are the point. (No function-scoped fixture is shared by
    # the examples: the app is module-scoped, see the module docstring.)
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)
#: Python's own words, which no answer may show a player.
LEAKS = ("Traceback", "sys.", "set_int_max_str_digits", "recursion", "Exceeds the limit")
#: The random tokens a form carries (a nonce once held "...sys.<mac>" by chance): left out
#: of the search for leaks, which are about what the server says, not what it draws.
DRAWN = re.compile(r'(name="(?:nonce|csrf_token)"[^>]*value=")[^"]*"')
HEADER = {"round": 1, "turn": 1, "country": "Germany"}


# --- The app, shared by every example of the module --------------------------------------


@dataclass
class Fuzz:
    app: Flask
    ctx: ServiceContext
    tokens: dict[str, str]
    ids: dict[str, int]
    game: int

    def recorded(self) -> tuple[int, ...]:
        """Every row a request could write (throttle counters aside: counting attempts is
        their purpose)."""
        tables = (
            LedgerEntry,
            TableEntry,
            OutboxMessage,
            IdempotencyKey,
            Member,
            DiceAddress,
            EmailToken,
            AddressToken,
        )
        counts = [select(func.count()).select_from(t).scalar_subquery() for t in tables]
        with reading(self.ctx.sessions) as session:
            return tuple(session.execute(select(*counts)).one())

    def client(self, logged_in: str | None = None) -> FlaskClient:
        """A test client, logged in as member ``logged_in`` ("axis", "allies") if given."""
        return client_as(self.app, self.ids[logged_in] if logged_in is not None else None)

    def nonce(self, form: str) -> str:
        with self.app.app_context():
            return nonces.issue(self.ids["axis"], form)


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory: pytest.TempPathFactory, databases: Databases) -> Iterator[Fuzz]:
    root: Path = tmp_path_factory.mktemp("fuzz")
    init_instance(root / "instance")
    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(root / "instance"),
            "DATABASE_URL": databases.fresh(root, "fuzz.sqlite3"),
            "WTF_CSRF_ENABLED": False,
            "TRIPLEA_ROLLS_PER_ADDRESS": 10**6,
            "TRIPLEA_ROLLS_PER_CLIENT": 10**6,
        }
    )
    engine = app.extensions["pbem"].sessions.kw["bind"]
    ctx: ServiceContext = app.extensions["pbem"]
    tokens, ids = {}, {}
    for who in ("axis", "allies"):
        made = add_member(ctx, f"{who}@example.org", who.title(), confirmed=True)
        tokens[who], ids[who] = made.token, made.id
    game = create_game(ctx, axis="axis@example.org", allies="allies@example.org")
    for address in ("ger@example.org", "rus@example.org"):
        register_now(ctx, address)
    yield Fuzz(app, ctx, tokens, ids, game.game_number)
    engine.dispose()


def check_answer(
    fuzz: Fuzz, before: tuple[int, ...], response: TestResponse, refused: bool
) -> None:
    text = response.get_data(as_text=True)
    assert response.status_code < 500, text[:500]
    assert "internal error" not in text, text[:500]
    said = DRAWN.sub(r'\1"', text)
    for leak in LEAKS:
        assert leak not in said, text[:500]
    if refused:
        assert fuzz.recorded() == before, f"a refusal ({response.status_code}) wrote rows"


# --- Strategies ---------------------------------------------------------------------------


class Raw(str):
    """A JSON token written as it is: an integer of thousands of digits, NaN, a float."""


class Pairs(list[tuple[str, Any]]):
    """A JSON object as written, so that a key may appear twice."""


def encode(value: Any) -> str:
    """JSON text with lone surrogates as ``\\ud800`` escapes (json.dumps writes them so)."""
    if isinstance(value, Raw):
        return str.__str__(value)
    if isinstance(value, dict):
        value = Pairs(value.items())
    if isinstance(value, Pairs):
        return "{" + ",".join(f"{json.dumps(k)}:{encode(v)}" for k, v in value) + "}"
    if isinstance(value, list):
        return "[" + ",".join(encode(v) for v in value) + "]"
    return json.dumps(value)


SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff"]
FIELD_NAMES = sorted(
    {*battle(), "attacker", "defender", "bombard", "options", "dice", "declared", "owned"}
    | {"target", "bombers", "aa", "rockets", "from", "topic", "text", "ref_seq", "unit", "count"}
    | {"times", "max", "email1", "email2", "email", "entries", "body", "sig", "key"}
    | {"sides", "groups", "hit_on", "hits", "seed", "seed_commitment"}
)
texts = st.one_of(
    st.text(max_size=12),
    st.tuples(st.text(max_size=4), st.sampled_from(SURROGATES), st.text(max_size=4)).map("".join),
    st.sampled_from(["", " ", "UK", "INF", "general", "9" * 5000, "²", "-1", "0", "1e5"]),
)
huge_integers = st.integers(min_value=17, max_value=6000).map(lambda n: Raw("9" * n))
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**70), max_value=2**70),
    huge_integers,
    st.floats(),
    st.sampled_from([Raw("NaN"), Raw("-Infinity"), Raw("1e400"), Raw("-0")]),
    texts,
)
keys = st.one_of(st.sampled_from(FIELD_NAMES), texts)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(keys, inner, max_size=4),
        st.lists(st.tuples(keys, inner), max_size=4).map(Pairs),
    ),
    max_leaves=12,
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*prefix, index))


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: replaced(value[head], rest, new)}
    return [replaced(item, rest, new) if i == head else item for i, item in enumerate(value)]


@st.composite
def mutations(draw: st.DrawFn, valid: dict[str, Any]) -> str:
    """A valid request with one to three changes: a value of another type anywhere, a field
    dropped or added, a key given twice."""
    body: Any = valid
    for _ in range(draw(st.integers(1, 3))):
        change = draw(st.sampled_from(["replace", "replace", "drop", "add", "twice"]))
        if change == "replace":
            path = draw(st.sampled_from(list(paths(body))[1:] or [()]))
            body = replaced(body, path, draw(json_values))
        elif change == "drop" and isinstance(body, dict) and body:
            dropped = draw(st.sampled_from(sorted(body)))
            body = {k: v for k, v in body.items() if k != dropped}
        elif change == "add" and isinstance(body, dict):
            body = {**body, draw(keys): draw(json_values)}
        elif change == "twice" and isinstance(body, dict) and body:
            name = draw(st.sampled_from(sorted(body)))
            return encode(Pairs([*body.items(), (name, draw(json_values))]))
    return encode(body)


def deep(depth: int, opener: str) -> str:
    closer = {"[": "]", '{"a":': "}", '{"round":[': "]}"}[opener]
    return opener * depth + "1" + closer * depth


#: Around the reader's limit, around Python's recursion limit, and far beyond.
depths = st.one_of(st.integers(20, 40), st.integers(900, 1100), st.integers(1100, 20000))
deep_nesting = st.builds(deep, depths, st.sampled_from(["[", '{"a":', '{"round":[']))
#: A value the ledger refuses, then one Python's parser cannot read: a reader that stops at
#: the first and re-reads the body without checks meets the second.
refused_then_unreadable = st.builds(
    "[{},{}]".format,
    st.sampled_from(["1.5", "NaN", "null", "true", '"\\ud800"', "1"]),
    st.one_of(deep_nesting, huge_integers),
)


def bodies(valid: dict[str, Any]) -> st.SearchStrategy[bytes]:
    """Request bodies: mutated valid requests, any JSON, deep nesting, raw bytes."""
    as_text = st.one_of(mutations(valid), json_values.map(encode), deep_nesting)
    return st.one_of(
        as_text.map(lambda text: text.encode("utf-8")),
        # Non-ASCII written raw, a lone surrogate as the (invalid) bytes it would take.
        json_values.map(
            lambda value: (
                json.dumps(value, ensure_ascii=False, default=str).encode("utf-8", "surrogatepass")
                if not isinstance(value, Raw | Pairs)
                else encode(value).encode()
            )
        ),
        st.binary(max_size=64),
    )


idempotency_keys = st.one_of(
    st.none(), st.text(st.characters(min_codepoint=32, max_codepoint=255), max_size=12)
)


# --- The JSON API -------------------------------------------------------------------------

API_REQUESTS = {
    "rolls": battle(),
    "tech-rolls": {**HEADER, "dice": 3, "owned": ["Jet Power"]},
    "bombing-rolls": {**HEADER, "target": "Russia", "bombers": 2, "aa": 1},
    "rocket-rolls": {**HEADER, "target": "United Kingdom", "from": "West Europe"},
    "notes": {"topic": "void-claim", "ref_seq": 1, "text": "rolled in the wrong game"},
}


@pytest.mark.parametrize("what", sorted(API_REQUESTS))
def test_api_posts_never_fail_with_5xx(fuzz: Fuzz, what: str) -> None:
    @FUZZ
    @given(body=bodies(API_REQUESTS[what]), key=idempotency_keys)
    def post(body: bytes, key: str | None) -> None:
        headers = {"Authorization": f"Bearer {fuzz.tokens['axis']}"}
        if key is not None:
            headers["Idempotency-Key"] = key
        before = fuzz.recorded()
        response = fuzz.client().post(
            f"/api/v1/games/{fuzz.game}/{what}",
            data=body,
            headers=headers,
            content_type="application/json",
        )
        check_answer(fuzz, before, response, refused=response.status_code >= 400)
        if response.status_code >= 400:
            assert isinstance(response.get_json()["error"], str)

    post()


# --- TripleA ------------------------------------------------------------------------------

form_texts = st.one_of(
    st.text(max_size=20),
    st.sampled_from(["9" * 5000, "²", "٣", "-1", "0", " 3 ", "1e3", "ger@example.org"]),
)
TRIPLEA_FORMS = {
    "/MARTI.php": {
        "numdice": "2",
        "numsides": "6",
        "subject": "Big Game:Germany attacks Karelia",
        "roller": "ger@example.org",
        "gm": "rus@example.org",
    },
    "/api/roll": {
        "times": "2",
        "max": "6",
        "email1": "ger@example.org",
        "email2": "rus@example.org",
    },
    "/api/register": {"email": "new@example.org"},
}


@st.composite
def form_fields(draw: st.DrawFn, valid: dict[str, Any]) -> dict[str, Any]:
    """A valid form with some fields changed, dropped, repeated or added."""
    fields: dict[str, Any] = dict(valid)
    for name in draw(st.lists(st.sampled_from([*valid, "extra"]), max_size=3)):
        change = draw(st.sampled_from(["replace", "drop", "repeat"]))
        if change == "drop":
            fields.pop(name, None)
        elif change == "repeat":
            fields[name] = draw(st.lists(form_texts, min_size=2, max_size=3))
        else:
            fields[name] = draw(form_texts)
    return fields


def triplea_refused(path: str, response: TestResponse) -> bool:
    if path == "/MARTI.php":
        return "fatal error:" in response.get_data(as_text=True)
    return response.status_code >= 400


@pytest.mark.parametrize("path", sorted(TRIPLEA_FORMS))
def test_triplea_posts_never_fail_with_5xx(fuzz: Fuzz, path: str) -> None:
    valid = TRIPLEA_FORMS[path]

    @FUZZ
    @given(
        request=st.one_of(
            form_fields(valid).map(lambda fields: {"data": fields}),
            bodies(valid).map(lambda body: {"data": body, "content_type": "application/json"}),
            bodies(valid).map(
                lambda body: {
                    "data": body,
                    "content_type": "application/x-www-form-urlencoded",
                }
            ),
        )
    )
    def post(request: dict[str, Any]) -> None:
        before = fuzz.recorded()
        response = fuzz.client().post(path, headers={"User-Agent": "triplea/2.8.0"}, **request)
        check_answer(fuzz, before, response, triplea_refused(path, response))
        if path != "/MARTI.php":
            assert response.get_json()["status"] in ("OK", "Error")

    post()


# --- The pages' forms ---------------------------------------------------------------------

MEMBERSHIP_FORMS = {
    "/register": {
        "name": "Erwin",
        "email": "rommel@example.org",
        "password": "desert-fox-1942",
        "again": "desert-fox-1942",
    },
    "/login": {"email": "axis@example.org", "password": "desert-fox-1942"},
    "/reset": {"email": "axis@example.org"},
    "/dice/register": {"email": "someone@example.org"},
    "/dice/unregister": {"email": "ger@example.org"},
    "/reset/password": {"t": "x" * 43, "password": "desert-fox-1943", "again": "desert-fox-1943"},
    # As the allies' player, whose API token the API tests above do not use.
    "/account": {"action": "grant", "email": "axis@example.org"},
}
ROLLER_FORMS: dict[str, tuple[Any, dict[str, Any]]] = {
    "roll": (
        BattleForm,
        {
            "round": "1",
            "turn": "1",
            "country": "Germany",
            "battle": "Karelia S.S.R.",
            "attacker_INF": "3",
            "attacker_FTR": "2",
            "defender_INF": "4",
            "defender_AA": "1",
            "options": "jet-fighters",
        },
    ),
    "tech": (TechForm, {**{k: str(v) for k, v in HEADER.items()}, "dice": "3"}),
    "bombing": (
        BombingForm,
        {**{k: str(v) for k, v in HEADER.items()}, "target": "UK", "bombers": "2", "aa": "y"},
    ),
    "rocket": (RocketForm, {**{k: str(v) for k, v in HEADER.items()}, "target": "UK"}),
    "note": (NoteForm, {"topic": "void-claim", "ref_seq": "1", "text": "wrong game"}),
}


#: None stands for a nonce issued to the member for this form.
nonces_sent = st.one_of(
    st.none(),
    st.none(),
    st.text(max_size=8),
    st.builds("{}.{}".format, st.text(max_size=6), st.text(max_size=6)),
)


def form_refused(response: TestResponse) -> bool:
    return response.status_code >= 400


@pytest.mark.parametrize("path", sorted(MEMBERSHIP_FORMS))
def test_membership_forms_never_fail_with_5xx(fuzz: Fuzz, path: str) -> None:
    @FUZZ
    @given(
        request=st.one_of(
            form_fields(MEMBERSHIP_FORMS[path]).map(lambda fields: {"data": fields}),
            st.binary(max_size=64).map(
                lambda body: {
                    "data": body,
                    "content_type": "application/x-www-form-urlencoded",
                }
            ),
        )
    )
    def post(request: dict[str, Any]) -> None:
        before = fuzz.recorded()
        client = fuzz.client(logged_in="allies" if path == "/account" else None)
        response = client.post(path, **request)
        check_answer(fuzz, before, response, form_refused(response))

    post()


@pytest.mark.parametrize("what", sorted(ROLLER_FORMS))
def test_roller_forms_never_fail_with_5xx(fuzz: Fuzz, what: str) -> None:
    form_class, valid = ROLLER_FORMS[what]
    with fuzz.app.test_request_context():
        names = [field.name for field in form_class(meta={"csrf": False})]
    fields_valid = {**{name: "" for name in names if name not in valid}, **valid}

    @FUZZ
    @given(fields=form_fields(fields_valid), nonce=nonces_sent)
    def post(fields: dict[str, Any], nonce: str | None) -> None:
        fields = {**fields, "nonce": fuzz.nonce(f"{what}:{fuzz.game}") if nonce is None else nonce}
        before = fuzz.recorded()
        response = fuzz.client(logged_in="axis").post(f"/games/{fuzz.game}/{what}", data=fields)
        assert response.status_code != 302 or "/entries/" in response.headers["Location"]
        check_answer(fuzz, before, response, form_refused(response))

    post()


def ledger_document(fuzz: Fuzz) -> dict[str, Any]:
    client = fuzz.client()
    doc: dict[str, Any] = client.get(
        f"/api/v1/games/{fuzz.game}/ledger",
        headers={"Authorization": f"Bearer {fuzz.tokens['axis']}"},
    ).get_json()
    return doc


@st.composite
def forged_entries(draw: st.DrawFn) -> dict[str, Any]:
    """An entry whose body is any JSON, or a roll-shaped body with odd fields."""
    data = draw(st.one_of(json_values, st.dictionaries(st.sampled_from(FIELD_NAMES), json_values)))
    body = {
        "v": 1,
        "game": 1,
        "seq": draw(st.integers(1, 3)),
        "kind": draw(st.sampled_from(["roll", "genesis", "seed-reveal", "note"])),
        "at": "2026-01-01T00:00:01.000000Z",
        "prev": "0" * 64,
        "data": data,
    }
    text = draw(
        st.one_of(
            st.just(encode(body)),
            json_values.map(encode),
            deep_nesting,
            refused_then_unreadable,
        )
    )
    tags = st.one_of(st.text(max_size=8), texts)
    return {"body": text, "sig": draw(tags), "key": draw(tags)}


@pytest.mark.parametrize("way", ["pasted", "upload"])
def test_the_verify_page_never_fails_with_5xx(fuzz: Fuzz, way: str) -> None:
    genuine = ledger_document(fuzz)

    @FUZZ
    @given(
        document=st.one_of(
            bodies(genuine),
            st.lists(forged_entries(), min_size=1, max_size=3).map(
                lambda entries: encode({"entries": entries}).encode()
            ),
            forged_entries().map(lambda entry: encode(entry).encode()),
        )
    )
    def post(document: bytes) -> None:
        if way == "pasted":
            data: dict[str, Any] = {"pasted": document.decode("utf-8", "replace")}
        else:
            data = {"upload": (io.BytesIO(document), "ledger.json")}
        before = fuzz.recorded()
        response = fuzz.client().post("/verify", data=data)
        check_answer(fuzz, before, response, refused=True)

    post()
