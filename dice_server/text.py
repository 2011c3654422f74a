"""User text shown to people: a bidirectional control character in a comment, a note, a
name or a game name would reorder the text shown around it (a right-to-left override can
make "hits 3" read differently), so wherever such text is shown to a person, each control
is replaced by a visible marker such as ``[U+202E]`` (issue 12, point 8).

Only what people read is changed: the signed entry bytes, the JSON attached to a mail and
the downloadable entries keep the exact text, so every signature still verifies.

Text must also be encodable to be stored, signed or mailed: :func:`is_unicode` tells a lone
surrogate, :func:`without_surrogates` replaces it (mail as received, answers to it).
"""

from __future__ import annotations

from typing import Any

from flask import Flask

#: The Unicode bidirectional formatting characters (UAX #9, "Explicit Directional
#: Embeddings/Overrides/Isolates" and the implicit marks).
BIDI_CONTROLS = (
    "\u061c"  # ARABIC LETTER MARK
    "\u200e\u200f"  # LEFT-TO-RIGHT MARK, RIGHT-TO-LEFT MARK
    "\u202a\u202b\u202c\u202d\u202e"  # LRE, RLE, PDF, LRO, RLO
    "\u2066\u2067\u2068\u2069"  # LRI, RLI, FSI, PDI
)

_MARKERS = {ord(ch): f"[U+{ord(ch):04X}]" for ch in BIDI_CONTROLS}
_JSON_ESCAPES = {ord(ch): f"\\u{ord(ch):04x}" for ch in BIDI_CONTROLS}


def neutralise_bidi(text: str) -> str:
    """``text`` with each bidirectional control replaced by a visible ``[U+XXXX]``."""
    return text.translate(_MARKERS)


def escape_bidi_json(document: str) -> str:
    """A JSON text with each bidirectional control written as its ``\\uXXXX`` escape: the
    same JSON value (pasted into the verifier it still verifies), shown without reordering.
    The controls can only stand inside JSON strings, where the escape means the same."""
    return document.translate(_JSON_ESCAPES)


def is_unicode(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8: it holds no lone surrogate (half of a
    ``\\u`` escape pair, or what an undecodable byte becomes when read with
    ``surrogateescape``)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def without_surrogates(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD, so that it can always be
    stored, signed and mailed."""
    if is_unicode(text):
        return text
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def shown(value: Any) -> Any:
    """Jinja's ``finalize``: every string a template prints, neutralised. Markup (a form's
    widgets) stays Markup (its ``translate`` returns Markup; the markers hold no character
    HTML gives a meaning to)."""
    return value.translate(_MARKERS) if isinstance(value, str) else value


def init_app(app: Flask) -> None:
    """Neutralise every string the app's templates print. Idempotent; it keeps a
    ``finalize`` set before it, and drops templates compiled without it."""
    env = app.jinja_env
    previous = env.finalize
    if previous is shown or getattr(previous, "neutralises_bidi", False):
        return
    if previous is None:
        env.finalize = shown
    else:

        def chained(value: Any) -> Any:
            return shown(previous(value))

        chained.neutralises_bidi = True  # type: ignore[attr-defined]
        env.finalize = chained
    if env.cache is not None:
        env.cache.clear()
