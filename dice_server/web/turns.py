"""A turn email sent from the browser, and its report: the text with each of the rules
engine's findings under the line it names. The post runs the same service function as
``POST /api/v1/games/<n>/turns``, under the form's one-time nonce, so a double post records
one submission and shows it twice."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for
from flask_login import login_required
from flask_wtf import FlaskForm
from wtforms import HiddenField, TextAreaField
from wtforms.validators import DataRequired

from dice_server.errors import ServiceError
from dice_server.services.entries import Retry
from dice_server.services.turn_reports import submission_report
from dice_server.services.turns import submit_turn
from dice_server.services.views import game_summary
from dice_server.web import nonces
from dice_server.web.context import service_context
from dice_server.web.pages import Page, field_error, me

bp = Blueprint("turns", __name__)


class TurnForm(FlaskForm):
    nonce = HiddenField()
    text = TextAreaField("The turn, as you would mail it", validators=[DataRequired()])

    def payload(self) -> dict[str, Any]:
        return {"text": self.text.data}


@bp.route("/games/<int:number>/turn", methods=["GET", "POST"])
@login_required
def submit(number: int) -> Page:
    member = me()
    summary = game_summary(service_context(), number, member)
    form = TurnForm()
    status = 200
    if request.method == "POST":
        if form.validate_on_submit():
            payload = form.payload()
            try:
                key = nonces.check(form.nonce.data, member.id, f"turn:{number}")
                retry = Retry.of(key, "POST", request.path, payload)
                entry, _ = submit_turn(service_context(), member.id, number, payload, retry)
            except ServiceError as exc:
                if exc.field in (None, "text"):  # the form's one field: the refusal beside it
                    form.text.errors = [*form.text.errors, exc.message]
                else:
                    field_error(form, exc)
                status = exc.status
            else:
                return redirect(url_for("turns.report", number=number, seq=entry.seq))
        else:
            status = 400
    if summary.status == "active":
        form.nonce.data = nonces.issue(member.id, f"turn:{number}")
    return render_template("turn.html", form=form, game=summary, title="Send a turn"), status


@bp.get("/games/<int:number>/turn/<int:seq>")
@login_required
def report(number: int, seq: int) -> Page:
    found = submission_report(service_context(), number, seq, me())
    return render_template("turn_report.html", report=found, game=found.summary)
