"""What the roller's forms share: the header every roll states, a list of checkboxes, and a
unit-count box. Forms only gather fields; each kind's ``read`` checks them."""

from __future__ import annotations

from typing import Any

from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, SelectField, SelectMultipleField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, NumberRange, Optional
from wtforms.widgets import CheckboxInput, ListWidget

from dice_server.requests import COUNTRIES


class MultiCheckbox(SelectMultipleField):
    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


class HeaderForm(FlaskForm):
    nonce = HiddenField()
    round = IntegerField("Round", default=1, validators=[DataRequired(), NumberRange(1, 9999)])
    turn = IntegerField("Turn", default=1, validators=[DataRequired(), NumberRange(1, 9999)])
    country = SelectField("Country", choices=[SelectChoice(c, c) for c in COUNTRIES])
    comment = TextAreaField("Comment", validators=[Optional()])

    def header(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "round": self.round.data,
            "turn": self.turn.data,
            "country": self.country.data,
        }
        if self.comment.data and self.comment.data.strip():
            out["comment"] = self.comment.data
        return out


def count_field(label: str) -> IntegerField:
    return IntegerField(label, default=0, validators=[Optional(), NumberRange(0, 999)])
