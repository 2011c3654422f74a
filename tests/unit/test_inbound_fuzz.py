"""``read_message`` never raises and always answers in kind, whatever bytes arrive: random
bytes, and the corpus messages spoiled the ways mail is spoiled in transit or by hand (bytes
flipped, cut short, headers lost, boundaries repeated, 8-bit garbage put in).

Hypothesis's deadline is generous: it is there to catch work that grows out of bounds on
these small inputs, never to time the decoder. ``PBEM_FUZZ_EXAMPLES`` raises the examples.
"""

from __future__ import annotations

import os
import re
from dataclasses import fields
from datetime import timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dice_server.mail.inbound import (
    MAX_TEXT,
    Attachment,
    Inbound,
    looks_like_message,
    read_message,
)

MAIL = Path(__file__).resolve().parents[1] / "data" / "mail"
CORPUS = [path.read_bytes() for path in sorted(MAIL.glob("*.eml"))]
EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "100"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=timedelta(seconds=5),
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
_TUPLE_FIELDS = {"recipients", "references", "problems"}


def assert_well_formed(m: Inbound) -> None:
    """Every field of the interface has its type, whatever the input."""
    assert isinstance(m, Inbound)
    for f in fields(Inbound):
        value = getattr(m, f.name)
        if f.name in _TUPLE_FIELDS:
            assert isinstance(value, tuple) and all(isinstance(v, str) for v in value), f.name
        elif f.name in ("auto_submitted", "bounce"):
            assert isinstance(value, bool), f.name
        elif f.name == "attachments":
            assert all(isinstance(a, Attachment) for a in value)
            assert all(isinstance(a.content_type, str) and a.size >= 0 for a in value)
        elif f.name in ("message_id", "sender", "in_reply_to", "return_path"):
            assert value is None or isinstance(value, str), f.name
        else:
            assert isinstance(value, str), f.name
    assert m.text_source in ("plain", "html", "none")
    assert m.text_source != "none" or m.text == ""
    assert len(m.text) <= MAX_TEXT and "\r" not in m.text
    assert m.sender is None or "@" in m.sender
    assert len(set(m.recipients)) == len(m.recipients)
    assert all(r == r.lower() and "@" in r for r in m.recipients)
    assert "\n" not in m.subject
    for text in (m.text, m.subject, m.sender_name, *m.recipients, *m.references):
        text.encode("utf-8")  # storable and quotable: no lone surrogate


@FUZZ
@given(st.binary(max_size=4096))
def test_random_bytes(raw: bytes) -> None:
    assert_well_formed(read_message(raw))
    assert isinstance(looks_like_message(raw), bool)


@st.composite
def spoiled(draw: st.DrawFn) -> bytes:
    """A corpus message spoiled by a few of the ways mail is: each step picks its place."""
    return draw(spoiled_bytes(draw(st.sampled_from(CORPUS))))


@st.composite
def spoiled_bytes(draw: st.DrawFn, original: bytes) -> bytes:
    """``original`` spoiled by one to four of the ways mail is spoiled."""
    raw = bytearray(original)
    for _ in range(draw(st.integers(1, 4))):
        how = draw(st.sampled_from(["flip", "cut", "drop header", "boundaries", "garbage"]))
        if how == "flip" and raw:
            for _ in range(draw(st.integers(1, 16))):
                raw[draw(st.integers(0, len(raw) - 1))] = draw(st.integers(0, 255))
        elif how == "cut":
            raw = raw[: draw(st.integers(0, len(raw)))]
        elif how == "drop header":
            lines = bytes(raw).split(b"\n")
            end = lines.index(b"") if b"" in lines else len(lines)
            if end:
                del lines[draw(st.integers(0, end - 1))]
            raw = bytearray(b"\n".join(lines))
        elif how == "boundaries":
            found = [m.group() for m in re.finditer(rb"\n--[^\r\n]{0,80}", bytes(raw))]
            line = draw(st.sampled_from(found)) if found else b"\n--b"
            at = draw(st.integers(0, len(raw)))
            raw[at:at] = line * draw(st.integers(1, 40))
        else:
            at = draw(st.integers(0, len(raw)))
            raw[at:at] = draw(st.binary(min_size=1, max_size=256))
    return bytes(raw)


@FUZZ
@given(spoiled())
def test_spoiled_corpus_messages(raw: bytes) -> None:
    assert_well_formed(read_message(raw))


@FUZZ
@given(st.sampled_from(CORPUS), st.text(max_size=300))
def test_any_header_value(raw: bytes, value: str) -> None:
    """Any text (folded or not, encoded words, quotes, brackets, 8-bit) in the headers the
    decoder reads."""
    head, _, body = raw.partition(b"\n\n")
    field = value.replace("\r", " ").replace("\n", "\n ").encode("utf-8", "surrogatepass")
    for name in (b"From", b"To", b"Subject", b"Message-ID", b"Content-Type", b"Return-Path"):
        spoiled_raw = head + b"\n" + name + b": " + field + b"\n\n" + body
        assert_well_formed(read_message(spoiled_raw))
