"""Reading, valuing and applying league bids (adjudicator.bids).

The rule cases, one per sentence of IAAPA Bidding, are tests/conformance/test_bidding.py;
these are the reader's forms, the JSON shape and apply_bid. Values are worked out here from
the printed price list (INF 3, ARM 5, FTR 12, BMB 15, TRN 8, SUB 8, AC 18, BB 24, AA 5,
IC 15), never copied from the code's output.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.bids import BidCheck, BidCode, BidError, apply_bid, check_bid
from adjudicator.diagnostics import Diagnostic, Rule, Severity
from adjudicator.position import Position, arranged, check, initial
from adjudicator.powers import Power
from adjudicator.units import Units
from adjudicator.units import UnitType as U

G, J, R, UK = Power.GERMANY, Power.JAPAN, Power.USSR, Power.UK
UKRAINE = "Ukraine S.S.R."
PRICES = {U.INF: 3, U.ARM: 5, U.FTR: 12, U.BMB: 15, U.TRN: 8, U.SUB: 8}
PRICES |= {U.AC: 18, U.BB: 24, U.AA: 5, U.IC: 15}
"""The printed price list (facts sheet section 0), written out to check the engine's."""


def codes(check: BidCheck) -> list[str]:
    return [f.code for f in check.findings]


def placed(check: BidCheck) -> dict[str, dict[Power, dict[U, int]]]:
    return {
        place: {power: dict(units) for power, units in per_power.items()}
        for place, per_power in check.placements.items()
    }


# --- reading the forms players write ------------------------------------------------------


def test_the_compact_form() -> None:
    check = check_bid("3 G INF Ukraine, 1 J ARM Manchuria, 1 J IPC", 15)
    assert check.findings == () and check.ok
    assert placed(check) == {UKRAINE: {G: {U.INF: 3}}, "Manchuria": {J: {U.ARM: 1}}}
    assert dict(check.ipcs) == {J: 1}
    assert check.value == 3 * 3 + 5 + 1


def test_a_total_written_before_the_parenthesis() -> None:
    """14 = 2 INF (6) + 1 TRN (8); the Baltic stands in for the rule book's S. Med. SZ."""
    check = check_bid("14 IPCs (2 J INF for Manchuria, 1 G TRN in Baltic SZ)", 14)
    assert check.written_total == 14 and check.value == 14 and check.findings == ()
    assert placed(check) == {"Manchuria": {J: {U.INF: 2}}, "Baltic Sea Zone": {G: {U.TRN: 1}}}


def test_a_written_total_other_than_the_block_is_a_discrepancy() -> None:
    """The block says 12, the text 14 and the items 14: the text's figure is reported."""
    check = check_bid("14 IPCs (2 J INF for Manchuria, 1 G TRN in Baltic SZ)", 12)
    found = [f for f in check.findings if f.code == "discrepancy"]
    assert len(found) == 2 and all(f.severity is Severity.WARNING for f in found)
    assert "14" in found[0].message and "12" in found[0].message
    assert check.total == 12 and check.ok


def test_the_rule_books_wording_reads_as_the_compact_form() -> None:
    wordy = check_bid(
        "three extra German INF in Ukraine, one Japanese ARM in Manchuria and 1 extra IPC to "
        "spend for Japan on its first move",
        15,
    )
    compact = check_bid("3 G INF Ukraine, 1 J ARM Manchuria, 1 J IPC", 15)
    assert wordy.findings == ()
    assert (placed(wordy), dict(wordy.ipcs), wordy.value) == (
        placed(compact),
        dict(compact.ipcs),
        compact.value,
    )


def test_an_item_lends_its_power_and_place_to_the_item_joined_before_it() -> None:
    """ "an extra IC and INF for Japan in Burma": one IC and one INF, both Japan's there."""
    check = check_bid("an extra IC and INF for Japan in Manchuria", 18)
    assert placed(check) == {"Manchuria": {J: {U.IC: 1, U.INF: 1}}}
    assert check.value == 15 + 3 and check.ok


