"""Read a whole turn email: decide what each line is, hand it to its reader, collect it all.

A line is read in this order: a battle header ("Attack #1 - ..."), a section header
("Purchases:"), a count ("UK 30/$32"), a title ("Germany 3 pre-combat"), a Total line, a
special order (order of loss, sub withdrawal, retreat), and otherwise by the section it is
in. Greetings, sign-offs, quoted replies and signatures are not orders.

Players write remarks between their orders ("Rolling Ukraine first.", "I'll take the bid").
A line that does not look like an order (no number, "$" or "#", no unit named, no notation
abbreviation: :mod:`adjudicator.notation.chat`) is read all the same, since "Sweden" in a map
update or "Retreat to Kar" are orders; if that reading fails on a word that is no name on the
board, the line was chat: what was read of it is undone and it is noted (``info``), never an
error, in lenient or strict mode. A line that looks like an order and cannot be read stays an
error (IAAPA Error Correction VI: "the correct word must be readily decipherable").
"""

from __future__ import annotations

import operator
import re

from adjudicator.boards import Board, classic
from adjudicator.diagnostics import Rule, Severity
from adjudicator.names import Names, classic_names
from adjudicator.notation import combat, economy, postcombat, results, special
from adjudicator.notation.chat import (
    NAME_FAILURES,
    is_prose,
    looks_like_an_order,
    mentions_units,
    signature_lines,
)
from adjudicator.notation.errors import exception_for
from adjudicator.notation.mailtext import own_text
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
from adjudicator.notation.reading import Reader
from adjudicator.notation.routes import read_route
from adjudicator.notation.sections import (
    Section,
    header,
    is_closer,
    is_greeting,
    names_a_kind,
    title,
)
from adjudicator.notation.tokens import Token, has_digit, tokenize
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
_NO_CHANGE = re.compile(
    r"^\W*(?:none|nothing|no\s+(?:changes?|moves?|purchases?|placements?)|unchanged|"
    r"same(?:\s+as\s+(?:before|last(?:\s+turn)?))?|as\s+before|see\s+(?:attached|below|above)"
    r"|n/?a)\W*$",
    re.IGNORECASE,
)
"""A section said to be empty or unchanged ("Map update: unchanged", "NCM: none")."""
_NO_CHANGE_LOW = re.compile(_NO_CHANGE.pattern)
""":data:`_NO_CHANGE` for lower-cased ASCII text (every letter of the pattern is lower case):
what ignoring case finds, faster."""


def _says_no_change(text: str) -> bool:
    """Whether ``text`` says its section is empty or unchanged (:data:`_NO_CHANGE`)."""
    if text.isascii():
        return _NO_CHANGE_LOW.match(text.lower()) is not None
    return _NO_CHANGE.match(text) is not None


def _special_hint(low: str) -> bool:
    """Whether a lower-cased line holds what every special-order marker contains: a cheap
    test before the patterns."""
    return (
        "ool" in low or "loss" in low or "withdraw" in low or "retreat" in low or "casualty" in low
    )


_LINE = operator.attrgetter("line")
"""A diagnostic's line: the order a turn lists its diagnostics in."""
_LIST_NUMBER = re.compile(r"^\s*(\d{1,3})[.)]\s+")
_COUNT_HINT = re.compile(r"\d\s*(?:terr\w*|t|ipcs?|\$)?\s*[/,;]\s*\$?\s?\d", re.IGNORECASE)
"""What every count holds ("30/$32", "13 territories, 41 IPCs"): a cheap test before the
count's own pattern."""
_COUNT_HINT_LOW = re.compile(_COUNT_HINT.pattern)
""":data:`_COUNT_HINT` for lower-cased ASCII text."""


class _Turn:
    """The orders found so far (mutable while the email is read)."""

    def __init__(self) -> None:
        self.tech: list[TechResult] = []
        self.purchases: list[Purchase] = []
        self.results: list[CombatResult] = []
        self.moves: list[Move] = []
        self.placements: list[Placement] = []
        self.map: list[MapEntry] = []
        self.counts: list[Count] = []
        self.losses: list[SpecialOrderOfLoss] = []
        self.withdrawals: list[SubWithdrawal] = []
        self.retreats: list[Retreat] = []
        self.power: Power | None = None
        self.round: int | None = None

    def sizes(self) -> tuple[int, ...]:
        """How many orders of each kind were found so far (a point to :meth:`truncate` to)."""
        return tuple(len(getattr(self, name)) for name in _ORDER_LISTS)

    def truncate(self, sizes: tuple[int, ...]) -> None:
        """Forget the orders found since :meth:`sizes` gave ``sizes``."""
        for name, size in zip(_ORDER_LISTS, sizes, strict=True):
            del getattr(self, name)[size:]


