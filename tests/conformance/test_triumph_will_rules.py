"""Triumph of the Will's dice (:mod:`adjudicator.triumph_will`) against its rule text.

The dice are given (``draw`` hands out fixed values in order), so every case is worked by
hand from the rule text; the rule book's own COMBAT EXAMPLE is replayed die by die. Each
quote in a test class's docstring is checked against the rule text.
"""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.triumph_will import (
    WillAirRoll,
    WillAtomicRoll,
    WillBattleRoll,
    WillRebellionRoll,
    WillRollError,
    describe_will_battle,
)
from tests.conformance.conftest import docstring_quotes
from tests.dice import thrown_in_order


def unit(kind: str) -> dict[str, Any]:
    return {"unit": kind}


def box(attacker: list[str], defender: list[str], air: int = 0) -> dict[str, Any]:
    return {
        "attacker": [unit(k) for k in attacker],
        "defender": [unit(k) for k in defender],
        "air": air,
    }


def battle(boxes: list[dict[str, Any]], **more: Any) -> WillBattleRoll:
    return WillBattleRoll.from_request({"turn": 2, "side": "German", "boxes": boxes, **more})


def matchups(data: dict[str, Any]) -> list[tuple[int, int, str, int, str, int, str]]:
    """Each match-up as (round, box, attacker unit, total, defender unit, total, eliminated)."""
    return [
        (
            g["round"],
            g["box"],
            g["attacker"]["unit"],
            g["attacker"]["total"],
            g["defender"]["unit"],
            g["defender"]["total"],
            g["eliminated"],
        )
        for g in data["groups"]
    ]


class TestCombatExample:
    """The COMBAT EXAMPLE after 10.8: "The German player is attacking, but the defending
    Japanese player has air superiority." Five boxes, one unit each: the German 6th SS,
    three regular panzer armies and an infantry army, against five Japanese armies (their
    type is not given; infantry here, which on defence changes nothing), three of them with
    air support. Round 1, from the first table (box by box; the German die first as the
    layout throws it):

    ====  ===================  =====================  =============================
    box   German (roll+DRM)    Japanese (roll+DRM)    result
    ====  ===================  =====================  =============================
    1     panzer 1+1 = 2       2 = 2                  tie: the German is eliminated
    2     panzer 4+1 = 5       3+1 air = 4            the Japanese is eliminated
    3     6SS 3+2 = 5          3+1 air = 4            the Japanese is eliminated
    4     panzer 5+1 = 6       2+1 air = 3            the Japanese is eliminated
    5     infantry 6 = 6       6 = 6                  tie: the German is eliminated
    ====  ===================  =====================  =============================

    "The German loses the two tied results, because the defender always wins ties". Round 2:
    three Germans (A2 panzer, A3 6SS, A4 panzer) against two Japanese (D1, D5): the
    Japanese with fewer units puts one per box, the German matches and stacks the third
    (the server's rule: A2 and A4 face D1 in box 1, A3 faces D5 in box 2), and "only two
    carry over into the next round of combat - one for each remaining Japanese unit". The
    second table: German 2+1 = 3 against 4+1 air = 5, 3+1 = 4 against 5+1 = 6, 6SS 3+2 = 5
    against 4+1 = 5 (a tie, the defender's). "All three German units are eliminated" and
    two Japanese units survive.

    "The German player's 6th SS Panzer Army will add two to its die roll result because
    it's both a panzer unit and an elite unit on the attack." "The other three German units
    are all regular panzer on the attack, so they will add one to their die rolls" "the
    German Infantry unit gets no DRM" "Only the three Japanese units with Air Support will
    add one to their die rolls"
    """

    ROUND_ONE = (1, 2, 4, 3, 3, 3, 5, 2, 6, 6)
    """Box by box, the German die then the Japanese: the first table's rolls."""
    ROUND_TWO = (2, 4, 3, 5, 3, 4)
    """A2 against D1, A4 against D1, A3 against D5: the second table's rolls."""
    DICE = (*ROUND_ONE, *ROUND_TWO)

    def roll(self) -> WillBattleRoll:
        return WillBattleRoll.from_request(
            {
                "turn": 1,
                "side": "German",
                "air_superiority": "Japanese",
                "aircraft": 3,
                "boxes": [
                    box(["panzer"], ["infantry"]),
                    box(["panzer"], ["infantry"], air=1),
                    box(["6SS"], ["infantry"], air=1),
                    box(["panzer"], ["infantry"], air=1),
                    box(["infantry"], ["infantry"]),
                ],
            }
        )

    def test_round_one_is_the_first_table(self) -> None:
        data = thrown_in_order(self.roll(), list(self.DICE))
        assert matchups(data)[:5] == [
            (1, 1, "A1", 2, "D1", 2, "A1"),
            (1, 2, "A2", 5, "D2", 4, "D2"),
            (1, 3, "A3", 5, "D3", 4, "D3"),
            (1, 4, "A4", 6, "D4", 3, "D4"),
            (1, 5, "A5", 6, "D5", 6, "A5"),
        ]

    def test_the_modifiers_are_named_per_die(self) -> None:
        groups = thrown_in_order(self.roll(), list(self.DICE))["groups"]
        assert groups[0]["attacker"]["modifiers"] == [{"why": "tank attack", "add": 1}]
        assert groups[0]["defender"]["modifiers"] == []
        assert groups[1]["defender"]["modifiers"] == [{"why": "air", "add": 1}]
        assert groups[2]["attacker"]["modifiers"] == [{"why": "tank attack + 6SS", "add": 2}]
        assert groups[4]["attacker"]["modifiers"] == []

    def test_round_two_is_the_second_table(self) -> None:
        data = thrown_in_order(self.roll(), list(self.DICE))
        assert data["rounds"][1]["boxes"] == [
            {"box": 1, "attacker": ["A2", "A4"], "defender": ["D1"], "air": 1},
            {"box": 2, "attacker": ["A3"], "defender": ["D5"], "air": 1},
        ]
        assert matchups(data)[5:] == [
            (2, 1, "A2", 3, "D1", 5, "A2"),
            (2, 1, "A4", 4, "D1", 6, "A4"),
            (2, 2, "A3", 5, "D5", 5, "A3"),
        ]

    def test_the_battle_ends_as_the_text_says(self) -> None:
        data = thrown_in_order(self.roll(), list(self.DICE))
        assert len(data["rounds"]) == 2
        assert data["winner"] == "Japanese"
        assert data["survivors"] == ["D1", "D5"]
        lines = describe_will_battle(data)
        assert any("Box 2, Japanese air support" in line for line in lines)
        assert any("= 2 against D1 2 = 2: a tie, the Japanese unit wins" in line for line in lines)
        assert "D1 infantry army, D5 infantry army survive" in lines[-2]

    def test_groups_concatenate_to_the_dice(self) -> None:
        data = thrown_in_order(self.roll(), list(self.DICE))
        assert [d for g in data["groups"] for d in g["dice"]] == data["dice"]


