"""A note through the roller: everything the rule text says must be "recorded and sent
through the dice roller (not regular email) so that timing can be verified" (IAAPA,
Amendments and Special Orders; Retreats; Error Correction VII) is signed and timestamped
like a roll. The service (:func:`dice_server.services.notes.send_note`) checks the entry a
note refers to, under the game's lock."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, SelectField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, NumberRange, Optional

from dice_server.jsonbody import shown
from dice_server.kinds.base import Data, EntryKind
from dice_server.requests import check_fields, field_error, positive_int, text

TOPICS = {
    "special-orders": "orders of loss, sub withdrawals and other special instructions",
    "retreat": "a retreat location, declared before the next battle is rolled",
    "error-recognition": "an error recognised (Error Correction VII)",
    "void-claim": "a roll made in the wrong game (names its seq)",
    "forfeit-request": "a request that the opponent forfeit",
    "general": "anything else whose timing matters",
}
MAX_NOTE = 10000
#: Notes the Minister of Law is sent a copy of.
MINISTER_TOPICS = frozenset({"forfeit-request", "error-recognition"})


@dataclass(frozen=True)
class NoteRequest:
    topic: str
    text: str
    ref_seq: int | None

    def record(self, by: str) -> dict[str, Any]:
        data: dict[str, Any] = {"topic": self.topic, "text": self.text, "by": by}
        if self.ref_seq is not None:
            data["ref_seq"] = self.ref_seq
        return data


def read(payload: Any) -> NoteRequest:
    fields = check_fields(payload, {"topic", "ref_seq", "text"}, {"topic", "text"})
    topic = fields["topic"]
    if not isinstance(topic, str):
        raise field_error(
            "topic", f"must be a topic's name, not {shown(topic)}; use one of {', '.join(TOPICS)}"
        )
    if topic not in TOPICS:
        raise field_error("topic", f"unknown topic {shown(topic)}; use one of {', '.join(TOPICS)}")
    body = text(fields, "text", MAX_NOTE)
    ref_seq = positive_int(fields, "ref_seq", 2**31 - 1) if "ref_seq" in fields else None
    if topic == "void-claim" and ref_seq is None:
        raise field_error("ref_seq", "a void-claim names the seq of the roll made in error")
    return NoteRequest(topic, body, ref_seq)


def headline(data: Data) -> str:
    return f"note ({data['topic']}) from {data['by']}"


def describe(data: Data) -> list[str]:
    lines = [f"Topic: {data['topic']}"]
    if "ref_seq" in data:
        lines.append(f"Refers to entry #{data['ref_seq']}")
    return [*lines, "", data["text"]]


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


KIND = EntryKind(
    name="note",
    headline=headline,
    describe=describe,
    read=read,
    title="Note through the roller",
    api_path="notes",
    page="note",
    endpoint="note",
    form=NoteForm,
    while_ended=True,
)
