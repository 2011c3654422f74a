"""Big World 1942 as a ruleset chosen per game on the dice server (issue 18, point 4): a game
created with it records so in its genesis; its battle rounds, asked for by the same request
as a Classic round (API and roller page alike), are thrown and read by Big World's rules;
the standalone verifier checks them like any roll; what the ruleset does not have is
refused naming the field, and nothing is recorded."""

from __future__ import annotations

import email
import json
from email import policy
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from dice_server.mail.delivery import deliver_due
from dice_server.services import ServiceContext
from dice_server.services.games import create_game, end_game
from tests.conftest import League, logged_in, pbem_cli, verify_game

USSR_PRE = (
    Path(__file__).resolve().parents[1] / "data" / "turns" / "02-ussr-r1-precombat.txt"
).read_text()


@pytest.fixture
def big_world_game(ctx: ServiceContext, league: League) -> int:
    entry = create_game(
        ctx, axis="axis@example.org", allies="allies@example.org", ruleset="big_world_1942"
    )
    return entry.game_number


def bodies(client: FlaskClient, league: League, game: int) -> list[dict[str, Any]]:
    got = client.get(f"/api/v1/games/{game}/ledger", headers=league.auth("axis"))
    assert got.status_code == 200
    return [json.loads(e["body"]) for e in got.get_json()["entries"]]


def attack(**overrides: Any) -> dict[str, Any]:
    """Germany attacks Eastern Poland with infantry, artillery and a fighter."""
    request: dict[str, Any] = {
        "round": 1,
        "turn": 1,
        "country": "Germany",
        "battle": "Eastern Poland",
        "attacker": [
            {"unit": "INF", "count": 3},
            {"unit": "ART", "count": 2},
            {"unit": "FTR", "count": 1},
        ],
        "defender": [{"unit": "INF", "count": 4}, {"unit": "AA", "count": 1}],
    }
    request.update(overrides)
    return request


def test_the_genesis_names_the_ruleset_and_keeps_no_position(
    client: FlaskClient, league: League, big_world_game: int
) -> None:
    genesis = bodies(client, league, big_world_game)[0]["data"]
    assert genesis["ruleset"] == "big_world_1942"
    assert "position" not in genesis
    classic = bodies(client, league, league.game)[0]["data"]
    assert "ruleset" not in classic and "position" in classic  # a Classic genesis as before


def test_a_round_is_thrown_by_big_world_rules(
    client: FlaskClient, ctx: ServiceContext, league: League, big_world_game: int
) -> None:
    got = client.post(
        f"/api/v1/games/{big_world_game}/rolls", json=attack(), headers=league.auth("axis")
    )
    assert got.status_code == 201, got.get_json()
    entry = bodies(client, league, big_world_game)[-1]
    assert entry["kind"] == "roll"
    data = entry["data"]
    assert data["ruleset"] == "big_world_1942"
    assert [(g["side"], g["unit"], g["count"], g["hit_on"]) for g in data["groups"]] == [
        ("defender", "AA", 1, 1),
        ("attacker", "INF", 2, 2),  # paired with the two artillery
        ("attacker", "INF", 1, 1),
        ("attacker", "ART", 2, 2),
        ("attacker", "FTR", 1, 3),
        ("defender", "INF", 4, 2),
    ]
    assert data["groups"][1]["support"] == "ART"
    assert sum(len(g["dice"]) for g in data["groups"]) == len(data["dice"]) == 11
    # The mail to the players (delivered to the maildir) carries the Big World reading.
    from tests.integration.test_mail import courier_for

    app = client.application
    report = deliver_due(courier_for(app, MAIL_TRANSPORT="maildir"))
    assert not report.failed
    maildir = Path(app.instance_path) / "maildir" / "new"
    texts = [
        email.message_from_bytes(p.read_bytes(), policy=policy.default) for p in maildir.iterdir()
    ]
    rolls = [m for m in texts if "Eastern Poland round 1" in str(m["Subject"])]
    assert rolls, [str(m["Subject"]) for m in texts]
    body = rolls[0].get_body(("plain",))
    assert body is not None
    content = body.get_content()
    assert "Read by the Big World rules" in content
    assert "Attacker INF x2 (hit on 2 or less) supported by ART" in content


