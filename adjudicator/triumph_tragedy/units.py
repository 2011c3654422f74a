"""The Unit Table of "Triumph & Tragedy" (GMT Games), and what every Triumph & Tragedy roll
shares: the refusal a player reads, the checks of a request's fields, and the dice thrown.

The summary in ../shared/rules (``triumph-and-tragedy-1936-summary.md``) names the Unit
Table ("units act in the order given by Unit Table") but does not reproduce it. The values
below are the Unit Table of the published game: the firing order is the table's order, top
to bottom, and a unit's firepower against a target class is the highest die that hits that
class ("hit scored if result" <= "firepower"); a firepower of 0 means the unit cannot fire at
that class. One entry is doubtful and marked (:attr:`TTUnitType.doubtful`): the Submarine's
firepower against naval units, N1 here, which one transcription reads N2.

Every unit is a block of strength ("CV", combat value) 1 to 4: "roll # dice = CV of firing
unit". The target classes are ``"A"`` (air), ``"N"`` (naval), ``"G"`` (ground) and ``"S"``
(submarines).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from adjudicator.request_fields import (
    RequestFieldError,
    field_number,
    known_fields,
    line_of_text,
    six_sided,
)

TT_SYSTEM = "triumph-and-tragedy"
"""The ``"system"`` of every ledger entry of this game."""

TT_SIDES_OF_A_DIE = 6
"""The game's dice are six-sided: "roll 1d6"."""

TT_FIRST_YEAR = 1936
TT_LAST_YEAR = 1945
"""The game runs from 1936 to the "end of 1945"."""

TT_SEASONS = ("Spring", "Summer", "Fall", "Winter")
"""The Seasons of a year: "Seasons (Spring/Summer/Fall)" and "Seasons (Winter: USSR only)"."""

TT_PLAYER_FACTIONS = ("Axis", "West", "USSR")
"""The three Factions the players command."""

TT_FACTIONS = (*TT_PLAYER_FACTIONS, "Neutral")
"""The sides of a battle: a player's Faction, or an armed Neutral defending."""

TT_CLASSES = ("A", "N", "G", "S")
"""The target classes: air, naval, ground, submarine."""

TT_CLASS_WORDS = MappingProxyType({"A": "air", "N": "naval", "G": "ground", "S": "submarine"})
"""Each target class in words."""

_CLASS_ALIASES = {
    "a": "A",
    "air": "A",
    "n": "N",
    "naval": "N",
    "g": "G",
    "ground": "G",
    "s": "S",
    "sub": "S",
    "subs": "S",
    "submarine": "S",
}

TT_MIN_CV = 1
TT_MAX_CV = 4
"""A unit's strength: 1 to 4 CV."""

TT_MAX_COMMENT = 2000
TT_MAX_NAME = 60
"""The longest area name a request may give."""

TTDraw = Callable[[int], list[int]]
"""The dice server's dice: ``draw(n)`` gives the next ``n`` dice, 1 to 6, in thrown order."""


@dataclass(frozen=True)
class TTUnitType:
    """One row of the Unit Table: the unit, its own class, and its firepower against each
    target class (``A``, ``N``, ``G``, ``S``; 0: it cannot fire at that class)."""

    name: str
    unit_class: str
    firepower: tuple[int, int, int, int]
    """Against A, N, G, S, in that order."""
    fires: int = 1
    """0 for the Convoy, which never fires: it has no combat action (a ground unit "can use
    Sea Movement by becoming a Convoy"; one that invades "cannot fire or retreat this
    turn")."""
    doubtful: str = ""
    """Why an entry of the row is doubtful ("" when none is)."""

    def firepower_against(self, target_class: str) -> int:
        """The highest die that hits ``target_class`` (0: the unit cannot fire at it)."""
        return self.firepower[TT_CLASSES.index(target_class)]

    def targets(self) -> tuple[str, ...]:
        """The classes the unit can fire at."""
        return tuple(c for c in TT_CLASSES if self.firepower_against(c) > 0)


TT_UNIT_TABLE: tuple[TTUnitType, ...] = (
    TTUnitType("Fortress", "G", (2, 3, 4, 3)),
    TTUnitType("Air Force", "A", (3, 1, 1, 1)),
    TTUnitType("Carrier", "N", (2, 2, 1, 2)),
    TTUnitType(
        "Submarine",
        "S",
        (0, 1, 0, 1),
        doubtful="firepower against N: N1 here, one transcription of the table reads N2",
    ),
    TTUnitType("Fleet", "N", (1, 3, 1, 2)),
    TTUnitType("Tank", "G", (0, 0, 2, 0)),
    TTUnitType("Infantry", "G", (1, 1, 3, 0)),
    TTUnitType("Convoy", "N", (0, 0, 0, 0), fires=0),
)
"""The Unit Table, in firing order (the Convoy, which never fires, last)."""

