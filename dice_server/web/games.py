"""My games, and a game's page: players, mentor, variant, agreements, whose turn it is with
its emails and battles, a picture of the board, and the ledger as a timeline grouped by
game turn with the state of each entry's mail, a page at a time, newest first."""

from __future__ import annotations

import json
from collections.abc import Callable

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required

from dice_server.errors import ServiceError
from dice_server.ledger import SignedEntry
from dice_server.services.completion import agree_to_annul, finish, offer
from dice_server.services.game_addresses import my_address
from dice_server.services.mail_log import game_mail
from dice_server.services.paging import entry_number
from dice_server.services.proposals import open_proposals
from dice_server.services.rulings import decide
from dice_server.services.views import board_svg, game_entry, game_page, games_for
from dice_server.text import escape_bidi_json
from dice_server.web.context import service_context
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
    ctx, viewer = service_context(), me()
    page = game_page(ctx, number, viewer, entry_number(request.args.get("from")))
    return render_template(
        "game.html",
        page=page,
        address=my_address(ctx, number, viewer.id),
        offer=offer(ctx, number, viewer.id),
        proposals=open_proposals(ctx, number),
    )


@bp.post("/games/<int:number>/rulings/agree")
@login_required
def agree(number: int) -> Page:
    """A player agrees a correction of a proposed ruling (the same service as the API)."""
    payload = {
        "refers_to": request.form.get("refers_to", type=int) or 0,
        "verdict": "agree",
        "correction": request.form.get("correction", ""),
    }
    return _done(number, lambda: decide(service_context(), me().id, number, payload))


@bp.post("/games/<int:number>/finish")
@login_required
def post_finish(number: int) -> Page:
    """The finish posted from the game page (the same service as the API)."""
    form = request.form
    payload = {"winner": form.get("winner", ""), "summary": form.get("summary", "")}
    if not payload["summary"]:
        del payload["summary"]
    return _done(number, lambda: finish(service_context(), me().id, number, payload))


@bp.post("/games/<int:number>/annulment")
@login_required
def post_annulment(number: int) -> Page:
    """A player's agreement to annul, from the game page."""
    payload = {"reason": request.form.get("reason", "")}
    return _done(number, lambda: agree_to_annul(service_context(), me().id, number, payload))


def _done(number: int, act: Callable[[], SignedEntry]) -> Page:
    try:
        entry = act()
    except ServiceError as exc:
        flash(f"Not recorded: {exc.message}")
    else:
        flash(f"Recorded as entry #{entry.seq}.")
    return redirect(url_for("games.game", number=number), code=303)


@bp.get("/games/<int:number>/board.svg")
@login_required
def board(number: int) -> Response:
    """The board as it stands, drawn from the game's position; a browser revalidates it
    (the picture changes when a post-combat turn moves the board)."""
    picture = board_svg(service_context(), number, me())
    response = Response(picture.svg, mimetype="image/svg+xml")
    response.set_etag(picture.etag)
    response.headers["Cache-Control"] = "private, no-cache"
    response.make_conditional(request)
    return response


@bp.get("/games/<int:number>/mail")
@login_required
def mail(number: int) -> Page:
    """Every message received and sent for the game, and the player's own game address."""
    return render_template("game_mail.html", log=game_mail(service_context(), number, me()))


@bp.get("/games/<int:number>/entries/<int:seq>")
@login_required
def entry(number: int, seq: int) -> Page:
    page = game_entry(service_context(), number, seq, me())
    # The signed entry as JSON text, each bidirectional control escaped (the same JSON:
    # pasted into the verifier it still verifies).
    signed = escape_bidi_json(json.dumps(page.entry.signed, ensure_ascii=False, indent=1))
    return render_template("entry.html", page=page, entry=page.entry, signed=signed)


@bp.get("/games/<int:number>/entries/<int:seq>.json")
@login_required
def entry_json(number: int, seq: int) -> Response:
    item = game_entry(service_context(), number, seq, me()).entry
    return Response(
        json.dumps(item.signed, ensure_ascii=False),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="entry-{seq}.json"'},
    )


@bp.get("/roll")
@login_required
def choose() -> Page:
    games = [g for g in games_for(service_context(), me()) if g.status == "active"]
    if len(games) == 1:
        return redirect(url_for("roller.battle", number=games[0].number))
    return render_template("choose.html", games=games)
