"""The roller in the browser: the battle, tech, bombing, rocket and note forms. Each post
runs the same service function as the JSON API, under the form's one-time nonce. The battle
roller offers the current turn's declared battles; one chosen (``?battle=2``) fills in the
form with its next round: the declared units, or the survivors once rolled."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, redirect, render_template, request, url_for
from flask_login import login_required

from adjudicator.battle.reading import RULESET
from dice_server.errors import ServiceError
from dice_server.kinds import WRITTEN, EntryKind
from dice_server.kinds.big_world import BigWorldBattleForm
from dice_server.services.entries import Retry
from dice_server.services.proposals import RulingRoll, ruling_rolls
from dice_server.services.rolls import write
from dice_server.services.views import roller_page
from dice_server.web import nonces
from dice_server.web.context import service_context
from dice_server.web.pages import Page, field_error, me

bp = Blueprint("roller", __name__)


def _page(kind: EntryKind) -> Callable[[int], Page]:
    assert kind.form is not None

    def view(number: int) -> Page:
        member = me()
        chosen = request.args.get("battle", type=int) if request.method == "GET" else None
        page = roller_page(
            service_context(), number, member, battles=kind.name == "roll", chosen=chosen
        )
        summary = page.summary
        form_class = kind.form
        if kind.name == "roll" and summary.ruleset == RULESET:
            form_class = BigWorldBattleForm
        assert form_class is not None
        # A roll in an ended game is refused (the service says so on a POST); the page says
        # it before anyone fills in the form. Notes still reach an ended game.
        ended = not kind.while_ended and summary.status != "active"
        # A roll of another game system than the game's is refused on a POST; the page
        # says so and offers the game's own.
        other_system = kind.rolls and kind.system != summary.system
        prefill = page.chosen.form_data(summary.turn) if page.chosen is not None else None
        required = ruling_rolls(service_context(), number) if kind.name == "roll" else []
        picked = _picked(required)
        if picked is not None:
            prefill = picked.form
        form = form_class(data=prefill) if prefill else form_class()
        status = 200
        if request.method == "POST":
            if form.validate_on_submit():
                payload = form.payload()
                try:
                    key = nonces.check(form.nonce.data, member.id, f"{kind.page}:{number}")
                    retry = Retry.of(key, "POST", request.path, payload)
                    assert retry is not None
                    entry = write(service_context(), kind.name, member.id, number, payload, retry)
                except ServiceError as exc:
                    field_error(form, exc, payload)
                    status = exc.status
                else:
                    return redirect(url_for("games.entry", number=number, seq=entry.seq))
            else:
                status = 400
        if not ended and not other_system:
            form.nonce.data = nonces.issue(member.id, f"{kind.page}:{number}")
        return render_template(
            kind.template or f"roller_{kind.page}.html",
            form=form,
            game=summary,
            title=kind.title,
            what=kind.page,
            ended=ended,
            battles=page.battles,
            chosen=page.chosen,
            required=required,
            picked=picked,
            kind=kind,
            other_system=other_system,
        ), status

    view.__name__ = f"{kind.endpoint}_view"
    guarded: Callable[[int], Page] = login_required(view)
    return guarded


def _picked(required: list[RulingRoll]) -> RulingRoll | None:
    """The ruling's roll chosen on a GET (``?ruling=<seq>&roll=<k>``), if offered."""
    if request.method != "GET":
        return None
    seq, index = request.args.get("ruling", type=int), request.args.get("roll", 0, type=int)
    return next((r for r in required if (r.seq, r.index) == (seq, index)), None)


for _kind in WRITTEN:
    bp.add_url_rule(
        f"/games/<int:number>/{_kind.page}",
        endpoint=_kind.endpoint,
        view_func=_page(_kind),
        methods=["GET", "POST"],
    )
