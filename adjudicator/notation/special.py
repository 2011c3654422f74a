"""Special orders: a defender's order of loss, a sub's withdrawal zone, a retreat location.

IAAPA Amendments and Special Orders: "Players may send special instructions at any time
provided that they are received prior to the applicable battle being rolled." The forms::

    OOL: INF, ARM, FTR, BMB                          every battle
    OOL for battle #2 (Baltic SZ): TRN, SUB, AC, BB  one battle
    Karelia OOL 2 INF, FTR, INF                      counts where written
    Battle #2: sub withdraws to Karelia SZ           Rules Clarifications, Sub Withdrawal
    Sub withdrawal (North Sea): Baltic SZ
    Battle #1 W Europe: retreat to UK SZ             Rules Clarifications, Retreats
"""

from __future__ import annotations

import re

from adjudicator.diagnostics import Rule
from adjudicator.notation.model import LossEntry, Retreat, SpecialOrderOfLoss, SubWithdrawal
from adjudicator.notation.reading import Reader
from adjudicator.notation.tokens import NUM, WORD, Token, tokenize

LOSS_MARK = re.compile(
    r"\bool\b|\borders?\s+of\s+loss(?:es)?\b|\bloss\s+orders?\b|"
    r"\bcasualty\s+order\b",
    re.IGNORECASE,
)
WITHDRAW_MARK = re.compile(r"\b(?:withdraw|submerg)\w*\b", re.IGNORECASE)
"""A sub's withdrawal: "withdraws", or "submerges" as players also say."""
RETREAT_MARK = re.compile(r"\bretreat\w*\b", re.IGNORECASE)
_MARKS = (("loss", LOSS_MARK), ("withdrawal", WITHDRAW_MARK), ("retreat", RETREAT_MARK))
_MARKS_LOW = tuple((kind, re.compile(mark.pattern)) for kind, mark in _MARKS)
"""The markers as written (every letter lower case), for lower-cased ASCII text: matching it
finds what ignoring case finds in the text, several times faster."""


def _may_be_marked(low: str) -> bool:
    """Whether lower-cased ASCII text holds what every marker holds ("ool", "loss",
    "withdraw", "retreat", "casualty"): a cheap test before the patterns."""
    return (
        "ool" in low
        or "loss" in low
        or "withdraw" in low
        or "retreat" in low
        or "casualty" in low
        or "submerg" in low
    )


def marked_kind(text: str) -> str:
    """The special order a line's marker names: "loss", "withdrawal", "retreat", or ""."""
    if not text.isascii():
        return next((kind for kind, mark in _MARKS if mark.search(text)), "")
    low = text.lower()
    if not _may_be_marked(low):
        return ""
    for kind, mark in _MARKS_LOW:
        if mark.search(low):
            return kind
    return ""


_NUMBER = re.compile(
    r"(?:#\s*|\b(?:battle|attack|combat|bat)\s*(?:#|no\.?)?\s*)(\d{1,3})\b", re.IGNORECASE
)
_SCOPE_NOISE = re.compile(
    r"\b(?:for|from|in|at|the|my|if|sub|subs|submarine|submarines|ss|it|its|they|will|shall|"
    r"should|survives?|surviving|special|orders?|loss(?:es)?|ool|withdraw\w*|submerg\w*|retreat\w*|"
    r"battle|attack|combat|all|remaining|units?|defending|attacking|please|then|and|"
    r"location|zone\s+to|is|are|other|battles|attacks|every|each|any|rest|me|mine|our|we|"
    r"i|after|before|round|rounds|lose|loses|losing|first|take|takes|kill|kills|remove|removes|"
    r"casualty|casualties)\b|"
    r"[#():,;!.\-–—]|\d+",
    re.IGNORECASE,
)
_TO = re.compile(r"\b(?:to|into)\b", re.IGNORECASE)
_BATTLE_KIND = re.compile(
    r"\b(sea|naval|land)\s+(?:battles?|attacks?|combats?|fights?)\b", re.IGNORECASE
)
"""An order of loss for every battle of a kind: "sea battles", "naval attacks", "land"."""
_SENTENCE_END = re.compile(r"\b[a-z]{3,}[.!?]\s+")
"""The end of a sentence written before an order on its line ("Rolling it now. OOL: ..."):
a full stop after a word of three lower-case letters or more ("W. Europe" and "E. Med."
end none); looked for only when the words before the order name no place."""
_DESTINATION_END = re.compile(r"\b(?:after|if|when|unless|once|before)\b|[,;(.!]", re.IGNORECASE)
_SKIP = frozenset(
    {
        ",",
        ";",
        ">",
        "->",
        "=>",
        "→",
        "/",
        "-",
        "then",
        "and",
        "first",
        "next",
        "last",
        "rest",
        "remaining",
        "all",
        "others",
        "other",
        "etc",
        "the",
        ".",
        "is",
        "are",
        "please",
        "lose",
        "loses",
        "losing",
        "take",
        "takes",
        "kill",
        "kills",
        "remove",
        "removes",
    }
)


