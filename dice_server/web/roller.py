"""The roller in the browser: the battle, tech, bombing, rocket and note forms. Each post
runs the same service function as the JSON API, under the form's one-time nonce."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for
from flask_login import login_required
from flask_wtf import FlaskForm

from dice_server import service_context
from dice_server.errors import ServiceError
from dice_server.ledger import SignedEntry
from dice_server.services.entries import Retry
from dice_server.services.notes import send_note
from dice_server.services.rolls import roll
from dice_server.services.views import game_summary
from dice_server.web import nonces
from dice_server.web.forms import BattleForm, BombingForm, NoteForm, RocketForm, TechForm
from dice_server.web.pages import Page, field_error, me

bp = Blueprint("roller", __name__)

FORMS: dict[str, tuple[type[FlaskForm], str, str]] = {
    # path: (form, ledger kind or "note", title)
    "roll": (BattleForm, "roll", "Battle round"),
    "tech": (TechForm, "tech-roll", "Weapons development"),
    "bombing": (BombingForm, "bombing-roll", "Strategic bombing raid"),
    "rocket": (RocketForm, "rocket-roll", "Rockets"),
    "note": (NoteForm, "note", "Note through the roller"),
}


def _write(kind: str, number: int, payload: dict[str, Any], retry: Retry) -> SignedEntry:
    ctx, member = service_context(), me()
    if kind == "note":
        return send_note(ctx, member.id, number, payload, retry)
    return roll(ctx, kind, member.id, number, payload, retry)


def _page(what: str) -> Callable[[int], Page]:
    form_class, kind, title = FORMS[what]

    def view(number: int) -> Page:
        member = me()
        summary = game_summary(service_context(), number, member)
        # A roll in an ended game is refused (the service says so on a POST); the page says
        # it before anyone fills in the form. Notes still reach an ended game.
        ended = kind != "note" and summary.status != "active"
        form = form_class()
        status = 200
        if request.method == "POST":
            if form.validate_on_submit():
                payload = form.payload()
                try:
                    key = nonces.check(form.nonce.data, member.id, f"{what}:{number}")
                    retry = Retry.of(key, "POST", request.path, payload)
                    assert retry is not None
                    entry = _write(kind, number, payload, retry)
                except ServiceError as exc:
                    field_error(form, exc, payload)
                    status = exc.status
                else:
                    return redirect(url_for("games.entry", number=number, seq=entry.seq))
            else:
                status = 400
        if not ended:
            form.nonce.data = nonces.issue(member.id, f"{what}:{number}")
        return render_template(
            f"roller_{what}.html", form=form, game=summary, title=title, what=what, ended=ended
        ), status

    view.__name__ = f"{what}_view"
    guarded: Callable[[int], Page] = login_required(view)
    return guarded


for _what in FORMS:
    bp.add_url_rule(
        f"/games/<int:number>/{_what}",
        endpoint="battle" if _what == "roll" else _what,
        view_func=_page(_what),
        methods=["GET", "POST"],
    )
