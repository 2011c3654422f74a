"""Roll requests: every refusal names its field, and what is accepted becomes the engine's
roll (the rules of what it throws are tested in tests/unit/adjudicator/test_rolls.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from adjudicator.powers import Power
from adjudicator.units import Technology, UnitType
from dice_server.errors import InvalidRequest
from dice_server.kinds.battle import read as parse_battle_roll
from dice_server.kinds.bombing import read as parse_bombing_roll
from dice_server.kinds.rocket import read as parse_rocket_roll
from dice_server.kinds.tech import read as parse_tech_roll
from tests.conftest import battle

HEADER = {"round": 3, "turn": 3, "country": "Germany"}


def test_a_request_becomes_the_engines_roll() -> None:
    roll = parse_battle_roll(battle())
    assert roll.attacker == ((UnitType.INF, 8), (UnitType.ARM, 1), (UnitType.FTR, 2))
    assert roll.defender == ((UnitType.INF, 10), (UnitType.AA, 1))
    assert (roll.header.power, roll.header.comment, roll.battle) == (
        Power.UK,
        "Attack #1",
        "West Europe",
    )


@pytest.mark.parametrize("written", [" ussr ", "Russia", "soviet union", "USSR", "Russians"])
def test_the_ussr_by_any_name_is_recorded_as_ussr(written: str) -> None:
    """README, "Power names": one name per power in what is recorded; the others are read."""
    roll = parse_battle_roll(battle(country=written, battle="  Karelia S.S.R. "))
    assert (roll.header.power, roll.battle) == (Power.USSR, "Karelia S.S.R.")
    assert roll.record("x", lambda n: [6] * n)["country"] == "USSR"


@pytest.mark.parametrize(
    ("written", "power"),
    [("uk", Power.UK), ("United Kingdom", Power.UK), ("britain", Power.UK), ("us", Power.USA)],
)
def test_the_spellings_the_roller_took_before_still_resolve(written: str, power: Power) -> None:
    assert parse_battle_roll(battle(country=written)).header.power is power


def test_any_positive_round_and_turn_are_accepted() -> None:
    """IAAPA: "If you enter the wrong Round Number, simply continue the sequence with the
    next number." The roller does not police round or turn numbers."""
    roll = parse_battle_roll(battle(round=7, turn=40))
    assert (roll.header.round, roll.header.turn) == (7, 40)


@pytest.mark.parametrize(
    ("overrides", "field", "words"),
    [
        ({"attacker": [{"unit": "XYZ", "count": 1}]}, "attacker[0].unit", "unknown unit"),
        ({"attacker": [{"unit": "AA", "count": 1}]}, "attacker[0].unit", "only defend"),
        ({"attacker": [{"unit": "IC", "count": 1}]}, "attacker[0].unit", "unknown unit"),
        ({"attacker": [{"unit": "INF", "count": 0}]}, "attacker[0].count", "1 to 999"),
        ({"attacker": [{"unit": "INF", "count": -3}]}, "attacker[0].count", "1 to 999"),
        ({"attacker": [{"unit": "INF", "count": 1000}]}, "attacker[0].count", "1 to 999"),
        ({"attacker": [{"unit": "INF", "count": "3"}]}, "attacker[0].count", "1 to 999"),
        (
            {"attacker": [{"unit": "INF", "count": 1}, {"unit": "inf", "count": 2}]},
            "attacker[1].unit",
            "listed twice",
        ),
        ({"attacker": [{"unit": "INF"}]}, "attacker[0]", "must be"),
        ({"attacker": [], "defender": []}, "attacker", "list the attacking units"),
        (
            {"attacker": [], "defender": [], "options": ["defenders-only"]},
            "attacker",
            "no units on either side",
        ),
        ({"battle": "Atlantis Xyz"}, "battle", "'Atlantis Xyz' is not a known territory"),
        ({"defender": [{"unit": "AA", "count": 2}]}, "defender", "at most one AA"),
        ({"bombard": [{"unit": "INF", "count": 1}]}, "bombard[0].unit", "unknown unit"),
        ({"options": ["subs-first"]}, "options", "needs attacking SUBs"),
        ({"options": ["sneaky"]}, "options", "unknown option"),
        ({"options": "subs-first"}, "options", "list"),
        ({"round": 0}, "round", "1 to"),
        ({"turn": "2"}, "turn", "whole number"),
        ({"country": "Italy"}, "country", "unknown country"),
        ({"country": "Germny"}, "country", "unknown country"),
        ({"battle": "   "}, "battle", "must not be empty"),
        ({"battle": "x" * 101}, "battle", "at most 100"),
        ({"comment": "c" * 2001}, "comment", "at most 2000"),
        ({"battle": "West\x00Europe"}, "battle", "control characters"),
        ({"extra": 1}, "extra", "unknown field"),
        ({"attacker": [{"unit": "TRN", "count": 1}], "defender": []}, "attacker", "no dice"),
    ],
)
def test_bad_requests_name_the_field(overrides: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(InvalidRequest) as info:
        parse_battle_roll(battle(**overrides))
    assert info.value.field == field
    assert words in info.value.message


@pytest.mark.parametrize("missing", ["round", "turn", "country", "battle"])
def test_header_fields_are_required(missing: str) -> None:
    request = battle()
    del request[missing]
    with pytest.raises(InvalidRequest, match=f"{missing}: is required"):
        parse_battle_roll(request)


@pytest.mark.parametrize("value", [1.0, True, None, "\udc00", 2**60])
def test_values_outside_the_format_are_refused(value: Any) -> None:
    with pytest.raises(InvalidRequest):
        parse_battle_roll(battle(comment=value))


def test_not_an_object() -> None:
    with pytest.raises(InvalidRequest, match="JSON object"):
        parse_battle_roll([battle()])


def test_tech_roll_owned_technologies_by_any_known_name() -> None:
    owned = ["Jet Power", "Rockets", "Super Subs", "LRA", "industrial_technology", "HBMB"]
    roll = parse_tech_roll({**HEADER, "dice": 1, "owned": [*owned, "jets"]})
    assert roll.owned == tuple(Technology)
    assert (roll.dice, roll.declared) == (1, 1)


def test_tech_roll_states_declared_and_rolled() -> None:
    """IAAPA Error Correction IV: "if more dice are rolled, then the extra dice are ignored" -
    the entry must say how many were declared and how many rolled."""
    data = parse_tech_roll({**HEADER, "dice": 5, "declared": 3}).record("x", lambda n: [1] * n)
    assert (data["declared"], data["rolled"], data["breakthroughs"]) == (3, 5, 0)


def test_a_rocket_may_still_say_rockets_1() -> None:
    roll = parse_rocket_roll({**HEADER, "target": "UK", "from": "West Europe", "rockets": 1})
    assert roll.record("x", lambda n: [4] * n)["dice"] == [4]


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
        (parse_rocket_roll, {"target": "UK", "rockets": 10}, "rockets", "must be 1"),
        (parse_rocket_roll, {"target": "UK", "rockets": 2}, "rockets", "one rocket shot"),
        (parse_rocket_roll, {"target": "UK", "rockets": "1"}, "rockets", "must be 1"),
        (parse_rocket_roll, {}, "target", "is required"),
    ],
)
def test_refusals(
    parse: Callable[[Any], Any], payload: dict[str, Any], field: str, words: str
) -> None:
    with pytest.raises(InvalidRequest) as info:
        parse({**HEADER, **payload})
    assert info.value.field == field and words in info.value.message
