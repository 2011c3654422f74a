"""IAAPA Error Correction III, Too few units, for a submarine's first strike: the missing
shots are asked for as the roller throws them, with its ``subs-first`` option (only the
attacking submarines), and a roll of exactly them joins the round's first strike.

The rule book: "If a naval battle has an attacking sub, the attacker MAY, at his
discretion, roll for the sub first" (Combat Resolution), and "If a player incorrectly
enters too few units, simply roll for the missing units and then re-roll the remainder of
the battle beginning with the next round" (Error Correction III). A main roll of the
missing submarines would be read as their ordinary attack, not as their first strike, so it
is not what the ruling asks for and does not complete the round.

The ledger: the genesis is #1, the pre-combat turn #2, the first strike #3 (one SUB of two),
the defender's roll #4."""

from __future__ import annotations

from adjudicator.powers import Power
from adjudicator.rulings.model import TOO_FEW, WRONG_UNITS
from adjudicator.units import UnitType as U
from tests.conformance.test_rulings_ledgers import (
    GameLedger,
    board,
    dice_of,
    requests,
    roll_request,
    the_ruling,
)

G, UK = Power.GERMANY, Power.UK
BALTIC = "Baltic Sea Zone"
UNITS = {BALTIC: {UK: {U.BB: 1}}, "North Sea Zone": {G: {U.SUB: 2}}}
ORDERS = "Germany 1 pre-combat\n\nAttack #1 - Baltic SZ (1 BB)\nNorth SZ 2 SUB\n"


def one_sub_struck_first() -> GameLedger:
    ledger = GameLedger(board(UNITS, to_move=G))
    ledger.precombat(ORDERS)
    ledger.roll("Baltic SZ", {"SUB": 1}, {}, [6], options=["subs-first"])
    ledger.roll("Baltic SZ", {}, {"BB": 1}, [6], options=["defenders-only"])
    return ledger


class TestAMissingFirstStrike:
    """If a naval battle has an attacking sub, the attacker MAY, at his discretion, roll for
    the sub first. ... If a player incorrectly enters too few units, simply roll for the
    missing units and then re-roll the remainder of the battle beginning with the next
    round."""

    def test_the_missing_shots_are_asked_for_as_a_first_strike(self) -> None:
        ruling = the_ruling(one_sub_struck_first().rulings(), TOO_FEW)
        assert ruling.about == (3, 4)
        assert (ruling.kept, ruling.dropped) == (((3, 0), (4, 0)), ())
        assert requests(ruling) == [
            roll_request("Germany", BALTIC, [("SUB", 1)], [], ["subs-first"])
        ]
        assert "first strike SUB: 1 die (entry #3) for 2 SUB: 1 not rolled" in ruling.decision
        assert "with the roller's subs-first option" in ruling.decision
        assert "round 1's first strike" in ruling.decision
        assert ruling.reroll_from_round == 2

    def test_the_first_strike_made_up_completes_round_1(self) -> None:
        """The sub-first roll of the one missing SUB (#5) joins round 1's first strike; the
        round rolled after it (#6) is the battle re-rolled and stands."""
        ledger = one_sub_struck_first()
        ledger.roll("Baltic SZ", {"SUB": 1}, {}, [5], options=["subs-first"])
        ledger.roll("Baltic SZ", {"SUB": 2}, {"BB": 1}, [6, 6, 6], round=2)
        (ruling,) = ledger.rulings()
        assert (ruling.rule, ruling.about) == (TOO_FEW, (3, 4, 5))
        assert ruling.kept == ((3, 0), (4, 0), (5, 0)) and ruling.dropped == ()
        assert (ruling.to_roll, ruling.reroll_from_round) == ((), 2)
        assert "rolled in entry #5: 5, read as this round's first strike" in ruling.decision

    def test_a_first_strike_hit_made_up_ends_the_battle(self) -> None:
        """The late first-strike shot hits (#5): the battleship is sunk before it fires, and
        the round rolled after it (#6) is of a battle already over."""
        ledger = one_sub_struck_first()
        ledger.roll("Baltic SZ", {"SUB": 1}, {}, [1], options=["subs-first"])
        ledger.roll("Baltic SZ", {"SUB": 2}, {"BB": 1}, [6, 6, 6], round=2)
        (ruling,) = ledger.rulings()
        assert ruling.kept == ((3, 0), (4, 0), (5, 0))
        assert ruling.dropped == dice_of(6, 0, 1, 2)
        assert ruling.reroll_from_round is None
        assert "after the battle was over" in ruling.decision

    def test_a_main_roll_of_the_missing_sub_is_not_its_first_strike(self) -> None:
        """A main roll of the missing SUB (#5) is not the first-strike shot asked for:
        "If a player enters the wrong type of unit then its roll will be ignored and the
        correct unit will be rolled for" (Wrong Units): its die is dropped, though a hit,
        and the first strike is still to be rolled."""
        ledger = one_sub_struck_first()
        ledger.roll("Baltic SZ", {"SUB": 1}, {}, [1])
        ruling = the_ruling(ledger.rulings(), WRONG_UNITS)
        assert ruling.about == (3, 4, 5)
        assert ruling.dropped == dice_of(5, 0)
        assert ruling.kept == ((3, 0), (4, 0))
        assert requests(ruling) == [
            roll_request("Germany", BALTIC, [("SUB", 1)], [], ["subs-first"])
        ]


class TestAFirstStrikeOnlyAgainstSurfaceShips:
    """A submarine attack rolled sub-first, then the defence alone, is one round: no
    ruling when every submarine struck."""

    def test_both_subs_struck_first(self) -> None:
        ledger = GameLedger(board(UNITS, to_move=G))
        ledger.precombat(ORDERS)
        ledger.roll("Baltic SZ", {"SUB": 2}, {}, [6, 6], options=["subs-first"])
        ledger.roll("Baltic SZ", {}, {"BB": 1}, [6], options=["defenders-only"])
        assert ledger.rulings() == []
