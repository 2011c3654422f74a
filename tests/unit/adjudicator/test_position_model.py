"""The position: opening set-up, counts and income, changes, and the rules it enforces."""

from __future__ import annotations

import pytest

from adjudicator.boards import classic
from adjudicator.position import (
    Position,
    PositionError,
    arranged,
    cargo_slots,
    initial,
)
from adjudicator.powers import Alliance, Power
from adjudicator.units import NO_UNITS, Units
from adjudicator.units import UnitType as U

UK, G, R, J, US = Power.UK, Power.GERMANY, Power.USSR, Power.JAPAN, Power.USA


@pytest.fixture(scope="module")
def opening() -> Position:
    return initial()


def test_the_opening_banks_are_the_starting_incomes(opening: Position) -> None:
    """Starting incomes USSR 24, Germany 32, UK 30, Japan 25, US 36 [XML; SPEC p.7,22]."""
    assert dict(opening.bank) == {R: 24, G: 32, UK: 30, J: 25, US: 36}


def test_the_opening_income_values_add_up_to_the_map_total(opening: Position) -> None:
    """The map total is 147, and each power's territories are worth its starting income."""
    assert {p: opening.ipc_count(p) for p in Power} == {R: 24, G: 32, UK: 30, J: 25, US: 36}
    assert sum(opening.ipc_count(p) for p in Power) == 147


def test_the_opening_has_the_ussr_to_move_in_round_one(opening: Position) -> None:
    assert (opening.to_move, opening.round) == (R, 1)


def test_every_power_holds_its_capital_at_the_opening(opening: Position) -> None:
    capitals = {p: opening.capital(p) for p in Power}
    assert capitals == {R: "Russia", G: "Germany", UK: "United Kingdom", J: "Japan", US: "East US"}
    assert all(opening.holds_capital(p) for p in Power)


def test_the_opening_units_are_the_printed_set_up(opening: Position) -> None:
    """A few spot checks of the 2nd edition set-up, as classic.xml digitises it."""
    assert opening.units_of("Germany", G) == Units.of(
        {U.INF: 4, U.ARM: 2, U.FTR: 1, U.BMB: 1, U.AA: 1, U.IC: 1}
    )
    assert opening.units_of("Hawaii Sea Zone", US) == Units.of({U.AC: 1, U.FTR: 1, U.SUB: 1})
    assert opening.units_of("Caucasus", R) == Units.of({U.INF: 5})
    assert opening.units_of("Caucasus", G) == NO_UNITS


def test_neutrals_are_empty_and_unowned(opening: Position) -> None:
    board = classic()
    for territory in board.neutrals:
        assert opening.owner(territory.name) is None
        assert not opening.units_at(territory.name)


def test_income_needs_the_capital() -> None:
    """IAAPA Income Collection and Spending: "Any country that ends its turn with possession
    of its capital collects income." The IPC count is unchanged: it is the territories'
    value, which Magic 84 counts."""
    lost = arranged({}, owners={"United Kingdom": G})
    assert lost.ipc_count(UK) == 30 - 8
    assert lost.income(UK) == 0
    assert lost.ipc_count(G) == 32 + 8 and lost.income(G) == 40


def test_a_captured_territory_moves_both_counts() -> None:
    taken = initial().with_owner("Anglo Sudan Egypt", G)
    ipc = classic().territory("Anglo Sudan Egypt").ipc
    assert (taken.territory_count(G), taken.ipc_count(G)) == (9, 32 + ipc)
    assert (taken.territory_count(UK), taken.ipc_count(UK)) == (16, 30 - ipc)


def test_enemy_and_side_units_add_up_allied_powers() -> None:
    p = arranged({"North Sea Zone": {UK: {U.TRN: 1}, US: {U.BB: 1}, G: {U.SUB: 2}}})
    assert p.enemy_units("North Sea Zone", G) == Units.of({U.TRN: 1, U.BB: 1})
    assert p.enemy_units("North Sea Zone", US) == Units.of({U.SUB: 2})
    assert p.side_units("North Sea Zone", Alliance.ALLIES) == Units.of({U.TRN: 1, U.BB: 1})
    assert p.has_enemy("North Sea Zone", UK) and not p.has_enemy("Baltic Sea Zone", UK)