TT_UNITS: Mapping[str, TTUnitType] = MappingProxyType({u.name: u for u in TT_UNIT_TABLE})
"""The Unit Table by unit name."""

TT_CARRIER_SCOOT_FIREPOWER = 1
""""Carriers can fire at N1 *and* immediately Retreat/ReBase"."""

TT_TWO_CV_PER_HIT = frozenset({"Carrier", "Convoy"})
""""Carriers and Convoys lose 2CV per hit"."""

_UNIT_ALIASES = {
    **{u.name.casefold(): u.name for u in TT_UNIT_TABLE},
    "fort": "Fortress",
    "af": "Air Force",
    "air": "Air Force",
    "airforce": "Air Force",
    "air-force": "Air Force",
    "sub": "Submarine",
    "inf": "Infantry",
    "armor": "Tank",
    "armour": "Tank",
}


def tt_unit_type(name: str) -> TTUnitType | None:
    """The Unit Table's row for a unit name as a player writes it (any case; "AF", "air",
    "airforce", "sub", "fort", "inf", "armor"/"armour" too), or ``None``."""
    canonical = _UNIT_ALIASES.get(" ".join(name.split()).casefold())
    return TT_UNITS[canonical] if canonical else None


def tt_target_class(word: str) -> str | None:
    """A target class as a player writes it (``"N"``, ``"naval"``, ...) as its letter."""
    return _CLASS_ALIASES.get(word.strip().casefold())


class TTRollError(RequestFieldError):
    """A request the dice server refuses before any die is thrown: which field is wrong
    (a JSON path such as ``"units.attacker[2].target"``) and why, in a player's words."""


def tt_check_fields(fields: Mapping[str, Any], allowed: frozenset[str], *, path: str = "") -> None:
    """Refuse a request (or a part of it at ``path``) naming a field it does not have."""
    known_fields(fields, allowed, TTRollError, path=path)


def tt_int(
    fields: Mapping[str, Any],
    name: str,
    low: int,
    high: int,
    *,
    path: str | None = None,
    default: int | None = None,
) -> int:
    """A whole number from ``low`` to ``high``: required unless a ``default`` is given."""
    return field_number(fields, name, low, high, TTRollError, path=path, default=default)


def tt_flag(fields: Mapping[str, Any], name: str, *, path: str | None = None) -> int:
    """An optional 0/1 flag (absent is 0)."""
    return tt_int(fields, name, 0, 1, path=path, default=0)


def tt_text(fields: Mapping[str, Any], name: str, longest: int, *, path: str | None = None) -> str:
    """An optional line of text (absent is ``""``), at most ``longest`` characters; the
    ``"comment"`` may hold several lines."""
    return line_of_text(fields, name, longest, TTRollError, path=path)


def tt_choice(
    fields: Mapping[str, Any], name: str, choices: tuple[str, ...], *, path: str | None = None
) -> str:
    """A required one of ``choices``, written in any case; recorded as ``choices`` spell it."""
    where = path or name
    words = " or ".join(f'"{c}"' for c in choices)
    if name not in fields:
        raise TTRollError(where, f"is missing: give {words}")
    value = fields[name]
    if isinstance(value, str):
        for choice in choices:
            if value.strip().casefold() == choice.casefold():
                return choice
    raise TTRollError(where, f"must be {words}, not {value!r}")


def tt_year(fields: Mapping[str, Any]) -> int:
    """The year of the game, 1936 to 1945."""
    return tt_int(fields, "year", TT_FIRST_YEAR, TT_LAST_YEAR)


def tt_comment(fields: Mapping[str, Any]) -> None:
    """The optional ``"comment"``: checked here, recorded by the service, not the roll."""
    tt_text(fields, "comment", TT_MAX_COMMENT)


def tt_throw(draw: TTDraw, n: int) -> list[int]:
    """The next ``n`` dice from the dice server, checked to be ``n`` six-sided dice."""
    return six_sided(draw, n)


def tt_entry(kind: str, by: str) -> dict[str, Any]:
    """The start of a ledger entry's data: what every Triumph & Tragedy entry records."""
    return {"system": TT_SYSTEM, "kind": kind, "by": by, "sides": TT_SIDES_OF_A_DIE}
