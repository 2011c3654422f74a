"""IAAPA Error Correction II, Combat Declaration Errors, ruled on from a game's ledger: the
battle void with every die of it dropped and the attacker's options, over-commitment voiding
every battle using the units, and the cases that are no CDE.

The ledgers are written as the service writes them (:class:`GameLedger`): the genesis is #1,
the pre-combat turn #2 (recorded with the board's findings), the rolls from #3."""

from __future__ import annotations

from adjudicator.powers import Power
from adjudicator.rulings.model import (
    CDE_ATTACKERS,
    CDE_DEFENDERS,
    CDE_INTENT,
    CDE_OVER_COMMITTED,
    CDE_TERRITORY,
    CDE_TERRITORY_ONLY,
    CDE_TRANSPORTS,
    CDE_UNDECLARED,
    CDE_UNLOADING,
    TOO_FEW,
)
from adjudicator.rulings.record import declared_battles
from adjudicator.rulings.refights import refight_forces
from adjudicator.units import UnitType as U
from tests.conformance.test_rulings_ledgers import (
    AXIS,
    GameLedger,
    board,
    every_die,
    requests,
    roll_request,
    the_ruling,
)

R, G, UK = Power.USSR, Power.GERMANY, Power.UK
UKRAINE = "USSR 1 #1 Ukraine S.S.R."
RE_ROLL = (
    "re-roll the entire battle with the correct number and type of units (no attacking "
    "units may be added)"
)
NOT_FIGHTING = "do not fight the battle: move the units assigned to it during non-combat"
EAST = {
    "Karelia S.S.R.": {R: {U.INF: 3, U.ARM: 2}},
    "Caucasus": {R: {U.INF: 2}},
    "Ukraine S.S.R.": {G: {U.INF: 2}},
    "East Europe": {G: {U.INF: 1}},
}


def declared(
    orders: str, units: dict[str, dict[Power, dict[U, int]]] = EAST, **kw: object
) -> GameLedger:
    ledger = GameLedger(board(units, **kw))
    ledger.precombat(orders)
    return ledger


class TestAttackingUnitsListedExactly:
    """The exact number and type of attacking units, along with their country/territory or
    sea zone of origin, must be listed for each declared combat. If any of this information
    is incorrect, it is considered a CDE, and the entire battle is null and void and no
    portion of the results may stand."""

    def test_an_incorrect_number_of_attacking_units(self) -> None:
        ledger = declared("Russia 1 pre-combat\n\nAttack #1 - Ukraine (2 INF)\nKar 4 INF\n")
        ledger.roll("Ukraine", {"INF": 4}, {"INF": 2}, [1, 1, 1, 1, 6, 6])
        (ruling,) = ledger.rulings()
        assert (ruling.rule, ruling.about) == (CDE_ATTACKERS, (2, 3))
        assert (ruling.kept, ruling.dropped) == ((), every_die(3, 6))
        assert ruling.void_battles == (UKRAINE,)
        assert ruling.options == (RE_ROLL, NOT_FIGHTING)
        assert "4 INF listed from Karelia S.S.R., which holds 3" in ruling.decision

    def test_incorrect_types_of_units(self) -> None:
        ledger = declared("Russia 1 pre-combat\n\nAttack #1 - Ukraine (2 INF)\nKar 3 ARM\n")
        ledger.roll("Ukraine", {"ARM": 3}, {"INF": 2}, [6, 6, 6, 6, 6])
        ruling = the_ruling(ledger.rulings(), CDE_ATTACKERS)
        assert ruling.dropped == every_die(3, 5) and ruling.void_battles == (UKRAINE,)

    def test_every_roll_of_the_battle_is_void(self) -> None:
        ledger = declared("Russia 1 pre-combat\n\nAttack #1 - Ukraine (2 INF)\nKar 4 INF\n")
        ledger.roll("Ukraine", {"INF": 4}, {"INF": 2}, [6, 6, 6, 6, 6, 6])
        ledger.roll("Ukraine", {"INF": 4}, {"INF": 2}, [6, 6, 6, 6, 6, 6], round=2)
        (ruling,) = ledger.rulings()
        assert ruling.about == (2, 3, 4)
        assert ruling.dropped == (*every_die(3, 6), *every_die(4, 6))

    def test_only_the_battle_in_error_is_void(self) -> None:
        ledger = declared(
            "Russia 1 pre-combat\n\nAttack #1 - Ukraine (2 INF)\nKar 4 INF\n"
            "Attack #2 - E Europe (1 INF)\nKar 2 ARM\n"
        )
        ledger.roll("Ukraine", {"INF": 4}, {"INF": 2}, [6, 6, 6, 6, 6, 6])
        ledger.roll("E Europe", {"ARM": 2}, {"INF": 1}, [6, 6, 6])
        (ruling,) = ledger.rulings()
        assert ruling.void_battles == (UKRAINE,)


