"""Casualty allocation: the closed forms checked against brute force over every assignment
of hits to units, and the order-of-loss walk against the earliest lawful set."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.battle.casualties import (
    allocation_fits,
    can_survive,
    casualties_by_order,
    forced_losses,
    full_order,
)
from adjudicator.units import Battlefield, OrderOfLoss, Side, Units, UnitType

U = UnitType
SEA = (U.TRN, U.SUB, U.FTR, U.AC, U.BB)


def allocations(pool: Units, restricted: int, unrestricted: int) -> set[tuple[int, ...]]:
    """Every set of casualties some assignment of the hits reaches, as sorted unit indices
    (restricted hits only on non-aircraft, each unit hit at most once), maximal only."""
    units = [u for u, n in pool for _ in range(n)]
    slots = [None, *range(len(units))]
    reached = set()
    for r_targets in itertools.product(slots, repeat=restricted):
        if any(t is not None and units[t].stats.is_air for t in r_targets):
            continue
        for u_targets in itertools.product(slots, repeat=unrestricted):
            hit = [t for t in (*r_targets, *u_targets) if t is not None]
            if len(hit) == len(set(hit)):
                reached.add(tuple(sorted(hit)))
    best = max(len(c) for c in reached)
    return {c for c in reached if len(c) == best}


pools = st.dictionaries(st.sampled_from(SEA), st.integers(0, 2), max_size=4).map(Units.of)
small = st.integers(0, 2)


@settings(max_examples=150, deadline=None)
@given(pools, small, small)
def test_forced_losses_is_the_largest_allocation(pool: Units, r: int, u: int) -> None:
    assert forced_losses(pool, r, u) == max(len(c) for c in allocations(pool, r, u))


@settings(max_examples=150, deadline=None)
@given(pools, small, small, st.sampled_from(SEA))
def test_can_survive_matches_brute_force(pool: Units, r: int, u: int, unit: UnitType) -> None:
    units = [x for x, n in pool for _ in range(n)]
    spared = any(
        any(units[i] is unit for i in range(len(units)) if i not in c)
        for c in allocations(pool, r, u)
    )
    assert can_survive(pool, unit, r, u) == spared


@settings(max_examples=150, deadline=None)
@given(pools, small, small, st.permutations(SEA))
def test_order_gives_the_earliest_lawful_casualties(
    pool: Units,
    r: int,
    u: int,
    order: list[UnitType],
) -> None:
    units = [x for x, n in pool for _ in range(n)]
    rank = {unit: i for i, unit in enumerate(order)}

    def key(c: tuple[int, ...]) -> list[int]:
        return sorted(rank[units[i]] for i in c)

    earliest = min(allocations(pool, r, u), key=key)
    lost = casualties_by_order(pool, order, r, u)
    assert lost == Units.of(Counter(units[i] for i in earliest))
    assert allocation_fits(lost, pool, r, u)


def test_restricted_hits_skip_aircraft_in_the_order() -> None:
    """A sub hit and a fighter hit on TRN, FTR, BB: the sub's hit cannot take the FTR, so
    the casualties are TRN and FTR (the BB survives), not TRN and BB."""
    pool = Units.of({U.TRN: 1, U.FTR: 1, U.BB: 1})
    order = OrderOfLoss(Side.ATTACKER, Battlefield.SEA, (U.TRN, U.FTR, U.BB))
    assert casualties_by_order(pool, order, 1, 1) == Units.of({U.TRN: 1, U.FTR: 1})
    assert casualties_by_order(pool, order, 2, 0) == Units.of({U.TRN: 1, U.BB: 1})


def test_allocation_must_use_every_hit_it_can() -> None:
    pool = Units.of({U.INF: 3})
    assert not allocation_fits(Units.of({U.INF: 1}), pool, 0, 2)
    assert allocation_fits(Units.of({U.INF: 2}), pool, 0, 2)
    assert not allocation_fits(Units.of({U.ARM: 2}), pool, 0, 2)


def test_aircraft_only_for_unrestricted_hits() -> None:
    pool = Units.of({U.SUB: 1, U.FTR: 1})
    assert not allocation_fits(Units.of({U.FTR: 1}), pool, 1, 0)
    assert allocation_fits(Units.of({U.SUB: 1}), pool, 1, 0)


def test_full_order_appends_what_a_declared_order_leaves_out() -> None:
    order = full_order((U.BB,), Side.DEFENDER, Battlefield.SEA)
    assert order[:6] == (U.BB, U.TRN, U.SUB, U.FTR, U.AC, U.INF)
    assert set(order) == set(UnitType)


@pytest.mark.parametrize(
    ("pool", "unit", "hits", "expected"),
    [
        ({U.INF: 1, U.BMB: 1}, U.BMB, 1, True),
        ({U.INF: 1, U.BMB: 1}, U.BMB, 2, False),
        ({U.BMB: 2}, U.BMB, 1, True),
        ({U.BMB: 1}, U.BMB, 0, True),
        ({U.INF: 2}, U.BMB, 0, False),
    ],
)
def test_can_survive_land(
    pool: dict[UnitType, int], unit: UnitType, hits: int, expected: bool
) -> None:
    assert can_survive(Units.of(pool), unit, 0, hits) is expected