_ORDER_LISTS = (
    "tech",
    "purchases",
    "results",
    "moves",
    "placements",
    "map",
    "counts",
    "losses",
    "withdrawals",
    "retreats",
)


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
        skip = signature_lines(self.reader, body.lines)
        signing_off = False
        for number, written in body.lines:
            stripped = written.strip()
            if not stripped or number in skip:
                continue
            if self.section is Section.NONE and is_greeting(stripped):
                continue
            if is_closer(stripped):
                signing_off = True
                continue
            if signing_off and not has_digit(stripped) and header(stripped) is None:
                continue
            self._line(number, written)
        return self._finish()

    def _title(self, text: str, *, subject: bool = False, low: str | None = None) -> bool:
        found = title(text, subject=subject, low=low)
        if found is None:
            return False
        if found.kind is TurnKind.SPECIAL_ORDERS:
            return True  # "special orders for your UK 2 attacks": the power named is not ours
        if found.power is not None and self.found.power is None:
            self.found.power = self.reader.lookup.power(found.power)
        if found.round is not None and self.found.round is None:
            self.found.round = found.round
        return True

    def _line(self, number: int, text: str) -> None:
        low = text.lower()
        plain = text.isascii()  # then the lower-cased line matches as ignoring case does
        battle = (
            combat.BATTLE_HEADER.match(text)
            if not plain or combat.BATTLE_HEADER_LOW.match(low)
            else None
        )
        if battle is not None:
            rest = battle.group("rest")
            if self.section is Section.RESULTS or (
                self.section is not Section.COMBAT and results.says_result(rest)
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
        head = header(text, low)
        if head is not None:
            if (self.found.power is None or self.found.round is None) and has_digit(text):
                self._title(text, low=low)  # "G3 Combat moves:"; with no number, no round
            self.section, self.flavour = head.section, head.flavour
            if head.rest.strip():
                self._line(number, head.rest)
            return
        if self._count(number, text, low if plain else None):
            return
        if (
            names_a_kind(low)
            and (self.section is Section.NONE or len(text.split()) <= 6)
            and self._title(text, low=low)
        ):
            return
        if (
            "total" in low
            and looks_like_an_order(self.reader, text, self.section)
            and self.combat.total(number, text, in_combat=self.section is Section.COMBAT)
        ):
            return
        if self.section is not Section.RESULTS and _special_hint(low):
            mark = self._mark(number, text)
            if self._special(number, text, marked=True):
                if mark is not None and self._undo_chat(mark, None):
                    self._not_read(number, text)
                return
        self._in_section(number, text)

    def _mark(
        self, number: int, text: str, toks: list[Token] | None = None
    ) -> tuple[int, tuple[int, ...]] | None:
        """Where to undo a line's reading to if it turns out to be chat; None for a line
        that looks like an order (its errors stand)."""
        if looks_like_an_order(self.reader, text, self.section, toks):
            return None
        return self.reader.mark(), self.found.sizes()

    def _undo_chat(self, mark: tuple[int, tuple[int, ...]], codes: frozenset[str] | None) -> bool:
        """Undo the reading of a line that does not look like an order if it failed (on a
        word that is no name, when ``codes`` is ``NAME_FAILURES``): chat, not an order that
        cannot be read. True if undone."""
        diagnostics, sizes = mark
        failed = any(
            d.severity is Severity.ERROR and (codes is None or d.code in codes)
            for d in self.reader.diagnostics[diagnostics:]
        )
        if failed:
            self.reader.rewind(diagnostics)
            self.found.truncate(sizes)
        return failed

    def _count(self, number: int, text: str, low: str | None) -> bool:
        """A count line ("UK 30/$32"); ``low``: the line lower-cased if it is ASCII."""
        if "/" not in text and "," not in text and ";" not in text:
            return False
        if (_COUNT_HINT_LOW.search(low) if low is not None else _COUNT_HINT.search(text)) is None:
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
        kind = special.marked_kind(text) or ("" if marked else self.flavour or "loss")
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
        got = results.result(self.reader, number, text, tokenize(text), battle)
        if got is None:
            return False
        self.found.results.append(got)
        return True

    def _in_section(self, number: int, text: str) -> None:
        r, found, section = self.reader, self.found, self.section
        errors = r.errors_on(number)
        if section not in (Section.TECH, Section.PURCHASES) and _says_no_change(text):
            return  # "Map update: unchanged"; but "Purchases: none" is a purchase of nothing
        if is_prose(text):
            self._not_read(number, text)
            return
        toks = tokenize(text)
        mark = self._mark(number, text, toks)
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
            route = read_route(r, number, text, toks, Rule.PRECOMBAT, attack=True)
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
        codes = None if section is Section.SPECIAL else NAME_FAILURES
        if mark is not None and self._undo_chat(mark, codes):
            self._not_read(number, text, toks)
        elif not read and r.errors_on(number) == errors:
            self._not_read(number, text, toks)

    def _not_read(self, number: int, text: str, toks: list[Token] | None = None) -> None:
        rule = _SECTION_RULES[self.section]
        r = self.reader
        if has_digit(text) and self.section is not Section.NONE and not is_prose(text):
            r.error(
                number,
                rule,
                f"could not read {text.strip()!r}",
                "write the order in the rule book's notation, e.g. "
                '"Kar 2 FTR (land Karelia)", or remove the line',
            )
        elif mentions_units(r, text, toks):
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
        diagnostics = sorted(self.reader.diagnostics, key=_LINE)
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