@pytest.mark.parametrize(
    "details",
    [
        "2 INF for Germany in Ukraine",
        "2 G INF in Ukraine",
        "Ger: 2 INF Ukraine",
        "Germany: 2 INF Ukraine",
        "two German INF for Ukraine",
        "2 additional German INF Ukr",
    ],
)
def test_the_power_before_or_after_the_unit_or_as_a_label(details: str) -> None:
    check = check_bid(details, 6)
    assert check.findings == () and placed(check) == {UKRAINE: {G: {U.INF: 2}}}


def test_a_label_names_the_power_until_the_next_label() -> None:
    check = check_bid("Ger: 2 INF Ukraine, 1 ARM Libya\nJap: 1 INF Manchuria\n1 J INF Japan", 17)
    assert check.findings == ()
    assert placed(check) == {
        UKRAINE: {G: {U.INF: 2}},
        "Libya": {G: {U.ARM: 1}},
        "Manchuria": {J: {U.INF: 1}},
        "Japan": {J: {U.INF: 1}},
    }


@pytest.mark.parametrize(
    "details",
    [
        "1 G INF Ukraine, 1 J INF Manchuria",
        "1 G INF Ukraine; 1 J INF Manchuria",
        "1 G INF Ukraine and 1 J INF Manchuria",
        "1 G INF Ukraine + 1 J INF Manchuria",
        "1 G INF Ukraine\n1 J INF Manchuria",
        "(1 G INF Ukraine) (1 J INF Manchuria)",
    ],
)
def test_separators(details: str) -> None:
    check = check_bid(details, 6)
    assert check.findings == ()
    assert placed(check) == {UKRAINE: {G: {U.INF: 1}}, "Manchuria": {J: {U.INF: 1}}}


@pytest.mark.parametrize(
    ("word", "count"),
    [("a", 1), ("an", 1), ("one", 1), ("two", 2), ("five", 5), ("seven", 7), ("twelve", 12)],
)
def test_counts_in_words(word: str, count: int) -> None:
    check = check_bid(f"{word} German INF in Ukraine", 3 * count)
    assert placed(check) == {UKRAINE: {G: {U.INF: count}}} and check.findings == ()


@pytest.mark.parametrize(
    ("written", "power"),
    [
        ("G", G),
        ("Ger", G),
        ("Germany", G),
        ("German", G),
        ("J", J),
        ("Jap", J),
        ("Japan", J),
        ("Japanese", J),
    ],
)
def test_power_names(written: str, power: Power) -> None:
    assert dict(check_bid(f"2 {written} IPCs", 2).ipcs) == {power: 2}


def test_ipc_is_never_read_as_a_misspelt_ic() -> None:
    """One letter from "IC", yet an IPC is worth 1, a complex 15."""
    check = check_bid("1 J IPC", 1)
    assert check.value == 1 and check.placements == {} and dict(check.ipcs) == {J: 1}


def test_a_power_word_after_for_is_the_place_when_the_power_is_named_already() -> None:
    check = check_bid("2 G INF for Germany", 6)
    assert placed(check) == {"Germany": {G: {U.INF: 2}}} and check.ok


@pytest.mark.parametrize("details", ["", "  ", "0", "none", "None", "nothing"])
def test_a_bid_of_nothing(details: str) -> None:
    check = check_bid(details, 0)
    assert (check.value, check.findings, check.placements, check.ipcs) == (0, (), {}, {})
    assert check.ok


def test_nothing_bid_with_a_total_is_a_discrepancy() -> None:
    check = check_bid("", 5)
    assert codes(check) == ["discrepancy"] and check.ok


# --- negative bids -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "details", ["-2 G INF Germany", "remove 2 G INF from Germany", "minus 2 German INF Germany"]
)
def test_removals(details: str) -> None:
    check = check_bid(details, -6)
    assert check.findings == () and check.value == -6
    assert placed(check) == {"Germany": {G: {U.INF: -2}}}


def test_negative_ipcs() -> None:
    check = check_bid("-3 J IPC", -3)
    assert check.findings == () and dict(check.ipcs) == {J: -3} and check.value == -3


