"""Battle-roll requests: what is thrown, in what order, and every refusal.

IAAPA "Using the Dice Server": "carefully and correctly enter all header information and
the exact number and types of attacking and defending units"; Error Correction III: "the
IAAPA Dice Server lists the dice in the order that they were thrown ... The die rolls will
be counted from left to right".
"""

from __future__ import annotations

from typing import Any

import pytest

from dice_server.errors import InvalidRequest
from dice_server.rollspec import parse_battle_roll
from tests.conftest import battle


def fixed(values: list[int]) -> Any:
    def draw(n: int) -> list[int]:
        assert n == len(values), f"asked for {n} dice, prepared {len(values)}"
        return list(values)

    return draw


def test_aa_fires_first_one_die_per_aircraft_then_attackers_then_defenders() -> None:
    roll = parse_battle_roll(
        battle(
            attacker=[
                {"unit": "INF", "count": 2},
                {"unit": "FTR", "count": 2},
                {"unit": "BMB", "count": 1},
            ],
            defender=[{"unit": "INF", "count": 3}, {"unit": "AA", "count": 1}],
        )
    )
    # 2 AA vs FTR, 1 AA vs BMB, 2 INF, 2 FTR, 1 BMB, 3 defending INF.
    data = roll.record("p@x.org", fixed([1, 2, 1, 1, 2, 3, 4, 4, 5, 2, 3]))
    labels = [(g["side"], g["unit"], g.get("target")) for g in data["groups"]]
    assert labels == [
        ("defender", "AA", "FTR"),
        ("defender", "AA", "BMB"),
        ("attacker", "INF", None),
        ("attacker", "FTR", None),
        ("attacker", "BMB", None),
        ("defender", "INF", None),
    ]
    assert [g["dice"] for g in data["groups"]] == [[1, 2], [1], [1, 2], [3, 4], [4], [5, 2, 3]]
    # AA hits on 1: two; INF hit on 1: one; FTR on 3: one; BMB on 4: one; defending INF on 2: one.
    assert [g["hits"] for g in data["groups"]] == [1, 1, 1, 1, 1, 1]
    assert data["hits"] == {"attacker": 3, "defender": 3}
    assert data["dice"] == [1, 2, 1, 1, 2, 3, 4, 4, 5, 2, 3]


def test_combat_values_of_the_second_edition() -> None:
    units = ["INF", "ARM", "FTR", "BMB", "SUB", "AC", "BB"]
    attack = parse_battle_roll(
        battle(attacker=[{"unit": u, "count": 1} for u in units], defender=[])
    )
    assert [g["hit_on"] for g in attack.record("x", fixed([6] * 7))["groups"]] == [
        1,
        3,
        3,
        4,
        2,
        1,
        4,
    ]
    defend = parse_battle_roll(
        battle(attacker=[], defender=[{"unit": u, "count": 1} for u in [*units, "TRN"]])
    )
    assert [g["hit_on"] for g in defend.record("x", fixed([6] * 8))["groups"]] == [
        2,
        2,
        4,
        1,
        2,
        3,
        4,
        1,
    ]


def test_attacking_transports_throw_nothing_but_are_recorded() -> None:
    roll = parse_battle_roll(
        battle(
            attacker=[{"unit": "TRN", "count": 2}, {"unit": "BB", "count": 1}],
            defender=[{"unit": "SUB", "count": 1}],
        )
    )
    data = roll.record("x", fixed([4, 2]))
    assert [g["unit"] for g in data["groups"]] == ["BB", "SUB"]
    assert {"unit": "TRN", "count": 2} in data["attacker"]


def test_bombard_shots_come_before_the_attack_and_hit_on_four() -> None:
    roll = parse_battle_roll(battle(bombard=[{"unit": "BB", "count": 2}], defender=[]))
    data = roll.record("x", fixed([4, 5, 1, 1, 1, 1, 1, 1, 1, 1, 6, 6, 6]))
    first = data["groups"][0]
    assert (first["unit"], first["fire"], first["dice"], first["hits"]) == (
        "BB",
        "bombard",
        [4, 5],
        1,
    )


def test_subs_first_throws_only_the_attacking_subs() -> None:
    roll = parse_battle_roll(
        battle(
            battle="Baltic Sea Zone",
            attacker=[{"unit": "SUB", "count": 2}, {"unit": "FTR", "count": 1}],
            defender=[{"unit": "TRN", "count": 1}, {"unit": "BB", "count": 1}],
            options=["subs-first"],
        )
    )
    data = roll.record("x", fixed([2, 3]))
    assert [(g["side"], g["unit"]) for g in data["groups"]] == [("attacker", "SUB")]
    assert data["hits"] == {"attacker": 1, "defender": 0}


def test_defenders_only_mode_throws_only_the_defence() -> None:
    roll = parse_battle_roll(battle(options=["defenders-only"]))
    data = roll.record("x", fixed([1] * 12))
    assert {g["side"] for g in data["groups"]} == {"defender"}
    # The AA still fires at the two listed fighters: it belongs to the defence.
    assert [g["unit"] for g in data["groups"]] == ["AA", "INF"]
    assert data["hits"] == {"attacker": 0, "defender": 12}


def test_technology_options() -> None:
    roll = parse_battle_roll(
        battle(
            attacker=[{"unit": "BMB", "count": 2}, {"unit": "SUB", "count": 1}],
            defender=[{"unit": "FTR", "count": 1}],
            options=["heavy-bombers", "super-subs", "jet-fighters"],
        )
    )
    data = roll.record("x", fixed([4, 4, 4, 5, 5, 5, 3, 5]))
    bmb, sub, ftr = data["groups"]
    assert (bmb["dice"], bmb["hits"]) == ([4, 4, 4, 5, 5, 5], 3)
    assert (sub["hit_on"], sub["hits"]) == (3, 1)
    assert (ftr["hit_on"], ftr["hits"]) == (5, 1)


def test_header_is_normalized() -> None:
    roll = parse_battle_roll(battle(country=" ussr ", battle="  Karelia S.S.R. "))
    assert (roll.country, roll.battle) == ("Russia", "Karelia S.S.R.")


def test_any_positive_round_and_turn_are_accepted() -> None:
    """IAAPA: "If you enter the wrong Round Number, simply continue the sequence with the
    next number." The roller does not police round or turn numbers."""
    roll = parse_battle_roll(battle(round=7, turn=40))
    assert (roll.round, roll.turn) == (7, 40)


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
        ({"attacker": [], "defender": []}, "attacker", "no units on either side"),
        ({"defender": [{"unit": "AA", "count": 2}]}, "defender", "at most one AA"),
        ({"bombard": [{"unit": "INF", "count": 1}]}, "bombard[0].unit", "unknown unit"),
        ({"options": ["subs-first"]}, "options", "needs attacking SUBs"),
        ({"options": ["sneaky"]}, "options", "unknown option"),
        ({"options": "subs-first"}, "options", "list"),
        ({"round": 0}, "round", "1 to"),
        ({"turn": "2"}, "turn", "whole number"),
        ({"country": "Italy"}, "country", "unknown country"),
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
