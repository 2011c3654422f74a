"""The standalone verifier on ledgers built here, signed with a key made here: what a
dishonest or broken server could publish, each caught with a reason."""

from __future__ import annotations

import json
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dice_server.keys import Signer
from dice_server.verifier import (
    ZERO_HASH,
    NotCanonical,
    body_hash,
    canonical_json,
    decode_body,
    draw_dice,
    seed_commitment,
    verify_ledger,
)

SEED = bytes(range(32))


class Chain:
    def __init__(self) -> None:
        self.signer = Signer(Ed25519PrivateKey.generate())
        self.entries: list[dict[str, str]] = []
        self.prev = ZERO_HASH

    def add(
        self,
        kind: str,
        data: dict[str, Any],
        *,
        raw: bytes | None = None,
        seq: int | None = None,
        at: str | None = None,
    ) -> None:
        """Sign what it is given, canonical or not: the server here is not trusted."""
        number = len(self.entries) + 1
        obj = {
            "v": 1,
            "game": 5,
            "seq": seq or number,
            "kind": kind,
            "at": at or f"2026-01-01T00:00:{number:02d}.000000Z",
            "prev": self.prev,
            "data": data,
        }
        body = raw or json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()
        self.entries.append(
            {"body": body.decode(), "sig": self.signer.sign(body), "key": self.signer.key_id}
        )
        self.prev = body_hash(body)

    def roll(self, count: int = 4) -> None:
        seq = len(self.entries) + 1
        dice = draw_dice(SEED, 5, seq, count)
        self.add(
            "roll",
            {
                "sides": 6,
                "dice": dice,
                "groups": [
                    {
                        "side": "attacker",
                        "unit": "INF",
                        "count": count,
                        "hit_on": 1,
                        "dice": dice,
                        "hits": dice.count(1),
                    }
                ],
            },
        )

    def verify(self) -> Any:
        keys = {
            "keys": [{"id": self.signer.key_id, "alg": "Ed25519", "public": self.signer.public_b64}]
        }
        return verify_ledger({"entries": self.entries}, keys)


@pytest.fixture
def chain() -> Chain:
    chain = Chain()
    chain.add("genesis", {"seed_commitment": seed_commitment(SEED)})
    return chain


def test_an_honest_game_verifies_with_every_die_recomputed(chain: Chain) -> None:
    chain.roll()
    chain.roll(7)
    chain.add("seed-reveal", {"seed": SEED.hex()})
    report = chain.verify()
    assert report.ok, report.problems
    assert any("2 of 2 rolls" in line for line in report.checked)


def test_rolls_before_the_reveal_are_reported_pending(chain: Chain) -> None:
    chain.roll()
    report = chain.verify()
    assert report.ok and report.pending == [
        "1 rolls under the commitment of entry 1: the seed is revealed when the game ends"
    ]


@pytest.mark.parametrize(
    ("spoil", "words"),
    [
        (
            lambda c: c.add("note", {"topic": "general", "text": "x", "flag": True}),
            "bool values are not allowed",
        ),
        (lambda c: c.add("note", {}, raw=b'{"v": 1}'), "not in canonical form"),
        (lambda c: c.add("note", {"n": 1}, seq=7), "expected 2"),
        (
            lambda c: c.add("note", {"n": 1}, at="2025-01-01T00:00:00.000000Z"),
            "not after the previous",
        ),
        (lambda c: c.add("note", {"n": 1}, at="2026-01-01 00:00:09"), "is not in the form"),
        (lambda c: c.add("dice", {}), "unknown kind"),
        (lambda c: c.add("seed-reveal", {"seed": "00" * 32}), "does not match the commitment"),
        (
            lambda c: (c.add("seed-reveal", {"seed": SEED.hex()}), c.roll()),
            "roll with no open seed commitment",
        ),
        (lambda c: c.add("genesis", {"seed_commitment": "x"}), "genesis must be the first"),
    ],
)
def test_what_a_broken_server_could_sign_is_caught(chain: Chain, spoil: Any, words: str) -> None:
    spoil(chain)
    report = chain.verify()
    assert not report.ok
    assert any(words in problem for problem in report.problems), report.problems


def test_a_roll_whose_groups_disagree_with_its_dice(chain: Chain) -> None:
    chain.add(
        "roll", {"sides": 6, "dice": [1, 2], "groups": [{"hit_on": 1, "dice": [1, 2], "hits": 2}]}
    )
    assert any("hits do not match" in p for p in chain.verify().problems)


def test_unknown_key_and_bad_keys_file(chain: Chain) -> None:
    other = Signer(Ed25519PrivateKey.generate())
    keys = {"keys": [{"id": other.key_id, "alg": "Ed25519", "public": other.public_b64}]}
    report = verify_ledger({"entries": chain.entries}, keys)
    assert any("unknown key" in p for p in report.problems)
    wrong_id = {"keys": [{"id": "0" * 16, "alg": "Ed25519", "public": other.public_b64}]}
    assert (
        "does not match its public key"
        in verify_ledger({"entries": chain.entries}, wrong_id).problems[0]
    )
    assert not verify_ledger({"entries": []}, keys).ok


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b'{"a":true}', "bool"),
        (b'{"a":[1,null]}', "NoneType"),
        (b'{"a":1.5}', "float"),
        (b'{"a":9007199254740992}', "out of range"),
        (b'{"a":NaN}', "NaN"),
    ],
)
def test_decode_body_refuses_what_the_format_cannot_hold(body: bytes, words: str) -> None:
    with pytest.raises(NotCanonical, match=words):
        decode_body(body)


def test_decode_body_keeps_literals_inside_strings() -> None:
    assert decode_body(b'{"a":"x:true,"}') == {"a": "x:true,"}
    assert json.loads(canonical_json(decode_body(b'{"b":[1,"null]"]}'))) == {"b": [1, "null]"]}


def _drawn_genesis(die: int) -> Chain:
    chain = Chain()
    chain.add(
        "genesis",
        {
            "seed_commitment": seed_commitment(SEED),
            "players": {"axis": "a@example.org", "allies": "b@example.org"},
            "draw": {"sides": 6, "dice": [die], "rule": "1-3: a plays the Axis; 4-6: b does"},
        },
    )
    return chain


def test_the_draw_between_equal_bids_is_recomputed_after_the_reveal() -> None:
    """IAAPA Bidding: "If bids of equal value are received the web server will determine the
    winner by a random process." The die is the genesis's own, under the seed it commits to."""
    honest = draw_dice(SEED, 5, 1, 1)
    chain = _drawn_genesis(honest[0])
    before = chain.verify()
    assert before.ok and any("1 rolls under the commitment of entry 1" in p for p in before.pending)
    chain.add("seed-reveal", {"seed": SEED.hex()})
    after = chain.verify()
    assert after.ok, after.problems
    assert any("1 of 1 rolls" in line for line in after.checked)


def test_a_draw_the_seed_did_not_throw_is_found_after_the_reveal() -> None:
    honest = draw_dice(SEED, 5, 1, 1)[0]
    chain = _drawn_genesis(honest % 6 + 1)
    chain.add("seed-reveal", {"seed": SEED.hex()})
    report = chain.verify()
    assert not report.ok
    assert "entry 1: dice differ from the revealed seed's" in report.problems


def test_a_draw_that_is_not_a_die_is_a_problem() -> None:
    chain = _drawn_genesis(7)
    assert "entry 1: a die is outside 1..6" in chain.verify().problems
