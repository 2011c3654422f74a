"""The mail gateway's decoding layer (issue 15): raw messages in ``tests/data/mail`` as
players' clients send them, decoded to the headers the gateway routes by and the text the
sender wrote. A turn decoded must read as the same orders as the turn typed as text
(``tests/data/games/round-1``); a turn quoted in a reply, forwarded, bounced or attached must
never be read as the sender's orders."""

from __future__ import annotations

import base64
import email
from pathlib import Path
from typing import Any

import pytest

from adjudicator.notation import parse, report
from dice_server.mail.htmltext import html_text
from dice_server.mail.inbound import (
    MAX_TEXT,
    Attachment,
    Inbound,
    looks_like_message,
    read_message,
)
from dice_server.mail.mime import MAX_MULTIPARTS, unflow

DATA = Path(__file__).resolve().parents[1] / "data"
MAIL = DATA / "mail"
ROUND_1 = DATA / "games" / "round-1"
HANS = "hans.mueller@example.de"
NIGEL = "nigel@example.co.uk"
G_HANS = "game-12.k7xqzm4prtwehzavdsbn@league.example.org"
G_NIGEL = "game-12.p3dfm6tcqa2wnrhy5ejx@league.example.org"


def read(name: str) -> Inbound:
    return read_message((MAIL / name).read_bytes())


def turn_text(name: str) -> str:
    return (ROUND_1 / name).read_text(encoding="utf-8")


def _without_lines(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_lines(v) for k, v in value.items() if k != "line"}
    if isinstance(value, list):
        return [_without_lines(v) for v in value]
    return value


def orders(text: str) -> dict[str, Any]:
    """What the engine reads from ``text``, less line numbers and diagnostics: a greeting
    or a sign-off moves lines but changes no order."""
    doc = report(text)
    del doc["diagnostics"], doc["summary"]
    return dict(_without_lines(doc))


def lines(inbound: Inbound) -> list[str]:
    return inbound.text.split("\n")


def message(headers: str, body: str | bytes = "Germany 1 pre-combat\n") -> bytes:
    """A minimal message: ``headers`` (one per line) then ``body``."""
    raw = body.encode() if isinstance(body, str) else body
    return headers.strip("\n").encode("utf-8") + b"\n\n" + raw


# --- the corpus, message by message ---------------------------------------------------


def test_plain_turn() -> None:
    m = read("01-plain-turn.eml")
    assert (m.sender, m.sender_name) == (HANS, "Hans Mueller")
    assert m.recipients == (NIGEL, G_HANS)
    assert (m.subject, m.message_id) == (
        "[Game 12] Germany 1 pre-combat",
        "<49BBEB65.3050604@example.de>",
    )
    assert (m.return_path, m.in_reply_to, m.references) == (HANS, None, ())
    assert (m.text_source, m.attachments, m.problems) == ("plain", (), ())
    assert not (m.auto_submitted or m.bounce)
    assert orders(m.text) == orders(turn_text("02a-ger-precombat.txt"))


def test_multipart_quoted_printable_turn_reads_clean() -> None:
    """Read as text, the saved message is MIME (boundaries, "=3D", soft breaks, a second
    copy in HTML) and the engine finds errors; decoded, the turn has none."""
    raw = (MAIL / "02-multipart-qp.eml").read_bytes()
    assert report(raw.decode("utf-8", "replace"))["summary"]["errors"] > 0
    m = read_message(raw)
    assert m.text_source == "plain" and m.problems == () and m.attachments == ()
    assert parse(m.text).errors == ()
    assert orders(m.text) == orders(turn_text("02a-ger-precombat.txt"))
    assert "Grüße," in lines(m)  # UTF-8 in quoted-printable
    # a soft line break joins the long line again; the HTML alternative is not read too
    assert any(
        line.startswith("Rolling the Med first") and "Ukraine after" in line for line in lines(m)
    )
    assert m.text.count("Attack #1") == 1 and "<div" not in m.text
    assert m.recipients == (NIGEL, G_HANS) and m.sender == "hans.mueller@gmail.example"