def test_a_negative_total_written_in_the_text() -> None:
    """Manchuria holds 3 Japanese INF at the opening, and no ARM."""
    check = check_bid("-3 IPCs (remove 1 J INF from Manchuria)", -3)
    assert check.written_total == -3 and check.findings == ()
    wrong = check_bid("-5 IPCs (remove 1 J ARM from Manchuria)", -5)
    assert codes(wrong) == ["not-there"] and wrong.value == -5
    assert "Manchuria" in wrong.findings[0].message and "1 ARM" in wrong.findings[0].message


def test_more_ipcs_removed_than_the_bank_holds() -> None:
    """Japan opens with 25 IPCs."""
    check = check_bid("-26 J IPC", -26)
    assert codes(check) == ["not-there"] and "25" in check.findings[0].message


# --- what cannot be read --------------------------------------------------------------------


def test_an_unknown_unit_is_named_and_adds_nothing() -> None:
    check = check_bid("3 G DESTROYER Ukraine, 1 J IPC", 10)
    (unknown,) = [f for f in check.findings if f.code == "unknown-unit"]
    assert "DESTROYER" in unknown.message and unknown.severity is Severity.ERROR
    assert check.value == 1 and not check.ok
    assert "discrepancy" in codes(check)


def test_a_technology_is_not_a_unit_a_bid_may_add() -> None:
    check = check_bid("1 J HBMB Japan", 15)
    assert "unknown-unit" in codes(check) and check.value == 0


def test_an_unknown_place_is_named_as_written_and_its_value_counts() -> None:
    check = check_bid("1 J INF in Burma, 1 G INF Ukraine", 6)
    (unknown,) = check.findings
    assert (unknown.code, unknown.severity) == ("unknown-place", Severity.ERROR)
    assert "'Burma'" in unknown.message and "'1 J INF in Burma'" in unknown.message
    assert check.value == 6 and placed(check) == {UKRAINE: {G: {U.INF: 1}}}


def test_a_place_that_could_be_several_is_unknown_and_lists_them() -> None:
    check = check_bid("1 G TRN in S. Med. SZ", 8)
    (unknown,) = check.findings
    assert unknown.code == "unknown-place" and "'S. Med. SZ'" in unknown.message
    assert "Central Mediteranean Sea Zone" in unknown.message and check.value == 8


def test_one_finding_for_a_place_however_many_items_name_it() -> None:
    check = check_bid("1 J INF Burma, 1 J ARM Burma", 8)
    assert codes(check) == ["unknown-place"]


def test_an_unreadable_item_is_quoted() -> None:
    check = check_bid("1 G INF Ukraine, please accept", 3)
    (finding,) = check.findings
    assert finding.code == "unreadable" and "'please accept'" in finding.message


@pytest.mark.parametrize(
    ("details", "code"),
    [
        ("2 INF Karelia", "no-power"),  # in Ukraine, Germany's (test_bidding.py)
        ("2 G INF", "no-place"),
        ("3 Italian INF Libya", "unknown-power"),
    ],
)
def test_items_missing_their_power_or_place(details: str, code: str) -> None:
    check = check_bid(details, 6 if "2" in details else 9)
    assert codes(check) == [code] and not check.ok


def test_a_misspelt_place_or_unit_is_read_with_a_warning() -> None:
    """IAAPA Error Correction VI: "10 inf Moscoq instead of 10 inf Moscow"."""
    check = check_bid("2 G ing Ukrain", 6)
    assert codes(check) == ["typo", "typo"]
    assert all(f.rule is Rule.TYPOGRAPHICAL_ERRORS for f in check.findings)
    assert placed(check) == {UKRAINE: {G: {U.INF: 2}}} and check.ok


@pytest.mark.parametrize(
    ("details", "place"),
    [
        ("1 G INF Ukr", UKRAINE),
        ("1 G INF W Europe", "West Europe"),
        ("1 J INF Manch", "Manchuria"),
        ("1 J INF Indochina", "French Indo China"),
        ("1 J TRN Japan SZ", "Japan Sea Zone"),
    ],
)
def test_league_abbreviations_read_without_a_note(details: str, place: str) -> None:
    check = check_bid(details, 8 if "TRN" in details else 3)
    assert check.findings == () and list(check.placements) == [place]


