"""The tokens of a line: numbers, money, arrows, words and punctuation marks.

Every line reader works on a line's tokens. A turn has a few hundred of them, mostly the same
few dozen words ("INF", "2", "SZ", ","), so each written token is made once and kept, and
reading a line is one pass of the pattern and one look-up per token.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain

NUM, MONEY, ARROW, WORD, PUNCT = "num", "money", "arrow", "word", "punct"

_SPACED_TOKEN = re.compile(
    r"(\s*+)([A-Za-z][A-Za-z'’.]*+|\d{1,9}+(?!\d)|\$\s?\d{1,9}+(?!\d)|\$?\d++|->|=>|→|>|\S)"
)
"""One token and the spaces before it. A token is a word, a number, money ("$32", "$ 32"),
digits too long for a number, an arrow, or any other mark; every branch starts on a non-space
character, so only spaces lie between two tokens. The repeats are possessive: giving back a
space or a letter never lets another branch match, and a run of ten digits or more is no
shorter number either, so trying is wasted work."""
_KIND = re.compile(r"([A-Za-z])|(\d{1,9}\Z)|(\$\s?\d{1,9}\Z)|(\$?\d+\Z)|((?:->|=>|→|>)\Z)")
"""Which branch of :data:`_SPACED_TOKEN` a whole token matched, by group number (none: a
mark). A run of ten digits or more is punctuation: too long for any count, and never read as
one (report integers stay far below 2**53)."""
_KINDS_BY_GROUP = (PUNCT, WORD, NUM, MONEY, PUNCT, ARROW)
_WRITTEN = operator.itemgetter(1)
"""The token as written, of a (spaces before, token) pair."""

_COUNT_WORDS = {
    word: n
    for n, word in enumerate(
        ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"), start=2
    )
}
"""Counts written out ("two inf left", "E Europe: three infantry"): read as the number. Not
"one", a word of many sentences ("no one", "one of them")."""

WORD_LIMIT = 20_000
"""Written tokens kept before the table starts afresh (every new misspelling is a new one)."""


@dataclass(frozen=True, slots=True)
class Token:
    """One token: a number, money ("$32"), an arrow, a word or a punctuation mark.

    ``low`` is the text lower-cased without trailing full stops ("v." -> "v"), for keywords.
    A token is what was written, not where: the same "INF" serves every line that has one
    (:class:`Tokens` knows where each of a line's tokens stands). Its fields are slots: the
    readers ask each token's kind and words many times a line.
    """

    kind: str
    text: str
    low: str

    @property
    def value(self) -> int:
        """The number of a NUM or MONEY token ("3", "$32", "two")."""
        return _COUNT_WORDS.get(self.low) or int(self.text.lstrip("$").strip())


class Tokens(list[Token]):
    """The tokens of one line, in order, with the spaces written before each.

    Readers quote what a player wrote ("E  Can" stays "E  Can") from the tokens and the
    spaces between them; where a token starts in the line is worked out only when asked."""

    __slots__ = ("spaced", "text")

    text: str
    spaced: list[tuple[str, str]]
    """(spaces before, token as written) for each token."""

    def span(self, i: int, j: int) -> str:
        """The text of tokens ``i`` to ``j - 1``, spacing as written ("" if none)."""
        if j <= i:
            return ""
        if j == i + 1:
            return self[i].text
        spaced = self.spaced
        return "".join([spaced[i][1], *chain.from_iterable(spaced[i + 1 : j])])

    def start(self, k: int) -> int:
        """The column where token ``k`` starts."""
        return sum(map(len, chain.from_iterable(self.spaced[:k]))) + len(self.spaced[k][0])

    def touching(self, k: int) -> bool:
        """Whether token ``k`` follows the one before with no space ("10inf")."""
        return k > 0 and not self.spaced[k][0]


class _Words(dict[str, Token]):
    """The token each written word is, made the first time it is seen."""

    def __missing__(self, word: str) -> Token:
        if len(self) >= WORD_LIMIT:
            self.clear()
        m = _KIND.match(word)
        kind = _KINDS_BY_GROUP[m.lastindex or 0] if m is not None else PUNCT
        low = word.lower().rstrip(".") or word
        if low in _COUNT_WORDS and word[-1] != ".":
            kind = NUM  # "two inf left": a count written out
        token = self[word] = Token(kind, word, low)
        return token


_WORDS = _Words()
token = _WORDS.__getitem__
"""The token ``written`` is (the same object every line that has it gets)."""


def tokenize(text: str) -> Tokens:
    """The tokens of ``text``; "10inf" is the number 10 then the word "inf"."""
    spaced = _SPACED_TOKEN.findall(text)
    toks = Tokens(map(_WORDS.__getitem__, map(_WRITTEN, spaced)))
    toks.text = text
    toks.spaced = spaced
    return toks


_DIGIT = re.compile(r"\d")


def has_digit(text: str) -> bool:
    """True if the line has a number in it (a number is never prose to skip silently): a
    digit as ``str.isdigit`` has it (superscripts too)."""
    if _DIGIT.search(text) is not None:
        return True
    return not text.isascii() and any(ch.isdigit() for ch in text)


_CLOSING = {"(": ")", "[": "]"}


def closing(toks: Tokens, i: int) -> int:
    """The token after the bracket that closes the one opened at ``i`` ("(" or "["),
    brackets of the same kind within it counted; the end of the line if none closes it."""
    opened = toks[i].text
    shut = _CLOSING[opened]
    depth = 0
    for j in range(i, len(toks)):
        written = toks[j].text
        if written == opened:
            depth += 1
        elif written == shut:
            depth -= 1
            if depth == 0:
                return j + 1
    return len(toks)


def brackets(toks: Tokens) -> Iterator[tuple[int, int, list[Token]]]:
    """Each bracket of a line, outermost: its opening token, the token after its closing
    one (the end of the line if it is not closed), and the tokens within it."""
    i, n = 0, len(toks)
    while i < n:
        shut = _CLOSING.get(toks[i].text)
        if shut is None:
            i += 1
            continue
        end = closing(toks, i)
        yield i, end, toks[i + 1 : end - 1 if toks[end - 1].text == shut else end]
        i = end


def without(toks: Tokens, spans: list[tuple[int, int]]) -> Tokens:
    """The line of ``toks`` with the tokens of each span (start, end) cut out, a space left
    for each, read into tokens again."""
    text = toks.text
    for i, j in reversed(spans):
        text = text[: toks.start(i)] + " " + text[toks.start(j - 1) + len(toks[j - 1].text) :]
    return tokenize(text)
