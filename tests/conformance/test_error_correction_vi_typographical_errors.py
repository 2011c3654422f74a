"""IAAPA Error Correction Procedures, Section VI - Typographical Errors."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from adjudicator.declarations import check_report
from adjudicator.names import AmbiguousName, Match, Names, UnknownName, classic_names
from adjudicator.position import Position, arranged, initial
from adjudicator.powers import Power
from adjudicator.units import Units, UnitType


class TestSectionVITypographicalErrors:
    """Section VI-Typographical Errors

    Typographical mistakes are not considered errors. A number can never be a typographical
    error. Simple typographical misspellings are ignored and not considered errors. Ex: 10 ing
    instead of 10 inf; 10 inf Moscoq instead of 10 inf Moscow. If a typographical error
    results in the wrong territory being listed, i.e., E.US instead of W.US, this will be
    considered an error, not a typo. In all cases, the correct word must be readily
    decipherable.
    """

    @pytest.fixture
    def names(self) -> Names:
        return classic_names()

    def test_typographical_mistakes_are_not_errors(self, names: Names) -> None:
        """Typographical mistakes are not considered errors."""
        r = names.place("Caucasas")
        assert (r.value, r.corrected) == ("Caucasus", True)
        warning = r.warning()
        assert warning is not None and "not an error" in warning

    def test_a_number_can_never_be_a_typographical_error(self, names: Names) -> None:
        """A number can never be a typographical error."""
        count, unit = names.unit_count("10 inf")
        assert (count, unit.value.unit) == (10, UnitType.INF)
        with pytest.raises(UnknownName, match="never a typographical error"):
            names.unit_count("1O inf")
        with pytest.raises(UnknownName, match="never a typographical error"):
            names.unit("10")

    def test_10_ing_instead_of_10_inf(self, names: Names) -> None:
        """Simple typographical misspellings are ignored ... Ex: 10 ing instead of 10 inf"""
        count, r = names.unit_count("10 ing")
        assert (count, r.value.unit, r.match) == (10, UnitType.INF, Match.CORRECTED)
        assert r.alias == "INF"

    def test_10_inf_moscoq_instead_of_10_inf_moscow(self, names: Names) -> None:
        """...10 inf Moscoq instead of 10 inf Moscow."""
        r = names.place("Moscoq")
        assert (r.value, r.alias, r.match) == ("Russia", "Moscow", Match.CORRECTED)

    def test_a_misspelt_territory_of_classic_xml(self, names: Names) -> None:
        """Simple typographical misspellings are ignored: "Ukrain" for Ukraine."""
        r = names.place("Ukrain")
        assert (r.value, r.match) == ("Ukraine S.S.R.", Match.CORRECTED)

    def test_e_us_instead_of_w_us_is_an_error_not_a_typo(self, names: Names) -> None:
        """If a typographical error results in the wrong territory being listed, i.e., E.US
        instead of W.US, this will be considered an error, not a typo."""
        written = names.place("E.US")
        assert (written.value, written.match) == ("East US", Match.EXACT)
        assert names.place("W.US").value == "West US"

    def test_a_valid_unit_is_taken_as_written(self, names: Names) -> None:
        """...the wrong [thing] being listed ... will be considered an error, not a typo:
        "AC" is never read as "AA", nor "TRN" as "TNK"."""
        assert names.unit("AC").value.unit is UnitType.AC
        assert names.unit("TRN").value.unit is UnitType.TRN

    def test_the_correct_word_must_be_readily_decipherable(self, names: Names) -> None:
        """In all cases, the correct word must be readily decipherable."""
        with pytest.raises(AmbiguousName) as caught:
            names.place("X.US")
        assert {"East US (EUS)", "West US (WUS)"} <= set(caught.value.candidates)
        with pytest.raises(AmbiguousName):
            names.unit("trk")
        with pytest.raises(UnknownName):
            names.place("Mosquito")

    def test_a_misspelling_is_read_word_by_word(self, names: Names) -> None:
        """In all cases, the correct word must be readily decipherable: a name is corrected
        only when each of its words is a simple misspelling of a word of the name. "West
        Russia" (a territory of later editions) is two letters from "West US Sea" once the
        spaces are dropped, but "Russia" is no misspelling of "US Sea": the place is unknown,
        and the refusal names the near name it was not read as."""
        with pytest.raises(UnknownName) as caught:
            names.place("West Russia")
        refusal = str(caught.value)
        assert "West US Sea Zone" in refusal and "word differs whole" in refusal
        assert caught.value.near == ("West US Sea Zone (West US Sea)",)
        for written, meant in [
            ("Westerneurop", "West Europe"),  # words run together, a letter short
            ("Souht Africa", "South Africa"),  # letters swapped within a word
            ("Ukrain SSR", "Ukraine S.S.R."),  # "SSR" is "S.S.R." written together
            ("North Sea SZ", "North Sea Zone"),  # an ending saying it is a sea zone, twice
            ("Midway Isl", "Midway"),  # the island, not the sea zone beside it
        ]:
            r = names.place(written)
            assert r.value == meant, written
        assert names.place("Westerneurop").corrected

    def test_an_abbreviation_of_two_zones_is_not_corrected_to_a_third(self, names: Names) -> None:
        """In all cases, the correct word must be readily decipherable: "Car SZ" starts the
        names of the Caroline Islands' zone and the Carribean's, so it is neither, and never
        Karelia's "Kar SZ" one letter away (which would void a legal Pearl Harbor attack)."""
        with pytest.raises(AmbiguousName) as caught:
            names.place("Car SZ")
        assert caught.value.labels == ("Caroline Islands Sea Zone", "Carribean Sea Zone")
        with pytest.raises(AmbiguousName) as bare:
            names.place("Car")
        assert bare.value.labels == ("Caroline Islands", "Carribean Sea Zone")

    def test_a_three_letter_abbreviation_with_a_wrong_letter_is_not_a_typo(
        self, names: Names
    ) -> None:
        """...the correct word must be readily decipherable: a short abbreviation with one
        letter wrong is another abbreviation ("Kor SZ" is not "Kar SZ"), while a longer word
        one letter off still is a simple misspelling ("Baltik SZ")."""
        with pytest.raises(UnknownName, match="too short to be read as a misspelling of 'Kar SZ'"):
            names.place("Kor SZ")
        r = names.place("Baltik SZ")
        assert (r.value, r.match) == ("Baltic Sea Zone", Match.CORRECTED)

    def test_a_word_shortening_one_place_only_is_that_place(self, names: Names) -> None:
        """...readily decipherable: "Caro SZ" can only be the Caroline Islands' zone; it is read
        as an abbreviation (IAAPA Abbreviations), not as a misspelling."""
        r = names.place("Caro SZ")
        assert (r.value, r.match) == ("Caroline Islands Sea Zone", Match.ABBREVIATED)


