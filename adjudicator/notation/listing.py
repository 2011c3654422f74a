"""Listings of places with their units: "Ger 10 INF, Ukr 2 ARM", "3 INF in Ger", "Fin/Nor".

Origin lines, map updates and placements all list places and units, in either order and
with any punctuation players like between them; :func:`items` pairs each place with its
units, leaving the names' resolution (and its diagnostics) to the caller.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from adjudicator.diagnostics import Rule
from adjudicator.notation.reading import EMPTY_WORDS, FILLER, MULTI_WORD_STARTS, NOT_UNITS, Reader
from adjudicator.notation.tokens import MONEY, NUM, WORD, Tokens
from adjudicator.units import NO_UNITS, Units


def span_text(text: str, toks: Tokens, i: int, j: int) -> str:
    """The raw text of tokens ``i`` to ``j - 1`` of the line ``text`` (spacing as written)."""
    return toks.span(i, j)


HARD_STOPS = frozenset({",", ";", "(", ")", ":", "[", "]"})
"""Punctuation that ends a place name."""
JOINERS = frozenset({"-", "=", "/", "|", "&", "+"})
"""Punctuation between items ("Ger - 3 INF"), or inside a name ("Anglo-Egypt", "Fin/Nor")."""
SKIPPED = HARD_STOPS | JOINERS
"""Punctuation skipped before an item."""
_ALNUM = re.compile(r"[^\W_]")
"""A letter or digit (what ``str.isalnum`` finds): a place name has one."""


class Item(NamedTuple):
    """A place and the units listed with it, in either order ("Kar 2 FTR", "2 FTR Kar")."""

    place_text: str | None
    units: Units
    empty: bool = False


def items(
    reader: Reader, line: int, text: str, toks: Tokens, i: int, end: int, rule: Rule
) -> tuple[list[Item], int]:
    """The (place, units) items of a segment: "Ger 10 INF, Ukr 2 ARM", "3 INF in Ger".

    Returns the items and the index where reading stopped (``end`` when all was read; less
    after an error, or at a number that starts no unit, such as "3 IPC").
    """
    found: list[Item] = []
    pending: str | None = None
    lookup = reader.lookup
    word_units, empty_words = lookup.word_units, lookup.empty_words
    make = tuple.__new__
    while i < end:
        tok = toks[i]
        written = tok.text
        kind = tok.kind
        if written in SKIPPED or tok.low == "and":
            i += 1
            continue
        if kind == MONEY:
            break
        if kind == WORD:  # :meth:`Reader.unit_start`, inlined
            if tok.low in MULTI_WORD_STARTS:
                starts = reader.unit_word(toks, i, end)[0] > 0
            else:
                starts = word_units[written] is not None
        elif kind == NUM:
            nxt = toks[i + 1] if i + 1 < end else None
            starts = nxt is not None and nxt.kind == WORD and nxt.low not in NOT_UNITS
            if not starts:
                break
        else:
            starts = False
            if written[0].isdigit():
                break
        if starts or tok.low in EMPTY_WORDS or (kind == WORD and empty_words[written]):
            errors = reader.errors_on(line)
            units, i, empty = reader.units(line, toks, i, end, rule)
            if reader.errors_on(line) > errors:
                return found, i
            found.append(make(Item, (pending, units, empty)))
            pending = None
            if i < end and toks[i].kind in (NUM, MONEY):
                return found, i
            continue
        j = i + 1  # token i is neither a mark nor a count nor the start of units
        while i < end and toks[i].low in FILLER:
            i += 1
            j = i
        while j < end:
            at = toks[j]
            written = at.text
            kind = at.kind
            if kind == NUM or kind == MONEY or written in HARD_STOPS or written[0].isdigit():
                break
            if kind == WORD:
                if j > i:
                    if at.low in MULTI_WORD_STARTS:
                        if reader.unit_word(toks, j, end)[0] > 0:
                            break
                    elif word_units[written] is not None:
                        break
                if at.low in EMPTY_WORDS or empty_words[written]:
                    break
            elif at.low in EMPTY_WORDS:
                break
            j += 1
        while j > i and (toks[j - 1].text in JOINERS or toks[j - 1].text == ":"):
            j -= 1
        if j == i:
            i += 1
            continue
        place = toks.span(i, j)
        if toks[i].kind != WORD and _ALNUM.search(place) is None:
            i = j
            continue
        i = j
        if found and found[-1].place_text is None and pending is None:
            last = found.pop()
            found.append(make(Item, (place, last.units, last.empty)))
        elif pending is not None:
            found.append(make(Item, (pending, NO_UNITS, False)))
            pending = place
        else:
            pending = place
    if pending is not None:
        found.append(make(Item, (pending, NO_UNITS, False)))
    return found, i