def test_html_only_reply_does_not_read_the_quoted_turn() -> None:
    """The opponent's Germany 1 post-combat quoted in a <blockquote> below the UK turn."""
    m = read("03-html-only.eml")
    assert m.text_source == "html" and m.problems == ()
    turn = parse(m.text)
    assert turn.errors == () and (turn.results, turn.moves, turn.placements, turn.counts) == (
        (),
        (),
        (),
        (),
    )
    assert orders(m.text) == orders(turn_text("03a-uk-precombat.txt"))
    assert "> Attack #2 - Ukraine: won, 2 INF 2 ARM 1 FTR left" in lines(m)
    assert "Cheers & good luck," in lines(m)  # an entity decoded
    assert "font-family" not in m.text and "[Game 12]" not in m.text  # style and title
    assert m.in_reply_to == "<49BD1F0A.8070103@example.de>"
    assert m.references == ("<49BBEB65.3050604@example.de>", "<49BD1F0A.8070103@example.de>")


def test_top_posted_flowed_reply_does_not_read_the_quoted_turn() -> None:
    m = read("04-top-posted.eml")
    turn = parse(m.text)
    assert turn.errors == () and turn.results == () and turn.placements == ()
    assert orders(m.text) == orders(turn_text("04a-jap-precombat.txt"))
    assert "> Attack #1 - W Europe: lost, all attackers destroyed" in lines(m)
    # format=flowed: the three lines the client wrapped are one paragraph again
    assert any(line.startswith("The transport") and line.endswith("tonight.") for line in lines(m))


def test_inline_quoted_reply_reads_only_the_answers() -> None:
    """Special orders written between the quoted battles of the opponent's turn."""
    m = read("05-inline-quoted.eml")
    turn = parse(m.text)
    assert turn.errors == () and turn.battles == () and turn.purchases == ()
    (ool,) = turn.orders_of_loss
    assert ool.territory == "Ukraine S.S.R." and [e.unit.name for e in ool.order] == ["INF", "ARM"]


def test_forwarded_message_reads_the_plain_alternative() -> None:
    m = read("06-forwarded.eml")
    assert (m.text_source, m.subject) == ("plain", "Fwd: [Game 12] Germany 1 post-combat")
    assert "---------- Forwarded message ---------" in lines(m)
    assert "Germany 8/$32" in lines(m) and not any(line.startswith(">") for line in lines(m))


def test_forwarded_html_alternative_quotes_gmail_quote() -> None:
    """Gmail's quote block and everything after it are quoted in the HTML alternative."""
    parsed = email.message_from_bytes((MAIL / "06-forwarded.eml").read_bytes())
    html = next(p for p in parsed.walk() if p.get_content_type() == "text/html")
    payload = html.get_payload(decode=True)
    assert isinstance(payload, bytes)
    text = html_text(payload.decode("utf-8"))
    first, *rest = [line for line in text.split("\n") if line]
    assert first.startswith("My post-combat seems to have got lost")
    assert rest and all(line.startswith(">") for line in rest)
    assert "> Germany 8/$32" in rest


def test_attachments_are_listed_and_never_read() -> None:
    m = read("07-attachments.eml")
    assert m.attachments == (
        Attachment("map.txt", "text/plain", 122),  # 118 characters, 4 CRLF line ends
        Attachment("board.png", "image/png", 73),  # inline, but named: an attachment
    )
    assert "Map update" not in m.text and "11 INF" not in m.text
    assert orders(m.text) == orders(turn_text("02b-ger-postcombat.txt"))


def test_latin1_declared_latin1() -> None:
    m = read("08-latin1.eml")
    assert m.problems == () and "Viele Grüße aus München," in lines(m)
    assert m.sender_name == "Hans Müller"  # RFC 2047, ISO-8859-1
    assert orders(m.text) == orders(turn_text("02b-ger-postcombat.txt"))


def test_latin1_declared_utf8() -> None:
    m = read("09-wrong-charset.eml")
    (problem,) = m.problems
    assert "'utf-8'" in problem and "Windows-1252" in problem
    assert "Schöne Grüße," in lines(m)
    assert orders(m.text) == orders(turn_text("04b-jap-postcombat.txt"))


def test_unknown_charset() -> None:
    m = read("10-unknown-charset.eml")
    (problem,) = m.problems
    assert "'x-unknown'" in problem and "unknown" in problem and "UTF-8" in problem
    assert "Cheers – Nigel" in lines(m)
    assert orders(m.text) == orders(turn_text("05a-usa-precombat.txt"))


def test_base64_text_part() -> None:
    m = read("11-base64.eml")
    assert (m.text_source, m.problems) == ("plain", ())
    assert "Sent from my iPhone" in lines(m)
    assert orders(m.text) == orders(turn_text("03b-uk-postcombat.txt"))
    assert m.recipients == (HANS, G_NIGEL)


