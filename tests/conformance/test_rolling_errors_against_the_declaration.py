"""IAAPA Error Correction III, Rolling Errors, as a battle roll is weighed against the battle
it belongs to (the declaration in round 1, the survivors after it): each unit type rolled in
another number than should be rolling is an error citing its remedy."""

from __future__ import annotations

from adjudicator.diagnostics import Rule
from adjudicator.rolls.declared import order_of_loss_in, rolling_errors


def rules(rolled: dict[str, int], expected: dict[str, int]) -> list[Rule]:
    return [f.rule for f in rolling_errors("attacker", rolled, expected, "the declaration")]


class TestTooFewUnits:
    """If a player incorrectly enters too few units, simply roll for the missing units and
    then re-roll the remainder of the battle beginning with the next round."""

    def test_fewer_armour_rolled_than_declared(self) -> None:
        (found,) = rolling_errors("attacker", {"ARM": 2}, {"ARM": 3}, "the declaration")
        assert found.rule is Rule.TOO_FEW_UNITS
        assert found.message.startswith("attacker: 2 ARM rolled, 3 in the declaration")
        assert "roll for the missing units" in found.message


class TestTooManyUnits:
    """If a player incorrectly enters too many units, for any given unit type, simply start
    with the first listed die roll and sequentially, from left to right, take the correct
    number of dice."""

    def test_seven_armour_for_four(self) -> None:
        assert rules({"ARM": 7, "INF": 2}, {"ARM": 4, "INF": 2}) == [Rule.TOO_MANY_UNITS]


class TestWrongUnits:
    """If a player enters the wrong type of unit then its roll will be ignored and the
    correct unit will be rolled for, regardless of whether the attack/defense values are
    equivalent."""

    def test_a_type_not_in_the_battle_and_the_one_missing(self) -> None:
        assert rules({"BMB": 1}, {"FTR": 1}) == [Rule.WRONG_UNITS, Rule.TOO_FEW_UNITS]

    def test_the_right_units_raise_nothing(self) -> None:
        assert rules({"INF": 3, "FTR": 1}, {"FTR": 1, "INF": 3}) == []


class TestOrdersOfLoss:
    """A player may designate any order of loss that he desires for his casualties."""

    def test_scoped_by_number_or_territory(self) -> None:
        text = "OOL for battle #1 (W Europe): INF, ARM, FTR\nBattle #2 (Baltic SZ) OOL: TRN, SUB"
        assert order_of_loss_in(text, 1, "West Europe") == ["INF", "ARM", "FTR"]
        assert order_of_loss_in(text, 2, "Baltic Sea Zone") == ["TRN", "SUB"]
        assert order_of_loss_in(text, 3, "Karelia S.S.R.") == []

    def test_for_every_sea_battle_or_every_land_battle(self) -> None:
        """Tried as a new player: "OOL sea battles: sub, bb" was refused ('sea' could be any
        of four territories). An order for the sea battles (or the land battles) is every
        such battle's; one naming its battle still stands over it."""
        text = "OOL sea battles: sub, bb\nOOL land battles: inf, arm\nOOL Karelia: arm, inf"
        assert order_of_loss_in(text, 3, "Central Mediteranean Sea Zone") == ["SUB", "BB"]
        assert order_of_loss_in(text, 2, "Libya") == ["INF", "ARM"]
        assert order_of_loss_in(text, 1, "Karelia S.S.R.") == ["ARM", "INF"]
