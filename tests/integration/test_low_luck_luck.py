"""Dice luck of a Low Luck game through the API and the pages (issue 18): each player's
volleys, counted again here from the exported ledger, independently of the service, with
the exact chance worked out here from the remainder dice alone.

TripleA rule book, "Low Luck vs. Dice": "In “Low Luck”, all of the attacker’s units have
their attack powers added together. The total is then divided by the dice sides (6), and if
there is any remainder it is rolled for. The defender does the same with the defense powers
of all their units."
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from dice_server.services import ServiceContext
from tests.conftest import League, battle, logged_in
from tests.integration.test_game_pages import text

AXIS_POWERS = {"Germany", "Japan"}


def unit(name: str, count: int) -> dict[str, Any]:
    return {"unit": name, "count": count}


#: The rule book's powers: "Germany using 4 armour to attack Russia": "12 attack power (4 x
#: 3)", "2 hits, and zero remainder"; "7 defense power", "1 hit, and 1 remainder", a die at 1
#: (a Classic armour defends at 2, so 3 infantry and a bomber make the 7 here).
RULE_BOOK = {
    "round": 1,
    "turn": 2,
    "country": "Germany",
    "battle": "Karelia",
    "attacker": [unit("ARM", 4)],
    "defender": [unit("INF", 3), unit("BMB", 1)],
}
#: No remainder anywhere: 4 armour (12) against 3 infantry (6).
NO_REMAINDER = {**RULE_BOOK, "battle": "Ukraine", "defender": [unit("INF", 3)]}


def roll(client: FlaskClient, league: League, who: str, game: int, body: dict[str, Any]) -> None:
    got = client.post(f"/api/v1/games/{game}/rolls", json=body, headers=league.auth(who))
    assert got.status_code == 201, got.get_json()


@dataclass
class Counted:
    """One side's Low Luck volleys, counted from the ledger: the sure hits and the chance
    of each remainder die."""

    rolls: int = 0
    dice: int = 0
    hits: int = 0
    sure: int = 0
    expected: Fraction = Fraction(0)
    die_chances: list[Fraction] = field(default_factory=list)

    def distribution(self) -> list[Fraction]:
        """The chance of each number of hits: the sure hits, plus one Bernoulli a die."""
        chances = [Fraction(0)] * self.sure + [Fraction(1)]
        for p in self.die_chances:
            chances = [
                (chances[k] if k < len(chances) else 0) * (1 - p)
                + (chances[k - 1] * p if k >= 1 else 0)
                for k in range(len(chances) + 1)
            ]
        return chances


def ledger_data(client: FlaskClient, league: League, game: int) -> list[dict[str, Any]]:
    """The data of the game's ``low-luck-roll`` entries, in the order thrown."""
    response = client.get(f"/api/v1/games/{game}/ledger", headers=league.auth("minister"))
    bodies = [json.loads(signed["body"]) for signed in response.get_json()["entries"]]
    return [body["data"] for body in bodies if body["kind"] == "low-luck-roll"]


def counted(client: FlaskClient, league: League, game: int) -> dict[str, Counted]:
    totals = {"axis": Counted(), "allies": Counted()}
    for data in ledger_data(client, league, game):
        attacking = "axis" if data["country"] in AXIS_POWERS else "allies"
        owner = {"attacker": attacking, "defender": "allies" if attacking == "axis" else "axis"}
        seen = set()
        for volley in data["volleys"]:
            side = totals[owner[volley["side"]]]
            seen.add(owner[volley["side"]])
            side.hits += volley["hits"]
            side.sure += volley["power"] // 6
            side.expected += Fraction(volley["power"], 6)
            if volley["power"] % 6:
                side.dice += 1
                side.die_chances.append(Fraction(volley["power"] % 6, 6))
        for name in seen:
            totals[name].rolls += 1
    return totals