def test_auto_reply() -> None:
    m = read("12-auto-reply.eml")
    assert m.auto_submitted and not m.bounce
    assert m.in_reply_to == read("01-plain-turn.eml").message_id
    assert m.references == ("<49BBEB65.3050604@example.de>",)


def test_bounce_does_not_read_the_undelivered_turn() -> None:
    m = read("13-bounce.eml")
    assert m.bounce and m.return_path == ""
    assert (m.sender, m.sender_name) == ("MAILER-DAEMON@mx.example.de", "Mail Delivery System")
    assert [a.content_type for a in m.attachments] == ["message/delivery-status", "message/rfc822"]
    assert all(a.size > 0 for a in m.attachments)
    assert "could not" in m.text and "Attack #1" not in m.text
    assert parse(m.text).results == ()


def test_spoofed_message_reports_only_its_from() -> None:
    """Sender and Reply-To name someone else: the From is what the gateway authenticates
    (DKIM), so it is what is reported."""
    m = read("14-spoofed.eml")
    assert (m.sender, m.sender_name) == (HANS, "Hans Mueller")
    assert "mallory@evil.example" not in m.recipients
    assert m.return_path == "bounce-8812@bulk.evil.example"


def test_duplicate_has_the_same_message_id() -> None:
    first, again = (
        (MAIL / "01-plain-turn.eml").read_bytes(),
        (MAIL / "15-duplicate.eml").read_bytes(),
    )
    assert first != again
    assert read_message(first).message_id == read_message(again).message_id is not None


def test_missing_headers() -> None:
    m = read("16-missing-headers.eml")
    assert (m.sender, m.sender_name, m.message_id, m.return_path) == (None, "", None, None)
    assert set(m.problems) == {"no From header", "no Message-ID header"}
    assert orders(m.text) == orders(turn_text("05b-usa-postcombat.txt"))


def test_message_without_mime() -> None:
    """Old style: no MIME-Version, no charset, Windows-1252 quotes in the body."""
    m = read("17-not-mime.eml")
    assert any("not a MIME message" in p for p in m.problems)
    assert any("no charset" in p and "Windows-1252" in p for p in m.problems)
    assert "\u201cYour move.\u201d" in lines(m)
    assert (m.sender, m.sender_name) == (NIGEL, "Nigel Ashworth")  # "addr (Name)"
    expected = turn_text("01a-ussr-precombat.txt").replace("Your move.", "\u201cYour move.\u201d")
    assert orders(m.text) == orders(expected)


def test_junk_is_no_message() -> None:
    raw = (MAIL / "18-junk.eml").read_bytes()
    m = read_message(raw)
    assert not looks_like_message(raw)
    assert (m.sender, m.message_id, m.recipients, m.subject) == (None, None, (), "")
    assert any("no header lines" in p for p in m.problems)


def test_encoded_subject_and_names() -> None:
    m = read("19-encoded-subject.eml")
    assert m.subject == "[Game 12] Germany 2 pre-combat"  # two encoded words, folded
    assert (m.sender, m.sender_name) == (HANS, "Hans Müller")
    assert m.recipients == (NIGEL, G_HANS) and m.problems == ()
    turn = parse(m.text)
    assert turn.errors == () and [b.territory for b in turn.battles] == ["Karelia S.S.R."]


def test_outlook_html_reply_quotes_everything_after_its_reply_header() -> None:
    m = read("20-outlook-html.eml")
    assert m.text_source == "html"
    turn = parse(m.text)
    assert turn.results == () and turn.errors == ()
    assert orders(m.text) == orders(turn_text("05b-usa-postcombat.txt"))
    after = lines(m)[lines(m).index("> Subject: [Game 12] Japan 1 post-combat") :]
    assert "> Japan 13/$27" in after and all(line.startswith(">") or not line for line in after)


@pytest.mark.parametrize("path", sorted(MAIL.glob("*.eml")), ids=lambda p: p.name)
def test_every_message_decodes_to_text_with_newlines_only(path: Path) -> None:
    m = read_message(path.read_bytes())
    assert "\r" not in m.text and m.text_source in ("plain", "html", "none")
    assert looks_like_message(path.read_bytes()) is (path.name != "18-junk.eml")


# --- what a message may say, one header at a time ---------------------------------------


def test_from_display_name_is_never_the_address() -> None:
    m = read_message(message('From: "hans.mueller@example.de" <mallory@Evil.Example>'))
    assert (m.sender, m.sender_name) == ("mallory@evil.example", "hans.mueller@example.de")


