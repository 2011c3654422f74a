"""The pages' forms. They only gather fields: every rule is checked by the same service
functions the JSON API calls, and their errors come back to the field they name."""

from __future__ import annotations

from typing import Any

from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    EmailField,
    HiddenField,
    IntegerField,
    PasswordField,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, EqualTo, NumberRange, Optional
from wtforms.widgets import CheckboxInput, ListWidget

from adjudicator.rolls import COMBAT_VALUES, OPTIONS, ROCKET_SHOTS
from dice_server.requests import COUNTRIES as POWERS
from dice_server.requests import TECHNOLOGIES
from dice_server.services.notes import TOPICS

COUNTRIES = [SelectChoice(c, c) for c in POWERS]
UNITS = list(COMBAT_VALUES)


class MultiCheckbox(SelectMultipleField):
    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


class RegisterForm(FlaskForm):
    name = StringField("Name", validators=[DataRequired()])
    email = EmailField("Email address", validators=[DataRequired()])
    password = PasswordField("Password (10 characters or more)", validators=[DataRequired()])
    again = PasswordField(
        "Password again", validators=[DataRequired(), EqualTo("password", "the passwords differ")]
    )


class LoginForm(FlaskForm):
    email = EmailField("Email address", validators=[DataRequired()])
    password = PasswordField("Password", validators=[DataRequired()])


class ResetRequestForm(FlaskForm):
    email = EmailField("Email address", validators=[DataRequired()])


class LinkForm(FlaskForm):
    """The button behind a mailed one-time link: its token rides in the form's body."""

    t = HiddenField()


class ResetForm(LinkForm):
    password = PasswordField("New password (10 characters or more)", validators=[DataRequired()])
    again = PasswordField(
        "New password again",
        validators=[DataRequired(), EqualTo("password", "the passwords differ")],
    )


class ActionForm(FlaskForm):
    """A button and its CSRF token (log out, new API token, resend the confirmation)."""


class GrantForm(FlaskForm):
    email = EmailField("Member's address", validators=[DataRequired()])


class HeaderForm(FlaskForm):
    nonce = HiddenField()
    round = IntegerField("Round", default=1, validators=[DataRequired(), NumberRange(1, 9999)])
    turn = IntegerField("Turn", default=1, validators=[DataRequired(), NumberRange(1, 9999)])
    country = SelectField("Country", choices=COUNTRIES)
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


def _count(label: str) -> IntegerField:
    return IntegerField(label, default=0, validators=[Optional(), NumberRange(0, 999)])


class BattleForm(HeaderForm):
    battle = StringField("Battle territory or sea zone", validators=[DataRequired()])
    options = MultiCheckbox(
        "Options", choices=[SelectChoice(k, f"{k}: {v}") for k, v in OPTIONS.items()]
    )
    bombard_BB = _count("Bombarding BB")
    defender_AA = _count("AA gun")

    def payload(self) -> dict[str, Any]:
        sides: dict[str, list[dict[str, int | str]]] = {"attacker": [], "defender": []}
        for side in sides:
            for unit in [*UNITS, "AA"]:
                field = getattr(self, f"{side}_{unit}", None)
                if field is not None and field.data:
                    sides[side].append({"unit": unit, "count": field.data})
        out = {**self.header(), "battle": self.battle.data, **sides, "options": self.options.data}
        if self.bombard_BB.data:
            out["bombard"] = [{"unit": "BB", "count": self.bombard_BB.data}]
        return out


for _unit in UNITS:
    setattr(BattleForm, f"attacker_{_unit}", _count(_unit))
    setattr(BattleForm, f"defender_{_unit}", _count(_unit))


class TechForm(HeaderForm):
    dice = IntegerField(
        "Research dice (5 IPC each)", validators=[DataRequired(), NumberRange(1, 99)]
    )
    declared = IntegerField(
        "Dice declared in advance (if different)", validators=[Optional(), NumberRange(1, 99)]
    )
    owned = MultiCheckbox(
        "Technologies already owned",
        choices=[SelectChoice(t, t) for t in TECHNOLOGIES],
    )

    def payload(self) -> dict[str, Any]:
        out = {**self.header(), "dice": self.dice.data, "owned": self.owned.data}
        if self.declared.data:
            out["declared"] = self.declared.data
        return out


class BombingForm(HeaderForm):
    target = StringField("Target territory", validators=[DataRequired()])
    bombers = IntegerField("Bombers", validators=[DataRequired(), NumberRange(1, 99)])
    aa = BooleanField("The target has an AA gun", default=True)
    heavy = BooleanField("Heavy Bombers")

    def payload(self) -> dict[str, Any]:
        return {
            **self.header(),
            "target": self.target.data,
            "bombers": self.bombers.data,
            "aa": int(bool(self.aa.data)),
            "options": ["heavy-bombers"] if self.heavy.data else [],
        }


class RocketForm(HeaderForm):
    target = StringField("Target territory", validators=[DataRequired()])
    launcher = StringField("Launched from (the AA gun's territory)", validators=[Optional()])
    rockets = IntegerField(
        "Rockets (one shot per turn)",
        default=ROCKET_SHOTS,
        validators=[DataRequired(), NumberRange(ROCKET_SHOTS, ROCKET_SHOTS)],
    )

    def payload(self) -> dict[str, Any]:
        out = {**self.header(), "target": self.target.data, "rockets": self.rockets.data}
        if self.launcher.data:
            out["from"] = self.launcher.data
        return out


class NoteForm(FlaskForm):
    nonce = HiddenField()
    topic = SelectField("Topic", choices=[SelectChoice(k, f"{k}: {v}") for k, v in TOPICS.items()])
    ref_seq = IntegerField(
        "Refers to entry # (optional; required for a void-claim)",
        validators=[Optional(), NumberRange(1)],
    )
    text = TextAreaField("Text", validators=[DataRequired()])

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"topic": self.topic.data, "text": self.text.data}
        if self.ref_seq.data:
            out["ref_seq"] = self.ref_seq.data
        return out


class VerifyForm(FlaskForm):
    pasted = TextAreaField("Paste an entry or an exported ledger (JSON)", validators=[Optional()])
