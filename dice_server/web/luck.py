"""The dice luck pages: a game's (both players) and a member's over all games played, each
with its chart drawn on the server (SVG, no script)."""

from __future__ import annotations

from flask import Blueprint, render_template
from flask_login import login_required

from dice_server.services.luck import game_luck, luck_chart, member_luck
from dice_server.web.context import service_context
from dice_server.web.pages import Page, me

bp = Blueprint("luck", __name__)


@bp.get("/games/<int:number>/luck")
@login_required
def game(number: int) -> Page:
    found = game_luck(service_context(), number, me())
    players = found["players"]
    chart = luck_chart(
        (side, f"{side.title()} ({players[side]['member']})", players[side]["series"])
        for side in ("axis", "allies")
    )
    return render_template("luck.html", game=found, member=None, chart=chart)


@bp.get("/luck")
@login_required
def mine() -> Page:
    found = member_luck(service_context(), me())
    chart = luck_chart([("mine", found["member"], found["series"])])
    return render_template("luck.html", game=None, member=found, chart=chart)
