"""Name look-ups for the notation, cached: a turn asks for the same few names again and again.

Names resolve through :mod:`adjudicator.names` (exact, or a misspelling within the typo
tolerance, IAAPA Error Correction VI); resolution is pure, so what a written word names is
found once and kept, failures included, for every email read with the same tables.
"""

from __future__ import annotations

import functools

from adjudicator.names import NameResolutionError, Names, Resolution, Term, normalise
from adjudicator.names.abbreviations import Notation
from adjudicator.powers import Power
from adjudicator.units import UnitType

CACHE_LIMIT = 20_000
"""Entries a look-up cache keeps before it starts afresh: a server reads emails for months,
and every new misspelling is a new key."""


class Lookup:
    """Cached name resolution for one :class:`Names` (the tables never change): what a
    written word names, found once and kept."""

    def __init__(self, names: Names) -> None:
        self.names = names
        self.places: dict[str, Resolution[str] | NameResolutionError] = {}
        self.units: dict[str, Resolution[Term] | NameResolutionError] = {}
        self.exact_units: dict[str, Term | None] = {}
        self.word_units: dict[str, UnitType | None] = {}
        self.empty_words: dict[str, bool] = {}
        self.powers: dict[str, Power | None] = {}

    def _bound(self) -> None:
        caches = (self.places, self.units, self.exact_units, self.word_units, self.empty_words)
        for cache in (*caches, self.powers):
            if len(cache) >= CACHE_LIMIT:
                cache.clear()

    def place(self, written: str) -> Resolution[str] | NameResolutionError:
        if written not in self.places:
            self._bound()
            try:
                self.places[written] = self.names.place(written)
            except NameResolutionError as e:
                self.places[written] = e
        return self.places[written]

    def unit(self, written: str) -> Resolution[Term] | NameResolutionError:
        if written not in self.units:
            self._bound()
            try:
                self.units[written] = self.names.unit(written)
            except NameResolutionError as e:
                self.units[written] = e
        return self.units[written]

    def power(self, written: str) -> Power | None:
        """The power ``written`` names, or None if it names none."""
        try:
            return self.powers[written]
        except KeyError:
            self._bound()
            try:
                found: Power | None = self.names.power(written).value
            except NameResolutionError:
                found = None
            self.powers[written] = found
            return found

    def word_unit(self, written: str) -> UnitType | None:
        """The unit one word names exactly ("INF", "subs"), else None."""
        try:
            return self.word_units[written]
        except KeyError:
            term = self.exact_unit(written)
            unit = self.word_units[written] = term.unit if term is not None else None
            return unit

    def empty_word(self, written: str) -> bool:
        """Whether one word is the notation for an empty place ("MT")."""
        try:
            return self.empty_words[written]
        except KeyError:
            term = self.exact_unit(written)
            empty = term is not None and term.notation is Notation.EMPTY
            self.empty_words[written] = empty
            return empty

    def exact_unit(self, written: str) -> Term | None:
        """The term ``written`` names exactly (plural allowed), else None: never a guess."""
        if written not in self.exact_units:
            self._bound()
            key = normalise(written)
            table = self.names.units
            hit = key in table or (len(key) > 2 and key.endswith("s") and key[:-1] in table)
            term = None
            if hit:
                found = self.unit(written)
                term = found.value if isinstance(found, Resolution) else None
            self.exact_units[written] = term
        return self.exact_units[written]


@functools.lru_cache(maxsize=8)
def lookup_for(names: Names) -> Lookup:
    """The (shared) look-ups of ``names``."""
    return Lookup(names)
