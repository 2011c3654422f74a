"""The one shape of message the service mails for a ledger entry (a game's or a TripleA
table's): a subject, the envelope, the game's thread, a text, JSON attachments and a fixed
boundary. Stored data makes it, so a resend is the same message byte for byte.

:meth:`Letter.as_bytes` writes the bytes directly: the same bytes the standard library's
email package writes for the message (:meth:`Letter.message`: ``EmailMessage``,
``set_content``, ``add_attachment``, ``as_bytes`` under ``policy.default``), which the
tests hold equal over generated subjects, texts and attachments. The package parses every
header it is given, makes a class for it, and folds it again when it writes: about 2 ms a
message, where the outbox's whole budget is a few. Here a header that is plain ASCII and
fits on its line is written as it is; any other goes through the package's own folding
(the same call its generator makes), and the headers a game repeats (From, To, Cc, its
thread) are folded once and kept. A message to an address that is not ASCII is written by
the package (``SMTPUTF8``), as before.
"""

from __future__ import annotations

import binascii
import functools
import re
from dataclasses import dataclass
from email import policy, quoprimime
from email.message import EmailMessage
from email.utils import format_datetime, parseaddr, parsedate_to_datetime

#: Header values written as they are: printable ASCII words, one space between them, no
#: encoded word (``=?``), which the package would decode.
_PLAIN = re.compile(r"[!-~]+(?: [!-~]+)*")
#: A Message-ID written as it is: dot-atoms on both sides of the @ (the package's parser
#: reports, and may rewrite, anything else).
_MESSAGE_ID = re.compile(r"<[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*>")
_ID_HEADERS = frozenset({"message-id", "in-reply-to", "references"})
_BOUNDARY = re.compile(r"=_pbem_[0-9a-f]{32}")
_FILENAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_MAX: int = policy.default.max_line_length or 78
_FOLDED: dict[tuple[str, str], bytes] = {}
_FOLDED_KEPT = 1024


def header_line(name: str, value: str) -> bytes:
    """``name: value`` as ``policy.default`` writes it, line end included."""
    if len(name) + 2 + len(value) <= _MAX and _as_is(name.lower(), value):
        return f"{name}: {value}\n".encode("ascii")
    made = policy.default.header_store_parse(name, value)[1]
    return policy.default.fold_binary(name, made)


def _as_is(name: str, value: str) -> bool:
    """Whether the package would write ``value`` back as it is (a short line assumed):
    a plain subject, a plain Message-ID, a Date as the package writes dates. Addresses
    always go through the package (a game's are folded once, :func:`kept_line`)."""
    if name == "subject":
        return bool(_PLAIN.fullmatch(value)) and "=?" not in value
    if name in _ID_HEADERS:
        return bool(_MESSAGE_ID.fullmatch(value))
    if name == "date":
        return bool(_PLAIN.fullmatch(value)) and _same_date(value)
    return False


def _same_date(value: str) -> bool:
    """The package writes a Date as the time it reads in it: the same text only when the
    text is already written that way (weekday included)."""
    try:
        return format_datetime(parsedate_to_datetime(value)) == value
    except (TypeError, ValueError, IndexError, OverflowError):
        return False


def kept_line(name: str, value: str) -> bytes:
    """:func:`header_line` for a value many messages repeat, folded once."""
    key = (name, value)
    line = _FOLDED.get(key)
    if line is None:
        if len(_FOLDED) >= _FOLDED_KEPT:
            _FOLDED.clear()
        line = _FOLDED[key] = header_line(name, value)
    return line


def text_body(text: str) -> tuple[str, bytes]:
    """The text part's transfer encoding and body, chosen as ``set_content`` chooses them
    (7bit when every line is ASCII and short enough, 8bit when short but not ASCII, else
    quoted-printable or base64, whichever the first ten lines show shorter)."""
    lines = text.encode("utf-8").splitlines()
    body = b"\n".join(lines) + b"\n"
    if max((len(line) for line in lines), default=0) <= _MAX:
        return ("7bit" if body.isascii() else "8bit"), body
    sniff = b"\n".join(lines[:10]) + b"\n"
    sniff_qp = quoprimime.body_encode(sniff.decode("latin-1"), _MAX)
    if len(sniff_qp) > len(binascii.b2a_base64(sniff)):
        return "base64", base64_lines(body)
    if len(lines) <= 10:
        return "quoted-printable", sniff_qp.encode("ascii")
    return "quoted-printable", quoprimime.body_encode(body.decode("latin-1"), _MAX).encode("ascii")


