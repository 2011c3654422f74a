"""The generic resolver: normalising, edit distance, tolerance, exact-before-fuzzy, caching."""

from __future__ import annotations

import pytest

from adjudicator.names.abbreviating import AbbreviationIndex, Shortenings, words
from adjudicator.names.resolver import (
    AmbiguousName,
    Match,
    NameResolutionError,
    NameTable,
    UnknownName,
    edit_distance,
    normalise,
    typo_tolerance,
)


def table(**kwargs: object) -> NameTable[str]:
    entries = [
        ("Alpha", "A"),
        ("Alpine", "AP"),
        ("Beta", "B"),
        ("Bet", "B"),
        ("Gamma Ray", "G"),
        ("Delta", "D"),
        ("Delta", "DD"),
        ("SZ 12", "Z12"),
        ("Zeta", "Z"),
        ("Eta", "E"),
    ]
    return NameTable("thing", entries, lambda v: f"<{v}>", **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("written", "folded"),
    [
        ("E.US", "eus"),
        ("e us", "eus"),
        ("Karelia S.S.R.", "kareliassr"),
        ("Anglo-Egypt/Sudan", "angloegyptsudan"),
        ("Açores", "acores"),
        ("  UK  SZ ", "uksz"),
        ("SZ 12", "sz12"),
        ("!!!", ""),
    ],
)
def test_normalise(written: str, folded: str) -> None:
    assert normalise(written) == folded


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [
        ("inf", "inf", 0),
        ("ing", "inf", 1),
        ("moscoq", "moscow", 1),
        ("ukrain", "ukraine", 1),
        ("karelai", "karelia", 1),
        ("abcd", "badc", 2),
        ("", "abc", 3),
        ("kitten", "sitting", 3),
    ],
)
def test_edit_distance(a: str, b: str, distance: int) -> None:
    assert edit_distance(a, b, 5) == distance
    assert edit_distance(b, a, 5) == distance


def test_edit_distance_stops_past_the_limit() -> None:
    assert edit_distance("abcdefgh", "zyxwvuts", 2) == 3
    assert edit_distance("a", "abcdef", 1) == 2


@pytest.mark.parametrize(
    ("length", "tolerance"), [(1, 0), (2, 0), (3, 1), (6, 1), (7, 2), (11, 2), (12, 3), (30, 3)]
)
def test_tolerance_scales_with_length(length: int, tolerance: int) -> None:
    assert typo_tolerance(length) == tolerance


def test_exact_match_ignores_case_and_punctuation() -> None:
    r = table().resolve("gamma-RAY")
    assert (r.value, r.match, r.corrected, r.distance) == ("G", Match.EXACT, False, 0)
    assert r.label == "<G>"
    assert r.warning() is None


def test_a_misspelling_resolves_to_the_one_near_name() -> None:
    r = table().resolve("Gamma Rey")
    assert (r.value, r.match, r.alias, r.distance) == ("G", Match.CORRECTED, "Gamma Ray", 1)
    assert r.corrected
    warning = r.warning()
    assert warning is not None and "Gamma Rey" in warning and "Error Correction VI" in warning


def test_an_exact_name_is_taken_as_written_even_if_near_another() -> None:
    assert table().resolve("Bet").value == "B"
    assert table().resolve("Eta").value == "E"  # not Beta, not Zeta


def test_equally_near_names_are_ambiguous() -> None:
    with pytest.raises(AmbiguousName) as caught:
        table().resolve("Xeta")  # Beta, Zeta and Eta are each one edit away
    assert caught.value.candidates == ("<B> (Beta)", "<E> (Eta)", "<Z> (Zeta)")
    assert "readily decipherable" in str(caught.value)


def test_an_alias_shared_by_two_values_is_ambiguous_even_exactly() -> None:
    with pytest.raises(AmbiguousName) as caught:
        table().resolve("delta")
    assert caught.value.candidates == ("<D> (Delta)", "<DD> (Delta)")


def test_the_nearest_name_wins_over_a_farther_one() -> None:
    assert table().resolve("Alpime").value == "AP"  # Alpine 1, Alpha 3


def test_too_far_is_unknown() -> None:
    with pytest.raises(UnknownName, match="'Omega' is not a known thing"):
        table().resolve("Omega")


