"""The roller's fields, written out in templates/_forms.html and roller_roll_fields.html, draw
exactly what WTForms' own widgets draw (the ``field`` macro), whatever the form holds."""

from __future__ import annotations

import re

import pytest
from flask import Flask, render_template_string
from werkzeug.datastructures import MultiDict

from dice_server.kinds.battle import BattleForm
from dice_server.kinds.big_world import BigWorldBattleForm
from dice_server.kinds.bombing import BombingForm
from dice_server.kinds.rocket import RocketForm
from dice_server.kinds.tech import TechForm

WIDGETS = """{% from "_forms.html" import field %}
{{ field(form.round, "hint") }}{{ field(form.turn) }}
{{ field(form.country) }}{{ field(form.comment) }}
{% if form.owned is defined %}{{ field(form.owned, class_="choices") }}{% endif %}
{% if form.battle is defined %}
{{ field(form.battle) }}{{ field(form.options, class_="choices") }}
{{ field(form.bombard_BB, "ships") }}
{% if form.bombard_DD is defined %}{{ field(form.bombard_DD) }}{% endif %}
{% for unit in form.ATTACKING %}{% set f = form["attacker_" ~ unit] %}
{{ f.label() }}{{ f(type="number", min=0, max=999) }}{% endfor %}
{% for unit in form.DEFENDING %}{% set f = form["defender_" ~ unit] %}
{{ f.label() }}{{ f(type="number", min=0, max=999) }}{% endfor %}
{% endif %}"""
"""Each field drawn by WTForms' own widgets, as the roller pages drew them before."""

WRITTEN = """{% from "_forms.html" import checkboxes_field, number_field, select_field,
  text_field, textarea_field %}
{{ number_field(form.round, "hint") }}{{ number_field(form.turn) }}
{{ select_field(form.country) }}{{ textarea_field(form.comment) }}
{% if form.owned is defined %}{{ checkboxes_field(form.owned, "choices") }}{% endif %}
{% if form.battle is defined %}
{{ text_field(form.battle) }}{{ checkboxes_field(form.options, "choices") }}
{{ number_field(form.bombard_BB, "ships") }}
{% if form.bombard_DD is defined %}{{ number_field(form.bombard_DD) }}{% endif %}
{% for unit in form.ATTACKING %}{% set f = form["attacker_" ~ unit] %}
<label for="{{ f.id }}">{{ f.label.text }}</label>
<input id="{{ f.id }}" max="999" min="0" name="{{ f.name }}" type="number"
 value="{{ f._value() }}">{% endfor %}
{% for unit in form.DEFENDING %}{% set f = form["defender_" ~ unit] %}
<label for="{{ f.id }}">{{ f.label.text }}</label>
<input id="{{ f.id }}" max="999" min="0" name="{{ f.name }}" type="number"
 value="{{ f._value() }}">{% endfor %}
{% endif %}"""
"""The same fields as templates/_forms.html's macros and roller_roll_fields.html write them."""

POSTS = [
    {},
    {"round": "2", "turn": "3", "country": "Germany", "battle": "Karelia", "attacker_INF": "6"},
    {
        "round": "x<y",
        "turn": "",
        "country": "Narnia",
        "battle": '"quoted" & <b>',
        "comment": "a\u202eb",
    },
    {
        "options": ["subs-first", "bogus"],
        "attacker_ARM": "-1",
        "defender_AA": "1e3",
        "bombard_BB": "2",
    },
    {"options": ["super-subs"], "bombard_DD": "1", "attacker_ART": "3", "comment": "<i>x</i>\n"},
    {"owned": ["Rockets", "Heavy Bombers", "Death Ray"], "dice": "2"},
]


def _same(html: str) -> str:
    return re.sub(r"\s+", " ", html).replace("> <", "><").strip()


@pytest.mark.parametrize(
    "form_class", [BattleForm, BigWorldBattleForm, TechForm, BombingForm, RocketForm]
)
@pytest.mark.parametrize("posted", POSTS)
@pytest.mark.parametrize("invalid", [False, True])
def test_written_fields_draw_as_the_widgets(
    app: Flask, form_class: type, posted: dict, invalid: bool
) -> None:
    with app.test_request_context(
        "/games/1/roll",
        method="POST",
        data=MultiDict(
            [(k, v) for k, vs in posted.items() for v in (vs if isinstance(vs, list) else [vs])]
        ),
    ):
        form = form_class()
        form.validate()
        if invalid:
            for f in form:
                f.errors = [*f.errors, f'wrong <{f.name}> & "so"']
        assert _same(render_template_string(WRITTEN, form=form)) == _same(
            render_template_string(WIDGETS, form=form)
        )


@pytest.mark.parametrize(
    "form_class", [BattleForm, BigWorldBattleForm, TechForm, BombingForm, RocketForm]
)
def test_a_blank_form_draws_as_the_widgets(app: Flask, form_class: type) -> None:
    with app.test_request_context("/games/1/roll"):
        form = form_class(data={"round": 4, "country": "UK", "attacker_INF": 3, "battle": "Egypt"})
        assert _same(render_template_string(WRITTEN, form=form)) == _same(
            render_template_string(WIDGETS, form=form)
        )
