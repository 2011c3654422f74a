"""What the roller's forms share: the header every roll states, a list of checkboxes, and a
unit-count box. Forms only gather fields; each kind's ``read`` checks them."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import (
    HiddenField,
    IntegerField,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.fields.core import UnboundField
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


#: Values a count or a round is read from without WTForms: digits alone (``int`` would
#: also take signs, spaces, underscores and other scripts' digits; those go to WTForms).
_DIGITS = re.compile(r"[0-9]{1,9}")
_UNSET: Any = object()


def plain_payload(form_class: type[FlaskForm], formdata: MultiDict[str, str]) -> Any:
    """The payload the form would give for ``formdata``, read without building it, when
    every value is plainly valid; None when anything is not (a blank where a value is
    required, a number out of range or not written in digits, a choice not offered, a
    field given twice, a field of a kind not read here): then WTForms reads the form and
    says what is wrong. Building the battle form costs its thirty fields; the roll a form
    sends is nearly always plain. CSRF is not checked here: the application checks it for
    every form post before any view (``CSRFProtect``)."""
    fields = _plain_fields(form_class)
    if fields is None or not formdata:
        return None
    filled = object.__new__(form_class)
    for name, read in fields:
        values = formdata.getlist(name)
        data = read(values)
        if data is _UNSET:
            return None
        filled.__dict__[name] = _Read(data)
    return filled.payload()


class _Read:
    """A field as the form's ``payload`` reads it: its data."""

    __slots__ = ("data",)

    def __init__(self, data: Any) -> None:
        self.data = data


_Reader = Callable[[list[str]], Any]
_PLAIN_FIELDS: dict[type[FlaskForm], list[tuple[str, _Reader]] | None] = {}


def _plain_fields(form_class: type[FlaskForm]) -> list[tuple[str, _Reader]] | None:
    """A reader for each field of the form (None: a field, validator or check that is not
    read here, so every post of the form goes to WTForms)."""
    if form_class in _PLAIN_FIELDS:
        return _PLAIN_FIELDS[form_class]
    readers: list[tuple[str, _Reader]] = []
    own_checks = {n for n in dir(form_class) if n.startswith("validate")}
    plain = own_checks == {n for n in dir(FlaskForm) if n.startswith("validate")}
    plain = plain and hasattr(form_class, "payload")
    for name in dir(form_class) if plain else ():
        unbound = getattr(form_class, name)
        if isinstance(unbound, UnboundField):
            reader = _reader(unbound)
            if reader is None:
                plain = False
                break
            readers.append((name, reader))
    _PLAIN_FIELDS[form_class] = readers if plain else None
    return _PLAIN_FIELDS[form_class]


def _reader(unbound: UnboundField) -> _Reader | None:
    kwargs = dict(unbound.kwargs)
    if unbound.args[1:] or set(kwargs) - {"default", "validators", "choices"}:
        return None
    checks = list(kwargs.get("validators") or [])
    if any(type(c) not in (DataRequired, Optional, NumberRange) for c in checks):
        return None
    default = kwargs.get("default")
    field = unbound.field_class
    if field is IntegerField:
        return _integer(checks, default)
    if field in (StringField, TextAreaField, HiddenField):
        return _text(checks, default)
    choices = kwargs.get("choices")
    if checks or not isinstance(choices, list):  # no other field kind is read here
        return None
    offered = {c.value if isinstance(c, SelectChoice) else c[0] for c in choices}
    if field is SelectField:
        return lambda values: values[0] if len(values) == 1 and values[0] in offered else _UNSET
    if issubclass(field, SelectMultipleField):
        return lambda values: list(values) if all(v in offered for v in values) else _UNSET
    return None


def _chain(checks: list[Any], raw: list[str], data: Any) -> bool:
    """Whether WTForms' validators pass the field (the first to stop the chain decides)."""
    for check in checks:
        if isinstance(check, Optional):
            if not raw or not raw[0].strip():
                return True
        elif isinstance(check, DataRequired):
            if not (data and (not isinstance(data, str) or data.strip())):
                return False
        elif data is None or not (
            (check.min is None or data >= check.min) and (check.max is None or data <= check.max)
        ):
            return False
    return True


def _integer(checks: list[Any], default: Any) -> _Reader:
    def read(values: list[str]) -> Any:
        if len(values) > 1:
            return _UNSET
        if not values:
            data = None if default is None else int(default)
        elif _DIGITS.fullmatch(values[0]):
            data = int(values[0])
        elif values[0] == "":
            # Not a number: WTForms' error, which only Optional clears.
            return None if checks and isinstance(checks[0], Optional) else _UNSET
        else:
            return _UNSET
        return data if _chain(checks, values, data) else _UNSET

    return read


def _text(checks: list[Any], default: Any) -> _Reader:
    def read(values: list[str]) -> Any:
        if len(values) > 1:
            return _UNSET
        data = values[0] if values else default
        return data if _chain(checks, values, data) else _UNSET

    return read
