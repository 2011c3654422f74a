"""Weapons development results and purchases: the first lines of a pre-combat turn.

IAAPA Precombat: "The attacker will send a pre-combat turn indicating any successful weapons
development, the remainder of his purchases, and all combat moves." Error Correction IV
makes the number of tech dice declared in advance the number bought, so it is read when
written ("Tech: 2 dice (10 IPC), no breakthrough"); research costs 5 IPCs a die [W6].
"""

from __future__ import annotations

import re

from adjudicator.diagnostics import Rule
from adjudicator.notation.model import Purchase, TechResult
from adjudicator.notation.reading import Reader
from adjudicator.notation.tokens import MONEY, NUM, WORD, Token, Tokens, has_digit
from adjudicator.units import Technology, Units

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
_IPC_WORDS = frozenset({"ipc", "ipcs"})
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
        money = tok.kind == MONEY or (tok.kind == NUM and nxt in _IPC_WORDS)
        if money and tok.value % TECH_DIE_COST == 0:
            return tok.value // TECH_DIE_COST
    return None


def purchase(reader: Reader, line: int, toks: Tokens, text: str) -> Purchase | None:
    """A purchase line: "3 INF, 1 ARM, 1 TRN ($22, 2 left)", "none"."""
    units = Units()
    spent: int | None = None
    remaining: int | None = None
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
        if tok.kind == MONEY or (tok.kind == NUM and nxt in _IPC_WORDS):
            if _clause(toks, i) & _REMAINING:
                remaining = tok.value
            else:
                spent = tok.value
            i += 2 if tok.kind == NUM else 1
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
                spent = tok.value  # "5 inf, 1 arm = 32", "total 32": the IPCs it costs
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


def _names_a_place(reader: Reader, toks: Tokens) -> bool:
    """Whether a line starts with a place and a colon ("E Eur: 3 INF"), as an origin line or
    a map entry does; a power buying ("Germany: 3 INF") names the buyer, not a place."""
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
