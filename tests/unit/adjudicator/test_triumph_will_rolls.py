"""Triumph of the Will's rolls (:mod:`adjudicator.triumph_will`): the request each kind reads
and refuses, the ledger entry it records, and its words in the mail.

The dice are fixed, so every expected value is worked by hand from the rule text:
10.6 "High rolls win; the defender wins ties", 10.7's modifiers (attacking tank/panzer +1,
6th SS attacking +2, Kido Butai +1, air support +1 per army in the box), 5.5's air
superiority, 5.12's rebellion (six or more, +1 per adjacent rebellion) and 11.2's blast
marker on one through five.
"""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.triumph_will import (
    WILL_DESCRIBE,
    WILL_ROLL_KINDS,
    WillAirRoll,
    WillAtomicRoll,
    WillBattleRoll,
    WillRebellionRoll,
    WillRollError,
    describe_will_air,
    describe_will_atomic,
    describe_will_battle,
    describe_will_rebellion,
)
from adjudicator.triumph_will.battle import WillBattleUnit, WillUnit, _carry_air, _rearrange
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


def box(attacker: list[str], defender: list[str], air: int = 0) -> dict[str, Any]:
    return {
        "attacker": [{"unit": k} for k in attacker],
        "defender": [{"unit": k} for k in defender],
        "air": air,
    }


def battle(boxes: list[dict[str, Any]], **more: Any) -> WillBattleRoll:
    request = {"turn": 2, "side": "German", "boxes": boxes, **more}
    return WillBattleRoll.from_request(request)


def totals(data: dict[str, Any]) -> list[tuple[int, int, int, int, str]]:
    """Each match-up as (round, box, attacker total, defender total, eliminated)."""
    return [
        (g["round"], g["box"], g["attacker"]["total"], g["defender"]["total"], g["eliminated"])
        for g in data["groups"]
    ]


HEADER = {"turn": 7, "side": "Japanese", "comment": "for the Urals"}

EXAMPLES: list[tuple[str, dict[str, Any], list[int]]] = [
    (
        "will-battle-roll",
        {**HEADER, "boxes": [box(["panzer"], ["infantry"])], "area": "Russia"},
        [2, 3],
    ),
    ("will-air-roll", {**HEADER, "german_hq": 1, "japanese_hq": 2}, [4, 1, 2]),
    ("will-rebel-roll", {**HEADER, "area": "Brasil", "adjacent_rebellions": 1}, [5, 2]),
    ("will-atomic-roll", {**HEADER, "target": "fleet", "area": "North Atlantic"}, [6]),
]
"""One request of each kind with dice it throws."""