class TestTheAttackersOptions:
    """The attacker may then elect to re-roll the entire battle with the correct number and
    type of units or he may elect not to fight the battle at all. He may not add additional
    attacking units to the battle."""

    def test_a_battle_fought_again_after_the_error_is_recognised_stands(self) -> None:
        """The void rolls (#3) are dropped; the battle fought again with the right units
        after the error-recognition note (#4) is kept (#5)."""
        ledger = declared("Russia 1 pre-combat\n\nAttack #1 - Ukraine (2 INF)\nKar 4 INF\n")
        ledger.roll("Ukraine", {"INF": 4}, {"INF": 2}, [1, 1, 1, 1, 6, 6])
        ledger.note("error-recognition", "Karelia holds only 3 INF", AXIS, ref_seq=3)
        ledger.roll("Ukraine", {"INF": 3}, {"INF": 2}, [1, 6, 6, 6, 6])
        (ruling,) = ledger.rulings()
        assert ruling.about == (2, 3, 4)
        assert (ruling.dropped, ruling.kept) == (every_die(3, 6), every_die(5, 5))
        assert ruling.options == () and ruling.void_battles == (UKRAINE,)

    def test_a_unit_out_of_range_is_none_of_the_correct_units(self) -> None:
        """Tried as a new player: a fighter declared from four spaces too far made the CDE,
        and the battle fought again was weighed as if it could still roll. The correct
        units leave it out; rolling it again is adding units."""
        units = {**EAST, "Soviet Far East": {R: {U.FTR: 1}}}
        ledger = declared(
            "Russia 1 pre-combat\n\nAttack #1 - Ukraine (2 INF)\nKar 3 INF\n"
            "Soviet Far East 1 FTR\n",
            units,
        )
        ledger.roll("Ukraine", {"INF": 3, "FTR": 1}, {"INF": 2}, [6, 6, 6, 6, 6, 6])
        ledger.note("error-recognition", "the fighter could not reach", AXIS, ref_seq=3)
        ledger.roll("Ukraine", {"INF": 3}, {"INF": 2}, [1, 6, 6, 6, 6])
        (ruling,) = ledger.rulings()  # no "too few units" ruling on the fighter left out
        assert (ruling.dropped, ruling.kept) == (every_die(3, 6), every_die(5, 5))

    def test_the_battle_fought_again_rolls_the_defenders_the_board_has(self) -> None:
        """ "The attacker may list all the defending units ... or alternatively, may list only
        the defending territory, as the defending units are what they are", and "defending
        AA guns must be listed only when attacking air is involved": the battle fought again
        rolls the board's defenders, its AA gun only against aircraft."""
        units = {**EAST, "Ukraine S.S.R.": {G: {U.INF: 2, U.AA: 1}}}
        ledger = declared("Russia 1 pre-combat\n\nAttack #1 - Ukraine (5 INF)\nKar 4 INF\n", units)
        (battle,) = declared_battles(ledger.pre, ledger.bodies)
        assert refight_forces(battle, ledger.position) == {
            "attacker": {"INF": 3},
            "defender": {"INF": 2},
        }
        with_air = declared(
            "Russia 1 pre-combat\n\nAttack #1 - Ukraine\nKar 3 INF\nRussia 1 FTR\n",
            {**units, "Russia": {R: {U.FTR: 1}}},
        )
        (battle,) = declared_battles(with_air.pre, with_air.bodies)
        assert refight_forces(battle, with_air.position) == {
            "attacker": {"INF": 3, "FTR": 1},
            "defender": {"INF": 2, "AA": 1},
        }


