"""The board corpus: turn emails checked against a position, with what the rules say of them.

``tests/data/turns/NN-name.board.json`` beside ``NN-name.txt`` says, from the rule text, what
``pbem turn check --json --position`` must find when the email is checked against a position:

- ``"_about"``: what the case is for; ``"rule"``: the rule it applies, quoted;
- ``"position"``: ``{"to_move": "Japan"}`` (the Classic opening, played on to that power) or
  ``{"to_move", "units": {space: {power: {unit: n}}}, "owners": {territory: power},
  "banks": {power: n}, "technologies": {power: [tech]}}`` (only those units, as
  :func:`adjudicator.position.arranged` builds them);
- ``"precombat"``: the file name of the same turn's pre-combat email, when the email is a
  post-combat one that does not repeat its combat moves;
- ``"findings"``: codes that must be among the findings (``{"code", "line"?, "severity"?}``);
  ``"absent"``: codes that must not be; ``"void_battles"``: exactly the battles voided;
- ``"computed_counts"``: the mover's territories and IPCs in the position the turn leaves;
  ``"owners"``: territory -> power there; ``"units"``: space -> power -> units there.

Every key left out is not checked: a case says what its rule decides and nothing else.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adjudicator.declarations import check_report
from adjudicator.declarations.turncheck import check_turn
from adjudicator.notation import parse
from adjudicator.position import TECH_NAMES, Position, arranged, initial
from adjudicator.powers import Power
from adjudicator.units import Units, UnitType

TURNS = Path(__file__).resolve().parents[2] / "data" / "turns"
CASES = sorted(TURNS.glob("*.board.json"))
KEYS = {
    "_about",
    "rule",
    "position",
    "precombat",
    "findings",
    "absent",
    "void_battles",
    "computed_counts",
    "owners",
    "units",
}
POWERS = {p.name.lower(): p for p in Power} | {"uk": Power.UK, "ussr": Power.USSR}
TECHS = {name: tech for tech, name in TECH_NAMES.items()}


def _power(name: str) -> Power:
    return POWERS[name.lower()]


def _units(counts: dict[str, int]) -> Units:
    return Units.of({UnitType(u): n for u, n in counts.items()})


def _position(spec: dict[str, Any]) -> Position:
    to_move = _power(spec["to_move"])
    if "units" not in spec:
        start = initial()
        while start.to_move is not to_move:
            start = start.next_turn()
        return start
    units = {
        space: {_power(p): _units(counts) for p, counts in per.items()}
        for space, per in spec["units"].items()
    }
    owners = {t: _power(p) for t, p in spec.get("owners", {}).items()}
    banks = {_power(p): n for p, n in spec.get("banks", {}).items()}
    techs = {
        _power(p): frozenset(TECHS[t] for t in names)
        for p, names in spec.get("technologies", {}).items()
    }
    return arranged(
        units,
        owners=owners,
        to_move=to_move,
        round=spec.get("round", 1),
        bank=banks,
        technologies=techs or None,
    )


def _case(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _email(path: Path) -> Path:
    return path.with_name(path.name.removesuffix(".board.json") + ".txt")


def test_each_board_case_has_its_email_and_says_its_rule() -> None:
    assert len(CASES) >= 10
    for path in CASES:
        case = _case(path)
        assert _email(path).is_file(), path.name
        assert set(case) <= KEYS, f"{path.name}: unknown keys {set(case) - KEYS}"
        assert case.get("_about") and case.get("rule"), path.name
        assert {"findings", "absent", "void_battles", "computed_counts", "owners", "units"} & set(
            case
        ), f"{path.name} checks nothing"


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name.removesuffix(".board.json"))
def test_the_turn_is_checked_as_the_rule_says(path: Path) -> None:
    case = _case(path)
    text = _email(path).read_text(encoding="utf-8")
    position = _position(case["position"])
    precombat = (
        (TURNS / case["precombat"]).read_text(encoding="utf-8") if "precombat" in case else None
    )
    report = check_report(text, position, precombat=precombat)
    found = report["diagnostics"]
    for want in case.get("findings", []):
        hits = [
            d
            for d in found
            if d["code"] == want["code"]
            and all(d[k] == want[k] for k in ("line", "severity") if k in want)
        ]
        assert hits, f"{path.name}: no {want} among {[(d['code'], d['line']) for d in found]}"
    codes = {d["code"] for d in found}
    for code in case.get("absent", []):
        assert code not in codes, f"{path.name}: {code} found: " + "; ".join(
            d["message"] for d in found if d["code"] == code
        )
    if "void_battles" in case:
        assert report["void_battles"] == case["void_battles"], path.name
    if "computed_counts" in case:
        assert report.get("computed_counts") == case["computed_counts"], path.name
    if "owners" in case or "units" in case:
        before = parse(precombat) if precombat is not None else None
        after = check_turn(parse(text), position, precombat=before).position
        for territory, power in case.get("owners", {}).items():
            assert after.owner(territory) is _power(power), f"{path.name}: {territory}"
        for space, per in case.get("units", {}).items():
            for power, counts in per.items():
                assert after.units_of(space, _power(power)) == _units(counts), (
                    f"{path.name}: {space} {power}"
                )
