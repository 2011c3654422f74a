"""A rocket shot (IAAPA Rocket Technology): one AA gun of a power with Rockets fires once a
turn at an enemy industrial complex within range, for one die of IPC damage
(:class:`adjudicator.rolls.RocketRoll`)."""

from __future__ import annotations

from typing import Any

from wtforms import IntegerField, StringField
from wtforms.validators import DataRequired, NumberRange, Optional

from adjudicator.rolls import ROCKET_SHOTS, RocketRoll
from dice_server.jsonbody import shown
from dice_server.kinds.base import Data, EntryKind, roll_header, thrown
from dice_server.kinds.bombing import damage, target_line
from dice_server.kinds.forms import HeaderForm
from dice_server.requests import MAX_TEXT, field_error, header, other_roll_fields, text


def read(payload: Any) -> RocketRoll:
    """A rocket: one shot, the only one a power has in a turn (IAAPA Rocket Technology: "a
    country can only have one rocket shot per turn, never two or more"). ``rockets`` may
    still be sent, as 1."""
    fields = other_roll_fields(payload, {"target", "from", "rockets"}, {"target"})
    head = header(fields)
    target = text(fields, "target", MAX_TEXT)
    launcher = text(fields, "from", MAX_TEXT, required=False)
    rockets = fields.get("rockets", ROCKET_SHOTS)
    if type(rockets) is not int or rockets != ROCKET_SHOTS:
        raise field_error(
            "rockets",
            f"must be 1, not {shown(rockets)}: a power with Rockets has one rocket "
            "shot per turn, never two or more (IAAPA Rocket Technology)",
        )
    return RocketRoll(head, target, launcher)


def headline(data: Data) -> str:
    return f"{data['country']}: rockets at {data['target']}"


def describe(data: Data) -> list[str]:
    return [roll_header(data), target_line(data), *thrown(data), *damage(data)]


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


KIND = EntryKind(
    name="rocket-roll",
    headline=headline,
    describe=describe,
    rolls=True,
    read=read,
    title="Rockets",
    api_path="rocket-rolls",
    page="rocket",
    endpoint="rocket",
    form=RocketForm,
)