class TestCombatSetUp:
    """10.4: "Whichever player has fewer involved units should take all of them and put
    them in a row, one unit per box" "That second player will have units left over, which
    he should then stack, in any way he chooses, in any one or more of his already manned
    frontline boxes." 10.6: "The defending unit would be pitted against all three attacking
    armies/fleets, but it's resolved one at a time."
    """

    def test_a_box_facing_nobody_is_refused(self) -> None:
        with pytest.raises(WillRollError) as caught:
            battle([box(["infantry"], ["infantry"]), {"attacker": [unit("infantry")]}])
        assert caught.value.field == "boxes[1].defender"

    def test_the_smaller_force_may_not_stack(self) -> None:
        """Two attackers against three defenders: two boxes, one attacker each."""
        with pytest.raises(WillRollError) as caught:
            battle([box(["infantry", "infantry"], ["infantry", "infantry", "infantry"])])
        assert caught.value.field == "boxes"

    def test_a_lone_defender_meets_a_stack_one_at_a_time(self) -> None:
        """Three attacking infantry armies on one defender: 3 against 4 eliminates A1;
        then 5 against 3 eliminates the defender, so A3 never rolls: four dice in all, and
        the battle is over after one round with A2 and A3 left."""
        data = thrown_in_order(battle([box(["infantry"] * 3, ["infantry"])]), [3, 4, 5, 3])
        assert matchups(data) == [
            (1, 1, "A1", 3, "D1", 4, "A1"),
            (1, 1, "A2", 5, "D1", 3, "D1"),
        ]
        assert data["winner"] == "German"
        assert data["survivors"] == ["A2", "A3"]


