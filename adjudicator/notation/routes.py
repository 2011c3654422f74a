"""Movement lines: where units start, what carries them, where they go and land.

The rule book's combat example shows the grammar players use for both combat and
non-combat moves::

    UK 8 INF on UK SZ 4 TRN                   origin, units, "on" transport zone + transports
    E Can 1 ARM on E Can SZ 1 TRN to UK SZ    ... "to" the zone the transports sail to
    Kar 2 FTR (land Karelia)                  ... where the planes will land

Players also write "2 FTR from Kar", "Ukr 2 ARM via E Eur", "Kar 2 FTR -> Russia" and
"Kar 1 INF WI Finland". A line is split at these keywords into segments, each read as
places and unit lists (:func:`adjudicator.notation.reading.items`).
"""

from __future__ import annotations

import operator
import re
from itertools import compress
from typing import NamedTuple

from adjudicator.diagnostics import Rule
from adjudicator.notation.listing import items, span_text
from adjudicator.notation.reading import Reader
from adjudicator.notation.tokens import Token, Tokens
from adjudicator.units import NO_UNITS, Units, UnitType

_ROLES = {
    "on": "on",
    "onto": "on",
    "aboard": "on",
    "by": "on",  # "2 INF by transport from UK SZ"
    "to": "to",
    "into": "to",
    "unload": "to",
    "unloads": "to",
    "unloading": "to",
    "via": "via",
    "through": "via",
    "thru": "via",
    "from": "from",
    "land": "land",
    "lands": "land",
    "landing": "land",
    "back": "land",
    "return": "land",
    "returns": "land",
    "returning": "land",
}
_REMARKS = frozenset(
    {"support", "supporting", "bombard", "bombards", "bombarding", "bombardment", "shore"}
)
"""Words saying what a battleship's line is for ("UK SZ 1 BB (support shot)", "1 BB shore
bombardment"): the rest of the segment is a remark, not places or units."""
_REMARK = "remark"
_BRACKETS = frozenset({"(", ")", "[", "]"})
_AFTER_WALK = frozenset({"-", "in", "into", "to"})
"""Words after a walk-in that belong to it ("WI to Finland", "walks into Egypt")."""
_WALK = frozenset({"walk", "walks", "walking", "walked"})
_AFTER_LAND = frozenset({"to", "in", "into", "at", "on"})
"""Words after a landing's keyword that belong to it ("back to Russia", "lands in Kar")."""
_SKIP = frozenset(
    {
        "will",
        "shall",
        "should",
        "must",
        "would",
        "move",
        "moves",
        "moving",
        "moved",
        "load",
        "loads",
        "loaded",
        "then",
        "and",
        "sail",
        "sails",
        "fly",
        "flies",
    }
)


class Segment(NamedTuple):
    """Tokens ``start``..``end`` of a line, introduced by a keyword ``role`` ("" for none)."""

    role: str
    start: int
    end: int


ROLE_WORDS = frozenset({*_ROLES, *_REMARKS, *_WALK, "wi"})
"""The words that give a part of a line a part in a move ("land", "via", "wi")."""
_LOW = operator.attrgetter("low")
_WALK_IN = "walk-in"
_SKIPPED = "skip"
_MARKS: dict[str, str] = {
    **_ROLES,
    **dict.fromkeys(("->", "=>", "→", ">"), "to"),
    **dict.fromkeys(_BRACKETS, ""),
    **dict.fromkeys(("wi", *_WALK), _WALK_IN),
    **dict.fromkeys(_SKIP, _SKIPPED),
    **dict.fromkeys(_REMARKS, _REMARK),
}
"""What a token (by its keyword form) does to a movement line: starts a segment with a role
(an arrow is "to", a bracket ends the role), declares a walk-in, or is a verb skipped at the
start of a segment ("move", "load"). Arrows are the only tokens written "->", "=>", "→", ">"
and brackets the only ones written "(", ")", "[", "]"; role words are words."""


