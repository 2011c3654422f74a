"""Resolve a name as a player wrote it: exact first, then the IAAPA typo rule.

IAAPA Error Correction, Section VI (Typographical Errors):

    Typographical mistakes are not considered errors. A number can never be a typographical
    error. Simple typographical misspellings are ignored and not considered errors. Ex: 10 ing
    instead of 10 inf; 10 inf Moscoq instead of 10 inf Moscow. If a typographical error
    results in the wrong territory being listed, i.e., E.US instead of W.US, this will be
    considered an error, not a typo. In all cases, the correct word must be readily
    decipherable.

So: a word matching a name exactly (ignoring case, spaces and punctuation) is taken as
written, even if the player meant another name; only a word matching no name is corrected,
and only when one name is nearest within a tolerance scaled by the word's length; a word with
a digit in it is never corrected; several names equally near is an :class:`AmbiguousName`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)

RULE = "IAAPA Error Correction VI"


def normalise(text: str) -> str:
    """``text`` folded for comparison: accents, case, spaces and punctuation dropped."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed.casefold() if ch.isascii() and ch.isalnum())


def typo_tolerance(length: int) -> int:
    """How many edits a misspelling of a ``length``-letter word may have and still resolve.

    Two letters or fewer: none (every two-letter abbreviation is a name of its own);
    3-6 letters: one; 7-11: two; longer: three.
    """
    if length <= 2:
        return 0
    if length <= 6:
        return 1
    if length <= 11:
        return 2
    return 3


def edit_distance(a: str, b: str, limit: int) -> int:
    """Optimal-string-alignment distance (insert, delete, substitute, swap neighbours).

    Returns ``limit + 1`` as soon as the distance is known to exceed ``limit``.
    """
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], prev2[j - 2] + 1)
        if min(row) > limit:
            return limit + 1
        prev2, prev = prev, row
    return prev[-1]


class Match(Enum):
    """How a written word was resolved."""

    EXACT = "exact"
    """The word is a name or alias (ignoring case, spaces and punctuation)."""
    CORRECTED = "corrected"
    """The word was a misspelling, read as the one name nearest to it."""


@dataclass(frozen=True)
class Resolution(Generic[T]):
    """What a written word stands for, and whether it had to be corrected."""

    written: str
    value: T
    label: str
    """The canonical name of ``value`` (e.g. classic.xml's territory name)."""
    alias: str
    """The name or alias the word matched (e.g. "Moscow" for "Moscoq")."""
    match: Match
    distance: int = 0

    @property
    def corrected(self) -> bool:
        """True when the word was a typo; a caller should warn the player."""
        return self.match is Match.CORRECTED

    def warning(self) -> str | None:
        """The notice for a corrected typo, or None for an exact match."""
        if not self.corrected:
            return None
        return (
            f"read {self.written!r} as {self.alias!r} ({self.label}): a simple "
            f"misspelling is not an error ({RULE})"
        )


class NameResolutionError(ValueError):
    """A written name does not resolve; ``kind`` says what was expected."""

    def __init__(self, written: str, kind: str, message: str) -> None:
        super().__init__(message)
        self.written = written
        self.kind = kind


class UnknownName(NameResolutionError):
    """No name matches the word, nor is one readily decipherable from it."""

    def __init__(self, written: str, kind: str, reason: str = "") -> None:
        message = f"{written!r} is not a known {kind}"
        if reason:
            message += f": {reason}"
        else:
            message += "; check the spelling or write the name in full"
        super().__init__(written, kind, message)
        self.reason = reason


class AmbiguousName(NameResolutionError):
    """The word is equally near several names: the correct word is not readily decipherable."""

    def __init__(self, written: str, kind: str, candidates: Iterable[str]) -> None:
        self.candidates = tuple(sorted(set(candidates)))
        super().__init__(
            written,
            kind,
            f"{written!r} could be any {kind} of: {', '.join(self.candidates)}; "
            f"write the name in full ({RULE}: the correct word must be readily decipherable)",
        )


@dataclass(frozen=True)
class _Hit(Generic[T]):
    value: T
    alias: str
    distance: int