class TestTheRuleBooksOwnAbbreviations:
    """Error Correction II, the example of a clear intent: "There is only 1 German sub on the
    board (in azo sz), and only 1 UK trn on the board (in lab sz). The combat orders list the
    attacking sub in can sz instead of lab sz. In this case the battle will stand as correct."

    Section VI: "In all cases, the correct word must be readily decipherable."

    The rule book's zones, on the Classic map: "lab sz" (Labrador) is the sea off East Canada,
    East Canada Sea Zone; "azo sz" (the Azores) lies in West Spain Sea Zone by the map's
    geometry; "can sz" fits East and West Canada Sea Zone (and the Canaries', West Africa Sea
    Zone), so it names none of them."""

    BOARD: ClassVar[dict[str, dict[Power, Units]]] = {
        "West Spain Sea Zone": {Power.GERMANY: Units.of({UnitType.SUB: 1})},
        "East Canada Sea Zone": {Power.UK: Units.of({UnitType.TRN: 1})},
    }

    @pytest.fixture
    def names(self) -> Names:
        return classic_names()

    def check(self, orders: str) -> dict[str, Any]:
        position = arranged(self.BOARD, to_move=Power.GERMANY)
        return check_report(f"Germany 1 pre-combat\nCombat Moves:\n{orders}", position)

    @staticmethod
    def codes(report: dict[str, Any]) -> list[tuple[str, str]]:
        return [(d["code"], d["severity"]) for d in report["diagnostics"]]

    def test_lab_sz_is_east_canada_sea_zone(self, names: Names) -> None:
        """...only 1 UK trn on the board (in lab sz)."""
        for written in ("lab sz", "Lab SZ", "Labrador Sea", "Labrador SZ"):
            r = names.place(written)
            assert (r.value, r.match) == ("East Canada Sea Zone", Match.EXACT), written

    def test_azo_sz_is_west_spain_sea_zone(self, names: Names) -> None:
        """...only 1 German sub on the board (in azo sz)."""
        for written in ("azo sz", "Azores", "Azores SZ"):
            r = names.place(written)
            assert (r.value, r.match) == ("West Spain Sea Zone", Match.EXACT), written

    def test_can_sz_is_not_readily_decipherable(self, names: Names) -> None:
        """...list the attacking sub in can sz instead of lab sz: "can sz" names no one zone."""
        with pytest.raises(AmbiguousName) as caught:
            names.place("can sz")
        assert {"East Canada Sea Zone", "West Canada Sea Zone"} <= set(caught.value.labels)

    def test_the_attack_written_with_the_rule_books_names_is_correct(self) -> None:
        """The sub in azo sz attacking the trn in lab sz, written so: nothing to correct."""
        report = self.check("Attack #1 - Lab SZ (1 TRN)\nAzo SZ 1 SUB\n")
        assert report["void_battles"] == []
        assert self.codes(report) == []

    def test_the_only_sub_listed_from_can_sz_stands(self) -> None:
        """...the combat orders list the attacking sub in can sz ... the battle will stand as
        correct: "can sz" holds no German sub, and the only one on the board is in azo sz."""
        report = self.check("Attack #1 - Lab SZ (1 TRN)\nCan SZ 1 SUB\n")
        assert report["void_battles"] == []
        assert self.codes(report) == [
            ("ambiguous-origin", "warning"),
            ("intent-clear", "warning"),
        ]
        assert "read as from West Spain Sea Zone" in report["diagnostics"][1]["message"]

    def test_the_battle_declared_in_can_sz_stands(self) -> None:
        """...list the attacking sub in can sz instead of lab sz. In this case the battle will
        stand as correct: the battle is read as the one in lab sz, the only UK trn's zone."""
        report = self.check("Attack #1 - Can SZ (1 TRN)\nAzo SZ 1 SUB\n")
        assert report["void_battles"] == []
        assert [b["territory"] for b in report["battles"]] == ["East Canada Sea Zone"]
        assert all(d["severity"] != "error" for d in report["diagnostics"])
        assert self.codes(report) == [
            ("ambiguous-battle", "warning"),
            ("intent-clear", "warning"),
        ]
        assert "read as East Canada Sea Zone" in report["diagnostics"][1]["message"]

    def test_the_battle_and_the_sub_both_in_can_sz_stand(self) -> None:
        """...the combat orders list the attacking sub in can sz: where the battle is and
        which sub fights it are both clear from the board, so the battle stands."""
        report = self.check("Attack #1 - Can SZ\nCan SZ 1 SUB\n")
        assert report["void_battles"] == []
        assert [b["territory"] for b in report["battles"]] == ["East Canada Sea Zone"]
        assert ("intent-clear", "warning") in self.codes(report)
        assert any(
            "read as from West Spain Sea Zone" in d["message"] for d in report["diagnostics"]
        )


