"""IAAPA Error Correction VII, Time Limit for Error Corrections, ruled on from a game's
ledger: whether an error is still correctable, must be corrected first, voids the next turn,
or is fixed, with the entries that prove it (the erroneous roll, the error-recognition note,
the first die of the next turn)."""

from __future__ import annotations

from adjudicator.names import power_label
from adjudicator.powers import Power
from adjudicator.rulings.model import TECH, TIME_LIMIT, TOO_FEW, TOO_MANY
from adjudicator.units import UnitType as U
from tests.conformance.test_rulings_ledgers import AXIS, GameLedger, board, every_die, the_ruling

R, G, UK, US = Power.USSR, Power.GERMANY, Power.UK, Power.USA
OWNERS = {"East Canada": G}
BOARD = {
    "Karelia S.S.R.": {R: {U.INF: 3, U.ARM: 4}},
    "Ukraine S.S.R.": {G: {U.INF: 2}},
    "East US": {US: {U.INF: 2, U.ARM: 2}},
    "East Canada": {G: {U.INF: 1}},
}
NAMES = {R: "Russia", G: "Germany", UK: "UK", Power.JAPAN: "Japan", US: "USA"}


def russia_1(ledger: GameLedger, armour: int) -> int:
    """USSR 1 attacks the Ukraine with 4 ARM, rolled as ``armour``: the roll's seq."""
    ledger.precombat("Russia 1 pre-combat\n\nAttack #1 - Ukraine (2 INF)\nKar 4 ARM\n")
    return ledger.roll("Ukraine", {"ARM": armour}, {"INF": 2}, [6] * (armour + 2))


def end_turn(ledger: GameLedger) -> int:
    mover = ledger.mover()
    return ledger.postcombat(
        f"{NAMES[mover]} {ledger.position.round} post-combat\n\nResults: none\n"
    )


def quiet_turn(ledger: GameLedger) -> int:
    """A whole turn whose only die is a research die: the seq of that roll."""
    mover = ledger.mover()
    ledger.precombat(f"{NAMES[mover]} {ledger.position.round} pre-combat\n\nTech: 1 die\n")
    seq = ledger.tech(1, [3])
    end_turn(ledger)
    return seq


def recognise(ledger: GameLedger, seq: int) -> int:
    return ledger.note("error-recognition", f"entry #{seq} rolled the wrong units", AXIS, seq)


class TestFixedWhenNotRecognised:
    """Errors are correctable only within a time period of 1 subsequent turn; if they are not
    identified and corrected within that time, they become fixed. For example, if an error
    occurs on Russia 1, but is not recognized until after G1 has been rolled, it is not
    subject to correction"""

    def test_recognised_after_g1_was_rolled(self) -> None:
        ledger = GameLedger(board(BOARD, owners=OWNERS))
        error = russia_1(ledger, 7)
        end_turn(ledger)
        g1 = quiet_turn(ledger)
        late = recognise(ledger, error)
        ruling = the_ruling(ledger.rulings(), TIME_LIMIT)
        assert ruling.about == (error, g1, late)
        assert (ruling.kept, ruling.dropped, ruling.reroll_from_round) == (
            every_die(error, 9),
            (),
            None,
        )
        assert "not recognised through the dice roller before Germany 1" in ruling.decision
        assert ruling.decision.startswith("fixed")
        assert not [r for r in ledger.rulings() if r.rule == TOO_MANY]

    def test_still_correctable_while_g1_is_not_rolled(self) -> None:
        ledger = GameLedger(board(BOARD, owners=OWNERS))
        error = russia_1(ledger, 7)
        end_turn(ledger)
        ledger.precombat("Germany 1 pre-combat\n\nTech: 1 die\n")
        ruling = the_ruling(ledger.rulings(), TOO_MANY)
        assert ruling.about == (error,) and ruling.reroll_from_round == 2


class TestRecognisedBeforeTheNextTurn:
    """If an error is recognized before the next turn is rolled, it must be corrected before
    the next turn is rolled. If it is not, then the subsequent turn is void and must be
    re-done."""

    def test_recognised_and_corrected_in_time(self) -> None:
        """Dice to set aside and nothing to roll: the ruling is the correction."""
        ledger = GameLedger(board(BOARD, owners=OWNERS))
        error = russia_1(ledger, 7)
        note = recognise(ledger, error)
        end_turn(ledger)
        quiet_turn(ledger)
        ruling = the_ruling(ledger.rulings(), TOO_MANY)
        assert ruling.about == (error, note)
        assert not [r for r in ledger.rulings() if r.rule == TIME_LIMIT]

    def test_recognised_and_not_corrected_voids_the_next_turn(self) -> None:
        """One armour was never rolled: G1 rolled before it was, so G1 is void."""
        ledger = GameLedger(board(BOARD, owners=OWNERS))
        error = russia_1(ledger, 3)
        note = recognise(ledger, error)
        end_turn(ledger)
        g1 = quiet_turn(ledger)
        rulings = ledger.rulings()
        short = the_ruling(rulings, TOO_FEW)
        assert short.about == (error, note) and short.to_roll
        void = the_ruling(rulings, TIME_LIMIT)
        assert void.about == (error, note, g1)
        assert "Germany 1 is void and must be re-done" in void.decision

    def test_corrected_before_the_next_turn(self) -> None:
        ledger = GameLedger(board(BOARD, owners=OWNERS))
        error = russia_1(ledger, 3)
        note = recognise(ledger, error)
        made_up = ledger.roll("Ukraine", {"ARM": 1}, {}, [6])
        end_turn(ledger)
        quiet_turn(ledger)
        rulings = ledger.rulings()
        assert the_ruling(rulings, TOO_FEW).about == (error, note, made_up)
        assert not [r for r in rulings if r.rule == TIME_LIMIT]


