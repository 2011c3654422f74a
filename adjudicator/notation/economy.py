"""Weapons development results and purchases: the first lines of a pre-combat turn.

IAAPA Precombat: "The attacker will send a pre-combat turn indicating any successful weapons
development, the remainder of his purchases, and all combat moves." Error Correction IV
makes the number of tech dice declared in advance the number bought, so it is read when
written ("Tech: 2 dice (10 IPC), no breakthrough"); research costs 5 IPCs a die [W6].
"""

from __future__ import annotations

import re

from adjudicator.diagnostics import Rule
from adjudicator.names.resolver import Match, Resolution
from adjudicator.notation.model import Purchase, TechResult
from adjudicator.notation.reading import IPC_WORDS, Reader
from adjudicator.notation.tokens import MONEY, NUM, WORD, Token, Tokens, has_digit
from adjudicator.units import Technology, Units, UnitType

TECH_DIE_COST = 5
"""IPCs per research die [W6; SPEC p.10-11; TA techCost=5]."""

_NO_TECH = re.compile(
    r"^\W*(?:no(?:ne)?|nothing|n/?a|skip(?:ped)?|not|-)"
    r"(?:\s+(?:this\s+(?:turn|round|time)|for\s+now|today|yet))?\W*$|"
    r"\bno\s+(?:tech|research|rolls?|dice|breakthroughs?)\b",
    re.IGNORECASE,
)
_DICE_WORDS = frozenset({"dice", "die", "rolls", "roll", "tech", "research"})
_REMAINING = frozenset(
    {
        "left",
        "saved",
        "save",
        "saving",
        "remaining",
        "remain",
        "bank",
        "banked",
        "carry",
        "unspent",
        "over",
        "leftover",
    }
)
_NOTHING = re.compile(
    r"^\W*(?:no(?:ne)?|nothing|n/?a|-)\W*$|\bno\s+(?:purchases?|buys?|builds?)\b"
    r"|\bnothing\b|\bsav(?:e|ing)\s+(?:all|everything)\b",
    re.IGNORECASE,
)
_CLAUSE_ENDS = frozenset({",", ";", "(", ")", "[", "]"})
_SPENT = frozenset({"total", "spent", "spend", "spending", "cost", "costs", "costing"})
"""Words saying a bare number in a purchase is what it costs ("total 32")."""


def tech(reader: Reader, line: int, toks: Tokens, text: str) -> TechResult | None:
    """Tech results: "2 dice: Jet Power", "none", "3 dice (15 IPC), no breakthrough"."""
    if _NO_TECH.search(text) and not _technologies(reader, toks):
        dice = _dice(toks)
        return TechResult(line, dice if dice is not None else 0)
    found = _technologies(reader, toks)
    dice = _dice(toks)
    if dice is None and not found and [t.text for t in toks if t.text not in ".!"] == ["0"]:
        return TechResult(line, 0)  # "Tech: 0": no dice
    if dice is None and not found:
        if has_digit(text):
            reader.error(
                line,
                Rule.TECH_ROLLS,
                f"could not read the tech result {text.strip()!r}",
                'write the dice bought and any breakthrough: "Tech: 2 dice, '
                'Jet Power" or "Tech: none"',
            )
        return None
    return TechResult(line, dice, found)


def _technologies(reader: Reader, toks: list[Token]) -> tuple[Technology, ...]:
    found: list[Technology] = []
    i = 0
    while i < len(toks):
        for n in (3, 2, 1):
            words = toks[i : i + n]
            if len(words) < n or any(t.kind != WORD for t in words):
                continue
            if n == 1 and len(words[0].text) <= 2 and not words[0].text.isupper():
                continue
            term = reader.exact_term(" ".join(t.text for t in words))
            if term is not None and term.technology is not None:
                if term.technology not in found:
                    found.append(term.technology)
                i += n - 1
                break
        i += 1
    return tuple(found)