def segments(toks: list[Token]) -> tuple[list[Segment], bool]:
    """The keyword segments of a movement line, and whether it declares a walk-in (WI)."""
    found: list[Segment] = []
    role, start, walk_in = "", 0, False
    n = len(toks)
    marks, make = _MARKS, tuple.__new__
    resume = 0
    for i in compress(range(n), map(marks.__contains__, map(_LOW, toks))):
        if i < resume:
            continue  # "to" after a walk-in belongs to it
        mark = marks[toks[i].low]
        if mark == _SKIPPED:
            if i == start:
                start = i + 1
            elif i + 1 == n or toks[i + 1].low in marks:  # "2 TRN move to ...": the units end
                found.append(make(Segment, (role, start, i)))
                start = resume = i + 1
            continue
        skip = 1
        if mark == _WALK_IN:
            mark, walk_in = "to", True
            while i + skip < n and toks[i + skip].low in _AFTER_WALK:
                skip += 1
        elif mark == "land":  # "fly back to Russia", "lands in Karelia"
            while i + skip < n and toks[i + skip].low in _AFTER_LAND:
                skip += 1
        if i > start:
            found.append(make(Segment, (role, start, i)))
        role, start = mark, i + skip
        resume = start
    if n > start:
        found.append(make(Segment, (role, start, n)))
    return found, walk_in


class Start(NamedTuple):
    """Where units of a movement line start: ``place`` (None when the line names none: "2
    INF"), or, for an attack whose origin is written so that it fits several places ("Car
    SZ 1 AC"), None and ``could_be`` those places, for the check against the board."""

    place: str | None
    units: Units
    could_be: tuple[str, ...] = ()


class Route(NamedTuple):
    """One movement line read: origins with their units, then where they go.

    ``origins`` gives each origin with its units. ``path`` lists the spaces after the origin
    in the order written: the transports' zone ("on"), then the "to"/"via" places;
    ``destination`` is the last "to" place. ``named_origin`` says whether any origin was
    written at all.
    """

    origins: tuple[Start, ...]
    transports: Units
    path: tuple[str, ...]
    destination: str | None
    lands: str | None
    walk_in: bool
    named_origin: bool


_MOVE_FORM = "write moves as: <from> <units> [on <sea zone> <TRN>] [to <place>]"
_LISTED = re.compile(r"\s*\d{1,2}\s*[.)]\s+[^\W\d_]")
"""A line numbered as a list is ("1. Karelia with 3 inf ..."): a battle, written in prose."""
_BATTLE_FORM = (
    'write each battle as "Attack #1 - Karelia (its defenders)", then each origin of its '
    'attackers on a line of its own: "E Eur 3 INF, 2 ARM", "Ger 1 FTR (land Ger)"'
)


def _bracketed(toks: Tokens, seg: Segment) -> bool:
    """Whether a segment is the whole of a bracket: "(UK SZ)"."""
    return (
        seg.start > 0
        and toks[seg.start - 1].text in ("(", "[")
        and (seg.end >= len(toks) or toks[seg.end].text in (")", "]"))
    )


def _named_again(toks: Tokens, start: int, units: Units, origins: list[Start]) -> bool:
    """Whether units written at the start of a bracket are some of those the line has
    listed already ("1 FTR (ftr lands in Caucasus)"): the bracket says what they do."""
    if not units.counts or start == 0 or toks[start - 1].text not in ("(", "["):
        return False
    listed = NO_UNITS
    for origin in origins:
        listed = listed + origin.units
    return listed.contains(units)