class TestEveryKind:
    @pytest.mark.parametrize(("kind", "request_", "dice"), EXAMPLES)
    def test_the_entry_holds_the_dice_in_groups(
        self, kind: str, request_: dict[str, Any], dice: list[int]
    ) -> None:
        data = thrown_in_order(WILL_ROLL_KINDS[kind].from_request(request_), dice)
        assert data["system"] == "triumph-of-the-will"
        assert data["kind"] == kind
        assert (data["by"], data["sides"], data["turn"], data["side"]) == (
            "player@example.org",
            6,
            7,
            "Japanese",
        )
        assert data["dice"] == dice
        assert [d for g in data["groups"] for d in g["dice"]] == dice
        assert only_json_basics(data)
        assert "comment" not in data
        assert "for the Urals" not in repr(data)

    @pytest.mark.parametrize(("kind", "request_", "dice"), EXAMPLES)
    def test_every_kind_reads_in_words(
        self, kind: str, request_: dict[str, Any], dice: list[int]
    ) -> None:
        data = thrown_in_order(WILL_ROLL_KINDS[kind].from_request(request_), dice)
        lines = WILL_DESCRIBE[kind](data)
        assert lines
        assert all(isinstance(line, str) and line for line in lines)
        assert lines[0].startswith("Turn 7")

    def test_the_kinds_are_the_four_of_the_issue(self) -> None:
        names = {"will-battle-roll", "will-air-roll", "will-rebel-roll", "will-atomic-roll"}
        assert set(WILL_ROLL_KINDS) == names
        assert set(WILL_DESCRIBE) == names

    @pytest.mark.parametrize(("kind", "request_", "dice"), EXAMPLES)
    @pytest.mark.parametrize(
        ("change", "field"),
        [
            ({"turn": 0}, "turn"),
            ({"turn": 10000}, "turn"),
            ({"turn": True}, "turn"),
            ({"turn": "3"}, "turn"),
            ({"side": "Allies"}, "side"),
            ({"side": "Italian"}, "side"),
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
        with pytest.raises(WillRollError) as caught:
            WILL_ROLL_KINDS[kind].from_request({**request_, **change})
        assert caught.value.field == field
        assert caught.value.problem
        assert isinstance(caught.value, ValueError)

    def test_a_missing_side_is_refused(self) -> None:
        with pytest.raises(WillRollError) as caught:
            WillAirRoll.from_request({"turn": 1, "german_hq": 1, "japanese_hq": 1})
        assert caught.value.field == "side"

    def test_bad_dice_from_the_source_are_not_read(self) -> None:
        roll = WillAtomicRoll.from_request({"turn": 1, "side": "German"})
        with pytest.raises(ValueError, match="six-sided"):
            roll.record("x", lambda n: [7])


class TestBattle:
    def test_a_battle_of_three_rounds(self) -> None:
        """Four German infantry attack four Japanese infantry; the Japanese, air-superior,
        support boxes 3 and 4. Round 1: 5-2 (D1 lost), 2-4 (A2 lost), 6 against 3+1 = 4
        (D3 lost), 3 against 2+1 = 3 (tie, A4 lost). Round 2, two against two, the
        defender placing first: D2 faces A1, D4 faces A3, both aircraft carried to boxes 1
        and 2: 4 against 3+1 = 4 (A1 lost), 6 against 1+1 = 2 (D4 lost). Round 3: A3 against
        D2, one aircraft on box 1: 5 against 3+1 = 4, D2 lost; the German wins with A3."""
        roll = battle(
            [
                box(["infantry"], ["infantry"]),
                box(["infantry"], ["infantry"]),
                box(["infantry"], ["infantry"], air=1),
                box(["infantry"], ["infantry"], air=1),
            ],
            air_superiority="Japanese",
            aircraft=2,
        )
        data = thrown_in_order(roll, [5, 2, 2, 4, 6, 3, 3, 2, 4, 3, 6, 1, 5, 3])
        assert totals(data) == [
            (1, 1, 5, 2, "D1"),
            (1, 2, 2, 4, "A2"),
            (1, 3, 6, 4, "D3"),
            (1, 4, 3, 3, "A4"),
            (2, 1, 4, 4, "A1"),
            (2, 2, 6, 2, "D4"),
            (3, 1, 5, 4, "D2"),
        ]
        assert [[b["air"] for b in r["boxes"]] for r in data["rounds"]] == [
            [0, 0, 1, 1],
            [1, 1],
            [1],
        ]
        assert (data["winner"], data["survivors"]) == ("German", ["A3"])
        lines = describe_will_battle(data)
        assert "Round 3:" in lines
        assert any("re-arranged" in line for line in lines)

    def test_the_dice_are_thrown_one_match_up_at_a_time(self) -> None:
        dice = PreparedDice([1, 6])
        battle([box(["infantry"], ["infantry"])]).record("x", dice)
        assert dice.calls == [2]

    def test_united_nations_rebels_defend_as_infantry(self) -> None:
        """Two panzers attack two revolt markers, one per box (12.2: each "defends as if it
        were an infantry army"): 3+1 = 4 against 5 (A1 lost), 5+1 = 6 against 6 (a tie, the
        defender's, A2 lost): the United Nations hold the area."""
        roll = battle([box(["panzer"], ["rebel"]), box(["tank"], ["rebel"])])
        data = thrown_in_order(roll, [3, 5, 5, 6])
        assert totals(data) == [(1, 1, 4, 5, "A1"), (1, 2, 6, 6, "A2")]
        assert (data["defender"], data["winner"]) == ("United Nations", "United Nations")
        assert data["units"]["attacker"][1]["unit"] == "panzer"

    def test_unit_names_are_recorded_and_read(self) -> None:
        roll = battle(
            [
                {
                    "attacker": [{"unit": "6SS", "name": "Sixth SS"}],
                    "defender": [{"unit": "infantry", "name": "1st Army"}],
                }
            ]
        )
        data = thrown_in_order(roll, [4, 6])
        assert data["units"]["attacker"] == [{"id": "A1", "unit": "6SS", "name": "Sixth SS"}]
        assert any(
            "A1 Sixth SS (6th SS Panzer Army)" in line for line in describe_will_battle(data)
        )

    @pytest.mark.parametrize(
        ("boxes", "more", "field"),
        [
            ([box(["cavalry"], ["infantry"])], {}, "boxes[0].attacker[0].unit"),
            ([box(["infantry"], [])], {}, "boxes[0].defender"),
            ([box([], ["infantry"])], {}, "boxes[0].attacker"),
            ([box(["infantry"], ["fleet"])], {}, "boxes[0].attacker[0].unit"),
            ([box(["rebel"], ["infantry"])], {}, "boxes[0].attacker[0].unit"),
            ([box(["infantry"], ["rebel", "infantry"])], {}, "boxes[0].defender[1].unit"),
            ([box(["infantry"], ["6SS"])], {}, "boxes[0].defender[0].unit"),
            ([box(["infantry"] * 7, ["infantry"])], {}, "boxes"),
            ([box(["infantry"] * 2, ["infantry"] * 2)], {}, "boxes"),
            (
                [box(["infantry"] * 2, ["infantry"]), box(["infantry"], ["infantry"] * 2)],
                {},
                "boxes",
            ),
            ([box(["infantry"], ["infantry"])], {"aircraft": 2}, "aircraft"),
            (
                [box(["fleet"], ["fleet"], air=1)],
                {"air_superiority": "German", "aircraft": 2},
                "boxes[0].air",
            ),
            (
                [box(["infantry"], ["rebel"], air=1)],
                {"air_superiority": "Japanese", "aircraft": 2},
                "boxes[0].air",
            ),
            (
                [box(["infantry"], ["infantry"])],
                {"air_superiority": "German", "aircraft": 13},
                "aircraft",
            ),
            ([box(["infantry"], ["infantry"], air=2)], {}, "boxes[0].air"),
            ([box(["infantry"], ["infantry"])], {"momentum": 2}, "momentum"),
            ([{"attacker": [{"unit": "infantry", "size": 3}]}], {}, "boxes[0].attacker[0].size"),
            ([{**box(["infantry"], ["infantry"]), "width": 1}], {}, "boxes[0].width"),
            ([["infantry"]], {}, "boxes[0]"),
            ([], {}, "boxes"),
        ],
    )
    def test_refusals(self, boxes: list[Any], more: dict[str, Any], field: str) -> None:
        with pytest.raises(WillRollError) as caught:
            battle(boxes, **more)
        assert caught.value.field == field

    def test_a_battle_needs_boxes(self) -> None:
        with pytest.raises(WillRollError) as caught:
            WillBattleRoll.from_request({"turn": 1, "side": "German"})
        assert caught.value.field == "boxes"


def units(prefix: str, n: int) -> list[WillBattleUnit]:
    return [WillBattleUnit(f"{prefix}{i}", WillUnit.INFANTRY) for i in range(1, n + 1)]


class TestRearrangement:
    def test_the_larger_force_is_dealt_from_box_one(self) -> None:
        """Five attackers on two defenders: A1, A2 match D1, D2; A3 goes to box 1, A4 to box
        2, A5 to box 1."""
        placed = _rearrange(units("A", 5), units("D", 2))
        assert [([u.ident for u in a], [u.ident for u in d]) for a, d in placed] == [
            (["A1", "A3", "A5"], ["D1"]),
            (["A2", "A4"], ["D2"]),
        ]

    def test_a_smaller_attacker_is_one_per_box(self) -> None:
        placed = _rearrange(units("A", 1), units("D", 3))
        assert [([u.ident for u in a], [u.ident for u in d]) for a, d in placed] == [
            (["A1"], ["D1", "D2", "D3"]),
        ]

    @pytest.mark.parametrize(
        ("previous", "committed", "boxes", "expected"),
        [
            ({3}, 1, 3, {3}),
            ({3}, 1, 2, {1}),
            ({1, 3}, 2, 2, {1, 2}),
            ({2, 3, 4}, 3, 2, {1, 2}),
            (set(), 0, 2, set()),
        ],
    )
    def test_aircraft_stay_with_their_box(
        self, previous: set[int], committed: int, boxes: int, expected: set[int]
    ) -> None:
        assert _carry_air(previous, committed, boxes) == expected


class TestAir:
    def test_the_higher_total_wins_the_difference(self) -> None:
        """German 4 against Japanese 1 + 2 = 3: the German has one aircraft."""
        roll = WillAirRoll.from_request({**HEADER, "german_hq": 1, "japanese_hq": 2})
        data = thrown_in_order(roll, [4, 1, 2])
        assert (data["winner"], data["aircraft"], data["throws"]) == ("German", 1, 1)
        assert data["groups"] == [
            {"player": "German", "throw": 1, "dice": [4], "total": 4},
            {"player": "Japanese", "throw": 1, "dice": [1, 2], "total": 3},
        ]

    def test_two_ties_then_a_winner(self) -> None:
        """6+6 = 12 twice a tie, then 1+1 = 2 against 6+6 = 12: ten Japanese aircraft."""
        roll = WillAirRoll.from_request({**HEADER, "german_hq": 2, "japanese_hq": 2})
        data = thrown_in_order(roll, [6, 6, 6, 6, 3, 4, 5, 2, 1, 1, 6, 6])
        assert (data["winner"], data["aircraft"], data["throws"]) == ("Japanese", 10, 3)
        assert len(data["groups"]) == 6
        lines = describe_will_air(data)
        assert any("re-roll 2" in line for line in lines)
        assert lines[-1].startswith("The Japanese player has air superiority")

    @pytest.mark.parametrize(
        ("change", "field"),
        [
            ({"german_hq": 0, "japanese_hq": 0}, "german_hq"),
            ({"german_hq": 3}, "german_hq"),
            ({"japanese_hq": -1}, "japanese_hq"),
            ({"japanese_hq": None}, "japanese_hq"),
        ],
    )
    def test_refusals(self, change: dict[str, Any], field: str) -> None:
        with pytest.raises(WillRollError) as caught:
            WillAirRoll.from_request({**HEADER, "german_hq": 1, "japanese_hq": 1, **change})
        assert caught.value.field == field


class TestRebellion:
    def test_six_with_no_neighbours(self) -> None:
        """A bare 6 is a rebellion; the second die, 6, places six markers."""
        roll = WillRebellionRoll.from_request({**HEADER, "area": "Tibet", "adjacent_rebellions": 0})
        data = thrown_in_order(roll, [6, 6])
        assert (data["rebellion"], data["markers"]) == (1, 6)
        assert data["groups"][0]["modifiers"] == []
        assert "place 6 revolt markers" in describe_will_rebellion(data)[1]

    def test_neighbours_add_one_each(self) -> None:
        """1 + 4 adjacent rebellions = 5: no rebellion, no second die."""
        roll = WillRebellionRoll.from_request({**HEADER, "area": "Tibet", "adjacent_rebellions": 4})
        data = thrown_in_order(roll, [1])
        assert data["groups"][0]["total"] == 5
        assert data["rebellion"] == 0
        assert data["groups"][0]["modifiers"] == [{"why": "adjacent rebellions", "add": 4}]
        assert describe_will_rebellion(data)[0].endswith("1 +4 for adjacent rebellions = 5.")

    @pytest.mark.parametrize(
        ("change", "field"),
        [
            ({"area": "Japan"}, "area"),
            ({"area": "greater germany"}, "area"),
            ({"area": ""}, "area"),
            ({"area": 3}, "area"),
            ({"adjacent_rebellions": -1}, "adjacent_rebellions"),
            ({"adjacent_rebellions": 21}, "adjacent_rebellions"),
        ],
    )
    def test_refusals(self, change: dict[str, Any], field: str) -> None:
        with pytest.raises(WillRollError) as caught:
            WillRebellionRoll.from_request(
                {**HEADER, "area": "Tibet", "adjacent_rebellions": 1, **change}
            )
        assert caught.value.field == field


class TestAtomic:
    def test_a_five_places_a_blast_marker(self) -> None:
        roll = WillAtomicRoll.from_request(
            {**HEADER, "target": "army", "target_name": "3rd Panzer", "area": "Iran"}
        )
        data = thrown_in_order(roll, [5])
        assert data["blast"] == 1
        lines = describe_will_atomic(data)
        assert "the 3rd Panzer (army) in Iran" in lines[0]
        assert "place a blast marker" in lines[1]
        assert "does not print that table" in lines[-1]

    def test_a_six_places_none(self) -> None:
        data = thrown_in_order(WillAtomicRoll.from_request(HEADER), [6])
        assert data["blast"] == 0
        assert "no blast marker" in describe_will_atomic(data)[1]

    @pytest.mark.parametrize(
        ("change", "field"),
        [
            ({"target": "Strait of Gibraltar"}, "target"),
            ({"target": "Gibraltar"}, "target"),
            ({"target": "United Nations"}, "target"),
            ({"target": "Greater Germany"}, "target"),
            ({"target": "Panama Canal", "target_name": "the locks"}, "target_name"),
            ({"area": "x" * 61}, "area"),
        ],
    )
    def test_refusals(self, change: dict[str, Any], field: str) -> None:
        with pytest.raises(WillRollError) as caught:
            WillAtomicRoll.from_request({**HEADER, **change})
        assert caught.value.field == field
