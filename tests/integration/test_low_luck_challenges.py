"""Low Luck offered in challenges (issue 18): the challenger proposes it through the API
(``"low_luck": 1``), the issue form's box or ``pbem challenge issue --low-luck``; the
challenge page, the lists and both mails say so; and the game the accepted challenge starts
throws its battle rounds by Low Luck (``games.low_luck``, ``"low_luck": 1`` in its genesis,
``low-luck-roll`` entries). A challenge that does not propose it starts a dice game, as
before.

TripleA rule book, "Low Luck vs. Dice": "In “Low Luck”, all of the attacker’s units have
their attack powers added together. The total is then divided by the dice sides (6), and if
there is any remainder it is rolled for. The defender does the same with the defense powers
of all their units."
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from dice_server.db import reading
from dice_server.models import BidCommitment, Challenge, Game, OutboxMessage
from dice_server.services import ServiceContext
from tests.conftest import League, battle, logged_in, pbem_cli
from tests.integration.test_challenge_pages import answer, count, issue, mail_to
from tests.integration.test_game_pages import text
from tests.integration.test_low_luck_games import bodies

AXIS, ALLIES = "axis@example.org", "allies@example.org"
LOW_LUCK_TERM = "Battle rounds: by Low Luck (each side's power added up"


def challenge_body(**extra: Any) -> dict[str, Any]:
    """The axis player challenges the allies player (who bids higher, so keeps the Allies)."""
    return {
        "opponent": ALLIES,
        "method": "pbem",
        "bid": {"total": 7, "details": "2 G INF Germany, 1 J IPC"},
        **extra,
    }


def post(
    client: FlaskClient, league: League, who: str, path: str, body: Any, **headers: str
) -> Any:
    return client.post(
        f"/api/v1/{path}",
        data=json.dumps(body),
        headers={**league.auth(who), "Content-Type": "application/json", **headers},
    )


def accept(client: FlaskClient, league: League, number: int) -> Any:
    body = {"bid": {"total": 12, "details": "4 J INF Japan"}}
    got = post(client, league, "allies", f"challenges/{number}/accept", body)
    assert got.status_code == 201, got.get_json()
    return got.get_json()


def rolled_kind(client: FlaskClient, league: League, game: int) -> str:
    """The kind of entry a battle roll in ``game`` records (the conftest's UK attack)."""
    got = post(client, league, "allies", f"games/{game}/rolls", battle())
    assert got.status_code == 201, got.get_json()
    kind: str = bodies(client, league, game)[-1]["kind"]
    return kind


def game_low_luck(ctx: ServiceContext, number: int) -> bool:
    with reading(ctx.sessions) as session:
        return bool(session.execute(select(Game.low_luck).where(Game.number == number)).scalar())


# The JSON API.


def test_a_low_luck_challenge_through_the_api_starts_a_low_luck_game(
    client: FlaskClient, ctx: ServiceContext, league: League
) -> None:
    got = post(client, league, "axis", "challenges", challenge_body(low_luck=1))
    assert got.status_code == 201, got.get_json()
    issued = got.get_json()
    assert issued["low_luck"] == 1
    number = issued["id"]
    seen = client.get(f"/api/v1/challenges/{number}", headers=league.auth("allies"))
    assert seen.get_json()["low_luck"] == 1
    lists = client.get("/api/v1/challenges", headers=league.auth("allies")).get_json()
    assert [c["low_luck"] for c in lists["received"]] == [1]
    assert [c["low_luck"] for c in lists["open"]] == [1]
    # Both players are told the term: the opponent accepts it by accepting.
    assert LOW_LUCK_TERM in mail_to(ctx, AXIS)[-1]
    assert LOW_LUCK_TERM in mail_to(ctx, ALLIES)[-1]

    game = accept(client, league, number)
    assert game["low_luck"] == 1 and game["axis"] == AXIS
    assert json.loads(game["genesis"]["body"])["data"]["low_luck"] == 1
    assert game_low_luck(ctx, game["game"])
    assert rolled_kind(client, league, game["game"]) == "low-luck-roll"
    entry = bodies(client, league, game["game"])[-1]["data"]
    for volley in entry["volleys"]:
        sure, remainder = divmod(volley["power"], 6)
        assert (volley["sure"], volley["remainder"]) == (sure, remainder)


@pytest.mark.parametrize("extra", [{}, {"low_luck": 0}])
def test_a_plain_challenge_still_starts_a_dice_game(
    client: FlaskClient, ctx: ServiceContext, league: League, extra: dict[str, Any]
) -> None:
    got = post(client, league, "axis", "challenges", challenge_body(**extra))
    assert got.status_code == 201, got.get_json()
    assert got.get_json()["low_luck"] == 0
    assert "Battle rounds: by dice (one die for each unit)" in mail_to(ctx, ALLIES)[-1]
    game = accept(client, league, got.get_json()["id"])
    assert game["low_luck"] == 0
    assert "low_luck" not in json.loads(game["genesis"]["body"])["data"]
    assert not game_low_luck(ctx, game["game"])
    assert rolled_kind(client, league, game["game"]) == "roll"


@pytest.mark.parametrize("value", [True, False, 2, "1", "yes", None, [], {}])
def test_low_luck_that_is_not_0_or_1_is_refused_and_nothing_is_recorded(
    client: FlaskClient, ctx: ServiceContext, league: League, value: Any
) -> None:
    mails = count(ctx, OutboxMessage)
    got = post(client, league, "axis", "challenges", challenge_body(low_luck=value))
    assert got.status_code == 400, got.get_json()
    doc = got.get_json()
    assert doc["field"] == "low_luck"
    assert doc["error"].startswith("low_luck: ")  # 0 or 1, as every flag of the API
    assert count(ctx, Challenge) == count(ctx, BidCommitment) == 0
    assert count(ctx, OutboxMessage) == mails


def test_the_same_request_key_with_the_other_low_luck_answer_is_a_conflict(
    client: FlaskClient, ctx: ServiceContext, league: League
) -> None:
    first = post(
        client,
        league,
        "axis",
        "challenges",
        challenge_body(low_luck=1),
        **{"Idempotency-Key": "ll-1"},
    )
    assert first.status_code == 201
    again = post(
        client,
        league,
        "axis",
        "challenges",
        challenge_body(low_luck=1),
        **{"Idempotency-Key": "ll-1"},
    )
    assert again.status_code == 201 and again.get_json()["id"] == first.get_json()["id"]
    other = post(
        client,
        league,
        "axis",
        "challenges",
        challenge_body(low_luck=0),
        **{"Idempotency-Key": "ll-1"},
    )
    assert other.status_code == 409 and other.get_json()["field"] == "Idempotency-Key"
    assert count(ctx, Challenge) == 1


# The pages.


def issue_on_the_page(page_client: FlaskClient, **fields: str) -> Any:
    """The axis player's challenge to the allies player, sent on the issue form."""
    return issue(
        page_client,
        opponent=ALLIES,
        bid_total="7",
        bid_details="2 G INF Germany, 1 J IPC",
        **fields,
    )


def accept_on_the_page(page_client: FlaskClient, number: int) -> Any:
    return answer(page_client, number, "accept", bid_total="12", bid_details="4 J INF Japan")


def test_the_issue_form_offers_low_luck_and_the_pages_show_it(
    app: Flask, client: FlaskClient, ctx: ServiceContext, league: League
) -> None:
    axis, allies = logged_in(app, ctx, AXIS), logged_in(app, ctx, ALLIES)
    form = axis.get("/challenges/new").get_data(as_text=True)
    assert 'type="checkbox"' in form and 'name="low_luck"' in form
    assert "Low Luck vs. Dice" in text(form)

    done = issue_on_the_page(axis, low_luck="y")
    assert done.status_code == 303, done.get_data(as_text=True)[:500]
    number = int(done.headers["Location"].rsplit("/", 1)[1])
    page = text(allies.get(f"/challenges/{number}").get_data(as_text=True))
    assert "Battle rounds Thrown by Low Luck (each side's power added up" in page
    assert "By accepting you agree to the terms above, Low Luck battle rounds among them" in page
    assert "· Low Luck" in text(allies.get("/challenges").get_data(as_text=True))
    assert "· Low Luck" in text(allies.get("/challenges/open").get_data(as_text=True))

    accepted = accept_on_the_page(allies, number)
    assert accepted.status_code == 303, accepted.get_data(as_text=True)[:500]
    game = client.get(f"/api/v1/challenges/{number}", headers=league.auth("axis")).get_json()
    assert bodies(client, league, game["game"])[0]["data"]["low_luck"] == 1
    assert rolled_kind(client, league, game["game"]) == "low-luck-roll"


def test_the_box_left_empty_issues_a_dice_challenge(
    app: Flask, client: FlaskClient, ctx: ServiceContext, league: League
) -> None:
    axis, allies = logged_in(app, ctx, AXIS), logged_in(app, ctx, ALLIES)
    done = issue_on_the_page(axis)
    assert done.status_code == 303
    number = int(done.headers["Location"].rsplit("/", 1)[1])
    page = text(allies.get(f"/challenges/{number}").get_data(as_text=True))
    assert "Battle rounds Thrown by dice (one die for each unit)" in page
    assert "Low Luck" not in text(allies.get("/challenges").get_data(as_text=True))
    assert accept_on_the_page(allies, number).status_code == 303
    game = client.get(f"/api/v1/challenges/{number}", headers=league.auth("axis")).get_json()
    assert "low_luck" not in bodies(client, league, game["game"])[0]["data"]
    assert rolled_kind(client, league, game["game"]) == "roll"


# The command line.


def test_pbem_challenge_issue_low_luck_and_accept(
    app: Flask, client: FlaskClient, ctx: ServiceContext, league: League
) -> None:
    issued = pbem_cli(
        app,
        *("challenge", "issue", "--from", AXIS, "--opponent", ALLIES),
        *("--bid", "7", "--details", "2 G INF Germany, 1 J IPC", "--low-luck"),
    )
    assert issued.exit_code == 0, issued.output
    number = int(issued.stdout.strip())
    assert "with Low Luck battle rounds" in issued.stderr
    seen = client.get(f"/api/v1/challenges/{number}", headers=league.auth("allies"))
    assert seen.get_json()["low_luck"] == 1
    assert LOW_LUCK_TERM in mail_to(ctx, ALLIES)[-1]

    accepted = pbem_cli(
        app, "challenge", "accept", str(number), "--as", ALLIES, "--bid", "12", "--details", ""
    )
    assert accepted.exit_code == 0, accepted.output
    game = int(accepted.stdout.strip())
    assert bodies(client, league, game)[0]["data"]["low_luck"] == 1
    assert game_low_luck(ctx, game)
    assert rolled_kind(client, league, game) == "low-luck-roll"


def test_pbem_challenge_issue_without_the_flag_is_a_dice_challenge(
    app: Flask, client: FlaskClient, league: League
) -> None:
    issued = pbem_cli(
        app,
        *("challenge", "issue", "--from", AXIS, "--opponent", ALLIES, "--bid", "7", "--json"),
    )
    assert issued.exit_code == 0, issued.output
    assert json.loads(issued.stdout)["low_luck"] == 0


def test_pbem_challenge_issue_refusals_exit_1(
    app: Flask, ctx: ServiceContext, league: League
) -> None:
    refused = pbem_cli(
        app, "challenge", "issue", "--from", AXIS, "--opponent", AXIS, "--bid", "7", "--low-luck"
    )
    assert refused.exit_code == 1
    assert "opponent: you cannot challenge yourself" in refused.stderr
    assert count(ctx, Challenge) == 0
