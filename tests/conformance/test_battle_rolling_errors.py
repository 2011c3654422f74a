"""IAAPA Error Correction III, Rolling Errors: dice that do not fit the forces are reported,
set aside as the rule says, and never silently used."""

from __future__ import annotations

from typing import Any

from tests.conformance.cases import battle, misses


def errors(out: dict[str, Any]) -> list[tuple[int | None, str]]:
    return [(d["round"], d["rule"]) for d in out["diagnostics"] if d["severity"] == "error"]


TOO_MANY = "IAAPA Error Correction III: Too many units"
TOO_FEW = "IAAPA Error Correction III: Too few units"


class TestTooManyUnits:
    """If a player incorrectly enters too many units, for any given unit type, simply start
    with the first listed die roll and sequentially, from left to right, take the correct
    number of dice. As an example, if there were supposed to be 4 attacking armor and the
    player entered 7, then the first 4 dice rolls will be used and the last three ignored.
    Then re-roll the remainder of the battle beginning with the next Round."""

    def test_the_rule_book_example(self) -> None:
        """4 ARM entered as 7: the first four dice are used, the last three ignored."""
        out = battle(
            "land",
            {"ARM": 4},
            {"INF": 8},
            {"attacker": {"ARM": [6, 6, 6, 3, 1, 1, 1]}, "defender": misses(INF=8)},
        )
        assert out["rounds"][0]["attacker_hits"] == 1
        assert errors(out) == [(1, TOO_MANY)]

    def test_remainder_is_re_rolled(self) -> None:
        """The rounds after it are not used: the battle stands after round 1."""
        out = battle(
            "land",
            {"ARM": 4},
            {"INF": 8},
            {"attacker": {"ARM": [6, 6, 6, 3, 1]}, "defender": misses(INF=8)},
            {"attacker": {"ARM": [1, 1, 1, 1]}, "defender": misses(INF=7)},
        )
        assert len(out["rounds"]) == 1 and out["outcome"] == "continues"
        assert errors(out) == [(1, TOO_MANY), (2, TOO_MANY)]
        assert out["final"] == 0


class TestTooFewUnits:
    """If a player incorrectly enters too few units, simply roll for the missing units and
    then re-roll the remainder of the battle beginning with the next round."""

    def test_missing_units_do_not_fire_and_are_to_be_rolled(self) -> None:
        out = battle(
            "land",
            {"ARM": 3},
            {"INF": 3},
            {"attacker": {"ARM": [1]}, "defender": misses(INF=3)},
            {"attacker": {"ARM": [1, 1, 1]}, "defender": misses(INF=2)},
        )
        assert out["rounds"][0]["defender_casualties"] == {"INF": 1}
        assert len(out["rounds"]) == 1
        assert errors(out)[0] == (1, TOO_FEW)
        assert "roll 2 more" in out["diagnostics"][0]["message"]

    def test_defending_units_left_out(self) -> None:
        """The defender's missing dice are as much a rolling error as the attacker's."""
        out = battle(
            "sea", {"BB": 1}, {"TRN": 2}, {"attacker": {"BB": [6]}, "defender": {"TRN": [1]}}
        )
        assert out["rounds"][0]["attacker_casualties"] == {"BB": 1}
        assert errors(out) == [(1, TOO_FEW)]


class TestWrongUnits:
    """If a player enters the wrong type of unit then its roll will be ignored and the
    correct unit will be rolled for, regardless of whether the attack/defense values are
    equivalent."""

    def test_roll_for_a_unit_not_present_is_ignored(self) -> None:
        """FTR dice for a battle fought by armour (same attack value 3): ignored, and the
        missing ARM die is a unit to roll for."""
        out = battle(
            "land", {"ARM": 1}, {"INF": 1}, {"attacker": {"FTR": [1]}, "defender": misses(INF=1)}
        )
        assert out["rounds"][0]["attacker_hits"] == 0
        assert errors(out) == [(1, "IAAPA Error Correction III: Wrong Units"), (1, TOO_FEW)]


class TestDiceFaces:
    """A battle die shows 1 to 6: anything else did not come from the dice server."""

    def test_die_outside_one_to_six_is_not_used(self) -> None:
        out = battle(
            "land", {"ARM": 2}, {"INF": 2}, {"attacker": {"ARM": [0, 1]}, "defender": misses(INF=2)}
        )
        assert out["rounds"][0]["attacker_hits"] == 1
        assert errors(out) == [(1, "Battle dice show 1 to 6"), (1, TOO_FEW)]


class TestBbSupportShots:
    """If a BB support shot was forgotten, simply roll for the missing shot. If it hits,
    adjust for the extra defending casualty and re-roll the remainder of the battle, starting
    with round 2."""

    def test_forgotten_support_shot_is_reported(self) -> None:
        out = battle(
            "land",
            {"INF": 1, "BB": 1},
            {"INF": 1},
            {"attacker": {"INF": [6]}, "defender": misses(INF=1)},
            amphibious=1,
        )
        assert errors(out) == [(1, "IAAPA Error Correction III: BB Support Shots")]

    def test_twin_support_shot_rolled(self) -> None:
        out = battle(
            "land",
            {"INF": 1, "BB": 1},
            {"INF": 1},
            {"bombard": [6], "attacker": {"INF": [6]}, "defender": misses(INF=1)},
            amphibious=1,
        )
        assert errors(out) == [] and out["final"] == 1


class TestBattleOver:
    """A battle ends when a side is destroyed (facts sheet section 1): no later round."""

    def test_rounds_after_the_end_are_not_used(self) -> None:
        out = battle(
            "land",
            {"ARM": 1},
            {"INF": 1},
            {"attacker": {"ARM": [1]}, "defender": misses(INF=1)},
            {"attacker": {"ARM": [1]}, "defender": misses(INF=1)},
        )
        assert len(out["rounds"]) == 1 and out["outcome"] == "attacker-wins"
        assert errors(out) == [
            (2, "Combat sequence: a battle ends when a side is gone or retreats")
        ]
