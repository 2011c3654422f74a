"""IAAPA Rules Clarifications, ABBREVIATIONS: every abbreviation the section lists."""

from __future__ import annotations

import re

import pytest

from adjudicator.names import AmbiguousName, Match, Names, Notation, classic_names
from adjudicator.names.abbreviations import IAAPA_ABBREVIATIONS
from adjudicator.units import Technology, UnitType, unit_profile


class TestAbbreviations:
    """ABBREVIATIONS

    - A player may use any abbreviation as long as its meaning is clear.
    - There is a map available on the website that lists IAAPA recommended territory and sea
      zone abbreviations.
    - Some commonly used abbreviations are listed below.
    """

    @pytest.fixture
    def names(self) -> Names:
        return classic_names()

    def unit(self, names: Names, written: str) -> UnitType | None:
        r = names.unit(written)
        assert r.match is Match.EXACT, f"{written} should be an exact abbreviation"
        return r.value.unit

    def test_the_list_is_the_rule_books(self, rules_text: str) -> None:
        """Some commonly used abbreviations are listed below."""
        text = rules_text[rules_text.index("ABBREVIATIONS") :]
        listed = re.findall(r"^- ([A-Z]+(?: or [A-Z]+)?) \(", text, re.M)
        written = [w for entry in listed for w in entry.split(" or ")]
        assert [w for w, _ in IAAPA_ABBREVIATIONS] == written

    def test_wi_walk_in(self, names: Names) -> None:
        """WI (Walk In) - The attacker simply "walks in" to an empty enemy or neutral
        territory. No combat rolls are required, but it happens during the combat phase of the
        turn."""
        term = names.unit("WI").value
        assert term.notation is Notation.WALK_IN and term.unit is None

    def test_aa_anti_aircraft_gun(self, names: Names) -> None:
        """AA (Anti-Aircraft Gun)"""
        assert self.unit(names, "AA") is UnitType.AA
        assert not UnitType.AA.stats.rolls_in_battle

    def test_arm_or_tnk_armor(self, names: Names) -> None:
        """ARM or TNK (Armor)"""
        assert self.unit(names, "ARM") is UnitType.ARM
        assert self.unit(names, "TNK") is UnitType.ARM

    def test_bb_battleship(self, names: Names) -> None:
        """BB (Battleship)"""
        assert self.unit(names, "BB") is UnitType.BB

    def test_bmb_bomber(self, names: Names) -> None:
        """BMB (Bomber)"""
        assert self.unit(names, "BMB") is UnitType.BMB

    def test_cv_or_ac_aircraft_carrier(self, names: Names) -> None:
        """CV or AC (Aircraft Carrier)"""
        assert self.unit(names, "CV") is UnitType.AC
        assert self.unit(names, "AC") is UnitType.AC

    def test_hbmb_heavy_bomber(self, names: Names) -> None:
        """HBMB (Heavy Bomber)"""
        term = names.unit("HBMB").value
        assert (term.unit, term.technology) == (UnitType.BMB, Technology.HEAVY_BOMBERS)
        assert unit_profile(UnitType.BMB, [Technology.HEAVY_BOMBERS]).attack_dice == 3

    def test_ic_industrial_complex(self, names: Names) -> None:
        """IC (Industrial Complex)"""
        assert self.unit(names, "IC") is UnitType.IC

    def test_inf_infantry(self, names: Names) -> None:
        """INF (Infantry)"""
        assert self.unit(names, "INF") is UnitType.INF

    def test_jftr_jet_fighter(self, names: Names) -> None:
        """JFTR (Jet Fighter)"""
        term = names.unit("JFTR").value
        assert (term.unit, term.technology) == (UnitType.FTR, Technology.JET_POWER)
        assert unit_profile(UnitType.FTR, [Technology.JET_POWER]).defence == 5

    def test_lr_long_range(self, names: Names) -> None:
        """LR (Long Range)"""
        term = names.unit("LR").value
        assert (term.unit, term.technology) == (None, Technology.LONG_RANGE_AIRCRAFT)
        assert unit_profile(UnitType.FTR, [Technology.LONG_RANGE_AIRCRAFT]).movement == 6

    def test_mt_empty(self, names: Names) -> None:
        """MT (Empty)"""
        term = names.unit("MT").value
        assert term.notation is Notation.EMPTY and term.unit is None

    def test_ftr_fighter(self, names: Names) -> None:
        """FTR (Fighter)"""
        assert self.unit(names, "FTR") is UnitType.FTR

    def test_trn_transport(self, names: Names) -> None:
        """TRN (Transport)"""
        assert self.unit(names, "TRN") is UnitType.TRN

    def test_ss_or_sub_submarine(self, names: Names) -> None:
        """SS or SUB (Submarine)"""
        assert self.unit(names, "SS") is UnitType.SUB
        assert self.unit(names, "SUB") is UnitType.SUB

    def test_abbreviations_are_case_and_plural_blind(self, names: Names) -> None:
        """A player may use any abbreviation as long as its meaning is clear."""
        assert self.unit(names, "inf") is UnitType.INF
        assert self.unit(names, "Ftrs") is UnitType.FTR
        assert self.unit(names, "cv's") is UnitType.AC

    def test_any_abbreviation_whose_meaning_is_clear(self, names: Names) -> None:
        """A player may use any abbreviation as long as its meaning is clear."""
        assert self.unit(names, "Tank") is UnitType.ARM
        assert names.place("W Europe").value == "West Europe"
        assert names.place("Cauc").value == "Caucasus"

    def test_an_abbreviation_whose_meaning_is_not_clear(self, names: Names) -> None:
        """...as long as its meaning is clear: "Med" could be any of three sea zones."""
        with pytest.raises(AmbiguousName) as caught:
            names.place("Med")
        assert caught.value.labels == (
            "Central Mediteranean Sea Zone",
            "East Mediteranean Sea Zone",
            "West Mediteranean Sea Zone",
        )
