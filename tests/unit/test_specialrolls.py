"""Tech, bombing and rocket rolls: what is thrown, in what order, and the refusals."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from dice_server.errors import InvalidRequest
from dice_server.specialrolls import parse_bombing_roll, parse_rocket_roll, parse_tech_roll

HEADER = {"round": 3, "turn": 3, "country": "Germany"}


def stream(values: list[int]) -> Callable[[int], list[int]]:
    """Hands out the prepared dice in order; fails if the roll wants more than prepared."""
    source: Iterator[int] = iter(values)
    return lambda n: [next(source) for _ in range(n)]


def test_tech_roll_breakthroughs_and_chart_rerolls() -> None:
    """Facts sheet 7 (from W6, SPEC p.10-11): "Each 6 is a breakthrough, then a second die
    chooses which technology. If you already own it, re-roll." Chart: 1 Jet Power,
    2 Rockets, 3 Super Subs, 4 Long Range Aircraft, 5 Industrial Technology, 6 Heavy Bombers."""
    roll = parse_tech_roll({**HEADER, "dice": 4, "owned": ["jet-power"]})
    # Research 6, 2, 6, 5: two breakthroughs. Chart: 1 (owned, re-roll), 6; then 6 (won in
    # this roll, re-roll), 2.
    data = roll.record("g@x.org", stream([6, 2, 6, 5, 1, 6, 6, 2]))
    assert data["dice"] == [6, 2, 6, 5, 1, 6, 6, 2]
    assert data["breakthroughs"] == 2
    assert data["technologies"] == ["Heavy Bombers", "Rockets"]
    assert [g["purpose"] for g in data["groups"]] == ["research", "chart", "chart"]
    assert [g["dice"] for g in data["groups"]] == [[6, 2, 6, 5], [1, 6], [6, 2]]
    assert (data["declared"], data["rolled"], data["cost"]) == (4, 4, 20)
    assert data["owned"] == ["Jet Power"]


def test_tech_roll_states_declared_and_rolled() -> None:
    """IAAPA Error Correction IV: "if more dice are rolled, then the extra dice are ignored" -
    the entry must say how many were declared and how many rolled."""
    data = parse_tech_roll({**HEADER, "dice": 5, "declared": 3}).record("x", stream([1] * 5))
    assert (data["declared"], data["rolled"], data["breakthroughs"]) == (3, 5, 0)


def test_tech_roll_with_every_technology_owned_wastes_the_breakthrough() -> None:
    owned = ["Jet Power", "Rockets", "Super Subs", "LRA", "industrial_technology", "HBMB"]
    data = parse_tech_roll({**HEADER, "dice": 1, "owned": owned}).record("x", stream([6]))
    assert data["technologies"] == [] and data["groups"][1]["technology"] == "none left"


def test_bombing_aa_fires_first_then_survivors_roll_damage() -> None:
    """Facts sheet 6: "AA fires first (1 die per bomber, a 1 kills). Each surviving bomber
    rolls 1 die, or 3 with Heavy Bombers. The dice are summed"."""
    roll = parse_bombing_roll({**HEADER, "target": "Russia", "bombers": 3, "aa": 1})
    data = roll.record("x", stream([1, 4, 2, 5, 6]))
    assert [g["purpose"] for g in data["groups"]] == ["aa", "damage"]
    assert (data["shot_down"], data["damage"]) == (1, 11)
    assert data["groups"][1]["count"] == 2


def test_heavy_bombers_roll_three_dice_each_and_no_aa_means_no_aa_dice() -> None:
    roll = parse_bombing_roll(
        {**HEADER, "target": "UK", "bombers": 2, "aa": 0, "options": ["heavy-bombers"]}
    )
    data = roll.record("x", stream([1, 2, 3, 4, 5, 6]))
    assert [g["purpose"] for g in data["groups"]] == ["damage"]
    assert (data["damage"], len(data["dice"])) == (21, 6)


def test_every_bomber_shot_down_throws_no_damage() -> None:
    data = parse_bombing_roll({**HEADER, "target": "UK", "bombers": 2, "aa": 1}).record(
        "x", stream([1, 1])
    )
    assert (data["shot_down"], data["damage"], data["dice"]) == (2, 0, [1, 1])


def test_rocket_one_die_per_rocket() -> None:
    data = parse_rocket_roll({**HEADER, "target": "UK", "from": "West Europe"}).record(
        "x", stream([5])
    )
    assert (data["damage"], data["rockets"], data["from"]) == (5, 1, "West Europe")


@pytest.mark.parametrize(
    ("parse", "payload", "field", "words"),
    [
        (parse_tech_roll, {"dice": 0}, "dice", "1 to 99"),
        (parse_tech_roll, {"dice": 100}, "dice", "1 to 99"),
        (parse_tech_roll, {"dice": 2, "owned": ["radar"]}, "owned", "unknown technology"),
        (parse_tech_roll, {}, "dice", "is required"),
        (parse_bombing_roll, {"target": "UK", "bombers": 0, "aa": 1}, "bombers", "at least one"),
        (parse_bombing_roll, {"target": "UK", "aa": 1}, "bombers", "is required"),
        (parse_bombing_roll, {"target": "UK", "bombers": 1, "aa": 2}, "aa", "0 or 1"),
        (
            parse_bombing_roll,
            {"target": "UK", "bombers": 1, "aa": 1, "options": ["jets"]},
            "options",
            "unknown option",
        ),
        (parse_rocket_roll, {"target": "UK", "rockets": 10}, "rockets", "1 to 9"),
        (parse_rocket_roll, {}, "target", "is required"),
    ],
)
def test_refusals(
    parse: Callable[[Any], Any], payload: dict[str, Any], field: str, words: str
) -> None:
    with pytest.raises(InvalidRequest) as info:
        parse({**HEADER, **payload})
    assert info.value.field == field and words in info.value.message
