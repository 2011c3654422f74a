"""Bids: the details read, valued and checked against the opening position before USSR 1.

IAAPA How to Start a Game and IAAPA Bidding, one class per rule, each class's docstring
opening with the rule quoted; the quotes are checked against the rule text below, and so are
the rule registry's quotations of the bidding rules (adjudicator/diagnostics.py). The rule
book's own examples were written for a map with Burma and a "S. Med. SZ"; the Classic board
has neither, so each is named as an unknown place while its value still counts.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import adjudicator.diagnostics as diagnostics
from adjudicator.bids import BidCheck, BidError, apply_bid, check_bid
from adjudicator.diagnostics import Rule, Severity
from adjudicator.position import arranged, initial
from adjudicator.powers import Power
from adjudicator.units import Units
from adjudicator.units import UnitType as U
from tests.conformance.cases import class_openings

UK, G, R, J, US = Power.UK, Power.GERMANY, Power.USSR, Power.JAPAN, Power.USA
UKRAINE = "Ukraine S.S.R."


def found(check: BidCheck) -> list[tuple[Severity, str, Rule]]:
    return [(f.severity, f.code, f.rule) for f in check.findings]


def errors(check: BidCheck) -> list[str]:
    return [f.code for f in check.findings if f.severity is Severity.ERROR]


class TestHowToStartAGame:
    """If there is a discrepancy between these the bid that you entered in the "Your Bid (IPC
    Total Value)" block will take precedence. You will then simply adjust the bid details to
    match the bid.

    (IAAPA How to Start a Game.) A discrepancy is a warning naming both figures; the total
    stands and is what bids are compared by.
    """

    def test_details_worth_more_than_the_total(self) -> None:
        """3 INF (9) + 1 ARM (5) is 14, entered as 12."""
        check = check_bid("3 G INF Ukraine, 1 J ARM Manchuria", 12)
        assert found(check) == [(Severity.WARNING, "discrepancy", Rule.HOW_TO_START)]
        message = check.findings[0].message
        assert "14" in message and "12" in message and "precedence" in message
        assert "Adjust the details" in message
        assert (check.total, check.value, check.ok) == (12, 14, True)

    def test_a_total_written_in_the_details_is_weighed_too(self) -> None:
        """The details say 15 and are worth 15, the block says 14: the block stands."""
        check = check_bid("15 IPCs (3 G INF Ukraine, 1 J ARM Manchuria, 1 J IPC)", 14)
        assert [f.code for f in check.findings] == ["discrepancy", "discrepancy"]
        assert check.total == 14 and check.written_total == 15

    def test_details_matching_the_total(self) -> None:
        assert check_bid("3 G INF Ukraine, 1 J ARM Manchuria", 14).findings == ()


class TestWhatABidMayHold:
    """Bids are compared by IPC value and may consist of extra units (land, sea or air) and/or
    additional IPCs for the Axis powers. (IC's and AA guns will be considered land units for
    bidding purposes).

    (IAAPA Bidding.) Units and IPCs for the USSR, the UK or the USA are an error; so is a unit
    Classic does not have, which adds nothing to the value.
    """

    def test_land_sea_and_air_units_and_ipcs(self) -> None:
        """INF 3 + AA 5 + FTR 12 + SUB 8 + 2 IPCs = 30."""
        check = check_bid(
            "1 G INF Germany, 1 G AA Germany, 1 G FTR Germany, 1 G SUB Baltic SZ, 2 G IPC", 30
        )
        assert check.findings == () and check.value == 30

    @pytest.mark.parametrize("details", ["1 R INF Russia", "1 UK INF India", "2 US IPC"])
    def test_nothing_for_the_allies(self, details: str) -> None:
        check = check_bid(details, 3 if "INF" in details else 2)
        assert found(check) == [(Severity.ERROR, "allied-power", Rule.BIDDING)]

    def test_an_unknown_unit(self) -> None:
        check = check_bid("3 G DESTROYER Ukraine", 9)
        assert errors(check) == ["unknown-unit"] and "DESTROYER" in check.findings[0].message
        assert check.value == 0


class TestTheRuleBooksExample:
    """Player one bids 15 IPCs (three extra German INF in Ukraine, one Japanese ARM in Burma
    and 1 extra IPC to spend for Japan on its first move). Player two bids 18 IPCs (an extra IC
    and INF for Japan in Burma). The IAAPA web server will inform the players that Player one
    will play the Axis with three additional German INF in Ukraine, an additional Japanese ARM
    in Burma and that Japan will start with 26 IPCs to spend.

    (IAAPA Bidding, Example.) Classic has no Burma: each bid names it as an unknown place,
    while its value resolves as the text says, 3 x 3 + 5 + 1 = 15 and 15 + 3 = 18. Ukraine
    S.S.R. is German at the Classic opening, so the three German INF stand.
    """

    ONE = (
        "three extra German INF in Ukraine, one Japanese ARM in Burma and 1 extra IPC to "
        "spend for Japan on its first move"
    )
    TWO = "an extra IC and INF for Japan in Burma"

    def test_the_values_are_fifteen_and_eighteen(self) -> None:
        one, two = check_bid(self.ONE, 15), check_bid(self.TWO, 18)
        assert (one.value, two.value) == (15, 18)
        assert one.total < two.total, "player one, the lower bid, plays the Axis"

    def test_burma_is_named_as_an_unknown_place(self) -> None:
        for details, total in ((self.ONE, 15), (self.TWO, 18)):
            check = check_bid(details, total)
            assert errors(check) == ["unknown-place"], details
            assert "'Burma'" in check.findings[0].message

    def test_the_german_infantry_stand_in_ukraine(self) -> None:
        assert initial().owner(UKRAINE) is G
        check = check_bid(self.ONE, 15)
        assert dict(check.placements) == {UKRAINE: {G: {U.INF: 3}}}
        assert dict(check.ipcs) == {J: 1}

    def test_player_two_bids_a_complex_and_an_infantry(self) -> None:
        """Read on a territory Classic has, the IC and the INF are both Japan's there."""
        check = check_bid("an extra IC and INF for Japan in Kwangtung", 18)
        assert check.ok and dict(check.placements) == {"Kwangtung": {J: {U.IC: 1, U.INF: 1}}}

    def test_japan_starts_with_26_ipcs(self) -> None:
        """A bid with errors is never placed, so Burma is read as French Indo China, the
        Classic territory in its place; Japan's 25 IPCs at the opening become 26."""
        start = initial()
        assert start.bank[J] == 25
        check = check_bid(self.ONE.replace("Burma", "French Indo China"), 15)
        assert check.ok
        after = apply_bid(start, check)
        assert after.bank[J] == 26
        assert after.units_of(UKRAINE, G) == start.units_of(UKRAINE, G) + Units.of({U.INF: 3})
        assert after.units_of("French Indo China", J).count(U.ARM) == 1

    def test_a_bid_naming_burma_is_not_placed(self) -> None:
        with pytest.raises(BidError, match="unknown-place"):
            apply_bid(initial(), check_bid(self.ONE, 15))


