"""The standalone verifier (version 3) on the rolls of the other game systems (issue 19):
it recomputes their dice from the seed like every roll's, and an entry a broken server signs
with a sum wrong (a Triumph of the Will total, winner, rebellion or blast; a Triumph &
Tragedy unit's dice or hits) is caught."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from adjudicator.triumph_tragedy import TTCombatRound, TTTurnOrderRoll
from adjudicator.triumph_will import WillAirRoll, WillAtomicRoll, WillBattleRoll, WillRebellionRoll
from dice_server.verifier import ROLL_KINDS, VERIFIER_VERSION, dice_stream
from tests.unit.test_verifier import SEED, Chain, chain

__all__ = ["chain"]  # the fixture

BATTLE = {
    "turn": 3,
    "side": "German",
    "boxes": [
        {"attacker": [{"unit": "panzer"}], "defender": [{"unit": "infantry"}]},
        {"attacker": [{"unit": "6SS"}], "defender": [{"unit": "infantry"}]},
    ],
}
ROUND = {
    "year": 1940,
    "season": "Summer",
    "area": "Malta",
    "battle": "sea",
    "attacker": "Axis",
    "defender": "West",
    "units": {
        "attacker": [
            {"unit": "Air Force", "cv": 3, "target": "N"},
            {"unit": "Fleet", "cv": 2, "target": "N"},
        ],
        "defender": [
            {"unit": "Carrier", "cv": 4, "target": "A"},
            {"unit": "Fleet", "cv": 3, "target": "N"},
        ],
    },
}

MAKERS: dict[str, Callable[[], Any]] = {
    "will-battle-roll": lambda: WillBattleRoll.from_request(BATTLE),
    "will-air-roll": lambda: WillAirRoll.from_request(
        {"turn": 2, "side": "German", "german_hq": 2, "japanese_hq": 2}
    ),
    "will-rebel-roll": lambda: WillRebellionRoll.from_request(
        {"turn": 2, "side": "Japanese", "area": "Poland", "adjacent_rebellions": 3}
    ),
    "will-atomic-roll": lambda: WillAtomicRoll.from_request(
        {"turn": 9, "side": "German", "target": "fleet"}
    ),
    "tt-combat-round": lambda: TTCombatRound.from_request(ROUND),
    "tt-turn-order": lambda: TTTurnOrderRoll.from_request({"year": 1938, "faction": "West"}),
}


def thrown(chain: Chain, kind: str) -> dict[str, Any]:
    """The entry data the server writes: the roll thrown with the seed's dice for the
    entry this will be."""
    stream = dice_stream(SEED, 5, len(chain.entries) + 1)
    data: dict[str, Any] = MAKERS[kind]().record(
        "p@example.org", lambda n: [next(stream) for _ in range(n)]
    )
    return data


def test_version_3_knows_every_kind_as_a_roll() -> None:
    assert VERIFIER_VERSION == 3
    assert set(MAKERS) <= ROLL_KINDS


def test_honest_rolls_of_every_kind_verify_and_their_dice_are_recomputed(chain: Chain) -> None:
    for kind in MAKERS:
        chain.add(kind, thrown(chain, kind))
    chain.add("seed-reveal", {"seed": SEED.hex()})
    report = chain.verify()
    assert report.ok, report.problems
    assert any(f"{len(MAKERS)} of {len(MAKERS)} rolls" in line for line in report.checked)


def plus_one(role: str, field: str) -> Callable[[dict[str, Any]], None]:
    def spoil(data: dict[str, Any]) -> None:
        data["groups"][0][role][field] += 1

    return spoil


def flip_winner(data: dict[str, Any]) -> None:
    group = data["groups"][0]
    group["winner"] = "attacker" if group["winner"] == "defender" else "defender"


def group_field(field: str, value: Callable[[Any], Any]) -> Callable[[dict[str, Any]], None]:
    def spoil(data: dict[str, Any]) -> None:
        data["groups"][0][field] = value(data["groups"][0][field])

    return spoil


def one_die_less(data: dict[str, Any]) -> None:
    group = data["groups"][0]
    group["dice"] = group["dice"][:-1]
    group["hits"] = sum(d <= group["hit_on"] for d in group["dice"])
    data["dice"] = [d for g in data["groups"] for d in g["dice"]]


@pytest.mark.parametrize(
    ("kind", "spoil", "words"),
    [
        ("will-battle-roll", plus_one("attacker", "total"), "total is not its die and modifiers"),
        ("will-battle-roll", plus_one("defender", "die"), "defender die is not its dice's"),
        ("will-battle-roll", flip_winner, "winner is not the higher total"),
        ("will-air-roll", group_field("total", lambda t: t + 1), "total is not its dice"),
        ("will-rebel-roll", group_field("rebellion", lambda r: 1 - r), "six or more"),
        ("will-atomic-roll", group_field("blast", lambda b: 1 - b), "one through five"),
        ("will-battle-roll", lambda d: d["groups"][0].pop("winner"), "not a Triumph of the Will"),
        ("tt-combat-round", group_field("hits", lambda h: h + 1), "hits do not match its dice"),
        ("tt-combat-round", one_die_less, "did not throw one die per CV"),
        (
            "tt-combat-round",
            group_field("reductions", lambda r: [*r, {"id": "X", "from": 1, "to": 0}] * 9),
            "reduced more units than it hit",
        ),
    ],
)
def test_a_roll_a_broken_server_could_sign_is_caught(
    chain: Chain, kind: str, spoil: Callable[[dict[str, Any]], None], words: str
) -> None:
    data = copy.deepcopy(thrown(chain, kind))
    spoil(data)
    chain.add(kind, data)
    report = chain.verify()
    assert not report.ok
    assert any(words in problem for problem in report.problems), report.problems
