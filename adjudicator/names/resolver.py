"""Resolve a name as a player wrote it: exact first, then an abbreviation, then the typo rule.

IAAPA Error Correction, Section VI (Typographical Errors):

    Typographical mistakes are not considered errors. A number can never be a typographical
    error. Simple typographical misspellings are ignored and not considered errors. Ex: 10 ing
    instead of 10 inf; 10 inf Moscoq instead of 10 inf Moscow. If a typographical error
    results in the wrong territory being listed, i.e., E.US instead of W.US, this will be
    considered an error, not a typo. In all cases, the correct word must be readily
    decipherable.

So: a word matching a name exactly (ignoring case, spaces and punctuation) is taken as
written, even if the player meant another name; only a word matching no name is corrected,
and only when one name is nearest within a tolerance scaled by the word's length, each of its
words misspelt on its own (:func:`misspelt_word_by_word`: "West Russia" is two letters from
"West US Sea", but "Russia" is no misspelling of "US Sea"); a word with a digit in it is
never corrected; several names equally near is an :class:`AmbiguousName`.

A table given :class:`~adjudicator.names.abbreviating.Shortenings` (places) first reads a
word that is no name as an abbreviation (IAAPA Abbreviations: "A player may use any
abbreviation as long as its meaning is clear"): each written word the start of the same word
of a name ("Car SZ" of "Caroline SZ"), leading compass words of the name left out if the
player left them out ("Can SZ" of "E Can SZ"). One place abbreviated is that place; several
are ambiguous, and the word is never corrected to a third place it is one letter away from
("Car SZ" is Caroline Islands or Carribean, never "Kar SZ"). Only a word abbreviating no
place may be a misspelling, and only if its stem (the name less "SZ") has four letters or
more: a short abbreviation with a wrong letter is another abbreviation, not a readily
decipherable word.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar

from adjudicator.names.abbreviating import AbbreviationIndex, Shortenings, words

T = TypeVar("T", bound=Hashable)

RULE = "IAAPA Error Correction VI"
ENGLISH_WORDS = frozenset(
    {
        *("are", "back", "bake", "base", "cake", "come", "even", "ever", "fake", "far"),
        *("fine", "fire", "for", "get", "home", "kind", "lake", "let", "long", "made"),
        *("main", "make", "many", "mean", "most", "plan", "rope", "safer", "sake", "sank"),
        *("set", "some", "sunk", "take", "than", "thanks", "train", "try", "turn", "was"),
        *("while", "win", "yet"),
    }
)
"""Words of English that a misspelling or an abbreviation of a name would otherwise make out
of ("take" Wake Island, "some" South Europe, "for" FTR, "thanks" tanks): a player writing one
means the word, so it is read only as a name it is exactly, never corrected (IAAPA Error
Correction VI: the correct word must be readily decipherable). Found by reading the common
words of new players' emails against every name of the Classic board."""
_JOINS = re.compile(r"\s*[/&-]\s*")
"""What joins the parts of a name written part by part ("Norway/Finland", "Jordan - Syria")."""
ABBREVIATION_RULE = "IAAPA Abbreviations"


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


_RUN = 4
"""The most words one side of a word-by-word reading may join: "SSR" is "S.S.R." (three
words), "USSR" "U.S.S.R." (four)."""


