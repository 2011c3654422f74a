"""The Board value: building, checking, querying, immutability."""

from __future__ import annotations

import dataclasses

import pytest

from adjudicator.boards import Board, BoardError, Canal, Player, Territory


def tiny(**overrides: object) -> Board:
    args: dict[str, object] = {
        "name": "Tiny",
        "players": [Player("Reds", "East"), Player("Blues", "West")],
        "territories": [
            Territory("Home", False, 5, "Reds", "Reds", True),
            Territory("Field", False, 1, "Blues"),
            Territory("Neutralia", False),
            Territory("Peak", False, impassable=True),
            Territory("Bay", True),
            Territory("Gulf", True),
        ],
        "connections": [
            ("Home", "Field"),
            ("Home", "Bay"),
            ("Bay", "Gulf"),
            ("Field", "Neutralia"),
            ("Neutralia", "Peak"),
            ("Field", "Gulf"),
        ],
        "canals": [Canal("Cut", frozenset({"Bay", "Gulf"}), frozenset({"Home"}))],
        "initial_units": {"Reds": {"Home": {"infantry": 3, "factory": 1}}},
        "starting_resources": {"Reds": {"PUs": 5}, "Blues": {"PUs": 1, "Oil": 2}},
        "unit_types": ["infantry", "factory"],
    }
    args.update(overrides)
    return Board.build(**args)  # type: ignore[arg-type]


def test_connections_are_made_symmetric() -> None:
    board = tiny()
    assert board.are_adjacent("Field", "Home") and board.are_adjacent("Home", "Field")
    assert not board.are_adjacent("Home", "Gulf")
    assert board.neighbours("Bay") == {"Home", "Gulf"}


def test_kinds_of_territory() -> None:
    board = tiny()
    assert [t.name for t in board.sea] == ["Bay", "Gulf"]
    assert [t.name for t in board.neutrals] == ["Neutralia"]
    assert board.territory("Peak").is_land and not board.territory("Peak").is_neutral
    assert board.capital_of("Reds").name == "Home"
    with pytest.raises(BoardError, match="Blues has no capital"):
        board.capital_of("Blues")


def test_resources_and_units() -> None:
    board = tiny()
    assert board.starting_ipcs("Reds") == 5
    assert board.starting_ipcs("Greens") == 0
    assert board.starting_resources["Blues"]["Oil"] == 2
    assert board.units_of("Reds")["Home"] == {"factory": 1, "infantry": 3}
    assert board.units_of("Blues") == {}


def test_sea_zones_next_to_land_and_canals() -> None:
    board = tiny()
    assert board.sea_zones_next_to("Field") == {"Gulf"}
    canal = board.canal_between("Gulf", "Bay")
    assert canal is not None and canal.name == "Cut"
    assert board.canal_between("Bay", "Home") is None


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"connections": [("Home", "Nowhere")]}, "unknown 'Nowhere'"),
        ({"connections": [("Home", "Home")]}, "connected to itself"),
        (
            {
                "territories": [Territory("A", False), Territory("A", True)],
                "connections": [],
                "canals": [],
                "initial_units": {},
            },
            "defined twice",
        ),
        ({"canals": [Canal("Cut", frozenset({"Bay", "Lake"}), frozenset())]}, "unknown 'Lake'"),
        ({"initial_units": {"Reds": {"Moon": {"infantry": 1}}}}, "unknown territory 'Moon'"),
    ],
)
def test_unsound_boards_are_refused(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(BoardError, match=message):
        tiny(**overrides)


def test_unknown_territory_lookups_are_board_errors() -> None:
    with pytest.raises(BoardError, match="Tiny has no territory 'Moon'"):
        tiny().neighbours("Moon")
    assert issubclass(BoardError, ValueError)


def test_a_board_cannot_be_changed_in_place() -> None:
    board = tiny()
    with pytest.raises(dataclasses.FrozenInstanceError):
        board.name = "Other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        board.territories["X"] = Territory("X", True)  # type: ignore[index]
    with pytest.raises(TypeError):
        board.units_of("Reds")["Home"]["infantry"] = 9  # type: ignore[index]


def test_with_connections_returns_a_new_board() -> None:
    board = tiny()
    changed = board.with_connections(
        add=[("Gulf", "Home")], remove=[("Bay", "Gulf")], clarification="TEST 1"
    )
    assert changed.are_adjacent("Home", "Gulf") and not changed.are_adjacent("Gulf", "Bay")
    assert changed.clarifications == ("TEST 1",)
    assert board.are_adjacent("Bay", "Gulf") and board.clarifications == ()
    with pytest.raises(BoardError, match="itself"):
        board.with_connections(add=[("Bay", "Bay")])


def test_equal_inputs_give_equal_boards_whatever_the_order() -> None:
    one = tiny()
    other = tiny(connections=list(reversed(one.connections())), unit_types=["factory", "infantry"])
    assert one == other
