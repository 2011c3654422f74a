"""My games, and a game's page: players, mentor, variant, agreements, and the ledger as a
readable timeline with the state of each entry's mail."""

from __future__ import annotations

import json

from flask import Blueprint, Response, redirect, render_template, url_for
from flask_login import current_user, login_required

from dice_server import service_context
from dice_server.errors import NotFound
from dice_server.services.views import game_page, games_for
from dice_server.web.pages import Page, me

bp = Blueprint("games", __name__)


@bp.get("/")
def index() -> Page:
    if not current_user.is_authenticated:
        return render_template("welcome.html")
    return render_template("games.html", games=games_for(service_context(), me()))


@bp.get("/games/<int:number>")
@login_required
def game(number: int) -> Page:
    return render_template("game.html", page=game_page(service_context(), number, me()))


@bp.get("/games/<int:number>/entries/<int:seq>")
@login_required
def entry(number: int, seq: int) -> Page:
    page = game_page(service_context(), number, me())
    found = [e for e in page.entries if e.seq == seq]
    if not found:
        raise NotFound(f"game {number} has no entry #{seq}")
    return render_template(
        "entry.html",
        page=page,
        entry=found[0],
        signed=json.dumps(found[0].signed, ensure_ascii=False, indent=1),
    )


@bp.get("/games/<int:number>/entries/<int:seq>.json")
@login_required
def entry_json(number: int, seq: int) -> Response:
    page = game_page(service_context(), number, me())
    for item in page.entries:
        if item.seq == seq:
            return Response(
                json.dumps(item.signed, ensure_ascii=False),
                mimetype="application/json",
                headers={"Content-Disposition": f'attachment; filename="entry-{seq}.json"'},
            )
    raise NotFound(f"game {number} has no entry #{seq}")


@bp.get("/roll")
@login_required
def choose() -> Page:
    games = [g for g in games_for(service_context(), me()) if g.status == "active"]
    if len(games) == 1:
        return redirect(url_for("roller.battle", number=games[0].number))
    return render_template("choose.html", games=games)
