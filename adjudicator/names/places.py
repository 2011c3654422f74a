"""Territory and sea-zone names as players write them; canonical names are the board's.

Aliases come in tiers, and an alias taken by an earlier tier is not offered again later:

1. the board's own names ("Ukraine S.S.R.", "Carribean Sea Zone");
2. hand-written aliases (:mod:`adjudicator.names.classic_aliases` for Classic: "Kar",
   "Moscow", "West Indies");
3. land names with words shortened ("W Europe", "E Can", "Karelia" for "Karelia S.S.R.");
4. sea zones by their stem with "SZ" or "Sea" ("Baltic SZ", "C Med"), and by any alias
   of the land they are named after ("Kar SZ", "E.US SZ");
5. the one sea zone washing a land territory that has no zone named after it ("UK SZ").

Numbered zones of other maps ("SZ 37 Caribbean Sea") are also found by number ("SZ 37")
and by their name alone, which may be shared (Big World has four "North Atlantic" zones:
the name alone is then ambiguous and the number must be written).

An alias two spaces share within one tier is ambiguous and resolves to neither. Canal names
are refused: IAAPA GEOGRAPHY: 'No units can be located "in" the Canal.'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from itertools import product

from adjudicator.boards.model import Board
from adjudicator.names.abbreviating import Shortenings
from adjudicator.names.resolver import NameTable, normalise

WORD_VARIANTS: Mapping[str, tuple[str, ...]] = {
    "East": ("E", "Eastern"),
    "West": ("W", "Western"),
    "North": ("N", "Northern"),
    "South": ("S", "Southern"),
    "Central": ("C", "Cent", "Centre"),
    "Eastern": ("E", "East"),
    "Western": ("W", "West"),
    "Northern": ("N", "North"),
    "Southern": ("S", "South"),
    "Mediteranean": ("Med", "Mediterranean", "Medit"),
    "Canada": ("Can",),
    "Europe": ("Eur",),
    "Africa": ("Afr",),
    "Atlantic": ("Atl",),
    "Pacific": ("Pac",),
    "Islands": ("Island", "Is", "Isl"),
    "US": ("USA", "United States"),
    "S.S.R.": ("SSR", ""),
}
"""How players shorten the words of a name; "" means the word may be left out."""

_SEA_SUFFIX = "Sea Zone"
_SEA_SUFFIXES = ("Sea Zone", "SZ", "Sea", "S.Z.")
_COMPASS = {"east", "west", "north", "south", "central", "e", "w", "n", "s", "c"}
_COMPASS_WORDS = ("East", "West", "North", "South", "Central")

PLACE_SHORTENINGS = Shortenings(
    suffixes=_SEA_SUFFIXES,
    optional_starts=frozenset(
        normalise(w) for word in _COMPASS_WORDS for w in (word, *WORD_VARIANTS[word])
    ),
)
"""How place names are abbreviated: "SZ" is no part of a stem, and a compass word a name
starts with may be left out ("Can SZ" fits East and West Canada Sea Zone, so it is
ambiguous; "Spain SZ" fits West Spain Sea Zone only)."""


def word_variants(name: str) -> set[str]:
    """``name`` with each word optionally replaced by its usual shortenings."""
    choices = [(word, *WORD_VARIANTS.get(word, ())) for word in name.split(" ")]
    return {" ".join(w for w in combo if w) for combo in product(*choices)} - {""}


def _sea_stem(name: str) -> str | None:
    return name[: -len(_SEA_SUFFIX)].strip() if name.endswith(_SEA_SUFFIX) else None


class _Tiers:
    """Collects (alias, canonical) pairs, keeping an alias only in the first tier to claim it."""

    def __init__(self) -> None:
        self.entries: list[tuple[str, str]] = []
        self._claimed: dict[str, int] = {}
        self.tier = 0

    def next_tier(self) -> None:
        self.tier += 1

    def add(self, alias: str, canonical: str) -> None:
        key = normalise(alias)
        if not key or self._claimed.setdefault(key, self.tier) != self.tier:
            return
        self.entries.append((alias, canonical))

    def claimed(self, alias: str) -> bool:
        return normalise(alias) in self._claimed


def place_entries(
    board: Board,
    aliases: Mapping[str, Iterable[str]] | None = None,
) -> list[tuple[str, str]]:
    """Every (alias, canonical name) pair for ``board``'s spaces, tiered as described above."""
    aliases = aliases or {}
    for canonical in aliases:
        board.territory(canonical)
    tiers = _Tiers()
    for name in board.territories:
        tiers.add(name, name)
    tiers.next_tier()
    for canonical, written in aliases.items():
        for alias in written:
            tiers.add(alias, canonical)
    tiers.next_tier()
    land_aliases: dict[str, set[str]] = {}
    for t in board.land:
        land_aliases[t.name] = word_variants(t.name) | {t.name} | set(aliases.get(t.name, ()))
        for alias in sorted(word_variants(t.name)):
            tiers.add(alias, t.name)
    land_keys = {normalise(a): land for land, al in land_aliases.items() for a in al}
    tiers.next_tier()
    named_after: set[str] = set()
    for t in board.sea:
        numbered = re.fullmatch(r"(SZ\s*\d+)\s*(.*)", t.name)
        if numbered:
            tiers.add(numbered.group(1), t.name)
            if numbered.group(2):
                tiers.add(numbered.group(2), t.name)
        stem = _sea_stem(t.name)
        if stem is None:
            continue
        stems = word_variants(stem)
        land = land_keys.get(normalise(stem))
        if land is not None:
            named_after.add(land)
            stems |= land_aliases[land]
        for s, suffix in product(sorted(stems), _SEA_SUFFIXES):
            tiers.add(f"{s} {suffix}", t.name)
        for s in sorted(stems):
            key = normalise(s)
            if len(key) >= 4 and key not in _COMPASS and key not in land_keys:
                tiers.add(s, t.name)
    tiers.next_tier()
    for land, written in sorted(land_aliases.items()):
        zones = board.sea_zones_next_to(land)
        if land in named_after or len(zones) != 1:
            continue
        (zone,) = zones
        for alias, suffix in product(sorted(written), _SEA_SUFFIXES):
            tiers.add(f"{alias} {suffix}", zone)
    return tiers.entries


def canal_refusals(board: Board) -> dict[str, str]:
    """Canal name -> why it is no place for a unit (IAAPA GEOGRAPHY 4)."""
    refusals = {}
    for canal in board.canals:
        zones = " or ".join(sorted(canal.sea_zones))
        reason = (
            f"the {canal.name} is not a sea zone and no unit can be located in it "
            f"(IAAPA Rules Clarifications, GEOGRAPHY); name the sea zone: {zones}"
        )
        refusals[canal.name] = reason
        refusals[f"{canal.name} Zone"] = reason
    return refusals


def place_names(
    board: Board,
    aliases: Mapping[str, Iterable[str]] | None = None,
) -> NameTable[str]:
    """A resolver for ``board``'s territories and sea zones (canonical name as the value)."""
    return NameTable(
        "territory or sea zone",
        place_entries(board, aliases),
        lambda name: name,
        refusals=canal_refusals(board),
        shortenings=PLACE_SHORTENINGS,
    )