class TestABattlePlaceThatIsNotClear:
    """Section VI: "In all cases, the correct word must be readily decipherable." Error
    Correction II: "if it is clear from the combat orders where the battle is to occur ...
    then no CDE can be called"; otherwise "If any of this information is incorrect, it is
    considered a CDE, and the entire battle is null and void".

    "Can SZ" fits East Canada, West Canada and West Africa (the Canaries) Sea Zone; the German
    sub in West Spain Sea Zone (azo sz) can reach the first and the last."""

    @staticmethod
    def check(board: dict[str, dict[Power, Units]], orders: str) -> dict[str, Any]:
        position = arranged(board, to_move=Power.GERMANY)
        return check_report(f"Germany 1 pre-combat\nCombat Moves:\n{orders}", position)

    @staticmethod
    def errors(report: dict[str, Any]) -> list[dict[str, Any]]:
        return [d for d in report["diagnostics"] if d["severity"] == "error"]

    SUB: ClassVar[dict[str, dict[Power, Units]]] = {
        "West Spain Sea Zone": {Power.GERMANY: Units.of({UnitType.SUB: 1})},
    }

    def test_two_zones_it_could_be_holding_a_target_in_reach_void_the_battle(self) -> None:
        """A UK trn in lab sz and another off the Canaries: the sub could attack either, so
        the place is not readily decipherable and the battle is void."""
        board = {
            **self.SUB,
            "East Canada Sea Zone": {Power.UK: Units.of({UnitType.TRN: 1})},
            "West Africa Sea Zone": {Power.UK: Units.of({UnitType.TRN: 1})},
        }
        report = self.check(board, "Attack #1 - Can SZ (1 TRN)\nAzo SZ 1 SUB\n")
        assert report["void_battles"] == [1]
        (error,) = self.errors(report)
        assert (error["code"], error["line"], error["battles"]) == ("place-not-clear", 3, [1])
        assert "East Canada Sea Zone and West Africa Sea Zone each hold" in error["message"]
        assert "IAAPA Error Correction VI" in error["rule"]
        assert "territory" not in report["battles"][0]

    def test_the_defenders_listed_tell_the_two_apart(self) -> None:
        """The trn in lab sz, a battleship off the Canaries: "Can SZ (1 TRN)" can only mean
        the zone holding exactly the defenders listed (Error Correction II.3: listed defenders
        must be 100% correct), so it is clear where the battle is to occur."""
        board = {
            **self.SUB,
            "East Canada Sea Zone": {Power.UK: Units.of({UnitType.TRN: 1})},
            "West Africa Sea Zone": {Power.UK: Units.of({UnitType.BB: 1})},
        }
        report = self.check(board, "Attack #1 - Can SZ (1 TRN)\nAzo SZ 1 SUB\n")
        assert report["void_battles"] == []
        assert report["battles"][0]["territory"] == "East Canada Sea Zone"

    def test_no_zone_it_could_be_holding_a_target_in_reach_voids_the_battle(self) -> None:
        """The only UK trn is off West Canada, beyond the sub's two moves: none of the zones
        "can sz" fits holds an enemy the attacker can reach."""
        board = {
            **self.SUB,
            "West Canada Sea Zone": {Power.UK: Units.of({UnitType.TRN: 1})},
        }
        report = self.check(board, "Attack #1 - Can SZ (1 TRN)\nAzo SZ 1 SUB\n")
        assert report["void_battles"] == [1]
        (error,) = self.errors(report)
        assert error["code"] == "place-not-clear"
        assert "none of them holds enemy units its attackers can reach" in error["message"]


