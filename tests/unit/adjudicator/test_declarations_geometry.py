"""How far units can go: flights, ships, land moves, canals (adjudicator.declarations.geometry)."""

from __future__ import annotations

import dataclasses
from collections import deque

import pytest

from adjudicator.boards import Board, classic
from adjudicator.declarations.geometry import (
    FAR,
    Movement,
    air_range,
    geometry,
    movement_of,
)
from adjudicator.declarations.sites import planned
from adjudicator.notation import parse
from adjudicator.position import arranged, initial
from adjudicator.powers import Power
from adjudicator.units import Technology
from adjudicator.units import UnitType as U

UK, G, R, J, US = Power.UK, Power.GERMANY, Power.USSR, Power.JAPAN, Power.USA


def bfs(board: Board, start: str, avoid: frozenset[str] = frozenset()) -> dict[str, int]:
    """An independent breadth-first search, to check the cached tables against."""
    seen, queue = {start: 0}, deque([start])
    while queue:
        here = queue.popleft()
        if here != start and here in avoid:
            continue
        for there in board.neighbours(here):
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


@pytest.mark.parametrize("start", ["United Kingdom", "Japan", "Brazil", "Hawaii Sea Zone"])
def test_flight_distances_are_the_shortest_paths(start: str) -> None:
    board = classic()
    expected = bfs(board, start)
    g = geometry(board)
    assert all(g.air(start, end) == d for end, d in expected.items())


def test_landing_flights_go_round_neutrals_unless_taken() -> None:
    """Planes may not fly over neutrals in the non-combat move [SPEC p.8,13]; a neutral taken
    this turn is no longer neutral."""
    board = classic()
    g = geometry(board)
    neutrals = frozenset(t.name for t in board.neutrals)
    around = bfs(board, "Brazil", neutrals)
    assert g.landing("Brazil", "East Pacific Sea Zone") == around["East Pacific Sea Zone"] == 5
    assert g.air("Brazil", "East Pacific Sea Zone") == 3
    assert g.landing("Brazil", "East Pacific Sea Zone", frozenset({"Columbia", "Peru"})) == 3


def test_the_geometry_is_shared_per_board() -> None:
    assert geometry(classic()) is geometry(classic())


def test_a_movement_is_shared_per_position_and_power() -> None:
    p = initial()
    assert movement_of(p, UK) is movement_of(p, UK)
    assert movement_of(p, UK) is not movement_of(p, G)


def test_a_turn_s_battles_are_planned_once_for_a_movement() -> None:
    """A post-combat check reads the same combat moves for the declarations, what they
    leave, the battles fought and the retreats: the plan is made once, and made afresh for
    another turn's battles, even written alike."""
    text = "Germany 1 pre-combat\nCombat moves:\n#1 Karelia\nE Eur 3 INF, 2 ARM\nGer 1 FTR"
    turn, again = parse(text), parse(text)
    movement = movement_of(initial(), G)
    sites, found, plan = planned(turn, movement)
    assert [s.space for s in sites] == ["Karelia S.S.R."]
    assert [s.place for s in plan.sorties] == ["East Europe", "Germany"]
    assert planned(turn, movement)[2] is plan
    assert dataclasses.replace(turn, moves=()).battles is turn.battles
    assert planned(dataclasses.replace(turn, moves=()), movement)[2] is plan
    other = planned(again, movement)
    assert other[2] is not plan and other[2] == plan and other[1] == found


def test_suez_is_open_to_the_side_holding_both_its_territories() -> None:
    """IAAPA Canals: "Canals may be used if and only if you or your allies own the territory
    or territories controlling the canal at the beginning of your turn." Suez needs both
    Anglo-Egypt Sudan and Syria-Jordan [CLAR; XML]."""
    p = initial()
    e_med, red = "East Mediteranean Sea Zone", "Red Sea Zone"
    assert movement_of(p, UK).sea_distance(e_med, red) == 1
    assert movement_of(p, US).sea_distance(e_med, red) == 1
    assert movement_of(p, G).sea_distance(e_med, red) == FAR
    half = p.with_owner("Anglo Sudan Egypt", G)
    assert Movement(half, G).sea_distance(e_med, red) == FAR
    assert Movement(half, UK).sea_distance(e_med, red) == FAR
    both = half.with_owner("Syria Jordan", G)
    assert Movement(both, G).sea_distance(e_med, red) == 1


