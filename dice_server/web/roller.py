"""The roller in the browser: the battle, tech, bombing, rocket and note forms. Each post
runs the same service function as the JSON API, under the form's one-time nonce. The battle
roller offers the current turn's declared battles; one chosen (``?battle=2``) fills in the
form with its next round: the declared units, or the survivors once rolled. A blank form
names the turn the service keeps (its round and the power to move)."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from flask import (
    Blueprint,
    current_app,
    get_template_attribute,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_login import login_required
from flask_wtf import FlaskForm
from jinja2 import Template
from markupsafe import Markup
from wtforms import HiddenField

from adjudicator.battle.reading import RULESET
from dice_server.errors import ServiceError
from dice_server.kinds import WRITTEN, EntryKind
from dice_server.kinds.big_world import BigWorldBattleForm
from dice_server.kinds.forms import HeaderForm, plain_payload
from dice_server.models import Member
from dice_server.services.entries import Retry
from dice_server.services.proposals import RulingRoll
from dice_server.services.rolls import write
from dice_server.services.views import GameSummary, RollerPage, roller_game, roller_page
from dice_server.web import nonces
from dice_server.web.context import service_context
from dice_server.web.pages import Page, field_error, me

bp = Blueprint("roller", __name__)


def _page(kind: EntryKind) -> Callable[[int], Page]:
    assert kind.form is not None
    battles = kind.name == "roll"

    def view(number: int) -> Page:
        member = me()
        if request.method == "POST":
            return _post(kind, number, member)
        chosen = request.args.get("battle", type=int) if request.method == "GET" else None
        page = roller_page(
            service_context(), number, member, battles=battles, chosen=chosen, rulings=battles
        )
        prefill = page.chosen.form_data(page.summary.turn) if page.chosen is not None else None
        picked = _picked(page.required)
        if picked is not None:
            prefill = picked.form
        form_class = _form_class(kind, page.summary)
        if prefill:
            return _render(kind, number, member, page, form_class(data=prefill), picked, 200)
        kept = page.summary.roller_turn if issubclass(form_class, HeaderForm) else {}
        form, fields = _blank(kind, form_class, kept)
        return _render(kind, number, member, page, form, None, 200, fields)

    view.__name__ = f"{kind.endpoint}_view"
    guarded: Callable[[int], Page] = login_required(view)
    return guarded


def _post(kind: EntryKind, number: int, member: Member) -> Page:
    """A roll sent from the form: on success the new entry's page; else the form again, with
    what was wrong. Only the game's header (who may roll in it, by which rules) is read
    before the form; the rest of the page only when it is shown again. A plainly valid form
    is read without building it (:func:`plain_payload`); WTForms reads any other, and
    builds the form that is shown again."""
    ctx = service_context()
    form_class = _form_class(kind, roller_game(ctx, number, member))
    form: FlaskForm | None = None
    payload = None if request.files else plain_payload(form_class, request.form)
    nonce = request.form.get("nonce")
    if payload is None:
        form = form_class()
        if form.validate_on_submit():
            payload, nonce = form.payload(), form.nonce.data
    status = 400
    if payload is not None:
        try:
            key = nonces.check(nonce, member.id, f"{kind.page}:{number}")
            retry = Retry.of(key, "POST", request.path, payload)
            assert retry is not None
            entry = write(ctx, kind.name, member.id, number, payload, retry)
        except ServiceError as exc:
            if form is None:
                form = form_class()
                form.validate()
            field_error(form, exc, payload)
            status = exc.status
        else:
            return redirect(url_for("games.entry", number=number, seq=entry.seq))
    assert form is not None
    battles = kind.name == "roll"
    page = roller_page(ctx, number, member, battles=battles, rulings=battles)
    return _render(kind, number, member, page, form, None, status)


def _form_class(kind: EntryKind, summary: GameSummary) -> type[FlaskForm]:
    """The kind's form; a Big World game's battle round has Big World's units."""
    if kind.name == "roll" and summary.ruleset == RULESET:
        return BigWorldBattleForm
    assert kind.form is not None
    return kind.form


def _render(
    kind: EntryKind,
    number: int,
    member: Member,
    page: RollerPage,
    form: FlaskForm,
    picked: RulingRoll | None,
    status: int,
    blank_fields: Markup | None = None,
) -> Page:
    summary = page.summary
    # A roll in an ended game is refused (the service says so on a POST); the page says
    # it before anyone fills in the form. Notes still reach an ended game.
    ended = not kind.while_ended and summary.status != "active"
    # A roll of another game system than the game's is refused on a POST; the page
    # says so and offers the game's own.
    other_system = kind.rolls and kind.system != summary.system
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
        required=page.required,
        picked=picked,
        kind=kind,
        other_system=other_system,
        blank_fields=blank_fields,
    ), status


_ROLL_FIELDS = "roller_roll_fields.html"
_BLANK_FIELDS: weakref.WeakKeyDictionary[Template, dict[tuple[Any, ...], Markup]] = (
    weakref.WeakKeyDictionary()
)
"""The fields of each blank form, drawn by its fields template (a changed template is
another), by form class and kept turn: a form's defaults and labels are its class's, and the
turn it names is the same for every game at that turn."""
_DRAWN_LIMIT = 256
"""Blank forms kept drawn at most (five powers a round: a league's games span few rounds at
once)."""


class _HiddenFields(FlaskForm):
    """A blank battle form once its fields are drawn: all that changes from one page to the
    next is its hidden fields (the one-time nonce, the CSRF token), so the page builds
    these alone, not the battle form's thirty fields."""

    nonce = HiddenField()


def _blank(
    kind: EntryKind, form_class: type[FlaskForm], kept: dict[str, Any]
) -> tuple[FlaskForm, Markup | None]:
    """A fresh form of ``form_class``, unfilled but for ``kept`` (the kept turn), and its
    fields as its page draws them (drawn once per form class and turn); None for a kind
    whose page draws its fields itself."""
    if kind.name != "roll":
        return form_class(data=kept), None
    template = current_app.jinja_env.get_template(_ROLL_FIELDS)
    drawn = _BLANK_FIELDS.setdefault(template, {})
    key = (form_class, *kept.items())
    fields = drawn.get(key)
    if fields is not None:
        return _HiddenFields(), fields
    form = form_class(data=kept)
    draw = get_template_attribute(_ROLL_FIELDS, "fields")
    if len(drawn) >= _DRAWN_LIMIT:  # every turn of a long league drawn: start again
        drawn.clear()
    fields = drawn[key] = draw(form)
    return form, fields


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