@pytest.mark.parametrize(
    "value",
    [
        "alice@example.org)<bob@example.org>",  # read as two addresses: none is taken
        "Hans <hans@example.de>, Mallory <mallory@evil.example>",
        "Hans Mueller",
        "undisclosed-recipients:;",
    ],
)
def test_from_without_exactly_one_address_gives_no_sender(value: str) -> None:
    m = read_message(message(f"From: {value}\nMessage-ID: <a@b>"))
    assert m.sender is None and m.problems


def test_two_from_headers_give_no_sender() -> None:
    m = read_message(message("From: a@example.org\nFrom: b@example.org"))
    assert m.sender is None and any("2 From headers" in p for p in m.problems)


def test_recipients_in_order_each_once() -> None:
    m = read_message(
        message(
            "From: a@example.org\n"
            "To: Game <Game-12@League.Example.org>, b@example.org\n"
            "Cc: B@EXAMPLE.ORG, c@example.org\n"
            "Delivered-To: game-12@league.example.org\n"
            "X-Original-To: d@example.org"
        )
    )
    assert m.recipients == (
        "game-12@league.example.org",
        "b@example.org",
        "c@example.org",
        "d@example.org",
    )


def test_sender_keeps_the_local_part_as_written() -> None:
    assert (
        read_message(message("From: Hans.Mueller@Example.DE")).sender == "Hans.Mueller@example.de"
    )


def test_message_ids_as_written() -> None:
    m = read_message(
        message(
            "From: a@b.org\nMessage-ID:\n <x.1@b.org>\nIn-Reply-To: <p@b.org> (Bob's message)\n"
            "References: <o@b.org>\n\t<p@b.org>"
        )
    )
    assert (m.message_id, m.in_reply_to, m.references) == (
        "<x.1@b.org>",
        "<p@b.org>",
        ("<o@b.org>", "<p@b.org>"),
    )
    assert read_message(message("From: a@b.org\nMessage-ID: ")).message_id is None


@pytest.mark.parametrize(
    ("headers", "automatic"),
    [
        ("Auto-Submitted: auto-generated", True),
        ("Auto-Submitted: no", False),
        ("Precedence: bulk", True),
        ("Precedence: junk", True),
        ("Precedence: first-class", False),
        ("X-Autoreply: yes", True),
        ("X-Autorespond: Out of office", True),
        ("List-Id: <pbem.example.org>", True),
        ("X-Auto-Response-Suppress: All", True),
        ("X-Mailer: Thunderbird", False),
    ],
)
def test_auto_submitted(headers: str, automatic: bool) -> None:
    m = read_message(message(f"From: a@b.org\n{headers}"))
    assert m.auto_submitted is automatic and not m.bounce


@pytest.mark.parametrize(
    "headers",
    [
        "From: postmaster@mx.example.org",
        "From: Mail Delivery Subsystem <MAILER-DAEMON@mx.example.org>",
        "From: a@b.org\nReturn-Path: <>",
        "From: a@b.org\nMIME-Version: 1.0\nContent-Type: multipart/report; "
        'report-type=delivery-status; boundary="b"',
    ],
)
def test_bounce(headers: str) -> None:
    assert read_message(message(headers, "--b\n\nx\n--b--\n")).bounce


def test_read_receipt_is_automatic_not_a_bounce() -> None:
    m = read_message(
        message(
            "From: a@b.org\nMIME-Version: 1.0\nContent-Type: multipart/report; "
            'report-type=disposition-notification; boundary="b"',
            "--b\nContent-Type: text/plain\n\nRead.\n--b--\n",
        )
    )
    assert m.auto_submitted and not m.bounce and m.text == "Read."


def test_return_path() -> None:
    assert read_message(message("From: a@b.org")).return_path is None
    assert read_message(message("Return-Path: <A@B.ORG>\nFrom: a@b.org")).return_path == "A@b.org"


def test_encoded_words() -> None:
    """RFC 2047: the space between two encoded words goes, the rest stays; a malformed word
    stays as written; an unknown charset is read as UTF-8 and said."""
    m = read_message(message("From: a@b.org\nSubject: Re: =?utf-8?q?a?= =?utf-8?b?Yg==?=  c"))
    assert m.subject == "Re: ab  c"
    bad = read_message(message("From: a@b.org\nSubject: =?utf-8?b?###?="))
    assert bad.subject == "=?utf-8?b?###?=" and bad.problems
    odd = read_message(message("From: a@b.org\nSubject: =?x-foo?q?G=C3=BC?="))
    assert odd.subject == "Gü" and any("'x-foo'" in p for p in odd.problems)


