"""IAAPA Error Correction IV (Tech Rolls), V (Discrepancies Between Maps and Orders) and VI
(Typographical Errors), ruled on from a game's ledger: the weapons-development rolls against
the dice declared, and the findings the service recorded with each turn."""

from __future__ import annotations

from adjudicator.powers import Power
from adjudicator.rulings.model import CDE_ATTACKERS, DISCREPANCIES, TECH, TYPOS
from adjudicator.units import UnitType as U
from tests.conformance.test_rulings_ledgers import ALLIES, GameLedger, board, dice_of, the_ruling

R, G = Power.USSR, Power.GERMANY
HOME = {"Karelia S.S.R.": {R: {U.INF: 3}}, "Russia": {R: {U.INF: 2}}}


class TestTechDiceDeclaredInAdvance:
    """if there is a declaration email, or note, stating how many tech dice have been
    purchased in advance of the roll, this will be considered the desired amount purchased."""

    def test_extra_dice_are_ignored(self) -> None:
        """Error Correction IV: "if more dice are rolled, then the extra dice are ignored
        similar to a combat rolling error ... the rolls determining the techs acquired will
        be ignored and rerolled once the correct number of tech dice have been rolled"."""
        ledger = GameLedger(board(HOME))
        ledger.note("special-orders", "Tech: 2 dice", ALLIES)
        ledger.tech(3, [6, 1, 6, 3, 4])
        (ruling,) = ledger.rulings()
        assert (ruling.rule, ruling.about) == (TECH, (2, 3))
        assert ruling.kept == dice_of(3, 0, 1)
        assert ruling.dropped == dice_of(3, 2, 3, 4)  # the third die and both chart dice
        assert ruling.to_roll == ()
        assert "1 breakthrough(s)" in ruling.decision

    def test_too_few_dice_are_made_up(self) -> None:
        """Error Correction IV: "if too few dice are rolled, the extra dice will be rolled to
        make up the total purchased"."""
        ledger = GameLedger(board(HOME))
        ledger.note("general", "Research: 3 dice", ALLIES)
        ledger.tech(1, [6, 2])
        (ruling,) = ledger.rulings()
        assert (ruling.kept, ruling.dropped) == (dice_of(3, 0), dice_of(3, 1))
        assert ruling.to_roll == (
            {"round": 1, "turn": 1, "country": "USSR", "dice": 2, "owned": []},
        )

    def test_extra_dice_entered_with_the_declaration_are_ignored_by_the_roller(self) -> None:
        """Error Correction IV: "if more dice are rolled, then the extra dice are ignored":
        declared to the roller itself, the entry counts the first dice only and throws chart
        dice for their breakthroughs alone, so those chart dice stand."""
        ledger = GameLedger(board(HOME))
        seq = ledger.tech(4, [6, 1, 6, 6, 3], declared=2)
        (ruling,) = ledger.rulings()
        assert ruling.kept == (*dice_of(seq, 0, 1), *dice_of(seq, 4))
        assert ruling.dropped == dice_of(seq, 2, 3)
        assert "the last 2 are ignored" in ruling.decision

    def test_missing_dice_made_up_by_the_roller_leave_nothing_to_rule(self) -> None:
        """Error Correction IV: "if too few dice are rolled, the extra dice will be rolled to
        make up the total purchased": the roller threw them before any chart die."""
        ledger = GameLedger(board(HOME))
        ledger.tech(1, [2, 6, 4], declared=2)
        assert ledger.rulings() == []

    def test_a_note_by_the_other_player_declares_nothing(self) -> None:
        ledger = GameLedger(board(HOME))
        ledger.note("general", "Tech: 1 die", "axis@example.org")
        ledger.tech(2, [2, 3])
        assert ledger.rulings() == []


class TestNoDeclarationInAdvance:
    """if there is no declaration email or note in advance of the roll, then the number
    entered in the roller will be assumed to be the number desired."""

    def test_the_number_rolled_stands(self) -> None:
        ledger = GameLedger(board(HOME))
        ledger.tech(2, [2, 3])
        assert ledger.rulings() == []

    def test_the_number_declared_to_the_roller_counts(self) -> None:
        ledger = GameLedger(board(HOME))
        ledger.tech(2, [2, 3], declared=1)
        (ruling,) = ledger.rulings()
        assert (ruling.about, ruling.kept, ruling.dropped) == ((2,), dice_of(2, 0), dice_of(2, 1))


