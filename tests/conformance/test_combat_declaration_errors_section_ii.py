"""IAAPA Error Correction, Section II - Combat Declaration Errors (CDE): each rule case against
a position built for it, before any die is rolled.

Each class quotes its part of Section II; each test is one case. A rule variant re-runs a class
by subclassing it and overriding :meth:`Case.position`.
"""

from __future__ import annotations

from typing import ClassVar

import pytest

from adjudicator.declarations import Code, void_battles
from adjudicator.declarations.geometry import geometry
from adjudicator.diagnostics import Diagnostic
from adjudicator.notation import Severity
from adjudicator.position import arranged
from adjudicator.units import UnitType as U
from tests.conformance.cases import UK, Case, G, R, Units, errors


def codes(found: tuple[Diagnostic, ...]) -> list[Code]:
    return [f.code for f in found]


class TestDeclareAllCombatBeforeAnyDie(Case):
    """Section II: "A player must declare all combat prior to rolling any dice."

    The check needs only the declarations and the board: what it finds voids a battle before
    any die of it exists."""

    def test_a_declaration_error_is_known_before_the_roll(self) -> None:
        found = self.check(
            {"Karelia S.S.R.": {R: {U.INF: 2}}, "Finland Norway": {G: {U.INF: 1}}},
            "Attack #1 - Finland\nKar 3 INF\nAttack #2 - E Europe\nKar 2 ARM\n",
            owners={"East Europe": G},
        )
        assert void_battles(found) == (1, 2)


class TestAttackingUnitsAndOrigins(Case):
    """Section II: "The exact number and type of attacking units, along with their
    country/territory or sea zone of origin, must be listed for each declared combat. If any of
    this information is incorrect, it is considered a CDE, and the entire battle is null and
    void and no portion of the results may stand." Examples: "incorrect number of attacking
    units", "incorrect types of units"."""

    RULE_BOOK: ClassVar[Units] = {
        "United Kingdom": {UK: {U.INF: 8}},
        "North Sea Zone": {UK: {U.TRN: 4}},
        "East Canada": {UK: {U.ARM: 1}},
        "East Canada Sea Zone": {UK: {U.TRN: 1}},
        "Karelia S.S.R.": {UK: {U.FTR: 2}},
        "West Europe": {G: {U.INF: 10, U.AA: 1}},
    }
    EXAMPLE = (
        "Combat Moves:\nAttack #1 - W Europe (10 INF, AA)\nUK 8 INF on UK SZ 4 TRN\n"
        "E Can 1 ARM on E Can SZ 1 TRN to UK SZ\nKar 2 FTR (land Karelia)\n"
        "Total UK v. Germany --- 8 INF, 1 ARM, 2 FTR v. 10 INF, AA\n"
    )

    def test_the_rule_books_precombat_example_is_no_cde_on_its_board(self) -> None:
        """Precombat: the example, on a board where its units are where it says."""
        assert self.check(self.RULE_BOOK, self.EXAMPLE, to_move=UK) == ()

    def test_an_incorrect_number_of_attacking_units(self) -> None:
        units = {**self.RULE_BOOK, "United Kingdom": {UK: {U.INF: 7}}}
        found = self.check(units, self.EXAMPLE, to_move=UK)
        assert errors(found) == [(3, Code.NOT_AT_ORIGIN, (1,))]
        assert "8 INF listed from United Kingdom, which holds 7" in found[0].message

    def test_an_incorrect_type_of_unit(self) -> None:
        units = {**self.RULE_BOOK, "East Canada": {UK: {U.INF: 1}}}
        found = self.check(units, self.EXAMPLE, to_move=UK)
        assert errors(found) == [(4, Code.NOT_AT_ORIGIN, (1,))]
        assert "ARM" in found[0].message and "East Canada" in found[0].message

    def test_a_wrong_origin(self) -> None:
        """The fighters are in the UK, not Karelia: with fighters elsewhere too (India), the
        origin cannot be guessed."""
        units = {
            **self.RULE_BOOK,
            "Karelia S.S.R.": {},
            "United Kingdom": {UK: {U.INF: 8, U.FTR: 2}},
            "India": {UK: {U.FTR: 1}},
        }
        found = self.check(units, self.EXAMPLE, to_move=UK)
        assert errors(found) == [(5, Code.NOT_AT_ORIGIN, (1,))]

    def test_a_missing_origin(self) -> None:
        found = self.check(
            {
                "Karelia S.S.R.": {R: {U.INF: 3}},
                "Caucasus": {R: {U.INF: 2}},
                "Finland Norway": {G: {U.INF: 1}},
            },
            "Attack #1 - Finland\n2 INF\n",
        )
        assert errors(found) == [(2, Code.ORIGIN_NOT_LISTED, (1,))]

    def test_a_total_line_alone_lists_no_origin(self) -> None:
        found = self.check(
            {
                "Karelia S.S.R.": {R: {U.INF: 3}},
                "Caucasus": {R: {U.INF: 2}},
                "Finland Norway": {G: {U.INF: 1}},
            },
            "Attack #1 - Finland\nTotal USSR v. Germany --- 2 INF v. 1 INF\n",
        )
        assert errors(found) == [(2, Code.ORIGIN_NOT_LISTED, (1,))]

    def test_units_of_an_ally_are_not_the_attackers(self) -> None:
        """Only the power whose turn it is attacks; British fighters in Karelia are not the
        Soviet player's to send."""
        found = self.check(
            {"Karelia S.S.R.": {R: {U.INF: 3}, UK: {U.FTR: 1}}, "Finland Norway": {G: {U.INF: 1}}},
            "Attack #1 - Finland\nKar 2 INF, 1 FTR (land Kar)\n",
        )
        assert errors(found) == [(2, Code.NOT_AT_ORIGIN, (1,))]

    def test_an_aa_gun_is_no_attacker(self) -> None:
        """AA guns may not move in the combat move (IAAPA AA Guns; a rocket "may not
        accompany any units in a combat attack"): listing one attacking is a wrong type."""
        found = self.check(
            {"Karelia S.S.R.": {R: {U.INF: 3, U.AA: 1}}, "Finland Norway": {G: {U.INF: 1}}},
            "Attack #1 - Finland\nKar 2 INF, 1 AA\n",
        )
        assert errors(found) == [(2, Code.CANNOT_ATTACK, (1,))]

    def test_units_that_cannot_reach_the_battle(self) -> None:
        found = self.check(
            {"Caucasus": {R: {U.INF: 2}}, "Finland Norway": {G: {U.INF: 1}}},
            "Attack #1 - Finland\nCauc 2 INF\n",
        )
        assert errors(found) == [(2, Code.UNREACHABLE, (1,))]

    def test_only_the_battle_in_error_is_void(self) -> None:
        found = self.check(
            {
                "Karelia S.S.R.": {R: {U.INF: 3}},
                "Caucasus": {R: {U.INF: 1}},
                "Finland Norway": {G: {U.INF: 1}},
                "Ukraine S.S.R.": {G: {U.INF: 1}},
            },
            "Attack #1 - Finland\nKar 3 INF\nAttack #2 - Ukraine\nCauc 2 INF\n",
        )
        assert void_battles(found) == (2,)