def base64_lines(data: bytes) -> bytes:
    """Base64 in lines of 76 characters, each ended, as the email package writes it."""
    step = _MAX // 4 * 3
    return b"".join(binascii.b2a_base64(data[i : i + step]) for i in range(0, len(data), step))


@functools.lru_cache(maxsize=64)
def _address_in(sender: str) -> str:
    return parseaddr(str(policy.default.header_store_parse("From", sender)[1]))[1]


def _plain_filename(name: str) -> bool:
    """A file name its Content-Disposition line holds as it is, without folding."""
    return len(_DISPOSITION) + len(name) + 1 <= _MAX and bool(_FILENAME.fullmatch(name))


_DISPOSITION = 'Content-Disposition: attachment; filename=""'


@dataclass(frozen=True)
class Letter:
    """An entry's message. ``thread_root`` (the Message-ID of the chain's first message)
    goes in In-Reply-To and References unless this is that message; ``attachments`` are
    JSON files, (name, bytes); ``date`` is the Date header as written."""

    subject: str
    sender: str
    to: tuple[str, ...]
    cc: tuple[str, ...]
    message_id: str
    date: str
    thread_root: str | None
    text: str
    attachments: tuple[tuple[str, bytes], ...]
    boundary: str

    @property
    def envelope_sender(self) -> str:
        """The address in From, for the SMTP envelope (as read from the header)."""
        return _address_in(self.sender)

    @property
    def _thread(self) -> str | None:
        """The Message-ID this message replies to; None for the thread's first message."""
        return self.thread_root if self.thread_root != self.message_id else None

    def message(self) -> EmailMessage:
        """The message as the email package builds it."""
        msg = EmailMessage()
        msg["Subject"] = self.subject
        msg["From"] = self.sender
        msg["To"] = ", ".join(self.to)
        if self.cc:
            msg["Cc"] = ", ".join(self.cc)
        msg["Message-ID"] = self.message_id
        msg["Date"] = self.date
        if self._thread:
            msg["In-Reply-To"] = msg["References"] = self._thread
        msg.set_content(self.text)
        for filename, data in self.attachments:
            msg.add_attachment(data, maintype="application", subtype="json", filename=filename)
        msg.set_boundary(self.boundary)
        return msg

    def as_bytes(self, international: bool = False) -> bytes:
        """The message's bytes (lines ended by LF). ``international``: an address is not
        ASCII, and the message is written for a relay that speaks SMTPUTF8."""
        if (
            international
            or not self.attachments
            or not _BOUNDARY.fullmatch(self.boundary)
            or not all(_plain_filename(name) for name, _ in self.attachments)
        ):
            utf8 = policy.SMTPUTF8.clone(linesep="\n") if international else None
            return self.message().as_bytes(policy=utf8)
        out = [
            header_line("Subject", self.subject),
            kept_line("From", self.sender),
            kept_line("To", ", ".join(self.to)),
        ]
        if self.cc:
            out.append(kept_line("Cc", ", ".join(self.cc)))
        out += [header_line("Message-ID", self.message_id), header_line("Date", self.date)]
        thread = self._thread
        if thread:
            out += [kept_line(name, thread) for name in ("In-Reply-To", "References")]
        mark = self.boundary.encode("ascii")
        cte, body = text_body(self.text)
        out += [
            b'MIME-Version: 1.0\nContent-Type: multipart/mixed;\n boundary="',
            mark,
            b'"\n\n--',
            mark,
            b'\nContent-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: ',
            cte.encode("ascii"),
            b"\n\n",
            body,
        ]
        for filename, data in self.attachments:
            out += [
                b"\n--",
                mark,
                b"\nContent-Type: application/json\nContent-Transfer-Encoding: base64\n"
                b'Content-Disposition: attachment; filename="',
                filename.encode("ascii"),
                b'"\nMIME-Version: 1.0\n\n',
                base64_lines(data),
            ]
        out += [b"\n--", mark, b"--\n"]
        return b"".join(out)
