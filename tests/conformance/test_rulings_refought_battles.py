"""IAAPA Error Correction II then III: a battle re-fought after a combat declaration error
is weighed against the correct units, and its rolling errors are ruled as any battle's.

"The attacker may then elect to re-roll the entire battle with the correct number and type
of units or he may elect not to fight the battle at all. He may not add additional
attacking units to the battle."

The ledgers: the genesis is #1, the pre-combat turn #2 declares 4 INF from Karelia, which
holds 3 INF and 2 ARM (a CDE); the void roll is #3, the error is recognised through the
roller in #4, and the battle is re-fought from #5. The correct units are the declared ones
the board had: 3 INF."""

from __future__ import annotations

from adjudicator.powers import Power
from adjudicator.rulings.model import (
    CDE_ATTACKERS,
    CDE_DEFENDERS,
    CDE_NO_ADDED_UNITS,
    TOO_FEW,
    TOO_MANY,
    WRONG_UNITS,
)
from adjudicator.units import UnitType as U
from tests.conformance.test_rulings_ledgers import (
    AXIS,
    GameLedger,
    board,
    dice_of,
    every_die,
    requests,
    roll_request,
    the_ruling,
)

R, G = Power.USSR, Power.GERMANY
UKRAINE = "Ukraine S.S.R."
EAST = {
    "Karelia S.S.R.": {R: {U.INF: 3, U.ARM: 2}},
    "Ukraine S.S.R.": {G: {U.INF: 2}},
}
FOUR_INF = "Russia 1 pre-combat\n\nAttack #1 - Ukraine (2 INF)\nKar 4 INF\n"
REFOUGHT = "the battle re-fought after the combat declaration error of entry #2"


def void_then_recognised(orders: str = FOUR_INF) -> GameLedger:
    ledger = GameLedger(board(EAST))
    ledger.precombat(orders)
    ledger.roll("Ukraine", {"INF": 4}, {"INF": 2}, [1, 1, 1, 1, 6, 6])
    ledger.note("error-recognition", "Karelia holds only 3 INF", AXIS, ref_seq=3)
    return ledger


class TestReRolledWithTheCorrectUnits:
    """The attacker may then elect to re-roll the entire battle with the correct number and
    type of units."""

    def test_the_correct_units_need_no_ruling_beyond_the_cde(self) -> None:
        ledger = void_then_recognised()
        ledger.roll("Ukraine", {"INF": 3}, {"INF": 2}, [6, 6, 6, 6, 6])
        ledger.roll("Ukraine", {"INF": 3}, {"INF": 2}, [1, 1, 6, 6, 6], round=2)
        (ruling,) = ledger.rulings()
        assert ruling.rule == CDE_ATTACKERS
        assert ruling.kept == (*every_die(5, 5), *every_die(6, 5))

    def test_the_declared_error_repeated_is_too_many_units(self) -> None:
        """4 INF rolled again for the 3 Karelia holds: as Error Correction III, Too many
        units, the first 3 dice stand and the last is dropped; the void ruling no longer
        keeps that die."""
        ledger = void_then_recognised()
        ledger.roll("Ukraine", {"INF": 4}, {"INF": 2}, [1, 6, 6, 6, 6, 6])
        rulings = ledger.rulings()
        ruling = the_ruling(rulings, TOO_MANY)
        assert ruling.about == (5,)
        assert (ruling.dropped, ruling.kept) == (dice_of(5, 3), dice_of(5, 0, 1, 2, 4, 5))
        assert ruling.reroll_from_round == 2
        assert REFOUGHT in ruling.decision and "with the correct units (3 INF)" in ruling.decision
        void = the_ruling(rulings, CDE_ATTACKERS)
        assert void.kept == dice_of(5, 0, 1, 2, 4, 5)
        assert "its own rolling errors ruled apart" in void.decision

    def test_too_few_units_are_rolled_for(self) -> None:
        ledger = void_then_recognised()
        ledger.roll("Ukraine", {"INF": 2}, {"INF": 2}, [6, 6, 6, 6])
        ruling = the_ruling(ledger.rulings(), TOO_FEW)
        assert (ruling.about, ruling.kept, ruling.dropped) == ((5,), every_die(5, 4), ())
        assert requests(ruling) == [roll_request("USSR", UKRAINE, [("INF", 1)], [])]
        assert ruling.reroll_from_round == 2

    def test_a_later_round_is_weighed_against_the_survivors(self) -> None:
        """Round 1 of the re-fight kills one defender (#5 die 0); round 2 rolls both
        defending INF again (#6): a defender too many."""
        ledger = void_then_recognised()
        ledger.roll("Ukraine", {"INF": 3}, {"INF": 2}, [1, 6, 6, 6, 6])
        ledger.roll("Ukraine", {"INF": 3}, {"INF": 2}, [6, 6, 6, 6, 6], round=2)
        ruling = the_ruling(ledger.rulings(), TOO_MANY)
        assert (ruling.about, ruling.dropped) == ((6,), dice_of(6, 4))
        assert ruling.reroll_from_round == 3


