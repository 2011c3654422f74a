"""check_report: the turn report with the board's findings added (``pbem turn check FILE --json
--position FILE``), and check_turn, over the whole corpus and on chosen cases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.declarations import Code, check_report, check_turn
from adjudicator.notation import Units, parse, render_report, report
from adjudicator.position import Position, arranged, initial
from adjudicator.powers import Power
from adjudicator.units import UnitType as U

TURNS = Path(__file__).resolve().parents[2] / "data" / "turns"
CASES = sorted(TURNS.glob("*.txt"))
UK, G, R = Power.UK, Power.GERMANY, Power.USSR

RULE_BOOK = (
    "Combat Moves:\nAttack #1 - W Europe (10 INF, AA)\nUK 8 INF on UK SZ 4 TRN\n"
    "E Can 1 ARM on E Can SZ 1 TRN to UK SZ\nKar 2 FTR (land Karelia)\n"
    "Total UK v. Germany --- 8 INF, 1 ARM, 2 FTR v. 10 INF, AA\n"
)
RULE_BOOK_BOARD = {
    "United Kingdom": {UK: {U.INF: 8}},
    "North Sea Zone": {UK: {U.TRN: 4}},
    "East Canada": {UK: {U.ARM: 1}},
    "East Canada Sea Zone": {UK: {U.TRN: 1}},
    "Karelia S.S.R.": {UK: {U.FTR: 2}},
    "West Europe": {G: {U.INF: 10, U.AA: 1}},
}


@pytest.fixture(scope="module")
def opening() -> Position:
    return initial()


def _walk(value: object) -> list[object]:
    if isinstance(value, dict):
        return [value, *(x for v in value.values() for x in _walk(v))]
    if isinstance(value, list):
        return [value, *(x for v in value for x in _walk(v))]
    return [value]


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_the_notation_report_is_kept_and_only_added_to(path: Path, opening: Position) -> None:
    """Backwards compatible: every key of the notation's report keeps its value, except the
    diagnostics (added to, in line order) and the summary (recounted); a battle whose place
    fits several (``could_be``) may gain the ``territory`` the check reads it as."""
    text = path.read_text(encoding="utf-8")
    plain, checked = report(text), check_report(text, opening)
    for key, value in plain.items():
        if key not in ("diagnostics", "summary", "battles"):
            assert checked[key] == value, key
    for before, after in zip(plain["battles"], checked["battles"], strict=True):
        assert {k: after[k] for k in before} == before
        assert set(after) - set(before) <= ({"territory"} if "could_be" in before else set())
    old = [json.dumps(d, sort_keys=True) for d in plain["diagnostics"]]
    new = [
        json.dumps({k: v for k, v in d.items() if k != "battles"}, sort_keys=True)
        for d in checked["diagnostics"]
    ]
    remaining = list(new)
    for d in old:
        remaining.remove(d)  # each notation diagnostic is still there
    assert [d["line"] for d in checked["diagnostics"]] == sorted(
        d["line"] for d in checked["diagnostics"]
    )
    summary = checked["summary"]
    assert summary["errors"] == sum(d["severity"] == "error" for d in checked["diagnostics"])
    assert summary["warnings"] == sum(d["severity"] == "warning" for d in checked["diagnostics"])
    assert summary["infos"] == sum(d["severity"] == "info" for d in checked["diagnostics"])


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_the_checked_report_holds_integers_and_strings_only(path: Path, opening: Position) -> None:
    got = check_report(path.read_text(encoding="utf-8"), opening)
    leaves = [v for v in _walk(got) if not isinstance(v, dict | list)]
    assert all(type(v) in (int, str) for v in leaves)
    for d in got["diagnostics"]:
        assert d["rule"].startswith("IAAPA") and d["message"] and d["suggestion"]
        assert set(d) <= {"line", "severity", "rule", "message", "suggestion", "code", "battles"}
    assert set(got["void_battles"]) <= {b["number"] for b in got["battles"]}


def test_the_rule_book_example_on_its_board_adds_nothing() -> None:
    got = check_report(RULE_BOOK, arranged(RULE_BOOK_BOARD, to_move=UK))
    assert got["diagnostics"] == report(RULE_BOOK)["diagnostics"] == []
    assert got["void_battles"] == []
    assert "computed_counts" not in got


def test_the_rule_book_example_at_the_opening_is_void() -> None:
    """At the opening the UK has 2 INF in the UK, 1 TRN in the UK zone and no fighter in
    Karelia, and West Europe holds more than 10 INF and an AA gun."""
    got = check_report(RULE_BOOK, initial())
    codes = {(d["line"], d["code"]) for d in got["diagnostics"]}
    assert {
        (2, "defenders-wrong"),
        (3, "not-at-origin"),
        (3, "not-enough-transports"),
        (5, "not-at-origin"),
    } <= codes
    assert got["void_battles"] == [1]
    assert got["summary"]["errors"] >= 4
    assert all(d["battles"] == [1] for d in got["diagnostics"] if d["severity"] == "error")


def test_the_text_form_shows_the_findings() -> None:
    got = check_report(RULE_BOOK, initial())
    text = render_report(got)
    for d in got["diagnostics"]:
        assert d["message"] in text


def test_a_post_combat_email_reports_the_computed_count() -> None:
    email = "USSR 1 post-combat\n\nNon-combat moves:\nKar 1 FTR to Russia\n\nUSSR 8/$25\n"
    got = check_report(email, initial())
    assert got["computed_counts"] == {"power": "USSR", "territories": 8, "ipcs": 24}
    assert [(d["line"], d["code"]) for d in got["diagnostics"]] == [(6, "count-mismatch")]


def test_a_post_combat_email_with_its_pre_combat_email() -> None:
    """A post-combat email does not repeat the combat moves: given the pre-combat email, the
    map update is weighed against them too."""
    pre = "Combat moves:\nAttack #1 - Finland (1 INF)\nKar 3 INF\n"
    post = "Results:\n#1 Finland: won, 3 INF left\n\nMap update:\nKarelia: 3 INF\n"
    board = arranged({"Karelia S.S.R.": {R: {U.INF: 3}}, "Finland Norway": {G: {U.INF: 1}}})
    alone = check_report(post, board)
    both = check_report(post, board, precombat=pre)
    assert "map-differs" not in {d["code"] for d in alone["diagnostics"]}
    assert [d["code"] for d in both["diagnostics"]] == ["map-excess", "map-omits"]
    assert "Finland Norway (3 INF)" in both["diagnostics"][1]["message"]
    after = check_turn(parse(post), board, precombat=parse(pre)).position
    assert after.units_of("Finland Norway", R).total == 3
    assert after.units_of("Karelia S.S.R.", R).total == 0


def test_post_combat_first_then_the_next_powers_declarations() -> None:
    """A USA post-combat and a USSR pre-combat in one email: the declarations are checked
    against the position the US orders leave, with the USSR to move."""
    email = (
        "USA 1 post-combat\nNon-combat moves:\nE US 1 FTR to UK\n\n"
        "Russia 2 pre-combat\nCombat moves:\nAttack #1 - E Europe\nKar 3 INF\n"
    )
    start = arranged(
        {
            "East US": {Power.USA: {U.FTR: 1}},
            "Karelia S.S.R.": {R: {U.INF: 3}},
            "East Europe": {G: {U.INF: 1}},
        },
        to_move=Power.USA,
    )
    turn = parse(email)
    checked = check_turn(turn, start)
    assert checked.mover is Power.USA
    assert checked.position.to_move is R and checked.position.round == 2
    assert checked.position.units_of("United Kingdom", Power.USA).total == 1
    assert [f.code for f in checked.findings] == []


def test_pre_combat_then_results_in_one_email_is_one_turn() -> None:
    email = (
        "Combat moves:\nAttack #1 - Finland (1 INF)\nKar 3 INF\n\nResults:\n"
        "#1 Finland: won, 3 INF left\n\nMap update:\nFinland: 3 INF\n"
    )
    start = arranged({"Karelia S.S.R.": {R: {U.INF: 3}}, "Finland Norway": {G: {U.INF: 1}}})
    checked = check_turn(parse(email), start)
    assert checked.findings == ()
    assert checked.position.owner("Finland Norway") is R
    assert checked.position.to_move is G


def test_a_turn_of_the_wrong_power_is_noted() -> None:
    got = check_turn(parse("Germany 1 pre-combat\nAttack #1 - Karelia\nE Eur 1 INF\n"), initial())
    assert Code.WRONG_POWER in {f.code for f in got.findings}


_LAND = sorted(t.name for t in initial().board.land if not t.impassable)
_TEXTS = [p.read_text(encoding="utf-8") for p in CASES]


@settings(max_examples=25, deadline=None)
@given(
    changes=st.lists(st.tuples(st.sampled_from(_LAND), st.sampled_from(list(Power))), max_size=12),
    to_move=st.sampled_from(list(Power)),
)
def test_any_position_checks_every_email_without_failing(
    changes: list[tuple[str, Power]], to_move: Power
) -> None:
    """Whatever the board, a check reports; it never raises, and an error voids only battles
    the email declares."""
    p = initial()
    for territory, power in changes:
        for other in list(p.units_at(territory)):
            if other.alliance is not power.alliance:
                p = p.with_units(territory, other, Units())
        p = p.with_owner(territory, power)
    p = Position.of(p.board, round=2, to_move=to_move, owners=p.owners, units=p.units, bank=p.bank)
    for text in _TEXTS:
        checked = check_turn(parse(text), p)
        numbers = {b.number for b in checked.turn.battles}
        assert set(checked.void_battles) <= numbers
        for finding in checked.findings:
            assert finding.citation.startswith("IAAPA") and finding.message and finding.suggestion
