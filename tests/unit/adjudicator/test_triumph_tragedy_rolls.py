"""Triumph & Tragedy's rolls (:mod:`adjudicator.triumph_tragedy`): the request each kind reads
and refuses, the ledger entry it records, and its words in the mail.

The dice are fixed, so every expected value is worked by hand from the Unit Table
(firing order Fortress, Air Force, Carrier, Submarine, Fleet, Tank, Infantry; firepower
against A/N/G/S: Fortress 2/3/4/3, Air Force 3/1/1/1, Carrier 2/2/1/2, Submarine 0/1/0/1,
Fleet 1/3/1/2, Tank 0/0/2/0, Infantry 1/1/3/0) and the summary's combat procedure.
"""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.triumph_tragedy import (
    TT_DESCRIBE,
    TT_ROLL_KINDS,
    TT_SYSTEM,
    TT_UNIT_TABLE,
    TTCombatRound,
    TTRollError,
    TTTurnOrderRoll,
    describe_tt_combat,
    describe_tt_turn_order,
    tt_unit_type,
)
from tests.dice import PreparedDice, thrown_in_order


def only_json_basics(value: Any) -> bool:
    """Ints (never bools), strings, lists and dicts with string keys, all the way down."""
    if type(value) in (int, str):
        return True
    if isinstance(value, list):
        return all(only_json_basics(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and only_json_basics(v) for k, v in value.items())
    return False


def u(name: str, cv: int, target: str | None = None, **more: Any) -> dict[str, Any]:
    """One unit of a request."""
    unit: dict[str, Any] = {"unit": name, "cv": cv, **more}
    if target is not None:
        unit["target"] = target
    return unit


HEADER: dict[str, Any] = {
    "year": 1939,
    "season": "Fall",
    "area": "North Sea",
    "battle": "sea",
    "attacker": "Axis",
    "defender": "West",
}


def combat(
    attacking: list[dict[str, Any]], defending: list[dict[str, Any]], /, **more: Any
) -> dict[str, Any]:
    """A request: the header, these units, and ``more`` fields (replacing the header's)."""
    return {**HEADER, "units": {"attacker": attacking, "defender": defending}, **more}


def land(
    attacking: list[dict[str, Any]], defending: list[dict[str, Any]], /, **more: Any
) -> dict[str, Any]:
    return combat(attacking, defending, **{"battle": "land", "area": "Poland", **more})


def thrown(request: dict[str, Any], dice: list[int]) -> dict[str, Any]:
    return thrown_in_order(TTCombatRound.from_request(request), dice)


def acted(data: dict[str, Any]) -> list[tuple[str, int, list[int]]]:
    """Each group as (id, CV it fired with, dice)."""
    return [(g["id"], g["cv"], g["dice"]) for g in data["groups"]]


def after(data: dict[str, Any]) -> dict[str, int]:
    return {a["id"]: a["cv"] for side in ("attacker", "defender") for a in data["after"][side]}


def refused(request: dict[str, Any]) -> TTRollError:
    with pytest.raises(TTRollError) as caught:
        TTCombatRound.from_request(request)
    assert caught.value.problem
    assert isinstance(caught.value, ValueError)
    return caught.value


SEA = combat(
    [u("Fleet", 3, "N"), u("Carrier", 4, "N")],
    [u("Fleet", 3, "N"), u("Convoy", 2)],
    round=2,
    comment="for the Atlantic",
)

EXAMPLES: list[tuple[str, dict[str, Any], list[int]]] = [
    ("tt-combat-round", SEA, [1, 2, 3, 5, 1, 1, 4, 6]),
    ("tt-turn-order", {"year": 1939, "faction": "USSR", "comment": "go"}, [4]),
]
"""One request of each kind with dice it throws."""


class TestEveryKind:
    @pytest.mark.parametrize(("kind", "request_", "dice"), EXAMPLES)
    def test_the_entry_holds_the_dice_in_groups(
        self, kind: str, request_: dict[str, Any], dice: list[int]
    ) -> None:
        data = thrown_in_order(TT_ROLL_KINDS[kind].from_request(request_), dice)
        assert data["system"] == TT_SYSTEM == "triumph-and-tragedy"
        assert data["kind"] == kind
        assert (data["by"], data["sides"], data["year"]) == ("player@example.org", 6, 1939)
        assert [d for g in data["groups"] for d in g["dice"]] == dice
        assert only_json_basics(data)
        assert "comment" not in data
        assert "for the Atlantic" not in repr(data)

    @pytest.mark.parametrize(("kind", "request_", "dice"), EXAMPLES)
    def test_every_kind_reads_in_words(
        self, kind: str, request_: dict[str, Any], dice: list[int]
    ) -> None:
        data = thrown_in_order(TT_ROLL_KINDS[kind].from_request(request_), dice)
        lines = TT_DESCRIBE[kind](data)
        assert lines
        assert all(isinstance(line, str) and line for line in lines)
        assert lines[0].startswith("1939")

    def test_the_kinds_are_the_two_of_the_brief(self) -> None:
        names = {"tt-combat-round", "tt-turn-order"}
        assert set(TT_ROLL_KINDS) == set(TT_DESCRIBE) == names
        assert TT_ROLL_KINDS["tt-combat-round"] is TTCombatRound
        assert TT_DESCRIBE["tt-turn-order"] is describe_tt_turn_order
        with pytest.raises(TypeError):
            TT_ROLL_KINDS["x"] = TTCombatRound  # type: ignore[index]

    @pytest.mark.parametrize(("kind", "request_", "dice"), EXAMPLES)
    @pytest.mark.parametrize(
        ("change", "field"),
        [
            ({"year": 1935}, "year"),
            ({"year": 1946}, "year"),
            ({"year": True}, "year"),
            ({"year": "1939"}, "year"),
            ({"comment": "x" * 2001}, "comment"),
            ({"comment": 5}, "comment"),
            ({"colour": "red"}, "colour"),
        ],
    )
    def test_the_header_is_checked(
        self,
        kind: str,
        request_: dict[str, Any],
        dice: list[int],
        change: dict[str, Any],
        field: str,
    ) -> None:
        with pytest.raises(TTRollError) as caught:
            TT_ROLL_KINDS[kind].from_request({**request_, **change})
        assert caught.value.field == field
        assert caught.value.problem

    def test_a_missing_year_is_refused(self) -> None:
        with pytest.raises(TTRollError) as caught:
            TTTurnOrderRoll.from_request({"faction": "Axis"})
        assert caught.value.field == "year"

    def test_bad_dice_from_the_source_are_not_read(self) -> None:
        roll = TTTurnOrderRoll.from_request({"year": 1936, "faction": "Axis"})
        with pytest.raises(ValueError, match="six-sided"):
            roll.record("x", lambda n: [7])
        with pytest.raises(ValueError, match="six-sided"):
            roll.record("x", lambda n: [])


class TestUnitTable:
    def test_the_firing_order_and_the_convoy_last(self) -> None:
        assert [row.name for row in TT_UNIT_TABLE] == [
            "Fortress",
            "Air Force",
            "Carrier",
            "Submarine",
            "Fleet",
            "Tank",
            "Infantry",
            "Convoy",
        ]
        assert [row.fires for row in TT_UNIT_TABLE] == [1] * 7 + [0]

    def test_the_firepower(self) -> None:
        table = {row.name: (row.unit_class, row.firepower) for row in TT_UNIT_TABLE}
        assert table == {
            "Fortress": ("G", (2, 3, 4, 3)),
            "Air Force": ("A", (3, 1, 1, 1)),
            "Carrier": ("N", (2, 2, 1, 2)),
            "Submarine": ("S", (0, 1, 0, 1)),
            "Fleet": ("N", (1, 3, 1, 2)),
            "Tank": ("G", (0, 0, 2, 0)),
            "Infantry": ("G", (1, 1, 3, 0)),
            "Convoy": ("N", (0, 0, 0, 0)),
        }

    def test_only_the_submarine_is_marked_doubtful(self) -> None:
        doubtful = [row.name for row in TT_UNIT_TABLE if row.doubtful]
        assert doubtful == ["Submarine"]
        assert "N2" in TT_UNIT_TABLE[3].doubtful

    @pytest.mark.parametrize(
        ("written", "name"),
        [
            ("AF", "Air Force"),
            ("air", "Air Force"),
            ("airforce", "Air Force"),
            ("AIR FORCE", "Air Force"),
            ("sub", "Submarine"),
            ("fort", "Fortress"),
            ("inf", "Infantry"),
            ("armor", "Tank"),
            ("armour", "Tank"),
            ("fleet", "Fleet"),
            ("  Carrier ", "Carrier"),
            ("convoy", "Convoy"),
        ],
    )
    def test_names_and_aliases(self, written: str, name: str) -> None:
        row = tt_unit_type(written)
        assert row is not None and row.name == name

    def test_an_unknown_name(self) -> None:
        assert tt_unit_type("Battleship") is None

    def test_aliases_are_recorded_by_their_canonical_name(self) -> None:
        data = thrown(
            land(
                [u("armour", 1, "ground"), u("AF", 1, "air", **{"class": "air"})],
                [u("inf", 1, "G"), u("af", 1)],
            ),
            [6, 6, 6],
        )
        units = data["units"]
        assert [(x["unit"], x["class"]) for x in units["attacker"]] == [
            ("Tank", "G"),
            ("Air Force", "A"),
        ]
        assert [x.get("target") for x in units["attacker"]] == ["G", "A"]
        assert [x["unit"] for x in units["defender"]] == ["Infantry", "Air Force"]


class TestCombatRefusals:
    @pytest.mark.parametrize(
        ("change", "field"),
        [
            ({"weather": "fog"}, "weather"),
            ({"season": "Autumn"}, "season"),
            ({"season": None}, "season"),
            ({"area": ""}, "area"),
            ({"area": "North\nSea"}, "area"),
            ({"area": "x" * 61}, "area"),
            ({"area": 7}, "area"),
            ({"battle": "air"}, "battle"),
            ({"round": 0}, "round"),
            ({"round": 100}, "round"),
            ({"round": 1.0}, "round"),
            ({"attacker": "Japan"}, "attacker"),
            ({"attacker": "Neutral"}, "attacker"),
            ({"defender": "Axis"}, "defender"),
            ({"defender": "Allies"}, "defender"),
            ({"units": []}, "units"),
            ({"units": {"attacker": [u("Fleet", 1, "N")]}}, "units.defender"),
            ({"units": {"attacker": [], "defender": [u("Fleet", 1)]}}, "units.attacker"),
            (
                {"units": {"attacker": [u("Fleet", 1)], "defender": [u("Fleet", 1)], "x": []}},
                "units.x",
            ),
            ({"first_fire": ["Tank"]}, "first_fire"),
            ({"first_fire": {"neutral": []}}, "first_fire.neutral"),
            ({"first_fire": {"attacker": "Tank"}}, "first_fire.attacker"),
            ({"first_fire": {"attacker": ["Fleet", "Battleship"]}}, "first_fire.attacker[1]"),
            ({"first_fire": {"defender": ["Convoy"]}}, "first_fire.defender[0]"),
            ({"declarer_first_fire": 2}, "declarer_first_fire"),
            ({"declarer_first_fire": True}, "declarer_first_fire"),
        ],
    )
    def test_the_round_is_checked(self, change: dict[str, Any], field: str) -> None:
        assert refused({**SEA, **change}).field == field

    @pytest.mark.parametrize(
        "missing", ["year", "season", "area", "battle", "attacker", "defender", "units"]
    )
    def test_a_missing_field_is_refused(self, missing: str) -> None:
        request = {k: v for k, v in SEA.items() if k != missing}
        assert refused(request).field == missing

    def test_a_land_battle_has_one_round_per_turn(self) -> None:
        error = refused(land([u("Tank", 2, "G")], [u("Infantry", 2, "G")], round=2))
        assert error.field == "round"
        assert "only one combat round per battle per turn" in error.problem

    def test_a_land_battle_may_say_round_one(self) -> None:
        roll = TTCombatRound.from_request(land([u("Tank", 2, "G")], [u("Infantry", 2)], round=1))
        assert roll.round == 1

    def test_only_the_ussr_attacks_in_winter(self) -> None:
        assert refused({**SEA, "season": "Winter"}).field == "attacker"
        roll = TTCombatRound.from_request(
            land([u("Infantry", 2, "G")], [u("Infantry", 1)], season="winter", attacker="USSR")
        )
        assert (roll.season, roll.attacker) == ("Winter", "USSR")

    def test_more_than_twenty_units_a_side(self) -> None:
        many = [u("Fleet", 1)] * 21
        assert refused(combat(many, [u("Fleet", 1)])).field == "units.attacker"
        assert TTCombatRound.from_request(combat(many[:20], [u("Fleet", 1)]))

    @pytest.mark.parametrize(
        ("unit", "field"),
        [
            ("Fleet", "units.attacker[1]"),
            ({"cv": 2}, "units.attacker[1].unit"),
            ({"unit": 5, "cv": 2}, "units.attacker[1].unit"),
            ({"unit": "Battleship", "cv": 2}, "units.attacker[1].unit"),
            ({"unit": "Fleet"}, "units.attacker[1].cv"),
            (u("Fleet", 0), "units.attacker[1].cv"),
            (u("Fleet", 5), "units.attacker[1].cv"),
            (u("Fleet", True), "units.attacker[1].cv"),
            (u("Fleet", "3"), "units.attacker[1].cv"),  # type: ignore[arg-type]
            (u("Fleet", 2, **{"class": "S"}), "units.attacker[1].class"),
            (u("Submarine", 2, **{"class": "N"}), "units.attacker[1].class"),
            (u("Fleet", 2, **{"class": 3}), "units.attacker[1].class"),
            (u("Fleet", 2, "X"), "units.attacker[1].target"),
            (u("Fleet", 2, 1), "units.attacker[1].target"),  # type: ignore[arg-type]
            (u("Fleet", 2, "N", speed=3), "units.attacker[1].speed"),
            (u("Fleet", 2, "N", scoot=1), "units.attacker[1].scoot"),
            (u("Carrier", 2, "A", scoot=1), "units.attacker[1].scoot"),
            (u("Carrier", 2, scoot=1), "units.attacker[1].scoot"),
            (u("Carrier", 2, "N", scoot=2), "units.attacker[1].scoot"),
            (u("Fortress", 2), "units.attacker[1].unit"),
        ],
    )
    def test_a_unit_is_checked(self, unit: Any, field: str) -> None:
        request = combat([u("Fleet", 3, "N"), unit], [u("Fleet", 3, "N"), u("Air Force", 1)])
        assert refused(request).field == field

    def test_a_fortress_never_fights_at_sea_but_may_on_land(self) -> None:
        assert "at sea" in refused(combat([u("Fleet", 1)], [u("Fortress", 1)])).problem
        assert TTCombatRound.from_request(land([u("Infantry", 1, "G")], [u("Fortress", 1, "G")]))

    def test_naval_and_air_units_may_be_in_a_land_battle(self) -> None:
        request = land(
            [u("Fleet", 2, "G"), u("Submarine", 1), u("Carrier", 2, "G"), u("Air Force", 1, "G")],
            [u("Infantry", 2, "N"), u("Convoy", 1)],
        )
        assert TTCombatRound.from_request(request)

    def test_a_convoy_gets_no_combat_action(self) -> None:
        error = refused(combat([u("Convoy", 2, "N")], [u("Fleet", 1)]))
        assert error.field == "units.attacker[0].target"
        assert "Convoys get no combat action" in error.problem

    def test_a_target_the_unit_cannot_fire_at(self) -> None:
        error = refused(land([u("Tank", 2, "N")], [u("Fleet", 1), u("Infantry", 1)]))
        assert error.field == "units.attacker[0].target"
        assert "it fires at G only" in error.problem
        error = refused(combat([u("Fleet", 1)], [u("Submarine", 1, "A")]))
        assert error.field == "units.defender[0].target"
        assert "N, S" in error.problem

    def test_a_target_class_the_enemy_has_none_of(self) -> None:
        error = refused(combat([u("Fleet", 2, "S")], [u("Fleet", 2), u("Carrier", 2)]))
        assert error.field == "units.attacker[0].target"
        assert "no unit of class S" in error.problem
        error = refused(combat([u("Fleet", 2)], [u("Fleet", 2), u("Fleet", 2, "A")]))
        assert error.field == "units.defender[1].target"

    def test_the_target_may_be_a_word(self) -> None:
        roll = TTCombatRound.from_request(
            combat([u("Fleet", 2, "sub")], [u("Submarine", 1, "naval")])
        )
        assert [x.target for x in roll.units["attacker"] + roll.units["defender"]] == ["S", "N"]

    def test_neutral_fortresses_target_ground_units_first(self) -> None:
        request = land(
            [u("Infantry", 2, "G"), u("Air Force", 2, "G")],
            [u("Fortress", 2, "G"), u("Fortress", 1, "A")],
            defender="Neutral",
        )
        error = refused(request)
        assert error.field == "units.defender[1].target"
        assert "neutral Fortresses target Ground units first" in error.problem

    def test_a_neutral_fortress_may_fire_at_air_without_ground_units(self) -> None:
        request = land([u("Air Force", 2, "G")], [u("Fortress", 2, "A")], defender="Neutral")
        assert TTCombatRound.from_request(request)

    def test_a_west_fortress_may_fire_at_air(self) -> None:
        request = land([u("Infantry", 2, "G"), u("Air Force", 2)], [u("Fortress", 2, "A")])
        assert TTCombatRound.from_request(request)

    def test_a_neutral_fights_with_fortresses_only(self) -> None:
        request = land([u("Infantry", 2, "G")], [u("Infantry", 2, "G")], defender="Neutral")
        assert refused(request).field == "units.defender[0].unit"

    def test_faction_and_season_words_in_any_case(self) -> None:
        roll = TTCombatRound.from_request(
            {**SEA, "attacker": "ussr", "defender": "west", "season": "SPRING", "battle": "Sea"}
        )
        assert (roll.attacker, roll.defender, roll.season, roll.battle) == (
            "USSR",
            "West",
            "Spring",
            "sea",
        )


class TestCombatResolution:
    def test_the_unit_tables_order_defender_first_within_a_type(self) -> None:
        """Listed out of order on purpose: Infantry, Tank, Air Force, Fortress."""
        request = land(
            [u("Infantry", 1, "G"), u("Tank", 1, "G"), u("Air Force", 1, "A")],
            [u("Infantry", 1, "G"), u("Tank", 1, "G"), u("Air Force", 1, "A"), u("Fortress", 1)],
        )
        data = thrown(request, [6, 6, 6, 6, 6, 6])
        assert [g["id"] for g in data["groups"]] == ["D3", "A3", "D2", "A2", "D1", "A1"]
        assert data["not_acting"] == [{"side": "defender", "id": "D4", "why": "does not fire"}]

    def test_within_one_side_and_type_as_listed(self) -> None:
        request = combat(
            [u("Fleet", 1, "N"), u("Fleet", 2, "N")],
            [u("Fleet", 1, "N"), u("Fleet", 1, "N"), u("Fleet", 1, "N")],
        )
        data = thrown(request, [6] * 6)
        assert [g["id"] for g in data["groups"]] == ["D1", "D2", "D3", "A1", "A2"]

    def test_first_fire_puts_the_attacker_first_for_that_type_only(self) -> None:
        request = land(
            [u("Tank", 1, "G"), u("Infantry", 1, "G")],
            [u("Tank", 1, "G"), u("Infantry", 1, "G")],
            first_fire={"attacker": ["tank"]},
        )
        data = thrown(request, [6, 6, 6, 6])
        assert [(g["id"], g["first_fire"]) for g in data["groups"]] == [
            ("A1", 1),
            ("D1", 0),
            ("D2", 0),
            ("A2", 0),
        ]
        assert data["first_fire"] == {"attacker": ["Tank"], "defender": []}

    def test_first_fire_on_both_sides_is_negated(self) -> None:
        request = land(
            [u("Tank", 1, "G")],
            [u("Tank", 1, "G")],
            first_fire={"attacker": ["Tank"], "defender": ["Tank"]},
        )
        data = thrown(request, [6, 6])
        assert [(g["id"], g["first_fire"]) for g in data["groups"]] == [("D1", 0), ("A1", 0)]

    def test_defender_first_fire_is_recorded_and_changes_nothing(self) -> None:
        request = land([u("Tank", 1, "G")], [u("Tank", 1, "G")], first_fire={"defender": ["Tank"]})
        data = thrown(request, [6, 6])
        assert [(g["id"], g["first_fire"]) for g in data["groups"]] == [("D1", 1), ("A1", 0)]

    def test_declarer_first_fire_covers_the_attackers_types(self) -> None:
        request = land(
            [u("Infantry", 1, "G"), u("Tank", 1, "G"), u("Air Force", 1, "G")],
            [u("Infantry", 1, "G"), u("Tank", 1, "G"), u("Air Force", 1, "G")],
            declarer_first_fire=1,
            first_fire={"defender": ["Tank"], "attacker": ["Fleet"]},
        )
        data = thrown(request, [6] * 6)
        assert data["first_fire"] == {
            "attacker": ["Air Force", "Fleet", "Tank", "Infantry"],
            "defender": ["Tank"],
        }
        assert [g["id"] for g in data["groups"]] == ["A3", "D3", "D2", "A2", "A1", "D1"]

    def test_a_hit_reduces_the_strongest_of_the_class(self) -> None:
        request = combat(
            [u("Fleet", 2, "N")],
            [u("Fleet", 1), u("Fleet", 3), u("Fleet", 3), u("Submarine", 4)],
        )
        data = thrown(request, [1, 1])
        assert data["groups"][0]["reductions"] == [
            {"id": "D2", "unit": "Fleet", "from": 3, "to": 2},
            {"id": "D3", "unit": "Fleet", "from": 3, "to": 2},
        ]
        assert after(data) == {"A1": 2, "D1": 1, "D2": 2, "D3": 2, "D4": 4}

    def test_excess_hits_are_ignored(self) -> None:
        request = land([u("Infantry", 4, "G")], [u("Infantry", 1), u("Tank", 1)])
        data = thrown(request, [1, 2, 3, 4])
        group = data["groups"][0]
        assert (group["hits"], group["excess"]) == (3, 1)
        assert [r["id"] for r in group["reductions"]] == ["D1", "D2"]
        assert data["eliminated"] == ["D1", "D2"]
        assert after(data) == {"A1": 4, "D1": 0, "D2": 0}

    def test_a_unit_eliminated_before_it_acts_has_no_group(self) -> None:
        request = land([u("Air Force", 2, "G")], [u("Infantry", 1, "A"), u("Infantry", 1)])
        data = thrown(request, [1, 6])
        assert acted(data) == [("A1", 2, [1, 6])]
        assert data["not_acting"] == [
            {"side": "defender", "id": "D1", "why": "eliminated before it acted"},
            {"side": "defender", "id": "D2", "why": "does not fire"},
        ]
        assert data["eliminated"] == ["D1"]
        assert after(data) == {"A1": 2, "D1": 0, "D2": 1}

    def test_a_unit_reduced_before_it_acts_rolls_fewer_dice(self) -> None:
        request = land([u("Air Force", 3, "G")], [u("Infantry", 4, "A")])
        dice = PreparedDice([1, 1, 6, 2, 5])
        data = TTCombatRound.from_request(request).record("me", dice)
        assert dice.calls == [3, 2]
        assert acted(data) == [("A1", 3, [1, 1, 6]), ("D1", 2, [2, 5])]
        assert after(data) == {"A1": 3, "D1": 2}

    def test_carriers_and_convoys_lose_two_cv_per_hit(self) -> None:
        request = combat(
            [u("Fleet", 3, "N")],
            [u("Carrier", 3), u("Convoy", 1)],
        )
        data = thrown(request, [2, 2, 2])
        assert data["groups"][0]["reductions"] == [
            {"id": "D1", "unit": "Carrier", "from": 3, "to": 1},
            {"id": "D1", "unit": "Carrier", "from": 1, "to": 0},
            {"id": "D2", "unit": "Convoy", "from": 1, "to": 0},
        ]
        assert data["eliminated"] == ["D1", "D2"]
        assert data["not_acting"] == [
            {"side": "defender", "id": "D1", "why": "does not fire"},
            {"side": "defender", "id": "D2", "why": "does not fire"},
        ]

    def test_a_convoy_never_acts_even_when_sunk(self) -> None:
        data = thrown(combat([u("Fleet", 1, "N")], [u("Convoy", 2)]), [1])
        assert data["not_acting"] == [{"side": "defender", "id": "D1", "why": "does not fire"}]

    def test_a_scooting_carrier_fires_at_n1_and_leaves(self) -> None:
        request = combat(
            [u("Fleet", 3, "N")],
            [u("Carrier", 2, "N", scoot=1), u("Fleet", 1)],
        )
        data = thrown(request, [2, 1, 1, 1])
        carrier = data["groups"][0]
        assert (carrier["id"], carrier["hit_on"], carrier["hits"], carrier["scoot"]) == (
            "D1",
            1,
            1,
            1,
        )
        assert carrier["reductions"] == [{"id": "A1", "unit": "Fleet", "from": 3, "to": 2}]
        fleet = data["groups"][1]
        assert (fleet["id"], fleet["cv"], fleet["hits"], fleet["excess"]) == ("A1", 2, 2, 1)
        assert fleet["reductions"] == [{"id": "D2", "unit": "Fleet", "from": 1, "to": 0}]
        assert after(data) == {"A1": 2, "D1": 2, "D2": 0}
        assert data["units"]["defender"][0]["scoot"] == 1
        assert "scoot" not in data["groups"][1]

    def test_a_target_gone_by_the_time_the_unit_acts(self) -> None:
        """The announced class stands: the unit rolls, and its hits are excess."""
        request = land(
            [u("Air Force", 1, "G"), u("Infantry", 1, "G")],
            [u("Infantry", 1), u("Air Force", 1)],
        )
        data = thrown(request, [1, 1])
        assert acted(data) == [("A1", 1, [1]), ("A2", 1, [1])]
        assert data["groups"][0]["reductions"] == [
            {"id": "D1", "unit": "Infantry", "from": 1, "to": 0}
        ]
        assert (data["groups"][1]["hits"], data["groups"][1]["excess"]) == (1, 1)
        assert data["groups"][1]["reductions"] == []
        assert after(data) == {"A1": 1, "A2": 1, "D1": 0, "D2": 1}

    def test_the_entry_shape(self) -> None:
        data = thrown(SEA, [1, 2, 3, 5, 1, 1, 4, 6])
        assert only_json_basics(data)
        assert list(data) == [
            "system",
            "kind",
            "by",
            "sides",
            "year",
            "season",
            "area",
            "battle",
            "round",
            "attacker",
            "defender",
            "first_fire",
            "units",
            "groups",
            "not_acting",
            "dice",
            "after",
            "eliminated",
        ]
        assert data["units"] == {
            "attacker": [
                {"id": "A1", "unit": "Fleet", "class": "N", "cv": 3, "target": "N"},
                {"id": "A2", "unit": "Carrier", "class": "N", "cv": 4, "target": "N"},
            ],
            "defender": [
                {"id": "D1", "unit": "Fleet", "class": "N", "cv": 3, "target": "N"},
                {"id": "D2", "unit": "Convoy", "class": "N", "cv": 2},
            ],
        }
        assert [d for g in data["groups"] for d in g["dice"]] == data["dice"]
        for g in data["groups"]:
            assert set(g) == {
                "side",
                "id",
                "unit",
                "cv",
                "target",
                "hit_on",
                "first_fire",
                "dice",
                "hits",
                "reductions",
                "excess",
            }
            assert g["hits"] == sum(1 for d in g["dice"] if d <= g["hit_on"])
            assert len(g["dice"]) == g["cv"]
            assert g["hits"] == len(g["reductions"]) + g["excess"]
        assert data["round"] == 2
        assert data["eliminated"] == ["D2"]

    def test_the_combat_reads_in_words(self) -> None:
        data = thrown(SEA, [1, 2, 3, 5, 1, 1, 4, 6])
        assert describe_tt_combat(data) == [
            "1939 Fall, sea battle in North Sea, round 2: Axis attacks West.",
            "Axis Carrier A2 (CV 4) fires at N, hit on 2 or less: 1 2 3 5 -> 2 hit(s): "
            "West Fleet D1 3 -> 2, West Fleet D1 2 -> 1.",
            "West Fleet D1 (CV 1) fires at N, hit on 3 or less: 1 -> 1 hit(s): "
            "Axis Carrier A2 4 -> 2.",
            "Axis Fleet A1 (CV 3) fires at N, hit on 3 or less: 1 4 6 -> 1 hit(s): "
            "West Convoy D2 2 -> 0.",
            "West Convoy D2 does not fire.",
            "After the round: Axis A1 Fleet CV 3, A2 Carrier CV 2; "
            "West D1 Fleet CV 1, D2 Convoy eliminated.",
        ]

    def test_words_for_first_fire_excess_scoot_and_elimination(self) -> None:
        request = combat(
            [u("Carrier", 2, "N", scoot=1), u("Fleet", 1)],
            [u("Fleet", 1, "N")],
            first_fire={"attacker": ["Carrier"]},
        )
        data = thrown(request, [1, 1])
        lines = describe_tt_combat(data)
        assert lines[1] == "Axis has First Fire for: Carrier."
        assert lines[2] == (
            "Axis Carrier A1 (CV 2) (First Fire) fires at N, hit on 1 or less: 1 1 -> 2 hit(s): "
            "West Fleet D1 1 -> 0; 1 excess hit(s) ignored. The Carrier fired at N1 and "
            "immediately retreats/rebases."
        )
        assert "West Fleet D1 was eliminated before it acted." in lines
        assert "Axis Fleet A2 does not fire." in lines
        assert (
            lines[-1]
            == "After the round: Axis A1 Carrier CV 2, A2 Fleet CV 1; West D1 Fleet eliminated."
        )


class TestTurnOrder:
    def test_one_die(self) -> None:
        data = thrown_in_order(TTTurnOrderRoll.from_request({"year": 1941, "faction": "west"}), [4])
        assert data == {
            "system": "triumph-and-tragedy",
            "kind": "tt-turn-order",
            "by": "player@example.org",
            "sides": 6,
            "year": 1941,
            "faction": "West",
            "dice": [4],
            "groups": [{"roll": "turn order", "dice": [4]}],
            "die": 4,
        }
        assert describe_tt_turn_order(data) == [
            "1941, Year Start Phase: West rolls 1d6 to determine the turn order.",
            "The die is 4: set the turn order by the arrows on the map board for a 4.",
        ]

    @pytest.mark.parametrize(
        ("change", "field"),
        [
            ({"faction": "Neutral"}, "faction"),
            ({"faction": None}, "faction"),
            ({"side": "Axis"}, "side"),
        ],
    )
    def test_refusals(self, change: dict[str, Any], field: str) -> None:
        with pytest.raises(TTRollError) as caught:
            TTTurnOrderRoll.from_request({"year": 1936, "faction": "Axis", **change})
        assert caught.value.field == field

    def test_a_missing_faction(self) -> None:
        with pytest.raises(TTRollError) as caught:
            TTTurnOrderRoll.from_request({"year": 1936})
        assert caught.value.field == "faction"