class TestBidExamples:
    """Bid examples:
    - 14 IPCs (2 J INF for Manchuria, 1 G TRN in S. Med. SZ)
    - 10 IPCs (1 G ARM in Libya, 1 J INF in Burma, 2 extra IPCs for Japan)

    (IAAPA Bidding.) 2 x 3 + 8 = 14; 5 + 3 + 2 = 10. Classic has three Mediterranean sea zones
    (West, Central, East) and no "South" one, and no Burma.
    """

    def test_fourteen(self) -> None:
        check = check_bid("14 IPCs (2 J INF for Manchuria, 1 G TRN in S. Med. SZ)", 14)
        assert (check.written_total, check.value) == (14, 14)
        assert errors(check) == ["unknown-place"]
        assert "'S. Med. SZ'" in check.findings[0].message
        assert dict(check.placements) == {"Manchuria": {J: {U.INF: 2}}}

    def test_ten(self) -> None:
        check = check_bid(
            "10 IPCs (1 G ARM in Libya, 1 J INF in Burma, 2 extra IPCs for Japan)", 10
        )
        assert (check.written_total, check.value) == (10, 10)
        assert errors(check) == ["unknown-place"] and "'Burma'" in check.findings[0].message
        assert dict(check.placements) == {"Libya": {G: {U.ARM: 1}}} and dict(check.ipcs) == {J: 2}

    def test_no_discrepancy_when_the_values_resolve(self) -> None:
        for details, total in (
            ("14 IPCs (2 J INF for Manchuria, 1 G TRN in S. Med. SZ)", 14),
            ("10 IPCs (1 G ARM in Libya, 1 J INF in Burma, 2 extra IPCs for Japan)", 10),
        ):
            assert "discrepancy" not in [f.code for f in check_bid(details, total).findings]