# --- value and JSON ------------------------------------------------------------------------


def test_units_are_valued_at_the_printed_price_list() -> None:
    for unit, price in PRICES.items():
        assert check_bid(f"1 G {unit.value} Germany", price).value == price, unit


def test_the_json_shape() -> None:
    check = check_bid("1 G ARM Libya, 2 G INF Libya, 1 G TRN Baltic SZ, 2 J IPCs, 1 G IPC", 22)
    got = check.to_json()
    assert list(got) == ["total", "value", "findings", "placements", "ipcs"]
    assert got["placements"] == {
        "Baltic Sea Zone": {"Germany": {"TRN": 1}},
        "Libya": {"Germany": {"INF": 2, "ARM": 1}},
    }
    assert list(got["placements"]["Libya"]["Germany"]) == ["INF", "ARM"], "chart order"
    assert got["ipcs"] == {"Germany": 1, "Japan": 2}
    assert (got["total"], got["value"], got["findings"]) == (22, 5 + 6 + 8 + 2 + 1, [])


def test_findings_in_json_cite_their_rule() -> None:
    got = check_bid("1 G INF Russia", 3).to_json()
    (finding,) = got["findings"]
    assert set(finding) == {"severity", "rule", "code", "message"}
    assert finding["severity"] == "error" and finding["code"] == "land-placement"
    assert finding["rule"] == "IAAPA Bidding: land units"


def test_a_finding_is_a_diagnostic_with_its_own_json() -> None:
    """The engine reports in one vocabulary; the bid JSON's finding is a subset of it."""
    (finding,) = check_bid("1 G INF Russia", 3).findings
    assert isinstance(finding, Diagnostic) and finding.citation == "IAAPA Bidding: land units"
    assert finding.to_json() == check_bid("1 G INF Russia", 3).to_json()["findings"][0]
    assert finding.line == 1 and "'1 G INF Russia'" in finding.message


def test_a_removal_is_a_negative_count_in_json() -> None:
    got = check_bid("remove 1 G ARM from Libya", -5).to_json()
    assert got["placements"] == {"Libya": {"Germany": {"ARM": -1}}} and got["value"] == -5


def test_every_code_is_documented_and_distinct() -> None:
    assert len({c.value for c in BidCode}) == len(BidCode)
    assert {"discrepancy", "negative-mixed", "nationality", "land-placement"} <= set(BidCode)


# --- applying a bid -------------------------------------------------------------------------


def test_apply_places_units_and_adds_ipcs() -> None:
    start = initial()
    check = check_bid("3 G INF Ukraine, 1 J ARM Manchuria, 1 J IPC", 15)
    after = apply_bid(start, check)
    assert after.units_of(UKRAINE, G) == start.units_of(UKRAINE, G) + Units.of({U.INF: 3})
    assert after.units_of("Manchuria", J) == start.units_of("Manchuria", J) + Units.of({U.ARM: 1})
    assert after.bank[J] == start.bank[J] + 1 and after.bank[G] == start.bank[G]
    assert (after.round, after.to_move) == (1, R), "placed before the first USSR turn"
    check_position(after)


def test_apply_a_negative_bid_removes_units_and_ipcs() -> None:
    start = initial()
    after = apply_bid(start, check_bid("-2 G INF Germany", -6))
    assert (
        after.units_of("Germany", G).count(U.INF) == start.units_of("Germany", G).count(U.INF) - 2
    )
    after = apply_bid(start, check_bid("-3 J IPC", -3))
    assert after.bank[J] == start.bank[J] - 3


def test_apply_ships_and_a_complex() -> None:
    start = initial()
    after = apply_bid(start, check_bid("1 J IC Manchuria, 1 J TRN Japan SZ", 23))
    assert after.units_of("Manchuria", J).count(U.IC) == 1
    assert after.units_of("Japan Sea Zone", J).count(U.TRN) == 2
    check_position(after)


def test_a_bid_with_errors_is_refused() -> None:
    check = check_bid("3 G INF Russia", 9)
    assert not check.ok
    with pytest.raises(BidError, match="land-placement"):
        apply_bid(initial(), check)
    assert issubclass(BidError, ValueError)


