"""An entry's message written straight to bytes (``dice_server.mail.letter``) is, byte for
byte, the message the email package writes for it: over generated subjects, addresses,
texts (short and long lines, ASCII or not, quoted-printable or base64) and attachments.
A resend made by either is the same message, so mail sent before this writer existed and
mail sent after are told apart by nothing."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import timedelta
from email import policy

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from dice_server.mail.letter import Letter, header_line, kept_line, text_body
from dice_server.mail.transport import parsed_message

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "100"))
SETTINGS = settings(
    max_examples=EXAMPLES * 3,
    deadline=timedelta(seconds=5),
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

ASCII = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=120)
# Words the subjects are made of: territory names, unit counts, addresses, and the
# characters the header parser treats specially.
WORDS = st.sampled_from(
    [
        "[Game",
        "12]",
        "#3",
        "Karelia",
        "S.S.R.",
        "round",
        "1",
        "=?",
        "?=",
        "=?utf-8?q?x?=",
        "(Axis)",
        '"q"',
        "\\",
        "Jürgen",
        "Ünited",
        "東京",
        "\u202e",
        " ",
        "  ",
        "\t",
        "",
        "v",
        "axis@example.org",
        ":",
        ";",
        ",",
        "x" * 40,
        "a" * 80,
    ]
)
SUBJECTS = st.one_of(ASCII, st.lists(WORDS, max_size=12).map(" ".join), st.text(max_size=90))
LINES = st.one_of(
    ASCII,
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=100),
    st.sampled_from(
        [
            "",
            " trailing ",
            "=",
            "From here",
            ".",
            "x" * 77,
            "x" * 78,
            "x" * 79,
            "y" * 200,
            "Σ" * 39,
            "Σ" * 40,
            "\x0c",
            "a\rb",
            "tab\there",
        ]
    ),
)
TEXTS = st.lists(LINES, max_size=25).map("\n".join)
HEX = st.text("0123456789abcdef", min_size=32, max_size=32)
LOCAL = st.text("abcdefghijklmnopqrstuvwxyz0123456789.-_+", min_size=1, max_size=20)
ADDRESSES = st.builds(
    lambda a, d: f"{a}@{d}",
    LOCAL,
    st.sampled_from(["example.org", "league.example", "pbem.localhost", "x.y"]),
)
FILENAMES = st.one_of(
    st.builds(lambda n: f"entry-{n}.json", st.integers(1, 10**12)),
    st.builds(
        lambda t, n: f"table-{t}-entry-{n}.json", st.integers(1, 10**14), st.integers(1, 10**9)
    ),
    st.just("keys.json"),
    st.text(max_size=50),
)
ATTACHMENTS = st.lists(st.tuples(FILENAMES, st.binary(max_size=300)), min_size=1, max_size=2)


def message_ids() -> st.SearchStrategy[str]:
    return st.one_of(
        st.builds(
            lambda h, n, s, d: f"<{h[:24]}.game-{n}.entry-{s}@{d}>",
            HEX,
            st.integers(1, 10**6),
            st.integers(1, 10**6),
            st.sampled_from(["pbem.localhost", "league.example", "a-b.example.org"]),
        ),
        st.builds(lambda d: f"<{d}>", ASCII),
    )


@st.composite
def letters(draw: st.DrawFn) -> Letter:
    own = draw(message_ids())
    return Letter(
        subject=draw(SUBJECTS).replace("\n", " ").replace("\r", " "),
        sender=draw(
            st.sampled_from(
                [
                    "PBEM dice server <dice@localhost>",
                    "dice@league.example",
                    '"Dice, the server" <dice@x.y>',
                    "Würfel <dice@x.y>",
                ]
            )
        ),
        to=tuple(draw(st.lists(ADDRESSES, min_size=1, max_size=3))),
        cc=tuple(draw(st.lists(ADDRESSES, max_size=2))),
        message_id=own,
        date=draw(
            st.sampled_from(["Thu, 26 Nov 2026 08:43:26 +0000", "Mon, 01 Jan 2029 00:00:00 +0000"])
        ),
        thread_root=draw(st.one_of(st.none(), st.just(own), message_ids())),
        text=draw(TEXTS),
        attachments=tuple(draw(ATTACHMENTS)),
        boundary=draw(st.one_of(HEX.map(lambda h: f"=_pbem_{h}"), st.just("plain-boundary"))),
    )


@SETTINGS
@given(letters())
def test_a_letter_is_the_email_packages_message_byte_for_byte(letter: Letter) -> None:
    assert written(letter.as_bytes) == written(lambda: letter.message().as_bytes())


def written(write: Callable[[], bytes]) -> bytes | str:
    """The bytes, or that the writing raised (a header the package cannot parse raises in
    both: the outbox marks such a message failed)."""
    try:
        return write()
    except Exception:
        return "raised"


@SETTINGS
@given(letters())
def test_a_letter_to_an_international_address_is_written_for_smtputf8(letter: Letter) -> None:
    international = Letter(
        **{
            **letter.__dict__,
            "to": ("jürgen@example.org",),
            "message_id": "<m.1@x.y>",
            "thread_root": "<r.1@x.y>",
        }
    )
    raw = written(lambda: international.as_bytes(international=True))
    utf8 = policy.SMTPUTF8.clone(linesep="\n")
    assert raw == written(lambda: international.message().as_bytes(policy=utf8))
    assert raw == "raised" or "jürgen@example.org".encode() in raw


@SETTINGS
@given(st.sampled_from(["Subject", "Message-ID", "Date", "To", "In-Reply-To"]), SUBJECTS)
@example("Subject", "=?utf-8?q?caf=C3=A9?=")
@example("Subject", "x" * 69)
@example("Subject", "x" * 70)
@example("Subject", " leading")
@example("Date", "0")
@example("Date", "Fri, 26 Nov 2026 08:43:26 +0000")
@example("Subject", "trailing ")
def test_a_header_line_is_the_one_the_package_folds(name: str, value: str) -> None:
    value = value.replace("\n", " ").replace("\r", " ")
    line = written(lambda: header_line(name, value))
    made = written(
        lambda: policy.default.fold_binary(name, policy.default.header_store_parse(name, value)[1])
    )
    assert line == made
    assert written(lambda: kept_line(name, value)) == line


@SETTINGS
@given(TEXTS)
def test_the_text_reads_back_as_written(text: str) -> None:
    """Whatever encoding is chosen, a mail reader decodes the text the service wrote (line
    ends made LF, as ``set_content`` makes them)."""
    letter = Letter(
        "s",
        "d@x.y",
        ("a@x.y",),
        (),
        "<m@x.y>",
        "Thu, 26 Nov 2026 08:43:26 +0000",
        None,
        text,
        (("entry-1.json", b"{}\n"),),
        "=_pbem_" + "0" * 32,
    )
    body = parsed_message(letter.as_bytes()).get_body(preferencelist=("plain",))
    assert body is not None
    expected = b"".join(line + b"\n" for line in text.encode().splitlines()).decode()
    assert body.get_content() == (expected or "\n")
    assert body["Content-Transfer-Encoding"] == text_body(text)[0]


@pytest.mark.parametrize(
    ("text", "cte"),
    [
        ("Game 1, entry #2\n", "7bit"),
        ("Würfel: 6 5 4\n", "8bit"),
        ("x" * 79 + "\n", "quoted-printable"),
        ("Кириллица " * 20 + "\n", "base64"),
    ],
)
def test_each_transfer_encoding_is_reached(text: str, cte: str) -> None:
    """The four encodings the package may choose are each chosen here too (and the bytes
    agree, by the test above)."""
    assert text_body(text)[0] == cte
