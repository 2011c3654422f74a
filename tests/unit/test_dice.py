"""The dice algorithm (DESIGN.md, "Dice"): known answers computed independently with
``openssl dgst -sha256 -mac HMAC`` over ``dice:7:3:<counter>`` with the key 00 01 .. 1f."""

from __future__ import annotations

from collections import Counter

from dice_server.verifier import dice_stream, draw_dice, seed_commitment

SEED = bytes(range(32))
# The 16 big-endian words of the first two HMAC blocks for game 7, seq 3.
WORDS = [
    3528467369,
    4009732184,
    2187138374,
    3087287678,
    3868130678,
    2870490329,
    2252612492,
    270618356,
    223606417,
    2691820466,
    3648194622,
    1952798935,
    4294525910,
    1262325558,
    1789520741,
    3028042956,
]


def test_known_answer_six_sided() -> None:
    assert draw_dice(SEED, 7, 3, 16) == [6, 3, 3, 3, 3, 6, 3, 3, 2, 3, 1, 2, 3, 1, 6, 1]
    assert [w % 6 + 1 for w in WORDS] == draw_dice(SEED, 7, 3, 16)


def test_rejection_sampling_skips_words_at_or_above_the_limit() -> None:
    # With 3 * 2**30 sides the limit is 3 * 2**30, so a quarter of the words are rejected.
    sides = 3 * 2**30
    expected = [w % sides + 1 for w in WORDS if w < sides]
    assert len(expected) == 11
    assert draw_dice(SEED, 7, 3, 11, sides) == expected


def test_each_entry_has_its_own_dice() -> None:
    assert draw_dice(SEED, 7, 3, 20) != draw_dice(SEED, 7, 4, 20)
    assert draw_dice(SEED, 7, 3, 20) != draw_dice(SEED, 8, 3, 20)
    # A longer roll starts with the same dice: the i-th die thrown is fixed by (seed, game, seq).
    assert draw_dice(SEED, 7, 3, 40)[:20] == draw_dice(SEED, 7, 3, 20)


def test_dice_are_uniform() -> None:
    stream = dice_stream(SEED, 1, 1)
    counts = Counter(next(stream) for _ in range(60000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    chi2 = sum((c - 10000) ** 2 / 10000 for c in counts.values())
    assert chi2 < 20.5  # 5 degrees of freedom, p = 0.001


def test_commitment_is_sha256_hex_of_the_seed() -> None:
    assert seed_commitment(bytes(32)) == (
        "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    )
