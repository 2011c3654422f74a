"""One item of a bid's details read: a count, a power, a unit or IPCs, and a place as
written ("3 G INF Ukraine", "three extra German INF in Ukraine", "2 extra IPCs for Japan",
"remove 2 G INF from Germany").

A count is digits or "one".."twelve" ("a"/"an": one; none written: one); a minus sign or
"remove" makes the item a removal (IAAPA Bidding: "Negative value bids are allowed"). The
power comes before the unit ("3 G INF", "Japanese ARM") or after it ("2 INF for Germany",
"2 INF ger Ukraine");
it is taken only as written ("G", "Ger", "German", "J", "Jap", "Japan" ...), since a
corrected power would move units between the players. A unit is the engine's unit word
(:mod:`adjudicator.names`), one word of it perhaps misspelt (IAAPA Error Correction VI);
"IPC"/"IPCs" are the bid's additional IPCs. "extra", "additional", "to spend" and "on its
first move" are filler. What follows the unit, less "in", "for", "from" and the like, is the
place, still as written: :mod:`adjudicator.bids.reading` reads it on the board.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from adjudicator.bids.model import BidCode, Finding, bid_finding
from adjudicator.diagnostics import Rule, Severity
from adjudicator.names import NameResolutionError, Names, Resolution, Term, normalise
from adjudicator.names.abbreviations import IPC_WORDS
from adjudicator.powers import Power
from adjudicator.units import UnitType

NUMBER_WORDS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
"""Counts written as words; "a"/"an" is one."""

"""What the additional IPCs of a bid are called (normalised); read before units, since the
typo rule would otherwise read "IPC" as "IC"."""

_FILLER = re.compile(
    r"\b(?:extra|additional|to\s+spend|(?:on|for)\s+(?:its|their|the)\s+first\s+(?:move|turn))\b",
    re.IGNORECASE,
)
_REMOVE = re.compile(r"^(?:remove|minus|less)\b\s*", re.IGNORECASE)
_COUNT = re.compile(r"^(?P<sign>[+\-\u2013\u2212])?\s*(?P<dollar>\$)?\s*(?P<n>\d+)\b\s*")
_PREPOSITIONS = frozenset({"in", "into", "to", "at", "for", "from", "on", "onto", "of"})


@dataclass
class ItemDraft:
    """An item being read: its place still as written, its power perhaps still to come."""

    written: str
    count: int
    unit: UnitType | None
    power: Power | None = None
    place: str = ""
    removal: bool = False
    power_unknown: bool = False
    """An unknown power word was reported already: no "no power" finding besides."""
    line: int = 1
    """The line of the details the item is on (1-based)."""


@dataclass
class ItemReader:
    """Reads items with a board's ``names``, collecting what it finds in ``findings``."""

    names: Names
    findings: list[Finding] = field(default_factory=list)
    line: int = 1
    """The line of the details being read (1-based)."""

    def note(
        self, severity: Severity, rule: Rule, code: BidCode, message: str, line: int | None = None
    ) -> None:
        """Record a finding on ``line`` (default: the line being read)."""
        where = self.line if line is None else line
        self.findings.append(bid_finding(severity, rule, code, message, where))

    def error(self, code: BidCode, message: str, line: int | None = None) -> None:
        """Record an error of IAAPA Bidding (what a bid may hold)."""
        self.note(Severity.ERROR, Rule.BIDDING, code, message, line)

    # --- powers and units ------------------------------------------------------------------

    def power_at(self, words: list[str], at: int) -> tuple[Power | None, int]:
        """The power named exactly by one or two words from ``at`` ("G", "Soviet Union"),
        and how many words it took; (None, 0) if none."""
        for width in (2, 1):
            if at + width > len(words):
                continue
            written = " ".join(words[at : at + width]).rstrip(":")
            try:
                found = self.names.power(written)
            except NameResolutionError:
                continue
            if found.exact:
                return found.value, width
        return None, 0

    def power_named(self, written: str) -> Power | None:
        """The power ``written`` names as a whole ("Germany", "G", "Soviet Union"), or None
        (a power followed by anything else is none)."""
        words = written.split()
        power, used = self.power_at(words, 0)
        return power if used == len(words) else None

    def unit_at(
        self, words: list[str], at: int, typos: bool
    ) -> tuple[Resolution[Term] | None, int]:
        """The unit named by up to three words from ``at`` ("INF", "AA gun") and how many
        words it took: several words only as written, one word also misspelt if ``typos``."""
        for width in (3, 2, 1):
            if at + width > len(words):
                continue
            try:
                found = self.names.unit(" ".join(words[at : at + width]))
            except NameResolutionError:
                continue
            if found.exact or (width == 1 and typos):
                return found, width
        return None, 0

    # --- items -----------------------------------------------------------------------------

    def draft(self, written: str) -> ItemDraft | None:
        """One item read up to its place (still as written); None with a finding if it
        cannot be read, None alone if it is only filler."""
        text = " ".join(_FILLER.sub(" ", written).split())
        if not text:
            return None
        removed = _REMOVE.match(text)
        removal = removed is not None
        text = text[removed.end() :] if removed else text
        count: int | None = None
        dollars = False
        counted = _COUNT.match(text)
        words = text[counted.end() :].split() if counted else text.split()
        if counted:
            count = int(counted["n"])
            removal = removal or counted["sign"] not in (None, "+")
            dollars = bool(counted["dollar"])
        elif words and words[0].lower() in NUMBER_WORDS:
            count = NUMBER_WORDS[words.pop(0).lower()]
        power, at = self.power_at(words, 0)
        draft = ItemDraft(
            written, 1 if count is None else count, None, power, removal=removal, line=self.line
        )
        if at >= len(words):
            if dollars and count is not None:
                return draft
            self._unreadable(written, "it names no unit and no IPCs")
            return None
        if normalise(words[at]) in IPC_WORDS:
            at += 1
        else:
            at = self._unit(draft, words, at, counted=count is not None)
            if draft.unit is None:
                return None
        self._after_unit(draft, words[at:])
        return draft

    def _unit(self, draft: ItemDraft, words: list[str], at: int, *, counted: bool) -> int:
        """Read the unit of ``draft`` from ``words[at]`` on; where the words after it
        start. A word with no count before it is a unit only as written: "Bid" is no
        misspelt "BB". A word between the count and a unit is an unknown power."""
        written = draft.written
        found, width = self.unit_at(words, at, counted)
        if found is None and draft.power is None and self.unit_at(words, at + 1, counted)[0]:
            self.error(
                BidCode.UNKNOWN_POWER,
                f"In {written!r}: {words[at]!r} is not a power. Name the Axis power the "
                'units are for: Germany ("G", "Ger") or Japan ("J", "Jap").',
            )
            draft.power_unknown = True
            at += 1
            found, width = self.unit_at(words, at, counted)
        if found is None:
            if counted:
                self._unknown_unit(written, words[at])
            else:
                self._unreadable(written, "it starts with no count and no unit")
            return at
        term = found.value
        if term.unit is None or term.technology is not None:
            kind = "notation" if term.notation is not None else "a technology"
            self._unknown_unit(
                written, words[at], f"{term.meaning} is {kind}, not a unit a bid may add"
            )
            return at
        if found.corrected:
            self.note(
                Severity.WARNING,
                Rule.TYPOGRAPHICAL_ERRORS,
                BidCode.TYPO,
                f"In {written!r}: {found.warning()}; write {found.alias!r} to avoid the "
                "correction.",
            )
        draft.unit = term.unit
        return at + width

    def _after_unit(self, draft: ItemDraft, rest: list[str]) -> None:
        """The power named after the unit ("for Japan") and the place, from the words after
        the unit. A power word after "for" is the power unless the item has one already and
        nothing else would be left for the place ("2 G INF for Germany": Germany the place)."""
        for at, word in enumerate(rest):
            if word.lower() != "for":
                continue
            power, used = self.power_at(rest, at + 1)
            if power is None:
                continue
            left = rest[:at] + rest[at + 1 + used :]
            if draft.power is None or (power is draft.power and _stripped(left)):
                draft.power, rest = power, left
            break
        if draft.power is None and rest:  # "2 INF ger Ukraine"
            power, used = self.power_at(rest, 0)
            if power is not None and len(rest) > used and not self._names_a_place(rest):
                draft.power, rest = power, rest[used:]
        place = _stripped(rest)
        if draft.unit is None and place:
            power, used = self.power_at(place, 0)
            if power is not None and used == len(place) and draft.power in (None, power):
                draft.power = power
                return
            self._unreadable(
                draft.written,
                f"IPCs are not placed on the board, yet {' '.join(place)!r} follows them",
            )
            return
        draft.place = " ".join(place)

    def _names_a_place(self, words: list[str]) -> bool:
        """Whether ``words`` name a place as a whole ("Japan Sea Zone"), so that the power
        word they start with is no power of the item."""
        try:
            self.names.place(" ".join(words))
        except NameResolutionError:
            return False
        return True

    def _unreadable(self, item: str, why: str) -> None:
        self.error(
            BidCode.UNREADABLE,
            f"Cannot read {item!r}: {why}. Write each item as a count, a power, a unit and "
            'a place ("3 G INF Ukraine"), or a count of IPCs for a power ("1 J IPC").',
        )

    def _unknown_unit(self, item: str, word: str, why: str = "") -> None:
        because = f" ({why})" if why else ""
        self.error(
            BidCode.UNKNOWN_UNIT,
            f"In {item!r}: {word!r} is not a Classic unit{because}, so the item adds nothing "
            "to the bid. Write one of INF, ARM, FTR, BMB, TRN, SUB, AC, BB, AA, IC, or IPCs.",
        )


def _stripped(words: list[str]) -> list[str]:
    """``words`` less the prepositions before the place ("in", "for", "from" ...)."""
    at = 0
    while at < len(words) and words[at].lower() in _PREPOSITIONS:
        at += 1
    return words[at:]
