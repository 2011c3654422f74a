"""How a league game starts, played through the JSON API on a clock the test controls:
IAAPA How to Start a Game, Game Commitments, Game Challenge Time Limitations, Bidding (the
resolution of two bids), Variants, Gentlemen's Agreements and Approved Methods of Play. What
a bid is worth and where it may place units is in test_bidding.py."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from adjudicator.position import initial
from adjudicator.powers import Power
from dice_server.services import ServiceContext
from dice_server.services.challenges import expire_challenges
from dice_server.services.members import add_member
from tests.conformance.league_api import on_clock
from tests.conftest import SteppingClock

PLAYER_ONE, PLAYER_TWO = "one@example.org", "two@example.org"


@pytest.fixture
def ctx(app: Flask, clock: SteppingClock) -> ServiceContext:
    return on_clock(app, clock)


@pytest.fixture
def tokens(ctx: ServiceContext) -> dict[str, str]:
    return {
        address: add_member(ctx, address, name, confirmed=True).token
        for address, name in [(PLAYER_ONE, "Player One"), (PLAYER_TWO, "Player Two")]
    }


def _post(client: FlaskClient, token: str, path: str, body: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    return client.post(f"/api/v1/{path}", data=json.dumps(body), headers=headers)


def _challenge(
    client: FlaskClient, tokens: dict[str, str], total: int, details: str, **extra: Any
) -> Any:
    body = {"opponent": PLAYER_TWO, "bid": {"total": total, "details": details}, **extra}
    return _post(client, tokens[PLAYER_ONE], "challenges", body)


def _accept(
    client: FlaskClient, tokens: dict[str, str], number: int, total: int, details: str
) -> Any:
    body = {"bid": {"total": total, "details": details}}
    return _post(client, tokens[PLAYER_TWO], f"challenges/{number}/accept", body)


def test_the_lower_bid_plays_the_axis_with_the_winning_bid_placed(
    client: FlaskClient, tokens: dict[str, str]
) -> None:
    """IAAPA Bidding: "The lower bid plays the Axis powers with the benefits of the winning
    bid placed on the board before the first USSR turn." and the rule text's example: "Player
    one bids 15 IPCs (three extra German INF in Ukraine, one Japanese ARM in Burma and 1 extra
    IPC to spend for Japan on its first move). Player two bids 18 IPCs (an extra IC and INF
    for Japan in Burma). The IAAPA web server will inform the players that Player one will
    play the Axis ... and that Japan will start with 26 IPCs to spend." The Classic board has
    no Burma: the Japanese units go to French Indo China and Manchuria instead."""
    issued = _challenge(client, tokens, 15, "3 G INF Ukraine, 1 J ARM French Indo China, 1 J IPC")
    assert issued.status_code == 201, issued.get_json()
    got = _accept(
        client, tokens, issued.get_json()["id"], 18, "1 J IC Manchuria, 1 J INF Manchuria"
    )
    assert got.status_code == 201, got.get_json()
    result = got.get_json()
    assert (result["axis"], result["allies"]) == (PLAYER_ONE, PLAYER_TWO)
    assert result["bid"]["total"] == 15
    headers = {"Authorization": f"Bearer {tokens[PLAYER_ONE]}"}
    doc = client.get(f"/api/v1/games/{result['game']}/position", headers=headers).get_json()
    japan_bank = initial().bank[Power.JAPAN]
    assert doc["position"]["banks"]["Japan"] == japan_bank + 1 == 26
    assert doc["position"]["units"]["Ukraine S.S.R."]["Germany"]["INF"] == 3 + 3
    assert doc["turn"]["power"] == "USSR"  # placed before the first USSR turn


def test_the_higher_bid_plays_the_allies_whoever_issued_the_challenge(
    client: FlaskClient, tokens: dict[str, str]
) -> None:
    """IAAPA Bidding: "Who plays the Axis and who plays the Allies is determined by 'bid'.\""""
    issued = _challenge(client, tokens, 10, "1 G ARM Germany, 1 J ARM Japan")
    got = _accept(client, tokens, issued.get_json()["id"], 6, "2 J INF Japan")
    result = got.get_json()
    assert (result["axis"], result["allies"]) == (PLAYER_TWO, PLAYER_ONE)
    assert result["bid"]["placements"] == {"Japan": {"Japan": {"INF": 2}}}


def test_equal_bids_are_decided_at_random_by_the_server(
    client: FlaskClient, tokens: dict[str, str]
) -> None:
    """IAAPA Bidding: "If bids of equal value are received the web server will determine the
    winner by a random process." The die is recorded in the genesis entry with its rule."""
    issued = _challenge(client, tokens, 5, "1 G ARM Germany")
    result = _accept(client, tokens, issued.get_json()["id"], 5, "1 J ARM Japan").get_json()
    draw = result["draw"]
    assert draw["sides"] == 6 and len(draw["dice"]) == 1
    winner = PLAYER_ONE if draw["dice"][0] <= 3 else PLAYER_TWO
    assert result["axis"] == winner
    assert PLAYER_ONE in draw["rule"] and PLAYER_TWO in draw["rule"]


