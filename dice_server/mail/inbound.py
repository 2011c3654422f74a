"""What a player wrote, from a message as received: the decoding layer under the SMTP
gateway (issue 15), and under ``pbem turn check`` on a saved ``.eml``.

Read as plain text, a message is its MIME scaffolding (boundaries, quoted-printable soft
breaks and ``=3D``, base64, an HTML copy of the turn), which the engine takes for orders it
cannot read: a clean multipart turn gave 18 errors. :func:`read_message` gives the headers
the gateway routes and authenticates by, and the text the sender wrote. Quotes, "On ...
wrote:" blocks and signatures inside that text stay the engine's
(``adjudicator.notation.mailtext``); an HTML quote is only marked with "> "
(``dice_server.mail.htmltext``) so that the engine drops it like any other.

Anyone can send mail: nothing here raises, and the work is bounded (``dice_server.mail.mime``
says how). Addresses are read with ``email.utils.getaddresses`` from the header as written,
before any encoded word is decoded, so a display name can never smuggle in an address.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace
from email.message import Message
from email.utils import getaddresses
from typing import Any

from dice_server.mail.mime import (
    CONTROLS,
    MAX_TEXT,
    Attachment,
    Notes,
    attachments,
    body_part,
    decode_words,
    parse,
    part_text,
)
from dice_server.text import without_surrogates

__all__ = ["MAX_TEXT", "Attachment", "Inbound", "looks_like_message", "read_message"]

MAX_RECIPIENTS = 100
MAX_REFERENCES = 100

_DAEMONS = frozenset({"mailer-daemon", "postmaster"})
_PRECEDENCE = frozenset({"bulk", "junk", "list", "auto_reply", "auto-reply"})
_AUTOMATIC = ("x-autoreply", "x-autorespond", "list-id", "x-auto-response-suppress")
_RECIPIENTS = (
    ("to", "To"),
    ("cc", "Cc"),
    ("delivered-to", "Delivered-To"),
    ("x-original-to", "X-Original-To"),
)
_READ = frozenset(
    {"from", "subject", "message-id", "in-reply-to", "references", "return-path"}
    | {"auto-submitted", "precedence", "mime-version", "content-type"}
    | {key for key, _ in _RECIPIENTS}
    | set(_AUTOMATIC)
)
_MSG_ID = re.compile(r"<[^<>]*>")
_FIELD = re.compile(rb"([!-9;-~]+)[ \t]*:")
_NAMED = frozenset({b"from", b"received", b"message-id", b"subject", b"date", b"mime-version"})


@dataclass(frozen=True)
class Inbound:
    """A message decoded: the headers the gateway needs and the text the sender wrote."""

    message_id: str | None
    """As written ("<...>"), whitespace removed; None if missing or empty."""
    sender: str | None
    """The From addr-spec, domain lower-cased; None if missing, unparseable or several."""
    sender_name: str
    recipients: tuple[str, ...]
    """To, Cc, Delivered-To and X-Original-To, in that order, each once, lower-cased."""
    subject: str
    in_reply_to: str | None
    references: tuple[str, ...]
    return_path: str | None
    """The Return-Path addr-spec, "" for the null path ``<>``, None if absent."""
    auto_submitted: bool
    """Sent by a program (RFC 3834 and the usual vendor headers, a read receipt): never to
    be answered, so that two robots cannot loop."""
    bounce: bool
    """A delivery report: from a mailer daemon, a multipart/report, or with a null path."""
    text: str
    """What the sender wrote: the text/plain part, else the HTML one as text."""
    text_source: str
    """"plain", "html" or "none"."""
    attachments: tuple[Attachment, ...]
    problems: tuple[str, ...]
    """What was wrong with the message, for a person."""


def read_message(raw: bytes) -> Inbound:
    """The message ``raw`` decoded. Never raises: what cannot be read is left empty and said
    in ``problems``."""
    notes = Notes()
    try:
        return _read(raw, notes)
    except Exception as exc:  # the last guard: each step has its own
        notes.add(f"the message could not be read ({type(exc).__name__})")
        return Inbound(
            None, None, "", (), "", None, (), None, False, False, "", "none", (), tuple(notes.items)
        )


def looks_like_message(data: bytes) -> bool:
    """Whether ``data`` starts with a block of RFC 5322 header lines naming From, Received,
    Message-ID, Subject, Date or MIME-Version: a saved message, not a turn written as text
    (whose first line, or one before its first blank line, is no "Name: value")."""
    head = data[:65_536]
    lines = head.splitlines()
    if len(data) > len(head) and b"\n\n" not in head and b"\r\n\r\n" not in head:
        lines = lines[:-1]  # cut in the middle
    named = False
    for number, line in enumerate(lines):
        if not line.strip():
            break
        if number == 0 and line.startswith(b"From "):
            continue  # an mbox envelope line
        if line[:1] in (b" ", b"\t"):
            if number == 0:
                return False
            continue
        m = _FIELD.match(line)
        if m is None:
            return False
        named = named or m.group(1).lower() in _NAMED
    return named


def _scrubbed(inbound: Inbound) -> Inbound:
    """Every text field without lone surrogates (what undecodable bytes become when a
    malformed header or part is read as text): each is replaced with U+FFFD, so that what
    a sender wrote can always be stored, signed and quoted back to him."""
    changes: dict[str, Any] = {}
    for f in fields(inbound):
        value = getattr(inbound, f.name)
        if isinstance(value, str):
            changes[f.name] = without_surrogates(value)
        elif isinstance(value, tuple):
            changes[f.name] = tuple(_scrubbed_item(v) for v in value)
    return replace(inbound, **changes)


def _scrubbed_item(value: Any) -> Any:
    if isinstance(value, str):
        return without_surrogates(value)
    if isinstance(value, Attachment):
        return Attachment(
            None if value.filename is None else without_surrogates(value.filename),
            without_surrogates(value.content_type),
            value.size,
        )
    return value


def _read(raw: bytes, notes: Notes) -> Inbound:
    msg, opened = parse(raw, notes)
    headers = _Headers(msg, notes)
    nobody: tuple[str | None, str, bool] = (None, "", False)
    sender, name, daemon = notes.safely("the From header", headers.sender, nobody)
    kind = notes.safely("the Content-Type header", msg.get_content_type, "text/plain")
    report = notes.safely("the Content-Type header", lambda: _report_type(msg), "")
    return_path = notes.safely("the Return-Path header", headers.return_path, None)
    part = notes.safely("the MIME structure", lambda: body_part(msg, notes), None)
    text = source = ""
    if opened and part is not None:
        text = notes.safely("the text", lambda: part_text(part, notes), "")
        source = "html" if part.get_content_type() == "text/html" else "plain"
    none: list[Attachment] = []
    listed = notes.safely("the parts", lambda: attachments(msg, notes, bare=headers.bare), none)
    return _scrubbed(
        Inbound(
            message_id=_compact(headers.first("message-id", "Message-ID")),
            sender=sender,
            sender_name=name,
            recipients=notes.safely("the recipients", headers.recipients, ()),
            subject=notes.safely("the Subject header", headers.subject, ""),
            in_reply_to=_first_id(headers.first("in-reply-to", "In-Reply-To")),
            references=tuple(
                m.group() for v in headers.get("references") for m in _MSG_ID.finditer(v)
            )[:MAX_REFERENCES],
            return_path=return_path,
            auto_submitted=headers.automatic()
            or (kind == "multipart/report" and report == "disposition-notification"),
            bounce=daemon
            or (kind == "multipart/report" and report in ("delivery-status", ""))
            or return_path == "",
            text=text,
            text_source=source or "none",
            attachments=tuple(listed if opened else ()),
            problems=tuple(notes.items),
        )
    )


class _Headers:
    """The headers the gateway needs, unfolded, by lower-cased name."""

    def __init__(self, msg: Message, notes: Notes) -> None:
        self.notes = notes
        self.values: dict[str, list[str]] = {}
        count = 0
        for name, value in msg.items():
            count += 1
            key = name.strip().lower()
            if key in _READ:
                self.values.setdefault(key, []).append(self.unfolded(name.strip(), str(value)))
        self.bare = not count
        if self.bare:
            notes.add("no header lines: not a mail message, all of it was read as the body")
            return
        for key, said in (("from", "no From header"), ("message-id", "no Message-ID header")):
            if key not in self.values:
                notes.add(said)
        if "mime-version" not in self.values and "content-type" not in self.values:
            notes.add("not a MIME message (no MIME-Version header): read as plain text")

    def unfolded(self, name: str, value: str) -> str:
        """A header's value unfolded, its 8-bit bytes (sent raw by some clients, RFC 6532)
        read as UTF-8, or as Latin-1 if they are not."""
        value = value.replace("\r", "").replace("\n", "")
        if value.isascii():
            return value
        data = value.encode("utf-8", "surrogateescape")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            self.notes.add(f"8-bit bytes in the {name} header are not UTF-8: read as Latin-1")
            return data.decode("latin-1")

    def get(self, key: str) -> list[str]:
        return self.values.get(key, [])

    def first(self, key: str, name: str) -> str | None:
        values = self.get(key)
        if len(values) > 1:
            self.notes.add(f"{len(values)} {name} headers: the first was read")
        return values[0] if values else None

    def sender(self) -> tuple[str | None, str, bool]:
        """The From address, its display name, and whether it is a mailer daemon's. Only
        the address counts, never the name: ``"bob@a.org" <eve@b.org>`` is eve@b.org."""
        values = self.get("from")
        if not values:
            return None, "", False
        pairs = [(n, a) for n, a in getaddresses([values[0]]) if a.strip()]
        daemon = any(a.strip().partition("@")[0].lower() in _DAEMONS for _, a in pairs)
        if len(values) > 1:
            self.notes.add(f"{len(values)} From headers: no sender taken")
            return None, "", daemon
        if len(pairs) != 1:
            held = f"{len(pairs)} addresses" if pairs else "no address"
            self.notes.add(f"the From header holds {held}: no sender taken")
            return None, "", daemon
        name, addr = pairs[0]
        spec = _addr_spec(addr)
        if spec is None:
            self.notes.add(f"the From header's {addr.strip()[:80]!r} is not an address")
        return spec, decode_words(name, "From header", self.notes).strip(), daemon

    def recipients(self) -> tuple[str, ...]:
        found: dict[str, None] = {}
        for key, name in _RECIPIENTS:
            for value in self.get(key):
                for _, addr in getaddresses([value]):
                    spec = _addr_spec(addr)
                    if spec is not None:
                        found.setdefault(spec.lower(), None)
                    elif addr.strip():
                        self.notes.add(f"{name}: {addr.strip()[:80]!r} is not an address")
        if len(found) > MAX_RECIPIENTS:
            self.notes.add(f"{len(found)} recipients: only the first {MAX_RECIPIENTS} kept")
        return tuple(found)[:MAX_RECIPIENTS]

    def return_path(self) -> str | None:
        value = self.first("return-path", "Return-Path")
        if value is None:
            return None
        if "".join(value.split()) == "<>":
            return ""
        specs = [s for _, a in getaddresses([value]) if (s := _addr_spec(a)) is not None]
        if len(specs) == 1:
            return specs[0]
        self.notes.add(f"the Return-Path {value.strip()[:80]!r} is not one address")
        return None

    def subject(self) -> str:
        value = self.first("subject", "Subject")
        if value is None:
            return ""
        return CONTROLS.sub(" ", decode_words(value, "Subject header", self.notes)).strip()

    def automatic(self) -> bool:
        """Whether the message says a program sent it (RFC 3834, vendor headers)."""
        if any(v.split(";")[0].strip().lower() != "no" for v in self.get("auto-submitted")):
            return True
        if any(v.strip().lower() in _PRECEDENCE for v in self.get("precedence")):
            return True
        return any(key in self.values for key in _AUTOMATIC)


def _addr_spec(addr: str) -> str | None:
    """``local@domain`` with the domain lower-cased, or None if ``addr`` is not one."""
    addr = addr.strip()
    local, at, domain = addr.rpartition("@")
    if not (at and local and domain) or any(c.isspace() or c in "<>" for c in addr):
        return None
    return None if CONTROLS.search(addr) else f"{local}@{domain.lower()}"


def _compact(value: str | None) -> str | None:
    """A message id as written, without folding whitespace; None if empty."""
    return ("".join(value.split()) or None) if value is not None else None


def _first_id(value: str | None) -> str | None:
    m = _MSG_ID.search(value or "")
    return "".join(m.group().split()) if m else _compact(value)


def _report_type(msg: Message) -> str:
    report = msg.get_param("report-type")
    return report.lower() if isinstance(report, str) else ""