class TestDeclareAllCombatFirst:
    """A player must declare all combat prior to rolling any dice."""

    def test_a_roll_for_a_battle_not_declared_is_void(self) -> None:
        ledger = declared("Russia 1 pre-combat\n\nAttack #1 - Ukraine\nKar 2 ARM\n")
        ledger.roll("E Europe", {"ARM": 2}, {"INF": 1}, [1, 1, 6])
        (ruling,) = ledger.rulings()
        assert (ruling.rule, ruling.about) == (CDE_UNDECLARED, (3,))
        assert (ruling.dropped, ruling.kept) == (every_die(3, 3), ())

    def test_a_declaration_error_unrolled_is_ruled_once_combat_dice_are_rolled(self) -> None:
        """Amendments and Special Orders: "No changes will be allowed once any combat dice
        are rolled": battle #2 is void though not yet rolled."""
        ledger = declared(
            "Russia 1 pre-combat\n\nAttack #1 - Ukraine (2 INF)\nKar 2 ARM\n"
            "Attack #2 - E Europe (1 INF)\nCauc 3 INF\n"
        )
        assert ledger.rulings() == []
        ledger.roll("Ukraine", {"ARM": 2}, {"INF": 2}, [6, 6, 6, 6])
        ruling = the_ruling(ledger.rulings(), f"{CDE_ATTACKERS}; {CDE_TRANSPORTS}")
        assert (ruling.about, ruling.dropped) == ((2,), ())
        assert ruling.void_battles == ("USSR 1 #2 East Europe",)

    def test_an_amended_declaration_before_any_die_is_no_cde(self) -> None:
        ledger = declared("Russia 1 pre-combat\n\nAttack #1 - Ukraine (2 INF)\nKar 4 INF\n")
        ledger.precombat("Russia 1 pre-combat\n\nAttack #1 - Ukraine (2 INF)\nKar 3 INF\n")
        ledger.roll("Ukraine", {"INF": 3}, {"INF": 2}, [6, 6, 6, 6, 6])
        assert ledger.rulings() == []


class TestTransportsAndUnloading:
    """not enough transports - failure to include transports in the sea zone clearing
    portion of an amphibious assault - failure to disclose the unloading sea zone if more
    than one potential zone exists in an amphibious assault"""

    def test_not_enough_transports(self) -> None:
        units = {
            "United Kingdom": {UK: {U.INF: 4}},
            "North Sea Zone": {UK: {U.TRN: 1}},
            "West Europe": {G: {U.INF: 1}},
        }
        ledger = declared(
            "UK 1 pre-combat\n\nAttack #1 - W Europe (1 INF)\nUK 4 INF on North SZ 1 TRN\n",
            units,
            to_move=UK,
        )
        ledger.roll("W Europe", {"INF": 4}, {"INF": 1}, [1, 1, 6, 6, 6])
        ruling = the_ruling(ledger.rulings(), CDE_TRANSPORTS)
        assert ruling.void_battles == ("UK 1 #1 West Europe",)
        assert ruling.dropped == every_die(3, 5)

    def test_the_unloading_zone_not_disclosed(self) -> None:
        """From the East Canada zone the transport may unload into West Europe from the
        North Sea or the Atlantic: neither is named."""
        units = {
            "East Canada": {UK: {U.INF: 2}},
            "East Canada Sea Zone": {UK: {U.TRN: 1}},
            "West Europe": {G: {U.INF: 1}},
        }
        ledger = declared(
            "UK 1 pre-combat\n\nAttack #1 - W Europe\nE Can 2 INF on E Can SZ 1 TRN\n",
            units,
            to_move=UK,
        )
        ledger.roll("W Europe", {"INF": 2}, {"INF": 1}, [6, 6, 6])
        ruling = the_ruling(ledger.rulings(), CDE_UNLOADING)
        assert ruling.dropped == every_die(3, 3)
        assert ruling.void_battles == ("UK 1 #1 West Europe",)


