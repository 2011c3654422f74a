"""IAAPA Post Combat Orders and Error Correction V, played out: the board follows the dice and
the orders, and what the post-combat email writes against them is a finding."""

from __future__ import annotations

from adjudicator.declarations import Code, check_report
from adjudicator.notation import Turn, parse
from adjudicator.position import initial
from adjudicator.powers import Power
from adjudicator.turns import Advance, BattleOutcome, Finding, advance, outcome_from_json
from adjudicator.units import Units
from adjudicator.units import UnitType as U
from tests.conformance.cases import battle

R, G = Power.USSR, Power.GERMANY

PRE = """USSR 1 pre-combat

Tech: none
Purchases: 8 INF ($24)

Combat moves:
Attack #1 - Ukraine (3 INF, 2 ARM, 1 FTR)
Kar 3 INF, 1 ARM
Cauc 3 INF
Russia 1 ARM, 1 FTR (land Caucasus)
"""

POST = """USSR 1 post-combat

Results:
Attack #1 - Ukraine: won, 3 INF, 2 ARM, 1 FTR left

Non-combat moves:
Russia 2 INF to Karelia
Kar 1 FTR to Russia

Placement:
Russia 8 INF

Map update:
Russia: 10 INF, 1 ARM, 1 FTR, AA, IC
Karelia: 2 INF, AA, IC
Caucasus: 2 INF, 1 FTR
Ukraine: 3 INF, 2 ARM
Karelia SZ: 1 TRN, 1 SUB
Evenki: 2 INF
Yakut: 3 INF
Soviet Far East: 2 INF, 1 ARM
Kazakh
Novosibirsk

USSR 9/$27
"""


def won() -> BattleOutcome:
    """Round 1: five hits each way (the attacker loses 3 INF); round 2 takes the last INF."""
    return outcome_from_json(
        battle(
            "land",
            {"INF": 6, "ARM": 2, "FTR": 1},
            {"INF": 3, "ARM": 2, "FTR": 1},
            {
                "attacker": {"INF": [1, 1, 1, 6, 6, 6], "ARM": [1, 6], "FTR": [1]},
                "defender": {"INF": [1, 1, 6], "ARM": [1, 6], "FTR": [6]},
            },
            {"attacker": {"INF": [1, 6, 6], "ARM": [1, 6], "FTR": [6]}, "defender": {"INF": [6]}},
        )
    )


def read(text: str) -> Turn:
    turn = parse(text)
    assert turn.errors == (), "the email itself must read cleanly"
    return turn


def play(post: str = POST) -> Advance:
    return advance(initial(), read(PRE), read(post), {1: won()})


def line_of(text: str, fragment: str) -> int:
    """The 1-based line of ``text`` holding ``fragment``."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


def found(turn: Advance, code: str) -> list[int]:
    return [f.line for f in turn.findings if f.code == code]


class TestPostCombatOrders:
    """The attacker will then send a final e-mail indicating the results of combat, his
    non-combat moves, a map update (This is a list that contains all territories that said
    country has units in and/or possesses), and give a territory and IPC count.

    A whole, correct USSR 1 played out from the Classic opening: nothing to report, and the
    board is the one the map update describes."""

    def test_a_correct_turn_has_no_findings(self) -> None:
        turn = play()
        assert [f.code for f in turn.findings] == [Finding.PLANES_LANDED]

    def test_the_board_is_the_map_update(self) -> None:
        after = play().position
        assert after.units_of("Ukraine S.S.R.", R) == Units.of({U.INF: 3, U.ARM: 2})
        assert after.units_of("Russia", R) == Units.of(
            {U.INF: 10, U.ARM: 1, U.FTR: 1, U.AA: 1, U.IC: 1}
        )
        assert (after.territory_count(R), after.ipc_count(R)) == (9, 27)

    def test_the_map_update_leaving_out_land_is_a_finding(self) -> None:
        turn = play(POST.replace("Kazakh\n", ""))
        (finding,) = [f for f in turn.findings if f.code is Finding.MAP_LEAVES_OUT]
        assert "Kazakh S.S.R." in finding.message
        assert turn.position.owner("Kazakh S.S.R.") is R


class TestNonCombatMovesTakePrecedence:
    """If there is a dispute between listed non-combat moves and the map update the listed
    non-combat moves will take precedence.

    The map update still shows the fighter in Karelia, which the non-combat move on line 8
    ("Kar 1 FTR to Russia") flew to Russia: the finding is on the map update's line, and the
    board follows the move."""

    def test_the_move_wins(self) -> None:
        post = POST.replace("Karelia: 2 INF, AA, IC", "Karelia: 2 INF, 1 FTR, AA, IC")
        turn = play(post)
        assert found(turn, Finding.MAP_DISAGREES) == [line_of(post, "Karelia: 2 INF, 1 FTR")]
        (finding,) = [f for f in turn.findings if f.code is Finding.MAP_DISAGREES]
        assert "the non-combat move on line 8 takes precedence" in finding.message
        assert finding.citation == "IAAPA Error Correction V"
        assert turn.position.units_of("Karelia S.S.R.", R).count(U.FTR) == 0
        assert turn.position.units_of("Russia", R).count(U.FTR) == 1


class TestValidDiceRollsArePreserved:
    """Valid dice rolls will be preserved as much as possible.

    The written result claims one more surviving infantry than the dice left: the board keeps
    the dice's survivors, the map update that repeats the claim is a finding too."""

    def test_the_dice_not_the_written_result(self) -> None:
        post = POST.replace("won, 3 INF, 2 ARM", "won, 4 INF, 2 ARM").replace(
            "Ukraine: 3 INF, 2 ARM", "Ukraine: 4 INF, 2 ARM"
        )
        turn = play(post)
        assert found(turn, Finding.RESULT_DIFFERS) == [line_of(post, "Attack #1")]
        assert found(turn, Finding.MAP_DISAGREES) == [line_of(post, "Ukraine: 4 INF")]
        assert turn.position.units_of("Ukraine S.S.R.", R) == Units.of({U.INF: 3, U.ARM: 2})

    def test_a_capture_written_for_a_lost_battle(self) -> None:
        lost = outcome_from_json(
            battle(
                "land",
                {"INF": 6, "ARM": 2, "FTR": 1},
                {"INF": 3, "ARM": 2, "FTR": 1},
                {
                    "attacker": {"INF": [6] * 6, "ARM": [6, 6], "FTR": [6]},
                    "defender": {"INF": [1, 1, 1], "ARM": [1, 1], "FTR": [1]},
                },
                {
                    "attacker": {"INF": [6], "ARM": [6, 6], "FTR": [6]},
                    "defender": {"INF": [1, 1, 1], "ARM": [1, 1], "FTR": [6]},
                },
            )
        )
        turn = advance(initial(), read(PRE), read(POST), {1: lost})
        assert turn.position.owner("Ukraine S.S.R.") is G
        assert found(turn, Finding.RESULT_DIFFERS) == [line_of(POST, "Attack #1")]
        assert Code.COUNT_MISMATCH in [f.code for f in turn.findings]


