"""IAAPA Default Orders of Loss, the exceptions: a round rolled through the pause owed to the
defender, ruled on from a game's ledger."""

from __future__ import annotations

from adjudicator.powers import Power
from adjudicator.rulings.model import PAUSE
from adjudicator.rulings.pauses import PAUSE_OPTIONS
from adjudicator.units import UnitType as U
from tests.conformance.test_rulings_ledgers import AXIS, GameLedger, board, dice_of, every_die

R, G, UK = Power.USSR, Power.GERMANY, Power.UK
BOMBER = {"Karelia S.S.R.": {R: {U.INF: 2, U.ARM: 3}}, "Ukraine S.S.R.": {G: {U.INF: 2, U.BMB: 1}}}
ATTACK = "Russia 1 pre-combat\n\nAttack #1 - Ukraine (2 INF, 1 BMB)\nKar 3 ARM\n"
SUBMARINE = {
    "North Sea Zone": {UK: {U.BB: 1}},
    "Baltic Sea Zone": {G: {U.SUB: 1, U.TRN: 1}},
}
NAVAL = "UK 1 pre-combat\n\nAttack #1 - Baltic SZ (1 SUB, 1 TRN)\nNorth SZ 1 BB\n"


def bomber_battle() -> GameLedger:
    ledger = GameLedger(board(BOMBER))
    ledger.precombat(ATTACK)
    ledger.roll("Ukraine", {"ARM": 3}, {"INF": 2, "BMB": 1}, [1, 6, 6, 6, 6, 6])
    return ledger


class TestRollingThroughThePause:
    """If the attacker rolls both attacker AND defender in these cases without pausing and
    allowing the defender to declare his OOL, and if following the OOL correctly MAY have
    resulted in a DIFFERENT battle outcome for the dice ACTUALLY ROLLED, the attacking rolls
    shall stand, and the defender shall have the option to: accept the defending rolls as
    is, applied to the units now shown, to accept the defending rolls, applying the actual
    rolls to corrected units, or, to adjust the defending units to suit the correct OOL and
    re-roll the affected defending rolls.

    A defending bomber survives round 1's one hit (the default order loses an INF): the
    attacker must pause."""

    def test_the_defender_has_three_options_when_the_outcome_may_differ(self) -> None:
        """Had the defender lost the bomber, round 2's second defending die (a 2) would be an
        infantry's hit, not a bomber's miss."""
        ledger = bomber_battle()
        ledger.roll("Ukraine", {"ARM": 3}, {"INF": 1, "BMB": 1}, [6, 6, 6, 6, 2], round=2)
        (ruling,) = ledger.rulings()
        assert (ruling.rule, ruling.about) == (PAUSE, (3, 4))
        assert ruling.kept == dice_of(4, 0, 1, 2)  # the attacking rolls stand
        assert ruling.dropped == () and ruling.options == PAUSE_OPTIONS
        assert "may have changed the outcome" in ruling.decision

    def test_the_battle_stands_when_no_choice_could_change_it(self) -> None:
        """Round 2 kills both defenders whichever was lost first, and both defending dice
        miss either way."""
        ledger = bomber_battle()
        ledger.roll("Ukraine", {"ARM": 3}, {"INF": 1, "BMB": 1}, [1, 1, 6, 6, 6], round=2)
        (ruling,) = ledger.rulings()
        assert (ruling.rule, ruling.kept, ruling.options) == (PAUSE, every_die(4, 5), ())
        assert "the battle stands as rolled" in ruling.decision

    def test_a_pause_honoured_needs_no_ruling(self) -> None:
        """The defender named his casualty through the roller before round 2."""
        ledger = bomber_battle()
        ledger.note("special-orders", "battle #1: I lose an INF", AXIS)
        ledger.roll("Ukraine", {"ARM": 3}, {"INF": 1, "BMB": 1}, [6, 6, 6, 6, 2], round=2)
        assert ledger.rulings() == []

    def test_the_last_round_owes_a_pause_but_breaks_no_rule(self) -> None:
        assert bomber_battle().rulings() == []


class TestSubWithdrawal:
    """If a naval battle has a defending SUB, AC loaded with aircraft, or loaded TRNs and
    any of these units can survive the particular round of battle, the attacker MUST pause
    and ask the defender to identify the casualties prior to rolling the next round. If the
    defending SUB survives then the defender will indicate the sea zone to which it will
    withdraw"""

    def test_a_sub_that_might_have_withdrawn(self) -> None:
        """Round 1 misses on both sides; rolled on, round 2 sinks the transport and the sub
        sinks the battleship. Withdrawn, the sub would not have fired: the outcome differs."""
        ledger = GameLedger(board(SUBMARINE, to_move=UK))
        ledger.precombat(NAVAL)
        ledger.roll("Baltic SZ", {"BB": 1}, {"SUB": 1, "TRN": 1}, [6, 6, 6])
        ledger.roll("Baltic SZ", {"BB": 1}, {"SUB": 1, "TRN": 1}, [4, 2, 6], round=2)
        (ruling,) = ledger.rulings()
        assert (ruling.rule, ruling.about, ruling.options) == (PAUSE, (3, 4), PAUSE_OPTIONS)
        assert ruling.kept == dice_of(4, 0)
        assert "withdrawal zone" in ruling.decision


class TestSucceedingRolls:
    """If either of the last two options is taken by the defender, ANY succeeding rolls in
    the battle must be completely re-rolled"""

    def test_the_options_say_so(self) -> None:
        ledger = bomber_battle()
        ledger.roll("Ukraine", {"ARM": 3}, {"INF": 1, "BMB": 1}, [6, 6, 6, 6, 2], round=2)
        (ruling,) = ledger.rulings()
        assert "completely re-rolled" not in ruling.options[0]
        assert all("completely re-rolled" in option for option in ruling.options[1:])
