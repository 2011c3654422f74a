"""Proposed rulings settled by the Minister of Law or by both players (issue 16, point 2),
through the API with the web test client.

IAAPA Error Correction I: "Whenever possible, players are encouraged to seek their own
solutions to error correction; any solution is acceptable as long as there is mutual
agreement between the players. If agreement cannot be reached, then the IAAPA guidelines are
to be applied."
"""

from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient

from dice_server.services.proposals import propose
from tests.conftest import League

MUTUAL = "any solution is acceptable as long as there is mutual agreement between the players"
PROPOSAL = {
    "about": [1],
    "rule": "Error Correction III, Too many units",
    "decision": "the first 4 ARM dice stand, the last 3 are ignored; re-roll from round 2",
    "dice": {"kept": [[1, 0], [1, 1]], "dropped": [[1, 2]]},
    "to_roll": [],
    "reroll_from_round": 2,
    "void_battles": [],
    "options": [],
}


def post(client: FlaskClient, league: League, body: Any, who: str) -> Any:
    return client.post(
        f"/api/v1/games/{league.game}/rulings",
        data=json.dumps(body),
        headers={**league.auth(who), "Content-Type": "application/json"},
    )


def proposed(league: League) -> int:
    entry = propose(league.ctx, league.game, PROPOSAL)
    assert entry is not None
    return entry.seq


def body_of(answer: Any) -> dict[str, Any]:
    assert answer.status_code == 201, answer.get_json()
    return dict(json.loads(answer.get_json()["body"]))


def test_a_proposal_is_recorded_once(league: League) -> None:
    seq = proposed(league)
    assert propose(league.ctx, league.game, PROPOSAL) is None  # the same ruling again
    assert seq == 2


def test_the_minister_confirms_amends_or_overrides(client: FlaskClient, league: League) -> None:
    seq = proposed(league)
    confirm = {"refers_to": seq, "verdict": "confirm", "reason": "as the guidelines say"}
    assert post(client, league, confirm, "axis").status_code == 403
    assert post(client, league, {**confirm, "verdict": "amend"}, "minister").status_code == 400
    amended = body_of(
        post(
            client,
            league,
            {**confirm, "verdict": "amend", "decision": "re-roll from round 1 instead"},
            "minister",
        )
    )
    assert amended["data"]["status"] == "amended" and amended["data"]["refers_to"] == seq
    assert amended["data"]["decision"] == "re-roll from round 1 instead"
    again = post(client, league, confirm, "minister")
    assert again.status_code == 409 and "settled" in again.get_json()["error"]


def test_both_players_agreeing_the_same_correction_makes_it_stand(
    client: FlaskClient, league: League
) -> None:
    assert MUTUAL in __doc__.replace("\n", " ")
    seq = proposed(league)
    agree = {"refers_to": seq, "verdict": "agree", "correction": "Re-roll the whole battle."}
    first = body_of(post(client, league, agree, "axis"))
    assert first["data"]["status"] == "agreement"
    assert post(client, league, agree, "axis").status_code == 409  # his own again
    assert post(client, league, agree, "mentor").status_code == 403
    other = {**agree, "correction": "Keep the battle as rolled."}
    assert body_of(post(client, league, other, "allies"))["data"]["status"] == "agreement"
    same = {**agree, "correction": "re-roll  the whole battle."}  # the same words
    settled = body_of(post(client, league, same, "allies"))
    assert settled["data"]["status"] == "agreed"
    override = {"refers_to": seq, "verdict": "override", "reason": "late"}
    assert post(client, league, override, "minister").status_code == 409


def test_a_decision_names_a_request_or_a_proposal(client: FlaskClient, league: League) -> None:
    genesis = {"refers_to": 1, "verdict": "confirm", "reason": "x"}
    refused = post(client, league, genesis, "minister")
    assert (
        refused.status_code == 400
        and "no request or proposed ruling" in refused.get_json()["error"]
    )
    missing = post(client, league, {**genesis, "refers_to": 99}, "minister")
    assert missing.status_code == 400


