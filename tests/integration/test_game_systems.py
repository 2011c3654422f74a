"""Two more game systems on the dice server (issue 19): a game records its system at
creation, only that system's roll kinds are thrown in it (through ``.../rolls`` with a
``"kind"``, the kind's own path, or its roller page), each entry reads in the mail, and the
standalone verifier recomputes every die; a roll of another system, a unit the system
lacks, a CV out of range or a target a unit cannot fire at is refused naming the field,
and nothing is recorded."""

from __future__ import annotations

import email
import json
from email import policy
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from dice_server.kinds import system_rolls
from dice_server.kinds.systems import GAME_SYSTEMS
from dice_server.mail.delivery import deliver_due
from dice_server.services import ServiceContext
from dice_server.services.games import create_game, end_game
from tests.conftest import League, logged_in, pbem_cli, verify_game

WILL = "triumph-of-the-will"
TT = "triumph-and-tragedy"


@pytest.fixture
def will_game(ctx: ServiceContext, league: League) -> int:
    return create_game(
        ctx, axis="axis@example.org", allies="allies@example.org", system=WILL
    ).game_number


@pytest.fixture
def tt_game(ctx: ServiceContext, league: League) -> int:
    return create_game(
        ctx, axis="axis@example.org", allies="allies@example.org", system=TT
    ).game_number


def bodies(client: FlaskClient, league: League, game: int) -> list[dict[str, Any]]:
    got = client.get(f"/api/v1/games/{game}/ledger", headers=league.auth("axis"))
    assert got.status_code == 200
    return [json.loads(e["body"]) for e in got.get_json()["entries"]]


def post(client: FlaskClient, league: League, game: int, body: Any, path: str = "rolls") -> Any:
    return client.post(f"/api/v1/games/{game}/{path}", json=body, headers=league.auth("axis"))


BATTLE = {
    "kind": "will-battle-roll",
    "turn": 3,
    "side": "German",
    "area": "Ukraine",
    "boxes": [
        {"attacker": [{"unit": "panzer"}], "defender": [{"unit": "infantry"}], "air": 0},
        {"attacker": [{"unit": "6SS"}], "defender": [{"unit": "infantry"}], "air": 0},
    ],
}
AIR = {"kind": "will-air-roll", "turn": 3, "side": "German", "german_hq": 2, "japanese_hq": 1}
REBELLION = {
    "kind": "will-rebel-roll",
    "turn": 3,
    "side": "Japanese",
    "area": "Poland",
    "adjacent_rebellions": 2,
}
ATOMIC = {"kind": "will-atomic-roll", "turn": 9, "side": "Japanese", "target": "fleet"}
ROUND = {
    "kind": "tt-combat-round",
    "year": 1939,
    "season": "Fall",
    "area": "North Sea",
    "battle": "sea",
    "round": 1,
    "attacker": "Axis",
    "defender": "West",
    "units": {
        "attacker": [
            {"unit": "Fleet", "cv": 3, "target": "N"},
            {"unit": "Air Force", "cv": 2, "target": "N"},
        ],
        "defender": [
            {"unit": "Carrier", "cv": 3, "target": "A"},
            {"unit": "Fleet", "cv": 4, "target": "N"},
            {"unit": "Convoy", "cv": 2},
        ],
    },
}
ORDER = {"kind": "tt-turn-order", "year": 1937, "faction": "USSR"}


def without_kind(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k != "kind"}


def test_the_genesis_records_the_system_and_a_classic_genesis_is_unchanged(
    client: FlaskClient, league: League, will_game: int, tt_game: int
) -> None:
    for game, system in ((will_game, WILL), (tt_game, TT)):
        genesis = bodies(client, league, game)[0]["data"]
        assert genesis["system"] == system
        assert "position" not in genesis and "ruleset" not in genesis
    classic = bodies(client, league, league.game)[0]["data"]
    assert "system" not in classic and "position" in classic
    assert GAME_SYSTEMS == ("aa-classic", TT, WILL)


def test_every_triumph_of_the_will_roll_is_thrown_and_mailed(
    app: Flask, client: FlaskClient, league: League, will_game: int
) -> None:
    for body in (BATTLE, AIR, REBELLION, ATOMIC):
        got = post(client, league, will_game, body)
        assert got.status_code == 201, got.get_json()
        entry = bodies(client, league, will_game)[-1]
        assert entry["kind"] == body["kind"]
        data = entry["data"]
        assert data["system"] == WILL and data["by"] == "axis@example.org"
        assert data["dice"] == [d for g in data["groups"] for d in g["dice"]]
    battle = bodies(client, league, will_game)[1]["data"]
    for group in battle["groups"]:  # each die with its modifiers and result
        attacker = group["attacker"]
        assert attacker["total"] == attacker["die"] + sum(m["add"] for m in attacker["modifiers"])
    assert battle["winner"] in ("German", "Japanese")
    from tests.integration.test_mail import courier_for

    report = deliver_due(courier_for(app, MAIL_TRANSPORT="maildir"))
    assert not report.failed
    maildir = Path(app.instance_path) / "maildir" / "new"
    mails = [
        email.message_from_bytes(p.read_bytes(), policy=policy.default) for p in maildir.iterdir()
    ]
    subjects = [str(m["Subject"]) for m in mails]
    assert any("Air superiority, turn 3" in s for s in subjects), subjects
    air = next(m for m in mails if "Air superiority, turn 3" in str(m["Subject"]))
    text = air.get_body(("plain",))
    assert text is not None
    assert "has air superiority this turn" in text.get_content()
    assert any("Rebellion roll for Poland" in s for s in subjects)


