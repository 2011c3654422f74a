"""A note through the roller: everything the rule text says must be "recorded and sent
through the dice roller (not regular email) so that timing can be verified" (IAAPA,
Amendments and Special Orders; Retreats; Error Correction VII) is signed and timestamped
like a roll. The service (:func:`dice_server.services.notes.send_note`) checks the entry a
note refers to, under the game's lock."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from flask_wtf import FlaskForm
from wtforms import DateField, HiddenField, IntegerField, SelectField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, NumberRange, Optional

from adjudicator.notation import turn_report
from adjudicator.notation.messages import read_note
from adjudicator.notation.render import special_orders
from adjudicator.rulings.away import MAX_AWAY
from dice_server.jsonbody import shown
from dice_server.kinds.base import Data, EntryKind
from dice_server.requests import check_fields, field_error, positive_int, text

TOPICS = {
    "special-orders": "orders of loss, sub withdrawals and other special instructions",
    "retreat": "a retreat location, declared before the next battle is rolled",
    "error-recognition": "an error recognised (Error Correction VII)",
    "void-claim": "a roll made in the wrong game (names its seq)",
    "forfeit-request": "a request that the opponent forfeit",
    "away": "an away notice: from and until (UTC days) the turn clock pauses",
    "general": "anything else whose timing matters",
}
READ_TOPICS = {
    "special-orders": (
        "Read by the rules engine as (the battles apply it so):",
        "The rules engine reads no order of loss, sub withdrawal or retreat in it: the battles "
        "apply the defaults (IAAPA Orders of Loss)",
    ),
    "retreat": (
        "Read by the rules engine as:",
        "The rules engine reads no retreat in it: name the battle and where to, "
        '"Battle #1 W Europe: retreat to UK SZ"',
    ),
}
"""Notes whose text the rules engine reads for orders of loss, sub withdrawals and
retreats, with what their mail says of the reading, and of none."""
MAX_NOTE = 10000
#: Notes the Minister of Law is sent a copy of.
MINISTER_TOPICS = frozenset({"forfeit-request", "error-recognition"})
AWAY_FIELDS = ("from", "until")
"""The request fields of an away notice (and of no other topic): its first and last UTC
days, as ``YYYY-MM-DD``; the entry keeps them as its ``away`` object."""
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass(frozen=True)
class NoteRequest:
    topic: str
    text: str
    ref_seq: int | None
    away: tuple[date, date] | None = None
    """An away notice's first and last days (inclusive)."""

    def record(self, by: str) -> dict[str, Any]:
        data: dict[str, Any] = {"topic": self.topic, "text": self.text, "by": by}
        if self.ref_seq is not None:
            data["ref_seq"] = self.ref_seq
        if self.away is not None:
            first, last = self.away
            data["away"] = {"from": first.isoformat(), "until": last.isoformat()}
        return data


def day(value: Any, field: str) -> date:
    """A UTC day written ``YYYY-MM-DD``."""
    if isinstance(value, str) and _DAY.fullmatch(value):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    raise field_error(field, f"must be a UTC day written YYYY-MM-DD, not {shown(value)}")


def read_away(fields: dict[str, Any]) -> tuple[date, date]:
    """An away notice's days: ``until`` no earlier than ``from``, at most 14 days in all
    (issue 22). Whether ``until`` is already past depends on the clock: the service checks."""
    for name in AWAY_FIELDS:
        if name not in fields:
            raise field_error(name, "an away notice needs from and until (YYYY-MM-DD, UTC days)")
    first, last = day(fields["from"], "from"), day(fields["until"], "until")
    if last < first:
        raise field_error("until", f"{last} is before from ({first}): give the day you are back")
    days = (last - first).days + 1
    if days > MAX_AWAY.days:
        raise field_error(
            "until",
            f"{first} to {last} is {days} days: at most {MAX_AWAY.days} days a notice; post "
            "another when this one ends",
        )
    return first, last


def read(payload: Any) -> NoteRequest:
    fields = check_fields(payload, {"topic", "ref_seq", "text", *AWAY_FIELDS}, {"topic", "text"})
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
    if topic != "away":
        for name in AWAY_FIELDS:
            if name in fields:
                raise field_error(name, "only an away notice has dates; use the topic away")
        return NoteRequest(topic, body, ref_seq)
    return NoteRequest(topic, body, ref_seq, read_away(fields))


def headline(data: Data) -> str:
    return f"note ({data['topic']}) from {data['by']}"


def describe(data: Data) -> list[str]:
    lines = [f"Topic: {data['topic']}"]
    if "ref_seq" in data:
        lines.append(f"Refers to entry #{data['ref_seq']}")
    away = data.get("away")
    if isinstance(away, dict):
        lines.append(
            f"Away from {away.get('from')} until {away.get('until')} (UTC days, inclusive): "
            "reminders and the forfeit line pause meanwhile"
        )
    text = str(data["text"])
    lines += ["", text]
    if data["topic"] in READ_TOPICS:
        heading, nothing = READ_TOPICS[data["topic"]]
        read = special_orders(turn_report(read_note(data["topic"], text)))
        lines += [
            *([] if text.endswith("\n") else [""]),
            *([heading, *read] if read else [nothing]),
        ]
    return lines


class NoteForm(FlaskForm):
    nonce = HiddenField()
    topic = SelectField("Topic", choices=[SelectChoice(k, f"{k}: {v}") for k, v in TOPICS.items()])
    ref_seq = IntegerField(
        "Refers to entry # (optional; required for a void-claim)",
        validators=[Optional(), NumberRange(1)],
    )
    away_from = DateField("Away from (an away notice; a UTC day)", validators=[Optional()])
    away_until = DateField(
        "Away until (an away notice; at most 14 days in all)", validators=[Optional()]
    )
    text = TextAreaField("Text", validators=[DataRequired()])

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"topic": self.topic.data, "text": self.text.data}
        if self.ref_seq.data:
            out["ref_seq"] = self.ref_seq.data
        if self.away_from.data:
            out["from"] = self.away_from.data.isoformat()
        if self.away_until.data:
            out["until"] = self.away_until.data.isoformat()
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
