"""IAAPA Declaration and Battle Resolution Procedures, "Using the Dice Server", and the
Error Correction sections that rely on what the roller records: the roller's own rule
cases, each quoting the rule."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from dice_server.kinds.battle import read as parse_battle_roll
from dice_server.kinds.bombing import read as parse_bombing_roll
from dice_server.kinds.tech import read as parse_tech_roll

HEADER = {"round": 1, "turn": 1, "country": "UK", "battle": "West Europe"}


def thrown(values: list[int]) -> Callable[[int], list[int]]:
    source: Iterator[int] = iter(values)
    return lambda n: [next(source) for _ in range(n)]


def roll(**request: Any) -> dict[str, Any]:
    data = parse_battle_roll({**HEADER, **request})
    return data.record("uk@example.org", thrown(list(range(1, 7)) * 200))


class TestUsingTheDiceServer:
    def test_wrong_round_number_is_simply_continued(self) -> None:
        """ "If you enter the wrong Round Number, simply continue the sequence with the next
        number. Regardless of the Round Number entered, the time stamped on the battle round
        by the IAAPA Dice Server is the order" - the roller accepts any positive round."""
        data = roll(round=9, attacker=[{"unit": "INF", "count": 1}])
        assert data["round"] == 9

    def test_the_attacker_may_roll_the_sub_first(self) -> None:
        """ "If a naval battle has an attacking sub, the attacker MAY, at his discretion, roll
        for the sub first. If the sub hits, he MAY request that the defender declare the
        casualty before continuing with the battle.\""""
        data = roll(
            attacker=[{"unit": "SUB", "count": 2}, {"unit": "BB", "count": 1}],
            defender=[{"unit": "TRN", "count": 2}],
            options=["subs-first"],
        )
        assert [(g["side"], g["unit"]) for g in data["groups"]] == [("attacker", "SUB")]


class TestErrorCorrectionIIIRollingErrors:
    def test_dice_are_listed_in_the_order_thrown(self) -> None:
        """ "Since the IAAPA Dice Server lists the dice in the order that they were thrown the
        error correction guidelines will take this into account. The die rolls will be
        counted from left to right\""""
        data = roll(
            attacker=[{"unit": "INF", "count": 2}, {"unit": "FTR", "count": 1}],
            defender=[{"unit": "INF", "count": 2}, {"unit": "AA", "count": 1}],
        )
        concatenated = [d for group in data["groups"] for d in group["dice"]]
        assert data["dice"] == concatenated == [1, 2, 3, 4, 5, 6]
        # The AA's shot comes first, before the round: "AA Guns ... considered units".
        assert data["groups"][0]["unit"] == "AA" and data["groups"][0]["target"] == "FTR"

    def test_defenders_only_mode(self) -> None:
        """ "this includes errors involving the inappropriate use of the "defenders only"
        mode on the dice roller. If the defender forces are rolled first by mistake they will
        stand as valid" - the mode exists and throws the defence alone."""
        data = roll(
            attacker=[{"unit": "INF", "count": 3}],
            defender=[{"unit": "INF", "count": 2}],
            options=["defenders-only"],
        )
        assert {g["side"] for g in data["groups"]} == {"defender"}
        assert len(data["dice"]) == 2


class TestErrorCorrectionIVTechRolls:
    def test_the_entry_states_dice_declared_and_rolled(self) -> None:
        """ "if there is a declaration email, or note, stating how many tech dice have been
        purchased in advance of the roll, this will be considered the desired amount
        purchased. - if more dice are rolled, then the extra dice are ignored" - so the
        entry keeps both numbers, and the research costs the dice declared: 2 dice, $10."""
        data = parse_tech_roll(
            {"round": 1, "turn": 1, "country": "Germany", "dice": 4, "declared": 2}
        ).record("g@example.org", thrown([1, 2, 3, 4]))
        assert (data["declared"], data["rolled"], data["cost"]) == (2, 4, 10)
        assert data["counted"] == 2

    def test_extra_dice_win_nothing(self) -> None:
        """ "if more dice are rolled, then the extra dice are ignored similar to a combat
        rolling error" (Section III: "start with the first listed die roll and sequentially,
        from left to right, take the correct number of dice"): the 6s among the extra dice
        are no breakthroughs, and only the breakthroughs that stand get a chart die."""
        data = parse_tech_roll(
            {"round": 1, "turn": 1, "country": "Germany", "dice": 4, "declared": 2}
        ).record("g@example.org", thrown([2, 6, 6, 6, 1]))
        assert data["breakthroughs"] == 1
        assert data["technologies"] == ["Jet Power"]
        research, chart = data["groups"]
        assert (research["dice"], research["stand"], chart["dice"]) == ([2, 6, 6, 6], 2, [1])
        assert data["dice"] == [2, 6, 6, 6, 1]

    def test_missing_dice_are_made_up_before_any_chart_die(self) -> None:
        """ "if too few dice are rolled, the extra dice will be rolled to make up the total
        purchased. - in both cases, the rolls determining the techs acquired will be ignored
        and rerolled once the correct number of tech dice have been rolled": the roller
        throws the missing die, then one chart die per breakthrough among all three."""
        data = parse_tech_roll(
            {"round": 1, "turn": 1, "country": "Germany", "dice": 2, "declared": 3}
        ).record("g@example.org", thrown([6, 3, 6, 2, 5]))
        research, made_up, *charts = data["groups"]
        assert (research["dice"], made_up["dice"], made_up["made_up"]) == ([6, 3], [6], 1)
        assert [c["dice"] for c in charts] == [[2], [5]]
        assert data["technologies"] == ["Rockets", "Industrial Technology"]
        assert (data["cost"], data["counted"], data["breakthroughs"]) == (15, 3, 2)

    def test_without_a_declaration_the_number_entered_is_the_number_desired(self) -> None:
        """ "if there is no declaration email or note in advance of the roll, then the number
        entered in the roller will be assumed to be the number desired.\""""
        data = parse_tech_roll({"round": 1, "turn": 1, "country": "Germany", "dice": 3}).record(
            "g@example.org", thrown([1, 2, 3])
        )
        assert data["declared"] == data["rolled"] == 3


class TestStrategicBombing:
    def test_aa_fires_at_each_bomber_before_the_survivors_roll(self) -> None:
        """Facts sheet 6, from the MB rules: "AA fires first (1 die per bomber, a 1 kills).
        Each surviving bomber rolls 1 die" (IAAPA: "allowing an AA to hit on a 1 or a 2" is
        not an allowed agreement)."""
        data = parse_bombing_roll(
            {"round": 1, "turn": 1, "country": "UK", "target": "Germany", "bombers": 2, "aa": 1}
        ).record("uk@example.org", thrown([1, 2, 5]))
        assert (data["shot_down"], data["damage"], data["dice"]) == (1, 5, [1, 2, 5])
