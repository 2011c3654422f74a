"""Weapons development (IAAPA Error Correction IV, Tech Rolls): research dice at 5 IPC each,
a breakthrough on each 6, then a chart die per breakthrough for a technology not yet owned
(:class:`adjudicator.rolls.TechRoll`)."""

from __future__ import annotations

from typing import Any

from wtforms import IntegerField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, NumberRange, Optional

from adjudicator.names import NameResolutionError, exactly, technology_names
from adjudicator.rolls import TechRoll
from adjudicator.units import Technology
from dice_server.jsonbody import shown
from dice_server.kinds.base import Data, EntryKind, roll_header, thrown
from dice_server.kinds.forms import HeaderForm, MultiCheckbox
from dice_server.requests import (
    MAX_TECH_DICE,
    TECHNOLOGIES,
    field_error,
    header,
    other_roll_fields,
    positive_int,
)


def read(payload: Any) -> TechRoll:
    fields = other_roll_fields(payload, {"dice", "declared", "owned"}, {"dice"})
    count = positive_int(fields, "dice", MAX_TECH_DICE)
    declared = positive_int(fields, "declared", MAX_TECH_DICE) if "declared" in fields else count
    raw = fields.get("owned", [])
    if not isinstance(raw, list) or not all(isinstance(name, str) for name in raw):
        raise field_error("owned", "must be a list of technology names")
    owned: list[Technology] = []
    for name in raw:
        try:
            tech = exactly(technology_names(), name)
        except NameResolutionError:
            raise field_error(
                "owned", f"unknown technology {shown(name)}; known: {', '.join(TECHNOLOGIES)}"
            ) from None
        if tech not in owned:
            owned.append(tech)
    return TechRoll(header(fields), count, declared, tuple(owned))


def headline(data: Data) -> str:
    return f"{data['country']}: weapons development, {data['rolled']} dice"


def describe(data: Data) -> list[str]:
    return [
        roll_header(data),
        f"Dice declared {data['declared']}, rolled {data['rolled']} ({data['cost']} IPC)",
        *thrown(data),
        f"Technologies: {', '.join(data['technologies']) or 'none'}",
    ]


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


KIND = EntryKind(
    name="tech-roll",
    headline=headline,
    describe=describe,
    rolls=True,
    read=read,
    title="Weapons development",
    api_path="tech-rolls",
    page="tech",
    endpoint="tech",
    form=TechForm,
)
