"""Purchases and research against the bank and the price list
(adjudicator.declarations.purchases, and where check_turn applies it)."""

from __future__ import annotations

from adjudicator.declarations import Code, check_purchases, check_report, check_turn
from adjudicator.declarations.purchases import prices, purchase_cost
from adjudicator.diagnostics import Rule, Severity
from adjudicator.notation import Units, parse
from adjudicator.position import arranged, initial
from adjudicator.powers import Power
from adjudicator.units import Technology
from adjudicator.units import UnitType as U

UK, G, R, US = Power.UK, Power.GERMANY, Power.USSR, Power.USA


def codes(text: str, bank: int, power: Power = R, **kw: object) -> list[tuple[int, str, str]]:
    start = arranged({}, to_move=power, bank={power: bank}, **kw)  # type: ignore[arg-type]
    return [(f.line, f.severity.value, f.code) for f in check_turn(parse(text), start).findings]


def test_prices_follow_the_units_table_and_technology() -> None:
    assert purchase_cost(Units.of({U.INF: 3, U.ARM: 1, U.TRN: 1}), prices()) == 22
    cheap = prices(frozenset({Technology.INDUSTRIAL_TECHNOLOGY}))
    assert purchase_cost(Units.of({U.BB: 1, U.IC: 1}), cheap) == 23 + 14
    assert prices(frozenset()) is prices(frozenset())  # one table per set of technologies


def test_nothing_to_check_without_purchases_or_dice() -> None:
    start = arranged({}, to_move=R, bank={R: 0})
    assert check_purchases(parse("Tech: none\nPurchases: none"), start) == ()
    assert check_purchases(parse("Combat moves:\nAttack #1 - Ukraine\nKar 2 INF"), start) == ()


def test_purchases_over_several_lines_add_up() -> None:
    assert codes("Purchases:\n4 INF ($12)\n2 ARM ($10)\n", bank=22) == []
    assert codes("Purchases:\n4 INF ($12)\n2 ARM ($10)\n", bank=21) == [(2, "error", "overspent")]
    assert codes("Purchases:\n4 INF ($12)\n2 ARM ($12)\n", bank=30) == [
        (3, "warning", "purchase-total")
    ]


def test_the_error_is_on_the_tech_line_when_the_dice_alone_overspend() -> None:
    assert codes("Tech: 5 dice\nPurchases: 1 INF\n", bank=24) == [(1, "error", "overspent")]


def test_a_whole_turn_reports_an_overspend_once() -> None:
    """The pre-combat purchases are checked as such; the post-combat orders' own note on the
    bank is not repeated."""
    email = "Purchases: 10 INF\n\nPlacement:\nRussia 10 INF\n\nMap update:\nRussia: 10 INF, IC\n"
    start = arranged({"Russia": {R: {U.IC: 1}}}, to_move=R, bank={R: 24})
    checked = check_turn(parse(email), start)
    overspent = [f for f in checked.findings if f.code is Code.OVERSPENT]
    assert [(f.line, f.severity) for f in overspent] == [(1, Severity.ERROR)]


def test_post_combat_orders_alone_still_note_an_overspend() -> None:
    start = arranged({"Russia": {R: {U.IC: 1}}}, bank={R: 5})
    checked = check_turn(parse("Placement:\nRussia 3 INF\n"), start)
    (finding,) = [f for f in checked.findings if f.code is Code.OVERSPENT]
    assert finding.severity is Severity.WARNING and finding.rule is Rule.INCOME
    assert finding.also == (Rule.PURCHASE_UNITS,)


def test_purchases_after_post_combat_orders_are_the_next_powers() -> None:
    """A USA post-combat and a USSR pre-combat in one email: the USSR buys from its bank."""
    email = (
        "USA 1 post-combat\nNon-combat moves:\nE US 1 FTR to UK\n\n"
        "Russia 2 pre-combat\nPurchases: 9 INF ($27)\n"
    )
    start = arranged({"East US": {US: {U.FTR: 1}}}, to_move=US, bank={R: 26, US: 36})
    checked = check_turn(parse(email), start)
    assert [(f.line, f.code) for f in checked.findings] == [(6, "overspent")]
    assert "USSR spends $27" in checked.findings[0].message


def test_the_checked_report_lists_purchase_findings_with_the_others() -> None:
    got = check_report("Germany 1 pre-combat\nPurchases: 3 INF, 1 ARM ($15)\n", initial())
    (warning,) = got["diagnostics"]
    assert (warning["line"], warning["severity"], warning["code"]) == (
        2,
        "warning",
        "purchase-total",
    )
    assert warning["rule"].startswith("IAAPA Declaration and Battle Resolution Procedures")
    assert got["summary"] == {"errors": 0, "warnings": 1, "infos": 0}
