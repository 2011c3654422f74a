"""A roller form read without building it (``dice_server.kinds.forms.plain_payload``) gives
exactly what WTForms gives, or leaves the form to WTForms: over generated posts of every
roller form, whenever it reads a payload, WTForms validates the same post and builds the
same payload. The plain post a member sends is read the quick way."""

from __future__ import annotations

import os
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask_wtf import FlaskForm
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict
from wtforms.fields.core import UnboundField

from dice_server.kinds import WRITTEN
from dice_server.kinds.battle import BattleForm
from dice_server.kinds.big_world import BigWorldBattleForm
from dice_server.kinds.forms import plain_payload

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "100"))
FORMS = sorted(
    {kind.form for kind in WRITTEN if kind.form is not None} | {BigWorldBattleForm},
    key=lambda form: f"{form.__module__}.{form.__qualname__}",
)
APP = Flask(__name__)
APP.config.update(SECRET_KEY="test", WTF_CSRF_ENABLED=False)


def field_names(form: type[FlaskForm]) -> list[str]:
    return [n for n in dir(form) if isinstance(getattr(form, n), UnboundField)]


def offered(form: type[FlaskForm]) -> list[str]:
    """Every choice any field of the form offers."""
    out = []
    for name in field_names(form):
        for choice in getattr(form, name).kwargs.get("choices") or []:
            out.append(getattr(choice, "value", None) or choice[0])
    return out


VALUES = st.one_of(
    st.sampled_from(
        [
            "0",
            "1",
            "2",
            "6",
            "999",
            "1000",
            "9999",
            "10000",
            "007",
            "",
            " ",
            " 5",
            "5 ",
            "-1",
            "+3",
            "1_0",
            "٥",
            "x",
            "1.5",
            "Karelia S.S.R.",
            "  \t",
        ]
    ),
    st.text(max_size=12),
    st.integers(0, 12000).map(str),
)


def plain_value(form: type[FlaskForm], name: str) -> str:
    """A value the field takes as it is: its first choice, a number, or a word."""
    unbound = getattr(form, name)
    choices = unbound.kwargs.get("choices")
    if choices:
        return str(getattr(choices[0], "value", None) or choices[0][0])
    return "1" if "Integer" in unbound.field_class.__name__ else "Karelia S.S.R."


@st.composite
def posts(draw: st.DrawFn, form: type[FlaskForm]) -> MultiDict[str, str]:
    """A plain post of the form (every field given a value it takes), then some fields
    left out, changed or given twice."""
    names = field_names(form)
    choices = offered(form)
    kept = draw(st.sets(st.sampled_from(names))) if draw(st.booleans()) else set()
    items = [(name, plain_value(form, name)) for name in names if name not in kept]
    for name in draw(st.lists(st.sampled_from(names), max_size=4)):
        value = draw(st.one_of(VALUES, st.sampled_from(choices or ["x"])))
        if draw(st.booleans()):
            items = [item for item in items if item[0] != name]
        items.append((name, value))
    if draw(st.booleans()):
        items.append(("unrelated", draw(VALUES)))
    return MultiDict(items)


def by_wtforms(form: type[FlaskForm], data: MultiDict[str, str]) -> tuple[bool, Any]:
    with APP.test_request_context("/", method="POST", data=data):
        built = form()
        ok = built.validate()
        return ok, built.payload() if ok else None


@pytest.mark.parametrize("form", FORMS, ids=lambda f: f.__qualname__)
@settings(
    max_examples=EXAMPLES,
    deadline=timedelta(seconds=5),
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_a_payload_read_plainly_is_the_one_wtforms_builds(
    form: type[FlaskForm], data: st.DataObject
) -> None:
    post = data.draw(posts(form))
    with APP.test_request_context("/", method="POST", data=post):
        quick = plain_payload(form, post)
    event("read plainly" if quick is not None else "left to WTForms")
    if quick is not None:
        assert by_wtforms(form, post) == (True, quick)


PLAIN = {
    "nonce": "n.m",
    "round": "1",
    "turn": "1",
    "country": "Germany",
    "battle": "Karelia S.S.R.",
    "attacker_INF": "6",
    "attacker_ARM": "3",
    "attacker_FTR": "2",
    "defender_INF": "5",
    "defender_AA": "1",
}


@pytest.mark.parametrize(
    ("changed", "quick"),
    [
        ({}, True),
        ({"comment": "Rolling Karelia first.", "options": "defenders-only"}, True),
        ({"attacker_INF": ""}, True),  # a box left empty: no units of the kind
        ({"attacker_INF": "1000"}, False),  # out of range: WTForms says so
        ({"attacker_INF": " 6"}, False),  # int() reads it; WTForms decides
        ({"round": ""}, False),
        ({"country": "Narnia"}, False),
        ({"battle": "   "}, False),
    ],
)
def test_the_plain_post_is_read_the_quick_way(changed: dict[str, str], quick: bool) -> None:
    post = MultiDict({**PLAIN, **changed})
    with APP.test_request_context("/", method="POST", data=post):
        read = plain_payload(BattleForm, post)
    assert (read is not None) is quick
    if read is not None:
        assert by_wtforms(BattleForm, post) == (True, read)


def test_a_form_with_a_field_not_read_here_always_goes_to_wtforms() -> None:
    """The note form (and the other systems' forms) hold fields not read here: every post
    of theirs is left to WTForms."""
    note = next(k.form for k in WRITTEN if k.name == "note")
    assert note is not None
    with APP.test_request_context("/", method="POST", data={"text": "hello"}):
        assert plain_payload(note, MultiDict({"text": "hello"})) is None
