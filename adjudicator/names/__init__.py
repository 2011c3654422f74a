"""Names as players write them, resolved to the board's and the rule book's names.

``classic_names().place("Moscoq")`` resolves to "Russia", marked corrected (a typo the caller
should warn about); ``classic_names().unit_count("10 ing")`` is ten infantry; "E.US" is East
US as written, never West US (IAAPA Error Correction VI). A place name is read as an
abbreviation before it is corrected: "Caro SZ" is Caroline Islands Sea Zone, "Car SZ" is
ambiguous (Caroline Islands or Carribean), never Karelia's "Kar SZ" one letter away.

Powers and technologies are written one way in everything the league records (a ledger
entry, a position, a turn report): :func:`power_label` ("USSR", "Germany", "UK", "Japan",
"USA") and :func:`technology_label` ("Jet Power", ..., "Heavy Bombers"). Every other
spelling a player or an older record uses ("Russia", "Russians", "HBMB") is read through
:func:`power_names` and :func:`technology_names`.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from adjudicator.boards.model import Board
from adjudicator.boards.shipped import big_world, classic
from adjudicator.names.abbreviating import Shortenings
from adjudicator.names.abbreviations import IAAPA_ABBREVIATIONS, Notation, Term, unit_names
from adjudicator.names.classic_aliases import CLASSIC_ALIASES
from adjudicator.names.places import place_names
from adjudicator.names.resolver import (
    AmbiguousName,
    Match,
    NameResolutionError,
    NameTable,
    Resolution,
    T,
    UnknownName,
    normalise,
)
from adjudicator.powers import Power
from adjudicator.units import Technology

POWER_ALIASES: dict[Power, tuple[str, ...]] = {
    Power.USSR: ("USSR", "Russia", "Russians", "Soviet Union", "Soviets", "Sov", "R", "Rus"),
    Power.GERMANY: ("Germany", "Germans", "German", "G", "Ger"),
    Power.UK: (
        "UK",
        "U.K.",
        "United Kingdom",
        "Britain",
        "British",
        "Great Britain",
        "England",
    ),
    Power.JAPAN: ("Japan", "Japanese", "J", "Jap", "Jpn"),
    Power.USA: ("USA", "US", "U.S.", "America", "Americans", "American", "United States"),
}
"""How players name the five powers ("UK 30/$32", "Total UK v. Germany"); the first name of
each is the league's own (:func:`power_label`)."""

TECHNOLOGY_ALIASES: dict[Technology, tuple[str, ...]] = {
    Technology.JET_POWER: ("Jet Power", "Jets", "Jet Fighters", "JFTR"),
    Technology.ROCKETS: ("Rockets", "Rocket", "RKT"),
    Technology.SUPER_SUBS: ("Super Subs", "Super Sub", "SS"),
    Technology.LONG_RANGE_AIRCRAFT: ("Long Range Aircraft", "Long Range", "LRA", "LR"),
    Technology.INDUSTRIAL_TECHNOLOGY: (
        "Industrial Technology",
        "Industrial Tech",
        "Industrial",
        "Ind Tech",
        "IT",
    ),
    Technology.HEAVY_BOMBERS: ("Heavy Bombers", "Heavy Bomber", "HBMB"),
}
"""How players name the six weapons developments; the first name of each is the tech
chart's (:func:`technology_label`). Only technologies are meant here, so "SS" is Super Subs,
not the submarine the IAAPA Abbreviations also let it stand for."""

_COUNT = re.compile(r"\s*(\S+)\s+(.+?)\s*$")


def power_label(power: Power) -> str:
    """The league's name of ``power``, as a ledger entry, a position and a turn report
    write it: "USSR", "Germany", "UK", "Japan", "USA"."""
    return POWER_ALIASES[power][0]


def technology_label(technology: Technology) -> str:
    """The tech chart's name of ``technology``: "Jet Power", ..., "Heavy Bombers"."""
    return TECHNOLOGY_ALIASES[technology][0]


@functools.cache
def power_names() -> NameTable[Power]:
    """A resolver for the five powers (every alias, the TripleA player names too)."""
    entries = [(alias, p) for p, aliases in POWER_ALIASES.items() for alias in aliases]
    entries += [(p.triplea_name, p) for p in Power]
    return NameTable("power", entries, lambda p: p.name)


@functools.cache
def technology_names() -> NameTable[Technology]:
    """A resolver for the six technologies (the enum's names too: "HEAVY_BOMBERS")."""
    entries = [(alias, t) for t, aliases in TECHNOLOGY_ALIASES.items() for alias in aliases]
    entries += [(t.name, t) for t in Technology]
    return NameTable("technology", entries, technology_label, plurals=True)


def exactly(table: NameTable[T], written: str) -> T:
    """What ``written`` names in ``table``, taken only as written: a request to the dice
    server is refused rather than corrected or expanded (UnknownName, AmbiguousName
    otherwise)."""
    found = table.resolve(written)
    if not found.exact:
        raise UnknownName(written, table.kind, f"did you mean {found.label}?")
    return found.value


@dataclass(frozen=True)
class Names:
    """The three name tables of a board: units/abbreviations, places, powers."""

    units: NameTable[Term]
    places: NameTable[str]
    powers: NameTable[Power]

    def unit(self, written: str) -> Resolution[Term]:
        """The unit, technology or notation word ``written`` stands for."""
        return self.units.resolve(written)

    def place(self, written: str) -> Resolution[str]:
        """The territory or sea zone ``written`` names (the board's canonical name)."""
        return self.places.resolve(written)

    def power(self, written: str) -> Resolution[Power]:
        """The power ``written`` names."""
        return self.powers.resolve(written)

    def unit_count(self, written: str) -> tuple[int, Resolution[Term]]:
        """A count and a unit word, as in "10 ing": the number is never corrected.

        IAAPA Error Correction VI: "A number can never be a typographical error."
        """
        m = _COUNT.match(written)
        if m is None:
            raise UnknownName(written, "count and unit", 'write a number then a unit: "10 INF"')
        number, word = m.groups()
        if not number.isdecimal():
            raise UnknownName(
                written,
                "count and unit",
                f"{number!r} is not a number, and a number is never a typographical error "
                "(IAAPA Error Correction VI)",
            )
        return int(number), self.unit(word)


def names_for(board: Board, aliases: dict[str, tuple[str, ...]] | None = None) -> Names:
    """Name tables for any board (only generated aliases unless ``aliases`` are given)."""
    return Names(unit_names(), place_names(board, aliases), power_names())


@functools.cache
def classic_names() -> Names:
    """Name tables for the Classic board with the league's hand-written aliases."""
    return names_for(classic(), dict(CLASSIC_ALIASES))


@functools.cache
def big_world_names() -> Names:
    """Name tables for TripleA's Big World 1942 board (generated aliases only)."""
    return names_for(big_world())


__all__ = [
    "IAAPA_ABBREVIATIONS",
    "POWER_ALIASES",
    "TECHNOLOGY_ALIASES",
    "AmbiguousName",
    "Match",
    "NameResolutionError",
    "NameTable",
    "Names",
    "Notation",
    "Resolution",
    "Shortenings",
    "Term",
    "UnknownName",
    "big_world_names",
    "classic_names",
    "exactly",
    "names_for",
    "normalise",
    "power_label",
    "power_names",
    "technology_label",
    "technology_names",
]