def test_a_bid_that_does_not_fit_the_position_is_refused() -> None:
    """Checked against the opening, applied to a position where Germany has no INF left."""
    check = check_bid("-2 G INF Germany", -6)
    bare = arranged({"Germany": {G: {U.ARM: 1}}})
    with pytest.raises(BidError, match="Germany"):
        apply_bid(bare, check)


def test_a_bid_checked_against_a_position_of_its_own() -> None:
    """Libya taken by the UK: a German unit may no longer be bid there."""
    moved = arranged({"Libya": {UK: {U.INF: 1}}}, owners={"Libya": UK})
    assert codes(check_bid("1 G INF Libya", 3, moved)) == ["land-placement"]
    assert codes(check_bid("1 G INF Libya", 3)) == []


def check_position(position: Position) -> None:
    check(position)


# --- properties ----------------------------------------------------------------------------

_LAND = st.sampled_from(
    [(G, "Germany"), (G, UKRAINE), (G, "Libya"), (J, "Japan"), (J, "Manchuria"), (J, "Kwangtung")]
)
_LAND_UNITS = st.sampled_from([U.INF, U.ARM, U.FTR, U.BMB, U.AA])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 20), _LAND_UNITS, _LAND), min_size=1, max_size=6))
def test_what_is_written_is_what_is_placed(items: list[tuple[int, U, tuple[Power, str]]]) -> None:
    """Any list of additions in territories their power holds reads back, is valued at the
    price list, and lands in the position unit for unit."""
    text = ", ".join(
        f"{n} {power.name[0]} {unit.value} {place}" for n, unit, (power, place) in items
    )
    worth = sum(n * PRICES[unit] for n, unit, _ in items)
    check = check_bid(text, worth)
    assert check.findings == () and check.value == worth
    want: dict[tuple[str, Power, U], int] = {}
    for n, unit, (power, place) in items:
        want[(place, power, unit)] = want.get((place, power, unit), 0) + n
    got = {
        (place, power, unit): n
        for place, per_power in check.placements.items()
        for power, units in per_power.items()
        for unit, n in units.items()
    }
    assert got == want
    start = initial()
    after = apply_bid(start, check)
    for (place, power, unit), n in want.items():
        assert (
            after.units_of(place, power).count(unit) == start.units_of(place, power).count(unit) + n
        )


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80), st.integers(-50, 50))
def test_any_text_is_checked_without_raising(details: str, total: int) -> None:
    check = check_bid(details, total)
    assert check.total == total
    assert (check.value != total) <= ("discrepancy" in codes(check))
    assert all(f.message for f in check.findings)


def test_a_finding_names_the_line_of_the_details() -> None:
    """A finding about an item is on its line (a total on a line of its own counts as one);
    a finding about the bid as a whole is on line 0."""
    check = check_bid("14 IPCs\n2 J INF Manchuria\n1 G TRN in S. Med. SZ", 12)
    by_code = {f.code: f.line for f in check.findings}
    assert by_code == {"unknown-place": 3, "discrepancy": 0}


def test_totals_and_powers_written_without_the_words_the_reader_wanted() -> None:
    """Tried as new players: "Bid 12:" and "11:" were not read as the bid's total ("11"
    became a count of ':'), "Japan 1 ipc" (the power first) and "Germany +2 inf Ukraine"
    (a power with no colon) were refused."""
    check = check_bid("Bid 12: Germany +2 inf Ukraine, +1 arm E Europe; Japan 1 ipc", 12)
    worth = 2 * PRICES[U.INF] + PRICES[U.ARM] + 1
    assert (check.written_total, check.value, check.findings) == (12, worth, ())
    assert dict(check.placements) == {
        UKRAINE: {G: {U.INF: 2}},
        "East Europe": {G: {U.ARM: 1}},
    }
    assert dict(check.ipcs) == {J: 1}
    check = check_bid("11: 1 G ARM Libya, 2 J INF Manchuria", 11)
    assert (check.written_total, check.value, check.findings) == (11, 11, ())