def _dice(toks: list[Token]) -> int | None:
    for i, tok in enumerate(toks):
        nxt = toks[i + 1].low if i + 1 < len(toks) else ""
        if tok.kind == NUM and nxt in _DICE_WORDS:
            return tok.value
    for i, tok in enumerate(toks):
        nxt = toks[i + 1].low if i + 1 < len(toks) else ""
        money = tok.kind == MONEY or (tok.kind == NUM and nxt in IPC_WORDS)
        if money and tok.value % TECH_DIE_COST == 0:
            return tok.value // TECH_DIE_COST
    return None


def purchase(reader: Reader, line: int, toks: Tokens, text: str) -> Purchase | None:
    """A purchase line: "3 INF, 1 ARM, 1 TRN ($22, 2 left)", "none"."""
    units = Units()
    spent: int | None = None
    remaining: int | None = None
    prices: list[int] = []
    """Amounts written beside the units, none of them said to be the total."""
    total = False
    """Whether an amount was written as the total ("= $40", "$32 total")."""
    i, n = 0, len(toks)
    errors = reader.errors_on(line)
    if _names_a_place(reader, toks):
        reader.error(
            line,
            Rule.PRECOMBAT,
            f"{text.strip()!r} names a place: a purchase names none",
            'head the lines that follow with the part of the turn they are ("Combat moves:", '
            '"Placement:"), or write the purchase as counts and units: "3 INF, 1 ARM, 1 TRN"',
        )
        return None
    while i < n:
        tok = toks[i]
        nxt = toks[i + 1].low if i + 1 < n else ""
        counted = _counted_after(reader, toks, i, n)
        if tok.kind == MONEY or (tok.kind == NUM and nxt in IPC_WORDS):
            clause = _clause(toks, i)
            if clause & _REMAINING:
                remaining = tok.value
            elif (i > 0 and toks[i - 1].text == "=") or clause & _SPENT:
                spent, total = tok.value, True  # "... = $40", "$32 total"
            elif not total:
                prices.append(tok.value)  # "2 TRN ($16), 1 AC ($18)": a price for each
                spent = sum(prices)
            i += 2 if tok.kind == NUM else 1
        elif counted is not None:  # "inf x 4", "INF x4", "inf*4", "inf (4)", "inf: 4"
            unit, count, i = counted
            units = units + Units.of({unit: count})
        elif reader.unit_start(toks, i, n):
            more, i, _ = reader.units(line, toks, i, n, Rule.ABBREVIATIONS)
            units = units + more
            if reader.errors_on(line) > errors:
                return None
        elif tok.kind == NUM:
            clause = _clause(toks, i)
            if clause & _REMAINING:
                remaining = tok.value
            elif (i > 0 and toks[i - 1].text == "=") or clause & _SPENT:
                spent, total = tok.value, True  # "5 inf, 1 arm = 32", "total 32": the cost
            i += 1
        else:
            i += 1
    if not units and not _NOTHING.search(text) and spent is None and remaining is None:
        if has_digit(text):
            reader.error(
                line,
                Rule.PRECOMBAT,
                f"could not read the purchase {text.strip()!r}",
                'write counts and units: "3 INF, 1 ARM, 1 TRN"',
            )
        return None
    return Purchase(line, units, spent, remaining)


_PURCHASE_WORDS = frozenset(
    {
        *_REMAINING,
        *IPC_WORDS,
        *("buy", "buys", "bought", "buying", "purchase", "purchases", "purchased", "build"),
        *("builds", "spend", "spent", "spending", "total", "cost", "costs", "costing", "for"),
        *("and", "plus", "x", "each", "new", "units", "unit", "then", "also", "of", "at"),
        *("a", "an", "the", "is", "are", "in", "hand", "this", "turn", "round", "only"),
    }
)
"""Words a purchase line holds besides units and money ("Buy 3 INF for $9, 2 left")."""
_SENTENCE_WORDS = 3
"""Stray words that make a line a sentence, not a purchase ("I have 2 fighters ready to go
next turn"): its units are not added to what was bought."""


