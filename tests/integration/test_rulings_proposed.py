"""Rulings proposed by the service (issue 16, point 2): when a roll or turn holds an error
the rules engine rules on, or a player files an error recognition, a ``proposed`` ruling is
recorded (once an error) and mailed to the players, the mentor and the ministers."""

from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient
from sqlalchemy import select

from dice_server.models import OutboxMessage
from tests.conftest import League
from tests.integration.test_turns import UKRAINE_ROLL, USSR_PRE, ledger, roll, submit


def rulings(client: FlaskClient, league: League) -> list[dict[str, Any]]:
    return [e for e in ledger(client, league) if e["kind"] == "ruling"]


def test_too_many_units_rolled_is_ruled_on_at_once(client: FlaskClient, league: League) -> None:
    assert submit(client, league, "allies", USSR_PRE).status_code == 201
    assert rulings(client, league) == []  # a clean turn: nothing to rule on
    seven = {**UKRAINE_ROLL, "attacker": [
        {"unit": "INF", "count": 7}, {"unit": "ARM", "count": 2}, {"unit": "FTR", "count": 1}
    ]}  # fmt: skip
    rolled = roll(client, league, "allies", seven)
    assert rolled.status_code == 201, rolled.get_json()
    body = json.loads(rolled.get_json()["body"])
    seq = body["seq"]
    [proposed] = rulings(client, league)
    data = proposed["data"]
    assert data["status"] == "proposed" and data["about"][0] == seq
    assert "Too many units" in data["rule"]
    dropped = [tuple(d) for d in data["dice"]["dropped"]]
    assert (seq, 6) in dropped and (seq, 0) not in dropped  # the 7th INF die, left to right
    # The battle is re-rolled from round 2 unless round 1, less the dropped 7th INF die, already
    # killed all six defenders (INF hit on 1, ARM and FTR on 3; dice in the order thrown).
    attack = body["data"]["dice"][:10]
    hits = sum(d <= 1 for d in attack[:6]) + sum(d <= 3 for d in attack[7:])
    assert data.get("reroll_from_round") == (2 if hits < 6 else None)
    with league.ctx.sessions() as session:
        mailed = session.execute(
            select(OutboxMessage).where(OutboxMessage.entry_seq == proposed["seq"])
        ).scalar_one()
    assert "minister@example.org" in json.loads(mailed.cc_addrs)
    # another entry does not propose the same ruling again
    note = {"topic": "error-recognition", "text": "I rolled 7 INF for 6", "ref_seq": seq}
    posted = client.post(
        f"/api/v1/games/{league.game}/notes",
        data=json.dumps(note),
        headers={**league.auth("allies"), "Content-Type": "application/json"},
    )
    assert posted.status_code == 201
    assert len(rulings(client, league)) == 1
