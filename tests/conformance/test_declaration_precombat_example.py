"""IAAPA Declaration and Battle Resolution Procedures, Precombat: the rule book's example."""

from __future__ import annotations

from collections import deque

import pytest

from adjudicator.boards import Board, classic
from adjudicator.names import Match, Names, classic_names
from adjudicator.powers import Power
from adjudicator.units import UnitType


def distance(board: Board, start: str, goal: str) -> int:
    """Fewest moves from ``start`` to ``goal`` over any spaces (a plane's flight)."""
    seen, queue = {start: 0}, deque([start])
    while queue:
        here = queue.popleft()
        for there in board.neighbours(here):
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen[goal]


class TestPrecombatExample:
    """Precombat

    Combat moves must list the attacking units, specifying the territory of origin for each
    unit. ... For example:

        Combat Moves:
        Attack #1 - W Europe (10 INF, AA)
        UK 8 INF on UK SZ 4 TRN
        E Can 1 ARM on E Can SZ 1 TRN to UK SZ
        Kar 2 FTR (land Karelia)
        Total UK v. Germany --- 8 INF, 1 ARM, 2 FTR v. 10 INF, AA
    """

    @pytest.fixture
    def board(self) -> Board:
        return classic()

    @pytest.fixture
    def names(self) -> Names:
        return classic_names()

    @pytest.mark.parametrize(
        ("written", "canonical"),
        [
            ("W Europe", "West Europe"),
            ("UK", "United Kingdom"),
            ("UK SZ", "North Sea Zone"),
            ("E Can", "East Canada"),
            ("E Can SZ", "East Canada Sea Zone"),
            ("Kar", "Karelia S.S.R."),
            ("Karelia", "Karelia S.S.R."),
        ],
    )
    def test_every_place_in_the_example_resolves_exactly(
        self,
        names: Names,
        written: str,
        canonical: str,
    ) -> None:
        """The example's own abbreviations name one space each, with no typo to correct."""
        r = names.place(written)
        assert (r.value, r.match) == (canonical, Match.EXACT)

    @pytest.mark.parametrize(
        ("written", "count", "unit"),
        [
            ("10 INF", 10, UnitType.INF),
            ("8 INF", 8, UnitType.INF),
            ("4 TRN", 4, UnitType.TRN),
            ("1 ARM", 1, UnitType.ARM),
            ("1 TRN", 1, UnitType.TRN),
            ("2 FTR", 2, UnitType.FTR),
        ],
    )
    def test_every_unit_count_in_the_example(
        self,
        names: Names,
        written: str,
        count: int,
        unit: UnitType,
    ) -> None:
        got, r = names.unit_count(written)
        assert (got, r.value.unit, r.match) == (count, unit, Match.EXACT)

    def test_the_powers_in_the_total_line(self, names: Names) -> None:
        """Total UK v. Germany"""
        assert (names.power("UK").value, names.power("Germany").value) == (Power.UK, Power.GERMANY)

    def test_the_moves_are_possible_on_the_board(self, board: Board, names: Names) -> None:
        """The example is a legal attack: the transports reach the UK SZ, the sea zone
        touches W Europe, and the Karelia fighters can reach W Europe and land in Karelia."""

        def place(w: str) -> str:
            return names.place(w).value

        assert place("UK SZ") in board.sea_zones_next_to(place("UK"))
        assert place("E Can SZ") in board.sea_zones_next_to(place("E Can"))
        assert distance(board, place("E Can SZ"), place("UK SZ")) <= UnitType.TRN.stats.movement
        assert board.are_adjacent(place("UK SZ"), place("W Europe"))
        there_and_back = distance(board, place("Kar"), place("W Europe")) + distance(
            board, place("W Europe"), place("Karelia")
        )
        assert there_and_back <= UnitType.FTR.stats.movement

    def test_eight_inf_need_the_four_transports(self) -> None:
        """UK 8 INF on UK SZ 4 TRN: two infantry per transport."""
        per_transport = UnitType.TRN.stats.transport_capacity // (
            UnitType.INF.stats.transport_cost or 1
        )
        assert 4 * per_transport == 8
