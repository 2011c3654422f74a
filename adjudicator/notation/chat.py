"""What in a turn email is chat rather than orders: remarks, sentences, signatures.

Players write remarks between their orders ("Rolling Ukraine first.", "I'll take the bid",
"Sorry for the delay") and sign with their name. A line that does not look like an order
(:func:`looks_like_an_order`) and cannot be read is chat, at most noted; one that looks like
an order and cannot be read is an error (IAAPA Error Correction VI: "In all cases, the correct
word must be readily decipherable").
"""

from __future__ import annotations

import re
from itertools import pairwise

from adjudicator.names.resolver import UnknownName
from adjudicator.notation.mailtext import Line
from adjudicator.notation.reading import IPC_WORDS, Reader
from adjudicator.notation.routes import ROLE_WORDS
from adjudicator.notation.sections import Section, header
from adjudicator.notation.tokens import (
    NUM,
    PUNCT,
    WORD,
    Token,
    Tokens,
    brackets,
    has_digit,
    tokenize,
    without,
)

_PROSE_END = re.compile(r"[?!]\s*$|[.]\s*$")
NAME_FAILURES = frozenset({"unknown-name", "ambiguous-name"})
"""Errors saying a word is no name on the board: in a line that does not look like an order,
the sign of chat ("Rolling Ukraine first.")."""
_ORDER_MARK = re.compile(
    r"[\d#$]|->|=>|→|\b(?:wi|mt|ool|sbr)\b|\b(?:retreat|withdraw)\w*\b.*(?:\b(?:to|into)\b|:)",
    re.IGNORECASE,
)
"""What only orders hold: a number, "$", "#", an arrow, the notation's abbreviations, a
retreat or withdrawal with its destination."""
_ORDER_MARK_LOW = re.compile(_ORDER_MARK.pattern)
""":data:`_ORDER_MARK` for lower-cased ASCII text (every letter of the pattern is lower case):
what ignoring case finds, several times faster."""
_ORDER_SIGN = re.compile(r"[\d#$]|->|=>|→")
""":data:`_ORDER_MARK` without its words: found at once in the lines that have a number."""
_REFERENCE = re.compile(
    r"(?:\b(?:battles?|attacks?|combats?|rounds?|rd)\s*(?:#|no\.?)?\s*|#\s*|\b[ab](?=\d))"
    r"\d{1,3}\b",
    re.IGNORECASE,
)
"""A battle's or a round's number ("battle 1", "#2", "A1", "round 3"): in a sentence that
names no unit, a reference to an order, not one ("Will roll battle 1 first.")."""


def _may_hold_order_words(low: str) -> bool:
    """Whether lower-cased ASCII text holds what every word of :data:`_ORDER_MARK` contains
    ("wi", "mt", "ool", "sbr", "retreat", "withdraw"): a cheap test before the pattern."""
    return (
        "wi" in low
        or "mt" in low
        or "ool" in low
        or "sbr" in low
        or "retreat" in low
        or "withdraw" in low
    )


_SENTENCE_END = re.compile(r"[.!?]\s*$")


def is_prose(text: str) -> bool:
    """Chat rather than orders: no number, and a sentence or a long line."""
    if has_digit(text):
        return False
    words = len(text.split())
    return words > 10 or (words > 4 and _PROSE_END.search(text) is not None)


_NAME_WORD = re.compile(r"^[^\W\d_][\w.'’-]*$")
_ORDER_WORDS = frozenset(
    {
        "to",
        "via",
        "from",
        "on",
        "land",
        "into",
        "wi",
        "mt",
        "ool",
        "none",
        "nothing",
        "retreat",
        "retreats",
        "withdraw",
        "withdraws",
        "empty",
    }
)


def _looks_like_a_name(reader: Reader, text: str) -> bool:
    """ "Bob", "Nigel A.", "Jürgen": a signature, not an order ("Retreat to Kar", "Sweden")."""
    words = text.split()
    if not 0 < len(words) <= 3 or not all(_NAME_WORD.match(w) for w in words):
        return False
    if len(words) > 1 and not all(w[0].isupper() for w in words):
        return False
    if any(w.lower().strip(".") in _ORDER_WORDS or reader.exact_term(w) is not None for w in words):
        return False
    return not reader.is_place(text) and header(text) is None


def _signed(text: str) -> str:
    """A signature line without the dash a name is often signed with ("-Ivan", "-- Bob")."""
    return text.strip().lstrip("-–—~ ").strip()


def signature_lines(reader: Reader, lines: tuple[Line, ...]) -> set[int]:
    """The lines of a closing name block: the last paragraph, if it is one or two lines
    that look like a name ("Bob", "Tom Smith")."""
    last: list[Line] = []
    for line in reversed(lines):
        if not line.text.strip():
            if last:
                break
            continue
        last.append(line)
    if not last or len(last) > 3 or not _looks_like_a_name(reader, _signed(last[0].text)):
        return set()
    if len(last) <= 2 and all(_looks_like_a_name(reader, _signed(line.text)) for line in last):
        return {line.number for line in last}
    if all(_remark_before_a_name(reader, line.text.strip()) for line in last[1:]):
        return {last[0].number}  # "Will roll battle 1 first. Good luck!" then "Ivan"
    return set()


def _remark_before_a_name(reader: Reader, text: str) -> bool:
    """Whether a line above a closing name is a remark: a sentence ("Good luck!") that is
    no order, and no header. A sentence that names no unit, with no number but a battle's,
    is one even if it speaks of orders ("Please send your OOL for both battles. Thanks!"):
    the line is read all the same, and only the name below it is left unread."""
    return (
        _SENTENCE_END.search(text) is not None
        and header(text) is None
        and (not looks_like_an_order(reader, text, Section.NONE) or names_no_units(reader, text))
    )