def test_the_minister_overrides_from_his_dashboard(app: Any, league: League) -> None:
    import re

    from tests.conftest import logged_in

    seq = proposed(league)
    minister = logged_in(app, league.ctx, "minister@example.org")
    html = minister.get("/minister").get_data(as_text=True)
    assert f"entry #{seq}" in html and "proposed ruling by the rules engine" in html
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html)
    assert token is not None
    answer = minister.post(
        f"/minister/games/{league.game}/rulings",
        data={
            "csrf_token": token.group(1),
            "refers_to": str(seq),
            "verdict": "override",
            "reason": "the players had agreed by mail before the roll",
        },
    )
    assert answer.status_code == 303
    html = minister.get("/minister").get_data(as_text=True)
    assert "Nothing waits for a decision" in html and "decision recorded as entry #3" in html


def test_the_players_agree_a_correction_on_the_game_page(app: Any, league: League) -> None:
    import re

    from tests.conftest import logged_in

    seq = proposed(league)
    for n, who in enumerate(("axis", "allies")):
        player = logged_in(app, league.ctx, f"{who}@example.org")
        page = player.get(f"/games/{league.game}").get_data(as_text=True)
        assert "Rulings to settle" in page and PROPOSAL["decision"] in page
        token = re.search(r'name="csrf_token" value="([^"]+)"', page)
        assert token is not None
        answer = player.post(
            f"/games/{league.game}/rulings/agree",
            data={"csrf_token": token.group(1), "refers_to": str(seq), "correction": "Re-roll it"},
        )
        assert answer.status_code == 303
        shown = player.get(f"/games/{league.game}").get_data(as_text=True)
        assert f"Recorded as entry #{seq + 1 + n}" in shown
    page = logged_in(app, league.ctx, "axis@example.org").get(f"/games/{league.game}")
    assert "Rulings to settle" not in page.get_data(as_text=True)  # settled: it stands


def test_the_roller_offers_the_rolls_a_ruling_requires(app: Any, league: League) -> None:
    from tests.conftest import logged_in

    roll = {
        "battle": "West Europe",
        "round": 2,
        "turn": 1,
        "country": "UK",
        "attacker": [{"unit": "INF", "count": 3}, {"unit": "ARM", "count": 1}],
        "defender": [{"unit": "INF", "count": 2}],
    }
    entry = propose(league.ctx, league.game, {**PROPOSAL, "about": [1, 1], "to_roll": [roll]})
    assert entry is not None
    player = logged_in(app, league.ctx, "allies@example.org")
    page = player.get(f"/games/{league.game}/roll").get_data(as_text=True)
    assert (
        "Rolls a ruling requires" in page and f"ruling #{entry.seq}: West Europe, round 2" in page
    )
    filled = player.get(f"/games/{league.game}/roll?ruling={entry.seq}&roll=0")
    html = filled.get_data(as_text=True)
    assert "Filled in from ruling" in html
    import re

    field = re.search(r'<input[^>]*name="attacker_INF"[^>]*>', html)
    assert field is not None and 'value="3"' in field.group()
    overridden = {"refers_to": entry.seq, "verdict": "override", "reason": "no re-roll"}
    assert body_of(post(app.test_client(), league, overridden, "minister"))
    again = player.get(f"/games/{league.game}/roll").get_data(as_text=True)
    assert "Rolls a ruling requires" not in again


def test_pbem_ruling_decide_is_the_same_decision(app: Any, league: League) -> None:
    from click.testing import CliRunner

    from dice_server.cli import main

    seq = proposed(league)
    env = {
        "PBEM_INSTANCE_PATH": str(app.instance_path),
        "PBEM_DATABASE_URL": str(app.config["DATABASE_URL"]),
    }
    runner = CliRunner(env=env)
    args = ["ruling", "decide", str(league.game), str(seq), "--verdict", "confirm"]
    by_player = runner.invoke(main, [*args, "--minister", "axis@example.org", "--reason", "x"])
    assert by_player.exit_code == 1 and "only the Minister of Law" in by_player.stderr
    done = runner.invoke(
        main, [*args, "--minister", "minister@example.org", "--reason", "as proposed"]
    )
    assert done.exit_code == 0, done.stderr
    assert done.stdout.strip() == str(seq + 1)
    again = runner.invoke(main, [*args, "--minister", "minister@example.org", "--reason", "y"])
    assert again.exit_code == 1 and "settled" in again.stderr
