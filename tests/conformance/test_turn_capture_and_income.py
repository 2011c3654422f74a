"""Land changing hands and money changing banks when a turn is played out: IAAPA Income
Collection and Spending, AA Guns, Placement of New Units, and the Classic game's capture,
liberation and neutral rules (the facts sheet, section 8)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from adjudicator.battle import Outcome
from adjudicator.notation import Turn, parse
from adjudicator.position import Position, arranged
from adjudicator.powers import Power
from adjudicator.turns import Advance, BattleOutcome, Finding, advance
from adjudicator.units import Units
from adjudicator.units import UnitType as U

UK, G, R, J, US = Power.UK, Power.GERMANY, Power.USSR, Power.JAPAN, Power.USA
Board = Mapping[str, Mapping[Power, Mapping[U, int]]]


def read(text: str) -> Turn:
    turn = parse(text)
    assert turn.errors == (), "the email itself must read cleanly"
    return turn


def won(**survivors: int) -> BattleOutcome:
    """The attacker wins with ``survivors`` left and no defender."""
    return BattleOutcome(
        Units.of({U[k]: n for k, n in survivors.items()}), Units(), Outcome.ATTACKER_WINS
    )


def play(units: Board, pre: str, post: str, verdicts: Any = None, **kw: Any) -> Advance:
    start: Position = arranged(units, **kw)
    return advance(start, read(pre) if pre else None, read(post), verdicts or {})


class TestIncomeCollection:
    """Any country that ends its turn with possession of its capital collects income.

    Income is the income value of the land the power holds when its turn ends (facts sheet
    section 8), added to what it kept after paying for its purchases."""

    def test_the_income_of_the_land_held_at_the_end(self) -> None:
        turn = play(
            {"Karelia S.S.R.": {R: {U.INF: 3}}, "East Europe": {G: {U.INF: 1}}},
            "Purchases: 2 INF\nCombat moves:\nAttack #1 - E Europe (1 INF)\nKar 3 INF\n",
            "Results:\n#1 E Europe: won, 2 INF left\n\nPlacement:\nRussia 2 INF\n",
            {1: won(INF=2)},
            bank={R: 10},
        )
        assert turn.position.owner("East Europe") is R
        assert turn.income == 24 + 3 and turn.position.bank[R] == 10 - 6 + 27

    def test_no_income_without_the_capital(self) -> None:
        turn = play(
            {"Russia": {G: {U.INF: 1}}, "Caucasus": {R: {U.INF: 2}}},
            "",
            "Non-combat moves:\nCauc 1 INF to Karelia\n",
            owners={"Russia": G},
            bank={R: 4},
        )
        assert turn.income == 0 and turn.position.bank[R] == 4

    def test_retaking_the_capital_in_the_turn_collects(self) -> None:
        turn = play(
            {"Russia": {G: {U.INF: 1}}, "Caucasus": {R: {U.INF: 3}}},
            "Combat moves:\nAttack #1 - Russia (1 INF)\nCauc 3 INF\n",
            "Results:\n#1 Russia: won, 2 INF left\n",
            {1: won(INF=2)},
            owners={"Russia": G},
            bank={R: 0},
        )
        assert turn.position.owner("Russia") is R and turn.income == 24


class TestNoPurchaseWithoutTheCapital:
    """You may not purchase any new units while your capital is under enemy control.

    The orders are played out as written (the service refuses purchases); the finding says
    why they break the rule."""

    def test_purchases_are_a_finding(self) -> None:
        turn = play(
            {"Russia": {G: {U.INF: 1}}, "Karelia S.S.R.": {R: {U.IC: 1}}},
            "",
            "Placement:\nKarelia 2 INF\n",
            owners={"Russia": G},
            bank={R: 6},
        )
        assert Finding.PURCHASE_WITHOUT_CAPITAL in [f.code for f in turn.findings]


class TestCapitalCapture:
    """Capturing an enemy capital (E US, UK, Russia, Germany, Japan) takes all the IPCs the
    loser holds.

    Germany takes Russia from a USSR holding 20 IPCs: they are Germany's at once, and the
    USSR's complex and AA gun in Russia are Germany's too."""

    START: ClassVar[Board] = {
        "Karelia S.S.R.": {G: {U.INF: 4, U.ARM: 2}},
        "Russia": {R: {U.INF: 1, U.AA: 1, U.IC: 1}},
        "Germany": {G: {U.INF: 3, U.AA: 1, U.IC: 1}},
    }

    def turn(self) -> Advance:
        return play(
            self.START,
            "Germany 5 pre-combat\n\nCombat moves:\nAttack #1 - Russia (1 INF, AA)\n"
            "Kar 4 INF, 2 ARM\n",
            "Germany 5 post-combat\n\nResults:\n#1 Russia: won, 3 INF, 2 ARM left\n",
            {1: won(INF=3, ARM=2)},
            owners={"Karelia S.S.R.": G},
            to_move=G,
            round=5,
            bank={R: 20, G: 0},
        )

    def test_the_bank_passes_to_the_captor(self) -> None:
        turn = self.turn()
        assert turn.position.bank[R] == 0
        assert turn.position.bank[G] == 0 + 20 + (32 + 3 + 8)
        assert Finding.CAPITAL_TAKEN in [f.code for f in turn.findings]

    def test_the_complex_and_gun_change_hands(self) -> None:
        after = self.turn().position
        assert after.owner("Russia") is G
        assert after.units_at("Russia") == {G: Units.of({U.INF: 3, U.ARM: 2, U.AA: 1, U.IC: 1})}


NOVO: Board = {
    "Sinkiang": {US: {U.INF: 2, U.ARM: 1}},
    "Novosibirsk": {J: {U.INF: 1, U.AA: 1}},
}
NOVO_PRE = (
    "USA 6 pre-combat\n\nCombat moves:\nAttack #1 - Novosibirsk (1 INF, AA)\nSink 2 INF, 1 ARM\n"
)
NOVO_POST = "USA 6 post-combat\n\nResults:\n#1 Novosibirsk: won, 2 INF, 1 ARM left\n"


class TestLiberation:
    """Liberation: an ally's original territory returns to that ally at once if its capital
    is free. Otherwise the liberator holds it and may use its IC."""

    def test_returned_to_the_ally(self) -> None:
        turn = play(
            NOVO, NOVO_PRE, NOVO_POST, {1: won(INF=2, ARM=1)}, owners={"Novosibirsk": J}, to_move=US
        )
        assert turn.position.owner("Novosibirsk") is R
        assert turn.position.units_of("Novosibirsk", US) == Units.of({U.INF: 2, U.ARM: 1})
        assert turn.income == 36  # the USA's own land only

    def test_held_by_the_liberator_while_the_allys_capital_is_lost(self) -> None:
        turn = play(
            {**NOVO, "Russia": {G: {U.INF: 1}}},
            NOVO_PRE,
            NOVO_POST,
            {1: won(INF=2, ARM=1)},
            owners={"Novosibirsk": J, "Russia": G},
            to_move=US,
        )
        assert turn.position.owner("Novosibirsk") is US
        assert turn.income == 36 + 2


class TestAaGuns:
    """If an enemy AA Gun is located in a territory that is liberated then ownership of that AA
    gun will belong to the country that owned the territory at the start of the game
    regardless who originally owned or bought said gun.

    IAAPA's examples: "if Japan owns Novo with an AA Gun present and the Americans liberate
    Novo to Russian control then Russia will now own the gun"; "if Japan owns Novo with an AA
    Gun present with Russia under enemy control and the Americans capture Novo then the
    Americans will own the AA Gun"; "if Germany has an AA Gun in West Europe and the British
    capture West Europe then the British would own the gun"."""

    def test_example_1_liberated(self) -> None:
        turn = play(
            NOVO, NOVO_PRE, NOVO_POST, {1: won(INF=2, ARM=1)}, owners={"Novosibirsk": J}, to_move=US
        )
        assert turn.position.units_of("Novosibirsk", R) == Units.of({U.AA: 1})

    def test_example_1_captured_while_russia_is_held(self) -> None:
        turn = play(
            {**NOVO, "Russia": {G: {U.INF: 1}}},
            NOVO_PRE,
            NOVO_POST,
            {1: won(INF=2, ARM=1)},
            owners={"Novosibirsk": J, "Russia": G},
            to_move=US,
        )
        assert turn.position.units_of("Novosibirsk", US) == Units.of({U.INF: 2, U.ARM: 1, U.AA: 1})

    def test_example_2_captured(self) -> None:
        turn = play(
            {
                "United Kingdom": {UK: {U.INF: 2}},
                "North Sea Zone": {UK: {U.TRN: 1}},
                "West Europe": {G: {U.INF: 1, U.AA: 1}},
            },
            "Combat moves:\nAttack #1 - W Europe (1 INF, AA)\nUK 2 INF on UK SZ 1 TRN\n",
            "Results:\n#1 W Europe: won, 1 INF left\n",
            {1: won(INF=1)},
            to_move=UK,
        )
        assert turn.position.units_at("West Europe") == {UK: Units.of({U.INF: 1, U.AA: 1})}


