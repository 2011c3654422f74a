"""Abbreviated names: which names a shortened word fits, before any typo is corrected.

IAAPA Abbreviations: "A player may use any abbreviation as long as its meaning is clear."
IAAPA Error Correction VI: "In all cases, the correct word must be readily decipherable."

A written word fits a name when each of its words starts the same word of the name ("Car
SZ" fits "Caroline SZ" and "Carib SZ"; "Ind Ocean" fits "Indian Ocean"), leading optional
words of the name (compass words for places) left out if the player left them out ("Can SZ"
fits "E Can SZ" and "W Can SZ"). A name fitting one value only is that value; several
values are ambiguous, and the word must not then be corrected to some third name it is a
letter away from. A short stem ("Car", "Lab") is never a misspelling: a three-letter
abbreviation with a wrong letter is another abbreviation, not a readily decipherable word.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

_V = TypeVar("_V", bound=Hashable)


_WORD = re.compile(r"[a-z0-9]+")


def words(text: str) -> tuple[str, ...]:
    """The words of ``text``, folded as the resolver folds names: "E.US SZ" -> e, us, sz."""
    if text.isascii():
        return tuple(_WORD.findall(text.lower()))
    decomposed = unicodedata.normalize("NFKD", text).casefold()
    kept = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return tuple(_WORD.findall(kept))


@dataclass(frozen=True)
class Shortenings:
    """How the names of a table may be shortened (places): read before any typo correction."""

    suffixes: tuple[str, ...] = ()
    """Endings that say what kind of place a name is, not which ("Sea Zone", "SZ"): not part
    of the stem whose length is measured. One of two letters may be written glued to the
    stem ("CarSZ")."""
    optional_starts: frozenset[str] = frozenset()
    """Folded words a name may start with that a player may leave out ("e", "east": "Can SZ"
    fits East and West Canada Sea Zone alike). A stem of these words only fits nothing."""
    shortest_abbreviation: int = 3
    """Letters a stem needs to be read as an abbreviation ("Car"; "Ca" fits too many)."""
    shortest_typo: int = 4
    """Letters a stem needs to be corrected as a misspelling: "Car SZ" is not "Kar SZ"."""
    _suffix_words: tuple[tuple[str, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        forms = {words(s) for s in self.suffixes} - {()}
        ordered = tuple(sorted(forms, key=lambda f: (-len(f), f)))
        object.__setattr__(self, "_suffix_words", ordered)

    def is_suffix(self, written: tuple[str, ...]) -> bool:
        """Whether ``written`` words are a suffix alone ("Sea Zone")."""
        return written in self._suffix_words

    def split(self, written: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """``written`` words as (stem, suffix): "Car SZ" and "CarSZ" -> (car,), (sz,)."""
        for suffix in self._suffix_words:
            n = len(suffix)
            if len(written) > n and written[-n:] == suffix:
                return written[:-n], written[-n:]
        if written:
            last = written[-1]
            for (glued,) in (f for f in self._suffix_words if len(f) == 1 and len(f[0]) <= 2):
                if len(last) > len(glued) and last.endswith(glued):
                    return (*written[:-1], last[: -len(glued)]), (glued,)
        return written, ()


_Shown = tuple[int, str]
"""An alias to show and its letters: the one with fewer letters is shown, then A-Z."""


class AbbreviationIndex(Generic[_V]):
    """The aliases of a table by the first letter of their words, for :meth:`fits`.

    Each alias is also filed with each run of leading optional words left out ("E Can SZ"
    as "Can SZ"), but never down to a bare suffix ("N Sea" is not filed as "Sea"); of the
    aliases giving the same words for a value, the shortest is kept to be shown.
    """

    def __init__(self, entries: Iterable[tuple[str, _V]], rule: Shortenings) -> None:
        self.rule = rule
        shown: dict[tuple[tuple[str, ...], _V], _Shown] = {}
        for alias, value in entries:
            folded = words(alias)
            this = (sum(map(len, folded)), alias)
            for skip in range(len(folded)):
                form = folded[skip:]
                if skip and rule.is_suffix(form):
                    break
                best = shown.get((form, value))
                if best is None or this < best:
                    shown[(form, value)] = this
                if folded[skip] not in rule.optional_starts:
                    break
        self._starts: dict[str, list[tuple[tuple[str, ...], _V, _Shown]]] = {}
        for (form, value), best_shown in shown.items():
            self._starts.setdefault(form[0][0], []).append((form, value, best_shown))

    def fits(self, written: tuple[str, ...]) -> dict[_V, str]:
        """Value -> the alias shown, for every value with an alias of as many words as
        ``written``, each starting with the written word in its place (a one-letter word
        only as itself: "E" is East, and "S" is no "Sea"). Empty for a stem too short, or of
        optional words only ("North")."""
        stem, suffix = self.rule.split(written)
        if self._letters(stem) < self.rule.shortest_abbreviation or set(stem) <= (
            self.rule.optional_starts
        ):
            return {}
        form = (*stem, *suffix)
        best: dict[_V, _Shown] = {}
        n = len(form)
        for alias_words, value, shown in self._starts.get(form[0][0], ()):
            if len(alias_words) == n and all(
                a == w or (len(w) > 1 and a.startswith(w))
                for a, w in zip(alias_words, form, strict=True)
            ):
                if value not in best or shown < best[value]:
                    best[value] = shown
        return {value: alias for value, (_, alias) in best.items()}

    def correctable(self, written: tuple[str, ...]) -> bool:
        """Whether ``written`` has a stem long enough to be a misspelling ("Car SZ" has not)."""
        return self._letters(self.rule.split(written)[0]) >= self.rule.shortest_typo

    @staticmethod
    def _letters(stem: tuple[str, ...]) -> int:
        return sum(len(w) for w in stem)