def a_sentence(reader: Reader, line: int, toks: Tokens, text: str) -> bool:
    """Whether a line under the purchases is a sentence rather than a purchase ("I have 2
    fighters ready to go next turn", "Placing 3 inf in India"), said with a warning: its
    units are not what was bought."""
    stray = _stray_words(reader, toks)
    if len(stray) < _SENTENCE_WORDS:
        return False
    reader.warning(
        line,
        Rule.PRECOMBAT,
        f"{text.strip()!r} was not read as a purchase: it says more than units and their "
        f"cost ({', '.join(repr(w) for w in stray[:4])})",
        'if it is a purchase, write it as counts and units: "3 INF, 1 ARM ($14)"; a plan '
        'to place units goes under "Placement:"',
        "not-read",
    )
    return True


def _stray_words(reader: Reader, toks: Tokens) -> list[str]:
    """The words of a line that are no unit, power, number word of a purchase or place:
    what a sentence has and a purchase does not."""
    lookup = reader.lookup
    return [
        tok.text
        for tok in toks
        if tok.kind == WORD
        and tok.low not in _PURCHASE_WORDS
        and lookup.exact_unit(tok.text) is None
        and lookup.power(tok.text) is None
        and len(tok.text) > 1
    ]


_AT_A_PLACE = frozenset({"in", "at", "to", "into"})
"""Words before a place where units go ("3 inf in India"): a placement, not a purchase."""
_COUNT_MARKS = frozenset({"x", "*", ":", "-", "(", "="})


def _counted_after(
    reader: Reader, toks: Tokens, i: int, n: int
) -> tuple[UnitType, int, int] | None:
    """A unit written before its count ("inf x 4", "INF x4", "inf*4", "inf (4)", "inf: 4",
    "infantry - 4"): the unit, the count and the token after them; None for anything else."""
    if toks[i].kind != WORD:
        return None
    used, unit = reader.unit_word(toks, i, n)
    j = i + used
    if unit is None or j + 1 >= n or toks[j].low not in _COUNT_MARKS or toks[j + 1].kind != NUM:
        return None
    if j + 2 < n and toks[j + 2].low in IPC_WORDS:
        return None  # "inf - 3 IPC": a price
    end = j + 2
    if toks[j].text == "(":
        if end >= n or toks[end].text != ")":
            return None
        end += 1
    return unit, toks[j + 1].value, end


def _names_a_place(reader: Reader, toks: Tokens) -> bool:
    """Whether a line starts with a place and a colon ("E Eur: 3 INF"), as an origin line or
    a map entry does, or names a place after its units ("3 inf in India", "(placing the tank
    in Karelia)"); a power buying ("Germany: 3 INF") names the buyer, not a place."""
    if not toks:
        return False
    lookup = reader.lookup
    at = [k for k, tok in enumerate(toks) if tok.low in _AT_A_PLACE]
    for k in at:
        if (
            k + 1 < len(toks)
            and lookup.exact_places[toks[k + 1].text] is not None
            and lookup.power(toks[k + 1].text) is None
        ):
            return True
    first = 0 if toks[0].kind == NUM else next((k for k, t in enumerate(toks) if t.kind == NUM), 0)
    if 0 < first <= 4:  # "E US 4 inf, 1 ftr": a place, then its units
        written = toks.span(0, first).strip(" :-")
        exact = lookup.place(written)
        if (
            isinstance(exact, Resolution)
            and exact.match is Match.EXACT
            and lookup.power(written) is None
        ):
            return True
    if ":" not in toks.text:
        return False
    colon = next((k for k, tok in enumerate(toks[:6]) if tok.text == ":"), None)
    if not colon:
        return False
    written = toks.span(0, colon)
    return reader.lookup.power(written) is None and reader.lookup.knows_place(written)


def _clause(toks: list[Token], i: int) -> set[str]:
    """The words of the comma-separated clause around token ``i``."""
    start, end = i, i + 1
    while start > 0 and toks[start - 1].text not in _CLAUSE_ENDS:
        start -= 1
    while end < len(toks) and toks[end].text not in _CLAUSE_ENDS:
        end += 1
    return {t.low for t in toks[start:end]}
