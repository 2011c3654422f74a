"""The IAAPA GEOGRAPHY clarifications, applied to TripleA's Classic map as an overlay.

TripleA's ``classic.xml`` is the map's digitisation; where the league's rules clarify the
printed board, the rule wins. Each clarification below is one entry, quoting its item of
"RULES CLARIFICATIONS / GEOGRAPHY" (IAAPA 2nd Edition Rules, 2008). Applying an entry
*enforces* it (adds or removes connections) or, where nothing can be mended safely, raises
:class:`OverlayError`; each entry applied is recorded in ``Board.clarifications``.

The rule text names sea zones by the IAAPA map, classic.xml by the land they wash:
"West Indies" and "East Panama" sea zone = "Carribean Sea Zone"; the Gulf of Mexico notes
speak of "Gulf of Mexico Sea Zone" (the small zone at the board's right edge, beside Mexico
and the Western US); "West Panama" = "West Panama Sea Zone".
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

from adjudicator.boards.model import Board, BoardError


class OverlayError(BoardError):
    """A clarification cannot be applied to this board (missing or contradicting space)."""


def _require(board: Board, name: str, *, sea: bool | None = None, key: str) -> None:
    if name not in board.territories:
        raise OverlayError(f"{key}: {board.name} has no territory {name!r}")
    if sea is not None and board.territories[name].is_sea != sea:
        kind = "a sea zone" if sea else "a land territory"
        raise OverlayError(f"{key}: {name!r} should be {kind}")


@dataclass(frozen=True)
class Clarification(ABC):
    """One rule clarification about the map: ``key`` cites it, ``quote`` is its text."""

    key: str
    quote: str

    @abstractmethod
    def apply(self, board: Board) -> Board:
        """``board`` with the clarification enforced; OverlayError if it cannot be."""


@dataclass(frozen=True)
class ExactNeighbours(Clarification):
    """``zone`` borders exactly ``neighbours``: extra connections go, missing ones come."""

    zone: str
    neighbours: frozenset[str]

    def apply(self, board: Board) -> Board:
        _require(board, self.zone, sea=True, key=self.key)
        for n in self.neighbours:
            _require(board, n, key=self.key)
        current = board.neighbours(self.zone)
        return board.with_connections(
            add=[(self.zone, n) for n in self.neighbours - current],
            remove=[(self.zone, n) for n in current - self.neighbours],
            clarification=self.key,
        )


@dataclass(frozen=True)
class ShipPlacementZone(Clarification):
    """New ships from the IC in ``factory_territory`` may be placed in sea zone ``zone``.

    Placement of New Units: "Shipping may be placed in any water area on the board that is
    adjacent to a land territory possessing an IC", so the zone must border that territory.
    """

    zone: str
    factory_territory: str

    def apply(self, board: Board) -> Board:
        _require(board, self.zone, sea=True, key=self.key)
        _require(board, self.factory_territory, sea=False, key=self.key)
        if not board.territories[self.factory_territory].original_factory:
            raise OverlayError(f"{self.key}: {self.factory_territory!r} has no original IC")
        return board.with_connections(
            add=[(self.zone, self.factory_territory)], clarification=self.key
        )


@dataclass(frozen=True)
class NoWrapBetween(Clarification):
    """No space of ``north`` (top edge) touches a space of ``south`` (bottom edge)."""

    north: frozenset[str]
    south: frozenset[str]

    def apply(self, board: Board) -> Board:
        for name in self.north | self.south:
            _require(board, name, key=self.key)
        crossing = [(a, b) for a in self.north for b in board.neighbours(a) if b in self.south]
        return board.with_connections(remove=crossing, clarification=self.key)


@dataclass(frozen=True)
class CanalIsNotASpace(Clarification):
    """Canal ``canal`` joins sea zones but is not one: no unit can be located in it."""

    canal: str

    def apply(self, board: Board) -> Board:
        if not any(c.name == self.canal for c in board.canals):
            raise OverlayError(f"{self.key}: {board.name} has no canal {self.canal!r}")
        if self.canal in board.territories:
            raise OverlayError(
                f"{self.key}: {board.name} makes the {self.canal} a territory of its own"
            )
        return board.with_connections(clarification=self.key)


@dataclass(frozen=True)
class AirFollowsCanal(Clarification):
    """Air may fly straight between the canal's sea zones, never over its land.

    So a plane taking the shipping route is not over the canal's land territory and draws no
    AA fire from a gun there; the zones are made adjacent if the map lacks it.
    """

    canal: str

    def apply(self, board: Board) -> Board:
        zones = [c.sea_zones for c in board.canals if c.name == self.canal]
        if not zones:
            raise OverlayError(f"{self.key}: {board.name} has no canal {self.canal!r}")
        pairs = [pair for z in zones for pair in combinations(sorted(z), 2)]
        return board.with_connections(add=pairs, clarification=self.key)


@dataclass(frozen=True)
class Adjacent(Clarification):
    """Spaces ``a`` and ``b`` border each other."""

    a: str
    b: str

    def apply(self, board: Board) -> Board:
        _require(board, self.a, key=self.key)
        _require(board, self.b, key=self.key)
        return board.with_connections(add=[(self.a, self.b)], clarification=self.key)


GULF_OF_MEXICO = "Gulf of Mexico Sea Zone"
WEST_INDIES = "Carribean Sea Zone"
"""The IAAPA "West Indies" / "East Panama" sea zone, as classic.xml spells it."""
WEST_PANAMA = "West Panama Sea Zone"

TOP_EDGE = frozenset(
    {
        "Alaska",
        "Alaska Sea Zone",
        "West Canada",
        "East Canada",
        "Finland Norway",
        "Karelia S.S.R.",
        "Karelia Sea Zone",
        "Evenki National Okrug",
        "Yakut S.S.R.",
        "Soviet Far East",
    }
)
"""Spaces along the top (Arctic) edge of the printed board."""
BOTTOM_EDGE = frozenset(
    {
        "Antartic Sea Zone",
        "South Argentina Sea Zone",
        "South Atlantic Sea Zone",
        "South Compass Sea Zone",
        "South Australia Sea Zone",
        "New Zealand Sea Zone",
        "South Pacific Sea Zone",
    }
)
"""Spaces along the bottom (Southern Ocean) edge of the printed board.