def test_a_low_luck_games_luck_counts_its_volleys(
    app: Flask, client: FlaskClient, ctx: ServiceContext, league: League, low_luck_game: int
) -> None:
    roll(client, league, "allies", low_luck_game, battle())  # UK attacks, AA gun and all
    roll(client, league, "axis", low_luck_game, RULE_BOOK)
    roll(client, league, "allies", low_luck_game, {**RULE_BOOK, "round": 2})  # sent by the other
    roll(client, league, "axis", low_luck_game, NO_REMAINDER)
    got = client.get(f"/api/v1/games/{low_luck_game}/luck", headers=league.auth("axis"))
    assert got.status_code == 200, got.get_json()
    players = got.get_json()["players"]
    for side, mine in counted(client, league, low_luck_game).items():
        luck = players[side]
        assert luck["rolls"] == mine.rolls == len(luck["series"])
        assert (luck["dice"], luck["hits"]) == (mine.dice, mine.hits), side
        assert luck["expected"] == pytest.approx(float(mine.expected), abs=1e-6)
        chances = mine.distribution()
        assert sum(chances) == 1
        at_most = sum(chances[: mine.hits + 1])
        at_least = sum(chances[mine.hits :])
        assert luck["p_at_most"] == pytest.approx(float(at_most), rel=1e-5), side
        assert luck["p_at_least"] == pytest.approx(float(at_least), rel=1e-5), side
    # The UK attack's defender volleys, the AA gun's first, are the Axis player's, though
    # the Allies' player sent the roll (a hit by the AA gun ends the entry there).
    uk = ledger_data(client, league, low_luck_game)[0]
    assert uk["volleys"][0]["fire"] == "aa" and uk["volleys"][0]["side"] == "defender"
    defended = sum(Fraction(v["power"], 6) for v in uk["volleys"] if v["side"] == "defender")
    axis_rounds, allies_rounds = players["axis"]["series"], players["allies"]["series"]
    assert axis_rounds[0]["expected"] == pytest.approx(float(defended), abs=1e-6)
    # Germany's attacks: 12 (2 sure hits, no die) for the Axis; 7 (a sure hit and a die at
    # 1) and 6 (one sure hit) for the Allies.
    assert [p["expected"] for p in axis_rounds[1:]] == [2, 2, 2]
    assert [p["expected"] for p in allies_rounds[-3:]] == pytest.approx([7 / 6, 7 / 6, 1])
    # The round with no remainder anywhere adds expected = actual for both players.
    last = {side: players[side]["series"][-1] for side in players}
    assert last["axis"]["hits"] == last["axis"]["expected"] == 2
    assert last["allies"]["hits"] == last["allies"]["expected"] == 1

    page = text(
        logged_in(app, ctx, "axis@example.org")
        .get(f"/games/{low_luck_game}/luck")
        .get_data(as_text=True)
    )
    assert "In a Low Luck round each volley expects its power ÷ 6 hits" in page


def test_a_members_luck_adds_his_low_luck_and_dice_games(
    client: FlaskClient, league: League, low_luck_game: int
) -> None:
    roll(client, league, "allies", league.game, battle())  # the league's dice game
    roll(client, league, "allies", low_luck_game, battle(defender=[unit("INF", 10)]))
    roll(client, league, "axis", low_luck_game, NO_REMAINDER)
    games = {
        number: client.get(f"/api/v1/games/{number}/luck", headers=league.auth("axis")).get_json()
        for number in (league.game, low_luck_game)
    }
    mine = client.get("/api/v1/members/me/luck", headers=league.auth("axis")).get_json()
    by_game = {row["game"]: row for row in mine["games"]}
    for number, doc in games.items():
        assert by_game[number]["dice"] == doc["players"]["axis"]["dice"]
        assert by_game[number]["hits"] == doc["players"]["axis"]["hits"]
    assert mine["rolls"] == 3
    assert mine["dice"] == sum(row["dice"] for row in mine["games"])
    assert mine["hits"] == sum(row["hits"] for row in mine["games"])
    # The dice game's defence is 10 dice at 2 and 2 AA dice at 1; the Low Luck game's is
    # 10 INF's power 20 (3 sure hits and a die at 2), then 12 (2 sure hits) for Germany.
    assert by_game[league.game]["dice"] == 12
    assert by_game[low_luck_game]["dice"] == 1
    assert by_game[low_luck_game]["expected"] == pytest.approx(20 / 6 + 2, abs=1e-6)
    low_luck_hits = sum(
        v["hits"]
        for v in ledger_data(client, league, low_luck_game)[0]["volleys"]
        if v["side"] == "defender"
    )
    assert by_game[low_luck_game]["hits"] == low_luck_hits + 2