class TestSeaZoneClearing:
    """failure to include transports in the sea zone clearing portion of an amphibious
    assault

    The transports sail through the North Sea, where a German sub is, and the sea battle
    there leaves them out. Which battle that voids the rules leave open; the league's reading
    (README, "Rulings the rules leave open"): both the sea battle (#1), fought without units
    the defender could have hit, and the assault (#2) riding on it."""

    def test_the_sea_battle_and_the_assault_are_void(self) -> None:
        units = {
            "East Canada": {UK: {U.INF: 2}},
            "East Canada Sea Zone": {UK: {U.TRN: 1, U.BB: 1}},
            "North Sea Zone": {G: {U.SUB: 1}},
            "West Europe": {G: {U.INF: 1}},
        }
        ledger = declared(
            "UK 1 pre-combat\n\nAttack #1 - UK SZ (1 SUB)\nE Can SZ 1 BB\n"
            "Attack #2 - W Europe (1 INF)\nE Can 2 INF on E Can SZ 1 TRN to UK SZ\n",
            units,
            to_move=UK,
        )
        sea = ledger.roll("UK SZ", {"BB": 1}, {"SUB": 1}, [1, 6])
        assault = ledger.roll("W Europe", {"INF": 2}, {"INF": 1}, [1, 6, 6])
        sea_ruling, assault_ruling = sorted(ledger.rulings(), key=lambda r: r.about)
        assert (sea_ruling.rule, sea_ruling.about) == (CDE_TRANSPORTS, (2, sea))
        assert sea_ruling.void_battles == ("UK 1 #1 North Sea Zone",)
        assert sea_ruling.dropped == every_die(sea, 2)
        assert (assault_ruling.rule, assault_ruling.about) == (CDE_TRANSPORTS, (2, assault))
        assert assault_ruling.void_battles == ("UK 1 #2 West Europe",)
        assert assault_ruling.dropped == every_die(assault, 3)


class TestNotFightingTheBattle:
    """If the attacker elects not to fight the battle, he may move the previously assigned
    units during non-combat."""

    def test_the_option_not_to_fight(self) -> None:
        ledger = declared("Russia 1 pre-combat\n\nAttack #1 - Ukraine (2 INF)\nKar 4 INF\n")
        ledger.roll("Ukraine", {"INF": 4}, {"INF": 2}, [6, 6, 6, 6, 6, 6])
        (ruling,) = ledger.rulings()
        assert ruling.options[1] == NOT_FIGHTING


class TestOverCommitment:
    """If a player makes a CDE by sending more than the available number of attacking units
    from the same territory into multiple battles, ALL battles involving the affected units
    from that attacking territory will be considered null and void and no portion of the
    results may stand."""

    def test_both_battles_using_the_units_are_void(self) -> None:
        ledger = declared(
            "Russia 1 pre-combat\n\nAttack #1 - Ukraine (2 INF)\nKar 2 INF\n"
            "Attack #2 - E Europe (1 INF)\nKar 2 INF\n"
        )
        ledger.roll("Ukraine", {"INF": 2}, {"INF": 2}, [1, 1, 6, 6])
        ledger.roll("E Europe", {"INF": 2}, {"INF": 1}, [1, 6, 6])
        rulings = ledger.rulings()
        assert [r.rule for r in rulings] == [CDE_OVER_COMMITTED, CDE_OVER_COMMITTED]
        assert [r.void_battles for r in rulings] == [(UKRAINE,), ("USSR 1 #2 East Europe",)]
        assert [r.dropped for r in rulings] == [every_die(3, 4), every_die(4, 3)]


class TestDefendingUnitsListed:
    """If any defending units are listed, then they must be 100% correct. If any of this
    information is incorrect, it is considered a CDE, and the entire battle is null and void
    and no portion of the results may stand. The attacker may then elect to re-roll the
    entire battle with the correct number and type of defending units or he may elect not
    to fight the battle at all."""

    def test_a_wrong_defender_list_voids_the_battle(self) -> None:
        ledger = declared("Russia 1 pre-combat\n\nAttack #1 - Ukraine (3 INF)\nKar 2 ARM\n")
        ledger.roll("Ukraine", {"ARM": 2}, {"INF": 3}, [1, 1, 6, 6, 6])
        (ruling,) = ledger.rulings()
        assert (ruling.rule, ruling.dropped) == (CDE_DEFENDERS, every_die(3, 5))
        assert ruling.options == (
            "re-roll the entire battle with the correct number and type of defending units",
            NOT_FIGHTING,
        )