def test_the_total_takes_precedence_over_the_details(
    client: FlaskClient, tokens: dict[str, str]
) -> None:
    """IAAPA How to Start a Game: "If there is a discrepancy between these the bid that you
    entered in the 'Your Bid (IPC Total Value)' block will take precedence." Details worth 9
    under a total of 4: the total is the bid compared, and the discrepancy is reported."""
    issued = _challenge(client, tokens, 4, "3 G INF Germany")
    assert issued.status_code == 201
    result = _accept(client, tokens, issued.get_json()["id"], 6, "2 J INF Japan").get_json()
    assert result["axis"] == PLAYER_ONE  # 4 < 6, though the details are worth 9
    assert result["bid"]["value"] == 9
    assert any(f["code"] == "discrepancy" for f in result["bid"]["findings"])


def test_a_submitted_bid_commits_the_player(
    client: FlaskClient, tokens: dict[str, str], ctx: ServiceContext
) -> None:
    """IAAPA Game Commitments: "Once you submit a bid you commit yourself to play the game."
    Each bid submitted is recorded with its time, the challenger's at issue and the
    opponent's at acceptance."""
    from sqlalchemy import select

    from dice_server.db import reading
    from dice_server.models import BidCommitment

    issued = _challenge(client, tokens, 3, "1 G INF Germany")
    _accept(client, tokens, issued.get_json()["id"], 5, "1 J ARM Japan")
    with reading(ctx.sessions) as session:
        rows = session.execute(select(BidCommitment).order_by(BidCommitment.id)).scalars().all()
        assert [(r.total, r.details) for r in rows] == [
            (3, "1 G INF Germany"),
            (5, "1 J ARM Japan"),
        ]


def test_a_challenge_expires_after_14_days_and_may_be_cancelled_sooner(
    client: FlaskClient, tokens: dict[str, str], ctx: ServiceContext, clock: SteppingClock
) -> None:
    """IAAPA Game Challenge Time Limitations: "A game challenge will automatically expire
    after a period of 14 days. A player may cancel a challenge at any time sooner, if
    desired.\""""
    first = _challenge(client, tokens, 3, "1 G INF Germany").get_json()["id"]
    second = _challenge(client, tokens, 3, "1 G INF Germany").get_json()["id"]
    clock.advance(days=3)
    cancelled = _post(client, tokens[PLAYER_ONE], f"challenges/{second}/cancel", {})
    assert cancelled.get_json()["status"] == "cancelled"
    clock.advance(days=11)
    assert expire_challenges(ctx) == [first]
    assert _accept(client, tokens, first, 5, "").status_code == 409


def test_variant_games_are_recorded_in_the_variants_register_and_not_rated(
    client: FlaskClient, tokens: dict[str, str], ctx: ServiceContext
) -> None:
    """IAAPA Variants: "Variant games will be recorded Variants database. Your 2nd edition
    ratings or ranking calculations will not affect by variant game play.\""""
    from dice_server.services.challenge_views import variants_register

    issued = _challenge(client, tokens, 3, "1 G INF Germany", variant="Armour attacks at 5")
    again = _challenge(client, tokens, 3, "1 G INF Germany", variant="armour  attacks at 5")
    game = _accept(client, tokens, issued.get_json()["id"], 5, "").get_json()["game"]
    assert again.status_code == 201
    register = variants_register(ctx)
    assert [v["name"] for v in register] == ["Armour attacks at 5"]
    assert register[0]["games"] == [game]
    headers = {"Authorization": f"Bearer {tokens[PLAYER_ONE]}"}
    ledger = client.get(f"/api/v1/games/{game}/ledger", headers=headers).get_json()
    assert json.loads(ledger["entries"][0]["body"])["data"]["variant"] == "Armour attacks at 5"


def test_gentlemens_agreements_are_recorded_but_not_enforced(
    client: FlaskClient, tokens: dict[str, str]
) -> None:
    """IAAPA Gentlemen's Agreements: "A Gentlemen's Agreement is not binding. ... The
    Minister of Law will not adjudicate or enforce these agreements." They are recorded with
    the game, as the challenge named them."""
    issued = _challenge(
        client, tokens, 3, "1 G INF Germany", agreements="no tech\nno Russian first attack"
    )
    game = _accept(client, tokens, issued.get_json()["id"], 5, "").get_json()["game"]
    headers = {"Authorization": f"Bearer {tokens[PLAYER_ONE]}"}
    ledger = client.get(f"/api/v1/games/{game}/ledger", headers=headers).get_json()
    genesis = json.loads(ledger["entries"][0]["body"])["data"]
    assert genesis["agreements"] == ["no tech", "no Russian first attack"]


def test_only_the_approved_methods_of_play(client: FlaskClient, tokens: dict[str, str]) -> None:
    """IAAPA Approved Methods of Play: "PBEM ... Face to face play ... The GM method of play
    is no longer supported by the club.\""""
    assert _challenge(client, tokens, 3, "", method="face-to-face").status_code == 201
    refused = _challenge(client, tokens, 3, "", method="gm")
    assert refused.status_code == 400 and refused.get_json()["field"] == "method"
