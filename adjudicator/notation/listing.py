"""Listings of places with their units: "Ger 10 INF, Ukr 2 ARM", "3 INF in Ger", "Fin/Nor".

Origin lines, map updates and placements all list places and units, in either order and
with any punctuation players like between them; :func:`items` pairs each place with its
units, leaving the names' resolution (and its diagnostics) to the caller.
"""

from __future__ import annotations

from typing import NamedTuple

from adjudicator.diagnostics import Rule
from adjudicator.notation.reading import (
    EMPTY_WORDS,
    FILLER,
    MONEY,
    MULTI_WORD_STARTS,
    NUM,
    WORD,
    Reader,
    Token,
)
from adjudicator.units import Units


def span_text(text: str, toks: list[Token], i: int, j: int) -> str:
    """The raw text of tokens ``i`` to ``j - 1`` (spacing as written)."""
    return text[toks[i].start : toks[j - 1].end] if j > i else ""


HARD_STOPS = frozenset({",", ";", "(", ")", ":", "[", "]"})
"""Punctuation that ends a place name."""
JOINERS = frozenset({"-", "=", "/", "|", "&", "+"})
"""Punctuation between items ("Ger - 3 INF"), or inside a name ("Anglo-Egypt", "Fin/Nor")."""


class Item(NamedTuple):
    """A place and the units listed with it, in either order ("Kar 2 FTR", "2 FTR Kar")."""

    place_text: str | None
    units: Units
    empty: bool = False


def items(
    reader: Reader, line: int, text: str, toks: list[Token], i: int, end: int, rule: Rule
) -> tuple[list[Item], int]:
    """The (place, units) items of a segment: "Ger 10 INF, Ukr 2 ARM", "3 INF in Ger".

    Returns the items and the index where reading stopped (``end`` when all was read; less
    after an error, or at a number that starts no unit, such as "3 IPC").
    """
    found: list[Item] = []
    pending: str | None = None
    unit_start = reader.unit_start
    word_units, empty_word = reader.lookup.word_units, reader.lookup.empty_word
    while i < end:
        tok = toks[i]
        written = tok.text
        if written in HARD_STOPS or written in JOINERS or tok.low == "and":
            i += 1
            continue
        kind = tok.kind
        if kind == MONEY:
            break
        if kind == WORD and tok.low not in MULTI_WORD_STARTS and written in word_units:
            starts = word_units[written] is not None  # :meth:`Reader.unit_start`, looked up
        else:
            starts = unit_start(toks, i, end)
        if written[0].isdigit() and not starts:
            break
        if starts or tok.low in EMPTY_WORDS or (kind == WORD and empty_word(written)):
            errors = reader.errors_on(line)
            units, i, empty = reader.units(line, toks, i, end, rule)
            if reader.errors_on(line) > errors:
                return found, i
            if pending is not None:
                found.append(Item(pending, units, empty))
                pending = None
            else:
                found.append(Item(None, units, empty))
            if i < end and toks[i].kind in (NUM, MONEY):
                return found, i
            continue
        while i < end and toks[i].low in FILLER:
            i += 1
        j = i
        while j < end:
            at = toks[j]
            written = at.text
            if written in HARD_STOPS or written[0].isdigit() or at.kind == MONEY:
                break
            if (
                j > i
                and at.kind == WORD
                and at.low not in MULTI_WORD_STARTS
                and written in word_units
            ):
                if word_units[written] is not None:  # :meth:`Reader.unit_start`, looked up
                    break
            elif j > i and unit_start(toks, j, end):
                break
            if at.low in EMPTY_WORDS or (at.kind == WORD and empty_word(written)):
                break
            j += 1
        while j > i and (toks[j - 1].text in JOINERS or toks[j - 1].text == ":"):
            j -= 1
        if j == i:
            i += 1
            continue
        place = text[toks[i].start : toks[j - 1].end]
        i = j
        if not any(ch.isalnum() for ch in place):
            continue
        if found and found[-1].place_text is None and pending is None:
            last = found.pop()
            found.append(Item(place, last.units, last.empty))
        elif pending is not None:
            found.append(Item(pending, Units()))
            pending = place
        else:
            pending = place
    if pending is not None:
        found.append(Item(pending, Units()))
    return found, i