def test_the_kinds_own_paths_take_the_same_body(
    client: FlaskClient, league: League, will_game: int, tt_game: int
) -> None:
    got = post(client, league, will_game, without_kind(AIR), "will-air-rolls")
    assert got.status_code == 201, got.get_json()
    assert bodies(client, league, will_game)[-1]["kind"] == "will-air-roll"
    got = post(client, league, tt_game, without_kind(ORDER), "tt-turn-orders")
    assert got.status_code == 201, got.get_json()
    order = bodies(client, league, tt_game)[-1]
    assert order["kind"] == "tt-turn-order" and len(order["data"]["dice"]) == 1


def test_a_triumph_and_tragedy_round_records_every_die_and_the_reductions(
    client: FlaskClient, league: League, tt_game: int
) -> None:
    got = post(client, league, tt_game, {**ROUND, "comment": "Plan Z"})
    assert got.status_code == 201, got.get_json()
    data = bodies(client, league, tt_game)[-1]["data"]
    assert data["system"] == TT and data["comment"] == "Plan Z"
    # The defender's units act before the attacker's of their type, in the Unit Table's
    # order: Air Force, Carrier, Fleet (the convoy never fires).
    order = [(g["side"], g["unit"]) for g in data["groups"]]
    expected = [
        ("attacker", "Air Force"),
        ("defender", "Carrier"),
        ("defender", "Fleet"),
        ("attacker", "Fleet"),
    ]
    assert order == [o for o in expected if o in order]
    for group in data["groups"]:
        assert len(group["dice"]) == group["cv"]
        assert group["hits"] == sum(d <= group["hit_on"] for d in group["dice"])
    assert data["dice"] == [d for g in data["groups"] for d in g["dice"]]
    after = {u["id"]: u["cv"] for side in ("attacker", "defender") for u in data["after"][side]}
    assert set(data["eliminated"]) == {ident for ident, cv in after.items() if cv == 0}


@pytest.mark.parametrize(
    ("game", "body", "path", "field", "words"),
    [
        ("will", ROUND, "rolls", "kind", "is a Triumph & Tragedy roll"),
        ("tt", BATTLE, "rolls", "kind", "is a Triumph of the Will roll"),
        ("classic", AIR, "rolls", "kind", "is a Triumph of the Will roll"),
        ("will", {"round": 1, "turn": 1, "country": "UK", "dice": 2}, "tech-rolls", "kind", ""),
        ("will", without_kind(AIR), "rolls", "kind", "will-battle-roll"),
        ("will", {**AIR, "kind": "moonshot"}, "rolls", "kind", "no roll kind"),
        (
            "will",
            {
                **BATTLE,
                "boxes": [{"attacker": [{"unit": "jet"}], "defender": [{"unit": "infantry"}]}],
            },
            "rolls",
            "boxes[0].attacker[0].unit",
            "",
        ),
        ("will", {**AIR, "german_hq": 3}, "rolls", "german_hq", "from 0 to 2"),
        (
            "tt",
            {**ROUND, "units": {**ROUND["units"], "attacker": [{"unit": "Dragon", "cv": 2}]}},
            "rolls",
            "units.attacker[0].unit",
            "",
        ),
        (
            "tt",
            {**ROUND, "units": {**ROUND["units"], "attacker": [{"unit": "Fleet", "cv": 5}]}},
            "rolls",
            "units.attacker[0].cv",
            "",
        ),
        (
            "tt",
            {
                **ROUND,
                "units": {
                    **ROUND["units"],
                    "attacker": [{"unit": "Tank", "cv": 2, "target": "N"}],
                },
            },
            "rolls",
            "units.attacker[0].target",
            "",
        ),
        ("tt", {**ORDER, "year": 1950}, "rolls", "year", ""),
        ("tt", {**ORDER, "year": "1937"}, "rolls", "year", ""),
        ("tt", {**ORDER, "faction": "Neutral"}, "tt-turn-orders", "faction", ""),
    ],
)
def test_a_wrong_roll_is_refused_naming_the_field_and_nothing_recorded(
    client: FlaskClient,
    league: League,
    will_game: int,
    tt_game: int,
    game: str,
    body: dict[str, Any],
    path: str,
    field: str,
    words: str,
) -> None:
    number = {"will": will_game, "tt": tt_game, "classic": league.game}[game]
    before = len(bodies(client, league, number))
    got = post(client, league, number, body, path)
    assert 400 <= got.status_code < 500, got.get_json()
    error = got.get_json()
    assert error["field"] == field, error
    assert words in error["error"]
    assert len(bodies(client, league, number)) == before


