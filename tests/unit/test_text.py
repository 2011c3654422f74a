"""dice_server.text: bidirectional controls in user text, shown as visible markers."""

from __future__ import annotations

import json

from flask import Flask, render_template_string
from markupsafe import Markup

from dice_server.text import BIDI_CONTROLS, escape_bidi_json, init_app, neutralise_bidi, shown


def test_every_bidi_control_becomes_a_visible_marker() -> None:
    assert len(BIDI_CONTROLS) == 12
    for ch in BIDI_CONTROLS:
        assert neutralise_bidi(f"a{ch}b") == f"a[U+{ord(ch):04X}]b"
    assert neutralise_bidi("\u202e1 :stih") == "[U+202E]1 :stih"


def test_right_to_left_text_itself_is_left_alone() -> None:
    """Hebrew and Arabic letters are text, not controls."""
    words = "שלום — مرحبا — Großangriff"
    assert neutralise_bidi(words) == words


def test_escaped_json_is_the_same_json() -> None:
    document = json.dumps({"body": '{"text":"3 \u202estih\u2069"}', "sig": "x"}, ensure_ascii=False)
    escaped = escape_bidi_json(document)
    assert not set(escaped) & set(BIDI_CONTROLS)
    assert "\\u202estih\\u2069" in escaped
    assert json.loads(escaped) == json.loads(document)


def test_the_finalize_keeps_markup_markup_and_other_values_alone() -> None:
    widget = shown(Markup('<input value="a\u202eb">'))
    assert isinstance(widget, Markup) and widget == Markup('<input value="a[U+202E]b">')
    assert shown(7) == 7 and shown(None) is None


def test_init_app_is_idempotent_and_keeps_an_earlier_finalize() -> None:
    app = Flask(__name__)
    with app.app_context():
        assert render_template_string("{{ x }}", x="\u202e") == "\u202e"
        init_app(app)
        init_app(app)  # twice: the same finalize, applied once
        assert app.jinja_env.finalize is shown
        # Templates compiled before init_app are dropped, so this one is neutralised too.
        assert render_template_string("{{ x }}", x="\u202e<") == "[U+202E]&lt;"
    other = Flask(__name__)
    other.jinja_env.finalize = lambda value: "" if value is None else value
    init_app(other)
    init_app(other)
    with other.app_context():
        assert render_template_string("{{ x }}|{{ y }}", x="\u2066", y=None) == "[U+2066]|"
