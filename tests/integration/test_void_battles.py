"""A battle a combat declaration error voids, through the service: its rolls do not count
until the error is recognised through the dice roller, and the battle is then fought again
with the correct units (IAAPA Error Correction II and VII).

Section II: "If any of this information is incorrect, it is considered a CDE, and the entire
battle is null and void and no portion of the results may stand. ... The attacker may then
elect to re-roll the entire battle with the correct number and type of units or he may
elect not to fight the battle at all. He may not add additional attacking units to the
battle." Section VII: "It is mandatory that all communications regarding error recognition
occur through the dice roller."
"""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import League, logged_in
from tests.integration.test_battle_replay import mailed_entry
from tests.integration.test_game_pages import field_value, text
from tests.integration.test_turns import battle_roll, get, ledger, recognise, roll, submit

# Caucasus holds no armour at the start: the declaration lists a unit that is not there.
PRECOMBAT = """USSR round 1 pre-combat
Attack #1 - Ukraine (3 INF, 2 ARM, 1 FTR)
Cau 3 INF, 1 ARM
Rus 1 FTR
"""


def ukraine(client: FlaskClient, league: League) -> dict[str, Any]:
    (battle,) = get(client, league, "battles")
    return dict(battle)


def rolled(client: FlaskClient, league: League, battle: dict[str, Any]) -> tuple[int, Any]:
    sent = roll(client, league, "allies", battle_roll("USSR", battle))
    assert sent.status_code == 201, sent.get_data(as_text=True)
    body = json.loads(sent.get_json()["body"])
    return int(body["seq"]), body["data"]


def test_a_void_battle_is_fought_again_after_the_error_is_recognised(
    client: FlaskClient, league: League
) -> None:
    assert submit(client, league, "allies", PRECOMBAT).status_code == 201
    first, data = rolled(client, league, ukraine(client, league))
    (finding,) = data["findings"]
    assert finding["rule"] == "IAAPA Error Correction II"
    assert "no portion of the results may stand" in finding["message"]
    assert "1 ARM listed from Caucasus" in finding["message"]
    battle = ukraine(client, league)
    assert (battle["status"], battle["void_rolls"], battle["rolls"]) == ("void", [first], [])
    assert battle["result"] is None
    # The correct units: the armour declared but not at its origin is not rolled again, and
    # the defenders are what they are.
    assert battle["next_roll"] == {
        "attacker": {"INF": 3, "FTR": 1},
        "defender": {"INF": 3, "ARM": 2, "FTR": 1},
    }

    # Rolled again before the error is recognised: void too.
    second, data = rolled(client, league, battle)
    assert [f["rule"] for f in data["findings"]] == ["IAAPA Error Correction II"]
    assert ukraine(client, league)["void_rolls"] == [first, second]

    recognise(client, league, "allies", first)
    battle = ukraine(client, league)
    assert (battle["status"], battle["void_rolls"], battle["rolls"]) == (
        "declared",
        [first, second],
        [],
    )
    third, data = rolled(client, league, battle)
    assert "findings" not in data  # the correct units, weighed as round 1
    battle = ukraine(client, league)
    assert (battle["void_rolls"], battle["rolls"]) == ([first, second], [third])
    assert battle["status"] in ("in-progress", "must-pause", "decided")
    assert len(battle["result"]["rounds"]) == 1  # the void rolls are no rounds of it


def test_adding_units_to_the_battle_fought_again_is_a_rolling_error(
    client: FlaskClient, league: League
) -> None:
    """IAAPA Error Correction II, "He may not add additional attacking units to the battle":
    the armour declared where there was none is not among the correct units."""
    assert submit(client, league, "allies", PRECOMBAT).status_code == 201
    first, _ = rolled(client, league, ukraine(client, league))
    recognise(client, league, "allies", first)
    as_declared = {**ukraine(client, league), "next_roll": None}
    _, data = rolled(client, league, as_declared)
    messages = [f["message"] for f in data["findings"]]
    assert messages == [
        "attacker: 1 ARM rolled, 0 in the correct units of battle #1, fought again after the "
        f'combat declaration error is recognised (entry #{first + 2}): "if a player enters '
        'the wrong type of unit then its roll will be ignored"'
    ]


def test_a_ruling_the_minister_overrides_leaves_the_battle_standing(
    client: FlaskClient, league: League
) -> None:
    """The Minister of Law decides where the guidelines do not fit ("If there is any
    disagreement whether the intent is clear, the Minister of Law will decide on a case by
    case basis"): overriding the proposed ruling, every roll of the battle counts."""
    assert submit(client, league, "allies", PRECOMBAT).status_code == 201
    first, _ = rolled(client, league, ukraine(client, league))
    proposed = next(
        e["seq"]
        for e in ledger(client, league)
        if e["kind"] == "ruling" and e["data"]["status"] == "proposed"
    )
    decided = client.post(
        f"/api/v1/games/{league.game}/rulings",
        data=json.dumps(
            {"refers_to": proposed, "verdict": "override", "reason": "the intent is clear"}
        ),
        headers={**league.auth("minister"), "Content-Type": "application/json"},
    )
    assert decided.status_code == 201, decided.get_data(as_text=True)
    battle = ukraine(client, league)
    assert (battle["void_rolls"], battle["rolls"]) == ([], [first])
    assert battle["result"] is not None and len(battle["result"]["rounds"]) == 1


def test_the_game_page_shows_the_void_battle_and_the_roller_the_correct_units(
    app: Flask, client: FlaskClient, league: League
) -> None:
    assert submit(client, league, "allies", PRECOMBAT).status_code == 201
    first, _ = rolled(client, league, ukraine(client, league))
    allies = logged_in(app, league.ctx, "allies@example.org")
    page = text(allies.get(f"/games/{league.game}").get_data(as_text=True))
    assert f"void void: a combat declaration error, and its rolls (#{first}) do not count" in page
    form = allies.get(f"/games/{league.game}/roll?battle=1").get_data(as_text=True)
    assert [field_value(form, f"attacker_{u}") for u in ("INF", "ARM", "FTR")] == ["3", "0", "1"]
    assert field_value(form, "defender_ARM") == "2"


def test_the_roll_mail_says_the_battle_is_void(
    app: Flask, client: FlaskClient, league: League
) -> None:
    """Both players are told, with the dice, that the roll does not count and what to do."""
    assert submit(client, league, "allies", PRECOMBAT).status_code == 201
    first, _ = rolled(client, league, ukraine(client, league))
    mail = " ".join(mailed_entry(app, league, first).split())
    assert (
        f"Weighed against battle #1 of entry #{first - 1}: error: battle #1 (Ukraine S.S.R.)"
        in mail
    )
    assert "this roll does not count. To fight it again, send an error-recognition note" in mail
