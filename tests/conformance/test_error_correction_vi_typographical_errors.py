"""IAAPA Error Correction Procedures, Section VI - Typographical Errors."""

from __future__ import annotations

import pytest

from adjudicator.names import AmbiguousName, Match, Names, UnknownName, classic_names
from adjudicator.units import UnitType


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