def test_turns_positions_and_the_board_are_classic_only(
    app: Flask, client: FlaskClient, ctx: ServiceContext, league: League, will_game: int
) -> None:
    from tests.integration.test_big_world_games import USSR_PRE

    got = client.post(
        f"/api/v1/games/{will_game}/turns", json={"text": USSR_PRE}, headers=league.auth("axis")
    )
    assert got.status_code == 409
    assert "Triumph of the Will game" in got.get_json()["error"]
    assert (
        client.get(f"/api/v1/games/{will_game}/position", headers=league.auth("axis")).status_code
        == 409
    )
    page_client = logged_in(app, ctx, "axis@example.org")
    assert page_client.get(f"/games/{will_game}/board.svg").status_code == 409


def test_the_game_page_links_the_systems_own_rollers(
    app: Flask, ctx: ServiceContext, league: League, will_game: int, tt_game: int
) -> None:
    page_client = logged_in(app, ctx, "axis@example.org")
    page = page_client.get(f"/games/{will_game}").get_data(as_text=True)
    assert "Game system: Triumph of the Will" in page
    for kind in system_rolls(WILL):
        assert f"/games/{will_game}/{kind.page}" in page
    assert f"/games/{will_game}/tech" not in page and "to move" not in page
    tt_page = page_client.get(f"/games/{tt_game}").get_data(as_text=True)
    assert f"/games/{tt_game}/tt-combat" in tt_page
    listed = page_client.get("/").get_data(as_text=True)
    assert "Triumph &amp; Tragedy" in listed and "Triumph of the Will" in listed


def test_the_roller_page_throws_the_json_request(
    app: Flask, ctx: ServiceContext, league: League, tt_game: int, will_game: int
) -> None:
    from tests.integration.test_pages import csrf, hidden

    page_client = logged_in(app, ctx, "axis@example.org")
    action = f"/games/{tt_game}/tt-combat"
    page = page_client.get(action).get_data(as_text=True)
    assert "&#34;North Sea&#34;" in page or "&quot;North Sea&quot;" in page  # the example
    base = {"csrf_token": csrf(page), "nonce": hidden(page, "nonce")}
    refused = page_client.post(action, data={**base, "request": "{not json"})
    assert refused.status_code == 400
    assert "not JSON" in refused.get_data(as_text=True)
    page = page_client.get(action).get_data(as_text=True)
    base = {"csrf_token": csrf(page), "nonce": hidden(page, "nonce")}
    wrong = {**without_kind(ROUND), "units": {"attacker": [{"unit": "Fleet", "cv": 9}]}}
    refused = page_client.post(action, data={**base, "request": json.dumps(wrong)})
    assert refused.status_code == 400
    assert "units.attacker[0].cv" in refused.get_data(as_text=True)
    page = page_client.get(action).get_data(as_text=True)
    base = {"csrf_token": csrf(page), "nonce": hidden(page, "nonce")}
    done = page_client.post(action, data={**base, "request": json.dumps(without_kind(ROUND))})
    assert done.status_code == 302, done.get_data(as_text=True)[:800]
    shown = page_client.get(done.headers["Location"]).get_data(as_text=True)
    assert "North Sea" in shown and "hit on" in shown
    other = page_client.get(f"/games/{will_game}/tech").get_data(as_text=True)
    assert "is a Triumph of the Will game" in other and 'name="nonce"' not in other


def test_the_standalone_verifier_recomputes_every_die(
    client: FlaskClient,
    ctx: ServiceContext,
    league: League,
    will_game: int,
    tt_game: int,
    tmp_path: Path,
) -> None:
    for game, requests in (
        (will_game, (BATTLE, AIR, REBELLION, ATOMIC)),
        (tt_game, (ROUND, ORDER)),
    ):
        for body in requests:
            assert post(client, league, game, body).status_code == 201
        end_game(ctx, game, status="finished", winner="axis")
        done = verify_game(client, league, game, tmp_path)
        assert done.returncode == 0, done.stdout
        count = len(requests)
        assert f"{count} of {count} rolls under the commitment of entry 1 recomputed" in done.stdout
        assert bodies(client, league, game)[-1]["data"]["rated"] == 0


def test_pbem_game_create_system(app: Flask, league: League) -> None:
    args = ["game", "create", "--axis", "axis@example.org", "--allies", "allies@example.org"]
    done = pbem_cli(app, *args, "--system", WILL)
    assert done.exit_code == 0, done.output
    number = int(done.stdout.strip())
    assert bodies(app.test_client(), league, number)[0]["data"]["system"] == WILL
    for extra, words in (
        (["--ruleset", "big_world_1942"], "a ruleset of Axis & Allies"),
        (["--low-luck"], "Classic games only"),
        (["--system", "chess"], "chess"),
    ):
        refused = (
            pbem_cli(app, *args, "--system", TT, *extra)
            if "--system" not in extra
            else pbem_cli(app, *args, *extra)
        )
        assert refused.exit_code != 0
        assert words in refused.output
