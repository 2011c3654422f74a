"""Low Luck as a per-game option on the dice server (issue 18, point 3): a game created with
it records so in its genesis, and its battle rounds, asked for by the same request as dice
rounds (API and roller page alike), are ``low-luck-roll`` entries holding the sure hits and
the remainder dice, which the standalone verifier recomputes once the seed is revealed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from dice_server.services import ServiceContext
from dice_server.services.games import end_game
from tests.conftest import League, battle, logged_in, pbem_cli, verify_game


def bodies(client: FlaskClient, league: League, game: int) -> list[dict[str, Any]]:
    got = client.get(f"/api/v1/games/{game}/ledger", headers=league.auth("axis"))
    assert got.status_code == 200
    return [json.loads(e["body"]) for e in got.get_json()["entries"]]


def test_the_genesis_says_low_luck_and_a_roll_is_thrown_by_it(
    client: FlaskClient, league: League, low_luck_game: int
) -> None:
    genesis = bodies(client, league, low_luck_game)[0]
    assert genesis["data"]["low_luck"] == 1
    assert "low_luck" not in bodies(client, league, league.game)[0]["data"]  # dice: as before
    got = client.post(
        f"/api/v1/games/{low_luck_game}/rolls", json=battle(), headers=league.auth("allies")
    )
    assert got.status_code == 201, got.get_json()
    entry = bodies(client, league, low_luck_game)[-1]
    assert entry["kind"] == "low-luck-roll"
    data = entry["data"]
    # UK: 8 INF, 1 ARM, 2 FTR against 10 INF and an AA gun (the conftest's battle).
    layout = [
        ("aa", "defender", 2),
        ("units", "attacker", 8 + 3 + 6),
        ("units", "defender", 20),
    ]
    # An AA hit (a die at 2 or less) stops the throw: the downed fighter's power is the
    # attacker's to take out, in his next roll (adjudicator.rolls.lowluck).
    thrown = 1 if data["volleys"][0]["hits"] else 3
    assert [(v["fire"], v["side"], v["power"]) for v in data["volleys"]] == layout[:thrown]
    assert len(data["dice"]) == thrown  # every volley has a remainder here: one die each
    for volley in data["volleys"]:
        sure, rest = divmod(volley["power"], 6)
        assert volley["hits"] == sure + (volley["dice"][0] <= rest)
    # The same request in the dice game is a dice round, as ever.
    plain = client.post(
        f"/api/v1/games/{league.game}/rolls", json=battle(), headers=league.auth("allies")
    )
    assert plain.status_code == 201
    assert bodies(client, league, league.game)[-1]["kind"] == "roll"


def test_the_roller_page_throws_by_low_luck_too(
    app: Flask, ctx: ServiceContext, league: League, low_luck_game: int
) -> None:
    from tests.integration.test_pages import csrf, hidden

    page_client = logged_in(app, ctx, "allies@example.org")
    action = f"/games/{low_luck_game}/roll"
    page = page_client.get(action).get_data(as_text=True)
    form = {
        "csrf_token": csrf(page),
        "nonce": hidden(page, "nonce"),
        "round": "1",
        "turn": "1",
        "country": "UK",
        "battle": "West Europe",
        "attacker_INF": "3",
        "defender_INF": "2",
    }
    done = page_client.post(action, data=form)
    assert done.status_code == 302, done.get_data(as_text=True)[:500]
    client = app.test_client()
    entry = bodies(client, league, low_luck_game)[-1]
    assert entry["kind"] == "low-luck-roll"
    assert [(v["power"], v["sure"], v["remainder"]) for v in entry["data"]["volleys"]] == [
        (3, 0, 3),
        (4, 0, 4),
    ]


def test_the_standalone_verifier_recomputes_the_low_luck_dice(
    client: FlaskClient, ctx: ServiceContext, league: League, low_luck_game: int, tmp_path: Path
) -> None:
    for round_ in (1, 2, 3):
        got = client.post(
            f"/api/v1/games/{low_luck_game}/rolls",
            json=battle(round=round_),
            headers=league.auth("allies"),
        )
        assert got.status_code == 201
    end_game(ctx, low_luck_game, status="finished", winner="allies")
    done = verify_game(client, league, low_luck_game, tmp_path)
    assert done.returncode == 0, done.stdout
    assert "3 of 3 rolls under the commitment of entry 1 recomputed" in done.stdout


def test_pbem_game_create_low_luck(app: Flask, league: League) -> None:
    args = ["game", "create", "--axis", "axis@example.org", "--allies", "allies@example.org"]
    done = pbem_cli(app, *args, "--low-luck")
    assert done.exit_code == 0, done.output
    number = int(done.stdout.strip())
    assert bodies(app.test_client(), league, number)[0]["data"]["low_luck"] == 1


def test_a_rule_remembered_wrongly_is_caught_under_the_lock(
    client: FlaskClient, league: League, low_luck_game: int
) -> None:
    """A roll reads its game's Low Luck option and ruleset from a per-process memory (both
    are fixed when a game is created) and checks them again under the game's lock: were
    the memory wrong (a database restored or replaced under a running server), the roll is
    still thrown by the game's own rules, and the memory mended."""
    from dice_server.services import rolls

    database = str(league.ctx.sessions.kw["bind"].url)
    rolls._RULES[(database, low_luck_game)] = (False, "classic")
    rolls._RULES[(database, league.game)] = (True, "big_world_1942")
    for game, kind in ((low_luck_game, "low-luck-roll"), (league.game, "roll")):
        got = client.post(
            f"/api/v1/games/{game}/rolls", json=battle(), headers=league.auth("allies")
        )
        assert got.status_code == 201, got.get_json()
        assert bodies(client, league, game)[-1]["kind"] == kind
    assert rolls._RULES[(database, low_luck_game)] == (True, "classic")
    assert rolls._RULES[(database, league.game)] == (False, "classic")
