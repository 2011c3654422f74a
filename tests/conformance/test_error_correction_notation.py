"""IAAPA Error Correction Procedures II, IV and VI, as the turn parser applies them.

The parser cannot rule on a combat declaration error (that needs the board position), but it
reads what the rules make decisive, and warns before any die is rolled when a declaration
contradicts itself.
"""

from __future__ import annotations

import pytest

from adjudicator.notation import (
    NotationError,
    Severity,
    Turn,
    Units,
    UnknownNameError,
    UnreadableOrderError,
    parse,
)
from adjudicator.units import UnitType
from tests.conformance.cases import NotationCase, Read

U = UnitType


def codes(turn: Turn) -> list[tuple[int, str, str]]:
    return [(d.line, d.severity.value, d.code) for d in turn.diagnostics]


class TestSectionIICombatDeclarationErrors(NotationCase):
    """Section II-Combat Declaration Errors (CDE)

    - The exact number and type of attacking units, along with their country/territory or sea
      zone of origin, must be listed for each declared combat.
    - If any of this information is incorrect, it is considered a CDE, and the entire battle
      is null and void and no portion of the results may stand.
    - The attacker, at his discretion, may list all the defending units and the defending
      territory or alternatively, may list only the defending territory ...
    - If any defending units are listed, then they must be 100% correct.
    """

    def test_a_total_that_disagrees_with_the_origins_is_flagged_before_rolling(
        self, read: Read
    ) -> None:
        """The exact number and type of attacking units ... must be listed"""
        turn = read("Attack #1 - Karelia (3 INF)\nE Eur 3 INF, 2 ARM\nTotal: 3 INF, 1 ARM v. 3 INF")
        assert codes(turn) == [(3, "warning", "total-mismatch")]
        assert turn.battles[0].attacker == Units.of({U.INF: 3, U.ARM: 2})
        assert turn.diagnostics[0].citation == "IAAPA Error Correction II"

    def test_units_without_an_origin_are_flagged(self, read: Read) -> None:
        """... along with their country/territory or sea zone of origin"""
        turn = read("Attack #1 - Karelia (3 INF)\nTotal Germany v. USSR --- 4 INF v. 3 INF")
        assert codes(turn) == [(2, "warning", "missing-origin")]
        assert turn.battles[0].attacker == Units.of({U.INF: 4})

    def test_listed_defenders_that_contradict_the_total_are_flagged(self, read: Read) -> None:
        """If any defending units are listed, then they must be 100% correct."""
        turn = read("Attack #1 - Karelia (3 INF, AA)\nE Eur 3 INF\nTotal: 3 INF v. 3 INF")
        assert codes(turn) == [(3, "warning", "defender-mismatch")]

    def test_listing_only_the_defending_territory_is_allowed(self, read: Read) -> None:
        """... or alternatively, may list only the defending territory"""
        turn = read("Attack #1 - Karelia\nE Eur 3 INF")
        assert turn.diagnostics == () and turn.battles[0].defender is None

    def test_the_declared_territory_is_taken_as_written(self, read: Read) -> None:
        """The declared territory or sea zone is always assumed to be correct, and cannot be
        considered as a CDE."""
        turn = read("Attack #1 - Kar SZ (1 TRN)\nBaltic SZ 1 SUB")
        assert turn.battles[0].territory == "Karelia Sea Zone"
        assert turn.diagnostics == ()


class TestSectionIVTechRolls(NotationCase):
    """Section IV-Tech Rolls

    - if there is a declaration email, or note, stating how many tech dice have been
      purchased in advance of the roll, this will be considered the desired amount purchased.
    """

    @pytest.mark.parametrize(
        ("written", "dice"),
        [
            ("Tech: 3 dice", 3),
            ("Tech: 2 dice - no breakthrough", 2),
            ("Tech: $15", 3),
            ("Tech: none", 0),
            ("Research: 10 IPC, nothing", 2),
        ],
    )
    def test_the_declared_number_of_dice_is_read(self, read: Read, written: str, dice: int) -> None:
        """... stating how many tech dice have been purchased in advance of the roll"""
        (tech,) = read(written).tech
        assert tech.dice == dice


