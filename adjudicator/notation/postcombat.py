"""Post-combat orders: non-combat moves, placements, the map update, the count (the results
of combat are :mod:`adjudicator.notation.results`).

IAAPA Post Combat Orders: "The attacker will then send a final e-mail indicating the results
of combat, his non-combat moves, a map update (This is a list that contains all territories
that said country has units in and/or possesses), and give a territory and IPC count.
Please use units to distinguish between territory count and IPC count, i.e. UK 30/$32"
"""

from __future__ import annotations

import re

from adjudicator.diagnostics import Rule
from adjudicator.names import power_label
from adjudicator.names.resolver import NameResolutionError, Resolution
from adjudicator.notation.chat import is_remark
from adjudicator.notation.errors import COUNT_RULE_TEXT
from adjudicator.notation.listing import Item, items, span_text
from adjudicator.notation.lookup import Lookup
from adjudicator.notation.model import Count, MapEntry, Move, Placement
from adjudicator.notation.reading import Reader
from adjudicator.notation.routes import Route
from adjudicator.notation.tokens import WORD, Token, Tokens, brackets, tokenize, without
from adjudicator.powers import Power
from adjudicator.units import Units

_COUNT = re.compile(
    r"""^\s*(?:(?:final\s+)?(?:territory\s+(?:and|&)\s+ipc\s+|ipc\s+)?count\s*[:\-]?\s*)?
    (?P<power>[A-Za-z][A-Za-z. ]{0,20}?)?\s*[:\-]?\s*
    (?P<a>\$\s?\d{1,9}|\d{1,9})\s*(?P<au>terr\w*|t|ipcs?|\$)?\s*[/,;]\s*
    (?P<b>\$\s?\d{1,9}|\d{1,9})\s*(?P<bu>terr\w*|t|ipcs?|\$)?\s*[.!]?
    (?:\s*\([^()]*\))?\s*(?:[:;]-?[)(DPp])?\s*[.!]?\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
"""'UK 30/$32', 'Count: 30 terr / 32 IPC', 'UK 30/32' (no units: a warning); a remark in
brackets or a smiley after it is no part of it ('GER 12/$37 (up from 34)')."""


def count(reader: Reader, line: int, text: str) -> Count | None:
    """The territory/IPC count on ``text``, or None if it is not a count line."""
    m = _COUNT.match(text)
    if m is None:
        return None
    power: Power | None = None
    if m.group("power"):
        power = reader.lookup.power(m.group("power").strip(" ."))
        if power is None and "count" not in text.lower():
            return None
    numbers = [int(m.group(g).lstrip("$ ")) for g in ("a", "b")]
    kinds = [_count_kind(m.group(g), m.group(f"{g}u")) for g in ("a", "b")]
    if kinds[0] == kinds[1] and kinds[0] is not None:
        reader.error(
            line,
            Rule.POST_COMBAT,
            f"both numbers of the count {m.group(0).strip()!r} are marked as {kinds[0]}",
            f"{COUNT_RULE_TEXT}: territories first, then $IPCs",
            "count-units",
        )
        return None
    if kinds == [None, None]:
        reader.warning(
            line,
            Rule.POST_COMBAT,
            f"the count {text.strip()!r} does not say which number is the "
            "territories and which the IPCs; read as territories/IPCs",
            f'{COUNT_RULE_TEXT}: write "{numbers[0]}/${numbers[1]}"',
            "count-units",
        )
    ipc_first = "ipcs" in kinds[:1] or kinds[1] == "territories"
    territories, ipcs = (numbers[1], numbers[0]) if ipc_first else numbers
    return Count(line, territories, ipcs, power, kinds != [None, None])


def _count_kind(number: str, unit: str | None) -> str | None:
    if number.startswith("$") or (unit or "").lower().startswith(("ipc", "$")):
        return "ipcs"
    if unit:
        return "territories"
    return None


def moves(reader: Reader, line: int, route: Route) -> list[Move]:
    """The non-combat moves of a movement line (one per origin)."""
    destination = route.destination or route.lands
    if destination is None:
        reader.error(
            line,
            Rule.POST_COMBAT,
            "a non-combat move with no destination",
            'write where the units go: "Kar 2 FTR to Russia"',
            "no-destination",
        )
        return []
    path = tuple(p for p in route.path if p != destination)
    if any(start.place == destination for start in route.origins):
        reader.warning(
            line,
            Rule.POST_COMBAT,
            f"the units start where this move takes them ({destination}): it moves nothing",
            'check both places: two names on the line may be one place ("Japan SZ" and '
            '"Manchuria SZ" are both Japan Sea Zone)',
            "no-move",
        )
    unplaced = [start.units for start in route.origins if start.place is None and start.units]
    if unplaced:
        reader.warning(
            line,
            Rule.POST_COMBAT,
            f"the move of {', '.join(map(str, unplaced))} to {destination} names no origin: "
            "unless the turn's battles tell where they are (aircraft over the one battle that "
            "holds them), it cannot be weighed against the board, and the map update stands "
            "for them",
            f'write where the units are: "<place> {unplaced[0]} to {destination}"',
            "no-origin",
        )
    return [
        Move(line, start.place, start.units, destination, path, route.transports)
        for start in route.origins
        if start.units.counts and start.place != destination
    ]


def _places(
    reader: Reader, line: int, text: str, toks: Tokens, *, need_units: bool
) -> list[tuple[str, Units]]:
    errors = reader.errors_on(line)
    found, stop = items(reader, line, text, toks, 0, len(toks), Rule.POST_COMBAT)
    if stop < len(toks) and reader.errors_on(line) == errors:
        reader.error(
            line,
            Rule.POST_COMBAT,
            f"could not read {span_text(text, toks, stop, len(toks))!r}",
            "write a place and its units: Ger 10 INF, 2 ARM, AA",
        )
    places: list[tuple[str, Units]] = []
    for item in found:
        if item.place_text is None:
            reader.error(
                line,
                Rule.POST_COMBAT,
                f"the units {item.units} have no place",
                "write the territory or sea zone with its units: Ger 3 INF",
                "no-place",
            )
            continue
        place = reader.place(line, item.place_text, Rule.POST_COMBAT)
        if place is None:
            continue
        if need_units and not item.units:
            reader.error(
                line,
                Rule.POST_COMBAT,
                f"no units are placed in {place}",
                f"write the units placed: {item.place_text} 3 INF",
                "no-units",
            )
            continue
        places.append((place, item.units))
    return places


def placements(reader: Reader, line: int, text: str, toks: Tokens) -> list[Placement]:
    """Placement lines: "Ger 3 INF", "1 TRN Baltic SZ", "Ger 2 INF; S Eur 1 ARM"."""
    return [
        Placement(line, place, units)
        for place, units in _places(reader, line, text, toks, need_units=True)
    ]


def map_entries(reader: Reader, line: int, text: str, toks: Tokens) -> list[MapEntry]:
    """Map-update lines: "Ger: 10 INF, AA, IC", "Finland Norway (MT)", "Sweden", and
    another power's units beside the mover's in brackets, "Egypt 1 INF (2 US INF)"."""
    if text.endswith("0") and (zero := _NO_UNITS.match(text)) is not None:
        toks = tokenize(f"{zero.group(1)} MT")  # "W Europe: 0": held, with no units
    read = _MapLine(reader, line, toks)
    if "(" in toks.text or "[" in toks.text:
        read.brackets()
    read.powers_after()
    return [
        MapEntry(line, place, units, tuple(read.others.pop(place, ())))
        for place, units in _places(reader, line, read.toks.text, read.toks, need_units=False)
    ]


_NO_UNITS = re.compile(r"^(.*[^\W\d_].*?)\s*[:=\-]?\s*\b0\s*$")
"""A map update's place with "0" for its units ("W Europe: 0")."""
_PARTS = frozenset({",", ";", "+", "&", "and", "plus"})
"""What separates the powers' units inside one bracket: "(US 2 INF, Rus 1 ARM)"."""
_BEFORE_A_POWER = frozenset({":", ",", ";"})
"""What a power listing its units in a space follows: the place's colon, or a comma."""
_FROM = frozenset({"from", "moved", "came"})
_MOVED = _FROM | {"+", "plus", "to"}
"""Words of a bracket telling of a move ("(2 inf from Russia)", "(+ 1 arm from Syria)"):
never another power's units, though "Russia" names a power too ("+" joins the powers'
units of a bracket that names a power: "(US 2 INF + Rus 1 ARM)")."""


def _named_power(lookup: Lookup, written: str) -> Power | None:
    """The power one word names as written ("US", "Americans", "Ger"); never by the typo
    rule, nor one letter: "cap" or "A" in a bracket is no power."""
    if len(written) < 2 or not written.isalpha():
        return None
    try:
        found = lookup.names.powers.resolve(written)
    except NameResolutionError:
        return None
    return found.value if found.exact else None


class _MapLine:
    """One map-update line being read: its tokens, less what is read apart from the
    mover's units (other powers' units, remarks), and the other powers' units by place."""

    def __init__(self, reader: Reader, line: int, toks: Tokens) -> None:
        self.reader = reader
        self.line = line
        self.toks = toks
        self.others: dict[str, list[tuple[Power, Units]]] = {}
        self.powers = reader.lookup.table(_named_power)

    def brackets(self) -> None:
        """Take out the brackets that name a power (their units are the place's before
        them, in ``others``), that are remarks ("(captured)", noted), or that tell where
        units came from ("(2 inf from Russia)": a remark on units listed; "(+ 1 ARM from
        Syria)": an error, no count of the space). A bracket with units or a place of its
        own ("(MT)", "(2 INF)") stays."""
        reader, line, toks, powers = self.reader, self.line, self.toks, self.powers
        cuts: list[tuple[int, int]] = []
        for i, end, inside in brackets(toks):
            written = toks.span(i, end)
            named = any(powers[tok.text] for tok in inside)
            moved = any(tok.low in (_FROM if named else _MOVED) for tok in inside)
            if moved and self._among_listed(i, inside):
                reader.remark(
                    line,
                    Rule.POST_COMBAT,
                    f"{written!r} was read as a remark on units the line lists",
                )
            elif moved:
                reader.error(
                    line,
                    Rule.POST_COMBAT,
                    f"{written!r} adds units from elsewhere: a map update lists the units "
                    "each space holds now",
                    "write the space's units after the turn: Egypt 1 INF, 1 ARM",
                )
            elif not named and is_remark(reader, inside):
                reader.remark(
                    line,
                    Rule.POST_COMBAT,
                    f"{written!r} was read as a remark, not as units or a place",
                )
            elif not named:
                continue
            elif (place := self._place_before(i)) is None:
                reader.error(
                    line,
                    Rule.POST_COMBAT,
                    f"the units {written} have no place",
                    "write them after the place they are in: Egypt 1 INF (2 US INF)",
                    "no-place",
                )
            else:
                self.others.setdefault(place, []).extend(self._powers_units(inside))
            cuts.append((i, end))
        if cuts:
            self.toks = without(toks, cuts)

    def powers_after(self) -> None:
        """Take out what follows a place's units listed by power, into ``others``: "Egypt:
        UK 1 INF, 1 ARM; US 2 INF" (a power right after the place's colon) or "Egypt 1 INF,
        US 2 INF" (after a comma, a power that names no place). "UK" after a comma stays
        the territory: "Egypt 1 INF, UK 2 INF" lists two places."""
        toks, lookup = self.toks, self.reader.lookup
        for k in range(1, len(toks) - 1):
            before = toks[k - 1].text
            if before not in _BEFORE_A_POWER or self.powers[toks[k].text] is None:
                continue
            if toks[k + 1].kind == WORD and not lookup.word_units[toks[k + 1].text]:
                continue  # "UK SZ", "Syria: US held"
            if before != ":" and lookup.exact_places[toks[k].text] is not None:
                continue
            place = self._place_before(k - 1 if before == ":" else k)
            if place is None:
                continue
            self.others.setdefault(place, []).extend(self._powers_units(toks[k:]))
            self.toks = tokenize(toks.text[: toks.start(k - 1)])
            return

    def _listed_before(self, end: int) -> Item | None:
        """The last place and units the line lists before token ``end`` (read quietly: the
        line's own reading reports anything wrong with them)."""
        mark = self.reader.mark()
        found, _ = items(
            self.reader, self.line, self.toks.text, self.toks, 0, end, Rule.POST_COMBAT
        )
        self.reader.rewind(mark)
        return found[-1] if found else None

    def _place_before(self, end: int) -> str | None:
        """The place the units before token ``end`` are listed with, if it is a known one."""
        listed = self._listed_before(end)
        written = listed.place_text if listed is not None else None
        resolved = self.reader.lookup.place(written) if written is not None else None
        return resolved.value if isinstance(resolved, Resolution) else None

    def _among_listed(self, end: int, inside: list[Token]) -> bool:
        """Whether a bracket's units ("2 inf from Russia") are among those the line lists
        before it, and it adds none ("+"): a remark on where they came from."""
        if any(tok.low in ("+", "plus") for tok in inside):
            return False
        listed = self._listed_before(end)
        if listed is None:
            return False
        mark = self.reader.mark()
        bracket = tokenize(" ".join(tok.text for tok in inside))
        named, _stop, _ = self.reader.units(self.line, bracket, 0, len(bracket), Rule.POST_COMBAT)
        self.reader.rewind(mark)
        return bool(named.counts) and listed.units.contains(named)

    def _powers_units(self, inside: list[Token]) -> list[tuple[Power, Units]]:
        """Each power's units in one bracket or run: "2 US INF", "US: 2 INF, 1 ARM", "US 2
        INF + Rus 1 ARM" (units with no power named are the last named power's, or the
        first's)."""
        powers = self.powers
        parts: list[list[Token]] = [[]]
        for tok in inside:
            if tok.low in _PARTS:
                parts.append([])
            else:
                parts[-1].append(tok)
        named = [p for p in map(powers.__getitem__, (tok.text for tok in inside)) if p is not None]
        found: list[tuple[Power, Units]] = []
        power = named[0]  # the callers give a bracket or run that names a power
        for part in parts:
            power = next((p for p in map(powers.__getitem__, (t.text for t in part)) if p), power)
            words = [tok.text for tok in part if not powers[tok.text] and tok.text not in ":-"]
            if not words:
                continue
            toks = tokenize(" ".join(words))
            units, stop, _ = self.reader.units(self.line, toks, 0, len(toks), Rule.POST_COMBAT)
            if stop < len(toks):
                self.reader.error(
                    self.line,
                    Rule.POST_COMBAT,
                    f"could not read {toks.span(stop, len(toks))!r} as "
                    f"{power_label(power)}'s units",
                    "write another power's units with its name: (2 US INF)",
                )
            if units:
                found.append((power, units))
        return found
