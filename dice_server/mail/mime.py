"""A message's MIME structure, read with bounded work: which part the sender wrote in, its
text by its charset, and the parts that are attachments (``dice_server.mail.inbound``).

Anyone can send mail, so nothing here may take minutes or raise on crafted input. The input
is cut to ``MAX_BYTES`` and ``MAX_LINES``; a header to ``MAX_HEADER`` characters as it is
parsed (the standard library's parameter and address parsers are quadratic or recursive on
crafted ones); at most ``MAX_MULTIPARTS`` multiparts are opened (the parser tests every line
against every open boundary) and ``MAX_PARTS`` parts examined; the text is cut to
``MAX_TEXT``. Each cut is noted. The parser keeps headers as written (a compat32 policy):
``policy.default`` raises on some malformed headers, and each header is decoded by one
guarded reader instead.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import encodings
import encodings.aliases
import re
from collections.abc import Callable
from dataclasses import dataclass
from email.message import Message
from email.parser import BytesParser
from email.policy import Compat32
from itertools import islice
from typing import TypeVar

from dice_server.mail.htmltext import html_text

MAX_TEXT = 1_000_000
"""Characters of decoded text kept (and of HTML read): a turn is a few thousand."""
MAX_BYTES = 32 * 1024 * 1024
MAX_LINES = 600_000
"""Lines parsed: a 25 MB base64 attachment is about 340,000."""
MAX_HEADER = 16_384
MAX_MIME_HEADER = 2_048
MAX_PARAMS = 64
MAX_MULTIPARTS = 32
MAX_PARTS = 500
MAX_DEPTH = 32
MAX_NOTES = 40

T = TypeVar("T")

TEXT_TYPES = ("text/plain", "text/html")
_KNOWN_CTE = frozenset(
    {"", "7bit", "8bit", "binary", "base64", "quoted-printable", "x-uuencode", "uuencode"}
)
_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
_ENCODED_WORD = re.compile(r"=\?([^?\s]{1,64})\?([bBqQ])\?([^?\s]*)\?=")
CONTROLS = re.compile(r"[\x00-\x1f\x7f]")

_CODEC_MODULES = frozenset(encodings.aliases.aliases.values()) | {
    *("cp720", "cp737", "cp856", "cp874", "cp875", "cp1006", "koi8_t", "koi8_u"),
    *("mac_arabic", "mac_croatian", "mac_farsi", "mac_romanian", "utf_8_sig"),
}
"""The charsets a part may declare: those Python knows by an alias or as a codec module. No
other name reaches ``codecs.lookup``, whose search keeps every name it misses."""
_REFUSED_CODECS = frozenset(
    {"base64_codec", "bz2_codec", "hex_codec", "quopri_codec", "rot_13", "uu_codec", "zlib_codec"}
    | {"mbcs", "oem", "tactis", "unicode_escape", "raw_unicode_escape", "punycode", "idna"}
)
"""Not charsets (bytes-to-bytes codecs, Python escapes, platform codecs); punycode and idna
also decode in quadratic time."""

_DEFECTS = {
    "StartBoundaryNotFoundDefect": "its boundary never appears, so it was not split into parts",
    "CloseBoundaryNotFoundDefect": "its closing boundary is missing (a truncated message?)",
    "NoBoundaryInMultipartDefect": "it is declared multipart without a boundary",
    "MultipartInvariantViolationDefect": "it is declared multipart but holds no parts",
    "MissingHeaderBodySeparatorDefect": "a line among its headers is no header: the rest "
    "was read as the body",
    "FirstHeaderLineIsContinuationDefect": "its first header line is a continuation line",
    "MisplacedEnvelopeHeaderDefect": "a 'From ' envelope line stands among its headers",
    "InvalidBase64PaddingDefect": "its base64 is badly padded: decoded as far as possible",
    "InvalidBase64CharactersDefect": "its base64 holds other characters: they were skipped",
    "InvalidBase64LengthDefect": "its base64 has an impossible length: decoded as far as possible",
    "InvalidMultipartContentTransferEncodingDefect": "it is multipart but declares a "
    "transfer encoding other than 7bit, 8bit or binary",
}


@dataclass(frozen=True)
class Attachment:
    """A part that is not the text: listed for the sender, never read as orders."""

    filename: str | None
    content_type: str
    size: int
    """Decoded bytes."""


class Notes:
    """What was wrong with one message, for a person: each note once, at most MAX_NOTES."""

    def __init__(self) -> None:
        self.items: dict[str, None] = {}

    def add(self, note: str) -> None:
        if len(self.items) < MAX_NOTES:
            self.items.setdefault(note, None)

    def safely(self, what: str, read: Callable[[], T], default: T) -> T:
        """``read()``, or ``default`` with a note if it raises: one bad header or part
        loses only itself."""
        try:
            return read()
        except Exception as exc:
            self.add(f"{what} could not be read ({type(exc).__name__})")
            return default


class _Budget:
    """What one parse cut, to be noted (each message gets a policy of its own)."""

    def __init__(self) -> None:
        self.multiparts = 0
        self.unopened = 0
        self.cut: dict[str, None] = {}


class _Policy(Compat32):
    """compat32 with each header bounded as it is parsed (before the parser itself reads a
    boundary parameter) and fetched as written."""

    budget: _Budget

    def __init__(self, budget: _Budget) -> None:
        super().__init__()
        object.__setattr__(self, "budget", budget)  # policies are read-only once made

    def header_source_parse(self, sourcelines: list[str]) -> tuple[str, str]:
        name, value = super().header_source_parse(sourcelines)
        key = name.strip().lower()
        mime = key.startswith("content-")
        if len(value) > (MAX_MIME_HEADER if mime else MAX_HEADER):
            value = _cut(value[: MAX_MIME_HEADER if mime else MAX_HEADER], key)
            self.budget.cut[name.strip()] = None
        if mime and value.count(";") > MAX_PARAMS:
            value = ";".join(value.split(";", MAX_PARAMS + 1)[: MAX_PARAMS + 1])
            self.budget.cut[name.strip()] = None
        if key == "content-type" and value.lstrip().lower().startswith("multipart/"):
            if self.budget.multiparts >= MAX_MULTIPARTS:
                self.budget.unopened += 1
                value = "application/octet-stream"
            else:
                self.budget.multiparts += 1
        return name, value

    def header_fetch_parse(self, name: str, value: str) -> str:
        return value


_ADDRESS_HEADERS = frozenset(
    {"from", "sender", "reply-to", "to", "cc", "bcc", "delivered-to", "x-original-to"}
)


def _cut(value: str, key: str) -> str:
    """A header cut to size at its last whole item: an address, a parameter, a word."""
    if key in _ADDRESS_HEADERS:
        end = value.rfind(",")
    elif key.startswith("content-"):
        end = value.rfind(";")
    else:
        end = max(value.rfind(" "), value.rfind("\t"))
    return value[:end] if end > 0 else value


def parse(raw: bytes, notes: Notes) -> tuple[Message, bool]:
    """``raw`` parsed, and whether its MIME structure could be (only its headers if not)."""
    if len(raw) > MAX_BYTES:
        notes.add(f"the message is over {MAX_BYTES} bytes: only its start was read")
        raw = raw[:MAX_BYTES]
    lines = raw.count(b"\n") + raw.count(b"\r") - raw.count(b"\r\n")
    if lines > MAX_LINES:
        last = next(islice(_LINE_BREAK.finditer(raw), MAX_LINES - 1, None))
        raw = raw[: last.end()]
        notes.add(f"the message has {lines} lines: only the first {MAX_LINES} were read")
    budget = _Budget()
    try:
        msg, opened = BytesParser(policy=_Policy(budget)).parsebytes(raw), True
    except Exception as exc:  # RecursionError on crafted nesting
        notes.add(f"its MIME structure could not be read ({type(exc).__name__}): no text")
        budget = _Budget()
        msg, opened = BytesParser(policy=_Policy(budget)).parsebytes(raw, headersonly=True), False
    for name in list(budget.cut)[:5]:
        notes.add(f"a {name} header is too long: only its start was read")
    if budget.unopened:
        notes.add(f"more than {MAX_MULTIPARTS} multiparts: {budget.unopened} left unopened")
    return msg, opened


def body_part(msg: Message, notes: Notes) -> Message | None:
    """The part the sender wrote in: the first text part that is not an attachment; in a
    multipart/alternative its text/plain (unless empty), else its HTML."""
    seen = [0]

    def find(part: Message, depth: int) -> Message | None:
        seen[0] += 1
        if seen[0] > MAX_PARTS or depth > MAX_DEPTH or _is_attachment(part):
            return None
        kind = part.get_content_type()
        if kind in TEXT_TYPES:
            return part
        if not (kind.startswith("multipart/") and part.is_multipart()):
            return None
        children = [c for c in part.get_payload() if isinstance(c, Message)]
        if kind != "multipart/alternative":
            return next((f for c in children if (f := find(c, depth + 1)) is not None), None)
        found = [f for c in children if (f := find(c, depth + 1)) is not None]
        plain = [f for f in found if f.get_content_type() == "text/plain"]
        html = [f for f in found if f.get_content_type() == "text/html"]
        if plain and html and not any(_payload(p).strip() for p in plain):
            notes.add("the text/plain part is empty: its HTML alternative was read")
            return html[0]
        return plain[0] if plain else html[0] if html else None

    return find(msg, 0)


def part_text(part: Message, notes: Notes) -> str:
    """The text of a text/plain or text/html part, line ends normalised to "\\n"."""
    kind = part.get_content_type()
    cte = str(part.get("content-transfer-encoding", "")).strip().lower()
    if cte not in _KNOWN_CTE:
        notes.add(f"the {kind} part's transfer encoding {cte[:40]!r} is unknown: read as is")
    data = _payload(part)
    cut = len(data) > 4 * MAX_TEXT
    text = decode(data[: 4 * MAX_TEXT], part.get_content_charset(), f"the {kind} part", notes)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if kind == "text/html":
        cut = cut or len(text) > MAX_TEXT
        text = html_text(text[:MAX_TEXT])
    elif str(part.get_param("format", "")).lower() == "flowed":
        text = unflow(text, delsp=str(part.get_param("delsp", "")).lower() == "yes")
    if cut or len(text) > MAX_TEXT:
        notes.add(f"the text is over {MAX_TEXT} characters: only its start was read")
    return text[:MAX_TEXT]


def attachments(msg: Message, notes: Notes, *, bare: bool = False) -> list[Attachment]:
    """Every part that is not a text to read, in order; each part's defects noted (those
    of a ``bare`` message, one without headers, are said by its reader)."""
    found: list[Attachment] = []
    stack: list[tuple[Message, int]] = [(msg, 0)]
    seen = 0
    while stack:
        part, depth = stack.pop()
        seen += 1
        if seen > MAX_PARTS:
            notes.add(f"more than {MAX_PARTS} MIME parts: the rest were not examined")
            break
        try:
            stack.extend(_inside(part, depth, found, notes))
        except Exception as exc:
            notes.add(f"a MIME part could not be read ({type(exc).__name__})")
        where = "the message" if part is msg else f"a {part.get_content_type()} part"
        for defect in [] if part is msg and bare else part.defects:
            name = type(defect).__name__
            notes.add(f"{where}: {_DEFECTS.get(name, name)}")
    return found


def _inside(
    part: Message, depth: int, found: list[Attachment], notes: Notes
) -> list[tuple[Message, int]]:
    """The parts in ``part`` to look at next; ``part`` added to ``found`` if it is an
    attachment (a message/* part is one: its text was not written by the sender)."""
    kind = part.get_content_type()
    if kind.startswith("multipart/") and part.is_multipart():
        if depth >= MAX_DEPTH:
            return []
        children = [c for c in part.get_payload() if isinstance(c, Message)]
        return [(c, depth + 1) for c in reversed(children)]
    if kind.startswith("message/") or kind not in TEXT_TYPES or _is_attachment(part):
        name = notes.safely("a filename", lambda: _filename(part), None)
        found.append(Attachment(name, kind, notes.safely("a part's size", lambda: _size(part), 0)))
    return []


def decode(data: bytes, declared: str | None, what: str, notes: Notes) -> str:
    """``data`` read by its declared charset. An unknown charset, or ASCII or UTF-8 that is
    not, is read as UTF-8 if it is that, else as Windows-1252 or Latin-1: ASCII turn
    notation survives either way."""
    codec = _codec(declared) if declared else "ascii"
    if codec is None:
        text, used = _guess(data)
        notes.add(f"{what} declares charset {declared!r}, which is unknown: read as {used}")
        return text
    try:
        return data.decode(codec)
    except UnicodeDecodeError:
        pass
    if codec in ("ascii", "utf-8"):
        text, used = _guess(data)
        said = f"charset {declared!r}" if declared else "no charset"
        notes.add(f"{what} declares {said} but holds other bytes: read as {used}")
        return text
    notes.add(f"{what} holds bytes that are not {declared}: they were replaced")
    return data.decode(codec, "replace")


def decode_words(value: str, where: str, notes: Notes) -> str:
    """``value`` with its RFC 2047 encoded words decoded; the space between two adjacent
    ones is dropped (RFC 2047 section 6.2)."""
    out: list[str] = []
    pos = 0
    for m in _ENCODED_WORD.finditer(value):
        between = value[pos : m.start()]
        if not (pos and not between.strip()):
            out.append(between)
        pos = m.end()
        charset, kind, encoded = m.group(1).split("*")[0], m.group(2).upper(), m.group(3)
        data = encoded.encode("ascii", "replace")
        try:
            if kind == "Q":
                decoded = binascii.a2b_qp(data, header=True)
            else:
                decoded = base64.b64decode(data + b"=" * (-len(data) % 4), validate=True)
        except (binascii.Error, ValueError):
            notes.add(f"an encoded word in the {where} is malformed: left as written")
            out.append(m.group())
            continue
        out.append(decode(decoded, charset, f"the {where}", notes))
    out.append(value[pos:])
    return "".join(out)


def unflow(text: str, *, delsp: bool = False) -> str:
    """format=flowed text (RFC 3676) as written: a line ending in a space goes on in the
    next one, so a line the client wrapped is one line again; space-stuffing is undone."""
    out: list[str] = []
    paragraph: list[str] = []
    depth = ""
    for line in text.split("\n"):
        quote = line[: len(line) - len(line.lstrip(">"))]
        body = line[len(quote) :]
        body = body[1:] if body.startswith(" ") else body
        if paragraph and quote != depth:
            out.append(_quoted(depth, "".join(paragraph)))
            paragraph = []
        depth = quote
        flowed = body.endswith(" ") and body != "-- "
        paragraph.append(body[:-1] if flowed and delsp else body)
        if not flowed:
            out.append(_quoted(quote, "".join(paragraph)))
            paragraph = []
    if paragraph:
        out.append(_quoted(depth, "".join(paragraph)))
    return "\n".join(out)


def _quoted(quote: str, body: str) -> str:
    return f"{quote} {body}" if quote and body else quote + body


def _payload(part: Message) -> bytes:
    payload = part.get_payload(decode=True)
    return payload if isinstance(payload, bytes) else b""


def _is_attachment(part: Message) -> bool:
    return part.get_content_disposition() == "attachment" or _filename(part) is not None


def _filename(part: Message) -> str | None:
    """The part's filename, RFC 2231 or (as Outlook writes it) RFC 2047 encoded."""
    name = part.get_filename()
    if name is None:
        return None
    if "=?" in name:
        name = decode_words(name, "filename", Notes())
    return CONTROLS.sub("", name).strip() or None


def _size(part: Message) -> int:
    if part.is_multipart():  # message/rfc822: the message it holds, as sent
        return sum(len(p.as_bytes()) for p in part.get_payload() if isinstance(p, Message))
    return len(_payload(part))


def _codec(name: str) -> str | None:
    key = encodings.normalize_encoding(name.strip().lower())
    module = encodings.aliases.aliases.get(key, key)
    if module not in _CODEC_MODULES or module in _REFUSED_CODECS:
        return None
    try:
        return codecs.lookup(module).name
    except LookupError:
        return None


def _guess(data: bytes) -> tuple[str, str]:
    for codec, name in (("utf-8", "UTF-8"), ("cp1252", "Windows-1252")):
        try:
            return data.decode(codec), name
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1"), "Latin-1"
