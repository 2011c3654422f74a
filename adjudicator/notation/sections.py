"""The parts of a turn email: section headers, the title line, greetings and sign-offs.

IAAPA's pre-combat turn holds "any successful weapons development, the remainder of his
purchases, and all combat moves"; the post-combat turn "the results of combat, his
non-combat moves, a map update ... and a territory and IPC count" (Declaration and Battle
Resolution Procedures). Players head each part ("Purchases:", "Combat Moves:", "NCM:",
"Map update:") and the header decides how the lines below it are read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from adjudicator.fastenum import FastEnum
from adjudicator.fastrecord import quick_init
from adjudicator.notation.model import TurnKind
from adjudicator.notation.tokens import has_digit


class Section(FastEnum):
    """Which part of a turn a line belongs to."""

    NONE = "none"
    """Before any header: greetings, the title, chat."""
    TECH = "tech"
    """Weapons development results."""
    PURCHASES = "purchases"
    """Units bought."""
    COMBAT = "combat"
    """Combat moves: battle headers, origin lines, Total lines."""
    RESULTS = "results"
    """Results of combat."""
    NON_COMBAT = "non-combat"
    """Non-combat moves."""
    PLACEMENT = "placement"
    """Placement of the units bought."""
    MAP = "map"
    """The map update: territories with their units."""
    COUNT = "count"
    """The territory and IPC count."""
    SPECIAL = "special"
    """Special orders: orders of loss, sub withdrawals, retreats."""


_PHRASES: dict[Section, str] = {
    Section.TECH: r"tech(?:nology|nologies|s)?(?:\s+(?:results?|rolls?|dev(?:elopment)?|"
    r"research))?|weapons?\s+development|research(?:\s+results?)?|r\s?&\s?d",
    Section.PURCHASES: r"(?:purchase|buy)\s+units|purchases?|purchased|buys?|buying|bought|"
    r"builds?|production|(?:new\s+)?units\s+(?:purchased|bought|built)|spending|spend",
    Section.COMBAT: r"combat(?:\s+(?:moves?|movements?|orders|declarations?|phase))?|attacks?",
    Section.RESULTS: r"(?:combat\s+|battle\s+|attack\s+)?results?(?:\s+of\s+combat)?|"
    r"battle\s+outcomes?|outcomes?",
    Section.NON_COMBAT: r"non[\s-]?combat(?:\s+(?:moves?|movements?|orders))?|ncms?|"
    r"nc\s+moves?|non[\s-]?com(?:\s+moves?)?",
    Section.PLACEMENT: r"place\s+units|placements?|placing|place(?:d)?|mobili[sz](?:e|ation)|"
    r"deploy(?:ment)?|new\s+units(?:\s+placed)?|(?:units|purchases|buys)\s+placed",
    Section.MAP: r"(?:updated\s+)?map(?:\s+(?:update|position))?|positions?|board|territories|"
    r"units\s+on\s+(?:the\s+)?board|holdings|status",
    Section.COUNT: r"(?:territory\s+(?:and|&)\s+ipc\s+|ipc\s+|income\s+)?count|income",
    Section.SPECIAL: r"(?:special\s+(?:orders?|instructions?)|(?:special\s+)?orders?\s+of\s+"
    r"loss(?:es)?|ools?|casualty\s+orders?|loss\s+orders?|(?:sub\s+)?withdrawals?|"
    r"retreats?(?:\s+(?:declarations?|orders?|notes?|locations?))?)"
    r"(?:\s+for\s+[^:\n]*?(?=:\s*$))?",  # "Orders of loss for your Japan 1 attacks (USA):"
}

_NOT_RUSSIA = (
    r"germany|german|ger|uk|britain|british|england|japan|japanese|jap|usa|america|american"
)
"""The names of the powers other than the USSR that a title writes in full (not "us": a
word of any sentence)."""
_POWER = rf"ussr|russia|soviets?|{_NOT_RUSSIA}|us"
_ROUND = r"(?:turn|round|rd|r)?\s*#?\s*\d{1,2}"
_PREFIX = rf"(?>(?:(?:{_POWER})\s*{_ROUND}|(?:r|g|j|uk|us|usa)\d{{1,2}})\s*[-:,]?\s*)?"
"""The power and round a header may start with ("G3 ", "UK turn 2: "). Atomic: what follows
it starts with a letter, so it can only end where it ends greedily (after the round and any
spaces and separator), and trying its other ways of splitting the spaces ("Germany 1
post-combat" is no header) is wasted work."""

_HEADER = re.compile(
    r"^[\s*=#_~\-]*+(?:\d{1,2}[.)]\s*)?"
    + _PREFIX
    + r"(?:(?:final|current|updated|new|my|the)\s+)?(?:"
    + "|".join(f"(?P<{s.name}>{p})" for s, p in _PHRASES.items())
    + r")(?:[,\s]+(?:for\s+)?game\s*#?\s*\d+)?"
    + r"\s*(?:(?:[:=]|\s[-–—]+)\s*(?P<rest>.*)|(?P<digits>\d.*))?[\s*=_~:]*$",
    re.IGNORECASE,
)
"""A section header. The leading marks are possessive: a header word starts with a letter, so
giving marks back never helps and only repeats the attempt ("=================" is no header).
What follows the header word is matched to the end of the line: the orders written after it
(``rest``) are that, less the trailing marks :data:`_TRAILING` (what a lazy ``.*?`` before
``[\\s*=_~:]*$`` would leave out, found without extending the match one character at a
time)."""
_TRAILING = "".join(ch for ch in map(chr, range(0x3001)) if ch.isspace()) + "*=_~:"
"""The marks a header's orders never end with: ``\\s`` (every whitespace character is below
U+3001) and ``*=_~:``."""

_KIND_WORDS: tuple[tuple[TurnKind, re.Pattern[str]], ...] = (
    (
        TurnKind.POST_COMBAT,
        re.compile(
            r"\bpost[\s-]?combat\b|\bpostcombat\b|\bfinal\b|"
            r"\bnon[\s-]?combat\b|\bncm\b",
            re.IGNORECASE,
        ),
    ),
    (
        TurnKind.PRE_COMBAT,
        re.compile(r"\bpre[\s-]?combat\b|\bprecombat\b|\bcombat\s+moves?\b", re.IGNORECASE),
    ),
    (
        TurnKind.SPECIAL_ORDERS,
        re.compile(r"\bspecial\s+(?:orders?|instructions?)\b", re.IGNORECASE),
    ),
)

_TITLE_ROUND = re.compile(
    rf"\b(?P<power>{_POWER})\s*[,:\-]?\s*(?P<round>{_ROUND})\b", re.IGNORECASE
)
_COMPACT_ROUND = re.compile(r"\b(?P<power>r|g|uk|j|us|usa)(?P<round>\d{1,2})\b", re.IGNORECASE)
_KIND_WORDS_LOW = tuple((kind, re.compile(pattern.pattern)) for kind, pattern in _KIND_WORDS)
_TITLE_ROUND_LOW = re.compile(_TITLE_ROUND.pattern)
_COMPACT_ROUND_LOW = re.compile(_COMPACT_ROUND.pattern)
""":data:`_KIND_WORDS`, :data:`_TITLE_ROUND` and :data:`_COMPACT_ROUND` for lower-cased
ASCII text (every letter of the patterns is lower case)."""
_NOT_DIGITS = re.compile(r"\D")
_NAMED_POWER = re.compile(rf"\b(?:{_NOT_RUSSIA})\b", re.IGNORECASE)
"""A power other than the USSR named in full in a title: beside it, "R1" is round 1."""
_COMPACT_POWERS = {"r": "USSR", "g": "Germany", "uk": "UK", "j": "Japan", "us": "USA", "usa": "USA"}

_GREETING = re.compile(
    r"^\s*(?:hi|hello|hey|dear|greetings|howdy|yo|good\s+(?:morning|afternoon|evening|day))"
    r"\b",
    re.IGNORECASE,
)
_CLOSER = re.compile(
    r"^\s*(?:cheers|regards|best|thanks|thank\s+you|thx|ta|good\s+luck|gl|"
    r"your\s+(?:turn|move|go)|you'?re\s+up|(?:over|back)\s+to\s+you|"
    r"that'?s\s+(?:it|all)|that\s+is\s+(?:it|all)|later|ciao|bye|all\s+the\s+best|"
    r"sincerely|kind\s+regards|best\s+regards|take\s+care|have\s+fun|enjoy)\b",
    re.IGNORECASE,
)


@quick_init
@dataclass(frozen=True)
class Header:
    """A section header line, with any orders written after it on the same line."""

    section: Section
    rest: str
    offset: int
    """Where ``rest`` starts in the line (so its tokens keep their columns)."""
    flavour: str = ""
    """For special orders: "retreat", "withdrawal" or "loss" when the header says which."""


_HEADER_HINTS = (
    "tech",
    "weapon",
    "research",
    "&",
    "purchas",
    "buy",
    "spend",
    "bought",
    "build",
    "production",
    "units",
    "spending",
    "combat",
    "attack",
    "result",
    "outcome",
    "ncm",
    "nc move",
    "plac",
    "mobili",
    "deploy",
    "map",
    "territor",
    "holding",
    "status",
    "noncom",
    "non-com",
    "non com",
    "position",
    "board",
    "count",
    "income",
    "special",
    "loss",
    "casualt",
    "ool",
    "withdraw",
    "retreat",
)
"""Every header phrase contains one of these: a cheap test before the pattern."""


def _any_of(words: tuple[str, ...]) -> re.Pattern[str]:
    """A pattern finding any of ``words``, grouped by first letter ("t(?:ech)|w(?:eapon|
    ithdraw)|..."): each place in a line is tried once per first letter, not once per word."""
    by_first: dict[str, list[str]] = {}
    for word in words:
        by_first.setdefault(word[0], []).append(word[1:])
    return re.compile(
        "|".join(
            re.escape(first) + "(?:" + "|".join(map(re.escape, rests)) + ")"
            for first, rests in by_first.items()
        )
    )


_HEADER_HINT = _any_of(_HEADER_HINTS)


_SECTION_GROUPS = tuple((s, s.name) for s in Section if s.name in _HEADER.groupindex)
_HEADER_LOW = re.compile(_HEADER.pattern)
""":data:`_HEADER` for lower-cased ASCII text (every letter of the pattern is lower case):
the same match, found faster than by ignoring case. Lower-casing keeps an ASCII line's
length, so the match's offsets are the line's."""


def header(text: str, low: str | None = None) -> Header | None:
    """The section ``text`` heads ("Combat Moves:", "Purchases: 3 INF"), or None (``low``:
    the text lower-cased, if the caller has it)."""
    if text.isascii():
        if low is None:
            low = text.lower()
        if _HEADER_HINT.search(low) is None:
            return None
        m = _HEADER_LOW.match(low)
    else:
        m = _HEADER.match(text)
    if m is None:
        return None
    for section, name in _SECTION_GROUPS:
        if m.group(name) is not None:
            group = "rest" if m.group("rest") is not None else "digits"
            start = m.start(group)
            rest = text[start:].rstrip(_TRAILING) if start >= 0 else ""
            words = m.group(name).lower()
            flavour = (
                "retreat"
                if "retreat" in words
                else "withdrawal"
                if "withdraw" in words
                else "loss"
                if "loss" in words or "ool" in words
                else ""
            )
            return Header(section, rest, start if rest else len(text), flavour)
    return None


@quick_init
@dataclass(frozen=True)
class Title:
    """What a title line ("Germany 3 pre-combat", "Subject: G3 NCM") says of the turn."""

    kind: TurnKind | None
    power: str | None
    round: int | None


def names_a_kind(low: str) -> bool:
    """Whether a lower-cased line holds what every kind word contains ("combat", "final",
    "ncm", "special"): a cheap test before the patterns."""
    return "combat" in low or "final" in low or "ncm" in low or "special" in low


def title(text: str, *, subject: bool = False, low: str | None = None) -> Title | None:
    """The title ``text`` gives, or None. A line is a title if it names the turn's kind
    (a subject line also if it names a power and round; ``low``: the text lower-cased, if the
    caller has it)."""
    if low is None:
        low = text.lower()
    if not subject and not names_a_kind(low):
        return None
    plain = text.isascii()  # then the lower-cased line matches as ignoring case does
    kinds, line = (_KIND_WORDS_LOW, low) if plain else (_KIND_WORDS, text)
    kind = None
    for named, pattern in kinds:
        if pattern.search(line):
            kind = named
            break
    power = number = None
    if has_digit(text):  # a round is a number
        m = _TITLE_ROUND_LOW.search(low) if plain else _TITLE_ROUND.search(text)
        if m is not None:
            power = text[m.start("power") : m.end("power")]
            number = int(_NOT_DIGITS.sub("", m.group("round")))
        else:
            c = _COMPACT_ROUND_LOW.search(low) if plain else _COMPACT_ROUND.search(text)
            if c is not None:
                power, number = _COMPACT_POWERS[c.group("power").lower()], int(c.group("round"))
                other = _NAMED_POWER.search(text)
                if c.group("power").lower() == "r" and other is not None:
                    power = other.group(0)  # "Germany: pre-combat, R1": round 1, not Russia's
    if kind is None and power is not None and _BARE_COMBAT.search(low) is not None:
        kind = TurnKind.PRE_COMBAT  # "Germany round 1 - combat": the combat turn
    if kind is None and not (subject and power is not None):
        return None
    return Title(kind, power, number)


def power_and_round(text: str) -> Title | None:
    """The title a line is when it is nothing but a power and a round ("Russia round 1",
    "UK - 2", "G3:"): it names no kind of turn, and no order either."""
    m = _BARE_TITLE.match(text)
    if m is None:
        return None
    if m.group("power") is not None:
        return Title(None, m.group("power"), int(_NOT_DIGITS.sub("", m.group("round"))))
    return Title(None, _COMPACT_POWERS[m.group("letter").lower()], int(m.group("number")))


_TITLE_MARKS = r"[\s*=\-_:.,!#]*"
"""What may stand around a title line: spaces, underlining and a colon or full stop."""
_BARE_TITLE = re.compile(
    rf"{_TITLE_MARKS}(?:{_TITLE_ROUND.pattern}|"
    r"\b(?P<letter>r|g|uk|j|us|usa)(?P<number>\d{1,2})\b)"
    rf"{_TITLE_MARKS}\Z",
    re.IGNORECASE,
)
""":data:`_TITLE_ROUND` or :data:`_COMPACT_ROUND`, alone on its line but for marks."""


_BARE_COMBAT = re.compile(r"\bcombat\b")
"""The word "combat" alone (no "pre-", "post-" or "non-" before it, which :data:`_KIND_WORDS`
read first): beside a power and round, a title of the combat turn."""


_GREETING_STARTS = frozenset({"hi", "he", "de", "gr", "ho", "yo", "go"})
"""The first two letters of the salutations (lower-cased): an ASCII line starting otherwise is
none, without trying the pattern."""


def is_greeting(text: str) -> bool:
    """A salutation ("Hi Bob,") rather than an order."""
    start = text.lstrip()[:2]
    if start.isascii() and start.lower() not in _GREETING_STARTS:
        return False
    return _GREETING.match(text) is not None and len(text.split()) <= 6


_CLOSER_STARTS = frozenset(
    {"ch", "re", "be", "th", "ta", "go", "gl", "yo", "ov", "la", "ci", "by", "al", "si", "ki"}
    | {"ha", "en", "ba"}
)
"""The first two letters of the sign-offs (lower-cased): an ASCII line starting otherwise is
none, without trying the pattern."""


def is_closer(text: str) -> bool:
    """A sign-off ("Cheers,", "Good luck!", "Your move.") rather than an order."""
    start = text.lstrip()[:2]
    if start.isascii() and start.lower() not in _CLOSER_STARTS:
        return False
    return (
        _CLOSER.match(text) is not None
        and len(text.split()) <= 6
        and not any(ch.isdigit() for ch in text)
    )