def test_raw_utf8_in_headers() -> None:
    """Some clients send 8-bit headers (RFC 6532)."""
    m = read_message(message("From: Jürgen <jürgen@example.de>\nSubject: Grüße"))
    assert (m.sender, m.sender_name, m.subject) == ("jürgen@example.de", "Jürgen", "Grüße")


def test_subject_never_holds_a_line_break() -> None:
    m = read_message(message("From: a@b.org\nSubject: =?utf-8?q?one=0Atwo?="))
    assert m.subject == "one two"


# --- the text part ------------------------------------------------------------------------


def multipart(*parts: str, kind: str = "mixed") -> bytes:
    body = "".join(f"--b\n{p}\n" for p in parts) + "--b--\n"
    return message(
        f'From: a@b.org\nMIME-Version: 1.0\nContent-Type: multipart/{kind}; boundary="b"', body
    )


def test_empty_plain_alternative_reads_the_html() -> None:
    m = read_message(
        multipart(
            "Content-Type: text/plain\n\n",
            "Content-Type: text/html\n\n<p>Germany 1 pre-combat</p>",
            kind="alternative",
        )
    )
    assert (m.text_source, m.text) == ("html", "Germany 1 pre-combat\n")
    assert any("empty" in p for p in m.problems)


def test_alternative_prefers_plain_even_when_html_comes_first() -> None:
    m = read_message(
        multipart(
            "Content-Type: text/html\n\n<p>html</p>",
            "Content-Type: text/plain\n\nplain",
            kind="alternative",
        )
    )
    assert (m.text_source, m.text) == ("plain", "plain")


def test_text_attachment_alone_is_no_text() -> None:
    m = read_message(
        multipart(
            'Content-Type: text/plain\nContent-Disposition: attachment; filename="t.txt"\n\nx'
        )
    )
    assert m.text_source == "none" and m.text == ""
    assert m.attachments == (Attachment("t.txt", "text/plain", 1),)


def test_outlook_encoded_filename() -> None:
    m = read_message(
        multipart(
            "Content-Type: text/plain\n\nsee attached",
            'Content-Type: application/pdf; name="=?utf-8?q?Z=C3=BCge.pdf?="\n\n%PDF',
        )
    )
    assert m.attachments == (Attachment("Züge.pdf", "application/pdf", 4),)


def test_signed_message_reads_its_first_part() -> None:
    m = read_message(
        multipart(
            "Content-Type: text/plain\n\nGermany 1 pre-combat",
            "Content-Type: application/pgp-signature\n\n-----BEGIN PGP SIGNATURE-----",
            kind="signed",
        )
    )
    assert m.text == "Germany 1 pre-combat"
    assert [a.content_type for a in m.attachments] == ["application/pgp-signature"]


def test_truncated_multipart() -> None:
    raw = (MAIL / "07-attachments.eml").read_bytes()
    m = read_message(raw[: raw.index(b"image/png")])
    assert "Germany 8/$32" in lines(m)
    assert any("closing boundary" in p for p in m.problems)


def test_unknown_transfer_encoding_is_read_as_is() -> None:
    m = read_message(
        message("From: a@b.org\nMIME-Version: 1.0\nContent-Transfer-Encoding: x-foo", "plain\n")
    )
    assert m.text == "plain\n" and any("x-foo" in p for p in m.problems)


def test_refused_charset_is_not_used() -> None:
    """punycode is a codec, not a charset (and decodes in quadratic time)."""
    m = read_message(
        message(
            "From: a@b.org\nMIME-Version: 1.0\nContent-Type: text/plain; charset=punycode", "ab-"
        )
    )
    assert m.text == "ab-" and any("'punycode'" in p for p in m.problems)


def test_text_is_cut_at_max_text() -> None:
    m = read_message(message("From: a@b.org", "x" * (MAX_TEXT + 10)))
    assert len(m.text) == MAX_TEXT and any("only its start" in p for p in m.problems)


def test_nesting_beyond_the_limit_is_left_unopened() -> None:
    depth = MAX_MULTIPARTS + 10
    nest = "".join(
        f"--b{i}\nContent-Type: multipart/mixed; boundary=b{i + 1}\n\n" for i in range(depth)
    )
    raw = message(
        "From: a@b.org\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b0",
        nest + f"--b{depth}\nContent-Type: text/plain\n\ndeep\n",
    )
    m = read_message(raw)
    assert any("left unopened" in p for p in m.problems) and "deep" not in m.text