_SCOPE_NOISE_LOW = re.compile(_SCOPE_NOISE.pattern)
""":data:`_SCOPE_NOISE` for lower-cased ASCII text (every letter of the pattern is lower
case)."""


def _without_noise(text: str) -> str:
    """``text`` with every :data:`_SCOPE_NOISE` replaced by a space (found in the lower-cased
    text when it is ASCII: the same places, several times faster than ignoring case)."""
    if not text.isascii():
        return _SCOPE_NOISE.sub(" ", text)
    pieces = []
    last = 0
    for m in _SCOPE_NOISE_LOW.finditer(text.lower()):
        pieces.append(text[last : m.start()])
        last = m.end()
    pieces.append(text[last:])
    return " ".join(pieces)


def _scope(reader: Reader, line: int, text: str, rule: Rule) -> tuple[int | None, str | None]:
    """The battle number and territory a special order is for ("battle #2 (Baltic SZ)")."""
    number = None
    m = _NUMBER.search(text)
    if m is not None:
        number = int(m.group(1))
        text = text[: m.start()] + " " + text[m.end() :]
    written = " ".join(_without_noise(text).split())
    if written and not reader.lookup.knows_place(written):
        # "Rolling it now. OOL for me: ...": the order starts after the sentence before it
        ends = list(_SENTENCE_END.finditer(text))
        if ends:
            written = " ".join(_without_noise(text[ends[-1].end() :]).split())
    if not written:
        return number, None
    return number, reader.place(line, written, rule)


def _destination(reader: Reader, line: int, text: str, rule: Rule) -> str | None:
    end = _DESTINATION_END.search(text)
    written = (text[: end.start()] if end else text).strip()
    written = re.sub(r"^(?:the|a)\s+", "", written, flags=re.IGNORECASE)
    if not written:
        return None
    return reader.place(line, written, rule)


def _loss_parts(reader: Reader, text: str) -> tuple[str, str]:
    """An order of loss's scope (which battle) and its list of units: split at the colon,
    else where the units begin after the marker ("OOL for Karelia is INF, ARM")."""
    mark = LOSS_MARK.search(text)
    colon = text.find(":", mark.end() if mark else 0)
    if colon < 0 and mark is None:
        colon = text.find(":")
    if colon >= 0:
        return text[:colon], text[colon + 1 :]
    start = mark.end() if mark is not None else 0  # unmarked: "Ukraine - INF, then ARM"
    after = tokenize(text[start:])
    n = len(after)
    for k in range(n):
        unit = k + 1 if after[k].kind == NUM and k + 1 < n else k
        if reader.unit_word(after, unit, n)[1] is not None:
            before = text[: mark.start()] if mark is not None else ""
            return before + " " + after.span(0, k), text[start:][after.start(k) :]
    if mark is None:
        return "", text
    return text[: mark.start()], text[mark.end() :]


def lists_a_unit_first(reader: Reader, text: str) -> bool:
    """Whether the list of an order of loss starts with a unit ("OOL: INF, ARM"), where a
    sentence about orders of loss does not ("Defender OOL is yours, Monty.")."""
    toks = tokenize(_loss_parts(reader, text)[1])
    i = next((k for k, tok in enumerate(toks) if tok.low not in _SKIP), len(toks))
    if i < len(toks) and toks[i].kind == NUM:
        i += 1
    return i < len(toks) and reader.unit_word(toks, i, len(toks))[1] is not None


def order_of_loss(reader: Reader, line: int, text: str) -> SpecialOrderOfLoss | None:
    """An order of loss; None (with an error) if its unit list cannot be read."""
    scope, listing = _loss_parts(reader, text)
    scope = LOSS_MARK.sub(" ", scope)
    kind = _BATTLE_KIND.search(scope)
    if kind is not None:  # "OOL sea battles: SUB, BB"
        scope = f"{scope[: kind.start()]} {scope[kind.end() :]}"
    errors = reader.errors_on(line)
    number, territory = _scope(reader, line, scope, Rule.ORDERS_OF_LOSS)
    corrections = list(_CORRECTION.finditer(listing))
    if corrections:  # "inf first, then art... sorry, inf, arm, ftr"
        first, last = corrections[0], corrections[-1]
        reader.info(
            line,
            Rule.ORDERS_OF_LOSS,
            f"{listing[: first.start()].strip(' ,;.')!r} was corrected: the order of loss is "
            f"what follows {last.group(1)!r}",
            "nothing to do if the order after the correction is the one meant",
            "corrected",
        )
        listing = listing[last.end() :]
    if "(" in listing:
        listing = _without_remarks(reader, line, listing)
    order = _loss_list(reader, line, tokenize(listing))
    if reader.errors_on(line) > errors:
        # half an order of loss is no order, and one for a place that cannot be read is no
        # order for every battle: the defaults apply
        return None
    if not order:
        if reader.errors_on(line) == 0:
            reader.error(
                line,
                Rule.ORDERS_OF_LOSS,
                "the order of loss lists no units",
                "list unit types, first lost first: OOL: INF, ARM, FTR, BMB",
            )
        return None
    waters = None if kind is None else "land" if kind.group(1).lower() == "land" else "sea"
    return SpecialOrderOfLoss(line, tuple(order), number, territory, waters)