def test_the_engine_reads_the_entry_the_same_way(
    client: FlaskClient, league: League, big_world_game: int
) -> None:
    """The reading of a recorded round: each side's hits are its groups' dice at or under
    their numbers, but a fighter the AA gun downed does not fire."""
    got = client.post(
        f"/api/v1/games/{big_world_game}/rolls", json=attack(), headers=league.auth("axis")
    )
    assert got.status_code == 201
    data = bodies(client, league, big_world_game)[-1]["data"]
    from adjudicator.bigworld.resolve import resolve_big_world
    from adjudicator.bigworld.roll import big_world_roll_document

    played = resolve_big_world(big_world_roll_document(data), void=True)
    rounds: list[dict[str, Any]] = played["rounds"]  # type: ignore[assignment]
    aa_hit = data["groups"][0]["hits"]
    assert rounds[0]["aa_hits"] == aa_hit
    fighter = data["groups"][4]
    expected = sum(g["hits"] for g in data["groups"][1:4])
    expected += 0 if aa_hit else fighter["hits"]
    assert rounds[0]["attacker_hits"] == expected
    assert rounds[0]["defender_hits"] == data["groups"][5]["hits"]


@pytest.mark.parametrize(
    ("overrides", "field", "words"),
    [
        (
            {"attacker": [{"unit": "TANK", "count": 2}]},
            "attacker[0].unit",
            'no unit "TANK" in Big World 1942',
        ),
        ({"battle": "Atlantis"}, "battle", "Eastern Germany, SZ 5"),
        ({"country": "Italy"}, "country", "China"),
        (
            {"bombard": [{"unit": "DD", "count": 1}]},
            "bombard",
            "Destroyer Bombard",
        ),
        ({"options": ["subs-first"]}, "options", "Big World's"),
        ({"defender": [{"unit": "IC", "count": 1}]}, "defender[0].unit", "use one of"),
    ],
)
def test_what_big_world_has_not_is_refused_and_nothing_recorded(
    client: FlaskClient,
    league: League,
    big_world_game: int,
    overrides: dict[str, Any],
    field: str,
    words: str,
) -> None:
    before = len(bodies(client, league, big_world_game))
    got = client.post(
        f"/api/v1/games/{big_world_game}/rolls",
        json=attack(**overrides),
        headers=league.auth("axis"),
    )
    assert got.status_code == 400, got.get_json()
    error = got.get_json()
    assert error["field"] == field
    assert words in error["error"]
    assert len(bodies(client, league, big_world_game)) == before


def test_a_big_world_unit_in_a_classic_game_is_refused(client: FlaskClient, league: League) -> None:
    got = client.post(
        f"/api/v1/games/{league.game}/rolls", json=attack(), headers=league.auth("axis")
    )
    assert got.status_code == 400
    assert got.get_json()["field"] == "attacker[1].unit"  # ART: not a Classic unit


def test_turns_and_positions_are_classic_only(
    client: FlaskClient, league: League, big_world_game: int
) -> None:
    before = len(bodies(client, league, big_world_game))
    got = client.post(
        f"/api/v1/games/{big_world_game}/turns",
        json={"text": USSR_PRE},
        headers=league.auth("axis"),
    )
    assert got.status_code == 409
    assert "big_world_1942" in got.get_json()["error"]
    assert len(bodies(client, league, big_world_game)) == before
    position = client.get(f"/api/v1/games/{big_world_game}/position", headers=league.auth("axis"))
    assert position.status_code == 409


def test_the_game_pages_draw_no_classic_board_for_it(
    app: Flask, ctx: ServiceContext, league: League, big_world_game: int
) -> None:
    page_client = logged_in(app, ctx, "axis@example.org")
    page = page_client.get(f"/games/{big_world_game}").get_data(as_text=True)
    assert "Rules: Big World 1942" in page
    assert f"/games/{big_world_game}/board" not in page
    assert "to move" not in page
    assert page_client.get(f"/games/{big_world_game}/board.svg").status_code == 409
    listed = page_client.get("/").get_data(as_text=True)
    assert "Big World 1942" in listed


def test_the_roller_page_offers_big_world_units(
    app: Flask, ctx: ServiceContext, league: League, big_world_game: int
) -> None:
    from tests.integration.test_pages import csrf, hidden

    page_client = logged_in(app, ctx, "axis@example.org")
    action = f"/games/{big_world_game}/roll"
    page = page_client.get(action).get_data(as_text=True)
    assert 'name="attacker_ART"' in page and 'name="bombard_DD"' in page
    assert 'value="China"' in page
    classic_page = page_client.get(f"/games/{league.game}/roll").get_data(as_text=True)
    assert 'name="attacker_ART"' not in classic_page
    form = {
        "csrf_token": csrf(page),
        "nonce": hidden(page, "nonce"),
        "round": "1",
        "turn": "1",
        "country": "Germany",
        "battle": "Eastern Poland",
        "attacker_INF": "2",
        "attacker_ART": "1",
        "defender_INF": "2",
    }
    done = page_client.post(action, data=form)
    assert done.status_code == 302, done.get_data(as_text=True)[:500]
    data = bodies(app.test_client(), league, big_world_game)[-1]["data"]
    assert [(g["unit"], g["count"], g["hit_on"]) for g in data["groups"]] == [
        ("INF", 1, 2),
        ("INF", 1, 1),
        ("ART", 1, 2),
        ("INF", 2, 2),
    ]
    shown = page_client.get(done.headers["Location"]).get_data(as_text=True)
    assert "Read by the Big World rules" in shown