Edge membership is read from the board's layout, not from classic.xml (which has no
coordinates); a space listed that falls just short of an edge only makes the check stricter,
since no Arctic space can border a Southern Ocean one.
"""

IAAPA_GEOGRAPHY: tuple[Clarification, ...] = (
    ExactNeighbours(
        key="GEOGRAPHY 1",
        quote="The Gulf of Mexico sea zone touching Mexico and the right edge of the board is "
        "adjacent to only Mexico, The Western US, the Eastern US sea zone and the West "
        "Indies sea zone.",
        zone=GULF_OF_MEXICO,
        neighbours=frozenset({"Mexico", "West US", "East US Sea Zone", WEST_INDIES}),
    ),
    ShipPlacementZone(
        key="GEOGRAPHY 2",
        quote="The small Western Gulf of Mexico sea zone located at the right side of the "
        "board is a legal location to place new purchases.",
        zone=GULF_OF_MEXICO,
        factory_territory="West US",
    ),
    NoWrapBetween(
        key="GEOGRAPHY 3",
        quote="The territories and sea zones on the top edge of the map are not adjacent to "
        "the sea zones on the bottom edge of the map and vice versa.",
        north=TOP_EDGE,
        south=BOTTOM_EDGE,
    ),
    CanalIsNotASpace(
        key="GEOGRAPHY 4",
        quote='The Panama "Canal" in and of itself is not a sea zone. The clarification sheet '
        'misleadingly implies that this is so. No units can be located "in" the Canal.',
        canal="Panama Canal",
    ),
    AirFollowsCanal(
        key="GEOGRAPHY 5",
        quote="An air unit passing through the Panama Canal may take the same route as "
        "shipping and does not have to fly over the territory of Panama itself. As such "
        "it does not have to undergo any AA Gun shots if there is an AA Gun located in "
        "Panama.",
        canal="Panama Canal",
    ),
    Adjacent(
        key="GEOGRAPHY 6",
        quote="For naval and air movement purposes the West Panama sea zone and the East "
        "Panama sea zone may be considered adjacent.",
        a=WEST_PANAMA,
        b=WEST_INDIES,
    ),
)
"""The six GEOGRAPHY items of the IAAPA Rules Clarifications, in the rule text's order."""


def apply_overlay(
    board: Board,
    clarifications: Iterable[Clarification] = IAAPA_GEOGRAPHY,
) -> Board:
    """``board`` with each clarification applied in turn."""
    for clarification in clarifications:
        board = clarification.apply(board)
    return board
