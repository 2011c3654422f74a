"""IAAPA Rules Clarifications, GEOGRAPHY: each item on the board the league plays."""

from __future__ import annotations

import pytest

from adjudicator.boards import Board, classic
from adjudicator.boards.iaapa_overlay import BOTTOM_EDGE, TOP_EDGE
from adjudicator.names import Names, UnknownName, classic_names


class TestGeography:
    """RULES CLARIFICATIONS - GEOGRAPHY (IAAPA 2nd Edition Unabridged Rules, 2008).

    The rule text names sea zones as the IAAPA map does; classic.xml calls the West Indies
    (East Panama) sea zone "Carribean Sea Zone". Names are resolved as players write them.
    """

    @pytest.fixture
    def board(self) -> Board:
        return classic()

    @pytest.fixture
    def names(self) -> Names:
        return classic_names()

    def test_1_gulf_of_mexico_neighbours(self, board: Board, names: Names) -> None:
        """The Gulf of Mexico sea zone touching Mexico and the right edge of the board is
        adjacent to only Mexico, The Western US, the Eastern US sea zone and the West Indies
        sea zone."""
        gulf = names.place("Gulf of Mexico").value
        expected = {
            names.place(w).value
            for w in ("Mexico", "Western US", "Eastern US SZ", "West Indies SZ")
        }
        assert board.neighbours(gulf) == expected

    def test_2_western_gulf_of_mexico_takes_new_purchases(
        self,
        board: Board,
        names: Names,
    ) -> None:
        """The small Western Gulf of Mexico sea zone located at the right side of the board
        is a legal location to place new purchases."""
        gulf = names.place("Western Gulf of Mexico").value
        with_ic = {
            t
            for per_owner in board.initial_units.values()
            for t, units in per_owner.items()
            if units.get("factory")
        }
        # PLACEMENT OF NEW UNITS: "Shipping may be placed in any water area on the board that
        # is adjacent to a land territory possessing an IC."
        assert any(gulf in board.sea_zones_next_to(t) for t in with_ic)
        assert board.territory(gulf).is_sea

    def test_3_top_and_bottom_edges_do_not_touch(self, board: Board) -> None:
        """The territories and sea zones on the top edge of the map are not adjacent to the
        sea zones on the bottom edge of the map and vice versa."""
        for north in TOP_EDGE:
            assert not board.neighbours(north) & BOTTOM_EDGE, north
        for south in BOTTOM_EDGE:
            assert not board.neighbours(south) & TOP_EDGE, south

    def test_4_the_panama_canal_is_not_a_sea_zone(self, board: Board, names: Names) -> None:
        """The Panama "Canal" in and of itself is not a sea zone. The clarification sheet
        misleadingly implies that this is so. No units can be located "in" the Canal."""
        assert "Panama Canal" in {c.name for c in board.canals}
        assert "Panama Canal" not in board.territories
        with pytest.raises(UnknownName, match="no unit can be located in it"):
            names.place("Panama Canal")

    def test_5_air_through_the_canal_avoids_panamas_aa_gun(
        self,
        board: Board,
        names: Names,
    ) -> None:
        """An air unit passing through the Panama Canal may take the same route as shipping
        and does not have to fly over the territory of Panama itself. As such it does not
        have to undergo any AA Gun shots if there is an AA Gun located in Panama."""
        west = names.place("West Panama SZ").value
        east = names.place("East Panama SZ").value
        canal = board.canal_between(west, east)
        assert canal is not None and canal.name == "Panama Canal"
        # The shipping route is one step from zone to zone: no land is overflown on it.
        assert board.are_adjacent(west, east)
        assert "Panama" in canal.land_territories and board.territory("Panama").is_land

    def test_6_west_and_east_panama_are_adjacent(self, board: Board, names: Names) -> None:
        """For naval and air movement purposes the West Panama sea zone and the East Panama
        sea zone may be considered adjacent."""
        assert board.are_adjacent(
            names.place("West Panama sea zone").value, names.place("East Panama sea zone").value
        )

    def test_the_board_records_each_clarification(self, board: Board) -> None:
        """Each GEOGRAPHY item is applied to the league's board."""
        assert board.clarifications == tuple(f"GEOGRAPHY {n}" for n in range(1, 7))
