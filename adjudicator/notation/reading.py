"""The shared reading machinery: tokens, name look-ups with diagnostics, unit lists, places.

Every line parser works on the tokens of one line and asks a :class:`Reader` for names. A
name is resolved by :mod:`adjudicator.names` (canonical names are classic.xml's): an exact
name is taken as written; a misspelling that resolves is a warning (IAAPA Error Correction
VI: "Simple typographical misspellings are ignored and not considered errors"); a place
abbreviated so that it fits one place only is a note (IAAPA Abbreviations: "any abbreviation
as long as its meaning is clear"); a word that resolves to nothing, or to several names, is
an error. A number is never corrected.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from adjudicator.diagnostics import Diagnostic, Rule, Severity
from adjudicator.names import (
    AmbiguousName,
    NameResolutionError,
    Names,
    Resolution,
    Term,
    UnknownName,
)
from adjudicator.names.abbreviations import IPC_WORDS as IPC_WORDS  # readers' vocabulary
from adjudicator.names.abbreviations import UNIT_WORDS
from adjudicator.notation.lookup import Lookup, lookup_for
from adjudicator.notation.tokens import MONEY as MONEY  # re-exported: readers' vocabulary
from adjudicator.notation.tokens import NUM, WORD, Token, Tokens, token
from adjudicator.notation.tokens import tokenize as tokenize
from adjudicator.units import Units, UnitType, tally

NOT_UNITS = frozenset(
    {
        "ipc",
        "ipcs",
        "dice",
        "die",
        "roll",
        "rolls",
        "rolled",
        "hit",
        "hits",
        "round",
        "rounds",
        "turn",
        "turns",
        "terr",
        "terrs",
        "territory",
        "territories",
        "t",
        "time",
        "times",
        "dollars",
        "bucks",
        "pts",
        "points",
        "damage",
        "of",
        "to",
        "and",
        "or",
        "more",
        "in",
        "on",
        "at",
        "from",
        "left",
        "remain",
        "remaining",
        "survive",
        "survived",
        "saved",
        "spent",
    }
)
"""Words that may follow a number without naming a unit ("3 IPC", "2 dice", "2 left")."""

MULTI_WORD_STARTS = frozenset(word.split()[0].lower() for word, _ in UNIT_WORDS if " " in word)
"""First words of the unit words written as several words ("AA Gun", "Heavy Bomber")."""

LIST_SEPARATORS = frozenset({",", "+", "&", ";"})
"""Punctuation between the entries of a unit list ("10 INF, AA", "2 inf + 1 aa")."""
_JOINING_WORDS = frozenset({"and", "plus"})
"""Words between the entries of a unit list ("2 INF and 1 ARM")."""
TIMES = frozenset({"x", "*", "×"})
"""Marks between a count and its unit ("3x inf", "3 * INF")."""

EMPTY_WORDS = frozenset({"mt", "empty", "none", "nothing", "nil"})
"""How players write that a place has no units (IAAPA Abbreviations: MT = Empty)."""

FILLER = frozenset(
    {
        "from",
        "in",
        "at",
        "the",
        "into",
        "of",
        "my",
        "all",
        "with",
        "is",
        "placed",
        "built",
        "carrying",
        "carries",
    }
)
"""Words before a place name that are not part of it ("in Karelia", "from the UK")."""


HARD_STOPS = frozenset({",", ";", "(", ")", ":", "[", "]"})
"""Punctuation that ends a place name."""
JOINERS = frozenset({"-", "=", "/", "|", "&", "+"})
"""Punctuation between items ("Ger - 3 INF"), or inside a name ("Anglo-Egypt", "Fin/Nor")."""
SKIPPED = HARD_STOPS | JOINERS
"""Punctuation skipped before an item."""


ROLE_SKIP = 1
"""Punctuation (or "and") skipped before an item of a listing."""
ROLE_MONEY = 2
ROLE_COUNT = 4
"""A number: it starts units if a word that may be a unit follows."""
ROLE_DIGITS = 8
"""A token starting with a digit (a number, or digits too long for one)."""
ROLE_UNIT = 16
"""A word naming a unit exactly on its own ("INF", "subs")."""
ROLE_MULTI = 32
"""The first word of a unit written as several ("AA Gun"): the words after it decide."""
ROLE_EMPTY = 64
"""A word saying a place is empty ("MT", "none")."""
ROLE_FILLER = 128
"""A word before a place name that is not part of it (:data:`FILLER`)."""
ROLE_HARD_STOP = 256
ROLE_TRIMMED = 512
"""Punctuation trimmed off the end of a place name (a joiner, or ":")."""
ROLE_COUNTABLE = 1024
"""A word that may follow a count as its unit (not "IPC", "left", "to" ...)."""
ROLE_WORD = 2048


def item_role(lookup: Lookup, written: str) -> int:
    """What the token ``written`` does in a listing of places and units, as ``ROLE_*``
    flags: one look-up a token where :func:`adjudicator.notation.listing.items` asks several
    questions of each."""
    tok = token(written)
    kind, low = tok.kind, tok.low
    role = 0
    if written in SKIPPED or low == "and":
        role |= ROLE_SKIP
    if kind == MONEY:
        role |= ROLE_MONEY
    if kind == NUM:
        role |= ROLE_COUNT
    if written[0].isdigit():
        role |= ROLE_DIGITS
    if kind == WORD:
        role |= ROLE_WORD
        if low in MULTI_WORD_STARTS:
            role |= ROLE_MULTI
        elif lookup.word_units[written] is not None:
            role |= ROLE_UNIT
        if low not in NOT_UNITS:
            role |= ROLE_COUNTABLE
    if low in EMPTY_WORDS or (kind == WORD and lookup.empty_words[written]):
        role |= ROLE_EMPTY
    if low in FILLER:
        role |= ROLE_FILLER
    if written in HARD_STOPS:
        role |= ROLE_HARD_STOP
    if written in JOINERS or written == ":":
        role |= ROLE_TRIMMED
    return role


_NO_UNITS = Units()

_TIMES = "times"
_NOT_A_UNIT = "not a unit"


def _after_count(lookup: Lookup, written: str) -> UnitType | str | None:
    """What the token ``written`` is right after a count: the unit it names exactly as one
    word ("3 INF"), :data:`_TIMES` ("3 x INF"), :data:`_NOT_A_UNIT` ("3 IPC", "2 left"), or
    None (no unit word: read in full, a misspelling corrected)."""
    tok = token(written)
    if tok.low in TIMES:
        return _TIMES
    if tok.low in NOT_UNITS:
        return _NOT_A_UNIT
    if tok.kind == WORD and tok.low not in MULTI_WORD_STARTS:
        return lookup.word_units[written]
    return None


def _units_of(pairs: list[tuple[UnitType, int]]) -> Units:
    """:func:`tally` of a unit list, at once for the one-type lists most lines hold."""
    if len(pairs) == 1:
        unit, count = pairs[0]
        return Units(((unit, count),)) if count else _NO_UNITS
    return tally(pairs) if pairs else _NO_UNITS


@dataclass
class Reader:
    """Reads names for one email and collects its diagnostics."""

    names: Names
    diagnostics: list[Diagnostic] = field(default_factory=list)
    _errors_by_line: defaultdict[int, int] = field(default_factory=lambda: defaultdict(int))

    def __post_init__(self) -> None:
        self.lookup = lookup_for(self.names)
        self._after_count = self.lookup.table(_after_count)
        self.roles = self.lookup.table(item_role)
        """What each written token does in a listing (:func:`item_role`)."""
        self.errors_on: Callable[[int], int] = self._errors_by_line.__getitem__
        """How many errors a line has so far: asked before and after every part of a line
        is read, so it is the table's own look-up (a line with none reads as 0)."""

    # --- diagnostics -----------------------------------------------------------------------

    def add(
        self, line: int, severity: Severity, rule: Rule, message: str, suggestion: str, code: str
    ) -> None:
        """Record a diagnostic."""
        self.diagnostics.append(Diagnostic(severity, rule, message, suggestion, code, line=line))
        if severity is Severity.ERROR:
            self._errors_by_line[line] += 1

    def error(
        self, line: int, rule: Rule, message: str, suggestion: str, code: str = "unreadable"
    ) -> None:
        """Record an error: part of the turn cannot be read."""
        self.add(line, Severity.ERROR, rule, message, suggestion, code)

    def warning(self, line: int, rule: Rule, message: str, suggestion: str, code: str) -> None:
        """Record a warning: read, but the player should look."""
        self.add(line, Severity.WARNING, rule, message, suggestion, code)

    def info(self, line: int, rule: Rule, message: str, suggestion: str, code: str) -> None:
        """Record a note: nothing wrong."""
        self.add(line, Severity.INFO, rule, message, suggestion, code)

    def remark(self, line: int, rule: Rule, message: str) -> None:
        """Note that part of a line was read as a remark, not as an order (``message``:
        which part, and what it is not)."""
        self.info(line, rule, message, "nothing to do if it is a remark", "not-read")

    def mark(self) -> int:
        """A point to :meth:`rewind` to: the diagnostics so far."""
        return len(self.diagnostics)

    def rewind(self, mark: int) -> None:
        """Forget the diagnostics recorded since ``mark`` (a line read as chat after all)."""
        for d in self.diagnostics[mark:]:
            if d.severity is Severity.ERROR:
                self._errors_by_line[d.line] -= 1
        del self.diagnostics[mark:]

    def _name_failed(self, line: int, failure: NameResolutionError, rule: Rule) -> None:
        if isinstance(failure, AmbiguousName):
            self.error(
                line,
                Rule.TYPOGRAPHICAL_ERRORS,
                str(failure),
                f"write one of {', '.join(failure.candidates)} in full",
                "ambiguous-name",
            )
        else:
            reason = ""
            if isinstance(failure, UnknownName) and not failure.near:
                reason = failure.reason
            self.error(
                line,
                rule,
                str(failure),
                reason
                if reason and "never" not in reason
                else f"check the spelling of {failure.written!r} or write the name in full",
                "unknown-name",
            )

    def _corrected(self, line: int, found: Resolution[Term] | Resolution[str]) -> None:
        notice = found.warning()
        if notice is None:
            return
        if found.abbreviated:
            self.info(
                line,
                Rule.ABBREVIATIONS,
                notice,
                f"write {found.alias!r} to be read without a note",
                "abbreviation",
            )
            return
        self.warning(
            line,
            Rule.TYPOGRAPHICAL_ERRORS,
            notice,
            f"write {found.alias!r} to avoid the correction",
            "typo",
        )

    # --- names -----------------------------------------------------------------------------

    def place(self, line: int, written: str, rule: Rule) -> str | None:
        """The canonical name of the place ``written``; None (with an error) if unreadable."""
        exact = self.lookup.exact_places[written]
        if exact is not None:
            return exact
        found = self.lookup.places[written]
        if isinstance(found, NameResolutionError):
            self._name_failed(line, found, rule)
            return None
        self._corrected(line, found)
        return found.value

    def origin(self, line: int, written: str, rule: Rule) -> tuple[str | None, tuple[str, ...]]:
        """An attacking origin, as :meth:`place` reads it, except a name that fits several
        places: not an error here but (None, those places) with a warning, for the check
        against the board to read it as the one of them holding the units (IAAPA Error
        Correction II: "if it is clear from the combat orders where the battle is to occur,
        and what units are involved, and the units are 100% correct, then no CDE can be
        called")."""
        return self._one_of(
            line,
            written,
            rule,
            f"the origin {written!r}",
            "holding the units listed",
            "ambiguous-origin",
        )

    def battle_place(
        self, line: int, written: str, rule: Rule
    ) -> tuple[str | None, tuple[str, ...]]:
        """A battle's place, as :meth:`place` reads it, except a name that fits several places:
        (None, those places) with a warning, for the check against the board to read it as
        the one of them holding enemy units the attackers can reach (IAAPA Error Correction
        II: "if it is clear from the combat orders where the battle is to occur, and what units
        are involved, and the units are 100% correct, then no CDE can be called")."""
        return self._one_of(
            line,
            written,
            rule,
            f"the battle's place {written!r}",
            "holding enemy units the attackers can reach",
            "ambiguous-battle",
        )

    def _one_of(
        self, line: int, written: str, rule: Rule, what: str, which: str, code: str
    ) -> tuple[str | None, tuple[str, ...]]:
        """:meth:`place`, or (None, the places) for a name that fits several, with a warning
        that ``what`` is read as the one of them ``which``."""
        exact = self.lookup.exact_places[written]
        if exact is not None:
            return exact, ()
        found = self.lookup.places[written]
        if isinstance(found, AmbiguousName) and len(found.labels) > 1:
            self.warning(
                line,
                Rule.CDE,
                f"{what} could be any of {', '.join(found.labels)}: it is read as the one of "
                f"them {which}, if only one does",
                f"write one of {', '.join(found.candidates)} in full",
                code,
            )
            return None, found.labels
        return self.place(line, written, rule), ()

    def is_place(self, written: str) -> bool:
        """True if ``written`` names a place exactly (no correction needed)."""
        found = self.lookup.place(written)
        return isinstance(found, Resolution) and found.exact

    def exact_term(self, written: str) -> Term | None:
        """The unit/tech/notation word ``written`` names exactly, or None."""
        return self.lookup.exact_unit(written)

    def unit_word(self, toks: list[Token], i: int, end: int) -> tuple[int, UnitType | None]:
        """An exact unit word of 1-3 tokens at ``i``: (tokens used, unit) or (0, None)."""
        if i >= end:
            return 0, None
        tok = toks[i]
        if tok.kind != WORD:
            return 0, None
        if tok.low not in MULTI_WORD_STARTS:
            unit = self.lookup.word_units[tok.text]
            return (0, None) if unit is None else (1, unit)
        words = 1  # how many words from ``i`` on (at most 3)
        while words < 3 and i + words < end and toks[i + words].kind == WORD:
            words += 1
        if words == 1:  # "AA" alone: the word on its own
            unit = self.lookup.word_units[tok.text]
            return (0, None) if unit is None else (1, unit)
        exact_unit = self.lookup.exact_unit
        for n in (3, 2, 1):
            if n > words:
                continue
            term = exact_unit(" ".join([t.text for t in toks[i : i + n]]))
            if term is not None and term.unit is not None:
                return n, term.unit
        return 0, None

    def is_empty_word(self, tok: Token) -> bool:
        """True for "MT", "empty", "none": the place has no units."""
        if tok.low in EMPTY_WORDS:
            return True
        return tok.kind == WORD and self.lookup.empty_words[tok.text]

    def unit_start(self, toks: list[Token], i: int, end: int) -> bool:
        """True if a unit list starts at ``i`` (a count, or an exact bare unit word)."""
        if i >= end:
            return False
        tok = toks[i]
        kind = tok.kind
        if kind == NUM:
            if i + 1 >= end:
                return False
            nxt = toks[i + 1]
            return nxt.kind == WORD and nxt.low not in NOT_UNITS
        if kind != WORD:
            return False
        if tok.low not in MULTI_WORD_STARTS:
            return self.lookup.word_units[tok.text] is not None
        return self.unit_word(toks, i, end)[0] > 0

    def units(
        self, line: int, toks: Tokens, i: int, end: int, rule: Rule = Rule.ABBREVIATIONS
    ) -> tuple[Units, int, bool]:
        """A unit list from ``i``: "8 INF, 1 ARM, 2 FTR", "10 INF, AA", "3x inf".

        Returns the units, the index after them, and whether the list was written as empty
        ("MT"). A bare word counts one unit only if it names a unit exactly; after a count a
        misspelt unit word is corrected with a warning.
        """
        pairs: list[tuple[UnitType, int]] = []
        empty = False
        word_units = self.lookup.word_units
        after_count = self._after_count
        while i < end:
            tok = toks[i]
            kind = tok.kind
            if kind == NUM:  # "3 INF", the common case first
                j = i + 1
                after = after_count[toks[j].text] if j < end else None
                if after is _TIMES:  # "3 x INF"
                    j += 1
                    after = after_count[toks[j].text] if j < end else None
                    if after is _TIMES:  # "3 x x": the second mark is read as a word
                        nxt = toks[j]
                        after = (
                            word_units[nxt.text]
                            if nxt.kind == WORD and nxt.low not in MULTI_WORD_STARTS
                            else None
                        )
                if after is _NOT_A_UNIT:
                    break
                unit: UnitType | None
                if isinstance(after, UnitType):
                    used, unit = 1, after
                else:
                    used, unit = self._counted_unit(line, toks, i, j, end, rule)
                    if unit is None:
                        return _units_of(pairs), (j + used if used else j), empty
                text = tok.text  # digits, or a count written out ("two")
                pairs.append((unit, int(text) if text.isdigit() else tok.value))
                i = j + used
                continue
            if tok.text in LIST_SEPARATORS or tok.low in _JOINING_WORDS:
                if pairs and self.unit_start(toks, i + 1, end):
                    i += 1
                    continue
                break
            if kind == WORD:
                if tok.low in MULTI_WORD_STARTS:
                    used, unit = self.unit_word(toks, i, end)
                else:
                    used, unit = 1, word_units[tok.text]
                if unit is not None:
                    pairs.append((unit, 1))
                    i += used
                    continue
                if tok.low in EMPTY_WORDS or self.lookup.empty_words[tok.text]:
                    empty = True
                    i += 1
                    continue
            break
        return _units_of(pairs), i, empty and not pairs

    def _counted_unit(
        self, line: int, toks: Tokens, i: int, j: int, end: int, rule: Rule
    ) -> tuple[int, UnitType | None]:
        """The unit after the count at ``i`` (at ``j``), a misspelling corrected; None (with
        an error) if there is none."""
        count_text = toks[i].text
        if j >= end or toks[j].kind != WORD:
            self.error(
                line,
                rule,
                f"the count {count_text} is not followed by a unit",
                f'write the unit after the number, e.g. "{count_text} INF"',
            )
            return 0, None
        used, unit = self.unit_word(toks, j, end)
        if unit is not None:
            return used, unit
        if (
            j == i + 1
            and toks.touching(j)
            and len(toks[j].text) <= 2
            and isinstance(self.lookup.unit(toks[j].text), NameResolutionError)
        ):
            glued = count_text + toks[j].text
            self.error(
                line,
                Rule.TYPOGRAPHICAL_ERRORS,
                f"{glued!r} is not a number, and a number can never be a typographical error",
                'write the count in digits, then the unit: "10 INF"',
                "bad-number",
            )
            return 1, None
        return 1, self.fuzzy_unit(line, toks[j], rule, after=f" after the count {count_text}")

    def fuzzy_unit(self, line: int, tok: Token, rule: Rule, after: str = "") -> UnitType | None:
        """The unit ``tok`` names, a misspelling corrected with a warning; None (with an
        error) if it names no unit."""
        found = self.lookup.unit(tok.text)
        if isinstance(found, NameResolutionError):
            self._name_failed(line, found, rule)
            return None
        if found.value.unit is None:
            self.error(
                line,
                rule,
                f"{tok.text!r}{after} is {found.value.meaning}, not a unit",
                "write one of INF, ARM, FTR, BMB, TRN, SUB, AC, BB, AA, IC",
                "unknown-name",
            )
            return None
        self._corrected(line, found)
        return found.value.unit
