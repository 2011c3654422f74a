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
from collections.abc import Callable

from adjudicator.boards import Board, classic
from adjudicator.diagnostics import Rule, Severity
from adjudicator.names import Names, classic_names
from adjudicator.notation import combat, economy, postcombat, results, special
from adjudicator.notation.chat import (
    NAME_FAILURES,
    is_prose,
    looks_like_an_order,
    may_refer,
    mentions_units,
    names_no_units,
    refers_only,
    remarks,
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
    Title,
    header,
    is_closer,
    is_greeting,
    names_a_kind,
    power_and_round,
    title,
)
from adjudicator.notation.summary import SummaryReader, may_be_summary
from adjudicator.notation.tokens import Token, Tokens, has_digit, tokenize
from adjudicator.powers import Power

_SALUTATION = re.compile(r"^[^\W\d_][^\W\d_'’-]*,$")
"""A name and a comma alone on a line, as a letter opens ("Hans,")."""
_REMARKED = frozenset({Section.COMBAT, Section.NON_COMBAT, Section.PLACEMENT, Section.PURCHASES})
"""Sections whose lines may carry a remark in brackets, read apart from the order."""
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
_COUNT_FORM = (
    'give the territory and IPC count with their units, as "USSR 24/$24" (Post Combat Orders: '
    '"use units to distinguish between territory count and IPC count, i.e. UK 30/$32")'
)
"""How a count the parser could not read is written."""
_UNKNOWN_HEADING = re.compile(r"^\W*([A-Za-z][A-Za-z '’&-]{1,30}?)\s*:\s*$")
"""A line of a few words and a colon alone ("Units:", "Notes:"): a heading of some part."""
_IPCS_ONLY = re.compile(
    r"^\W*(?:(?:ipcs?|income|ipc\s+count)\s*[:=\-]?\s*)?\$?\s?\d{1,5}\s*(?:ipcs?)?[\s.!]*$",
    re.IGNORECASE,
)
"""One number where the count is two ("IPC: 35", "IPCs = $35", "35" under "Income:")."""
_UNDER_A_HEADER = (
    'if it is an order, write it under the header of its part of the turn ("Purchases:", '
    '"Combat moves:", "Non-combat moves:", "Placement:") in the rule book\'s notation, '
    'e.g. "Kar 2 FTR (land Karelia)"'
)
"""What a line naming units before any header is told: orders are read under their header."""
_POST_SECTIONS = frozenset(
    {Section.RESULTS, Section.NON_COMBAT, Section.PLACEMENT, Section.MAP, Section.COUNT}
)
_NONE_IS_AN_ORDER = frozenset({Section.TECH, Section.PURCHASES})
"""Sections where "none" is read ("Purchases: none" buys nothing) rather than saying the
section is empty."""
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


def _says_no_change(text: str, low: str) -> bool:
    """Whether ``text`` (``low``: lower-cased) says its section is empty or unchanged
    (:data:`_NO_CHANGE`)."""
    if text.isascii():
        return _NO_CHANGE_LOW.match(low) is not None
    return _NO_CHANGE.match(text) is not None


def _special_hint(low: str) -> bool:
    """Whether a lower-cased line holds what every special-order marker contains: a cheap
    test before the patterns."""
    return (
        "ool" in low or "loss" in low or "withdraw" in low or "retreat" in low or "casualty" in low
    )


_LINE = operator.attrgetter("line")
_BOTH_HALVES = re.compile(r"\b(?:and|plus|whole|full)\b|[&+/]", re.IGNORECASE)
"""A title naming both halves of a turn ("USSR 3 combat and non-combat", "pre + post")."""
"""A diagnostic's line: the order a turn lists its diagnostics in."""
_LIST_NUMBER = re.compile(r"^\s*(\d{1,3})[.)]\s+")
_PLACE_ALONE = re.compile(
    rf"\s*([^()\[\]:]+?)\s*(?:[(\[][^()\[\]]*[)\]]|:|(?:[-–—:]\s*|\s)(?:{combat.DEFENCE_WORDS})"
    r"\b[^()\[\]]*)?\s*\Z",
    re.IGNORECASE,
)
"""A place written alone, or with a bracketed list or a colon after it ("Karelia (2 INF)"),
or with its defenders named as such ("Hawaii SZ - defenders: 1 BB, 1 FTR")."""
_STAYS = re.compile(
    r"(?:->|=>|→|>|\bto\b|:|-)?\s*\b(?:stays?(?:\s+put)?|remains?|holds?|no\s+move)\s*[.!]?\s*\Z",
    re.IGNORECASE,
)
"""A non-combat line ending in what says its units do not move ("Germany 1 BMB -> stays")."""
_STAY_ENDS = ("stay", "stays", "put", "remain", "remains", "hold", "holds", "move")
"""How every :data:`_STAYS` line ends: a cheap test before the pattern."""
_W_SLASH = re.compile(r"\b[Ww]/\s*")