class TestNoUnitsMayBeAdded:
    """He may not add additional attacking units to the battle."""

    def test_an_armour_added_to_the_re_fight(self) -> None:
        """Karelia has 2 ARM, but none was declared: the ARM's die (#5 die 3, a hit) is
        ignored and the battle re-rolled from round 2."""
        ledger = void_then_recognised()
        ledger.roll("Ukraine", {"INF": 3, "ARM": 1}, {"INF": 2}, [6, 6, 6, 1, 6, 6])
        ruling = the_ruling(ledger.rulings(), f"{CDE_NO_ADDED_UNITS}; {WRONG_UNITS}")
        assert ruling.about == (5,)
        assert (ruling.dropped, ruling.kept) == (dice_of(5, 3), dice_of(5, 0, 1, 2, 4, 5))
        assert "1 ARM rolled in the battle re-fought, 0 declared" in ruling.decision
        assert ruling.reroll_from_round == 2

    def test_more_than_declared_is_adding_units(self) -> None:
        """5 INF for the 4 declared (3 held): two too many, one of them added."""
        ledger = void_then_recognised()
        ledger.roll("Ukraine", {"INF": 5}, {"INF": 2}, [6, 6, 6, 1, 1, 6, 6])
        ruling = the_ruling(ledger.rulings(), f"{CDE_NO_ADDED_UNITS}; {TOO_MANY}")
        assert ruling.dropped == dice_of(5, 3, 4)
        assert "5 INF rolled in the battle re-fought, 4 declared" in ruling.decision


class TestReRolledWithTheCorrectDefenders:
    """The attacker may then elect to re-roll the entire battle with the correct number and
    type of defending units ... If any defending units are listed, then they must be 100%
    correct."""

    ORDERS = "Russia 1 pre-combat\n\nAttack #1 - Ukraine (3 INF)\nKar 2 ARM\n"

    def test_the_wrong_defenders_rolled_again(self) -> None:
        """The re-fight (#5) rolls the 3 INF the void declaration listed, not the 2 there:
        the third defender's die is dropped as too many units."""
        ledger = GameLedger(board(EAST))
        ledger.precombat(self.ORDERS)
        ledger.roll("Ukraine", {"ARM": 2}, {"INF": 3}, [1, 1, 6, 6, 6])
        ledger.note("error-recognition", "Ukraine holds 2 INF", AXIS, ref_seq=3)
        ledger.roll("Ukraine", {"ARM": 2}, {"INF": 3}, [6, 6, 6, 6, 1])
        rulings = ledger.rulings()
        assert the_ruling(rulings, CDE_DEFENDERS).dropped == every_die(3, 5)
        ruling = the_ruling(rulings, TOO_MANY)
        assert (ruling.about, ruling.dropped) == ((5,), dice_of(5, 4))

    def test_the_correct_defenders_stand(self) -> None:
        ledger = GameLedger(board(EAST))
        ledger.precombat(self.ORDERS)
        ledger.roll("Ukraine", {"ARM": 2}, {"INF": 3}, [1, 1, 6, 6, 6])
        ledger.note("error-recognition", "Ukraine holds 2 INF", AXIS, ref_seq=3)
        ledger.roll("Ukraine", {"ARM": 2}, {"INF": 2}, [6, 6, 6, 6])
        (ruling,) = ledger.rulings()
        assert ruling.rule == CDE_DEFENDERS and ruling.kept == every_die(5, 4)