class TestSectionVITypographicalErrors(NotationCase):
    """Section VI-Typographical Errors

    Typographical mistakes are not considered errors. A number can never be a typographical
    error. Simple typographical misspellings are ignored and not considered errors. Ex: 10 ing
    instead of 10 inf; 10 inf Moscoq instead of 10 inf Moscow. If a typographical error
    results in the wrong territory being listed, i.e., E.US instead of W.US, this will be
    considered an error, not a typo. In all cases, the correct word must be readily
    decipherable.
    """

    def test_10_ing_and_moscoq_are_read_with_warnings_not_errors(self, read: Read) -> None:
        """Ex: 10 ing instead of 10 inf; 10 inf Moscoq instead of 10 inf Moscow."""
        turn = read("Attack #1 - Ukraine (3 INF)\nMoscoq 10 ing")
        assert turn.battles[0].origins[0].place == "Russia"
        assert turn.battles[0].attacker == Units.of({U.INF: 10})
        assert codes(turn) == [(2, "warning", "typo"), (2, "warning", "typo")]
        assert turn.errors == ()
        parse("Attack #1 - Ukraine (3 INF)\nMoscoq 10 ing", strict=True)  # no exception

    def test_a_number_can_never_be_a_typographical_error(self, read: Read) -> None:
        """A number can never be a typographical error."""
        text = "Attack #1 - Ukraine (3 INF)\nRussia 1O inf"
        turn = read(text)
        assert codes(turn) == [(1, "warning", "no-attackers"), (2, "error", "bad-number")]
        assert turn.battles[0].attacker == Units()
        with pytest.raises(UnreadableOrderError) as raised:
            parse(text, strict=True)
        assert raised.value.line == 2

    def test_e_us_is_east_us_as_written(self, read: Read) -> None:
        """If a typographical error results in the wrong territory being listed, i.e., E.US
        instead of W.US, this will be considered an error, not a typo."""
        turn = read("Attack #1 - E.US (2 INF)\nW Eur 2 BMB")
        assert turn.battles[0].territory == "East US"
        assert turn.diagnostics == ()

    def test_the_correct_word_must_be_readily_decipherable(self, read: Read) -> None:
        """In all cases, the correct word must be readily decipherable."""
        turn = read("Attack #1 - Xqzzy (2 INF)\nKar 2 INF")
        assert [d.severity for d in turn.diagnostics] == [Severity.ERROR]
        with pytest.raises(UnknownNameError):
            parse("Attack #1 - Xqzzy (2 INF)\nKar 2 INF", strict=True)
        with pytest.raises(NotationError, match="line 2"):
            parse("Non-combat moves:\nGib SZ 1 BB to Med", strict=True)

    def test_a_word_of_english_is_no_misspelt_name(self, read: Read) -> None:
        """...readily decipherable: a player writing "take" or "home" means the word, not
        Wake Island or Rome; "for" is no fighter. Read as misspellings, these were wrong
        orders with only a warning (an order of loss for Wake Island)."""
        turn = read("Special orders:\nPlease take my infantry first, then tanks\n")
        assert [(o.territory, len(o.order)) for o in turn.orders_of_loss] == [(None, 2)]
        assert turn.diagnostics == ()
        moved = read("Non-combat moves:\nW Europe 1 bmb back home\n")
        assert moved.moves == () and codes(moved) == [(2, "error", "unknown-name")]

    def test_a_sea_zone_named_after_land_is_not_the_land(self, read: Read) -> None:
        """If a typographical error results in the wrong territory being listed ... this
        will be considered an error, not a typo: "Norway SZ" names no sea zone, and is
        never the land Finland Norway."""
        turn = read("Non-combat moves:\nUK SZ 1 BB to Norway SZ\n")
        assert turn.moves == () and codes(turn) == [(2, "error", "unknown-name")]

    def test_a_name_written_part_by_part_is_decipherable(self, read: Read) -> None:
        """...readily decipherable: each part of "Norway/Finland" names Finland Norway."""
        turn = read("Attack #1 - Norway/Finland (3 INF)\nKar 3 INF\n")
        assert turn.battles[0].territory == "Finland Norway"
        assert turn.diagnostics == ()

    def test_a_battle_place_of_several_zones_is_left_to_the_board(self, read: Read) -> None:
        """...readily decipherable: "Med" alone names none of the three Mediterranean zones,
        but the battle is kept with them, for the check against the board to read it as the
        one the orders make clear (Error Correction II: "if it is clear from the combat orders
        where the battle is to occur ... no CDE can be called"), else to void it."""
        turn = read("Attack #1 - Med (1 BB)\nGib SZ 1 BB")
        (battle,) = turn.battles
        assert battle.territory is None and len(battle.could_be) == 3
        assert codes(turn) == [(1, "warning", "ambiguous-battle")]