def test_the_standalone_verifier_recomputes_big_world_dice(
    client: FlaskClient, ctx: ServiceContext, league: League, big_world_game: int, tmp_path: Path
) -> None:
    sea = {
        "battle": "SZ 5",
        "attacker": [{"unit": "SUB", "count": 2}, {"unit": "BB", "count": 1}],
        "defender": [{"unit": "CA", "count": 1}, {"unit": "TRN", "count": 2}],
        "options": ["heavy-bombers", "super-subs"],
    }
    for request in (attack(), attack(round=2), attack(**sea)):
        got = client.post(
            f"/api/v1/games/{big_world_game}/rolls", json=request, headers=league.auth("axis")
        )
        assert got.status_code == 201, got.get_json()
    end_game(ctx, big_world_game, status="finished", winner="axis")
    done = verify_game(client, league, big_world_game, tmp_path)
    assert done.returncode == 0, done.stdout
    assert "3 of 3 rolls under the commitment of entry 1 recomputed" in done.stdout
    reveal = bodies(client, league, big_world_game)[-1]["data"]
    assert reveal.get("rated") == 0  # not the league's rated 2nd edition


def test_pbem_game_create_ruleset(app: Flask, league: League) -> None:
    args = ["game", "create", "--axis", "axis@example.org", "--allies", "allies@example.org"]
    done = pbem_cli(app, *args, "--ruleset", "big_world_1942")
    assert done.exit_code == 0, done.output
    number = int(done.stdout.strip())
    assert bodies(app.test_client(), league, number)[0]["data"]["ruleset"] == "big_world_1942"
    refused = pbem_cli(app, *args, "--ruleset", "big_world_1942", "--low-luck")
    assert refused.exit_code != 0
    assert "Classic games only" in refused.output


def test_pbem_battle_replay_reads_big_world_rounds(
    client: FlaskClient, ctx: ServiceContext, league: League, big_world_game: int, tmp_path: Path
) -> None:
    """Two rounds of one Big World battle replayed from the exported ledger: the first
    entry's units are the forces, each entry a round, read by Big World's rules (the
    fighter's AA dice in round 1 only)."""
    from click.testing import CliRunner

    from dice_server.cli import main
    from dice_server.services.games import export_ledger

    # Too many on each side for either to be wiped out in one round.
    forces = {
        "attacker": [
            {"unit": "INF", "count": 25},
            {"unit": "ART", "count": 2},
            {"unit": "FTR", "count": 1},
        ],
        "defender": [{"unit": "INF", "count": 20}, {"unit": "AA", "count": 1}],
    }
    seqs = []
    for round_ in (1, 2):
        got = client.post(
            f"/api/v1/games/{big_world_game}/rolls",
            json=attack(round=round_, **forces),
            headers=league.auth("axis"),
        )
        assert got.status_code == 201
        seqs.append(str(bodies(client, league, big_world_game)[-1]["seq"]))
    path = tmp_path / "ledger.json"
    path.write_text(json.dumps(export_ledger(ctx, big_world_game, None)))
    args = ["battle", "replay", str(path), "--seq", seqs[0], "--seq", seqs[1]]
    document = CliRunner().invoke(main, [*args, "--document"])
    assert document.exit_code == 0, document.output
    doc = json.loads(document.output)
    assert doc["ruleset"] == "big_world_1942" and len(doc["rounds"]) == 2
    assert "aa" in doc["rounds"][0] and "aa" not in doc["rounds"][1]
    done = CliRunner().invoke(main, [*args, "--json"])
    assert done.exit_code == 0, done.output
    result = json.loads(done.output)
    assert result["ruleset"] == "big_world_1942"
    assert result["start"]["attacker"] == {"INF": 25, "ART": 2, "FTR": 1}
    assert len(result["rounds"]) == 2 and result["outcome"] == "continues"
    assert result["rounds"][1]["aa_hits"] == 0
    text = CliRunner().invoke(main, args)
    assert text.exit_code == 0 and "Round 2" in text.output, text.output
