"""A strategic bombing raid: the target's AA gun fires at each bomber first, then each
surviving bomber (three dice with Heavy Bombers) rolls its damage
(:class:`adjudicator.rolls.BombingRoll`)."""

from __future__ import annotations

from typing import Any

from wtforms import BooleanField, IntegerField, StringField
from wtforms.validators import DataRequired, NumberRange

from adjudicator.rolls import BombingRoll
from dice_server.kinds.base import Data, EntryKind, roll_header, thrown
from dice_server.kinds.forms import HeaderForm
from dice_server.requests import (
    MAX_BOMBERS,
    MAX_TEXT,
    field_error,
    flag,
    header,
    option_names,
    other_roll_fields,
    positive_int,
    text,
)


def read(payload: Any) -> BombingRoll:
    fields = other_roll_fields(
        payload, {"target", "bombers", "aa", "options"}, {"target", "bombers", "aa"}
    )
    if fields.get("bombers") == 0:
        raise field_error("bombers", "a bombing raid needs at least one bomber")
    return BombingRoll(
        header=header(fields),
        target=text(fields, "target", MAX_TEXT),
        bombers=positive_int(fields, "bombers", MAX_BOMBERS),
        aa=flag(fields, "aa"),
        heavy="heavy-bombers" in option_names(fields, {"heavy-bombers"}, "known here"),
    )


def headline(data: Data) -> str:
    return f"{data['country']}: bombing {data['target']}"


def target_line(data: Data) -> str:
    return f"Target: {data['target']}" + (f", from {data['from']}" if data.get("from") else "")


def damage(data: Data) -> list[str]:
    return [f"Damage: {data['damage']} IPC"] if "damage" in data else []


def describe(data: Data) -> list[str]:
    return [roll_header(data), target_line(data), *thrown(data), *damage(data)]


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


KIND = EntryKind(
    name="bombing-roll",
    headline=headline,
    describe=describe,
    rolls=True,
    read=read,
    title="Strategic bombing raid",
    api_path="bombing-rolls",
    page="bombing",
    endpoint="bombing",
    form=BombingForm,
)