class TestLandUnits:
    """Land units may be placed in any territory controlled by the appropriate Axis power.

    (IAAPA Bidding.) IC's and AA guns are land units for bidding purposes; a sea zone or a
    territory another power controls is an error.
    """

    @pytest.mark.parametrize("unit", ["INF", "ARM", "AA", "IC"])
    def test_in_a_territory_the_power_controls(self, unit: str) -> None:
        """Libya is German at the opening and has no complex."""
        check = check_bid(f"1 G {unit} Libya", U(unit).stats.cost)
        assert errors(check) == []

    @pytest.mark.parametrize("unit", ["INF", "ARM", "AA", "IC"])
    def test_in_an_allied_territory(self, unit: str) -> None:
        check = check_bid(f"1 G {unit} Karelia", U(unit).stats.cost)
        assert found(check) == [(Severity.ERROR, "land-placement", Rule.BID_LAND_UNITS)]
        assert "USSR" in check.findings[0].message

    def test_in_a_neutral_territory(self) -> None:
        assert errors(check_bid("1 G INF Spain", 3)) == ["land-placement"]

    def test_at_sea(self) -> None:
        assert errors(check_bid("1 G INF Baltic SZ", 3)) == ["land-placement"]

    def test_control_is_read_from_the_position(self) -> None:
        """A territory the power has lost is no longer its own."""
        lost = arranged({"Libya": {UK: {U.INF: 1}}}, owners={"Libya": UK})
        assert errors(check_bid("1 G INF Libya", 3, lost)) == ["land-placement"]

    def test_land_units_naming_no_power_are_the_controlling_powers(self) -> None:
        """...controlled by the appropriate Axis power: in Ukraine only Germany may place
        land units, so "2 inf Ukraine" is German (noted, no error). A territory no Axis
        power holds, or a sea zone both Axis powers' land touches, still needs the power
        named (for a fighter in Ukraine: TestMixedNationality)."""
        check = check_bid("2 inf Ukraine, 1 arm Manchuria", 11)
        assert found(check) == [
            (Severity.INFO, "power-of-place", Rule.BID_LAND_UNITS),
            (Severity.INFO, "power-of-place", Rule.BID_LAND_UNITS),
        ]
        assert dict(check.placements) == {
            "Manchuria": {J: {U.ARM: 1}},
            UKRAINE: {G: {U.INF: 2}},
        }
        for unnamed in ("1 inf Karelia", "1 sub Caspian SZ"):
            assert "no-power" in errors(check_bid(unnamed, 3)), unnamed

    def test_the_power_written_after_the_unit_or_the_place_in_brackets(self) -> None:
        """Tried as new players: "2 INF ger Ukraine" (the power after the unit) and "Germany:
        1 tank (E Europe), Japan: 1 inf (Manchuria)" (each place in brackets) were refused,
        the power or the place read as missing."""
        check = check_bid(
            "2 INF ger Ukraine, Germany: 1 tank (E Europe), Japan: 1 inf (Manchuria)", 14
        )
        assert found(check) == []
        assert dict(check.placements) == {
            UKRAINE: {G: {U.INF: 2}},
            "East Europe": {G: {U.ARM: 1}},
            "Manchuria": {J: {U.INF: 1}},
        }
        assert dict(check_bid("1 TRN Japan Sea Zone", 8).placements) == {
            "Japan Sea Zone": {J: {U.TRN: 1}}
        }

    def test_bombers_stand_on_land_the_power_controls(self) -> None:
        assert errors(check_bid("1 J BMB Manchuria", 15)) == []
        check = check_bid("1 J BMB China", 15)
        assert found(check) == [(Severity.ERROR, "air-placement", Rule.BID_AIRCRAFT)]