def test_short_words_are_never_corrected() -> None:
    t = NameTable("unit", [("AA", 1), ("BB", 2)], str)
    assert t.resolve("aa").value == 1
    with pytest.raises(UnknownName):
        t.resolve("AB")


def test_a_word_with_a_digit_is_never_corrected() -> None:
    with pytest.raises(UnknownName, match="a number is never a typographical error"):
        table().resolve("SZ 13")
    assert table().resolve("sz12").value == "Z12"


def test_a_word_is_never_corrected_to_a_numbered_name() -> None:
    with pytest.raises(UnknownName):
        table().resolve("SZ")


def test_blank_is_unknown() -> None:
    with pytest.raises(UnknownName, match="blank"):
        table().resolve(" . ")


def test_refusals_explain_themselves() -> None:
    t = table(refusals={"Omega Point": "that is not a place"})
    with pytest.raises(UnknownName, match="that is not a place") as caught:
        t.resolve("omega-point")
    assert caught.value.reason == "that is not a place"


def test_plurals_when_asked() -> None:
    plural = table(plurals=True)
    assert plural.resolve("Zetas").value == "Z"
    assert plural.resolve("Zetas").match is Match.EXACT
    assert table().resolve("Zetas").match is Match.CORRECTED
    assert plural.resolve("Gamma Rays").match is Match.EXACT
    assert plural.resolve("Gamma Reys").match is Match.CORRECTED


def test_errors_are_value_errors_carrying_the_word_and_kind() -> None:
    with pytest.raises(NameResolutionError) as caught:
        table().resolve("Omega")
    assert isinstance(caught.value, ValueError)
    assert (caught.value.written, caught.value.kind) == ("Omega", "thing")


def _count_searches(monkeypatch: pytest.MonkeyPatch, t: NameTable[str]) -> list[str]:
    """The written keys ``t`` searches for near names, recorded as it resolves."""
    calls: list[str] = []
    original = t._nearest

    def counting(key: str, written: tuple[str, ...]):  # type: ignore[no-untyped-def]
        calls.append(key)
        return original(key, written)

    monkeypatch.setattr(t, "_nearest", counting)
    return calls


def test_fuzzy_results_are_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    t = table()
    calls = _count_searches(monkeypatch, t)
    first = t.resolve("Gamma Rey")
    second = t.resolve("GAMMA-REY")
    assert calls == ["gammarey"]
    assert (first.value, second.value) == ("G", "G")
    assert second.written == "GAMMA-REY"
    t.resolve("Gamma Ray")
    assert calls == ["gammarey"]
    for _ in range(2):
        with pytest.raises(UnknownName):
            t.resolve("Omega")
    assert calls == ["gammarey", "omega"]


def test_an_alias_without_letters_is_refused() -> None:
    with pytest.raises(ValueError, match="no letters"):
        NameTable("thing", [("--", 1)], str)


def test_membership_and_values() -> None:
    t = table()
    assert "E.T.A" in t and "Omega" not in t and 3 not in t
    assert t.values == {"A", "AP", "B", "G", "D", "DD", "Z12", "Z", "E"}
    assert t.aliases()["delta"] == ("D", "DD")


# --- abbreviations (tables given Shortenings: places) ------------------------------------

SEA = Shortenings(suffixes=("Sea Zone", "SZ"), optional_starts=frozenset({"e", "east", "w"}))


def seas() -> NameTable[str]:
    entries = [
        ("Carolines SZ", "CI"),
        ("Caroline SZ", "CI"),
        ("Carib SZ", "CB"),
        ("Kar SZ", "K"),
        ("Karelia", "KL"),
        ("E Can SZ", "EC"),
        ("East Canada Sea Zone", "EC"),
        ("W Can SZ", "WC"),
        ("East Sea Zone", "ES"),
        ("Ukraine", "U"),
        ("Baltic", "B"),
        ("Moscow", "M"),
    ]
    return NameTable("zone", entries, lambda v: f"<{v}>", shortenings=SEA)


@pytest.mark.parametrize(
    ("written", "folded"),
    [("E.US SZ", ("e", "us", "sz")), ("Açores  sz", ("acores", "sz")), ("--", ())],
)
def test_words(written: str, folded: tuple[str, ...]) -> None:
    assert words(written) == folded