class TestModifiers:
    """10.7: "Panzer/tank armies on the defense generate no die roll modifiers, not even 6th
    SS Panzer" "Whenever the Kido Butai fleet is part of any attacking or defending Japanese
    force, add one to its die roll result before comparing it to the result of the opposing
    unit." 10.6: "High rolls win; the defender wins ties."
    """

    def test_a_defending_6th_ss_adds_nothing(self) -> None:
        """The Japanese attack the 6th SS: infantry 3 against 6SS 3, a tie, the defender's;
        then 4 against 5: the 6th SS wins again (no +2 on defence)."""
        roll = WillBattleRoll.from_request(
            {
                "turn": 4,
                "side": "Japanese",
                "boxes": [box(["infantry", "infantry"], ["6SS"])],
            }
        )
        data = thrown_in_order(roll, [3, 3, 4, 5])
        assert matchups(data) == [
            (1, 1, "A1", 3, "D1", 3, "A1"),
            (1, 1, "A2", 4, "D1", 5, "A2"),
        ]
        assert data["winner"] == "German"

    def test_the_kido_butai_adds_one_defending(self) -> None:
        """A German fleet rolls 5 against the Kido Butai's 4 + 1 = 5: a tie, the defender
        wins."""
        data = thrown_in_order(battle([box(["fleet"], ["KB"])]), [5, 4])
        assert matchups(data) == [(1, 1, "A1", 5, "D1", 5, "A1")]
        assert data["groups"][0]["defender"]["modifiers"] == [{"why": "Kido Butai", "add": 1}]

    def test_the_kido_butai_adds_one_attacking(self) -> None:
        """The Kido Butai attacks a German fleet: 4 + 1 = 5 against 4."""
        roll = WillBattleRoll.from_request(
            {"turn": 4, "side": "Japanese", "boxes": [box(["KB"], ["fleet"])]}
        )
        assert matchups(thrown_in_order(roll, [4, 4])) == [(1, 1, "A1", 5, "D1", 4, "D1")]

    def test_the_kido_butai_is_japanese(self) -> None:
        with pytest.raises(WillRollError) as caught:
            battle([box(["KB"], ["fleet"])])
        assert caught.value.field == "boxes[0].attacker[0].unit"


class TestAirpower:
    """10.5: "at the rate of one aircraft counter per Air Support box located behind one or
    more frontline boxes that contain one or more of his armies." 10.7: "If the units in a
    frontline box have an aircraft unit supporting them, every one of those armies adds one
    to its rolled result." 10.8: "Airpower remains available throughout the overall battle,
    but there may never be more than one such die roll modifier added onto any one die
    roll."
    """

    def test_air_supports_every_army_of_the_stack(self) -> None:
        """The German, air-superior, stacks two infantry on one Japanese infantry with air:
        2 + 1 = 3 against 3, a tie, A1 lost; 3 + 1 = 4 against 3, D1 lost."""
        roll = battle(
            [box(["infantry", "infantry"], ["infantry"], air=1)],
            air_superiority="German",
            aircraft=2,
        )
        data = thrown_in_order(roll, [2, 3, 3, 3])
        assert matchups(data) == [
            (1, 1, "A1", 3, "D1", 3, "A1"),
            (1, 1, "A2", 4, "D1", 3, "D1"),
        ]

    def test_more_air_boxes_than_aircraft_is_refused(self) -> None:
        with pytest.raises(WillRollError) as caught:
            battle(
                [box(["infantry"], ["infantry"], air=1), box(["infantry"], ["infantry"], air=1)],
                air_superiority="German",
                aircraft=1,
            )
        assert caught.value.field == "boxes[1].air"

    def test_air_without_air_superiority_is_refused(self) -> None:
        with pytest.raises(WillRollError) as caught:
            battle([box(["infantry"], ["infantry"], air=1)])
        assert caught.value.field == "boxes[0].air"


class TestMomentum:
    """10.9: "and one or more of your surviving armies is a panzer/tank army, and you also
    have air superiority that turn, and you also have one or more aircraft units still
    unused that phase" "take one, some, or all your victorious tank/panzer armies"
    """

    def test_momentum_with_panzers_and_air(self) -> None:
        """Two panzers, 3 + 1 = 4 against 4 (A1 lost), 5 + 1 = 6 against 2."""
        roll = battle(
            [box(["panzer", "6SS"], ["infantry"])],
            air_superiority="German",
            aircraft=1,
            momentum=1,
        )
        data = thrown_in_order(roll, [3, 4, 5, 2])
        assert matchups(data) == [
            (1, 1, "A1", 4, "D1", 4, "A1"),
            (1, 1, "A2", 7, "D1", 2, "D1"),
        ]
        assert data["momentum"] == 1

    @pytest.mark.parametrize(
        ("attacker", "more", "field"),
        [
            (["panzer", "infantry"], {"air_superiority": "German", "aircraft": 2}, "unit"),
            (["panzer"], {"air_superiority": "Japanese", "aircraft": 2}, "momentum"),
            (["panzer"], {}, "momentum"),
            (["panzer"], {"air_superiority": "German", "aircraft": 0}, "momentum"),
        ],
    )
    def test_momentum_refusals(self, attacker: list[str], more: Any, field: str) -> None:
        with pytest.raises(WillRollError) as caught:
            battle([box(attacker, ["infantry"])], momentum=1, **more)
        assert caught.value.field.endswith(field)


