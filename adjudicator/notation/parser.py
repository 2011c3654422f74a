"""Read a whole turn email: decide what each line is, hand it to its reader, collect it all.

A line is read in this order: a battle header ("Attack #1 - ..."), a section header
("Purchases:"), a count ("UK 30/$32"), a title ("Germany 3 pre-combat"), a Total line, a
special order (order of loss, sub withdrawal, retreat), and otherwise by the section it is
in. Greetings, sign-offs, quoted replies and signatures are not orders.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from adjudicator.boards import Board, classic
from adjudicator.diagnostics import Rule, Severity
from adjudicator.names import NameResolutionError, Names, classic_names
from adjudicator.notation import combat, economy, postcombat, special
from adjudicator.notation.errors import exception_for
from adjudicator.notation.mailtext import Line, own_text
from adjudicator.notation.model import (
    CombatResult,
    Count,
    MapEntry,
    Move,
    Placement,
    Purchase,
    Retreat,
    SpecialOrderOfLoss,
    SubWithdrawal,
    TechResult,
    Turn,
    TurnKind,
)
from adjudicator.notation.reading import WORD, Reader, has_digit, tokenize
from adjudicator.notation.routes import read_route
from adjudicator.notation.sections import Section, header, is_closer, is_greeting, title
from adjudicator.powers import Power

_SECTION_RULES = {
    Section.TECH: Rule.TECH_ROLLS,
    Section.PURCHASES: Rule.PRECOMBAT,
    Section.COMBAT: Rule.PRECOMBAT,
    Section.RESULTS: Rule.POST_COMBAT,
    Section.NON_COMBAT: Rule.POST_COMBAT,
    Section.PLACEMENT: Rule.POST_COMBAT,
    Section.MAP: Rule.POST_COMBAT,
    Section.COUNT: Rule.POST_COMBAT,
    Section.SPECIAL: Rule.SPECIAL_ORDERS,
    Section.NONE: Rule.PROCEDURES,
}
_POST_SECTIONS = frozenset(
    {Section.RESULTS, Section.NON_COMBAT, Section.PLACEMENT, Section.MAP, Section.COUNT}
)
_PROSE_END = re.compile(r"[?!]\s*$|[.]\s*$")
_NO_CHANGE = re.compile(
    r"^\W*(?:none|nothing|no\s+(?:changes?|moves?|purchases?|placements?)|unchanged|"
    r"same(?:\s+as\s+(?:before|last(?:\s+turn)?))?|as\s+before|see\s+(?:attached|below|above)"
    r"|n/?a)\W*$",
    re.IGNORECASE,
)
"""A section said to be empty or unchanged ("Map update: unchanged", "NCM: none")."""
_SPECIAL_HINTS = ("ool", "loss", "withdraw", "retreat", "casualty")
"""Every special-order marker contains one of these: a cheap test before the patterns."""
_LIST_NUMBER = re.compile(r"^\s*(\d{1,3})[.)]\s+")


@dataclass
class _Turn:
    """The orders found so far (mutable while the email is read)."""

    tech: list[TechResult] = field(default_factory=list)
    purchases: list[Purchase] = field(default_factory=list)
    results: list[CombatResult] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    placements: list[Placement] = field(default_factory=list)
    map: list[MapEntry] = field(default_factory=list)
    counts: list[Count] = field(default_factory=list)
    losses: list[SpecialOrderOfLoss] = field(default_factory=list)
    withdrawals: list[SubWithdrawal] = field(default_factory=list)
    retreats: list[Retreat] = field(default_factory=list)
    power: Power | None = None
    round: int | None = None


def _is_prose(text: str) -> bool:
    """Chat rather than orders: no number, and a sentence or a long line."""
    words = len(text.split())
    return not has_digit(text) and (
        words > 10 or (words > 4 and _PROSE_END.search(text) is not None)
    )


_NAME_WORD = re.compile(r"^[^\W\d_][\w.'’-]*$")
_ORDER_WORDS = frozenset(
    {
        "to",
        "via",
        "from",
        "on",
        "land",
        "into",
        "wi",
        "mt",
        "ool",
        "none",
        "nothing",
        "retreat",
        "retreats",
        "withdraw",
        "withdraws",
        "empty",
    }
)


def _looks_like_a_name(reader: Reader, text: str) -> bool:
    """ "Bob", "Nigel A.", "Jürgen": a signature, not an order ("Retreat to Kar", "Sweden")."""
    words = text.split()
    if not 0 < len(words) <= 3 or not all(_NAME_WORD.match(w) for w in words):
        return False
    if len(words) > 1 and not all(w[0].isupper() for w in words):
        return False
    if any(w.lower().strip(".") in _ORDER_WORDS or reader.exact_term(w) is not None for w in words):
        return False
    return not reader.is_place(text) and header(text) is None


def _signature_lines(reader: Reader, lines: tuple[Line, ...]) -> set[int]:
    """The lines of a closing name block: the last paragraph, if it is one or two lines
    that look like a name ("Bob", "Tom Smith")."""
    last: list[Line] = []
    for line in reversed(lines):
        if not line.text.strip():
            if last:
                break
            continue
        last.append(line)
    if not last or len(last) > 2:
        return set()
    if not all(_looks_like_a_name(reader, line.text.strip()) for line in last):
        return set()
    return {line.number for line in last}


def _mentions_units(reader: Reader, text: str) -> bool:
    """True if a line names a unit or a battle number: likely an order, not chat."""
    if re.search(r"#\s*\d", text):
        return True
    for tok in tokenize(text):
        if tok.kind == WORD and len(tok.text) > 1:
            term = reader.exact_term(tok.text)
            if term is not None and term.unit is not None:
                return True
    return False


class TurnParser:
    """Reads one email; see :func:`parse`."""

    def __init__(self, names: Names, board: Board) -> None:
        self.reader = Reader(names)
        self.board = board
        self.combat = combat.CombatReader(self.reader, self._is_sea)
        self.found = _Turn()
        self.section = Section.NONE
        self.flavour = ""

    def _is_sea(self, name: str) -> bool:
        return name in self.board.territories and self.board.territory(name).is_sea

    def read(self, text: str) -> Turn:
        body = own_text(text)
        self.reader.diagnostics.extend(body.notes)
        if body.subject is not None:
            self._title(body.subject.text, subject=True)
        skip = _signature_lines(self.reader, body.lines)
        signing_off = False
        for line in body.lines:
            stripped = line.text.strip()
            if not stripped or line.number in skip:
                continue
            if self.section is Section.NONE and is_greeting(stripped):
                continue
            if is_closer(stripped):
                signing_off = True
                continue
            if signing_off and not has_digit(stripped) and header(stripped) is None:
                continue
            self._line(line.number, line.text)
        return self._finish()

    def _title(self, text: str, *, subject: bool = False) -> bool:
        found = title(text, subject=subject)
        if found is None:
            return False
        if found.kind is TurnKind.SPECIAL_ORDERS:
            return True  # "special orders for your UK 2 attacks": the power named is not ours
        if found.power is not None and self.found.power is None:
            try:
                self.found.power = self.reader.names.power(found.power).value
            except NameResolutionError:
                pass
        if found.round is not None and self.found.round is None:
            self.found.round = found.round
        return True

    def _line(self, number: int, text: str) -> None:
        battle = combat.is_battle_header(text)
        if battle is not None:
            rest = battle.group("rest")
            if self.section is Section.RESULTS or (
                self.section is not Section.COMBAT and postcombat.RESULT_WORDS.search(rest)
            ):
                n = int(battle.group("n1") or battle.group("n2"))
                if not self._result(number, rest, n) and self.reader.errors_on(number) == 0:
                    self.reader.error(
                        number,
                        Rule.POST_COMBAT,
                        f"battle #{n}: the result says neither won nor lost",
                        'write the outcome: "#1 W Europe: won, 3 INF left"',
                    )
            elif not self._special(number, text, marked=self.section is not Section.SPECIAL):
                self.section = Section.COMBAT
                self.combat.header(number, battle)
            return
        head = header(text)
        if head is not None:
            self._title(text)
            self.section, self.flavour = head.section, head.flavour
            if head.rest.strip():
                self._line(number, head.rest)
            return
        if self._count(number, text):
            return
        words = len(text.split())
        if (self.section is Section.NONE or words <= 6) and self._title(text):
            return
        low = text.lower()
        if "total" in low and self.combat.total(
            number, text, in_combat=self.section is Section.COMBAT
        ):
            return
        if (
            self.section is not Section.RESULTS
            and any(w in low for w in _SPECIAL_HINTS)
            and self._special(number, text, marked=True)
        ):
            return
        self._in_section(number, text)

    def _count(self, number: int, text: str) -> bool:
        if "/" not in text and "," not in text and ";" not in text:
            return False
        errors = self.reader.errors_on(number)
        found = postcombat.count(self.reader, number, text)
        if found is None:
            return self.reader.errors_on(number) > errors  # a count, but unreadable
        self.found.counts.append(found)
        if found.power is not None and self.found.power is None:
            self.found.power = found.power
        return True

    def _special(self, number: int, text: str, *, marked: bool) -> bool:
        r, found = self.reader, self.found
        kind = (
            "loss"
            if special.LOSS_MARK.search(text)
            else "withdrawal"
            if special.WITHDRAW_MARK.search(text)
            else "retreat"
            if special.RETREAT_MARK.search(text)
            else ""
            if marked
            else self.flavour or "loss"
        )
        if kind == "loss":
            ool = special.order_of_loss(r, number, text)
            found.losses.extend([ool] if ool else [])
        elif kind == "withdrawal":
            sub = special.withdrawal(r, number, text)
            found.withdrawals.extend([sub] if sub else [])
        elif kind == "retreat":
            back = special.retreat(r, number, text)
            found.retreats.extend([back] if back else [])
        return bool(kind)

    def _result(self, number: int, text: str, battle: int | None) -> bool:
        got = postcombat.result(self.reader, number, text, tokenize(text), battle)
        if got is None:
            return False
        self.found.results.append(got)
        return True

    def _in_section(self, number: int, text: str) -> None:
        r, found, section = self.reader, self.found, self.section
        errors = r.errors_on(number)
        if _NO_CHANGE.match(text) and section not in (Section.TECH, Section.PURCHASES):
            return  # "Map update: unchanged"; but "Purchases: none" is a purchase of nothing
        if _is_prose(text):
            self._not_read(number, text)
            return
        toks = tokenize(text)
        read = True
        if section is Section.TECH:
            tech = economy.tech(r, number, toks, text)
            found.tech.extend([tech] if tech else [])
            read = tech is not None
        elif section is Section.PURCHASES:
            bought = economy.purchase(r, number, toks, text)
            found.purchases.extend([bought] if bought else [])
            read = bought is not None
        elif section is Section.COMBAT:
            route = read_route(r, number, text, toks, Rule.PRECOMBAT)
            if route is not None:
                self.combat.move(number, route)
            read = route is not None
        elif section is Section.RESULTS:
            listed = _LIST_NUMBER.match(text)
            read = (
                self._result(number, text[listed.end() :], int(listed.group(1)))
                if listed
                else self._result(number, text, None)
            )
        elif section is Section.NON_COMBAT:
            route = read_route(r, number, text, toks, Rule.POST_COMBAT)
            if route is not None:
                found.moves.extend(postcombat.moves(r, number, route))
            read = route is not None
        elif section is Section.PLACEMENT:
            found.placements.extend(postcombat.placements(r, number, text, toks))
        elif section is Section.MAP:
            found.map.extend(postcombat.map_entries(r, number, text, toks))
        elif section is Section.SPECIAL:
            read = self._special(number, text, marked=False)
        else:
            read = False
        if not read and r.errors_on(number) == errors:
            self._not_read(number, text)

    def _not_read(self, number: int, text: str) -> None:
        rule = _SECTION_RULES[self.section]
        r = self.reader
        if has_digit(text) and self.section is not Section.NONE and not _is_prose(text):
            r.error(
                number,
                rule,
                f"could not read {text.strip()!r}",
                "write the order in the rule book's notation, e.g. "
                '"Kar 2 FTR (land Karelia)", or remove the line',
            )
        elif _mentions_units(r, text):
            r.warning(
                number,
                rule,
                f"{text.strip()!r} mentions units but was not read as an order",
                "if it is an order, write it in the rule book's notation, e.g. "
                '"OOL for battle #2: INF, ARM, FTR"',
                "not-read",
            )
        elif has_digit(text) or self.section is not Section.NONE:
            r.info(
                number,
                rule,
                f"{text.strip()!r} was not read as an order",
                "nothing to do if it is not an order",
                "not-read",
            )

    def _finish(self) -> Turn:
        f = self.found
        battles = self.combat.finish()
        if f.power is None:
            f.power = next(
                (
                    b.total.attacking_power
                    for b in battles
                    if b.total is not None and b.total.attacking_power
                ),
                None,
            )
        pre = bool(battles or f.tech or f.purchases)
        post = bool(f.results or f.moves or f.placements or f.map or f.counts)
        special_orders = bool(f.losses or f.withdrawals or f.retreats)
        kind = (
            TurnKind.MIXED
            if pre and post
            else TurnKind.PRE_COMBAT
            if pre
            else TurnKind.POST_COMBAT
            if post
            else TurnKind.SPECIAL_ORDERS
            if special_orders
            else TurnKind.EMPTY
        )
        has_errors = any(d.severity is Severity.ERROR for d in self.reader.diagnostics)
        if kind is TurnKind.EMPTY and not has_errors:
            self.reader.warning(
                0,
                Rule.PROCEDURES,
                "no orders were found in the email",
                "send the turn in the rule book's notation, outside any quoted reply",
                "no-orders",
            )
        diagnostics = sorted(self.reader.diagnostics, key=lambda d: d.line)
        return Turn(
            kind,
            f.power,
            f.round,
            tuple(f.tech),
            tuple(f.purchases),
            battles,
            tuple(f.results),
            tuple(f.moves),
            tuple(f.placements),
            tuple(f.map),
            tuple(f.counts),
            tuple(f.losses),
            tuple(f.withdrawals),
            tuple(f.retreats),
            tuple(diagnostics),
        )


def parse(
    text: str, *, strict: bool = False, names: Names | None = None, board: Board | None = None
) -> Turn:
    """The orders of the turn email ``text`` with every diagnostic.

    Lenient by default, like python-chess's game reader: the turn comes back with whatever
    could be read and a diagnostic for everything else. With ``strict=True`` the first
    error (by line) is raised instead, as a :class:`~adjudicator.notation.errors.
    NotationError` subclass (a ``ValueError``); warnings never raise. ``names`` and
    ``board`` default to the Classic board's.
    """
    turn = TurnParser(names or classic_names(), board or classic()).read(text)
    if strict:
        for diagnostic in turn.diagnostics:
            if diagnostic.severity is Severity.ERROR:
                raise exception_for(diagnostic)
    return turn
