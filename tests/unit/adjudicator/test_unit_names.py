"""Unit, technology, notation and power words."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.boards import load_triplea_xml
from adjudicator.names import (
    POWER_ALIASES,
    AmbiguousName,
    Match,
    Names,
    Notation,
    UnknownName,
    classic_names,
    power_names,
)
from adjudicator.names.abbreviations import IAAPA_ABBREVIATIONS, UNIT_WORDS, Term
from adjudicator.powers import TURN_ORDER, Alliance, Power
from adjudicator.units import Technology, UnitType


@pytest.fixture(scope="module")
def names() -> Names:
    return classic_names()


def test_every_unit_type_has_an_iaapa_abbreviation_naming_it_alone() -> None:
    plain = {t.unit for _, t in IAAPA_ABBREVIATIONS if t.unit and t.technology is None}
    assert plain == set(UnitType)


def test_every_technology_can_be_written(names: Names) -> None:
    written = {t.technology for _, t in UNIT_WORDS if t.technology}
    assert written == set(Technology)


def test_no_unit_word_is_ambiguous(names: Names) -> None:
    assert {k: v for k, v in names.units.aliases().items() if len(v) > 1} == {}


def test_the_iaapa_abbreviation_is_the_units_own_name(names: Names) -> None:
    """The abbreviation the rule book gives first equals UnitType's value (INF, ARM, ...)."""
    for unit in UnitType:
        assert names.unit(unit.value).value.unit is unit


@pytest.mark.parametrize(
    ("written", "unit"),
    [
        ("infantry", UnitType.INF),
        ("Inf", UnitType.INF),
        ("tanks", UnitType.ARM),
        ("Armour", UnitType.ARM),
        ("fighters", UnitType.FTR),
        ("bmbs", UnitType.BMB),
        ("TRNs", UnitType.TRN),
        ("trans", UnitType.TRN),
        ("subs", UnitType.SUB),
        ("carriers", UnitType.AC),
        ("BBs", UnitType.BB),
        ("AA gun", UnitType.AA),
        ("factory", UnitType.IC),
        ("ICs", UnitType.IC),
    ],
)
def test_common_spellings_and_plurals(names: Names, written: str, unit: UnitType) -> None:
    r = names.unit(written)
    assert (r.value.unit, r.match) == (unit, Match.EXACT)


@pytest.mark.parametrize(
    ("written", "unit", "tech"),
    [
        ("Heavy Bombers", UnitType.BMB, Technology.HEAVY_BOMBERS),
        ("super subs", UnitType.SUB, Technology.SUPER_SUBS),
        ("jets", UnitType.FTR, Technology.JET_POWER),
        ("Jet Power", None, Technology.JET_POWER),
        ("Rockets", None, Technology.ROCKETS),
        ("Industrial Technology", None, Technology.INDUSTRIAL_TECHNOLOGY),
        ("LRA", None, Technology.LONG_RANGE_AIRCRAFT),
    ],
)
def test_technology_words(
    names: Names, written: str, unit: UnitType | None, tech: Technology
) -> None:
    term = names.unit(written).value
    assert (term.unit, term.technology) == (unit, tech)


@pytest.mark.parametrize(
    ("written", "unit"),
    [
        ("ing", UnitType.INF),
        ("Infantyr", UnitType.INF),
        ("ftt", UnitType.FTR),
        ("batleship", UnitType.BB),
        ("submarien", UnitType.SUB),
        ("transprot", UnitType.TRN),
    ],
)
def test_unit_typos_are_corrected(names: Names, written: str, unit: UnitType) -> None:
    r = names.unit(written)
    assert (r.value.unit, r.match) == (unit, Match.CORRECTED)


def test_a_typo_between_two_units_is_ambiguous(names: Names) -> None:
    with pytest.raises(AmbiguousName) as caught:
        names.unit("trk")
    assert caught.value.candidates == ("Armor (TNK)", "Transport (TRN)")


def test_unit_count(names: Names) -> None:
    count, r = names.unit_count(" 12  TRNs ")
    assert (count, r.value.unit, r.match) == (12, UnitType.TRN, Match.EXACT)
    with pytest.raises(UnknownName, match="'1O' is not a number"):
        names.unit_count("1O inf")
    with pytest.raises(UnknownName, match="write a number then a unit"):
        names.unit_count("inf")
    with pytest.raises(UnknownName, match="not a known unit"):
        names.unit_count("3 dragons")


def test_terms_must_stand_for_something() -> None:
    with pytest.raises(ValueError, match="stands for nothing"):
        Term("Nothing")


def test_notation_words(names: Names) -> None:
    assert names.unit("walk in").value.notation is Notation.WALK_IN
    assert names.unit("MT").value.notation is Notation.EMPTY


def test_powers_match_classic_xml(classic_xml: Path) -> None:
    board = load_triplea_xml(classic_xml)
    assert [p.name for p in board.players] == [p.triplea_name for p in TURN_ORDER]
    for player in board.players:
        power = Power.from_triplea(player.name)
        assert power.alliance is Alliance(player.alliance)
    with pytest.raises(ValueError, match="Chinese"):
        Power.from_triplea("Chinese")


@pytest.mark.parametrize(
    ("written", "power"),
    [
        ("USSR", Power.USSR),
        ("Russia", Power.USSR),
        ("G", Power.GERMANY),
        ("UK", Power.UK),
        ("British", Power.UK),
        ("J", Power.JAPAN),
        ("US", Power.USA),
        ("Americans", Power.USA),
        ("Germans", Power.GERMANY),
        ("Japenese", Power.JAPAN),
    ],
)
def test_power_names(written: str, power: Power) -> None:
    assert power_names().resolve(written).value is power


def test_every_power_has_aliases_and_none_is_shared() -> None:
    assert set(POWER_ALIASES) == set(Power)
    assert {k: v for k, v in power_names().aliases().items() if len(v) > 1} == {}