class TestAirSuperiority:
    """5.5: "If a player has neglected to build any air force HQ, he doesn’t roll any dice."
    "The player who rolls the higher total has gained air superiority for that turn (reroll
    ties)." "To determine the exact degree of that superiority, subtract the losing
    player’s total from the winning players total."
    """

    def test_two_hq_against_one(self) -> None:
        """German 5 + 6 = 11 against Japanese 4: the German has 7 aircraft."""
        roll = WillAirRoll.from_request(
            {"turn": 2, "side": "German", "german_hq": 2, "japanese_hq": 1}
        )
        data = thrown_in_order(roll, [5, 6, 4])
        assert data["winner"] == "German"
        assert data["aircraft"] == 7

    def test_ties_are_rerolled_each_throw_its_own_group(self) -> None:
        """3 against 3, then 2 against 6: the Japanese win with 4 aircraft."""
        roll = WillAirRoll.from_request(
            {"turn": 2, "side": "Japanese", "german_hq": 1, "japanese_hq": 1}
        )
        data = thrown_in_order(roll, [3, 3, 2, 6])
        assert [g["dice"] for g in data["groups"]] == [[3], [3], [2], [6]]
        assert (data["winner"], data["aircraft"]) == ("Japanese", 4)

    def test_a_player_without_hq_rolls_nothing(self) -> None:
        """The Japanese have no HQ, total 0: the German's 1 gives him 1 aircraft."""
        roll = WillAirRoll.from_request(
            {"turn": 2, "side": "German", "german_hq": 1, "japanese_hq": 0}
        )
        data = thrown_in_order(roll, [1])
        assert (data["winner"], data["aircraft"]) == ("German", 1)


class TestRebellion:
    """5.12: "As each area like that is identified, the player who doesn't own it rolls a
    die. On a result of six or more, a rebellion" has broken out. "Add one to
    the rolled result for every area adjacent to the area being rolled for that already has
    one or more rebellion markers in it." "The same player then immediately rolls a second
    die and places that many revolt markers in the newly revolted area (one through six)."
    """

    def test_the_brasil_example(self) -> None:
        """Brasil with Patagonia and the Northern Andes in rebellion: 4 + 2 = 6, a
        rebellion; the second die 3 places three revolt markers."""
        roll = WillRebellionRoll.from_request(
            {"turn": 3, "side": "German", "area": "Brasil", "adjacent_rebellions": 2}
        )
        data = thrown_in_order(roll, [4, 3])
        assert (data["rebellion"], data["markers"]) == (1, 3)
        assert data["groups"][0]["total"] == 6

    def test_five_is_no_rebellion_and_no_second_die(self) -> None:
        roll = WillRebellionRoll.from_request(
            {"turn": 3, "side": "German", "area": "Brasil", "adjacent_rebellions": 0}
        )
        data = thrown_in_order(roll, [5])
        assert (data["rebellion"], data["markers"]) == (0, 0)


class TestAtomicAttack:
    """11.2: "On results of one through five, place a mushroom cloud blast marker in the
    area where the attack took place." 9.9: "The Strait of Gibraltar is immune from atomic
    attack." 12.4: "UN rebellion units may not be targeted for atomic attack by either
    player."
    """

    @pytest.mark.parametrize(("die", "blast"), [(1, 1), (5, 1), (6, 0)])
    def test_blast_on_one_through_five(self, die: int, blast: int) -> None:
        roll = WillAtomicRoll.from_request(
            {"turn": 5, "side": "Japanese", "target": "Suez Canal", "area": "Africa Orientale"}
        )
        assert thrown_in_order(roll, [die])["blast"] == blast

    @pytest.mark.parametrize("target", ["Strait of Gibraltar", "rebels"])
    def test_immune_targets_are_refused(self, target: str) -> None:
        with pytest.raises(WillRollError) as caught:
            WillAtomicRoll.from_request({"turn": 5, "side": "Japanese", "target": target})
        assert caught.value.field == "target"


@pytest.mark.parametrize("quote", docstring_quotes(globals()), ids=lambda q: q[:40])
def test_the_rules_quoted_are_in_the_rule_text(quote: str, triumph_of_the_will: str) -> None:
    text = triumph_of_the_will
    assert " ".join(quote.split()) in " ".join(text.split())
