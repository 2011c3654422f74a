"""Name look-ups for the notation, cached: a turn asks for the same few names again and again.

Names resolve through :mod:`adjudicator.names` (exact, an abbreviation of one place only, or
a misspelling within the typo tolerance, IAAPA Error Correction VI); resolution is pure, so
what a written word names is found once and kept, failures included, for every email read
with the same tables.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from adjudicator.names import NameResolutionError, Names, Resolution, Term, normalise
from adjudicator.names.abbreviations import Notation
from adjudicator.powers import Power
from adjudicator.units import UnitType

CACHE_LIMIT = 20_000
"""Entries a look-up cache keeps before it starts afresh: a server reads emails for months,
and every new misspelling is a new key."""


_Found = TypeVar("_Found")


class WordTable(dict[str, _Found]):
    """A table of what each written word is, filled the first time a word is asked for:
    ``table[word]`` is one dictionary look-up once the word has been seen (the readers ask
    for every token of every line)."""

    def __init__(self, find: Callable[[str], _Found]) -> None:
        super().__init__()
        self.find = find

    def __missing__(self, written: str) -> _Found:
        if len(self) >= CACHE_LIMIT:
            self.clear()
        found = self[written] = self.find(written)
        return found


class Lookup:
    """Cached name resolution for one :class:`Names` (the tables never change): what a
    written word names, found once and kept. Each table fills itself (``lookup.places[w]``
    resolves ``w`` the first time), so a reader may index it directly in a hot loop."""

    def __init__(self, names: Names) -> None:
        self.names = names
        self.places: WordTable[Resolution[str] | NameResolutionError] = WordTable(self._place)
        self.exact_places: WordTable[str | None] = WordTable(self._exact_place)
        """The place a word names as written (no correction needed), else None."""
        self.units: WordTable[Resolution[Term] | NameResolutionError] = WordTable(self._unit)
        self.exact_units: WordTable[Term | None] = WordTable(self._exact_unit)
        self.word_units: WordTable[UnitType | None] = WordTable(self._word_unit)
        """What one word names exactly as a unit ("INF", "subs"), else None."""
        self.empty_words: WordTable[bool] = WordTable(self._empty_word)
        """Whether one word is the notation for an empty place ("MT")."""
        self.powers: WordTable[Power | None] = WordTable(self._power)
        self._tables: dict[Callable[[Lookup, str], Any], WordTable[Any]] = {}

    def table(self, find: Callable[[Lookup, str], _Found]) -> WordTable[_Found]:
        """The table of ``find(self, word)`` for each written word, made the first time it is
        asked for: a reader's own view of the words (what a token does in a unit list), kept
        with the names it depends on."""
        found = self._tables.get(find)
        if found is None:
            found = self._tables[find] = WordTable(functools.partial(find, self))
        return found

    def place(self, written: str) -> Resolution[str] | NameResolutionError:
        """The place ``written`` names, or why it names none."""
        return self.places[written]

    def knows_place(self, written: str) -> bool:
        """Whether ``written`` names a place (as written, or read by the typo rule)."""
        return not isinstance(self.places[written], NameResolutionError)

    def unit(self, written: str) -> Resolution[Term] | NameResolutionError:
        """The unit, technology or notation word ``written`` names, or why it names none."""
        return self.units[written]

    def power(self, written: str) -> Power | None:
        """The power ``written`` names, or None if it names none."""
        return self.powers[written]

    def word_unit(self, written: str) -> UnitType | None:
        """The unit one word names exactly ("INF", "subs"), else None."""
        return self.word_units[written]

    def empty_word(self, written: str) -> bool:
        """Whether one word is the notation for an empty place ("MT")."""
        return self.empty_words[written]

    def exact_unit(self, written: str) -> Term | None:
        """The term ``written`` names exactly (plural allowed), else None: never a guess."""
        return self.exact_units[written]

    def _place(self, written: str) -> Resolution[str] | NameResolutionError:
        try:
            return self.names.place(written)
        except NameResolutionError as e:
            return e

    def _exact_place(self, written: str) -> str | None:
        found = self.places[written]
        return found.value if isinstance(found, Resolution) and found.exact else None

    def _unit(self, written: str) -> Resolution[Term] | NameResolutionError:
        try:
            return self.names.unit(written)
        except NameResolutionError as e:
            return e

    def _power(self, written: str) -> Power | None:
        try:
            return self.names.power(written).value
        except NameResolutionError:
            return None

    def _exact_unit(self, written: str) -> Term | None:
        key = normalise(written)
        table = self.names.units
        if key in table or (len(key) > 2 and key.endswith("s") and key[:-1] in table):
            found = self.units[written]
            return found.value if isinstance(found, Resolution) else None
        return None

    def _word_unit(self, written: str) -> UnitType | None:
        term = self.exact_units[written]
        return term.unit if term is not None else None

    def _empty_word(self, written: str) -> bool:
        term = self.exact_units[written]
        return term is not None and term.notation is Notation.EMPTY


_LOOKUPS: dict[int, Lookup] = {}
"""Each :class:`Names`' look-ups, by identity (the look-up keeps its names, so that their id
cannot be reused while it is kept): asked for by every email read, and a ``Names`` hashes
in Python."""


def lookup_for(names: Names) -> Lookup:
    """The (shared) look-ups of ``names``."""
    found = _LOOKUPS.get(id(names))
    if found is None or found.names is not names:
        if len(_LOOKUPS) >= 8:
            _LOOKUPS.clear()
        found = _LOOKUPS[id(names)] = Lookup(names)
    return found
