"""IAAPA Error Correction III, Rolling Errors, ruled on from a game's ledger: for each case,
exactly which dice stand and which are dropped (by entry seq and die position, counted from
left to right as the roll lists them), what must be rolled now, and from which round the
battle is re-rolled.

Every ledger here is written as the service writes it (:class:`GameLedger`): the genesis is
#1, the pre-combat turn #2, the first roll #3. A battle roll throws its dice in this order:
the AA gun's shots (one per attacking aircraft), the support shots, the attacking units as
listed, the defending units as listed.
"""

from __future__ import annotations

from typing import ClassVar

from adjudicator.powers import Power
from adjudicator.rulings.model import (
    AA_GUNS,
    BB_SUPPORT,
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

R, G, UK = Power.USSR, Power.GERMANY, Power.UK
UKRAINE = "Ukraine S.S.R."


def game(units: dict[str, dict[Power, dict[U, int]]], orders: str, **kw: object) -> GameLedger:
    ledger = GameLedger(board(units, **kw))
    ledger.precombat(orders)
    assert not [f for f in ledger.bodies[-1]["data"]["findings"] if f["severity"] == "error"]
    return ledger


NO_AA = {"Karelia S.S.R.": {R: {U.ARM: 2, U.FTR: 2}}, "Ukraine S.S.R.": {G: {U.INF: 3}}}
WITH_AA = {
    "Karelia S.S.R.": {R: {U.ARM: 2, U.FTR: 2, U.BMB: 1}},
    "Ukraine S.S.R.": {G: {U.INF: 3, U.AA: 1}},
}
PLANES = "Russia 1 pre-combat\n\nAttack #1 - Ukraine (3 INF)\nKar 2 ARM, 2 FTR (land Kar)\n"
PLANES_AA = "Russia 1 pre-combat\n\nAttack #1 - Ukraine (3 INF, AA)\nKar 2 ARM, 2 FTR (land Kar)\n"
BOMBER_AA = (
    "Russia 1 pre-combat\n\nAttack #1 - Ukraine (3 INF, AA)\nKar 2 ARM, 2 FTR, 1 BMB (land Kar)\n"
)


class TestGhostAaGunThatHit:
    """If an AA gun is rolled in error (i.e., there is no AA gun present) and the ghost AA
    gun scored a hit, then roll for the missing attacking aircraft, adjust the counts, and
    then re-roll the rest of the battle, starting with the next round.

    The roller throws the AA shots with every aircraft's dice: the ghost's shots (#3, dice
    0-1) are dropped, the aircraft's dice stand."""

    def test_the_ghost_shots_are_dropped_and_the_battle_re_rolled_from_round_2(self) -> None:
        ledger = game(NO_AA, PLANES)
        ledger.roll(
            "Ukraine", {"ARM": 2, "FTR": 2}, {"INF": 3, "AA": 1}, [1, 6, 6, 6, 6, 2, 6, 6, 6]
        )
        ruling = the_ruling(ledger.rulings(), AA_GUNS)
        assert ruling.about == (3,)
        assert ruling.dropped == dice_of(3, 0, 1)
        assert ruling.kept == dice_of(3, 2, 3, 4, 5, 6, 7, 8)
        assert (ruling.to_roll, ruling.reroll_from_round) == ((), 2)
        assert "there is no defending AA gun" in ruling.decision

    def test_the_rounds_rolled_on_the_wrong_counts_are_dropped(self) -> None:
        ledger = game(NO_AA, PLANES)
        ledger.roll(
            "Ukraine", {"ARM": 2, "FTR": 2}, {"INF": 3, "AA": 1}, [1, 6, 6, 6, 6, 2, 6, 6, 6]
        )
        ledger.roll("Ukraine", {"ARM": 2, "FTR": 1}, {"INF": 2}, [6, 6, 6, 6, 6], round=2)
        ruling = the_ruling(ledger.rulings(), AA_GUNS)
        assert ruling.about == (3, 4)
        assert ruling.dropped == (*dice_of(3, 0, 1), *every_die(4, 5))
        assert ruling.reroll_from_round == 2

    def test_an_aircraft_left_out_for_the_ghost_hit_is_rolled_for(self) -> None:
        """The attacker rolled one fighter, taking the ghost hit as real: "roll for the
        missing attacking aircraft"."""
        ledger = game(NO_AA, PLANES)
        ledger.roll("Ukraine", {"ARM": 2, "FTR": 1}, {"INF": 3, "AA": 1}, [1, 6, 6, 6, 6, 6, 6])
        ruling = the_ruling(ledger.rulings(), f"{AA_GUNS}; {TOO_FEW}")
        assert ruling.dropped == dice_of(3, 0)
        assert ruling.kept == dice_of(3, 1, 2, 3, 4, 5, 6)
        assert requests(ruling) == [roll_request("USSR", UKRAINE, [("FTR", 1)], [])]
        assert ruling.reroll_from_round == 2


class TestGhostAaGunThatMissed:
    """If an AA gun is rolled in error (i.e., there is no AA gun present) and the ghost AA
    gun missed, then the ghost gun roll will be ignored and the battle will stand as is."""

    def test_the_ghost_shots_are_ignored_and_the_next_round_stands(self) -> None:
        ledger = game(NO_AA, PLANES)
        ledger.roll(
            "Ukraine", {"ARM": 2, "FTR": 2}, {"INF": 3, "AA": 1}, [5, 6, 6, 6, 6, 6, 6, 6, 6]
        )
        ledger.roll("Ukraine", {"ARM": 2, "FTR": 2}, {"INF": 3}, [6] * 7, round=2)
        (ruling,) = ledger.rulings()
        assert (ruling.rule, ruling.about) == (AA_GUNS, (3,))
        assert ruling.dropped == dice_of(3, 0, 1)
        assert ruling.kept == dice_of(3, *range(2, 9))
        assert (ruling.to_roll, ruling.reroll_from_round) == ((), None)


class TestForgottenAaGunThatHits:
    """If an AA gun is forgotten, roll for the missing shots. If the AA gun hits, remove the
    attacking aircraft, adjust the counts for round 2 and the remainder of the battle is to
    be re-rolled starting with round 2. Aircraft are removed from right to left. For example,
    if one AA hit occurs, it is the last aircraft (and its die roll) that is removed"""

    def test_the_missing_shots_are_to_be_rolled(self) -> None:
        ledger = game(WITH_AA, PLANES_AA)
        ledger.roll("Ukraine", {"ARM": 2, "FTR": 2}, {"INF": 3}, [6, 6, 6, 2, 6, 6, 6])
        ruling = the_ruling(ledger.rulings(), AA_GUNS)
        assert ruling.about == (3,)
        assert ruling.kept == every_die(3, 7) and ruling.dropped == ()
        assert requests(ruling) == [
            roll_request("USSR", UKRAINE, [("FTR", 2)], [("AA", 1)], ["defenders-only"])
        ]
        assert ruling.reroll_from_round is None

    def test_a_hit_removes_the_last_aircraft_and_its_die(self) -> None:
        """Two fighters and a bomber (listed last): the late AA hit removes the bomber, #3
        die 4, though the default order of loss would lose a fighter first."""
        ledger = game(WITH_AA, BOMBER_AA)
        attackers = {"ARM": 2, "FTR": 2, "BMB": 1}
        ledger.roll("Ukraine", attackers, {"INF": 3}, [6, 6, 6, 6, 1, 6, 6, 6])
        ledger.roll(
            "Ukraine", {"FTR": 2, "BMB": 1}, {"AA": 1}, [6, 6, 1], options=["defenders-only"]
        )
        ruling = the_ruling(ledger.rulings(), AA_GUNS)
        assert ruling.about == (3, 4)
        assert ruling.dropped == dice_of(3, 4)
        assert ruling.kept == (*dice_of(3, 0, 1, 2, 3, 5, 6, 7), *every_die(4, 3))
        assert (ruling.to_roll, ruling.reroll_from_round) == ((), 2)
        assert "1 BMB" in ruling.decision


class TestForgottenAaGunThatMisses:
    """If an AA gun is forgotten, roll for the missing shots. If the AA gun misses, then the
    original battle stands."""

    def test_the_original_battle_stands_round_2_included(self) -> None:
        ledger = game(WITH_AA, PLANES_AA)
        ledger.roll("Ukraine", {"ARM": 2, "FTR": 2}, {"INF": 3}, [6] * 7)
        ledger.roll("Ukraine", {"ARM": 2, "FTR": 2}, {"INF": 3}, [6] * 7, round=2)
        ledger.roll("Ukraine", {"FTR": 2}, {"AA": 1}, [6, 4], options=["defenders-only"])
        (ruling,) = ledger.rulings()
        assert (ruling.rule, ruling.about) == (AA_GUNS, (3, 5))
        assert ruling.kept == (*every_die(3, 7), *every_die(5, 2))
        assert (ruling.dropped, ruling.to_roll, ruling.reroll_from_round) == ((), (), None)


AMPHIBIOUS = {
    "United Kingdom": {UK: {U.INF: 2, U.FTR: 2}},
    "North Sea Zone": {UK: {U.TRN: 1, U.BB: 1}},
    "West Europe": {G: {U.INF: 2, U.ARM: 1}},
}
ASSAULT = (
    "UK 1 pre-combat\n\nAttack #1 - W Europe (2 INF, 1 ARM)\n"
    "UK 2 INF on North SZ 1 TRN\nNorth SZ 1 BB\n"
)
AIR_RAID = "UK 1 pre-combat\n\nAttack #1 - W Europe (2 INF, 1 ARM)\nUK 2 FTR (land UK)\n"
WEST = "West Europe"


def assault() -> GameLedger:
    return game(AMPHIBIOUS, ASSAULT, to_move=UK)


class TestGhostSupportShotThatHits:
    """If a BB shot is rolled in error and the ghost BB hits, simply ignore the roll and
    adjust the counts if necessary"""

    def test_the_ghost_shot_is_ignored(self) -> None:
        ledger = game(AMPHIBIOUS, AIR_RAID, to_move=UK)
        ledger.roll(WEST, {"FTR": 2}, {"INF": 2, "ARM": 1}, [2, 6, 6, 6, 6, 6], bombard={"BB": 1})
        ruling = the_ruling(ledger.rulings(), BB_SUPPORT)
        assert (ruling.about, ruling.dropped) == ((3,), dice_of(3, 0))
        assert ruling.kept == dice_of(3, 1, 2, 3, 4, 5)
        assert ruling.reroll_from_round is None

    def test_the_next_round_is_weighed_against_the_adjusted_counts(self) -> None:
        """Round 2 rolled without the defender the ghost "sank": a defender too few."""
        ledger = game(AMPHIBIOUS, AIR_RAID, to_move=UK)
        ledger.roll(WEST, {"FTR": 2}, {"INF": 2, "ARM": 1}, [2, 6, 6, 6, 6, 6], bombard={"BB": 1})
        ledger.roll(WEST, {"FTR": 2}, {"INF": 1, "ARM": 1}, [6, 6, 6, 6], round=2)
        rulings = ledger.rulings()
        assert the_ruling(rulings, BB_SUPPORT).about == (3,)
        short = the_ruling(rulings, TOO_FEW)
        assert (short.about, short.kept, short.reroll_from_round) == ((4,), every_die(4, 4), 3)
        assert requests(short) == [
            roll_request("UK", WEST, [], [("INF", 1)], ["defenders-only"], round=2)
        ]


class TestGhostSupportShotThatMisses:
    """If a BB shot is rolled in error and the ghost BB missed, then the battle will stand
    as is."""

    def test_the_ghost_shot_is_dropped_and_the_battle_stands(self) -> None:
        ledger = game(AMPHIBIOUS, AIR_RAID, to_move=UK)
        ledger.roll(WEST, {"FTR": 2}, {"INF": 2, "ARM": 1}, [5, 6, 6, 6, 6, 6], bombard={"BB": 1})
        (ruling,) = ledger.rulings()
        assert (ruling.rule, ruling.dropped, ruling.reroll_from_round) == (
            BB_SUPPORT,
            dice_of(3, 0),
            None,
        )


class TestForgottenSupportShot:
    """If a BB support shot was forgotten, simply roll for the missing shot."""

    def test_the_missing_shot_is_to_be_rolled(self) -> None:
        ledger = assault()
        ledger.roll(WEST, {"INF": 2}, {"INF": 2, "ARM": 1}, [6, 6, 6, 6, 6])
        ruling = the_ruling(ledger.rulings(), BB_SUPPORT)
        assert (ruling.about, ruling.kept, ruling.dropped) == ((3,), every_die(3, 5), ())
        assert requests(ruling) == [roll_request("UK", WEST, [("BB", 1)], [])]
        assert ruling.reroll_from_round is None


class TestForgottenSupportShotThatHits:
    """If a BB support shot was forgotten, simply roll for the missing shot. If it hits,
    adjust for the extra defending casualty and re-roll the remainder of the battle,
    starting with round 2."""

    def test_a_hit_re_rolls_from_round_2(self) -> None:
        ledger = assault()
        ledger.roll(WEST, {"INF": 2}, {"INF": 2, "ARM": 1}, [6, 6, 6, 6, 6])
        ledger.roll(WEST, {"INF": 2}, {"INF": 2, "ARM": 1}, [6, 6, 6, 6, 6], round=2)
        ledger.roll(WEST, {"BB": 1}, {}, [3])
        ruling = the_ruling(ledger.rulings(), BB_SUPPORT)
        assert ruling.about == (3, 4, 5)
        assert ruling.kept == (*every_die(3, 5), (5, 0))
        assert ruling.dropped == every_die(4, 5)
        assert (ruling.to_roll, ruling.reroll_from_round) == ((), 2)


class TestForgottenSupportShotThatMisses:
    """If it misses, then the original battle stands as is."""

    def test_a_miss_leaves_the_battle_as_rolled(self) -> None:
        ledger = assault()
        ledger.roll(WEST, {"INF": 2}, {"INF": 2, "ARM": 1}, [6, 6, 6, 6, 6])
        ledger.roll(WEST, {"BB": 1}, {}, [5])
        (ruling,) = ledger.rulings()
        assert (ruling.rule, ruling.about) == (BB_SUPPORT, (3, 4))
        assert ruling.kept == (*every_die(3, 5), (4, 0))
        assert (ruling.dropped, ruling.reroll_from_round) == ((), None)


class TestSupportShotLeftOn:
    """If a player leaves the BB support shot on in round 2, or turns it on in any
    subsequent round, then the generic ghost rule will apply, i.e., for every round it
    misses, it is ignored. If it does hit, the counts will be adjusted and the remainder of
    the battle will be re-rolled starting with the next round, as usual."""

    ROUND_1: ClassVar[list[int]] = [6, 6, 6, 6, 6, 6]

    def test_a_miss_in_round_2_is_ignored(self) -> None:
        ledger = assault()
        bb = {"BB": 1}
        ledger.roll(WEST, {"INF": 2}, {"INF": 2, "ARM": 1}, self.ROUND_1, bombard=bb)
        ledger.roll(WEST, {"INF": 2}, {"INF": 2, "ARM": 1}, [5, 6, 6, 6, 6, 6], bombard=bb, round=2)
        (ruling,) = ledger.rulings()
        assert (ruling.rule, ruling.about, ruling.dropped) == (BB_SUPPORT, (4,), dice_of(4, 0))
        assert ruling.reroll_from_round is None

    def test_a_hit_in_round_2_re_rolls_from_round_3(self) -> None:
        ledger = assault()
        bb = {"BB": 1}
        ledger.roll(WEST, {"INF": 2}, {"INF": 2, "ARM": 1}, self.ROUND_1, bombard=bb)
        ledger.roll(WEST, {"INF": 2}, {"INF": 2, "ARM": 1}, [3, 6, 6, 6, 6, 6], bombard=bb, round=2)
        ledger.roll(WEST, {"INF": 2}, {"INF": 1, "ARM": 1}, [6, 6, 6, 6], round=3)
        (ruling,) = ledger.rulings()
        assert ruling.about == (4, 5)
        assert ruling.dropped == (*dice_of(4, 0), *every_die(5, 4))
        assert ruling.kept == dice_of(4, 1, 2, 3, 4, 5)
        assert ruling.reroll_from_round == 3


KARELIA_ARMOUR = {"Karelia S.S.R.": {R: {U.INF: 2, U.ARM: 4}}, "Ukraine S.S.R.": {G: {U.INF: 3}}}
ARMOUR = "Russia 1 pre-combat\n\nAttack #1 - Ukraine (3 INF)\nKar 4 ARM\n"


class TestTooFewUnits:
    """If a player incorrectly enters too few units, simply roll for the missing units and
    then re-roll the remainder of the battle beginning with the next round."""

    def test_the_missing_units_are_to_be_rolled(self) -> None:
        ledger = game(NO_AA, PLANES)
        ledger.roll("Ukraine", {"ARM": 2, "FTR": 1}, {"INF": 3}, [6, 6, 6, 6, 6, 6])
        ruling = the_ruling(ledger.rulings(), TOO_FEW)
        assert (ruling.about, ruling.kept, ruling.dropped) == ((3,), every_die(3, 6), ())
        assert requests(ruling) == [roll_request("USSR", UKRAINE, [("FTR", 1)], [])]
        assert ruling.reroll_from_round == 2

    def test_the_rounds_after_it_are_dropped(self) -> None:
        ledger = game(NO_AA, PLANES)
        ledger.roll("Ukraine", {"ARM": 2, "FTR": 1}, {"INF": 3}, [6, 6, 6, 6, 6, 6])
        ledger.roll("Ukraine", {"ARM": 2, "FTR": 1}, {"INF": 3}, [1, 1, 1, 6, 6, 6], round=2)
        ruling = the_ruling(ledger.rulings(), TOO_FEW)
        assert (ruling.about, ruling.dropped) == ((3, 4), every_die(4, 6))
        assert ruling.reroll_from_round == 2

    def test_the_missing_units_rolled_then_the_battle_re_rolled(self) -> None:
        """The roll of exactly the missing fighter (#4) completes round 1; round 2, rolled
        after it (#5), is weighed as the battle re-rolled: no ruling on it."""
        ledger = game(NO_AA, PLANES)
        ledger.roll("Ukraine", {"ARM": 2, "FTR": 1}, {"INF": 3}, [6, 6, 6, 6, 6, 6])
        ledger.roll("Ukraine", {"FTR": 1}, {}, [2])
        ledger.roll("Ukraine", {"ARM": 2, "FTR": 2}, {"INF": 2}, [6, 6, 6, 6, 6, 6], round=2)
        (ruling,) = ledger.rulings()
        assert (ruling.rule, ruling.about) == (TOO_FEW, (3, 4))
        assert ruling.kept == (*every_die(3, 6), (4, 0))
        assert (ruling.to_roll, ruling.reroll_from_round) == ((), 2)


class TestDefendersOnlyMode:
    """this includes errors involving the inappropriate use of the "defenders only" mode on
    the dice roller. If the defender forces are rolled first by mistake they will stand as
    valid; simply roll for the missing attacking units and proceed to round 2."""

    def test_the_defenders_stand_and_the_attackers_are_to_be_rolled(self) -> None:
        ledger = game(NO_AA, PLANES)
        ledger.roll("Ukraine", {}, {"INF": 3}, [6, 6, 6], options=["defenders-only"])
        ledger.roll("Ukraine", {"ARM": 2, "FTR": 2}, {"INF": 3}, [1, 1, 1, 6, 2, 2, 2])
        ruling = the_ruling(ledger.rulings(), TOO_FEW)
        assert ruling.about == (3, 4)
        assert (ruling.kept, ruling.dropped) == (every_die(3, 3), every_die(4, 7))
        assert requests(ruling) == [roll_request("USSR", UKRAINE, [("ARM", 2), ("FTR", 2)], [])]
        assert ruling.reroll_from_round == 2
        assert "stand as valid" in ruling.decision

    def test_defenders_then_attackers_alone_is_one_round(self) -> None:
        ledger = game(NO_AA, PLANES)
        ledger.roll("Ukraine", {}, {"INF": 3}, [6, 6, 6], options=["defenders-only"])
        ledger.roll("Ukraine", {"ARM": 2, "FTR": 2}, {}, [1, 1, 1, 6])
        assert ledger.rulings() == []


class TestTooManyUnits:
    """If a player incorrectly enters too many units, for any given unit type, simply start
    with the first listed die roll and sequentially, from left to right, take the correct
    number of dice. As an example, if there were supposed to be 4 attacking armor and the
    player entered 7, then the first 4 dice rolls will be used and the last three ignored.
    Then re-roll the remainder of the battle beginning with the next Round."""

    def test_the_rule_book_example(self) -> None:
        ledger = game(KARELIA_ARMOUR, ARMOUR)
        ledger.roll("Ukraine", {"ARM": 7}, {"INF": 3}, [6, 6, 6, 3, 1, 1, 1, 6, 6, 6])
        (ruling,) = ledger.rulings()
        assert (ruling.rule, ruling.about) == (TOO_MANY, (3,))
        assert ruling.kept == dice_of(3, 0, 1, 2, 3, 7, 8, 9)
        assert ruling.dropped == dice_of(3, 4, 5, 6)
        assert (ruling.to_roll, ruling.reroll_from_round) == ((), 2)

    def test_the_remainder_is_re_rolled_after_the_recognition(self) -> None:
        """Round 2 rolled at once (#4) is dropped; rolled again after the error was
        recognised through the roller (#5), it stands (#6, no ruling)."""
        ledger = game(KARELIA_ARMOUR, ARMOUR)
        ledger.roll("Ukraine", {"ARM": 7}, {"INF": 3}, [6, 6, 6, 3, 1, 1, 1, 6, 6, 6])
        ledger.roll("Ukraine", {"ARM": 4}, {"INF": 2}, [6, 6, 6, 6, 6, 6], round=2)
        ledger.note("error-recognition", "7 ARM rolled for 4", AXIS, ref_seq=3)
        ledger.roll("Ukraine", {"ARM": 4}, {"INF": 2}, [6, 6, 6, 6, 6, 6], round=2)
        (ruling,) = ledger.rulings()
        assert ruling.about == (3, 4, 5)
        assert ruling.dropped == (*dice_of(3, 4, 5, 6), *every_die(4, 6))
        assert ruling.reroll_from_round == 2


class TestWrongUnits:
    """If a player enters the wrong type of unit then its roll will be ignored and the
    correct unit will be rolled for, regardless of whether the attack/defense values are
    equivalent."""

    def test_a_fighter_entered_for_an_armour(self) -> None:
        """FTR and ARM both attack at 3: the fighter's die (a hit) is still ignored."""
        ledger = game(
            KARELIA_ARMOUR, "Russia 1 pre-combat\n\nAttack #1 - Ukraine (3 INF)\nKar 1 ARM\n"
        )
        ledger.roll("Ukraine", {"FTR": 1}, {"INF": 3}, [1, 6, 6, 6])
        (ruling,) = ledger.rulings()
        assert (ruling.rule, ruling.about) == (WRONG_UNITS, (3,))
        assert (ruling.dropped, ruling.kept) == (dice_of(3, 0), dice_of(3, 1, 2, 3))
        assert requests(ruling) == [roll_request("USSR", UKRAINE, [("ARM", 1)], [])]
        assert ruling.reroll_from_round == 2


class TestUnaffectedRollsStand:
    """In all cases, unaffected rolls will stand."""

    def test_only_the_extra_dice_of_one_type_are_dropped(self) -> None:
        units = {"Karelia S.S.R.": {R: {U.INF: 2, U.ARM: 2}}, "Ukraine S.S.R.": {G: {U.INF: 3}}}
        ledger = game(
            units, "Russia 1 pre-combat\n\nAttack #1 - Ukraine (3 INF)\nKar 2 INF, 2 ARM\n"
        )
        ledger.roll("Ukraine", {"INF": 2, "ARM": 3}, {"INF": 3}, [1, 6, 6, 6, 1, 2, 2, 2])
        (ruling,) = ledger.rulings()
        assert ruling.dropped == dice_of(3, 4)
        assert ruling.kept == dice_of(3, 0, 1, 2, 3, 5, 6, 7)

    def test_a_battle_rolled_right_has_no_ruling(self) -> None:
        ledger = game(NO_AA, PLANES)
        ledger.roll("Ukraine", {"ARM": 2, "FTR": 2}, {"INF": 3}, [1, 6, 6, 6, 6, 6, 1])
        ledger.roll("Ukraine", {"ARM": 1, "FTR": 2}, {"INF": 2}, [6, 6, 6, 6, 6], round=2)
        assert ledger.rulings() == []
        ledger.roll("Ukraine", {"ARM": 2, "FTR": 2}, {"INF": 2}, [6, 6, 6, 6, 6, 6], round=3)
        (ruling,) = ledger.rulings()  # the armour lost in round 1 rolled again
        assert (ruling.rule, ruling.about, ruling.dropped) == (TOO_MANY, (5,), dice_of(5, 1))
