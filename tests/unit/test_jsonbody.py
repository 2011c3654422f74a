"""The one JSON reader: every document it refuses is refused in the league's words, saying what
is wrong and where, before Python's own parser can fail in its words (issue 12, point 8)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dice_server.errors import InvalidRequest
from dice_server.jsonbody import MAX_DEPTH, read_json, shown
from dice_server.services.entries import fingerprint
from dice_server.verifier import canonical_json

#: Python's own words, which no refusal may show.
LEAKS = ("sys.", "recursion", "Traceback", "set_int_max_str_digits", "Exceeds the limit")


def refusal(raw: bytes | str) -> InvalidRequest:
    with pytest.raises(InvalidRequest) as caught:
        read_json(raw)
    for leak in LEAKS:
        assert leak not in caught.value.message
    return caught.value


@pytest.mark.parametrize(
    ("raw", "words", "field"),
    [
        (b"", "the request body is empty", None),
        (
            b'{"round": 1, "round": 2}',
            'gives the key "round" twice in the top-level object',
            "round",
        ),
        (
            b'{"attacker": [{"unit": "INF", "count": 1, "unit": "ARM"}]}',
            'gives the key "unit" twice in attacker[0]',
            "attacker[0].unit",
        ),
        (
            b'{"battle": "\\ud800"}',
            "lone surrogate (half of a \\u escape pair) in the text at battle",
            "battle",
        ),
        (
            b'{"owned": ["x", "\\udc00"]}',
            "lone surrogate (half of a \\u escape pair) in the text at owned[1]",
            "owned[1]",
        ),
        (b'{"\\udbff": 1}', 'the key "\\udbff" in the top-level object', None),
        # A duplicate key under a surrogate key: the message could not be encoded.
        (b'{"\\ud800": {"a": 1, "a": 2}}', 'the key "\\ud800" in the top-level object', None),
        (b'{"round": ' + b"9" * 5000 + b"}", "5000 digits (at line 1 column 11)", None),
        (b'{"round": -' + b"1" * 17 + b"}", "17 digits", None),
        (
            b"[" * 10000 + b"]" * 10000,
            f"deeper than {MAX_DEPTH} levels (at line 1 column 33)",
            None,
        ),
        (b'{"a":\n' + b'{"a":' * 40 + b"1" + b"}" * 41, "(at line 2 column 156)", None),
        (b'{"round": 1.5}', "the number 1.5 in the request body is not a whole number", None),
        (b'{"round": 1e400}', "the number 1e400", None),
        (b'{"round": NaN}', "NaN is not allowed", None),
        (b'{"round": -Infinity}', "-Infinity is not allowed", None),
        (b'{"battle": "\xff"}', "not UTF-8 (byte 13", None),
        (b'{"round": 1,}', "not JSON: Expecting property name", None),
        (b'"unterminated', "not JSON: Unterminated string starting at line 1 column 1", None),
    ],
)
def test_refusals_say_what_and_where(raw: bytes, words: str, field: str | None) -> None:
    refused = refusal(raw)
    assert words in refused.message
    assert refused.field == field


def test_the_limits_themselves_are_read() -> None:
    assert read_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    assert read_json('{"round": 9999999999999999}') == {"round": 9999999999999999}
    assert read_json(b'{"a": true, "b": null}') == {"a": True, "b": None}
    # Brackets and digits inside strings are text, not nesting or numbers.
    assert read_json(json.dumps({"a": "[" * 100 + "9" * 100})) == {"a": "[" * 100 + "9" * 100}
    # An escaped backslash before "ud800" is no escape; a surrogate pair is one character.
    assert read_json(b'{"a": "\\\\ud800"}') == {"a": "\\ud800"}
    assert read_json(b'"\\ud83c\\udfb2"') == "\U0001f3b2"
    # Editors write a byte order mark; it is not part of the document.
    assert read_json(b'\xef\xbb\xbf{"a": 1}') == {"a": 1}


def test_the_pasted_document_is_named_as_the_page_names_it() -> None:
    with pytest.raises(InvalidRequest, match=r"^that is not JSON"):
        read_json("{not json", "that")


def test_shown_values_stay_short() -> None:
    assert shown("x" * 1000) == '"' + "x" * 40 + '…"'
    assert shown("Weißrussland") == '"Weißrussland"'
    assert shown("a\ud800") == '"a\\ud800"'
    values: list[Any] = [None, True, [], {}, 7, 10**100]
    assert [shown(v) for v in values] == [
        "null",
        "true",
        "a list",
        "an object",
        "7",
        "a number too large for any field",
    ]


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(st.characters(codec=None, categories=None) | st.sampled_from(["\ud800", "\udfff"])),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=10,
)


@given(json_values)
def test_the_fingerprint_is_defined_for_any_parsed_json(payload: Any) -> None:
    """Taken before the body is checked, so it must not crash on what the check refuses."""
    assert len(fingerprint("POST", "/api/v1/games/1/rolls", payload)) == 64


def test_the_fingerprint_of_a_ledger_body_is_its_canonical_json() -> None:
    """Retry keys stored before the fingerprint was made total keep matching their requests."""
    payload = {"battle": "Weißrussland", "round": 1, "attacker": [{"unit": "INF", "count": 3}]}
    request = {"method": "POST", "path": "/p", "body": payload}
    assert fingerprint("POST", "/p", payload) == hashlib.sha256(canonical_json(request)).hexdigest()


def test_distinct_requests_keep_distinct_fingerprints() -> None:
    bodies: list[Any] = [{"a": "\ud800"}, {"a": "\ud800\udc00"}, {"a": "\U00010000"}, {"a": 1}]
    bodies += [{"a": True}, {"a": None}, {"a": "1"}, {"a": "true"}]
    assert len({fingerprint("POST", "/p", body) for body in bodies}) == len(bodies)
