"""IAAPA Declaration and Battle Resolution Procedures, Amendments and Special Orders: when a
turn through the service may still be changed. A late amendment is recorded all the same
(its timing matters under Error Correction VII) and marked not in force."""

from __future__ import annotations

import json

from flask.testing import FlaskClient

from tests.conftest import League
from tests.integration.test_turns import (
    GERMANY_PRE,
    USSR_POST,
    USSR_PRE,
    get,
    rebuilt,
    roll,
    submit,
)


def test_combat_moves_amended_before_the_first_die_only(
    client: FlaskClient, league: League
) -> None:
    """IAAPA Amendments and Special Orders: "The attacker may modify his combat moves provided
    that he sends an updated pre-combat turn before rolling any dice. No changes will be
    allowed once any combat dice are rolled." """
    submit(client, league, "allies", USSR_PRE)
    amended = submit(client, league, "allies", USSR_PRE.replace("8 inf ($24)", "6 inf ($18)"))
    data = json.loads(amended.get_json()["entry"]["body"])["data"]
    assert (data["amends"], data["in_force"]) == (2, 1)
    request = {
        "round": 1,
        "turn": 1,
        "country": "USSR",
        "battle": "East Europe",
        "attacker": [{"unit": "FTR", "count": 1}],
        "defender": [{"unit": "INF", "count": 3}],
    }
    assert roll(client, league, "allies", request).status_code == 201
    late = submit(client, league, "allies", USSR_PRE)
    data = json.loads(late.get_json()["entry"]["body"])["data"]
    assert (data["amends"], data["in_force"]) == (3, 0)
    assert "No changes will be allowed once any combat dice are rolled" in data["late"]
    assert get(client, league, "battles")[1]["rolls"] == [4]


def test_noncombat_moves_amended_until_the_opponents_next_precombat_turn(
    client: FlaskClient, league: League
) -> None:
    """IAAPA Amendments and Special Orders: "The attacker may modify his non-combat or unit
    placements at any time as long as the changes are sent out before his opponent sends in
    his pre-combat moves." """
    submit(client, league, "allies", USSR_PRE)
    submit(client, league, "allies", USSR_POST)
    amended_text = USSR_POST.replace("Russia 8 INF", "Karelia 8 INF")
    amended = submit(client, league, "allies", amended_text)
    assert amended.status_code == 201, amended.get_data(as_text=True)
    data = json.loads(amended.get_json()["entry"]["body"])["data"]
    assert (data["amends"], data["in_force"]) == (3, 1)
    kept = get(client, league, "position")
    assert kept["turn"]["power"] == "Germany"
    assert rebuilt(league, 4) == kept
    germany = submit(client, league, "axis", GERMANY_PRE)
    assert germany.status_code == 201, germany.get_data(as_text=True)
    late = submit(client, league, "allies", USSR_POST)
    data = json.loads(late.get_json()["entry"]["body"])["data"]
    assert data["in_force"] == 0 and "before his opponent sends in his pre-combat" in data["late"]
    assert get(client, league, "position")["position"] == kept["position"]
