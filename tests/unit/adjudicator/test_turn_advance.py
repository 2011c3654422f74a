"""A turn played out from its emails and dice: the position the next power starts from."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.battle import Outcome, resolve_json
from adjudicator.notation import Turn, parse
from adjudicator.position import Position, arranged, dump_json, initial, load_json
from adjudicator.powers import Power
from adjudicator.turns import (
    Advance,
    BattleOutcome,
    Finding,
    advance,
    outcome_from_json,
    raid_outcome,
    replay_turns,
)
from adjudicator.units import Units
from adjudicator.units import UnitType as U

UK, G, R, J, US = Power.UK, Power.GERMANY, Power.USSR, Power.JAPAN, Power.USA


def read(text: str) -> Turn:
    turn = parse(text)
    assert turn.errors == (), turn.errors
    return turn


def roll(
    kind: str, attacker: dict[str, int], defender: dict[str, int], *rounds: Any, **kw: Any
) -> BattleOutcome:
    """The verdict of a battle resolved from its dice."""
    doc = {"version": 1, "kind": kind, "attacker": attacker, "defender": defender}
    return outcome_from_json(resolve_json({**doc, "rounds": list(rounds)}), **kw)


def codes(turn: Advance) -> list[str]:
    return [f.code for f in turn.findings]


def units(**counts: int) -> Units:
    return Units.of({U[name]: n for name, n in counts.items()})


USSR_PRE = """USSR 1 pre-combat

Tech: none
Purchases: 8 INF ($24)

Combat moves:
Attack #1 - Ukraine (3 INF, 2 ARM, 1 FTR)
Kar 3 INF, 1 ARM
Cauc 3 INF
Russia 1 ARM, 1 FTR (land Caucasus)
"""

USSR_POST = """USSR 1 post-combat

Results:
Attack #1 - Ukraine: won, 3 INF, 2 ARM, 1 FTR left

Non-combat moves:
Russia 2 INF to Karelia

Placement:
Russia 8 INF