class TestNavalUnits:
    """Naval units may be placed in any sea zone adjacent to a land territory controlled by
    the appropriate Axis power provided no Allied units occupy that sea zone.

    (IAAPA Bidding.)
    """

    def test_next_to_the_powers_land(self) -> None:
        """The Baltic touches Germany and holds only German ships at the opening."""
        assert errors(check_bid("1 G BB Baltic SZ, 1 G TRN Baltic SZ", 32)) == []

    def test_next_to_no_land_of_the_power(self) -> None:
        check = check_bid("1 G SUB Caspian SZ", 8)
        assert found(check) == [(Severity.ERROR, "naval-placement", Rule.BID_NAVAL_UNITS)]

    def test_allied_units_occupy_the_zone(self) -> None:
        """North Sea Zone touches West Europe (German) and holds a British TRN and BB."""
        check = check_bid("1 G SUB North Sea Zone", 8)
        assert found(check) == [(Severity.ERROR, "allied-units-present", Rule.BID_NAVAL_UNITS)]
        assert "1 TRN, 1 BB" in check.findings[0].message

    def test_the_zone_freed_of_allied_units_may_take_them(self) -> None:
        clear = arranged({"Germany": {G: {U.INF: 1}}})
        assert errors(check_bid("1 G SUB North Sea Zone", 8, clear)) == []

    def test_a_ship_on_land(self) -> None:
        assert errors(check_bid("1 G TRN Germany", 8)) == ["naval-placement"]

    def test_a_ship_naming_no_power_is_that_of_the_only_axis_land_it_touches(self) -> None:
        """...adjacent to a land territory controlled by the appropriate Axis power: of the
        Axis, only German land touches the Baltic, so "1 sub Baltic" is Germany's (noted).
        A zone no Axis land touches still needs the power named."""
        check = check_bid("1 sub Baltic", 8)
        assert found(check) == [(Severity.INFO, "power-of-place", Rule.BID_NAVAL_UNITS)]
        assert dict(check.placements) == {"Baltic Sea Zone": {G: {U.SUB: 1}}}
        assert "no-power" in errors(check_bid("1 sub Caspian SZ", 8))


class TestFighters:
    """Ftrs cannot be placed on existing or bid carriers.

    (IAAPA Bidding.) No aircraft of a bid is placed at sea: the Japanese carrier in the
    Caroline Islands Sea Zone takes no bid fighter, nor does a carrier bid with it.
    """

    def test_on_an_existing_carrier(self) -> None:
        check = check_bid("1 J FTR Caroline Islands Sea Zone", 12)
        assert found(check) == [(Severity.ERROR, "fighters-on-carriers", Rule.BID_AIRCRAFT)]

    def test_on_a_bid_carrier(self) -> None:
        check = check_bid("1 J AC Japan SZ, 1 J FTR Japan SZ", 30)
        assert errors(check) == ["fighters-on-carriers"]

    def test_on_land_the_power_controls(self) -> None:
        assert errors(check_bid("1 J FTR Japan", 12)) == []


class TestNegativeBids:
    """Negative value bids are allowed (removing Axis units and/or IPCs) but may not be
    combined with the addition of additional units or IPCs.

    (IAAPA Bidding.) A removal names units that are there; a negative total bids removals
    only, a positive total additions only.
    """

    def test_removing_units_and_ipcs(self) -> None:
        check = check_bid("-2 G INF Germany, -3 J IPC", -9)
        assert check.findings == () and check.value == -9
        after = apply_bid(initial(), check)
        assert after.units_of("Germany", G).count(U.INF) == 2 and after.bank[J] == 22

    def test_removal_combined_with_addition(self) -> None:
        check = check_bid("remove 2 G INF from Germany, 1 J IPC", -5)
        assert found(check) == [(Severity.ERROR, "negative-mixed", Rule.BID_NEGATIVE)]

    def test_a_negative_total_with_additions(self) -> None:
        assert "negative-mixed" in errors(check_bid("1 G INF Germany", -3))

    def test_a_positive_total_with_only_removals(self) -> None:
        assert "negative-mixed" in errors(check_bid("-1 G INF Germany", 3))

    def test_removing_units_that_are_not_there(self) -> None:
        """Manchuria opens with 3 Japanese INF and a FTR, no ARM."""
        check = check_bid("-5 IPCs (remove 1 J ARM from Manchuria)", -5)
        assert found(check) == [(Severity.ERROR, "not-there", Rule.BID_NEGATIVE)]
        assert errors(check_bid("remove 4 J INF from Manchuria", -12)) == ["not-there"]
        assert errors(check_bid("remove 3 J INF from Manchuria", -9)) == []