class TestTechDiceCostingMoreThanTheBank:
    """if the number of dice rolled costs more than the available ipcs, then it will be
    considered a declaration error and will need to be re-declared and re-rolled with the
    correct number of dice."""

    def test_every_die_is_dropped(self) -> None:
        ledger = GameLedger(board(HOME, bank={R: 8}))
        ledger.tech(2, [6, 3, 5])
        (ruling,) = ledger.rulings()
        assert (ruling.rule, ruling.kept, ruling.dropped) == (TECH, (), dice_of(2, 0, 1, 2))
        assert "$8 in hand" in ruling.decision and "at most 1" in ruling.decision

    def test_research_declared_beyond_the_bank(self) -> None:
        ledger = GameLedger(board(HOME, bank={R: 10}))
        ledger.precombat("Russia 1 pre-combat\n\nTech: 3 dice\n")
        (ruling,) = ledger.rulings()
        assert (ruling.rule, ruling.about) == (TECH, (2,))
        assert "declaration error" in ruling.decision


class TestMapsAndOrders:
    """If there is a dispute between listed non-combat moves and the map update the listed
    non-combat moves will take precedence."""

    def test_the_non_combat_move_takes_precedence(self) -> None:
        ledger = GameLedger(board(HOME))
        ledger.precombat("Russia 1 pre-combat\n\nPurchases: 1 INF\n")
        ledger.postcombat(
            "Russia 1 post-combat\n\nNon-combat moves:\nKarelia 1 INF to Russia\n\n"
            "Placement:\nRussia 1 INF\n\nMap update:\nKarelia 3 INF\nRussia 4 INF\n"
        )
        ruling = the_ruling([r for r in ledger.rulings() if "Karelia" in r.decision], DISCREPANCIES)
        assert ruling.about == (3,)
        assert "takes precedence" in ruling.decision and "keeps 2 INF" in ruling.decision


class TestTypographicalErrors:
    """Simple typographical misspellings are ignored and not considered errors. Ex: 10 ing
    instead of 10 inf; 10 inf Moscoq instead of 10 inf Moscow."""

    def test_a_misspelling_is_no_error(self) -> None:
        units = {**HOME, "Ukraine S.S.R.": {G: {U.INF: 1}}}
        ledger = GameLedger(board(units))
        ledger.precombat("Russia 1 pre-combat\n\nAttack #1 - Ukrain\nKar 3 ing\n")
        ledger.roll("Ukraine", {"INF": 3}, {"INF": 1}, [6, 6, 6, 6])
        rulings = ledger.rulings()
        assert [r.rule for r in rulings] == [TYPOS, TYPOS]
        assert all(r.about == (2,) and r.void_battles == () for r in rulings)
        assert "'ing'" in rulings[1].decision or "'ing'" in rulings[0].decision


class TestANumberIsNeverATypo:
    """A number can never be a typographical error."""

    def test_a_number_misspelt_is_not_read(self) -> None:
        ledger = GameLedger(board(HOME))
        ledger.precombat("Russia 1 pre-combat\n\nPurchases: 1O inf\n")
        ruling = the_ruling(ledger.rulings(), TYPOS)
        assert "'1O' is not a number" in ruling.decision
        assert "the count is not read" in ruling.decision


class TestWrongTerritory:
    """If a typographical error results in the wrong territory being listed, i.e., E.US
    instead of W.US, this will be considered an error, not a typo."""

    def test_the_wrong_origin_is_a_declaration_error(self) -> None:
        units = {
            "Karelia S.S.R.": {R: {U.ARM: 2}},
            "Russia": {R: {U.ARM: 2}},
            "Caucasus": {R: {U.INF: 1}},
            "Ukraine S.S.R.": {G: {U.INF: 1}},
        }
        ledger = GameLedger(board(units))
        ledger.precombat("Russia 1 pre-combat\n\nAttack #1 - Ukraine (1 INF)\nCauc 2 ARM\n")
        ledger.roll("Ukraine", {"ARM": 2}, {"INF": 1}, [1, 6, 6])
        (ruling,) = ledger.rulings()
        assert ruling.rule == CDE_ATTACKERS
        assert ruling.void_battles == ("USSR 1 #1 Ukraine S.S.R.",)