class TestPlacementOfNewUnits:
    """You must have owned the IC at the beginning of your turn and you must still control the
    industrial complex at the time of the placement of new units. As such, if you liberate
    their capital you will not be allowed to place any new units in that complex as it has now
    reverted back to your Ally's control."""

    def test_a_liberated_capital_reverts_and_takes_no_placement(self) -> None:
        turn = play(
            {
                "Russia": {G: {U.INF: 1, U.AA: 1, U.IC: 1}},
                "Kazakh S.S.R.": {UK: {U.INF: 3}},
                "United Kingdom": {UK: {U.IC: 1}},
            },
            "Purchases: 1 INF\nCombat moves:\nAttack #1 - Russia (1 INF, AA, IC)\nKazakh 3 INF\n",
            "Results:\n#1 Russia: won, 2 INF left\n\nPlacement:\nRussia 1 INF\n",
            {1: won(INF=2)},
            owners={"Russia": G, "Kazakh S.S.R.": UK},
            to_move=UK,
        )
        assert turn.position.owner("Russia") is R
        assert turn.position.units_of("Russia", R) == Units.of({U.AA: 1, U.IC: 1})
        assert [f.code for f in turn.findings] == [Finding.PLACEMENT_ILLEGAL]

    def test_a_new_fighter_on_a_carrier(self) -> None:
        """ "A newly purchased fighter may not be placed on an aircraft carrier.\""""
        turn = play(
            {"United Kingdom": {UK: {U.IC: 1}}, "North Sea Zone": {UK: {U.AC: 1}}},
            "Purchases: 1 FTR\n",
            "Placement:\nUK SZ 1 FTR\n",
            to_move=UK,
        )
        assert [f.code for f in turn.findings] == [Finding.PLACEMENT_ILLEGAL]


class TestNeutrals:
    """The first power to enter one pays 3 IPCs and takes it."""

    def test_a_walk_in_pays_three(self) -> None:
        turn = play(
            {"Finland Norway": {G: {U.INF: 2}}},
            "Combat moves:\nFin/Nor 1 INF WI Sweden\n",
            "Germany 9/$32\n",
            to_move=G,
        )
        assert turn.position.owner("Sweden") is G
        assert turn.position.bank[G] == 32 - 3 + 32
