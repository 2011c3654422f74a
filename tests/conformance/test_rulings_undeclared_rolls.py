"""IAAPA Error Correction III for battles rolled while no pre-combat turn is in force
(players who use the dice server alone): the first round is taken as declared, and the
rounds after it are weighed against the survivors the dice left.

"A player must declare all combat prior to rolling any dice. - The exact number and type
of attacking units ... must be listed for each declared combat" (Error Correction II): with
no declaration on record there is nothing to hold the first round against, so every ruling
here says so, and only what the dice alone show is ruled.

The ledgers hold no turn: the genesis is #1, the first roll #2."""

from __future__ import annotations

from adjudicator.powers import Power
from adjudicator.rulings.model import AA_GUNS, BB_SUPPORT, TOO_FEW, TOO_MANY, WRONG_UNITS
from adjudicator.units import UnitType as U
from tests.conformance.test_rulings_ledgers import (
    GameLedger,
    board,
    dice_of,
    every_die,
    requests,
    roll_request,
    the_ruling,
)

R, G, UK = Power.USSR, Power.GERMANY, Power.UK
UKRAINE = "Ukraine S.S.R."
NO_DECLARATION = (
    "no pre-combat turn was recorded, so no declaration holds the rolls: the first round (#2) "
    "is taken as declared"
)
PLANES = {"Karelia S.S.R.": {R: {U.ARM: 2, U.FTR: 2}}, "Ukraine S.S.R.": {G: {U.INF: 3}}}


def dice_alone() -> GameLedger:
    """Round 1 (#2): 2 ARM, 2 FTR against 3 INF; an ARM hits and the last INF hits, so 1
    INF falls and 1 ARM (the default order of loss) falls."""
    ledger = GameLedger(board(PLANES))
    ledger.roll("Ukraine", {"ARM": 2, "FTR": 2}, {"INF": 3}, [1, 6, 6, 6, 6, 6, 1])
    return ledger


class TestTheFirstRoundIsTakenAsDeclared:
    """With no declaration, the first round's units are the battle's forces: whatever it
    lists, it is no rolling error."""

    def test_any_first_round_stands(self) -> None:
        """Karelia holds 2 ARM, and 5 are rolled: only a declaration could show it."""
        ledger = GameLedger(board(PLANES))
        ledger.roll("Ukraine", {"ARM": 5}, {"INF": 1, "AA": 1}, [6] * 6)
        assert ledger.rulings() == []

    def test_the_rounds_rolled_on_the_survivors_stand(self) -> None:
        ledger = dice_alone()
        ledger.roll("Ukraine", {"ARM": 1, "FTR": 2}, {"INF": 2}, [6, 6, 6, 6, 6], round=2)
        assert ledger.rulings() == []


class TestTooManyUnitsAgainstTheSurvivors:
    """If a player incorrectly enters too many units, for any given unit type, simply start
    with the first listed die roll and sequentially, from left to right, take the correct
    number of dice. ... Then re-roll the remainder of the battle beginning with the next
    Round."""

    def test_the_armour_lost_in_round_1_rolled_again(self) -> None:
        ledger = dice_alone()
        ledger.roll("Ukraine", {"ARM": 2, "FTR": 2}, {"INF": 2}, [6, 6, 6, 6, 6, 6], round=2)
        ruling = the_ruling(ledger.rulings(), TOO_MANY)
        assert (ruling.about, ruling.dropped) == ((3,), dice_of(3, 1))
        assert ruling.kept == dice_of(3, 0, 2, 3, 4, 5)
        assert ruling.reroll_from_round == 3
        assert NO_DECLARATION in ruling.decision
        assert ruling.decision.startswith("USSR 1 Ukraine S.S.R., round 2 (#3): ")

    def test_a_defender_sunk_in_round_1_rolled_again(self) -> None:
        ledger = dice_alone()
        ledger.roll("Ukraine", {"ARM": 1, "FTR": 2}, {"INF": 3}, [6, 6, 6, 6, 6, 6], round=2)
        ruling = the_ruling(ledger.rulings(), TOO_MANY)
        assert ruling.dropped == dice_of(3, 5)