class TestTheDeclaredPlace(Case):
    """Section II: "The declared territory or sea zone is always assumed to be correct, and
    cannot be considered as a CDE.\""""

    def test_a_battle_with_nothing_to_attack_is_no_cde(self) -> None:
        found = self.check(
            {
                "North Sea Zone": {UK: {U.BB: 1}},
                "Baltic Sea Zone": {G: {U.SUB: 1}},
                "Algeria": {G: {U.INF: 1}},
                "Karelia Sea Zone": {G: {U.TRN: 1}},
            },
            "Attack #1 - W Spain SZ\nUK SZ 1 BB\n",
            to_move=UK,
        )
        assert codes(found) == [Code.NOTHING_TO_ATTACK]
        assert void_battles(found) == ()


class TestIntentIsClear(Case):
    """Section II: "However, if it is clear from the combat orders where the battle is to
    occur, and what units are involved, and the units are 100% correct, then no CDE can be
    called. ... For example: There is only 1 German sub on the board (in azo sz), and only 1 UK
    trn on the board (in lab sz). The combat orders list the attacking sub in can sz instead
    of lab sz. In this case the battle will stand as correct."

    The Classic board has no Azores, Labrador or Canada zones; the case is played with the
    German sub in the West Spain zone ("azo sz"), the UK transport in the East Canada zone
    ("lab sz") and the North Atlantic zone as the wrong one ("can sz"). "Listed in can sz" is
    read both ways: as the battle's place, and as the sub's origin."""

    BOARD: ClassVar[Units] = {
        "West Spain Sea Zone": {G: {U.SUB: 1}},
        "East Canada Sea Zone": {UK: {U.TRN: 1}},
    }

    def test_the_battle_declared_in_the_wrong_zone_stands(self) -> None:
        found = self.check(
            self.BOARD, "Attack #1 - N Atlantic SZ (1 TRN)\nW Spain SZ 1 SUB\n", to_move=G
        )
        assert [(f.code, f.severity) for f in found] == [(Code.INTENT_CLEAR, Severity.WARNING)]
        assert "read as East Canada Sea Zone" in found[0].message

    def test_the_only_sub_listed_from_the_wrong_zone_stands(self) -> None:
        found = self.check(
            self.BOARD, "Attack #1 - E Can SZ (1 TRN)\nN Atlantic SZ 1 SUB\n", to_move=G
        )
        assert [(f.code, f.severity) for f in found] == [(Code.INTENT_CLEAR, Severity.WARNING)]
        assert "read as from West Spain Sea Zone" in found[0].message

    def test_a_second_sub_on_the_board_makes_it_a_cde(self) -> None:
        board = {**self.BOARD, "Baltic Sea Zone": {G: {U.SUB: 1}}}
        found = self.check(board, "Attack #1 - E Can SZ (1 TRN)\nN Atlantic SZ 1 SUB\n", to_move=G)
        assert errors(found) == [(2, Code.NOT_AT_ORIGIN, (1,))]

    def test_a_single_sub_that_cannot_reach_is_no_reading(self) -> None:
        board = {"Black Sea Zone": {G: {U.SUB: 1}}, "East Canada Sea Zone": {UK: {U.TRN: 1}}}
        found = self.check(board, "Attack #1 - E Can SZ (1 TRN)\nN Atlantic SZ 1 SUB\n", to_move=G)
        assert errors(found) == [(2, Code.NOT_AT_ORIGIN, (1,))]

    def test_a_second_target_makes_the_place_unclear(self) -> None:
        board = {**self.BOARD, "North Sea Zone": {UK: {U.TRN: 1}}}
        found = self.check(
            board, "Attack #1 - N Atlantic SZ (1 TRN)\nW Spain SZ 1 SUB\n", to_move=G
        )
        assert Code.INTENT_CLEAR not in codes(found)
        assert Code.NOTHING_TO_ATTACK in codes(found)