def misspelt_word_by_word(written: tuple[str, ...], name: tuple[str, ...]) -> bool:
    """Whether the words ``written`` are the words of ``name`` misspelt one by one: in order,
    each written word, or run of words written apart ("Sea Zone"), reads as one word of the
    name, or a run of its words written together ("SeaZone", "SSR"), within the tolerance of
    its own length (:func:`typo_tolerance`).

    A misspelling is read within a word, never across one: "West Russia" is not "West US
    Sea", though the two are two letters apart once their spaces are dropped, since "Russia"
    is not a misspelling of "US Sea" (Error Correction VI: the correct word must be readily
    decipherable)."""
    reached = {(0, 0)}
    todo = [(0, 0)]
    while todo:
        i, j = todo.pop()
        for di in range(1, _RUN + 1):
            if i + di > len(written):
                break
            mine = "".join(written[i : i + di])
            limit = typo_tolerance(len(mine))
            for dj in range(1, (_RUN if di == 1 else 1) + 1):
                if j + dj > len(name):
                    break
                if (i + di, j + dj) in reached:
                    continue
                theirs = "".join(name[j : j + dj])
                if edit_distance(mine, theirs, limit) <= limit:
                    if (i + di, j + dj) == (len(written), len(name)):
                        return True
                    reached.add((i + di, j + dj))
                    todo.append((i + di, j + dj))
    return False


class Match(Enum):
    """How a written word was resolved."""

    EXACT = "exact"
    """The word is a name or alias (ignoring case, spaces and punctuation)."""
    CORRECTED = "corrected"
    """The word was a misspelling, read as the one name nearest to it."""
    ABBREVIATED = "abbreviated"
    """The word shortens the names of one place only ("Caro SZ"), and is read as it."""


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
    def exact(self) -> bool:
        """True when the word is a name as written: nothing was corrected or expanded."""
        return self.match is Match.EXACT

    @property
    def corrected(self) -> bool:
        """True when the word was a typo; a caller should warn the player."""
        return self.match is Match.CORRECTED

    @property
    def abbreviated(self) -> bool:
        """True when the word was read as the one name it shortens; a caller should say so."""
        return self.match is Match.ABBREVIATED

    def warning(self) -> str | None:
        """The notice for a word not taken as written (a typo, an abbreviation), else None."""
        if self.corrected:
            return (
                f"read {self.written!r} as {self.alias!r} ({self.label}): a simple "
                f"misspelling is not an error ({RULE})"
            )
        if self.abbreviated:
            return (
                f"read {self.written!r} as {self.alias!r} ({self.label}), the one name it "
                f"abbreviates: an abbreviation whose meaning is clear is not an error "
                f"({ABBREVIATION_RULE})"
            )
        return None


class NameResolutionError(ValueError):
    """A written name does not resolve; ``kind`` says what was expected."""

    def __init__(self, written: str, kind: str, message: str) -> None:
        super().__init__(message)
        self.written = written
        self.kind = kind


class UnknownName(NameResolutionError):
    """No name matches the word, nor is one readily decipherable from it. ``near``: the
    names as near by the letters that a word of differs whole (named in the reason)."""

    def __init__(
        self, written: str, kind: str, reason: str = "", near: tuple[str, ...] = ()
    ) -> None:
        message = f"{written!r} is not a known {kind}"
        if reason:
            message += f": {reason}"
        else:
            message += "; check the spelling or write the name in full"
        super().__init__(written, kind, message)
        self.reason = reason
        self.near = near


class AmbiguousName(NameResolutionError):
    """The word is equally near several names, or abbreviates several: the correct word is not
    readily decipherable. ``candidates`` are shown to the player ("Caroline Islands Sea Zone
    (Caroline SZ)"); ``labels`` are the canonical names alone, for a caller that can tell
    which was meant from elsewhere (where the units are)."""

    def __init__(
        self, written: str, kind: str, candidates: Iterable[str], labels: Iterable[str] = ()
    ) -> None:
        self.candidates = tuple(sorted(set(candidates)))
        self.labels = tuple(sorted(set(labels)))
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


@dataclass(frozen=True)
class _Reading(Generic[T]):
    """What a word that is no name was found to be: cached per written form."""

    match: Match
    hits: tuple[_Hit[T], ...]
    too_short: bool = False
    """The stem is too short to correct: a single hit is not taken, only named."""
    near: tuple[_Hit[T], ...] = ()
    """Without hits: the names as near by their letters that differ by a whole word (named
    in the refusal, not taken: :func:`misspelt_word_by_word`)."""