class TestAPearlHarborAttackFromCarSZ:
    """Section VI: "If a typographical error results in the wrong territory being listed ...
    this will be considered an error, not a typo. In all cases, the correct word must be
    readily decipherable." Error Correction II: "if it is clear from the combat orders where
    the battle is to occur, and what units are involved, and the units are 100% correct, then
    no CDE can be called."

    Japan's opening attack on Hawaii from the Caroline Islands zone (1 FTR, 1 AC, 1 BB there)
    written "Car SZ": the name is not corrected to Karelia's zone (which would void it); of
    the zones it could be, only the Caroline Islands' holds Japanese ships and planes, so
    the battle stands."""

    @pytest.fixture
    def opening(self) -> Position:
        position = initial()
        while position.to_move is not Power.JAPAN:
            position = position.next_turn()
        return position

    def test_the_attack_stands(self, opening: Position) -> None:
        report = check_report(
            "Japan 1 pre-combat\nCombat Moves:\nAttack #1 - Hawaii SZ\nCar SZ 1 AC, 1 FTR, 1 BB\n",
            opening,
        )
        assert report["void_battles"] == []
        assert {d["code"] for d in report["diagnostics"]} == {"ambiguous-origin", "intent-clear"}
        assert not any("Karelia" in d["message"] for d in report["diagnostics"])

    def test_more_than_the_zone_holds_is_still_a_cde(self, opening: Position) -> None:
        report = check_report(
            "Japan 1 pre-combat\nCombat Moves:\nAttack #1 - Hawaii SZ\nCar SZ 1 AC, 2 FTR\n",
            opening,
        )
        assert report["void_battles"] == [1]
        assert "not-at-origin" in {d["code"] for d in report["diagnostics"]}
