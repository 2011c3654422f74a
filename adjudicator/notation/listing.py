"""Listings of places with their units: "Ger 10 INF, Ukr 2 ARM", "3 INF in Ger", "Fin/Nor".

Origin lines, map updates and placements all list places and units, in either order and
with any punctuation players like between them; :func:`items` pairs each place with its
units, leaving the names' resolution (and its diagnostics) to the caller.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from adjudicator.diagnostics import Rule
from adjudicator.notation.reading import (
    ROLE_COUNT,
    ROLE_COUNTABLE,
    ROLE_DIGITS,
    ROLE_EMPTY,
    ROLE_FILLER,
    ROLE_HARD_STOP,
    ROLE_MONEY,
    ROLE_MULTI,
    ROLE_SKIP,
    ROLE_TRIMMED,
    ROLE_UNIT,
    ROLE_WORD,
    Reader,
)
from adjudicator.notation.tokens import WORD, Tokens
from adjudicator.units import NO_UNITS, Units


def span_text(text: str, toks: Tokens, i: int, j: int) -> str:
    """The raw text of tokens ``i`` to ``j - 1`` of the line ``text`` (spacing as written)."""
    return toks.span(i, j)


_ALNUM = re.compile(r"[^\W_]")
"""A letter or digit (what ``str.isalnum`` finds): a place name has one."""


class Item(NamedTuple):
    """A place and the units listed with it, in either order ("Kar 2 FTR", "2 FTR Kar")."""

    place_text: str | None
    units: Units
    empty: bool = False


_ENDS_PLACE = ROLE_COUNT | ROLE_MONEY | ROLE_HARD_STOP | ROLE_DIGITS
"""What ends a place name wherever it stands."""


def items(
    reader: Reader, line: int, text: str, toks: Tokens, i: int, end: int, rule: Rule
) -> tuple[list[Item], int]:
    """The (place, units) items of a segment: "Ger 10 INF, Ukr 2 ARM", "3 INF in Ger".

    Returns the items and the index where reading stopped (``end`` when all was read; less
    after an error, or at a number that starts no unit, such as "3 IPC").
    """
    found: list[Item] = []
    pending: str | None = None
    roles = reader.roles
    make = tuple.__new__
    while i < end:
        role = roles[toks[i].text]
        if role & ROLE_SKIP:
            i += 1
            continue
        if role & ROLE_MONEY:
            break
        if role & ROLE_UNIT:  # :meth:`Reader.unit_start`, inlined
            starts = True
        elif role & ROLE_MULTI:
            starts = reader.unit_word(toks, i, end)[0] > 0
        elif role & ROLE_COUNT:
            starts = i + 1 < end and roles[toks[i + 1].text] & ROLE_COUNTABLE != 0
            if not starts:
                break
        else:
            starts = False
            if role & ROLE_DIGITS:
                break
        if starts or role & ROLE_EMPTY:
            errors = reader.errors_on(line)
            units, i, empty = reader.units(line, toks, i, end, rule)
            if reader.errors_on(line) > errors:
                return found, i
            found.append(make(Item, (pending, units, empty)))
            pending = None
            if i < end and roles[toks[i].text] & (ROLE_COUNT | ROLE_MONEY):
                return found, i
            continue
        if role & ROLE_FILLER:  # "from", "with": what follows may be units or a place
            i += 1
            continue
        j = i + 1  # token i is neither a mark nor a count nor the start of units
        while j < end:
            role = roles[toks[j].text]
            if role & _ENDS_PLACE:
                break
            if role & ROLE_WORD and j > i:
                if role & ROLE_UNIT or (
                    role & ROLE_MULTI and reader.unit_word(toks, j, end)[0] > 0
                ):
                    break
            if role & ROLE_EMPTY:
                break
            j += 1
        while j > i + 1 and roles[toks[j - 1].text] & (ROLE_TRIMMED | ROLE_FILLER):
            j -= 1  # "Kar with 3 INF": the place is "Kar"
        while j > i and roles[toks[j - 1].text] & ROLE_TRIMMED:
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