def test_a_suffix_is_split_off_the_stem_even_glued() -> None:
    assert SEA.split(("car", "sz")) == (("car",), ("sz",))
    assert SEA.split(("carsz",)) == (("car",), ("sz",))
    assert SEA.split(("car", "sea", "zone")) == (("car",), ("sea", "zone"))
    assert SEA.split(("sz",)) == (("sz",), ())


def test_an_abbreviation_of_two_values_is_ambiguous_not_corrected_to_a_third() -> None:
    with pytest.raises(AmbiguousName) as caught:
        seas().resolve("Car SZ")  # "Kar SZ" is one letter away, but "Car" starts two names
    assert caught.value.labels == ("<CB>", "<CI>")
    assert caught.value.candidates == ("<CB> (Carib SZ)", "<CI> (Caroline SZ)")


def test_an_abbreviation_of_one_value_is_read_as_it_with_a_notice() -> None:
    r = seas().resolve("Caro SZ")
    assert (r.value, r.alias, r.match) == ("CI", "Caroline SZ", Match.ABBREVIATED)
    assert (r.abbreviated, r.corrected, r.exact) == (True, False, False)
    notice = r.warning()
    assert notice is not None and "IAAPA Abbreviations" in notice


def test_leading_optional_words_may_be_left_out() -> None:
    with pytest.raises(AmbiguousName) as caught:
        seas().resolve("Can SZ")
    assert caught.value.labels == ("<EC>", "<WC>")
    assert seas().resolve("E Ca SZ").value == "EC"


def test_the_shortest_fitting_alias_is_shown() -> None:
    assert seas().resolve("Carol SZ").alias == "Caroline SZ"  # not "Carolines SZ"


def test_optional_words_alone_abbreviate_nothing() -> None:
    """ "East Sea Zone" is not filed as "Sea Zone", and "E" alone is no abbreviation."""
    with pytest.raises(UnknownName):
        seas().resolve("Sea Zon")
    with pytest.raises(UnknownName):
        seas().resolve("E SZ")


def test_a_one_letter_word_abbreviates_only_itself() -> None:
    with pytest.raises(UnknownName):
        seas().resolve("Car S")  # "S" is not "SZ": no abbreviation of "Caroline SZ"


def test_a_short_stem_is_never_corrected() -> None:
    with pytest.raises(UnknownName, match="too short to be read as a misspelling of 'Kar SZ'"):
        seas().resolve("Kor SZ")


def test_a_long_stem_is_still_corrected() -> None:
    r = seas().resolve("Moscoq")
    assert (r.value, r.match) == ("M", Match.CORRECTED)
    r = seas().resolve("Baltik")
    assert (r.value, r.match) == ("B", Match.CORRECTED)


def test_an_abbreviation_a_letter_from_its_one_name_is_a_typo() -> None:
    """ "Ukrain" both shortens and misspells "Ukraine": it keeps the typo notice."""
    r = seas().resolve("Ukrain")
    assert (r.value, r.match) == ("U", Match.CORRECTED)


def test_an_exact_name_is_still_taken_as_written() -> None:
    assert seas().resolve("Kar SZ").match is Match.EXACT
    assert seas().resolve("kar-sz").value == "K"


def test_tables_without_shortenings_read_no_abbreviations() -> None:
    t = NameTable("unit", [("INF", 1), ("Infantry", 1), ("Fighter", 2)], str)
    assert t.resolve("ing").match is Match.CORRECTED  # the rule book's "10 ing"
    with pytest.raises(UnknownName):
        t.resolve("Fig")


def test_readings_are_cached_per_written_words(monkeypatch: pytest.MonkeyPatch) -> None:
    t = seas()
    calls = _count_searches(monkeypatch, t)
    for written in ("Caro SZ", "caro sz", "CARO-SZ"):
        assert t.resolve(written).value == "CI"
    assert calls == ["carosz"]


def test_the_index_files_each_alias_once_per_form() -> None:
    index = AbbreviationIndex([("E Can SZ", "EC"), ("East Can SZ", "EC")], SEA)
    assert index.fits(("can", "sz")) == {"EC": "E Can SZ"}
    assert index.fits(("ca",)) == {}  # two letters: too short to be an abbreviation
    assert not index.correctable(("car", "sz")) and index.correctable(("caro", "sz"))