class TestExamplesOfDefendingUnits(Case):
    """Section II, examples of a CDE: "incorrect number of defending units (see Section II.3
    below) note: defending AA guns must be listed only when attacking air is involved"."""

    FINLAND: ClassVar[Units] = {
        "Karelia S.S.R.": {R: {U.INF: 3, U.FTR: 1}},
        "Finland Norway": {G: {U.INF: 2, U.AA: 1}},
    }

    def test_an_incorrect_number_of_defending_units(self) -> None:
        found = self.check(self.FINLAND, "Attack #1 - Finland (1 INF, AA)\nKar 3 INF\n")
        assert errors(found) == [(1, Code.DEFENDERS_WRONG, (1,))]
        assert "1 INF listed, 2 there" in found[0].message

    def test_leaving_out_the_aa_gun_is_no_cde_without_planes(self) -> None:
        assert self.check(self.FINLAND, "Attack #1 - Finland (2 INF)\nKar 3 INF\n") == ()

    def test_leaving_out_the_aa_gun_is_a_cde_when_planes_attack(self) -> None:
        found = self.check(
            self.FINLAND, "Attack #1 - Finland (2 INF)\nKar 3 INF, 1 FTR (land Kar)\n"
        )
        assert errors(found) == [(1, Code.DEFENDERS_WRONG, (1,))]
        assert "an AA gun must be listed when planes attack" in found[0].message

    def test_listing_an_aa_gun_that_is_not_there_is_always_a_cde(self) -> None:
        board = {**self.FINLAND, "Finland Norway": {G: {U.INF: 2}}}
        found = self.check(board, "Attack #1 - Finland (2 INF, AA)\nKar 3 INF\n")
        assert errors(found) == [(1, Code.DEFENDERS_WRONG, (1,))]

    def test_listing_the_aa_gun_with_planes_attacking_is_right(self) -> None:
        assert (
            self.check(
                self.FINLAND, "Attack #1 - Finland (2 INF, AA)\nKar 3 INF, 1 FTR (land Kar)\n"
            )
            == ()
        )

    def test_an_incorrect_type_of_defending_unit(self) -> None:
        found = self.check(self.FINLAND, "Attack #1 - Finland (1 INF, 1 ARM)\nKar 3 INF\n")
        assert errors(found) == [(1, Code.DEFENDERS_WRONG, (1,))]


