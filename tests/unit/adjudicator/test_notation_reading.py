"""Tokens, unit lists and place/unit items (adjudicator.notation.reading)."""

from __future__ import annotations

import pytest

from adjudicator.diagnostics import Rule, Severity
from adjudicator.names import classic_names
from adjudicator.notation.listing import items
from adjudicator.notation.reading import MONEY, NUM, WORD, Reader, tokenize
from adjudicator.units import Units, UnitType

U = UnitType


@pytest.fixture
def reader() -> Reader:
    return Reader(classic_names())


def read_units(reader: Reader, text: str) -> tuple[Units, str]:
    toks = tokenize(text)
    units, stop, _ = reader.units(1, toks, 0, len(toks))
    return units, " ".join(t.text for t in toks[stop:])


def test_tokens_split_numbers_from_words_and_keep_places_whole() -> None:
    toks = tokenize("E.US 10inf, $32 -> W. Europe")
    assert [(t.kind, t.text) for t in toks] == [
        (WORD, "E.US"),
        (NUM, "10"),
        (WORD, "inf"),
        ("punct", ","),
        (MONEY, "$32"),
        ("arrow", "->"),
        (WORD, "W."),
        (WORD, "Europe"),
    ]
    assert toks[6].low == "w" and toks[4].value == 32


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8 INF, 1 ARM, 2 FTR", {U.INF: 8, U.ARM: 1, U.FTR: 2}),
        ("10 INF, AA", {U.INF: 10, U.AA: 1}),
        ("10 inf + 1 aa gun", {U.INF: 10, U.AA: 1}),
        ("3x INF and 2 x tanks", {U.INF: 3, U.ARM: 2}),
        ("2 aircraft carriers, 1 SS", {U.AC: 2, U.SUB: 1}),
        ("2 INF, 3 INF", {U.INF: 5}),
        ("1 JFTR, 2 HBMB", {U.FTR: 1, U.BMB: 2}),
    ],
)
def test_unit_lists(reader: Reader, text: str, expected: dict[UnitType, int]) -> None:
    units, rest = read_units(reader, text)
    assert (units, rest) == (Units.of(expected), "")
    assert reader.diagnostics == []


def test_a_list_stops_at_what_is_not_a_unit(reader: Reader) -> None:
    assert read_units(reader, "2 FTR Kar") == (Units.of({U.FTR: 2}), "Kar")
    assert read_units(reader, "2 INF 3 IPC") == (Units.of({U.INF: 2}), "3 IPC")
    assert read_units(reader, "2 INF, Ukr 1 ARM") == (Units.of({U.INF: 2}), ", Ukr 1 ARM")
    assert reader.diagnostics == []


def test_a_bare_word_counts_one_unit_only_when_it_is_exact(reader: Reader) -> None:
    """ "Arg" is one edit from ARM, but without a count it is read as a place, not a typo."""
    assert read_units(reader, "AA Arg") == (Units.of({U.AA: 1}), "Arg")
    assert reader.diagnostics == []


def test_a_misspelt_unit_after_a_count_is_corrected_with_a_warning(reader: Reader) -> None:
    units, _ = read_units(reader, "10 ing")
    assert units == Units.of({U.INF: 10})
    (warning,) = reader.diagnostics
    assert (warning.severity, warning.code, warning.rule) == (
        Severity.WARNING,
        "typo",
        Rule.TYPOGRAPHICAL_ERRORS,
    )


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("1O inf", "bad-number"),
        ("2 LR", "unknown-name"),
        ("2 xyzzy", "unknown-name"),
        ("2 WI", "unknown-name"),
    ],
)
def test_a_count_that_names_no_unit_is_an_error(reader: Reader, text: str, code: str) -> None:
    units, _ = read_units(reader, text)
    assert units == Units()
    assert [(d.severity, d.code) for d in reader.diagnostics] == [(Severity.ERROR, code)]


def test_empty_words_mark_an_empty_list(reader: Reader) -> None:
    toks = tokenize("MT")
    assert reader.units(1, toks, 0, 1) == (Units(), 1, True)
    toks = tokenize("empty")
    assert reader.units(1, toks, 0, 1)[2] is True


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ger 10 INF, Ukr 2 ARM", [("Ger", {U.INF: 10}), ("Ukr", {U.ARM: 2})]),
        ("3 INF in Ger", [("Ger", {U.INF: 3})]),
        ("Ger: 6 INF, AA, IC", [("Ger", {U.INF: 6, U.AA: 1, U.IC: 1})]),
        ("Anglo-Egypt - 1 ARM", [("Anglo-Egypt", {U.ARM: 1})]),
        ("Fin/Nor", [("Fin/Nor", {})]),
        ("Japan: 1 BB; Japan SZ: 2 TRN", [("Japan", {U.BB: 1}), ("Japan SZ", {U.TRN: 2})]),
        ("2 FTR from the UK", [("UK", {U.FTR: 2})]),
    ],
)
def test_items_pair_places_with_their_units(
    reader: Reader, text: str, expected: list[tuple[str, dict[UnitType, int]]]
) -> None:
    toks = tokenize(text)
    found, stop = items(reader, 1, text, toks, 0, len(toks), Rule.PRECOMBAT)
    assert [(i.place_text, i.units) for i in found] == [(p, Units.of(u)) for p, u in expected]
    assert stop == len(toks)


def test_items_stop_at_a_number_that_counts_nothing(reader: Reader) -> None:
    text = "E Eur 3"
    toks = tokenize(text)
    found, stop = items(reader, 1, text, toks, 0, len(toks), Rule.PRECOMBAT)
    assert [i.place_text for i in found] == ["E Eur"] and toks[stop].text == "3"


def test_places_resolve_with_warnings_and_errors(reader: Reader) -> None:
    assert reader.place(1, "W Europe", Rule.PRECOMBAT) == "West Europe"
    assert reader.place(2, "Moscoq", Rule.PRECOMBAT) == "Russia"
    assert reader.place(3, "Burma", Rule.PRECOMBAT) is None
    assert reader.place(4, "Med", Rule.PRECOMBAT) is None
    assert [(d.line, d.severity.value, d.code) for d in reader.diagnostics] == [
        (2, "warning", "typo"),
        (3, "error", "unknown-name"),
        (4, "error", "ambiguous-name"),
    ]
    assert reader.errors_on(3) == 1 and reader.errors_on(1) == 0


def test_units_compare_by_content_not_by_writing() -> None:
    a = Units.of([(U.FTR, 2), (U.INF, 8), (U.INF, 0), (U.ARM, 1)])
    assert a == Units.of({U.INF: 8, U.ARM: 1, U.FTR: 2})
    assert a.counts[0] == (U.INF, 8) and a[U.TRN] == 0 and a.total == 11
    assert str(a) == "8 INF, 1 ARM, 2 FTR" and a.to_json() == {"INF": 8, "ARM": 1, "FTR": 2}
    assert a + Units.of({U.INF: 2}) == Units.of({U.INF: 10, U.ARM: 1, U.FTR: 2})
    assert not Units() and str(Units()) == "none"
