"""Shared helpers for the conformance cases played through the JSON API on a clock the test
controls (forfeits, game completion and annulment)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from dice_server.services import ServiceContext
from tests.conftest import League, SteppingClock


def on_clock(app: Flask, clock: SteppingClock) -> ServiceContext:
    """The app's services on the test's clock (the league fixture makes its game with it)."""
    app.extensions["pbem"] = replace(app.extensions["pbem"], clock=clock)
    timed: ServiceContext = app.extensions["pbem"]
    return timed


def post(client: FlaskClient, league: League, what: str, body: Any, who: str) -> Any:
    """``POST /api/v1/games/<n>/<what>`` with ``body`` as JSON, as the player ``who``."""
    return client.post(
        f"/api/v1/games/{league.game}/{what}",
        data=json.dumps(body),
        headers={**league.auth(who), "Content-Type": "application/json"},
    )


def entries(client: FlaskClient, league: League) -> list[dict[str, Any]]:
    """The game's ledger bodies, oldest first."""
    got = client.get(f"/api/v1/games/{league.game}/ledger", headers=league.auth("axis"))
    return [json.loads(e["body"]) for e in got.get_json()["entries"]]