def _with_written_out(text: str, toks: Tokens) -> tuple[str, Tokens]:
    """A movement line with "w/" read as "with" ("1 TRN w/ 2 INF")."""
    if _W_SLASH.search(text) is None:
        return text, toks
    text = _W_SLASH.sub("with ", text)
    return text, tokenize(text)


_TITLE_LENGTH = 40
"""The longest line read as a power and round alone ("== Japan, turn 4 ==")."""
_BEFORE_RESULTS = frozenset({Section.NONE, Section.TECH, Section.PURCHASES, Section.COMBAT})
"""The parts of a turn a battle may be declared in, or right after."""
_COUNT_HINT = re.compile(r"\d\s*(?:terr\w*|t|ipcs?|\$)?\s*[/,;]\s*\$?\s?\d", re.IGNORECASE)
"""What every count holds ("30/$32", "13 territories, 41 IPCs"): a cheap test before the
count's own pattern."""
_COUNT_HINT_LOW = re.compile(_COUNT_HINT.pattern)
""":data:`_COUNT_HINT` for lower-cased ASCII text."""


_SEA_ZONES: dict[int, tuple[Board, frozenset[str]]] = {}
"""Each board's sea zones by name, found once (keyed by identity, the board kept so that its
id cannot be reused)."""


def _sea_zones(board: Board) -> frozenset[str]:
    """The sea zones of ``board`` by name: what the combat reader asks of a move's
    destination (a set's own test, so that the reader holds no reference back to the
    parser and a parse leaves nothing for the garbage collector)."""
    kept = _SEA_ZONES.get(id(board))
    if kept is None or kept[0] is not board:
        kept = _SEA_ZONES[id(board)] = (board, frozenset(t.name for t in board.sea))
    return kept[1]


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
        """How many orders of each kind were found so far (a point to :meth:`truncate` to),
        in the order of :data:`_ORDER_LISTS`."""
        return (
            len(self.tech),
            len(self.purchases),
            len(self.results),
            len(self.moves),
            len(self.placements),
            len(self.map),
            len(self.counts),
            len(self.losses),
            len(self.withdrawals),
            len(self.retreats),
        )

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

    def __init__(self, names: Names, board: Board, section: Section = Section.NONE) -> None:
        self.reader = Reader(names)
        self.board = board
        self.combat = combat.CombatReader(self.reader, _sea_zones(board).__contains__)
        self.summaries: SummaryReader | None = None
        """TripleA's battle summaries, once a line may be one (:mod:`.summary`)."""
        self.found = _Turn()
        self.section = section
        self.flavour = ""
        self.titled: TurnKind | None = None
        """POST_COMBAT once a title names a post-combat email alone ("Germany 1 post-combat"):
        a "Combat:" header in it heads the results of combat."""

    def read(self, text: str) -> Turn:
        body = own_text(text)
        self.reader.diagnostics.extend(body.notes)
        if body.subject is not None:
            self._title(body.subject.text, subject=True)
        skip = signature_lines(self.reader, body.lines)
        signing_off = False
        before_any_header = self.section  # NONE, or SPECIAL for a note of special orders
        for number, written in body.lines:
            stripped = written.strip()
            if not stripped or number in skip:
                continue
            if self.section is before_any_header and (
                is_greeting(stripped)
                or (_SALUTATION.match(stripped) and not self.reader.is_place(stripped[:-1]))
            ):
                continue
            if is_closer(stripped):
                signing_off = True
                continue
            if (
                signing_off
                and not has_digit(stripped)
                and header(stripped) is None
                and not mentions_units(self.reader, stripped)
            ):
                continue  # the sign-off's name and remarks; an order after it is read
            self._line(number, written)
        return self._finish()

    def _title(self, text: str, *, subject: bool = False, low: str | None = None) -> bool:
        """Whether ``text`` is a title, the power and round it gives kept unless known."""
        found = title(text, subject=subject, low=low)
        if found is not None and found.kind is TurnKind.POST_COMBAT and self.titled is None:
            # a post-combat email's own title, not a whole turn's ("combat and non-combat")
            self.titled = None if _BOTH_HALVES.search(text) else TurnKind.POST_COMBAT
        return self._titled(found)

    def _titled(self, found: Title | None) -> bool:
        """Whether a line is the title ``found``, the power and round it gives kept unless
        already known."""
        if found is None:
            return False
        if found.kind is TurnKind.SPECIAL_ORDERS:
            if self.section is Section.NONE:
                self.section = Section.SPECIAL  # the lines under it are special orders
            return True  # "special orders for your UK 2 attacks": the power named is not ours
        if found.power is not None and self.found.power is None:
            self.found.power = self.reader.lookup.power(found.power)
        if found.round is not None and self.found.round is None:
            self.found.round = found.round
        return True

    def _line(self, number: int, text: str) -> None:
        low = text.lower()
        plain = text.isascii()  # then the lower-cased line matches as ignoring case does
        if (
            "battle in " in low if self.summaries is None else may_be_summary(low)
        ) and self._summary(number, text, low):
            return
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
        if (
            self.section in _BEFORE_RESULTS
            and (listed := _LIST_NUMBER.match(text)) is not None
            and self._listed_battle(number, text, listed)
        ):
            return
        head = header(text, low)
        if head is not None:
            if (self.found.power is None or self.found.round is None) and has_digit(text):
                self._title(text, low=low)  # "G3 Combat moves:"; with no number, no round
            self.section, self.flavour = head.section, head.flavour
            if head.section is Section.COMBAT and self.titled is TurnKind.POST_COMBAT:
                self.section = Section.RESULTS  # "Combat:" in a post-combat email: how it went
            if head.rest.strip():
                self._line(number, head.rest)
            return
        if (
            self.section is not Section.NONE
            and text.rstrip().endswith(":")
            and (unknown := _UNKNOWN_HEADING.match(text)) is not None
            and self._unknown_heading(number, unknown.group(1))
        ):
            return
        if (
            self.section is Section.NONE
            and len(text) <= _TITLE_LENGTH
            and (bare := power_and_round(text)) is not None
            and self._titled(bare)
        ):
            return  # "Russia round 1" above the orders
        if self._count(number, text, low if plain else None):
            return
        if ("ipc" in low or self.section is Section.COUNT) and _IPCS_ONLY.match(text):
            self.reader.error(
                number,
                Rule.POST_COMBAT,
                f"{text.strip()!r} gives one number, but the count is two: the territories "
                "and the IPCs",
                _COUNT_FORM,
                "count-units",
            )
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
        if _special_hint(low) and self.section is not Section.RESULTS:
            if (
                special.marked_kind(text) == "loss"
                and not special.lists_a_unit_first(self.reader, text)
                and (
                    is_prose(text)
                    or not mentions_units(self.reader, text)
                    or names_no_units(self.reader, text)
                )
            ):
                # "Defender OOL is yours, Monty.", "Rolling #1 first. Please send your OOL"
                self._not_read(number, text)
                return
            mark = self._mark(number, text)
            if self._special(number, text, marked=True):
                if mark is not None and self._undo_chat(mark, None):
                    self._not_read(number, text)
                return
        self._in_section(number, text, low)

    def _unknown_heading(self, number: int, written: str) -> bool:
        """Whether ``written`` (the words of a line "Units:") heads a part of the turn the
        parser does not know: no place, power or unit. The lines under it are then read as
        under no heading (each warned of if it names units), never as the part before it."""
        lookup = self.reader.lookup
        if (
            lookup.knows_place(written)
            or lookup.power(written) is not None
            or self.reader.exact_term(written) is not None
        ):
            return False
        self.reader.info(
            number,
            _SECTION_RULES[self.section],
            f"{written!r} heads no part of a turn the rules engine knows: the lines under "
            "it are not read as orders",
            _UNDER_A_HEADER,
            "unknown-heading",
        )
        self.section = Section.NONE
        return True

    def _summary(self, number: int, text: str, low: str) -> bool:
        """Whether a line belongs to a battle summary TripleA wrote (read if so)."""
        if self.summaries is None:
            if not low.lstrip().startswith("battle in "):
                return False
            self.summaries = SummaryReader(self.reader, self.found.results)
        return self.summaries.line(number, text, low)

    def _listed_battle(self, number: int, text: str, listed: re.Match[str]) -> bool:
        """A battle headed as a numbered list item (``listed``: its number), its place alone
        or with its defenders ("1. Karelia (2 INF, 1 ARM, AA)"): read as "#1 Karelia (...)",
        the combat moves begun. A list item naming units or anything else ("1. Karelia with
        3 INF") is not one."""
        rest = text[listed.end() :]
        named = _PLACE_ALONE.match(rest)
        if named is None or not self.reader.lookup.knows_place(named.group(1)):
            return False
        battle = combat.BATTLE_HEADER.match(f"#{listed.group(1)} {rest}")
        if battle is None:
            return False
        self.section = Section.COMBAT
        self.combat.header(number, battle)
        return True

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
        got = results.result(self.reader, number, text, tokenize(text), battle, self.found.power)
        if got is None:
            return False
        self.found.results.append(got)
        return True

    def _in_section(self, number: int, text: str, low: str) -> None:
        """A line read as the section it is in says (``low``: the line lower-cased)."""
        r, section = self.reader, self.section
        errors = r.errors_on(number)
        if section not in _NONE_IS_AN_ORDER and _says_no_change(text, low):
            return  # "Map update: unchanged"; but "Purchases: none" is a purchase of nothing
        if is_prose(text) and section is not Section.SPECIAL:
            self._not_read(number, text)  # special orders are often sentences: read them
            return
        toks = tokenize(text)
        if section in _REMARKED and ("(" in text or "[" in text):
            text, toks = self._without_remarks(number, text, toks)
        mark = self._mark(number, text, toks)
        undo = (r.mark(), self.found.sizes()) if mark is None and may_refer(text) else None
        read = _SECTION_READERS[section](self, number, text, toks)
        if mark is not None and self._undo_chat(mark, _CHAT_FAILURES[section]):
            self._not_read(number, text, toks)
        elif (
            undo is not None
            and r.errors_on(number) > errors
            and refers_only(r, text, toks)
            and self._undo_chat(undo, None)
        ):
            self._not_read(number, text, toks)  # "Will roll battle 1 first.": a remark
        elif not read and r.errors_on(number) == errors:
            self._not_read(number, text, toks)

    def _without_remarks(self, number: int, text: str, toks: Tokens) -> tuple[str, Tokens]:
        """The line without its bracketed remarks, each noted ("Norway 1 FTR to UK
        (already counted above, 4 spaces total)")."""
        amounts = self.section is Section.PURCHASES  # "(19 IPCs)": what the units cost
        text, toks, said = remarks(self.reader, text, toks, amounts=amounts)
        for remark in said:
            self.reader.remark(
                number,
                _SECTION_RULES[self.section],
                f"{remark!r} was read as a remark, not as part of the order",
            )
        return text, toks

    # --- the lines of each section (True: the line was read as an order) ----------------

    def _tech_line(self, number: int, text: str, toks: Tokens) -> bool:
        tech = economy.tech(self.reader, number, toks, text)
        if tech is None:
            return False
        self.found.tech.append(tech)
        return True

    def _purchase_line(self, number: int, text: str, toks: Tokens) -> bool:
        if economy.a_sentence(self.reader, number, toks, text):
            return True
        bought = economy.purchase(self.reader, number, toks, text)
        if bought is None:
            return False
        self.found.purchases.append(bought)
        return True

    def _combat_line(self, number: int, text: str, toks: Tokens) -> bool:
        if "/" in text:
            text, toks = _with_written_out(text, toks)
        route = read_route(self.reader, number, text, toks, Rule.PRECOMBAT, attack=True)
        if route is None:
            return False
        self.combat.move(number, route)
        return True

    def _result_line(self, number: int, text: str, toks: Tokens) -> bool:
        listed = _LIST_NUMBER.match(text)
        if listed is None:
            return self._result(number, text, None)
        return self._result(number, text[listed.end() :], int(listed.group(1)))

    def _non_combat_line(self, number: int, text: str, toks: Tokens) -> bool:
        if "/" in text:
            text, toks = _with_written_out(text, toks)
        ends = text.rstrip(" .!")[-7:].lower().endswith(_STAY_ENDS)
        stays = _STAYS.search(text) if ends else None
        if stays is not None and stays.start() > 0:
            self.reader.info(
                number,
                Rule.POST_COMBAT,
                f"{text.strip()!r} moves nothing: the units stay where they are",
                "nothing to do; a non-combat move names where units go",
                "stays",
            )
            return True
        route = read_route(self.reader, number, text, toks, Rule.POST_COMBAT)
        if route is None:
            return False
        self.found.moves.extend(postcombat.moves(self.reader, number, route))
        return True

    def _placement_line(self, number: int, text: str, toks: Tokens) -> bool:
        self.found.placements.extend(postcombat.placements(self.reader, number, text, toks))
        return True

    def _map_line(self, number: int, text: str, toks: Tokens) -> bool:
        self.found.map.extend(postcombat.map_entries(self.reader, number, text, toks))
        return True

    def _special_line(self, number: int, text: str, toks: Tokens) -> bool:
        return self._special(number, text, marked=False)

    def _unread_line(self, number: int, text: str, toks: Tokens) -> bool:
        return False

    def _not_read(self, number: int, text: str, toks: list[Token] | None = None) -> None:
        rule = _SECTION_RULES[self.section]
        r = self.reader
        remark = names_no_units(r, text)  # "Rolling battle 2 next", "Please send your OOL"
        if (
            has_digit(text)
            and self.section is not Section.NONE
            and not is_prose(text)
            and not remark
        ):
            r.error(
                number,
                rule,
                f"could not read {text.strip()!r}",
                _COUNT_FORM
                if self.section is Section.COUNT
                else "write the order in the rule book's notation, e.g. "
                '"Kar 2 FTR (land Karelia)", or remove the line',
            )
        elif not remark and mentions_units(r, text, toks):
            r.warning(
                number,
                rule,
                f"{text.strip()!r} mentions units but was not read as an order",
                _UNDER_A_HEADER
                if self.section is Section.NONE
                else "if it is an order, write it in the rule book's notation, e.g. "
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


_SECTION_READERS: dict[Section, Callable[[TurnParser, int, str, Tokens], bool]] = {
    Section.TECH: TurnParser._tech_line,
    Section.PURCHASES: TurnParser._purchase_line,
    Section.COMBAT: TurnParser._combat_line,
    Section.RESULTS: TurnParser._result_line,
    Section.NON_COMBAT: TurnParser._non_combat_line,
    Section.PLACEMENT: TurnParser._placement_line,
    Section.MAP: TurnParser._map_line,
    Section.SPECIAL: TurnParser._special_line,
    Section.COUNT: TurnParser._unread_line,
    Section.NONE: TurnParser._unread_line,
}
"""How a line is read in each section (a count is read wherever it stands; nothing else is
read before the first header)."""
_CHAT_FAILURES = {
    section: (None if section is Section.SPECIAL else NAME_FAILURES) for section in Section
}
"""The errors that make a line read in each section chat after all, when it does not look
like an order (:meth:`TurnParser._undo_chat`): any error in a special order, else a word
that is no name."""


def parse(
    text: str,
    *,
    strict: bool = False,
    names: Names | None = None,
    board: Board | None = None,
    special: bool = False,
) -> Turn:
    """The orders of the turn email ``text`` with every diagnostic.

    Lenient by default, like python-chess's game reader: the turn comes back with whatever
    could be read and a diagnostic for everything else. With ``strict=True`` the first
    error (by line) is raised instead, as a :class:`~adjudicator.notation.errors.
    NotationError` subclass (a ``ValueError``); warnings never raise. ``names`` and
    ``board`` default to the Classic board's. ``special``: the text is a note of special
    orders (its topic says so), read as under a "Special orders:" header from its first line.
    """
    section = Section.SPECIAL if special else Section.NONE
    turn = TurnParser(names or classic_names(), board or classic(), section).read(text)
    if strict:
        for diagnostic in turn.diagnostics:
            if diagnostic.severity is Severity.ERROR:
                raise exception_for(diagnostic)
    return turn
