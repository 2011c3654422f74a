"""The generic resolver: normalising, edit distance, tolerance, exact-before-fuzzy, caching."""

from __future__ import annotations

import pytest

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


def test_fuzzy_results_are_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    t = table()
    calls: list[str] = []
    original = t._nearest

    def counting(key: str):  # type: ignore[no-untyped-def]
        calls.append(key)
        return original(key)

    monkeypatch.setattr(t, "_nearest", counting)
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
