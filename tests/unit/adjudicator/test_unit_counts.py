"""``Units``: the one count of units a turn's orders, a position and a battle share."""

from __future__ import annotations

import pytest

from adjudicator.units import CHART_ORDER, NEVER_CASUALTIES, NO_UNITS, Units
from adjudicator.units import UnitType as U


def test_the_chart_order_is_the_printed_chart() -> None:
    assert sorted(U, key=CHART_ORDER.__getitem__) == [
        U.INF,
        U.ARM,
        U.FTR,
        U.BMB,
        U.TRN,
        U.SUB,
        U.AC,
        U.BB,
        U.AA,
        U.IC,
    ]


def test_units_are_kept_in_chart_order_without_zeros_however_written() -> None:
    written = Units.of([(U.FTR, 2), (U.INF, 3), (U.ARM, 0), (U.INF, 5)])
    assert written.counts == ((U.INF, 8), (U.FTR, 2))
    assert written == Units.of({U.FTR: 2, U.INF: 8}) and hash(written) == hash(
        Units.of({U.INF: 8, U.FTR: 2})
    )
    assert Units.of_units([U.BB, U.INF, U.BB]) == Units.of({U.INF: 1, U.BB: 2})


def test_a_negative_count_is_refused() -> None:
    with pytest.raises(ValueError, match="-1 INF"):
        Units.of({U.INF: -1})


def test_counting_and_reading() -> None:
    units = Units.of({U.INF: 8, U.ARM: 1, U.FTR: 2, U.AA: 1})
    assert units.count(U.INF) == units[U.INF] == 8 and units[U.BB] == 0
    assert units.total == 12 and units.aircraft == 2 and units.surface == 10
    assert list(units) == [(U.INF, 8), (U.ARM, 1), (U.FTR, 2), (U.AA, 1)]
    assert bool(units) and not NO_UNITS and NO_UNITS == Units()


def test_the_written_forms() -> None:
    """Players write "8 INF, 1 ARM"; the JSON reports key on the abbreviations."""
    units = Units.of({U.FTR: 2, U.INF: 8})
    assert str(units) == units.label() == "8 INF, 2 FTR" and str(NO_UNITS) == "none"
    assert units.to_json() == {"INF": 8, "FTR": 2}
    assert units.as_dict() == {U.INF: 8, U.FTR: 2}


def test_adding_and_removing() -> None:
    a, b = Units.of({U.INF: 2, U.BB: 1}), Units.of({U.INF: 1, U.TRN: 1})
    assert a + b == a.plus(b) == Units.of({U.INF: 3, U.TRN: 1, U.BB: 1})
    assert (a + b).minus(b) == a and a.minus(NO_UNITS) is a
    assert a.contains(Units.of({U.INF: 2})) and not a.contains(b)
    with pytest.raises(ValueError, match="cannot remove 1 TRN from 2 INF, 1 BB"):
        a.minus(b)


def test_picking_by_type() -> None:
    units = Units.of({U.INF: 3, U.FTR: 1, U.AA: 1, U.IC: 1})
    assert units.combatants() == Units.of({U.INF: 3, U.FTR: 1})
    assert NEVER_CASUALTIES == {U.AA, U.IC}
    assert units.only(U.FTR, U.BB) == Units.of({U.FTR: 1})
    assert units.without(U.INF, U.AA) == Units.of({U.FTR: 1, U.IC: 1})
