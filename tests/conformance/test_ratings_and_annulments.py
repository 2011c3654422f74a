"""Ratings and rankings (issue 16, point 6) under the league's rule text.

IAAPA Forfeits and Annulments, Annulments: "Annulled games are not 'draws' and have no
affect on Association ranking or rating points." Variants are not sanctioned 2nd edition
games and are not rated either.
"""

from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient

from adjudicator.ratings import K_FACTOR, START
from dice_server.services import ServiceContext
from dice_server.services.games import create_game, end_game
from dice_server.services.members import add_member

ANNULMENTS = (
    "Annulled games are not 'draws' and have no affect on Association ranking or rating points."
)


def _members(ctx: ServiceContext) -> None:
    for who in ("ann", "bob", "cid"):
        add_member(ctx, f"{who}@example.org", who.title(), confirmed=True)


def _game(ctx: ServiceContext, axis: str, allies: str, **kw: Any) -> int:
    return create_game(
        ctx, axis=f"{axis}@example.org", allies=f"{allies}@example.org", **kw
    ).game_number


def test_annulled_and_variant_games_move_no_rating(
    ctx: ServiceContext, client: FlaskClient
) -> None:
    assert "no affect on Association ranking or rating points" in ANNULMENTS
    _members(ctx)
    end_game(ctx, _game(ctx, "ann", "bob"), status="finished", winner="axis")
    end_game(ctx, _game(ctx, "bob", "ann"), status="annulled")
    end_game(ctx, _game(ctx, "cid", "ann", variant="no bid"), status="finished", winner="axis")
    _game(ctx, "cid", "bob")  # still being played
    answer = client.get("/api/v1/ratings")
    assert answer.status_code == 200
    ratings = answer.get_json()["ratings"]
    assert ratings == [
        {"member": "Ann", "rating": int(START + K_FACTOR / 2), "games": 1},
        {"member": "Bob", "rating": int(START - K_FACTOR / 2), "games": 1},
    ]
    assert answer.get_json()["formula"] == {
        "system": "Elo",
        "start": START,
        "k": K_FACTOR,
        "scale": 400.0,
    }


def test_a_forfeit_is_a_win_for_the_player_who_did_not_forfeit(
    ctx: ServiceContext, client: FlaskClient
) -> None:
    _members(ctx)
    end_game(ctx, _game(ctx, "ann", "bob"), status="forfeited", winner="allies", reason="absent")
    ranked = client.get("/api/v1/ratings").get_json()["ratings"]
    assert [(r["member"], r["rating"]) for r in ranked] == [("Bob", 1516), ("Ann", 1484)]


def test_games_are_rated_in_the_order_they_ended(ctx: ServiceContext, client: FlaskClient) -> None:
    _members(ctx)
    first, second = _game(ctx, "ann", "bob"), _game(ctx, "bob", "cid")
    end_game(ctx, second, status="finished", winner="axis")  # bob beats cid first ...
    end_game(ctx, first, status="finished", winner="axis")  # ... then ann beats bob (1516)
    ranked = {r["member"]: r["rating"] for r in client.get("/api/v1/ratings").get_json()["ratings"]}
    # ann (1500) beat a 1516 player: more than 16 points
    assert ranked["Ann"] == 1517 and ranked["Bob"] == 1499 and ranked["Cid"] == 1484
    page = client.get("/ratings")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "K = 32" in html and "Elo" in html
    assert html.index("Ann") < html.index("Bob") < html.index("Cid")


VARIANTS = (
    "A variant game is a game where the MB 2nd Edition rules with the Association "
    "clarifications are not followed. Variant games will be recorded Variants database. Your "
    "2nd edition ratings or ranking calculations will not affect by variant game play."
)


def test_a_low_luck_game_is_a_variant_recorded_in_the_register_and_not_rated(
    ctx: ServiceContext, client: FlaskClient, rules_text: str
) -> None:
    """IAAPA Variants: "A variant game is a game where the MB 2nd Edition rules with the
    Association clarifications are not followed. Variant games will be recorded Variants
    database. Your 2nd edition ratings or ranking calculations will not affect by variant game
    play." Low Luck (TripleA rule book) replaces the MB dice: its games are variants."""
    from dice_server.services.challenge_views import LOW_LUCK_VARIANT, variants_register

    assert " ".join(VARIANTS.split()) in " ".join(rules_text.split())
    _members(ctx)
    lucky = _game(ctx, "ann", "bob", low_luck=True)
    reveal = end_game(ctx, lucky, status="finished", winner="axis")
    assert json.loads(reveal.body)["data"]["rated"] == 0
    assert client.get("/api/v1/ratings").get_json()["ratings"] == []
    assert {"name": LOW_LUCK_VARIANT, "games": [lucky]}.items() <= variants_register(ctx)[0].items()
    dice = _game(ctx, "ann", "bob")  # the same players by dice: rated
    assert json.loads(end_game(ctx, dice, status="finished", winner="axis").body)["data"]["rated"]
    assert [r["games"] for r in client.get("/api/v1/ratings").get_json()["ratings"]] == [1, 1]


def test_a_big_world_game_moves_no_rating(
    ctx: ServiceContext, client: FlaskClient, rules_text: str
) -> None:
    """IAAPA Variants: "A variant game is a game where the MB 2nd Edition rules with the
    Association clarifications are not followed. ... Your 2nd edition ratings or ranking
    calculations will not affect by variant game play." A game played by TripleA's Big World
    1942 rules is not a 2nd edition game: it is recorded, and rated by nobody."""
    for quote in (
        "A variant game is a game where the MB 2nd Edition rules with the Association "
        "clarifications are not followed.",
        "Your 2nd edition ratings or ranking calculations will not affect by variant game play.",
    ):
        assert quote in rules_text
    _members(ctx)
    number = _game(ctx, "ann", "bob", ruleset="big_world_1942")
    end_game(ctx, number, status="finished", winner="axis")
    assert client.get("/api/v1/ratings").get_json()["ratings"] == []