def test_a_huge_header_is_cut() -> None:
    m = read_message(message("From: a@b.org\nTo: " + "x@y.org, " * 20_000))
    assert m.recipients == ("x@y.org",) and any("To header is too long" in p for p in m.problems)


def test_a_25_mb_message() -> None:
    attachment = b"Z" * (18 * 1024 * 1024)
    body = (
        (
            b"--b\nContent-Type: text/plain\n\nGermany 1 pre-combat\n--b\n"
            b"Content-Type: application/zip\nContent-Transfer-Encoding: base64\n"
            b'Content-Disposition: attachment; filename="big.zip"\n\n'
        )
        + base64.encodebytes(attachment)
        + b"--b--\n"
    )
    raw = message(
        'From: a@b.org\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="b"', body
    )
    assert len(raw) > 24 * 1024 * 1024
    m = read_message(raw)
    assert m.text == "Germany 1 pre-combat"
    assert m.attachments == (Attachment("big.zip", "application/zip", len(attachment)),)


# --- HTML and format=flowed ---------------------------------------------------------------


def test_html_blocks_breaks_and_entities() -> None:
    html = (
        "<html><head><style>p{color:red}</style><script>var a = '<b>';</script></head>"
        "<body><h1>Germany&nbsp;1 pre-combat</h1><div>Purchases:   5 INF,\n 1 ARM</div>"
        "<ul><li>one</li><li>two &amp; three</li></ul><p>a<br>b</p><br><br><br>"
        "<table><tr><td>Kar</td><td>3 INF</td></tr></table><pre>x\n  y</pre></body></html>"
    )
    assert html_text(html) == (
        "Germany\u00a01 pre-combat\nPurchases: 5 INF, 1 ARM\none\ntwo & three\na\nb\n\n"
        "Kar 3 INF\nx\n  y\n"
    )


def test_html_blockquote_lines_are_quoted() -> None:
    text = html_text(
        "<p>mine</p><blockquote>theirs<br><br>more<blockquote>deeper</blockquote></blockquote>"
        "<p>mine again</p>"
    )
    assert text == "mine\n> theirs\n>\n> more\n> deeper\nmine again\n"


@pytest.mark.parametrize(
    "opening",
    [
        '<div class="gmail_quote gmail_quote_container">',
        '<div id="divRplyFwdMsg">',
        '<div id="appendonsend">',
    ],
)
def test_html_reply_blocks_quote_everything_after(opening: str) -> None:
    text = html_text(f"<div>mine</div>{opening}<div>On Mon wrote:</div></div><div>after</div>")
    assert text == "mine\n> On Mon wrote:\n> after\n"


def test_html_with_unclosed_constructs() -> None:
    assert html_text("a < b and <a<a<a c") == "a < b and <a<a<a c\n"
    assert html_text("kept<!-- an unclosed comment runs to the end <p>x") == "kept\n"
    assert html_text("<p>x</p>" + "<a" * 100_000).startswith("x\n<a<a")


def test_unflow() -> None:
    """RFC 3676: a trailing space joins, space-stuffing is undone, quotes keep their depth,
    the signature separator "-- " never flows."""
    text = "Attack #1 - W Europe \n(10 INF, AA)\n From here\n> quoted \n> on\n-- \nsig"
    assert unflow(text) == "Attack #1 - W Europe (10 INF, AA)\nFrom here\n> quoted on\n-- \nsig"
    assert unflow("Kar 3 INF, \n1 ARM", delsp=True) == "Kar 3 INF,1 ARM"


def test_looks_like_message() -> None:
    assert looks_like_message(b"Received: from x\n\tby y\nSubject: s\n\nbody")
    assert looks_like_message(b"From sender@example.org Sat Mar 14 18:41:09 2009\nFrom: a@b\n\nx")
    assert not looks_like_message(b"X-Custom: only unknown headers\n\nbody")
    assert not looks_like_message(b"Subject: G1\nAttack #1 - W Europe (10 INF)\n")
    assert not looks_like_message(b"Germany 1 pre-combat\n\nSubject: x\n")
    assert not looks_like_message(b"")
    for path in sorted(ROUND_1.glob("*.txt")):
        assert not looks_like_message(path.read_bytes()), path.name