def names_no_units(reader: Reader, text: str) -> bool:
    """Whether a line names no unit, and has no number but a battle's or a round's ("Please
    send your OOL for both battles.", "Rolling #1 first. Please send your OOL"): whatever
    words of orders it holds, it gives none."""
    rest = _REFERENCE.sub(" ", text) if "#" in text or may_refer(text) else text
    return not has_digit(rest) and not _names_a_unit(reader, tokenize(rest))


_BATTLE_NUMBER = re.compile(r"#\s*\d")


def mentions_units(reader: Reader, text: str, toks: list[Token] | None = None) -> bool:
    """True if a line names a unit or a battle number: likely an order, not chat."""
    if "#" in text and _BATTLE_NUMBER.search(text):
        return True
    return _names_a_unit(reader, tokenize(text) if toks is None else toks)


def _order_words(text: str) -> bool:
    """Whether ``text`` holds the words of :data:`_ORDER_MARK` (WI, MT, OOL, SBR, a retreat
    or withdrawal with its destination)."""
    if not text.isascii():
        return _ORDER_MARK.search(text) is not None
    low = text.lower()
    return _may_hold_order_words(low) and _ORDER_MARK_LOW.search(low) is not None


def looks_like_an_order(
    reader: Reader, text: str, section: Section, toks: list[Token] | None = None
) -> bool:
    """Whether a line reads as an order rather than chat: a number, "$", "#", an arrow, a
    notation abbreviation (WI, MT, OOL, SBR), a unit named exactly, a retreat or withdrawal
    with its destination, or, in the map update, a short line (a bare place is an entry)."""
    if _ORDER_SIGN.search(text) is not None or _order_words(text):
        return True
    if mentions_units(reader, text, toks):
        return True
    return section is Section.MAP and len(text.split()) <= 3 and _SENTENCE_END.search(text) is None


_SPECIAL = re.compile(r"\b(?:retreat|withdraw|submerg|ool\b|orders?\s+of\s+loss)", re.IGNORECASE)
"""What marks a special order ("Retreat after round 2"): never a remark about one."""


_A_OR_B_NUMBER = re.compile(r"[ab]\d")


def may_refer(text: str) -> bool:
    """Whether a line may hold a :data:`_REFERENCE` (the letters every one of them holds):
    a cheap test, where the pattern takes microseconds on every line with a number."""
    low = text.lower()
    return (
        "#" in low
        or "batt" in low
        or "atta" in low
        or "comb" in low
        or "round" in low
        or "rd" in low
        or _A_OR_B_NUMBER.search(low) is not None
    )


def refers_only(reader: Reader, text: str, toks: list[Token] | None = None) -> bool:
    """Whether a sentence of three words or more names no unit, and every number, "#" and
    "$" in it is a battle's or a round's number ("Rolling battle 2 next", "I'll roll #1
    first"): a remark about orders, not one."""
    if not may_refer(text) or _REFERENCE.search(text) is None or len(text.split()) < 3:
        return False
    if _SPECIAL.search(text):
        return False
    rest = _REFERENCE.sub(" ", text)
    if _ORDER_SIGN.search(rest) is not None or _order_words(rest):
        return False
    return not _names_a_unit(reader, tokenize(text) if toks is None else toks)


def _names_a_unit(reader: Reader, toks: list[Token]) -> bool:
    """Whether a line names a unit exactly (two letters or more: "INF", "subs")."""
    for tok in toks:
        if tok.kind == WORD and len(tok.text) > 1:
            term = reader.exact_term(tok.text)
            if term is not None and term.unit is not None:
                return True
    return False


_BRACKETED = re.compile(r"[(\[]([^)\]]*)")
"""What each bracket of a line holds (to its end, if it is not closed)."""


def is_remark(reader: Reader, inside: list[Token], *, amounts: bool = False) -> bool:
    """Whether a bracket's tokens are a remark ("captured", "already counted above, 4 spaces
    total"): words, and numbers that count no unit, with no unit, no word for an empty
    space, no place and no word of a move's route. Where ``amounts`` are read (a purchase),
    a count of IPCs ("(19 IPCs)") is the amount spent, no remark."""
    lookup = reader.lookup
    words = [tok for tok in inside if tok.kind == WORD]
    if not words or any(tok.kind not in (WORD, NUM, PUNCT) for tok in inside):
        return False
    if amounts and any(tok.kind == NUM and nxt.low in IPC_WORDS for tok, nxt in pairwise(inside)):
        return False
    for tok in words:
        if (
            tok.low in ROLE_WORDS
            or lookup.word_units[tok.text]
            or lookup.empty_words[tok.text]
            or lookup.exact_places[tok.text]
        ):
            return False
    # a place however written ("Med SZ" fits three: not a remark, whatever it is)
    return isinstance(lookup.place(" ".join(tok.text for tok in words)), UnknownName)


def remarks(
    reader: Reader, text: str, toks: Tokens, *, amounts: bool = False
) -> tuple[str, Tokens, list[str]]:
    """The line without its brackets that are remarks (:func:`is_remark`, ``amounts`` as
    there), and the remarks as written: "Norway 1 FTR to UK (already counted above)"."""
    if all(
        (words := inside.split(maxsplit=1)) and words[0].lower() in ROLE_WORDS
        for inside in _BRACKETED.findall(text)
    ):
        return text, toks, []  # "(land Karelia)": every bracket has a part in the move
    cuts = [(i, j) for i, j, inside in brackets(toks) if is_remark(reader, inside, amounts=amounts)]
    if not cuts:
        return text, toks, []
    said = [toks.span(i, j) for i, j in cuts]
    kept = without(toks, cuts)
    return kept.text, kept, said