USSR 9/$27
"""

UKRAINE_WON = (
    "land",
    {"INF": 6, "ARM": 2, "FTR": 1},
    {"INF": 3, "ARM": 2, "FTR": 1},
    {
        "attacker": {"INF": [1, 1, 1, 6, 6, 6], "ARM": [1, 6], "FTR": [1]},
        "defender": {"INF": [1, 1, 6], "ARM": [1, 6], "FTR": [6]},
    },
    {"attacker": {"INF": [1, 6, 6], "ARM": [1, 6], "FTR": [6]}, "defender": {"INF": [6]}},
)
"""Round 1: 5 hits each way (the attacker loses 3 INF); round 2 takes the last INF."""


def ussr_1() -> Advance:
    return advance(initial(), read(USSR_PRE), read(USSR_POST), {1: roll(*UKRAINE_WON)})


class TestQuietTurn:
    """No combat: non-combat moves, placement and income."""

    PRE = "USSR 1 pre-combat\n\nTech: none\nPurchases: 8 INF ($24)\n"
    POST = (
        "USSR 1 post-combat\n\nNon-combat moves:\nRussia 2 INF to Karelia\nKar 1 FTR to Russia"
        "\n\nPlacement:\nRussia 8 INF\n\nUSSR 8/$24\n"
    )

    def test_moves_placement_and_income(self) -> None:
        turn = advance(initial(), read(self.PRE), read(self.POST), {})
        after = turn.position
        assert after.units_of("Russia", R) == units(INF=10, ARM=2, FTR=2, AA=1, IC=1)
        assert after.units_of("Karelia S.S.R.", R) == units(INF=5, ARM=1, AA=1, IC=1)
        assert after.bank[R] == 24 - 24 + 24
        assert (turn.income, turn.placed, turn.captured) == (24, units(INF=8), ())
        assert turn.findings == ()

    def test_the_start_is_not_changed(self) -> None:
        start = initial()
        before = dump_json(start)
        advance(start, read(self.PRE), read(self.POST), {})
        assert dump_json(start) == before

    def test_the_next_power_moves(self) -> None:
        after = advance(initial(), read(self.PRE), read(self.POST), {}).position
        assert (after.to_move, after.round) == (G, 1)


class TestLandBattle:
    def test_won_captures_and_raises_the_income(self) -> None:
        turn = ussr_1()
        after = turn.position
        assert after.owner("Ukraine S.S.R.") is R
        assert after.units_of("Ukraine S.S.R.", R) == units(INF=3, ARM=2)
        assert after.units_at("Ukraine S.S.R.").keys() == {R}
        assert after.units_of("Caucasus", R) == units(INF=2, FTR=1)
        assert after.units_of("Karelia S.S.R.", R) == units(INF=2, FTR=1, AA=1, IC=1)
        assert turn.captured == ("Ukraine S.S.R.",)
        assert turn.income == 27 and after.bank[R] == 24 - 24 + 27
        assert codes(turn) == [Finding.PLANES_LANDED]

    def test_a_failed_attack_leaves_the_defender_and_the_income(self) -> None:
        lost = (
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
        post = USSR_POST.replace("won, 3 INF, 2 ARM, 1 FTR left", "lost").replace("9/$27", "8/$24")
        turn = advance(initial(), read(USSR_PRE), read(post), {1: roll(*lost)})
        after = turn.position
        assert after.owner("Ukraine S.S.R.") is G
        assert after.units_of("Ukraine S.S.R.", G) == units(INF=3, ARM=2, FTR=1)
        assert after.units_of("Caucasus", R) == units(INF=2)
        assert after.units_of("Russia", R) == units(INF=10, ARM=1, AA=1, IC=1)
        assert turn.income == 24 and turn.findings == ()

    def test_written_survivors_that_are_not_the_dice_are_a_finding(self) -> None:
        post = USSR_POST.replace("3 INF, 2 ARM, 1 FTR left", "4 INF, 2 ARM, 1 FTR left")
        turn = advance(initial(), read(USSR_PRE), read(post), {1: roll(*UKRAINE_WON)})
        differs = [f for f in turn.findings if f.code is Finding.RESULT_DIFFERS]
        assert [f.line for f in differs] == [4]
        assert "the dice leave 3 INF, 2 ARM, 1 FTR" in differs[0].message
        assert turn.position.units_of("Ukraine S.S.R.", R) == units(INF=3, ARM=2)

    def test_a_battle_without_dice_is_not_fought(self) -> None:
        post = USSR_POST.replace("USSR 9/$27", "USSR 8/$24")
        turn = advance(initial(), read(USSR_PRE), read(post), {})
        after = turn.position
        assert after.owner("Ukraine S.S.R.") is G
        assert after.units_of("Caucasus", R) == units(INF=5)
        assert Finding.NO_VERDICT in codes(turn) and Finding.RESULT_DIFFERS in codes(turn)


class TestPlanes:
    def test_an_unwritten_landing_goes_back_to_the_origin(self) -> None:
        pre = USSR_PRE.replace(" (land Caucasus)", "")
        turn = advance(initial(), read(pre), read(USSR_POST), {1: roll(*UKRAINE_WON)})
        assert turn.position.units_of("Russia", R).count(U.FTR) == 1
        landed = [f for f in turn.findings if f.code is Finding.PLANES_LANDED]
        assert "back at their origin" in landed[0].message

    def test_a_written_non_combat_move_lands_them(self) -> None:
        post = USSR_POST.replace("Russia 2 INF to Karelia", "Ukraine 1 FTR to Karelia")
        turn = advance(initial(), read(USSR_PRE), read(post), {1: roll(*UKRAINE_WON)})
        assert turn.position.units_of("Karelia S.S.R.", R).count(U.FTR) == 2
        assert Finding.PLANES_LANDED not in codes(turn)

    def test_planes_that_cannot_land_are_lost(self) -> None:
        """Karelia to Egypt is 4 moves: a fighter there has none left to land."""
        start = arranged(
            {"Karelia S.S.R.": {R: {U.FTR: 1}}, "Anglo Sudan Egypt": {G: {U.INF: 1}}},
            owners={"Anglo Sudan Egypt": G},
        )
        pre = "Attack #1 - Egypt (1 INF)\nKar 1 FTR\n"
        verdict = BattleOutcome(units(FTR=1), units(INF=1), Outcome.CONTINUES)
        turn = advance(start, read(pre), read("Results:\n#1 Egypt: retreated\n"), {1: verdict})
        assert turn.position.units_of("Anglo Sudan Egypt", R) == Units()
        assert Finding.PLANES_LOST in codes(turn)


class TestRetreat:
    RETREATED = (
        "land",
        {"INF": 6, "ARM": 2, "FTR": 1},
        {"INF": 3, "ARM": 2, "FTR": 1},
        {
            "attacker": {"INF": [1, 6, 6, 6, 6, 6], "ARM": [6, 6], "FTR": [6]},
            "defender": {"INF": [1, 1, 6], "ARM": [6, 6], "FTR": [1]},
            "retreat": 1,
        },
    )
    POST = (
        "USSR 1 post-combat\n\nResults:\nAttack #1 - Ukraine: retreated to Caucasus\n\n"
        "Placement:\nRussia 8 INF\n\nUSSR 8/$24\n"
    )

    def test_the_survivors_go_to_the_written_location(self) -> None:
        turn = advance(initial(), read(USSR_PRE), read(self.POST), {1: roll(*self.RETREATED)})
        after = turn.position
        assert after.owner("Ukraine S.S.R.") is G
        assert after.units_of("Ukraine S.S.R.", G) == units(INF=2, ARM=2, FTR=1)
        assert after.units_of("Caucasus", R) == units(INF=5, ARM=2, FTR=1)
        assert turn.findings == ()

    def test_the_verdicts_location_comes_first(self) -> None:
        verdict = roll(*self.RETREATED, retreat_to="Karelia S.S.R.")
        turn = advance(initial(), read(USSR_PRE), read(self.POST), {1: verdict})
        assert turn.position.units_of("Karelia S.S.R.", R) == units(INF=3, ARM=2, FTR=2, AA=1, IC=1)
        assert Finding.RESULT_DIFFERS in codes(turn)

    def test_a_battle_still_going_on_retreats_where_written(self) -> None:
        """IAAPA Combat Resolution: the next battle closes it, its attackers retreating."""
        going_on = (*self.RETREATED[:3], {**self.RETREATED[3], "retreat": 0})
        turn = advance(initial(), read(USSR_PRE), read(self.POST), {1: roll(*going_on)})
        assert turn.position.units_of("Caucasus", R) == units(INF=5, ARM=2, FTR=1)

    def test_no_location_and_two_places_they_came_from(self) -> None:
        post = self.POST.replace("retreated to Caucasus", "retreated")
        turn = advance(initial(), read(USSR_PRE), read(post), {1: roll(*self.RETREATED)})
        assert Finding.RETREAT_UNKNOWN in codes(turn)
        assert turn.position.units_of("Karelia S.S.R.", R).count(U.INF) == 3


class TestSeaAndAir:
    PRE = (
        "UK 1 pre-combat\n\nPurchases: 1 AC, 1 INF ($21)\n\nCombat moves:\n"
        "Attack #1 - Baltic SZ (1 TRN, 1 SUB)\nUK SZ 1 BB\nUK 2 FTR (land UK)\n\n"
        "Attack #2 - Germany (SBR)\nUK 1 BMB (land UK)\n"
    )
    POST = (
        "UK 1 post-combat\n\nResults:\n#1 Baltic SZ: won, 1 BB, 2 FTR left\n"
        "#2 Germany (SBR): 4 IPC damage\n\nNon-combat moves:\nBaltic SZ 2 FTR to UK\n\n"
        "Placement:\nUK SZ 1 AC\nUK 1 INF\n\nUK 17/$30\n"
    )
    SEA = (
        "sea",
        {"BB": 1, "FTR": 2},
        {"TRN": 1, "SUB": 1},
        {"attacker": {"BB": [6], "FTR": [1, 2]}, "defender": {"SUB": [6]}},
    )

    def uk_1(self, damage: int = 4) -> Advance:
        start = initial().next_turn().next_turn()
        verdicts = {1: roll(*self.SEA), 2: raid_outcome(1, 0, damage)}
        return advance(start, read(self.PRE), read(self.POST), verdicts)

    def test_a_won_sea_battle_clears_the_zone(self) -> None:
        after = self.uk_1().position
        assert after.units_at("Baltic Sea Zone") == {UK: units(BB=1)}
        assert after.units_of("North Sea Zone", UK) == units(TRN=1, AC=1)
        assert after.units_of("United Kingdom", UK) == units(INF=3, ARM=1, FTR=2, BMB=1, AA=1, IC=1)

    def test_the_raid_costs_the_owner_and_the_turn_pays(self) -> None:
        turn = self.uk_1()
        assert turn.position.bank[G] == 32 - 4
        assert turn.position.bank[UK] == 30 - 21 + 30
        assert codes(turn) == [Finding.PLANES_LANDED]

    def test_the_raid_takes_no_more_than_is_held(self) -> None:
        start = initial().next_turn().next_turn()
        start = start.with_bank(G, 3)
        verdicts = {1: roll(*self.SEA), 2: raid_outcome(1, 0, 5)}
        post = self.POST.replace("4 IPC", "5 IPC")
        turn = advance(start, read(self.PRE), read(post), verdicts)
        assert turn.position.bank[G] == 0
        assert Finding.RAID_CAPPED in codes(turn)

    def test_cargo_goes_down_with_its_transport(self) -> None:
        start = arranged(
            {
                "Karelia Sea Zone": {R: {U.TRN: 1, U.INF: 2}},
                "Baltic Sea Zone": {G: {U.SUB: 1}},
                "Russia": {R: {U.IC: 1}},
            }
        )
        pre = "Attack #1 - Baltic SZ (1 SUB)\nKar SZ 1 TRN, 2 INF\n"
        verdict = BattleOutcome(Units(), units(SUB=1), Outcome.DEFENDER_WINS)
        turn = advance(start, read(pre), read("Results:\n#1 Baltic SZ: lost\n"), {1: verdict})
        assert turn.position.units_of("Baltic Sea Zone", R) == Units()
        assert turn.position.units_of("Karelia Sea Zone", R) == Units()
        assert codes(turn) == [Finding.CARGO_LOST]

    def test_unnamed_cargo_sails_with_its_transport(self) -> None:
        start = arranged(
            {
                "Karelia Sea Zone": {R: {U.TRN: 1, U.SUB: 1, U.INF: 2}},
                "Baltic Sea Zone": {G: {U.TRN: 1}},
            }
        )
        pre = "Attack #1 - Baltic SZ (1 TRN)\nKar SZ 1 TRN, 1 SUB\n"
        verdict = BattleOutcome(units(TRN=1, SUB=1), Units(), Outcome.ATTACKER_WINS)
        turn = advance(start, read(pre), read("Results:\n#1 Baltic SZ: won\n"), {1: verdict})
        assert turn.position.units_at("Baltic Sea Zone") == {R: units(INF=2, TRN=1, SUB=1)}
        assert turn.findings == ()


class TestAirOnly:
    def test_planes_alone_never_capture(self) -> None:
        start = arranged(
            {"Karelia S.S.R.": {R: {U.FTR: 1}}, "East Europe": {G: {U.INF: 1}}},
            owners={"East Europe": G},
        )
        pre = "Attack #1 - E Europe (1 INF)\nKar 1 FTR (land Karelia)\n"
        verdict = BattleOutcome(units(FTR=1), Units(), Outcome.ATTACKER_WINS)
        turn = advance(start, read(pre), read("Results:\n#1 E Europe: won\n"), {1: verdict})
        assert turn.position.owner("East Europe") is G and turn.captured == ()
        assert turn.position.units_of("Karelia S.S.R.", R) == units(FTR=1)
        assert codes(turn) == [Finding.AIR_ONLY, Finding.PLANES_LANDED]

    def test_dice_for_a_battle_not_declared(self) -> None:
        verdict = BattleOutcome(units(INF=1), Units(), Outcome.ATTACKER_WINS)
        turn = advance(initial(), None, read("USSR 8/$24\n"), {3: verdict})
        assert codes(turn) == [Finding.VERDICT_UNDECLARED]
        assert turn.findings[0].battles == (3,)


class TestSingleEmail:
    def test_a_whole_turn_in_one_email(self) -> None:
        email = USSR_PRE + "\n" + USSR_POST.replace("USSR 1 post-combat\n", "")
        turn = advance(initial(), None, read(email), {1: roll(*UKRAINE_WON)})
        assert turn.position.owner("Ukraine S.S.R.") is R
        assert turn.position.bank[R] == 27

    def test_pre_combat_orders_after_the_post_combat_are_the_next_turns(self) -> None:
        email = "Placement:\nRussia 8 INF\n\nR2 pre-combat follows.\nPurchases: 6 INF, 1 ARM\n"
        turn = advance(initial(), None, read(email), {})
        assert turn.position.bank[R] == 24 - 24 + 24
        assert Finding.NEXT_TURN_ORDERS in codes(turn)


class TestPlacement:
    def test_units_not_bought_are_not_placed(self) -> None:
        post = USSR_POST.replace("Russia 8 INF", "Russia 9 INF")
        turn = advance(initial(), read(USSR_PRE), read(post), {1: roll(*UKRAINE_WON)})
        assert turn.position.units_of("Russia", R).count(U.INF) == 10
        assert Finding.NOT_PURCHASED in codes(turn)

    def test_units_bought_and_not_placed_are_lost(self) -> None:
        post = USSR_POST.replace("Russia 8 INF", "Russia 6 INF")
        turn = advance(initial(), read(USSR_PRE), read(post), {1: roll(*UKRAINE_WON)})
        assert turn.placed == units(INF=6)
        assert turn.position.bank[R] == 27
        assert Finding.NOT_PLACED in codes(turn)

    def test_placing_without_a_complex_is_noted(self) -> None:
        post = USSR_POST.replace("Russia 8 INF", "Caucasus 8 INF")
        turn = advance(initial(), read(USSR_PRE), read(post), {1: roll(*UKRAINE_WON)})
        assert Finding.PLACEMENT_ILLEGAL in codes(turn)


class TestWalkIns:
    def test_a_walk_in_into_enemy_units_is_not_made(self) -> None:
        start = arranged(
            {"Libya": {G: {U.ARM: 1}}, "Anglo Sudan Egypt": {UK: {U.INF: 1}}}, to_move=G
        )
        turn = advance(
            start,
            read("Combat moves:\nLibya 1 ARM walks into Anglo Egypt\n"),
            read("Germany\n"),
            {},
        )
        assert turn.position.owner("Anglo Sudan Egypt") is UK
        assert Finding.NOT_A_WALK_IN in codes(turn)


class TestReplay:
    def test_the_ledger_rebuilds_the_position(self) -> None:
        quiet_g = read("Germany 1 post-combat\n\nPlacement:\nGermany 2 INF\n")
        records = [
            (read(USSR_PRE), read(USSR_POST), {1: roll(*UKRAINE_WON)}),
            (None, quiet_g, {}),
        ]
        rebuilt = replay_turns(initial(), records)
        step = advance(initial(), *records[0]).position
        step = advance(step, *records[1]).position
        assert dump_json(rebuilt) == dump_json(step)
        assert (rebuilt.to_move, rebuilt.round) == (UK, 1)
        assert load_json(dump_json(rebuilt)) == rebuilt

    def test_no_turns_is_the_initial_position(self) -> None:
        start = initial()
        assert replay_turns(start, []) is start


def test_the_email_of_another_power_is_played_as_the_one_to_move() -> None:
    turn = advance(initial(), None, read("Germany 1 post-combat\n\nUSSR 8/$24\n"), {})
    assert codes(turn) == [Finding.WRONG_POWER]
    assert turn.power is R


@pytest.mark.parametrize("mover", [R, G, UK, J])
def test_the_round_stays_until_the_usa_has_moved(mover: Power) -> None:
    start: Position = arranged({}, to_move=mover, round=2)
    after = advance(start, None, read("Map update:\n"), {}).position
    assert after.round == 2 and after.to_move is not mover