def read_route(
    reader: Reader,
    line: int,
    text: str,
    toks: Tokens,
    rule: Rule,
    *,
    attack: bool = False,
) -> Route | None:
    """The route of a movement line; None when it has no origin or units, or when part of it
    could not be read (its error is recorded: one error a line, never a half-read move).
    In an ``attack``, an origin with units whose name fits several places is kept, with
    those places (:meth:`Reader.origin`)."""
    segs, walk_in = segments(toks)
    origins: list[Start] = []
    from_place: str | None = None
    transports = NO_UNITS
    path: list[str] = []
    destination: str | None = None
    lands: str | None = None
    named = False
    errors = reader.errors_on(line)
    zoneless = False
    """Whether the last segment named transports ("on trn") without their sea zone."""
    for seg in segs:
        if seg.role == _REMARK:
            continue
        found, stop = items(reader, line, text, toks, seg.start, seg.end, rule)
        if stop < seg.end and reader.errors_on(line) == errors:
            reader.error(
                line,
                rule,
                f"could not read {span_text(text, toks, stop, seg.end)!r}",
                _BATTLE_FORM if attack and _LISTED.match(text) else _MOVE_FORM,
            )
        for item in found:
            place = None
            could_be: tuple[str, ...] = ()
            if item.place_text is not None:
                starts = seg.role in ("", "from")
                named = named or starts
                if attack and starts and item.units.counts:
                    place, could_be = reader.origin(line, item.place_text, rule)
                else:
                    place = reader.place(line, item.place_text, rule)
            if reader.errors_on(line) > errors:
                return None  # one error a line: the rest of it cannot be trusted
            if seg.role == "":
                if item.place_text is None and _named_again(toks, seg.start, item.units, origins):
                    continue  # "Russia 1 ARM, 1 FTR (ftr lands in Caucasus)": that fighter
                if zoneless and place is not None and not item.units and _bracketed(toks, seg):
                    path.append(place)  # "2 INF on trn (UK SZ)": the transports' sea zone
                    zoneless = False
                    continue
                if item.units.counts or item.place_text is not None:
                    origins.append(Start(place, item.units, could_be))
            elif seg.role == "from":
                if item.units:
                    origins.append(Start(place, item.units, could_be))
                elif zoneless and place is not None:
                    path.append(place)  # "by transport from UK SZ": the transports' zone
                    zoneless = False
                else:
                    from_place = place
            elif seg.role == "on" or (seg.role == "via" and _only_transports(item.units)):
                transports = transports + item.units  # "via C Med SZ 1 TRN": carried
                if place is not None:
                    path.append(place)
                zoneless = place is None and bool(item.units)
            elif (
                seg.role == "to"
                and place is not None
                and len(origins) == 1
                and not origins[0].units.counts
                and origins[0].place is not None
                and destination is None
            ):  # "Russia -> Karelia: 2 inf": the origin, where to, then the units
                origins = [Start(origins[0].place, item.units, origins[0].could_be)]
                path.append(place)
                destination = place
            elif item.units.counts:
                reader.error(
                    line,
                    rule,
                    f"could not read {item.units} after {seg.role!r} "
                    f"({span_text(text, toks, seg.start, seg.end)!r}): units go after their "
                    "origin, and transports after the sea zone they sail from",
                    _MOVE_FORM,
                )
                return None
            elif place is not None:
                if seg.role == "land":
                    lands = place
                else:
                    path.append(place)
                    if seg.role == "to":
                        destination = place
    if from_place is not None:
        origins = [
            o if o.place is not None or o.could_be else Start(from_place, o.units) for o in origins
        ]
        if not origins:
            origins = [Start(from_place, NO_UNITS)]
    if not origins:
        return None
    carrier = _carrier(origins, toks) if len(origins) > 1 and not transports else None
    if carrier is not None:  # "C Med SZ: 1 TRN with 1 INF from S Europe"
        transports = carrier.units
        if carrier.place is not None:
            path.insert(0, carrier.place)
        origins = [o for o in origins if o is not carrier]
    return Route(tuple(origins), transports, tuple(path), destination, lands, walk_in, named)


_CARRYING = frozenset({"with", "carrying", "carries", "w", "w/"})
"""Words a transport's cargo follows ("1 TRN with 2 INF", "1 TRN w/ 1 ARM")."""


def _only_transports(units: Units) -> bool:
    return bool(units.counts) and all(unit is UnitType.TRN for unit, _ in units.counts)


def _carrier(origins: list[Start], toks: Tokens) -> Start | None:
    """The origin that is a sea zone's transports carrying the line's other units ("1 TRN
    with 1 INF from S Europe"): transports alone, before "with", and other origins with
    units; None if the line is no such line."""
    if len(origins) < 2 or not _only_transports(origins[0].units):
        return None
    if not any(tok.low in _CARRYING for tok in toks):
        return None
    if not all(o.units.counts and not _only_transports(o.units) for o in origins[1:]):
        return None
    return origins[0]
