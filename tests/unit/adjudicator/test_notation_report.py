"""The turn-check report and its text form (adjudicator.notation.jsonreport, .render)."""

from __future__ import annotations

import json
import re

import adjudicator.notation.jsonreport as report_module
from adjudicator.notation import REPORT_VERSION, parse, render_report, report, turn_report

RULE_BOOK_EXAMPLE = """Combat Moves:
Attack #1 - W Europe (10 INF, AA)
UK 8 INF on UK SZ 4 TRN
E Can 1 ARM on E Can SZ 1 TRN to UK SZ
Kar 2 FTR (land Karelia)
Total UK v. Germany --- 8 INF, 1 ARM, 2 FTR v. 10 INF, AA
"""

TOP_LEVEL = [
    "version",
    "kind",
    "power",
    "tech",
    "purchases",
    "battles",
    "results",
    "moves",
    "placements",
    "map",
    "counts",
    "orders_of_loss",
    "withdrawals",
    "retreats",
    "diagnostics",
    "summary",
]


def test_the_documented_example_is_what_the_report_gives() -> None:
    """The module docstring's example must stay true: it is the format's documentation."""
    doc = report_module.__doc__ or ""
    example = doc[doc.index('{"number": 1') :].strip()
    documented = json.loads(re.sub(r"\s+", " ", example))
    assert report(RULE_BOOK_EXAMPLE)["battles"] == [documented]


def test_the_top_level_keys_and_version() -> None:
    got = report(RULE_BOOK_EXAMPLE)
    assert REPORT_VERSION == 1 and got["version"] == 1
    assert list(got) == TOP_LEVEL
    assert got["summary"] == {"errors": 0, "warnings": 0, "infos": 0}


def test_absent_values_are_omitted_not_null() -> None:
    got = report("Attack #1 - Burma\nKar 2 INF\nOOL: INF")
    assert "power" not in got and "round" not in got
    (battle,) = got["battles"]
    assert "territory" not in battle and "defender" not in battle and "total" not in battle
    assert got["battles"][0]["origins"][0] == {
        "line": 2,
        "from": "Karelia S.S.R.",
        "units": {"INF": 2},
    }
    assert got["orders_of_loss"] == [{"line": 3, "order": [{"unit": "INF"}]}]


def test_diagnostics_carry_line_severity_rule_message_suggestion_and_code() -> None:
    (d,) = report("UK 30/32")["diagnostics"]
    assert set(d) == {"line", "severity", "rule", "message", "suggestion", "code"}
    assert (d["line"], d["severity"], d["code"]) == (1, "warning", "count-units")
    assert d["rule"] == "IAAPA Declaration and Battle Resolution Procedures: Post Combat Orders"


def test_flags_are_integers() -> None:
    assert report("UK 30/32")["counts"][0]["units_written"] == 0
    assert report("UK 30/$32")["counts"][0]["units_written"] == 1


def test_turn_report_and_report_agree() -> None:
    assert turn_report(parse(RULE_BOOK_EXAMPLE)) == report(RULE_BOOK_EXAMPLE)


def test_the_text_form() -> None:
    text = render_report(report("UK 2 pre-combat\n" + RULE_BOOK_EXAMPLE + "UK 30/32\n"))
    assert text.splitlines()[0] == "Turn check (report version 1): mixed turn, UK 2"
    assert "  #1 West Europe (line 3): 8 INF, 1 ARM, 2 FTR v. 10 INF, 1 AA" in text
    assert (
        "    line 5: East Canada: 1 ARM on 1 TRN via East Canada Sea Zone, North Sea Zone" in text
    )
    assert "    line 6: Karelia S.S.R.: 2 FTR, land Karelia S.S.R." in text
    assert "  line 8: UK 30 territories / $32" in text
    assert (
        "  line 8: warning: " in text
        and "[IAAPA Declaration and Battle Resolution Procedures: Post Combat Orders]" in text
    )
    assert text.endswith("0 error(s), 1 warning(s), 0 note(s)\n")


def test_the_text_form_of_an_empty_turn() -> None:
    text = render_report(report("Hello there"))
    assert "email: warning: no orders were found in the email" in text
