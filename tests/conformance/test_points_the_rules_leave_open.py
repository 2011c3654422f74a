"""Points the league's rule text leaves open, as the league reads them (README, "Rulings the
rules leave open"): each case quotes the rules it weighs and asserts the reading."""

from __future__ import annotations

from typing import Any

from adjudicator.declarations import check_report
from adjudicator.position import Position, arranged
from adjudicator.powers import Power
from adjudicator.units import UnitType as U

UK, G = Power.UK, Power.GERMANY


def codes(report: dict[str, Any]) -> list[tuple[str, str]]:
    return [(d["code"], d["severity"]) for d in report["diagnostics"]]


class TestTransportsLeftOutOfTheClearingBattle:
    """Error Correction II lists "failure to include transports in the sea zone clearing
    portion of an amphibious assault" among the CDEs, and "the entire battle is null and void
    and no portion of the results may stand"; Amphibious Assaults: "Transports need to be
    declared as part of the attacking force." Read: both the sea battle and the landing are
    void; a sea battle declared without them is not the battle the rules have fought."""

    START: Position = arranged(
        {
            "United Kingdom": {UK: {U.INF: 2}},
            "North Sea Zone": {UK: {U.TRN: 1, U.BB: 1}, G: {U.SUB: 1}},
            "West Europe": {G: {U.INF: 1}},
        },
        to_move=UK,
    )

    def test_both_battles_are_void(self) -> None:
        email = (
            "Attack #1 - UK SZ (1 SUB)\nUK SZ 1 BB\n"
            "Attack #2 - W Europe (1 INF)\nUK 2 INF on UK SZ 1 TRN\n"
        )
        report = check_report(email, self.START)
        assert report["void_battles"] == [1, 2]
        assert codes(report) == [("transports-not-in-sea-battle", "error")]

    def test_declared_with_the_transports_both_stand(self) -> None:
        email = (
            "Attack #1 - UK SZ (1 SUB)\nUK SZ 1 BB, 1 TRN\n"
            "Attack #2 - W Europe (1 INF)\nUK 2 INF on UK SZ 1 TRN\n"
        )
        report = check_report(email, self.START)
        assert report["void_battles"] == []


class TestSupportShotLeftOutOfTheTotal:
    """Error Correction II: "The exact number and type of attacking units, along with their
    country/territory or sea zone of origin, must be listed for each declared combat."
    Read: a supporting battleship listed on its origin line with its sea zone is declared;
    a Total line leaving it out is no CDE (the battleship fires once and "cannot itself be
    hit", facts sheet section 5): the board's note says the declaration stands, beside the
    notation's mismatch warning (the report only adds to the notation's). Other units left
    out of the Total draw the warning alone."""

    START: Position = arranged(
        {
            "United Kingdom": {UK: {U.INF: 2}},
            "North Sea Zone": {UK: {U.TRN: 1, U.BB: 1}},
            "West Europe": {G: {U.INF: 1}},
        },
        to_move=UK,
    )
    ASSAULT = "Attack #1 - W Europe (1 INF)\nUK 2 INF on UK SZ 1 TRN\nUK SZ 1 BB\n"

    def test_the_declaration_stands_with_a_note(self) -> None:
        email = self.ASSAULT + "Total UK v. Germany --- 2 INF v. 1 INF\n"
        report = check_report(email, self.START)
        assert report["void_battles"] == []
        assert codes(report) == [("total-mismatch", "warning"), ("support-not-in-total", "info")]
        note = report["diagnostics"][1]
        assert note["line"] == 4 and "declaration stands" in note["message"]

    def test_a_total_that_lists_it_draws_nothing(self) -> None:
        email = self.ASSAULT + "Total UK v. Germany --- 2 INF, 1 BB v. 1 INF\n"
        assert codes(check_report(email, self.START)) == []

    def test_a_land_unit_left_out_is_still_a_mismatch(self) -> None:
        email = self.ASSAULT + "Total UK v. Germany --- 1 INF v. 1 INF\n"
        assert codes(check_report(email, self.START)) == [("total-mismatch", "warning")]
