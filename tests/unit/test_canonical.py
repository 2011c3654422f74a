"""The ledger body format, to the byte (DESIGN.md, "The ledger")."""

from __future__ import annotations

import pytest

from dice_server.verifier import NotCanonical, body_hash, canonical_json, key_id


def test_known_answer_vector() -> None:
    obj = {
        "v": 1,
        "game": 123,
        "seq": 2,
        "kind": "roll",
        "at": "2026-11-21T12:00:00.000001Z",
        "prev": "0" * 64,
        "data": {"battle": "Kaukasus", "comment": "Großangriff — ü", "dice": [6, 1], "n": -5},
    }
    expected = (
        '{"at":"2026-11-21T12:00:00.000001Z","data":{"battle":"Kaukasus",'
        '"comment":"Großangriff — ü","dice":[6,1],"n":-5},"game":123,"kind":"roll",'
        '"prev":"0000000000000000000000000000000000000000000000000000000000000000",'
        '"seq":2,"v":1}'
    ).encode()
    assert canonical_json(obj) == expected
    # Non-ASCII is written as UTF-8, not \\u escapes: "ß" is the two bytes C3 9F.
    assert b"\xc3\x9f" in canonical_json(obj)


def test_body_hash_is_sha256_of_the_exact_bytes() -> None:
    # SHA-256 of the empty object "{}", computed independently (sha256sum).
    assert body_hash(b"{}") == "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"


def test_key_id_is_first_16_hex_of_sha256_of_raw_key() -> None:
    # SHA-256 of 32 zero bytes starts 66687aadf862bd77.
    assert key_id(bytes(32)) == "66687aadf862bd77"


@pytest.mark.parametrize(
    "value",
    [
        1.5,
        True,
        False,
        None,
        2**53,
        -(2**53),
        "\ud800",
        {"a": [1, {"b": 0.0}]},
        {1: "integer key"},
        ("tuple",),
    ],
)
def test_refuses_what_the_format_cannot_hold(value: object) -> None:
    with pytest.raises(NotCanonical):
        canonical_json({"data": value})


def test_largest_allowed_integers() -> None:
    assert canonical_json([2**53 - 1, -(2**53) + 1]) == b"[9007199254740991,-9007199254740991]"
