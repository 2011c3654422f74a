"""Purchases and research against the bank and the price list, checked before any die is rolled.

IAAPA Income Collection and Spending (Rules Clarifications), Error Correction IV (Tech Rolls)
and the printed game's price list (facts sheet sections 0 and 7), each class's docstring
opening with the rule quoted; the quotes are checked against the rule texts below. A case
builds its position (``bank``: the IPCs in hand at the start of the turn) and checks the
pre-combat email as ``pbem turn check --position`` does (issue 14, point 8).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from adjudicator.declarations import Code, check_purchases, check_report, check_turn
from adjudicator.diagnostics import Diagnostic, Severity
from adjudicator.notation import parse
from adjudicator.position import Position, arranged, initial
from adjudicator.powers import Power
from adjudicator.units import Technology
from adjudicator.units import UnitType as U
from tests.conformance.cases import class_openings
from tests.conformance.conftest import RULES

UK, G, R, J, US = Power.UK, Power.GERMANY, Power.USSR, Power.JAPAN, Power.USA


class Case:
    """A rule case: a position with the buyer to move and the pre-combat email checked."""

    POWER = G

    def position(self, bank: int, **kw: Any) -> Position:
        return arranged({}, to_move=self.POWER, bank={self.POWER: bank}, **kw)

    def check(self, email: str, bank: int, **kw: Any) -> tuple[Diagnostic, ...]:
        turn = parse(email)
        assert turn.errors == (), "the email itself must read cleanly"
        return check_turn(turn, self.position(bank, **kw)).findings


def found(findings: tuple[Diagnostic, ...]) -> list[tuple[int, Severity, str]]:
    return [(f.line, f.severity, f.code) for f in findings]


class TestIncomeCollectionAndSpending(Case):
    """You may not purchase any new units while your capital is under enemy control. However,
    if you have received income from the capture of an enemy's capital you may spend said
    income on Weapons Development or the violation of neutrality.

    (IAAPA Rules Clarifications, Income Collection and Spending.) Whatever is bought, units
    and research dice alike, is paid from the IPCs in hand: spending more is an error of the
    pre-combat turn.
    """

    def test_the_issue_example_twenty_infantry_with_thirty_two_in_hand(self) -> None:
        """Issue 14: "20 INF ($60)" for Germany with $32 passed unremarked."""
        (finding,) = self.check("Germany 1 pre-combat\nPurchases: 20 INF ($60)\n", bank=32)
        assert (finding.line, finding.severity, finding.code) == (2, Severity.ERROR, "overspent")
        assert finding.citation.startswith("IAAPA Rules Clarifications: Income Collection and")
        assert "$60" in finding.message and "$32 in hand" in finding.message
        assert "$28 too much" in finding.message and "at most $32" in finding.suggestion

    def test_at_the_opening_the_bank_is_the_starting_income(self) -> None:
        """The same email against the opening position, through the JSON report."""
        got = check_report("Germany 1 pre-combat\nPurchases: 20 INF ($60)\n", initial())
        assert [(d["line"], d["severity"], d["code"]) for d in got["diagnostics"]] == [
            (2, "error", "overspent")
        ]
        assert got["void_battles"] == []

    def test_spending_the_whole_bank_is_allowed(self) -> None:
        assert self.check("Purchases: 9 INF, 1 ARM ($32)\n", bank=32) == ()

    def test_research_dice_count_against_the_bank_too(self) -> None:
        """Research costs 5 IPCs a die: 2 dice and $25 of units is $35, more than $32."""
        (finding,) = self.check("Tech: 2 dice, no breakthrough\nPurchases: 5 INF, 2 ARM\n", 32)
        assert (finding.line, finding.code) == (2, "overspent")
        assert "$10 on 2 research dice" in finding.message and "$35 in all" in finding.message
        assert "at most $22 of units" in finding.suggestion

    def test_no_units_while_the_capital_is_held_by_the_enemy(self) -> None:
        findings = self.check("Purchases: 2 INF\n", bank=20, owners={"Germany": R})
        assert found(findings) == [(1, Severity.ERROR, "capital-lost")]
        assert "held by USSR" in findings[0].message

    def test_research_is_allowed_while_the_capital_is_held(self) -> None:
        """'... you may spend said income on Weapons Development'."""
        assert self.check("Tech: 2 dice\n", bank=20, owners={"Germany": R}) == ()


class TestTechRollsSectionIV(Case):
    """if the number of dice rolled costs more than the available ipcs, then it will be
    considered a declaration error and will need to be re-declared and re-rolled with the
    correct number of dice.

    (IAAPA Error Correction IV.) A research die costs 5 IPCs.
    """

    POWER = R

    def test_more_dice_than_the_bank_pays_for(self) -> None:
        (finding,) = self.check("USSR 1 pre-combat\nTech: 6 dice\n", bank=24)
        assert (finding.line, finding.severity, finding.code) == (2, Severity.ERROR, "overspent")
        assert finding.citation.startswith("IAAPA Error Correction IV")
        assert "$30" in finding.message and "at most 4 dice" in finding.suggestion

    def test_as_many_dice_as_the_bank_pays_for(self) -> None:
        assert self.check("Tech: 4 dice\nPurchases: 1 INF\n", bank=23) == ()


class TestPriceList(Case):
    """Units, as cost/move/attack/defense: INF 3/1/1/2, ARM 5/2/3/2, FTR 12/4/3/4, BMB
    15/6/4/1, AA 5/1/–/–, BB 24/2/4/4, AC 18/2/1/3, TRN 8/2/0/1, SUB 8/2/2/2, IC 15.

    (The printed game, facts sheet section 0; section 7: "Industrial Technology: every unit
    costs 1 IPC less".) A written total that the price list contradicts is a warning naming
    the correct figure: a number is never a typographical error (IAAPA Error Correction VI),
    so the units stand as written and the player corrects the figure.
    """

    def test_the_engine_prices_every_unit_as_printed(self) -> None:
        from adjudicator.declarations.purchases import prices

        printed = {U.INF: 3, U.ARM: 5, U.FTR: 12, U.BMB: 15, U.AA: 5, U.BB: 24, U.AC: 18}
        printed |= {U.TRN: 8, U.SUB: 8, U.IC: 15}
        assert dict(prices()) == printed
        cheaper = prices(frozenset({Technology.INDUSTRIAL_TECHNOLOGY}))
        assert dict(cheaper) == {unit: n - 1 for unit, n in printed.items()}

    def test_a_wrong_total_names_the_right_one(self) -> None:
        (finding,) = self.check("Purchases: 3 INF, 1 ARM, 1 TRN ($23)\n", bank=32)
        assert (finding.line, finding.severity, finding.code) == (
            1,
            Severity.WARNING,
            "purchase-total",
        )
        assert "$23" in finding.message and "$22" in finding.message
        assert "correct the figure to $22" in finding.suggestion
        assert finding.citation.endswith(
            "Purchase units: pay each unit's printed price from the IPCs in hand"
        )

    def test_a_total_with_the_research_in_it_is_right(self) -> None:
        assert self.check("Tech: 1 die\nPurchases: 3 INF ($14)\n", bank=32) == ()

    def test_a_total_on_a_line_of_its_own_totals_every_line(self) -> None:
        assert self.check("Purchases:\n3 INF\n1 ARM\n$14 total\n", bank=32) == ()
        (finding,) = self.check("Purchases:\n3 INF\n1 ARM\n$15 total\n", bank=32)
        assert (finding.line, finding.code) == (4, "purchase-total")

    def test_industrial_technology_gained_this_turn_prices_at_once(self) -> None:
        """A tech works at once (facts sheet section 7)."""
        email = "Tech: 2 dice, Industrial Technology\nPurchases: 4 INF ($8)\n"
        assert self.check(email, bank=32) == ()

    def test_ipcs_left_are_the_bank_less_what_is_spent(self) -> None:
        (finding,) = self.check("Purchases: 3 INF ($9, $20 left)\n", bank=32)
        assert (finding.code, finding.severity) == ("purchase-total", Severity.WARNING)
        assert "leaves $23" in finding.message


def _plain(text: str) -> str:
    return " ".join(text.replace("–", "-").split())


@pytest.mark.parametrize(("name", "quote"), class_openings(__file__))
def test_each_class_quotes_its_rule(rules_text: str, name: str, quote: str) -> None:
    """The IAAPA quotes are in the rule book; the price list in the facts sheet."""
    facts = (RULES / "classic-2nd-edition-facts.md").read_text(encoding="utf-8")
    source = facts if name == "TestPriceList" else rules_text
    assert len(quote) > 40 and _plain(quote) in _plain(re.sub(r"\s+", " ", source)), name


def test_only_the_buyers_bank_counts() -> None:
    """A check of the purchases alone: the power named by the email pays."""
    start = arranged({}, to_move=R, bank={R: 24, G: 5})
    assert check_purchases(parse("USSR 1 pre-combat\nPurchases: 8 INF"), start) == ()
    (finding,) = check_purchases(parse("Germany 1 pre-combat\nPurchases: 8 INF"), start)
    assert finding.code is Code.OVERSPENT
