"""The standalone verifier (version 2) on Low Luck battle rounds (``low-luck-roll``, issue
18 point 3): it recomputes each volley's sure hits and remainder from the groups' powers and
checks its die, and a round a broken server signs with any figure wrong is caught."""

from __future__ import annotations

import copy
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from adjudicator.powers import Power
from adjudicator.rolls import BattleRoll, RollHeader
from adjudicator.rolls.lowluck import LowLuckRoll
from adjudicator.units import UnitType as U
from dice_server.verifier import KINDS, ROLL_KINDS, VERIFIER_VERSION, dice_stream
from tests.unit.test_verifier import SEED, Chain, chain

__all__ = ["chain"]  # the fixture


def low_luck_data(chain: Chain) -> dict[str, Any]:
    """A Low Luck round of AA, support shots, subs and units, thrown with the seed's dice for
    the entry this will be (what the server writes)."""
    seq = len(chain.entries) + 1
    roll = LowLuckRoll(
        BattleRoll.of(
            RollHeader(1, 1, Power.UK),
            "West Europe",
            ((U.INF, 4), (U.FTR, 2), (U.BMB, 1)),
            ((U.INF, 5), (U.ARM, 1), (U.AA, 1)),
            ((U.BB, 1),),
        )
    )
    stream = dice_stream(SEED, 5, seq)  # one stream over the entry, as the server draws
    return roll.record("uk@example.org", lambda n: [next(stream) for _ in range(n)])


def test_version_2_and_later_know_the_kind_as_a_roll() -> None:
    assert VERIFIER_VERSION >= 2
    assert "low-luck-roll" in ROLL_KINDS and "low-luck-roll" in KINDS


def test_an_honest_low_luck_round_verifies_and_its_dice_are_recomputed(chain: Chain) -> None:
    data = low_luck_data(chain)
    assert len(data["dice"]) == sum(1 for v in data["volleys"] if v["remainder"])
    chain.add("low-luck-roll", data)
    chain.roll()  # a dice round beside it, as before
    chain.add("seed-reveal", {"seed": SEED.hex()})
    report = chain.verify()
    assert report.ok, report.problems
    assert any("2 of 2 rolls" in line for line in report.checked)


def spoil_volley(field: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def spoil(data: dict[str, Any]) -> None:
        with_die = next(v for v in data["volleys"] if v["dice"])
        with_die[field] = value(with_die) if callable(value) else value

    return spoil


def more_hits(data: dict[str, Any]) -> None:
    data["volleys"][-1]["hits"] += 1
    data["hits"][data["volleys"][-1]["side"]] += 1


def stronger_group(data: dict[str, Any]) -> None:
    data["groups"][-1]["power"] += 1


def bigger_volley(data: dict[str, Any]) -> None:
    volley = data["volleys"][0]
    volley["power"] += 6
    volley["sure"] += 1
    volley["hits"] += 1
    data["hits"][volley["side"]] += 1


def side_total(data: dict[str, Any]) -> None:
    data["hits"]["attacker"] += 1


def lost_volley(data: dict[str, Any]) -> None:
    dropped = data["volleys"].pop()
    data["hits"][dropped["side"]] -= dropped["hits"]
    data["dice"] = [d for v in data["volleys"] for d in v["dice"]]


def seven(data: dict[str, Any]) -> None:
    with_die = next(v for v in data["volleys"] if v["dice"])
    with_die["dice"] = [7]
    data["dice"] = [d for v in data["volleys"] for d in v["dice"]]


def other_dice(data: dict[str, Any]) -> None:
    data["dice"] = [*reversed(data["dice"]), 1]


@pytest.mark.parametrize(
    ("spoil", "words"),
    [
        (spoil_volley("sure", lambda v: v["sure"] + 1), "do not divide"),
        (spoil_volley("remainder", lambda v: (v["remainder"] + 1) % 6), "do not divide"),
        (spoil_volley("dice", []), "one die exactly when a remainder is left"),
        (spoil_volley("dice", lambda v: [v["dice"][0], 1]), "one die exactly"),
        (more_hits, "hits do not match its sure hits and die"),
        (stronger_group, "power is not its dice times its number"),
        (bigger_volley, "power is not its groups' power"),
        (side_total, "the sides' hits are not their volleys'"),
        (lost_volley, "groups whose power no volley fired"),
        (other_dice, "the volleys' dice are not the entry's dice"),
        (seven, "outside 1..6"),
        (lambda d: d.pop("volleys"), "Low Luck roll without sides, dice and volleys"),
        (lambda d: d["groups"][0].pop("hit_on"), "is not a Low Luck group"),
    ],
)
def test_a_round_a_broken_server_could_sign_is_caught(
    chain: Chain, spoil: Callable[[dict[str, Any]], None], words: str
) -> None:
    data = copy.deepcopy(low_luck_data(chain))
    spoil(data)
    chain.add("low-luck-roll", data)
    report = chain.verify()
    assert not report.ok
    assert any(words in problem for problem in report.problems), report.problems


def test_the_program_says_its_version() -> None:
    verifier = Path(__file__).resolve().parents[2] / "dice_server" / "verifier.py"
    done = subprocess.run(
        [sys.executable, str(verifier), "--version"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0
    assert (
        done.stdout.startswith(f"verifier.py {VERIFIER_VERSION} ")
        and "low-luck-roll" in done.stdout
    )