class TestTheChoiceOfListingDefenders:
    """The advantage of listing the defending units is to be allowed the option to cancel
    the fight. The disadvantage is that there is a greater opportunity to make a mistake.

    A wrong listing voids the battle and offers not fighting it; with only the territory
    listed, the same wrong defenders are a rolling error and the battle must be fought."""

    def test_listed_wrongly_the_battle_may_be_cancelled(self) -> None:
        ledger = declared("Russia 1 pre-combat\n\nAttack #1 - Ukraine (1 INF)\nKar 2 ARM\n")
        ledger.roll("Ukraine", {"ARM": 2}, {"INF": 1}, [6, 6, 6])
        (ruling,) = ledger.rulings()
        assert NOT_FIGHTING in ruling.options and ruling.void_battles == (UKRAINE,)

    def test_territory_only_the_battle_must_be_fought(self) -> None:
        ledger = declared("Russia 1 pre-combat\n\nAttack #1 - Ukraine\nKar 2 ARM\n")
        ledger.roll("Ukraine", {"ARM": 2}, {"INF": 1}, [6, 6, 6])
        (ruling,) = ledger.rulings()
        assert ruling.options == () and ruling.void_battles == ()


class TestOnlyTheDefendingTerritoryListed:
    """If only the defending territory is listed: The listed defending units that are
    rolled on the first roll must be 100% correct. If this information is incorrect, it is
    considered a rolling error, and must be re-rolled as per error correction guidelines for
    rolling errors. The attacker is then required to fight the battle with the correct
    number and type of defending units."""

    def test_a_defender_left_out_of_the_first_roll_is_a_rolling_error(self) -> None:
        ledger = declared("Russia 1 pre-combat\n\nAttack #1 - Ukraine\nKar 2 ARM\n")
        ledger.roll("Ukraine", {"ARM": 2}, {"INF": 1}, [6, 6, 6])
        (ruling,) = ledger.rulings()
        assert ruling.rule == f"{CDE_TERRITORY_ONLY}; {TOO_FEW}"
        assert (ruling.void_battles, ruling.options) == ((), ())
        assert (ruling.kept, ruling.dropped) == (every_die(3, 3), ())
        assert requests(ruling) == [
            roll_request("USSR", "Ukraine S.S.R.", [], [("INF", 1)], ["defenders-only"])
        ]
        assert ruling.reroll_from_round == 2

    def test_the_right_defenders_need_no_ruling(self) -> None:
        ledger = declared("Russia 1 pre-combat\n\nAttack #1 - Ukraine\nKar 2 ARM\n")
        ledger.roll("Ukraine", {"ARM": 2}, {"INF": 2}, [6, 6, 6, 6])
        assert ledger.rulings() == []


class TestTheDeclaredTerritory:
    """The declared territory or sea zone is always assumed to be correct, and cannot be
    considered as a CDE."""

    def test_a_place_with_nothing_to_attack_is_no_cde(self) -> None:
        ledger = declared(
            "Russia 1 pre-combat\n\nAttack #1 - Ukraine\nKar 2 ARM\n",
            {"Karelia S.S.R.": {R: {U.ARM: 2}}},
            owners={"Ukraine S.S.R.": R},
        )
        ledger.roll("Ukraine", {"ARM": 2}, {}, [6, 6])
        ruling = the_ruling(ledger.rulings(), CDE_TERRITORY)
        assert ruling.void_battles == () and ruling.dropped == ()


class TestIntentIsClear:
    """However, if it is clear from the combat orders where the battle is to occur, and what
    units are involved, and the units are 100% correct, then no CDE can be called. ... For
    example: There is only 1 German sub on the board (in azo sz), and only 1 UK trn on the
    board (in lab sz). The combat orders list the attacking sub in can sz instead of lab sz.
    In this case the battle will stand as correct.

    Played as the declarations' conformance case plays it on the Classic board: the sub in
    the West Spain zone, the transport in the East Canada zone, the sub listed from the North
    Atlantic zone."""

    def test_the_battle_stands(self) -> None:
        units = {
            "West Spain Sea Zone": {G: {U.SUB: 1}},
            "East Canada Sea Zone": {UK: {U.TRN: 1}},
        }
        ledger = declared(
            "Germany 1 pre-combat\n\nAttack #1 - E Can SZ (1 TRN)\nN Atlantic SZ 1 SUB\n",
            units,
            to_move=G,
        )
        ledger.roll("E Can SZ", {"SUB": 1}, {"TRN": 1}, [1, 6])
        (ruling,) = ledger.rulings()
        assert (ruling.rule, ruling.about) == (CDE_INTENT, (2, 3))
        assert (ruling.void_battles, ruling.dropped) == ((), ())
        assert "the battle stands" in ruling.decision