_BRACKET = re.compile(r"\(([^()]*)\)?")
_CORRECTION = re.compile(
    r"\b(sorry|i\s+mean|correction|no\s+wait|oops|make\s+that)\b[\s,:;.!-]*", re.IGNORECASE
)
"""A player correcting his list as he writes it ("inf first, then art... sorry, inf, arm, ftr"):
what follows is the order."""


def _without_remarks(reader: Reader, line: int, listing: str) -> str:
    """An order of loss's list without its bracketed remarks ("2 inf, arm, aa (IC stays)"),
    each noted: a bracket holding a word that is no unit and no word of the list, or one
    saying more of units the list has named already ("inf, arm, ftr (fighter last
    please)": no second fighter)."""
    kept = []
    last = 0
    for m in _BRACKET.finditer(listing):
        inside = [t for t in tokenize(m.group(1)) if t.kind == WORD]
        words = [t for t in inside if t.low not in _SKIP]
        units = [reader.unit_word([t], 0, 1)[1] for t in words]
        named = {reader.unit_word([t], 0, 1)[1] for t in tokenize(listing[last : m.start()])} - {
            None
        }
        if (words and None in units) or (
            words and len(inside) > len(words) and named.issuperset(units)
        ):
            kept.append(listing[last : m.start()])
            last = m.end()
            reader.remark(
                line,
                Rule.ORDERS_OF_LOSS,
                f"{m.group(0)!r} was read as a remark, not as part of the order of loss",
            )
    kept.append(listing[last:])
    return " ".join(kept)


def _loss_list(reader: Reader, line: int, toks: list[Token]) -> list[LossEntry]:
    order: list[LossEntry] = []
    i, n = 0, len(toks)
    while i < n:
        tok = toks[i]
        if tok.low in _SKIP or tok.kind not in (NUM, WORD):
            i += 1
            continue
        count = None
        if tok.kind == NUM:
            count = tok.value
            i += 1
        used, unit = reader.unit_word(toks, i, n)
        if unit is None and i < n and toks[i].kind == WORD:
            unit = reader.fuzzy_unit(line, toks[i], Rule.ORDERS_OF_LOSS)
            used = 1
        if unit is None:
            if reader.errors_on(line) == 0:
                reader.error(
                    line,
                    Rule.ORDERS_OF_LOSS,
                    f"could not read {tok.text!r} as a unit",
                    "list unit types, first lost first: OOL: TRN, SUB, FTR, AC, BB",
                )
            return order
        order.append(LossEntry(unit, count))
        i += used
    return order


def _split_to(text: str, mark: re.Match[str] | None) -> tuple[str, str] | None:
    after = mark.end() if mark else 0
    to = _TO.search(text, after)
    if to is not None:
        return text[: to.start()], text[to.end() :]
    colon = text.find(":", after)
    if colon >= 0:
        return text[:colon], text[colon + 1 :]
    return None


def _scoped_destination(
    reader: Reader,
    line: int,
    text: str,
    mark: re.Match[str] | None,
    rule: Rule,
    what: str,
    example: str,
) -> tuple[str, int | None, str | None] | None:
    """The destination of a sub withdrawal or a retreat, with the battle it belongs to;
    an error naming ``what`` is missing when there is none."""
    parts = _split_to(text, mark)
    if parts is None:
        reader.error(line, rule, f"a {what} with no place to go to", f"name the place: {example}")
        return None
    errors = reader.errors_on(line)
    number, territory = _scope(reader, line, parts[0], rule)
    to = _destination(reader, line, parts[1], rule)
    if to is None:
        if reader.errors_on(line) == 0:
            reader.error(line, rule, f"the {what} names no place", f"name the place: {example}")
        return None
    return None if reader.errors_on(line) > errors else (to, number, territory)


def withdrawal(reader: Reader, line: int, text: str) -> SubWithdrawal | None:
    """A sub withdrawal: "Battle #2: sub withdraws to Karelia SZ"."""
    found = _scoped_destination(
        reader,
        line,
        text,
        WITHDRAW_MARK.search(text),
        Rule.SUB_WITHDRAWAL,
        "sub withdrawal",
        "Battle #2 (Baltic SZ): sub withdraws to Karelia SZ (with none, where the sub goes "
        "is settled before the next turn)",
    )
    return None if found is None else SubWithdrawal(line, *found)


def retreat(reader: Reader, line: int, text: str) -> Retreat | None:
    """A retreat location: "Battle #1 W Europe: retreat to UK SZ"."""
    found = _scoped_destination(
        reader,
        line,
        text,
        RETREAT_MARK.search(text),
        Rule.RETREATS,
        "retreat",
        "Battle #1: retreat to UK SZ",
    )
    return None if found is None else Retreat(line, *found)