def test_panama_is_closed_to_the_axis_at_the_opening() -> None:
    p = initial()
    assert movement_of(p, US).sea_distance("West Panama Sea Zone", "Carribean Sea Zone") == 1
    assert movement_of(p, J).sea_distance("West Panama Sea Zone", "Carribean Sea Zone") == FAR


def test_ships_stop_at_enemy_units_but_may_end_there() -> None:
    """Enemy ships (subs and transports too) block a ship's move; it may enter the zone to
    fight [facts sheet: Ignore Sub/Transport In Movement off]."""
    p = initial()
    uk = movement_of(p, UK)
    assert uk.sea_distance("East Mediteranean Sea Zone", "Central Mediteranean Sea Zone") == 1
    assert uk.sea_distance("East Mediteranean Sea Zone", "West Mediteranean Sea Zone") == FAR
    empty = arranged({}, to_move=UK)
    assert (
        Movement(empty, UK).sea_distance("East Mediteranean Sea Zone", "West Mediteranean Sea Zone")
        == 2
    )


def test_ships_move_two_zones_at_most() -> None:
    uk = Movement(arranged({}), UK)
    assert uk.sea_distance("North Sea Zone", "Baltic Sea Zone") == 1
    assert uk.sea_distance("East Canada Sea Zone", "Baltic Sea Zone") == 2
    assert "Black Sea Zone" not in uk.sea_steps("North Sea Zone")


def test_tanks_blitz_through_empty_enemy_land_only() -> None:
    """An ARM moves 2 through friendly land or an empty enemy territory, never through one
    with units that fight, nor through a neutral (land units stop there)."""
    empty = arranged({"Karelia S.S.R.": {R: {U.ARM: 1}}}, owners={"East Europe": G})
    russia = Movement(empty, R)
    assert russia.land_distance("Karelia S.S.R.", "Germany", 2) == 2  # via East Europe
    assert russia.land_distance("Karelia S.S.R.", "Germany", 1) == FAR
    guarded = arranged({"East Europe": {G: {U.INF: 1}}})
    assert Movement(guarded, R).land_distance("Karelia S.S.R.", "Germany", 2) == FAR
    aa_only = arranged({"East Europe": {G: {U.AA: 1}}})
    assert Movement(aa_only, R).land_distance("Karelia S.S.R.", "Germany", 2) == 2
    assert russia.land_distance("Finland Norway", "Baltic Sea Zone", 2) == FAR


def test_a_neutral_cannot_be_blitzed() -> None:
    board = classic()
    assert board.are_adjacent("Finland Norway", "Sweden")
    nordic = [n for n in board.neighbours("Sweden") if not board.territories[n].is_sea]
    assert nordic == ["Finland Norway"]
    m = Movement(arranged({}), G)
    assert not m.blitzable("Sweden")


@pytest.mark.parametrize(
    ("unit", "techs", "moves"),
    [
        (U.FTR, (), 4),
        (U.BMB, (), 6),
        (U.FTR, (Technology.LONG_RANGE_AIRCRAFT,), 6),
        (U.BMB, (Technology.LONG_RANGE_AIRCRAFT,), 8),
        (U.FTR, (Technology.JET_POWER,), 4),
    ],
)
def test_air_ranges(unit: U, techs: tuple[Technology, ...], moves: int) -> None:
    """IAAPA Fighters: "A fighter may only move a total of 4 spaces"; bombers 6; Long Range
    Aircraft adds 2 [SPEC; TA]."""
    assert air_range(unit, techs) == moves