class TestReadilyDecipherable:
    """In all cases, the correct word must be readily decipherable."""

    def test_a_name_of_two_places_is_not_read(self) -> None:
        """ "Med" may be either Mediterranean zone."""
        ledger = GameLedger(board(HOME, to_move=Power.UK))
        ledger.precombat("UK 1 pre-combat\n\nAttack #1 - Med (1 BB)\nGib SZ 1 BB\n")
        ruling = the_ruling(ledger.rulings(), TYPOS)
        assert "not readily decipherable" in ruling.decision and ruling.about == (2,)


class TestTechDiceMadeUp:
    """if too few dice are rolled, the extra dice will be rolled to make up the total
    purchased. - in both cases, the rolls determining the techs acquired will be ignored and
    rerolled once the correct number of tech dice have been rolled.

    The ruling on the short roll reads the later roll that makes up the dice it asked for;
    the make-up is not ruled on by itself (it is short of the declaration only on its own)."""

    def test_the_make_up_absorbs_the_shortfall(self) -> None:
        """3 dice declared (#2), 1 rolled (#3), the 2 missing rolled (#4): every research
        die stands, nothing is left to roll; #3's chart die is ignored."""
        ledger = GameLedger(board(HOME))
        ledger.note("general", "Research: 3 dice", ALLIES)
        ledger.tech(1, [6, 2])
        ledger.tech(2, [3, 4])
        (ruling,) = ledger.rulings()
        assert (ruling.rule, ruling.about) == (TECH, (2, 3, 4))
        assert ruling.kept == (*dice_of(3, 0), *dice_of(4, 0, 1))
        assert ruling.dropped == dice_of(3, 1)
        assert ruling.to_roll == ()
        assert "made up in #4" in ruling.decision
        assert "all 3 research dice are rolled and stand (1 breakthrough(s))" in ruling.decision
        assert "the chart dice of #3 are ignored and re-rolled" in ruling.decision

    def test_the_make_ups_chart_dice_stand(self) -> None:
        """The make-up's own breakthrough (#4 die 1) and its chart die (#4 die 2) were
        thrown once the correct number of tech dice had been rolled: they stand."""
        ledger = GameLedger(board(HOME))
        ledger.note("general", "Research: 3 dice", ALLIES)
        ledger.tech(1, [2])
        ledger.tech(2, [3, 6, 4])
        (ruling,) = ledger.rulings()
        assert ruling.kept == (*dice_of(3, 0), *dice_of(4, 0, 1, 2))
        assert ruling.dropped == ()

    def test_a_make_up_still_short_asks_for_the_rest(self) -> None:
        ledger = GameLedger(board(HOME))
        ledger.note("general", "Research: 4 dice", ALLIES)
        ledger.tech(1, [2])
        ledger.tech(2, [3, 4])
        (ruling,) = ledger.rulings()
        assert ruling.about == (2, 3, 4)
        assert ruling.kept == (*dice_of(3, 0), *dice_of(4, 0, 1))
        assert ruling.to_roll == (
            {"round": 1, "turn": 1, "country": "USSR", "dice": 1, "owned": []},
        )
        assert "made up in #4: roll the 1 missing" in ruling.decision

    def test_a_later_roll_of_too_many_is_no_make_up(self) -> None:
        """A later roll of more dice than are missing does not make them up: the short roll
        still asks for them, and the later one is weighed by itself."""
        ledger = GameLedger(board(HOME))
        ledger.note("general", "Research: 2 dice", ALLIES)
        ledger.tech(1, [2])
        ledger.tech(3, [3, 4, 5])
        first, second = ledger.rulings()
        assert (first.about, first.to_roll[0]["dice"]) == ((2, 3), 1)
        assert (second.about, second.dropped) == ((2, 4), dice_of(4, 2))