class TestListedDefenders(Case):
    """Section II.3: "The attacker, at his discretion, may list all the defending units and
    the defending territory or alternatively, may list only the defending territory, as the
    defending units are what they are. If any defending units are listed, then they must be
    100% correct. If any of this information is incorrect, it is considered a CDE, and the
    entire battle is null and void and no portion of the results may stand.\""""

    BOARD: ClassVar[Units] = {
        "Karelia S.S.R.": {R: {U.INF: 3}},
        "East Europe": {G: {U.INF: 3, U.ARM: 1}},
    }

    def test_only_the_territory_listed_is_never_a_defender_cde(self) -> None:
        assert self.check(self.BOARD, "Attack #1 - E Europe\nKar 3 INF\n") == ()

    def test_defenders_listed_exactly(self) -> None:
        assert self.check(self.BOARD, "Attack #1 - E Europe (3 INF, 1 ARM)\nKar 3 INF\n") == ()

    def test_defenders_listed_wrong(self) -> None:
        found = self.check(self.BOARD, "Attack #1 - E Europe (3 INF)\nKar 3 INF\n")
        assert errors(found) == [(1, Code.DEFENDERS_WRONG, (1,))]

    def test_defenders_on_the_total_line_are_listed_defenders(self) -> None:
        found = self.check(
            self.BOARD,
            "Attack #1 - E Europe\nKar 3 INF\nTotal USSR v. Germany --- 3 INF v. 4 INF\n",
        )
        assert errors(found) == [(3, Code.DEFENDERS_WRONG, (1,))]

    def test_a_walk_in_lists_an_empty_territory(self) -> None:
        """IAAPA Abbreviations, WI: "The attacker simply "walks in" to an empty enemy or
        neutral territory." A walk-in where defenders stand lists them wrong."""
        found = self.check(self.BOARD, "Combat moves:\nKar 1 INF WI E Europe\n")
        assert errors(found) == [(2, Code.DEFENDERS_WRONG, (1,))]
        assert (
            self.check(
                {"Karelia S.S.R.": {R: {U.INF: 3}}},
                "Combat moves:\nKar 1 INF WI E Europe\n",
                owners={"East Europe": G},
            )
            == ()
        )

    def test_a_complex_need_not_be_listed_but_cannot_be_invented(self) -> None:
        board = {**self.BOARD, "East Europe": {G: {U.INF: 3, U.ARM: 1, U.IC: 1}}}
        assert self.check(board, "Attack #1 - E Europe (3 INF, 1 ARM)\nKar 3 INF\n") == ()
        found = self.check(self.BOARD, "Attack #1 - E Europe (3 INF, 1 ARM, IC)\nKar 3 INF\n")
        assert errors(found) == [(1, Code.DEFENDERS_WRONG, (1,))]


class TestOverCommitment(Case):
    """Section II: "If a player makes a CDE by sending more than the available number of
    attacking units from the same territory into multiple battles, ALL battles involving the
    affected units from that attacking territory will be considered null and void and no
    portion of the results may stand.\""""

    BOARD: ClassVar[Units] = {
        "Karelia S.S.R.": {R: {U.INF: 3, U.ARM: 1}},
        "Finland Norway": {G: {U.INF: 1}},
        "East Europe": {G: {U.INF: 1}},
        "Ukraine S.S.R.": {G: {U.INF: 1}},
        "Caucasus": {R: {U.INF: 2}},
    }

    def test_every_battle_using_the_units_is_void_and_named(self) -> None:
        found = self.check(
            self.BOARD,
            "Attack #1 - Finland\nKar 2 INF\n"
            "Attack #2 - E Europe\nKar 2 INF\n"
            "Attack #3 - Ukraine\nCauc 2 INF\n",
        )
        assert errors(found) == [(2, Code.OVER_COMMITTED, (1, 2)), (4, Code.OVER_COMMITTED, (1, 2))]
        for finding in found:
            assert "battle #1 (Finland Norway)" in finding.message
            assert "battle #2 (East Europe)" in finding.message
            assert "2 + 2 = 4" in finding.message and "holds 3 INF" in finding.message
        assert void_battles(found) == (1, 2)

    def test_other_units_from_that_territory_are_not_affected(self) -> None:
        """ "the affected units" are those over-committed: the ARM sent from the same
        territory to a third battle are not among them (judgement: the rule voids the battles
        involving the affected units, not every unit of the territory)."""
        found = self.check(
            self.BOARD,
            "Attack #1 - Finland\nKar 2 INF\n"
            "Attack #2 - E Europe\nKar 2 INF\n"
            "Attack #3 - Ukraine\nKar 1 ARM\n",
        )
        assert void_battles(found) == (1, 2)

    def test_all_the_territory_holds_may_be_split_between_battles(self) -> None:
        assert (
            self.check(
                self.BOARD,
                "Attack #1 - Finland\nKar 2 INF\nAttack #2 - E Europe\nKar 1 INF, 1 ARM\n",
            )
            == ()
        )


def test_the_finland_case_is_a_one_move_attack() -> None:
    """The cases above lean on the map: Karelia touches Finland, East Europe and Ukraine;
    Caucasus touches Ukraine but not Finland."""
    g = geometry(arranged({}).board)
    assert [
        g.air("Karelia S.S.R.", t) for t in ("Finland Norway", "East Europe", "Ukraine S.S.R.")
    ] == [1, 1, 1]
    assert g.air("Caucasus", "Ukraine S.S.R.") == 1 and g.air("Caucasus", "Finland Norway") > 1


@pytest.mark.parametrize("code", [c for c in Code if c.value.startswith(("not-", "over-"))])
def test_codes_are_stable_names(code: Code) -> None:
    assert code.value == code.value.lower() and " " not in code.value
