"""The Minister of Law's dashboard and his decisions from it: the post runs the same service
function as ``POST /api/v1/games/<n>/rulings``."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, redirect, render_template, url_for
from flask_login import login_required
from flask_wtf import FlaskForm
from wtforms import IntegerField, SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, NumberRange, Optional

from dice_server.errors import ServiceError
from dice_server.services.minister import dashboard
from dice_server.services.rulings import decide
from dice_server.web.context import service_context
from dice_server.web.pages import Page, me

bp = Blueprint("minister", __name__)


class DecisionForm(FlaskForm):
    refers_to = IntegerField("Request entry #", validators=[DataRequired(), NumberRange(1)])
    verdict = SelectField(
        "Decision",
        choices=[SelectChoice(v, v) for v in ("approve", "deny", "confirm", "amend", "override")],
    )
    reason = TextAreaField("Reason", validators=[DataRequired()])
    conditions = StringField("Conditions (a denial)", validators=[Optional()])
    decision = StringField("The ruling as amended (an amendment)", validators=[Optional()])
    deadline_days = IntegerField(
        "Days allowed to move (a denial)", validators=[Optional(), NumberRange(1, 60)]
    )

    def payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "refers_to": self.refers_to.data,
            "verdict": self.verdict.data,
            "reason": self.reason.data,
        }
        if self.conditions.data:
            payload["conditions"] = self.conditions.data
        if self.deadline_days.data:
            payload["deadline_days"] = self.deadline_days.data
        if self.decision.data:
            payload["decision"] = self.decision.data
        return payload


@bp.get("/minister")
@login_required
def board() -> Page:
    return render_template(
        "minister.html", board=dashboard(service_context(), me()), form=DecisionForm()
    )


@bp.post("/minister/games/<int:number>/rulings")
@login_required
def rule(number: int) -> Page:
    member = me()
    form = DecisionForm()
    if not form.validate_on_submit():
        errors = "; ".join(f"{k}: {', '.join(v)}" for k, v in form.errors.items())
        flash(f"game {number}: the decision was not recorded ({errors})", "error")
        return redirect(url_for("minister.board"), code=303)
    try:
        entry = decide(service_context(), member.id, number, form.payload())
    except ServiceError as exc:
        flash(f"game {number}: the decision was not recorded: {exc.message}", "error")
        return redirect(url_for("minister.board"), code=303)
    flash(f"game {number}: decision recorded as entry #{entry.seq}", "info")
    return redirect(url_for("minister.board"), code=303)
