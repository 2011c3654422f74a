"""What of an email is the sender's own text: quoted replies and signatures are not orders.

A turn email is often a reply: the opponent's last turn is quoted below (or above) it, with
``>`` marks or after an "On ... wrote:" line or an "-----Original Message-----" block. Orders
in a quote were the opponent's, so reading them would attribute moves to the wrong player.
Everything after a "-- " signature separator is the signature. Line numbers stay those of the
email as received, so a diagnostic points at the line the player sees.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import NamedTuple

from adjudicator.diagnostics import Diagnostic, Rule, Severity
from adjudicator.fastrecord import quick_init

_INTRO = re.compile(
    r"""^\s*(?:
        on\s.*\swrote:?                      # On Tue, 3 Mar 2009, Bob <b@x> wrote:
      | .{0,120}\swrote:                     # Bob Smith <b@x> wrote:
      | -{2,}\s*original\s+message\s*-{2,}   # -----Original Message-----
      | -{2,}\s*forwarded\s+message\s*-{2,}  # ---------- Forwarded message ---------
      | begin\s+forwarded\s+message:?
      | _{10,}                               # Outlook's rule above the quoted header
    )\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
_INTRO_START = re.compile(r"^\s*on\s.*\d", re.IGNORECASE)
_WROTE_END = re.compile(r"\swrote:\s*$", re.IGNORECASE)
_QUOTED = re.compile(r"^\s*>")
_SIGNATURE = re.compile(r"^--\s*$")
_HEADER = re.compile(r"^(from|to|cc|date|sent|reply-to|message-id):\s", re.IGNORECASE)
_SUBJECT = re.compile(r"^subject:\s*(.*)$", re.IGNORECASE)
_DEVICE = re.compile(r"^\s*(sent from my |get outlook for )", re.IGNORECASE)
_RARE = re.compile(
    r"^\s*>|^--|wrote|original|forwarded|_{10}|^\s*on\s|^\s*(?:sent from my |get outlook for )",
    re.IGNORECASE,
)
"""What any quote intro, quoted line, signature separator or device footer holds: a line
without it is plain text, read without trying those patterns one by one."""


def _has_rare_word(low: str) -> bool:
    """Whether lower-cased text holds one of the words of :data:`_RARE` ("wrote", "original",
    "forwarded", or a rule of ten underscores)."""
    return "wrote" in low or "original" in low or "forwarded" in low or "_" * 10 in low


_RARE_START = re.compile(r"\s*(?:>|on\s|sent from my |get outlook for )|--")
_RARE_LATER_START = re.compile(r"\n(?:\s*(?:>|on\s|sent from my |get outlook for )|--)")
""":data:`_RARE` split for ASCII, lower-cased text: words anywhere, and line starts (at the
start of the text, or after a line break: a pattern starting with one is found by a fast
scan, where ``^`` in multi-line mode tries every position)."""


def _rare(line: str) -> bool:
    """Whether a line could be a quote, an intro, a signature separator or a device footer
    (:data:`_RARE`; for ASCII, lower-casing matches exactly as the pattern's IGNORECASE does,
    and the words are found without trying the pattern at every position)."""
    if not line.isascii():
        return _RARE.search(line) is not None
    low = line.lower()
    return _has_rare_word(low) or _RARE_START.match(low) is not None


def _plain(raw: list[str], cleaned: str) -> bool:
    """Whether no line of an email could be a quote, an intro, a signature separator or a
    device footer (so every line is the sender's own). Only decided for ASCII text, where
    lower-casing matches exactly as the patterns' IGNORECASE does."""
    if not cleaned.isascii():
        return False
    joined = "\n".join(raw).lower()
    if _has_rare_word(joined):
        return False
    return _RARE_START.match(joined) is None and _RARE_LATER_START.search(joined) is None


class Line(NamedTuple):
    """One line of the sender's own text, with its 1-based number in the email (a named
    tuple: an email makes one per line, and they must be cheap)."""

    number: int
    text: str


_make_line = functools.partial(tuple.__new__, Line)
"""A :class:`Line` from a (number, text) pair, made without a Python-level call."""


@quick_init
@dataclass(frozen=True)
class Body:
    """The lines to read, the subject if the email was pasted with its headers, and notes."""

    lines: tuple[Line, ...]
    subject: Line | None
    notes: tuple[Diagnostic, ...]


def _quoted_note(first: int, last: int) -> Diagnostic:
    where = (
        f"line {first} quotes an earlier email and was"
        if first == last
        else f"lines {first}-{last} quote an earlier email and were"
    )
    return Diagnostic(
        Severity.INFO,
        Rule.PROCEDURES,
        f"{where} not read as orders",
        "write your orders outside the quoted reply (no '>' marks)",
        "quoted",
        line=first,
    )


def own_text(text: str) -> Body:
    """The sender's own lines of ``text``: headers, quotes and signature removed."""
    cleaned = text.replace("\t", " ").replace("\u00a0", " ")
    raw = list(map(str.rstrip, cleaned.splitlines()))
    lines: list[Line] = []
    notes: list[Diagnostic] = []
    subject: Line | None = None
    quote_from: int | None = None
    quote_to = 0
    i = 0
    in_headers = True
    plain = _plain(raw, cleaned)
    while i < len(raw):
        number, line = i + 1, raw[i]
        if plain and not in_headers:
            lines.extend(map(_make_line, enumerate(raw[i:], start=number)))
            break
        if in_headers and (_HEADER.match(line) or _SUBJECT.match(line)):
            m = _SUBJECT.match(line)
            if m:
                subject = Line(number, m.group(1))
            i += 1
            continue
        if plain or (quote_from is None and not _rare(line)):
            if line:
                in_headers = False
            lines.append(Line(number, line))
            i += 1
            continue
        if line.strip():
            in_headers = False
        intro = _INTRO.match(line) is not None
        two_line = (
            not intro
            and _INTRO_START.match(line) is not None
            and i + 1 < len(raw)
            and _WROTE_END.search(raw[i + 1]) is not None
        )
        if intro or two_line:
            start = i
            i += 2 if two_line else 1
            while i < len(raw) and not raw[i].strip():
                i += 1
            if i < len(raw) and not _QUOTED.match(raw[i]):
                notes.append(_quoted_note(start + 1, len(raw)))
                break
            quote_from = start + 1 if quote_from is None else quote_from
            quote_to = i
            continue
        if _QUOTED.match(line):
            quote_from = number if quote_from is None else quote_from
            quote_to = number
            i += 1
            continue
        if quote_from is not None and line.strip():
            notes.append(_quoted_note(quote_from, quote_to))
            quote_from = None
        if _SIGNATURE.match(line):
            break
        if not _DEVICE.match(line):
            lines.append(Line(number, line))
        i += 1
    if quote_from is not None:
        notes.append(_quoted_note(quote_from, quote_to))
    return Body(tuple(lines), subject, tuple(notes))
