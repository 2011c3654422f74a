"""What of an email is the sender's own text (adjudicator.notation.mailtext)."""

from __future__ import annotations

from adjudicator.diagnostics import Severity
from adjudicator.notation.mailtext import own_text


def numbers(text: str) -> list[int]:
    return [line.number for line in own_text(text).lines if line.text.strip()]


def test_line_numbers_are_those_of_the_email_as_received() -> None:
    body = own_text("a\n> quoted\nb\n")
    assert [(line.number, line.text) for line in body.lines] == [(1, "a"), (3, "b")]


def test_quoted_lines_are_dropped_and_noted_once_per_block() -> None:
    body = own_text("mine\n> theirs 1\n>\n> theirs 2\nmine again\n  > indented quote\n")
    assert [line.text for line in body.lines] == ["mine", "mine again"]
    assert [(n.line, n.severity, n.code) for n in body.notes] == [
        (2, Severity.INFO, "quoted"),
        (6, Severity.INFO, "quoted"),
    ]
    assert "lines 2-4" in body.notes[0].message and body.notes[1].message.startswith(
        "line 6 quotes an earlier email and was not read"
    )


def test_an_on_wrote_intro_followed_by_quotes_skips_only_the_quote() -> None:
    text = "On Tue, 3 Mar 2009, Bob <b@x.org> wrote:\n> old\n\nnew order\n"
    assert numbers(text) == [4]
    assert own_text(text).notes[0].line == 1


def test_an_intro_wrapped_over_two_lines_is_recognised() -> None:
    text = "On Tue, 3 Mar 2009 at 10:02, Bob Smith <\nbob@example.com> wrote:\n> old\nnew\n"
    assert numbers(text) == [4]


def test_a_top_posted_reply_quotes_everything_below_the_intro() -> None:
    text = (
        "new orders\n\n-----Original Message-----\nFrom: Bob\nSent: today\n"
        "Attack #1 - Karelia (3 INF)\n"
    )
    body = own_text(text)
    assert numbers(text) == [1]
    assert [(n.line, n.message) for n in body.notes] == [
        (3, "lines 3-6 quote an earlier email and were not read as orders")
    ]


def test_everything_after_the_signature_separator_is_signature() -> None:
    assert numbers("order 1\n-- \nBob, IAAPA #12\nAttack #1 - Germany\n") == [1]
    assert numbers("order 1\n--\nBob\n") == [1]
    assert numbers("Attack #1 -- W Europe\n") == [1]  # a double dash inside a line is not one


def test_pasted_headers_give_the_subject_and_are_not_orders() -> None:
    body = own_text("From: Bob <b@x.org>\nSubject: G2 post-combat\nDate: today\n\nResults:\n")
    assert body.subject is not None and (body.subject.number, body.subject.text) == (
        2,
        "G2 post-combat",
    )
    assert [line.text for line in body.lines if line.text] == ["Results:"]


def test_a_from_line_inside_the_body_is_not_a_header() -> None:
    body = own_text("Attack #1 - Karelia\nFrom: Kar 2 INF\n")
    assert body.subject is None and len(body.lines) == 2


def test_device_footers_are_dropped_and_whitespace_is_normalised() -> None:
    body = own_text("Kar\t2 INF\u00a0\r\nSent from my iPhone\r\n")
    assert [line.text for line in body.lines] == ["Kar 2 INF"]
