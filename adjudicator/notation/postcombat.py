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
from adjudicator.notation.errors import COUNT_RULE_TEXT
from adjudicator.notation.listing import items, span_text
from adjudicator.notation.model import Count, MapEntry, Move, Placement
from adjudicator.notation.reading import Reader
from adjudicator.notation.routes import Route
from adjudicator.notation.tokens import Tokens
from adjudicator.powers import Power
from adjudicator.units import Units

_COUNT = re.compile(
    r"""^\s*(?:(?:final\s+)?(?:territory\s+(?:and|&)\s+ipc\s+|ipc\s+)?count\s*[:\-]?\s*)?
    (?P<power>[A-Za-z][A-Za-z. ]{0,20}?)?\s*[:\-]?\s*
    (?P<a>\$\s?\d{1,9}|\d{1,9})\s*(?P<au>terr\w*|t|ipcs?|\$)?\s*[/,;]\s*
    (?P<b>\$\s?\d{1,9}|\d{1,9})\s*(?P<bu>terr\w*|t|ipcs?|\$)?\s*[.!]?\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
"""'UK 30/$32', 'Count: 30 terr / 32 IPC', 'UK 30/32' (no units: a warning)."""


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
    """Map-update lines: "Ger: 10 INF, AA, IC", "Finland Norway (MT)", "Sweden"."""
    return [
        MapEntry(line, place, units)
        for place, units in _places(reader, line, text, toks, need_units=False)
    ]