def test_with_units_replaces_one_powers_units_only() -> None:
    p = arranged({"Karelia S.S.R.": {R: {U.INF: 3}, UK: {U.FTR: 1}}})
    q = p.with_units("Karelia S.S.R.", R, Units.of({U.INF: 1}))
    assert q.units_of("Karelia S.S.R.", R) == Units.of({U.INF: 1})
    assert q.units_of("Karelia S.S.R.", UK) == Units.of({U.FTR: 1})
    assert p.units_of("Karelia S.S.R.", R) == Units.of({U.INF: 3})  # immutable
    assert (
        "Karelia S.S.R."
        not in q.with_units("Karelia S.S.R.", R, NO_UNITS)
        .with_units("Karelia S.S.R.", UK, NO_UNITS)
        .units
    )


def test_next_turn_follows_the_turn_order_and_counts_rounds() -> None:
    p = initial()
    order = []
    for _ in range(6):
        order.append((p.to_move, p.round))
        p = p.next_turn()
    assert order == [(R, 1), (G, 1), (UK, 1), (J, 1), (US, 1), (R, 2)]


@pytest.mark.parametrize(
    ("units", "slots"),
    [
        ({U.INF: 1}, 1),
        ({U.INF: 2}, 1),
        ({U.INF: 3}, 2),
        ({U.ARM: 1}, 1),
        ({U.ARM: 1, U.INF: 1}, 2),
        ({U.AA: 1}, 1),
        ({U.INF: 8}, 4),
    ],
)
def test_cargo_slots(units: dict[U, int], slots: int) -> None:
    """A transport holds 1 or 2 INF, or 1 ARM, or 1 AA gun: no INF+ARM mix [W12]; the rule
    book's example puts 8 INF on 4 TRN."""
    assert cargo_slots(Units.of(units)) == slots


def test_count_agrees_with_indexing() -> None:
    units = Units.of({U.INF: 3, U.BB: 1})
    assert [units.count(u) for u in U] == [units[u] for u in U] == [3, 0, 0, 0, 0, 0, 0, 1, 0, 0]


@pytest.mark.parametrize(
    ("units", "owners", "complaint"),
    [
        ({"Germany": {G: {U.BB: 1}}}, {}, "is land"),
        ({"North Sea Zone": {UK: {U.IC: 1}}}, {}, "cannot be at sea"),
        ({"North Sea Zone": {UK: {U.BMB: 1}}}, {}, "cannot be at sea"),
        ({"North Sea Zone": {UK: {U.INF: 3, U.TRN: 1}}}, {}, "do not fit aboard"),
        ({"North Sea Zone": {UK: {U.FTR: 3, U.AC: 1}}}, {}, "hold only 2"),
        ({"Germany": {UK: {U.INF: 1}}}, {}, "held by GERMANY"),
        ({"Sweden": {G: {U.INF: 1}}}, {}, "held by nobody"),
        ({"Germany": {G: {U.IC: 2}}}, {}, "industrial complexes"),
        ({}, {"North Sea Zone": UK}, "has no owner"),
    ],
)
def test_impossible_positions_are_refused(
    units: dict[str, dict[Power, dict[U, int]]],
    owners: dict[str, Power],
    complaint: str,
) -> None:
    with pytest.raises(PositionError, match=complaint):
        arranged(units, owners=owners)


def test_allied_cargo_and_fighters_count_against_the_sides_ships() -> None:
    """Land units at sea ride their side's transports; fighters at sea their side's carriers
    (a carrier holds two fighters, its own or an ally's [SPEC p.14,16])."""
    p = arranged({"North Sea Zone": {UK: {U.AC: 1, U.FTR: 1}, US: {U.FTR: 1}}})
    assert p.units_of("North Sea Zone", US) == Units.of({U.FTR: 1})
    with pytest.raises(PositionError):
        arranged({"North Sea Zone": {UK: {U.AC: 1, U.FTR: 2}, US: {U.FTR: 1}}})


def test_a_position_can_be_built_unchecked() -> None:
    """The post-combat check keeps a wrong position as the orders make it, to report it."""
    p = Position.of(
        classic(), owners={}, units={"Germany": {UK: Units.of({U.BB: 1})}}, checked=False
    )
    assert p.units_of("Germany", UK) == Units.of({U.BB: 1})
