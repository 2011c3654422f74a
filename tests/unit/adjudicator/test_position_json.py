"""The position's versioned JSON: what ``pbem position initial > FILE`` writes and reads."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import adjudicator.position.serialize as serialize
from adjudicator.boards import classic
from adjudicator.position import (
    Position,
    PositionError,
    dump_json,
    initial,
    initial_json,
    load_json,
)
from adjudicator.powers import Power
from adjudicator.units import Technology, Units
from adjudicator.units import UnitType as U


def _walk(value: object) -> list[object]:
    if isinstance(value, dict):
        return [value, *(x for v in value.values() for x in _walk(v))]
    if isinstance(value, list):
        return [value, *(x for v in value for x in _walk(v))]
    return [value]


def test_the_initial_json_reads_back_as_the_initial_position() -> None:
    text = json.dumps(initial_json())
    assert load_json(json.loads(text)) == initial()


def test_the_initial_json_holds_integers_and_strings_only() -> None:
    """DESIGN: no floats, booleans or nulls in a stored document."""
    leaves = [v for v in _walk(initial_json()) if not isinstance(v, dict | list)]
    assert leaves and all(type(v) in (int, str) for v in leaves)


def test_the_initial_json_says_what_a_player_reads_on_the_board() -> None:
    data = initial_json()
    assert (data["version"], data["kind"], data["board"]) == (1, "position", "World War II Classic")
    assert data["to_move"] == "USSR" and data["round"] == 1
    assert data["banks"] == {"USSR": 24, "Germany": 32, "UK": 30, "Japan": 25, "USA": 36}
    assert data["owners"]["Karelia S.S.R."] == "USSR"
    assert "Sweden" not in data["owners"]
    assert data["units"]["West Europe"] == {"Germany": {"INF": 2, "ARM": 2, "FTR": 1, "AA": 1}}
    assert data["technologies"] == {}


def test_the_documented_format_lists_exactly_the_keys_written() -> None:
    doc = serialize.__doc__ or ""
    for key in initial_json():
        assert f'"{key}"' in doc


def test_technologies_and_changes_survive_the_round_trip() -> None:
    p = initial().with_owner("Anglo Sudan Egypt", Power.GERMANY).with_bank(Power.UK, 7)
    p = p.with_units("Anglo Sudan Egypt", Power.UK, Units())
    p = p.with_units("Anglo Sudan Egypt", Power.GERMANY, Units.of({U.ARM: 1}))
    p = Position.of(
        p.board,
        round=3,
        to_move=Power.JAPAN,
        owners=p.owners,
        units=p.units,
        bank=p.bank,
        technologies={
            Power.GERMANY: frozenset({Technology.JET_POWER, Technology.LONG_RANGE_AIRCRAFT})
        },
    )
    data = dump_json(p)
    assert data["technologies"] == {"Germany": ["Jet Power", "Long Range Aircraft"]}
    assert load_json(json.loads(json.dumps(data))) == p


def _broken(change: str) -> dict[str, Any]:
    data = copy.deepcopy(initial_json())
    if change == "unknown key":
        data["colour"] = "red"
    elif change == "version":
        data["version"] = 2
    elif change == "board":
        data["board"] = "Revised"
    elif change == "power":
        data["owners"]["Alaska"] = "Canada"
    elif change == "unit":
        data["units"]["Alaska"] = {"USA": {"DD": 1}}
    elif change == "place":
        data["units"]["Atlantis"] = {"USA": {"INF": 1}}
    elif change == "sea owner":
        data["owners"]["North Sea Zone"] = "UK"
    elif change == "count":
        data["units"]["Alaska"] = {"USA": {"INF": 0}}
    elif change == "boolean":
        data["banks"]["UK"] = True
    elif change == "float":
        data["round"] = 1.0
    elif change == "bank missing":
        del data["banks"]["UK"]
    elif change == "technology":
        data["technologies"] = {"UK": ["Radar"]}
    elif change == "ship on land":
        data["units"]["Alaska"] = {"USA": {"BB": 1}}
    return data


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        ("unknown key", "unknown key"),
        ("version", "not a version-1"),
        ("board", "Revised"),
        ("power", "Canada"),
        ("unit", "DD"),
        ("place", "Atlantis"),
        ("sea owner", "sea zone"),
        ("count", "at least 1"),
        ("boolean", "whole number"),
        ("float", "whole number"),
        ("bank missing", "no IPCs given for UK"),
        ("technology", "Radar"),
        ("ship on land", "is land"),
    ],
)
def test_a_bad_file_is_refused_saying_what_and_where(change: str, complaint: str) -> None:
    with pytest.raises(PositionError, match=complaint):
        load_json(_broken(change))


def test_a_non_object_is_refused() -> None:
    with pytest.raises(PositionError):
        load_json([1, 2, 3])


_SPACES = sorted(t.name for t in classic().land if t.original_owner is not None)


@settings(max_examples=40, deadline=None)
@given(
    moves=st.lists(
        st.tuples(st.sampled_from(_SPACES), st.sampled_from(list(Power)), st.integers(1, 9)),
        max_size=8,
    ),
    bank=st.integers(0, 200),
)
def test_any_position_round_trips(moves: list[tuple[str, Power, int]], bank: int) -> None:
    """Infantry of any power on any owned land (the land given to it) reads back equal."""
    p = initial().with_bank(Power.USA, bank)
    for territory, power, n in moves:
        for other in list(p.units_at(territory)):
            if other.alliance is not power.alliance:
                p = p.with_units(territory, other, Units())
        p = p.with_owner(territory, power).with_units(territory, power, Units.of({U.INF: n}))
    assert load_json(json.loads(json.dumps(dump_json(p)))) == p