class TestFixedWhenNeverCorrected:
    """If, however, another turn is rolled and the error is still not corrected, it becomes
    fixed and not subject to correction."""

    def test_two_turns_rolled_without_the_correction(self) -> None:
        ledger = GameLedger(board(BOARD, owners=OWNERS))
        error = russia_1(ledger, 3)
        note = recognise(ledger, error)
        end_turn(ledger)
        g1 = quiet_turn(ledger)
        uk1 = quiet_turn(ledger)
        (ruling,) = [r for r in ledger.rulings() if r.rule in (TIME_LIMIT, TOO_FEW)]
        assert ruling.rule == TIME_LIMIT
        assert ruling.about == (error, note, g1, uk1)
        assert ruling.kept == every_die(error, 5) and ruling.to_roll == ()


class TestTheUsaUssrTurn:
    """For the purpose of error correction, the USA-USSR turn will be considered as one
    turn, and errors that occur in the USA portion of the turn will be adjudicated on a case
    by case basis by the Minister of Law."""

    def usa_1(self) -> tuple[GameLedger, int]:
        ledger = GameLedger(board(BOARD, to_move=US, owners=OWNERS))
        ledger.precombat("USA 1 pre-combat\n\nAttack #1 - E Canada (1 INF)\nEast US 2 ARM\n")
        assert not ledger.bodies[-1]["data"]["findings"]
        error = ledger.roll("E Canada", {"ARM": 3}, {"INF": 1}, [6, 6, 6, 6])
        end_turn(ledger)
        return ledger, error

    def test_the_ussr_turn_after_the_usa_is_the_same_turn(self) -> None:
        """Recognised after USSR 2 was rolled, but before Germany 2: still in time."""
        ledger, error = self.usa_1()
        assert power_label(ledger.mover()) == "USSR"
        quiet_turn(ledger)
        note = recognise(ledger, error)
        ruling = the_ruling(ledger.rulings(), TOO_MANY)
        assert ruling.about == (error, note)
        assert "the Minister of Law adjudicates it case by case" in ruling.decision

    def test_fixed_once_germany_2_is_rolled(self) -> None:
        ledger, error = self.usa_1()
        quiet_turn(ledger)
        g2 = quiet_turn(ledger)
        ruling = the_ruling(ledger.rulings(), TIME_LIMIT)
        assert ruling.about == (error, g2)


class TestRecognitionThroughTheDiceRoller:
    """It is mandatory that all communications regarding error recognition occur through
    the dice roller. This will allow definite proof of when the error was recognized and
    determine the proper correction procedure.

    A note of another topic is no recognition; one naming another entry recognises nothing
    here."""

    def test_a_general_note_is_no_recognition(self) -> None:
        ledger = GameLedger(board(BOARD, owners=OWNERS))
        error = russia_1(ledger, 7)
        ledger.note("general", "you rolled 7 ARM", AXIS, error)
        end_turn(ledger)
        quiet_turn(ledger)
        assert the_ruling(ledger.rulings(), TIME_LIMIT).decision.startswith("fixed")

    def test_a_recognition_of_another_entry(self) -> None:
        ledger = GameLedger(board(BOARD, owners=OWNERS))
        error = russia_1(ledger, 7)
        ledger.note("error-recognition", "the pre-combat turn", AXIS, 1)
        end_turn(ledger)
        quiet_turn(ledger)
        assert the_ruling(ledger.rulings(), TIME_LIMIT).about[0] == error


class TestWhichErrorsAreTimed:
    """This will apply to CDEs, rolling errors, and non-combat errors only. All other errors
    will be adjudicated on a case by case basis by the Minister of Law."""

    def test_a_cde_becomes_fixed(self) -> None:
        ledger = GameLedger(board(BOARD, owners=OWNERS))
        ledger.precombat("Russia 1 pre-combat\n\nAttack #1 - Ukraine (2 INF)\nKar 5 ARM\n")
        error = ledger.roll("Ukraine", {"ARM": 5}, {"INF": 2}, [6] * 7)
        end_turn(ledger)
        g1 = quiet_turn(ledger)
        ruling = the_ruling(ledger.rulings(), TIME_LIMIT)
        assert (ruling.about, ruling.void_battles) == ((2, error, g1), ())
        assert ruling.kept == every_die(error, 7) and "Error Correction II" in ruling.decision

    def test_a_tech_roll_error_is_not_timed(self) -> None:
        ledger = GameLedger(board(BOARD, owners=OWNERS))
        ledger.note("general", "Tech: 1 die", "allies@example.org")
        error = ledger.tech(2, [3, 4])
        ledger.precombat("Russia 1 pre-combat\n\nTech: 1 die\n")
        end_turn(ledger)
        quiet_turn(ledger)
        quiet_turn(ledger)
        rulings = ledger.rulings()
        assert not [r for r in rulings if r.rule == TIME_LIMIT]
        assert the_ruling(rulings, TECH).about == (2, error)