class TestTooFewUnitsAgainstTheSurvivors:
    """If a player incorrectly enters too few units, simply roll for the missing units and
    then re-roll the remainder of the battle beginning with the next round."""

    def test_a_surviving_fighter_left_out(self) -> None:
        ledger = dice_alone()
        ledger.roll("Ukraine", {"ARM": 1, "FTR": 1}, {"INF": 2}, [6, 6, 6, 6], round=2)
        ruling = the_ruling(ledger.rulings(), TOO_FEW)
        assert (ruling.about, ruling.kept, ruling.dropped) == ((3,), every_die(3, 4), ())
        assert requests(ruling) == [roll_request("USSR", UKRAINE, [("FTR", 1)], [], round=2)]
        assert ruling.reroll_from_round == 3


class TestOnlyWhatTheDiceAloneShow:
    """No ruling where the dice alone cannot show an error: with no order of loss on
    record, a side may have taken other casualties than the defaults."""

    def test_another_casualty_choice_is_not_ruled(self) -> None:
        """The attacker lost a FTR, not the default ARM: as many units as survived, none of
        a type beyond what he had."""
        ledger = dice_alone()
        ledger.roll("Ukraine", {"ARM": 2, "FTR": 1}, {"INF": 2}, [6, 6, 6, 6, 6], round=2)
        assert ledger.rulings() == []

    def test_a_unit_never_in_the_battle_is_ruled(self) -> None:
        """An INF rolled for the attacker, who had none: no casualty choice explains it
        ("If a player enters the wrong type of unit then its roll will be ignored")."""
        ledger = dice_alone()
        ledger.roll("Ukraine", {"INF": 1, "FTR": 2}, {"INF": 2}, [6, 6, 6, 6, 6], round=2)
        ruling = the_ruling(ledger.rulings(), WRONG_UNITS)
        assert ruling.dropped == dice_of(3, 0)
        assert requests(ruling) == [roll_request("USSR", UKRAINE, [("ARM", 1)], [], round=2)]


class TestGhostsAfterRoundOne:
    """If an AA gun is rolled in error ... and the ghost AA gun scored a hit, then roll for
    the missing attacking aircraft, adjust the counts, and then re-roll the rest of the
    battle, starting with the next round. ... If a player leaves the BB support shot on in
    round 2, or turns it on in any subsequent round, then the generic ghost rule will
    apply"""

    def test_an_aa_gun_in_round_2_is_a_ghost(self) -> None:
        ledger = GameLedger(board(PLANES))
        ledger.roll("Ukraine", {"ARM": 2, "FTR": 2}, {"INF": 3}, [6] * 7)
        ledger.roll("Ukraine", {"ARM": 2, "FTR": 2}, {"INF": 3, "AA": 1}, [1, 6, *[6] * 7], round=2)
        ruling = the_ruling(ledger.rulings(), AA_GUNS)
        assert (ruling.about, ruling.dropped) == ((3,), dice_of(3, 0, 1))
        assert "an AA gun fires only before round 1" in ruling.decision
        assert ruling.reroll_from_round == 3 and NO_DECLARATION in ruling.decision

    def test_a_support_shot_left_on_in_round_2(self) -> None:
        units = {
            "United Kingdom": {UK: {U.INF: 2}},
            "North Sea Zone": {UK: {U.TRN: 1, U.BB: 1}},
            "West Europe": {G: {U.INF: 2, U.ARM: 1}},
        }
        ledger = GameLedger(board(units, to_move=UK))
        bb = {"BB": 1}
        ledger.roll("W Europe", {"INF": 2}, {"INF": 2, "ARM": 1}, [6] * 6, bombard=bb)
        ledger.roll("W Europe", {"INF": 2}, {"INF": 2, "ARM": 1}, [5, *[6] * 5], bombard=bb)
        (ruling,) = ledger.rulings()
        assert (ruling.rule, ruling.about, ruling.dropped) == (BB_SUPPORT, (3,), dice_of(3, 0))
        assert ruling.reroll_from_round is None


class TestADeclarationInForce:
    """A roll made while a pre-combat turn is in force is weighed against it, not read as
    its own declaration."""

    def test_the_first_round_is_held_to_the_declaration(self) -> None:
        ledger = GameLedger(board(PLANES))
        ledger.precombat("Russia 1 pre-combat\n\nAttack #1 - Ukraine (3 INF)\nKar 2 ARM\n")
        ledger.roll("Ukraine", {"ARM": 3}, {"INF": 3}, [6] * 6)
        ruling = the_ruling(ledger.rulings(), TOO_MANY)
        assert NO_DECLARATION not in ruling.decision