class NameTable(Generic[T]):
    """Names and aliases of one kind of thing (units, places, powers) and their resolver.

    ``entries`` pairs each alias (as a player might write it) with the value it stands for;
    ``label`` gives a value's canonical name for messages. An alias shared by two values is
    kept, and resolving it exactly raises :class:`AmbiguousName`. ``refusals`` maps a name
    that is deliberately *not* a valid value to the reason shown. With ``plurals``, a word
    ending in "s" also matches the alias without it ("10 infs").
    """

    def __init__(
        self,
        kind: str,
        entries: Iterable[tuple[str, T]],
        label: Callable[[T], str],
        *,
        refusals: Mapping[str, str] | None = None,
        plurals: bool = False,
    ) -> None:
        self.kind = kind
        self._label = label
        self._plurals = plurals
        self._exact: dict[str, dict[T, str]] = {}
        for alias, value in entries:
            key = normalise(alias)
            if not key:
                raise ValueError(f"{kind} alias {alias!r} has no letters or digits")
            self._exact.setdefault(key, {}).setdefault(value, alias)
        self._refusals = {normalise(k): v for k, v in (refusals or {}).items()}
        self._fuzzy_keys = [k for k in self._exact if not any(c.isdigit() for c in k)]
        self._cache: dict[str, tuple[_Hit[T], ...]] = {}

    def __contains__(self, written: object) -> bool:
        return isinstance(written, str) and normalise(written) in self._exact

    @property
    def values(self) -> frozenset[T]:
        """Every value some alias stands for."""
        return frozenset(v for values in self._exact.values() for v in values)

    def aliases(self) -> dict[str, tuple[T, ...]]:
        """Normalised alias -> the values it stands for (more than one = ambiguous)."""
        return {k: tuple(v) for k, v in self._exact.items()}

    def resolve(self, written: str) -> Resolution[T]:
        """What ``written`` stands for. UnknownName or AmbiguousName if it cannot be read."""
        key = normalise(written)
        if key in self._refusals:
            raise UnknownName(written, self.kind, self._refusals[key])
        exact = self._exact_hits(key)
        if exact:
            return self._one(written, exact, Match.EXACT)
        if not key or any(c.isdigit() for c in key):
            raise UnknownName(
                written,
                self.kind,
                f"a number is never a typographical error ({RULE})" if key else "it is blank",
            )
        if key not in self._cache:
            self._cache[key] = self._nearest(key)
        hits = self._cache[key]
        if not hits:
            raise UnknownName(written, self.kind)
        return self._one(written, hits, Match.CORRECTED)

    def _exact_hits(self, key: str) -> tuple[_Hit[T], ...]:
        for candidate in self._forms(key):
            if candidate in self._exact:
                return tuple(_Hit(v, a, 0) for v, a in self._exact[candidate].items())
        return ()

    def _forms(self, key: str) -> list[str]:
        forms = [key]
        if self._plurals and len(key) > 2 and key.endswith("s"):
            forms.append(key[:-1])
        return forms

    def _nearest(self, key: str) -> tuple[_Hit[T], ...]:
        """The hits at the smallest distance within tolerance, one per value."""
        best: dict[T, _Hit[T]] = {}
        for form in self._forms(key):
            limit = typo_tolerance(len(form))
            for alias_key in self._fuzzy_keys:
                d = edit_distance(form, alias_key, limit)
                if d > limit:
                    continue
                for value, alias in self._exact[alias_key].items():
                    if value not in best or d < best[value].distance:
                        best[value] = _Hit(value, alias, d)
        if not best:
            return ()
        nearest = min(h.distance for h in best.values())
        return tuple(h for h in best.values() if h.distance == nearest)

    def _one(self, written: str, hits: tuple[_Hit[T], ...], match: Match) -> Resolution[T]:
        if len(hits) > 1:
            raise AmbiguousName(
                written, self.kind, (f"{self._label(h.value)} ({h.alias})" for h in hits)
            )
        hit = hits[0]
        return Resolution(
            written, hit.value, self._label(hit.value), hit.alias, match, hit.distance
        )