class TestMixedNationality:
    """Mixed nationality bids are also allowed (units and/or IPCs for both Germany and Japan)
    but German units may not be placed in Japanese territories or sea zones nor may Japanese
    units be placed in German territories or sea zones due to a bid.

    (IAAPA Bidding.) A sea zone is Japanese (German) for this rule when, of the Axis, only
    Japanese (German) land touches it.
    """

    def test_both_powers_in_one_bid(self) -> None:
        assert check_bid("1 G INF Germany, 1 J INF Japan, 1 G IPC, 1 J IPC", 8).findings == ()

    def test_aircraft_naming_no_power_are_the_territorys(self) -> None:
        """Tried as a new player: "1 ftr Ukraine" was refused for naming no power, though
        only a German fighter may be placed in a German territory."""
        check = check_bid("1 ftr Ukraine, 1 bmb Japan", 27)
        assert found(check) == [
            (Severity.INFO, "power-of-place", Rule.BID_NATIONALITY),
            (Severity.INFO, "power-of-place", Rule.BID_NATIONALITY),
        ]
        assert dict(check.placements) == {UKRAINE: {G: {U.FTR: 1}}, "Japan": {J: {U.BMB: 1}}}
        for unnamed in ("1 ftr Baltic SZ", "1 ftr Karelia"):
            assert "no-power" in errors(check_bid(unnamed, 10)), unnamed

    def test_german_units_in_a_japanese_territory(self) -> None:
        check = check_bid("1 G INF Manchuria", 3)
        assert found(check) == [(Severity.ERROR, "nationality", Rule.BID_NATIONALITY)]

    def test_japanese_units_in_a_german_territory(self) -> None:
        assert errors(check_bid("1 J FTR Germany", 12)) == ["nationality"]

    def test_japanese_ships_in_a_german_sea_zone(self) -> None:
        assert errors(check_bid("1 J TRN Baltic SZ", 8)) == ["nationality"]

    def test_german_ships_in_a_japanese_sea_zone(self) -> None:
        assert errors(check_bid("1 G SUB Japan SZ", 8)) == ["nationality"]


class TestIndustrialComplexes:
    """Industrial Complexes obtained by bid are not 'original' ICs and their production is
    limited to the income value of the territory in which they are placed.

    (IAAPA Bidding.) The check says so, and a territory holds one complex at most.
    """

    def test_a_bid_complex_builds_at_most_the_territorys_income(self) -> None:
        """Manchuria's income is 3 (TripleA classic.xml)."""
        check = check_bid("1 J IC Manchuria", 15)
        assert found(check) == [(Severity.INFO, "ic-not-original", Rule.BID_COMPLEXES)]
        assert "at most 3 units" in check.findings[0].message and check.ok

    def test_not_where_there_is_a_complex(self) -> None:
        assert errors(check_bid("1 G IC Germany", 15)) == ["second-complex"]

    def test_not_two_in_one_territory(self) -> None:
        assert errors(check_bid("2 G IC Libya", 30)) == ["second-complex"]


class TestPlacedBeforeTheFirstUssrTurn:
    """The lower bid plays the Axis powers with the benefits of the winning bid placed on the
    board before the first USSR turn.

    (IAAPA Bidding.)
    """

    def test_the_bid_is_on_the_board_with_the_ussr_to_move(self) -> None:
        after = apply_bid(initial(), check_bid("2 G ARM Ukraine", 10))
        assert (after.round, after.to_move) == (1, R)
        assert (
            after.units_of(UKRAINE, G).count(U.ARM)
            == initial().units_of(UKRAINE, G).count(U.ARM) + 2
        )


# --- the quotations ---------------------------------------------------------------------


def _plain(text: str) -> str:
    text = re.sub(r"(^|\s)-{1,2}(?=\s)", " ", text)
    return " ".join(text.split())


@pytest.mark.parametrize(("name", "quote"), class_openings(__file__))
def test_each_class_quotes_its_rule(rules_text: str, name: str, quote: str) -> None:
    assert len(quote) > 40 and _plain(quote) in _plain(rules_text), name


BIDDING_RULES = (
    "HOW_TO_START",
    "BIDDING",
    "BID_LAND_UNITS",
    "BID_NAVAL_UNITS",
    "BID_AIRCRAFT",
    "BID_NEGATIVE",
    "BID_NATIONALITY",
    "BID_COMPLEXES",
)


def _member_docstrings() -> dict[str, str]:
    """The docstring under each member of Rule, read from the source (no import)."""
    tree = ast.parse(Path(diagnostics.__file__).read_text(encoding="utf-8"))
    rule = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Rule")
    docs: dict[str, str] = {}
    for node, after in zip(rule.body, rule.body[1:], strict=False):
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
        ):
            docs[node.targets[0].id] = str(after.value.value)
    return docs


@pytest.mark.parametrize("member", BIDDING_RULES)
def test_the_registry_quotes_the_bidding_rules(rules_text: str, member: str) -> None:
    """Each bidding member's docstring opens with a quotation of the rule book."""
    doc = _member_docstrings()[member]
    quoted = doc[doc.index('"') + 1 : doc.rindex('"')]
    assert len(quoted) > 40 and _plain(quoted) in _plain(rules_text), member
    assert Rule[member].citation.startswith("IAAPA ")