class TestTerritoryAndIpcCount:
    """Please use units to distinguish between territory count and IPC count, i.e. UK 30/$32

    The count is the land held and its income value: a wrong count is a finding on its line,
    and the position keeps what the orders give (the money follows the orders too)."""

    def test_a_wrong_count_is_noted_and_changes_nothing(self) -> None:
        post = POST.replace("USSR 9/$27", "USSR 9/$30")
        turn = play(post)
        assert found(turn, Code.COUNT_MISMATCH) == [line_of(post, "USSR 9/$30")]
        assert turn.position.ipc_count(R) == 27 and turn.position.bank[R] == 27


class TestTheMapUpdateIsTheMoversOwn:
    """The attacker will then send a final e-mail indicating the results of combat, his
    non-combat moves, a map update (This is a list that contains all territories that said
    country has units in and/or possesses), and give a territory and IPC count.

    Written by power ("Ukraine: USSR 3 INF, 2 ARM; US 1 FTR"), the mover's own units are the
    map update, played out as bare ones are; the ally's are not the USSR's."""

    def test_the_movers_units_under_its_name(self) -> None:
        turn = play(POST.replace("Ukraine: 3 INF, 2 ARM", "Ukraine: USSR 3 INF, 2 ARM"))
        assert [f.code for f in turn.findings] == [Finding.PLANES_LANDED]
        assert turn.position.units_of("Ukraine S.S.R.", R) == Units.of({U.INF: 3, U.ARM: 2})

    def test_an_allys_units_are_not_the_movers(self) -> None:
        post = POST.replace("Ukraine: 3 INF, 2 ARM", "Ukraine: 3 INF, 2 ARM (1 US FTR)")
        turn = play(post)
        assert Finding.MAP_DISAGREES not in [f.code for f in turn.findings]
        assert turn.position.units_of("Ukraine S.S.R.", R) == Units.of({U.INF: 3, U.ARM: 2})
        assert turn.position.units_of("Ukraine S.S.R.", Power.USA) == Units()


class TestAircraftHomeFromTheirBattle:
    """- A fighter may only move a total of 4 spaces on any given turn.

    (IAAPA Rules Clarifications, Fighters.) Its flight home starts over the battle it
    fought in. "ftr lands in Caucasus" names no origin: the one battle whose attackers hold
    a fighter is Ukraine's, so the move is read from there, with a note, and played out."""

    POST_HOME = POST.replace("Kar 1 FTR to Russia", "Kar 1 FTR to Russia\nftr lands in Caucasus")

    def test_the_move_is_read_from_the_battle(self) -> None:
        turn = play(self.POST_HOME)
        home = line_of(self.POST_HOME, "ftr lands in Caucasus")
        assert found(turn, Finding.ORIGIN_READ) == [home]
        (note,) = [f for f in turn.findings if f.code == Finding.ORIGIN_READ]
        assert "read as from Ukraine S.S.R." in note.message
        assert Finding.PLANES_LANDED not in [f.code for f in turn.findings]
        assert turn.position.units_of("Caucasus", R).count(U.FTR) == 1
        assert turn.position.units_of("Ukraine S.S.R.", R).count(U.FTR) == 0

    def test_the_email_check_reads_it_so_too(self) -> None:
        report = check_report(self.POST_HOME, initial(), precombat=PRE)
        home = line_of(self.POST_HOME, "ftr lands in Caucasus")
        assert [m["from"] for m in report["moves"] if m["line"] == home] == ["Ukraine S.S.R."]
        codes = [d["code"] for d in report["diagnostics"] if d["line"] == home]
        assert codes == [Code.ORIGIN_READ.value]

    def test_two_battles_with_fighters_leave_it_unread(self) -> None:
        pre = PRE + "\nAttack #2 - Finland\nKar 1 FTR\n"
        home = line_of(self.POST_HOME, "ftr lands in Caucasus")
        report = check_report(self.POST_HOME, initial(), precombat=pre)
        assert [m.get("from") for m in report["moves"] if m["line"] == home] == [None]
        codes = [d["code"] for d in report["diagnostics"] if d["line"] == home]
        assert codes == ["no-origin"]