class NameTable(Generic[T]):
    """Names and aliases of one kind of thing (units, places, powers) and their resolver.

    ``entries`` pairs each alias (as a player might write it) with the value it stands for;
    ``label`` gives a value's canonical name for messages. An alias shared by two values is
    kept, and resolving it exactly raises :class:`AmbiguousName`. ``refusals`` maps a name
    that is deliberately *not* a valid value to the reason shown. With ``plurals``, a word
    ending in "s" also matches the alias without it ("10 infs"). With ``shortenings``, a word
    that is no name is first read as an abbreviation (see the module's docstring).
    """

    def __init__(
        self,
        kind: str,
        entries: Iterable[tuple[str, T]],
        label: Callable[[T], str],
        *,
        refusals: Mapping[str, str] | None = None,
        plurals: bool = False,
        shortenings: Shortenings | None = None,
    ) -> None:
        self.kind = kind
        self._label = label
        self._plurals = plurals
        self._exact: dict[str, dict[T, str]] = {}
        entries = list(entries)
        for alias, value in entries:
            key = normalise(alias)
            if not key:
                raise ValueError(f"{kind} alias {alias!r} has no letters or digits")
            self._exact.setdefault(key, {}).setdefault(value, alias)
        self._refusals = {normalise(k): v for k, v in (refusals or {}).items()}
        self._fuzzy_keys = [k for k in self._exact if not any(c.isdigit() for c in k)]
        self._cache: dict[str, _Reading[T]] = {}
        self._shortened = (
            AbbreviationIndex(entries, shortenings) if shortenings is not None else None
        )
        self._shortenings = shortenings

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
        if key in ENGLISH_WORDS:
            raise UnknownName(
                written,
                self.kind,
                f"it is a word of English, never read as a misspelling of a name ({RULE}: "
                "the correct word must be readily decipherable)",
            )
        joined = self._joined(written)
        if joined is not None:
            return joined
        form = words(written)
        cache_key = " ".join(form)
        reading = self._cache.get(cache_key)
        if reading is None:
            if self._shortened is None:
                typos, near = self._nearest(key, form)
                reading = _Reading(Match.CORRECTED, typos, near=near)
            else:
                reading = self._read(key, form, self._shortened)
            self._cache[cache_key] = reading
        hits = reading.hits
        if not hits and reading.near:
            named = tuple(sorted(f"{self._label(h.value)} ({h.alias})" for h in reading.near))
            raise UnknownName(
                written,
                self.kind,
                f"{', '.join(named)} {'is' if len(named) == 1 else 'are'} as near by the "
                "letters, but a word differs whole, and a misspelling is read word by word "
                f"({RULE}: the correct word must be readily decipherable)",
                named,
            )
        if not hits:
            raise UnknownName(written, self.kind)
        if reading.too_short and len(hits) == 1:
            hit = hits[0]
            raise UnknownName(
                written,
                self.kind,
                f"it is too short to be read as a misspelling of {hit.alias!r} "
                f"({self._label(hit.value)}): a short abbreviation with a wrong letter is "
                f"another abbreviation, not a readily decipherable word ({RULE}); write the "
                "name in full",
            )
        return self._one(written, hits, reading.match)

    def _joined(self, written: str) -> Resolution[T] | None:
        """A name written as parts joined by "/", "&" or "-" that each name the same one, in
        another order than its own ("Norway/Finland" for Finland Norway, "Jordan/Syria",
        "Nor/Fin"): every part read exactly or as an abbreviation of it alone, none a
        misspelling (each word is what the player meant, so it is readily decipherable)."""
        parts = [part for part in _JOINS.split(written) if part]
        if len(parts) < 2:
            return None
        values: set[T] = set()
        shortened = False
        for part in parts:
            key = normalise(part)
            if key in self._refusals:
                return None
            hits = self._exact_hits(key)
            if not hits and self._shortened is not None:
                hits = tuple(_Hit(v, a, 0) for v, a in self._shortened.fits(words(part)).items())
                shortened = True
            if len(hits) != 1:
                return None  # no name, or several: never a misspelling (no search for one)
            values.add(hits[0].value)
        if len(values) != 1:
            return None
        value = values.pop()
        label = self._label(value)
        return Resolution(
            written, value, label, label, Match.ABBREVIATED if shortened else Match.EXACT, 0
        )

    def _read(self, key: str, form: tuple[str, ...], index: AbbreviationIndex[T]) -> _Reading[T]:
        """What a word that is no name is: the places it abbreviates, else a misspelling."""
        shortened = tuple(_Hit(v, a, 0) for v, a in index.fits(form).items())
        if len(shortened) > 1:
            return _Reading(Match.ABBREVIATED, shortened)
        typos, near = self._nearest(key, form)
        if len(shortened) == 1:
            if len(typos) == 1 and typos[0].value == shortened[0].value and typos[0].distance <= 1:
                return _Reading(Match.CORRECTED, typos)  # "Ukrain": a letter short is a typo
            return _Reading(Match.ABBREVIATED, shortened)
        return _Reading(Match.CORRECTED, typos, not index.correctable(form), near)

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

    def _nearest(
        self, key: str, written: tuple[str, ...]
    ) -> tuple[tuple[_Hit[T], ...], tuple[_Hit[T], ...]]:
        """The hits at the smallest distance within tolerance, one per value: ``key`` the
        written name normalised, ``written`` its words, each misspelt on its own
        (:func:`misspelt_word_by_word`); and, when there is none, the names as near by the
        letters alone (a word of them differs whole)."""
        best: dict[T, _Hit[T]] = {}
        near: dict[T, _Hit[T]] = {}
        for form in self._forms(key):
            limit = typo_tolerance(len(form))
            if form != key and written:  # the plural's "s" dropped: from the last word too
                written = (*written[:-1], written[-1].removesuffix("s"))
            stem = self._stem(written)
            ended = stem != written  # "Norway SZ": the ending says a sea zone
            for alias_key in self._fuzzy_keys:
                d = edit_distance(form, alias_key, limit)
                if d > limit:
                    continue
                for value, alias in self._exact[alias_key].items():
                    alias_stem = self._stem(words(alias))
                    aligned = misspelt_word_by_word(stem, alias_stem) and (
                        not ended or alias_stem != words(alias)
                    )  # a sea zone's ending is never a misspelling of a land's name
                    found = best if aligned else near
                    if value not in found or d < found[value].distance:
                        found[value] = _Hit(value, alias, d)
        return _nearest_of(best), () if best else _nearest_of(near)

    def _stem(self, written: tuple[str, ...]) -> tuple[str, ...]:
        """The words of a name less the endings naming its kind of place ("North Sea SZ" is
        north): misspelt or not, an ending says which kind, not which place."""
        if self._shortenings is None:
            return written
        while True:
            stem, ending = self._shortenings.split(written)
            if not ending:
                return written
            written = stem

    def _one(self, written: str, hits: tuple[_Hit[T], ...], match: Match) -> Resolution[T]:
        if len(hits) > 1:
            raise AmbiguousName(
                written,
                self.kind,
                (f"{self._label(h.value)} ({h.alias})" for h in hits),
                (self._label(h.value) for h in hits),
            )
        hit = hits[0]
        return Resolution(
            written, hit.value, self._label(hit.value), hit.alias, match, hit.distance
        )


def _nearest_of(hits: dict[T, _Hit[T]]) -> tuple[_Hit[T], ...]:
    """The hits at the smallest distance of ``hits``."""
    if not hits:
        return ()
    nearest = min(h.distance for h in hits.values())
    return tuple(h for h in hits.values() if h.distance == nearest)
