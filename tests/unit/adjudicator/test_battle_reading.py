"""Reading battle documents: malformed input raises a precise ValueError naming the field."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from adjudicator.battle import BattleInputError, read_battle, resolve_json
from adjudicator.battle.errors import (
    ImpossibleForces,
    InvalidValue,
    MissingField,
    UnknownField,
    UnknownTechnology,
    UnknownUnit,
    UnsupportedVersion,
    WrongType,
)
from adjudicator.units import Battlefield, Side, Technology, UnitType

U = UnitType

GOOD: dict[str, Any] = {
    "version": 1,
    "kind": "sea",
    "attacker": {"BB": 1, "SUB": 1, "FTR": 1},
    "defender": {"TRN": 2, "AC": 1, "FTR": 2},
    "order_of_loss": {"defender": ["TRN", "FTR", "AC"]},
    "loaded": {"AC": 1, "TRN": 2},
    "technologies": {"attacker": ["super subs"], "defender": ["Jet-Power"]},
    "rounds": [
        {
            "subs": [3],
            "attacker": {"BB": [4], "FTR": [5]},
            "defender": {"TRN": [1, 2], "AC": [3], "FTR": [4, 5]},
            "casualties": {"defender": {"TRN": 1}},
            "withdraw": {"attacker": 1},
            "retreat": 0,
        }
    ],
}


def test_a_complete_document_reads() -> None:
    read = read_battle(GOOD)
    setup = read.setup
    assert setup.battlefield is Battlefield.SEA
    assert setup.defender.as_dict() == {U.TRN: 2, U.FTR: 2, U.AC: 1}
    assert setup.defender_order is not None
    assert setup.defender_order.units == (U.TRN, U.FTR, U.AC)
    assert setup.defender_order.side is Side.DEFENDER
    assert (setup.carrier_fighters, setup.transport_cargo) == (1, 2)
    assert setup.attacker_technologies == {Technology.SUPER_SUBS}
    assert setup.defender_technologies == {Technology.JET_POWER}
    first = read.rounds[0]
    assert first.subs == (3,) and first.attacker[U.FTR] == (5,)
    assert first.chosen.defender is not None and first.chosen.defender.as_dict() == {U.TRN: 1}
    assert first.withdraw_attacker == 1 and not first.retreat


def test_unit_names_any_case_and_iaapa_spellings() -> None:
    doc = {
        "version": 1,
        "kind": "LAND",
        "attacker": {"inf": 2, "Tnk": 1},
        "defender": {"Inf": 1},
        "rounds": [],
    }
    assert read_battle(doc).setup.attacker.as_dict() == {U.INF: 2, U.ARM: 1}


def mutated(path: str, value: Any) -> dict[str, Any]:
    """GOOD with the value at a dotted path replaced (``...=DELETE`` removes the key)."""
    doc = copy.deepcopy(GOOD)
    *parents, last = path.split(".")
    node: Any = doc
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    if value is DELETE:
        del node[last]
    elif isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return doc


DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "error", "field"),
    [
        ("version", 2, UnsupportedVersion, "version"),
        ("version", True, UnsupportedVersion, "version"),
        ("version", DELETE, MissingField, "version"),
        ("kind", DELETE, MissingField, "kind"),
        ("kind", "air", InvalidValue, "kind"),
        ("amphibious", 2, InvalidValue, "amphibious"),
        ("amphibious", True, WrongType, "amphibious"),
        ("attacker", [1], WrongType, "attacker"),
        ("attacker.BB", "1", WrongType, "attacker.BB"),
        ("attacker.BB", -1, InvalidValue, "attacker.BB"),
        ("attacker.DD", 1, UnknownUnit, "attacker.DD"),
        ("attacker.bb", 1, InvalidValue, "attacker.bb"),
        ("defender.INF", 1, ImpossibleForces, "defender.INF"),
        ("defender.AA", 1, ImpossibleForces, "defender.AA"),
        ("order_of_loss.defender", ["TRN", "TRN"], InvalidValue, "order_of_loss.defender"),
        ("order_of_loss.defender", ["TRN", "AA"], ImpossibleForces, "order_of_loss.defender"),
        ("order_of_loss.defender", ["TRN", "XX"], UnknownUnit, "order_of_loss.defender[1]"),
        ("order_of_loss.both", [], UnknownField, "order_of_loss.both"),
        ("loaded.TRN", 5, ImpossibleForces, "loaded.TRN"),
        ("loaded.AC", 3, ImpossibleForces, "loaded.AC"),
        ("loaded.BB", 1, UnknownField, "loaded.BB"),
        ("technologies.attacker", ["Death Ray"], UnknownTechnology, "technologies.attacker[0]"),
        ("rounds", {}, WrongType, "rounds"),
        ("rounds.0.attacker.BB", [4, "6"], WrongType, "rounds[0].attacker.BB[1]"),
        ("rounds.0.attacker.BB", [4.0], WrongType, "rounds[0].attacker.BB[0]"),
        ("rounds.0.aa", 1, WrongType, "rounds[0].aa"),
        ("rounds.0.retreat", 3, InvalidValue, "rounds[0].retreat"),
        ("rounds.0.withdraw", {"attacker": -1}, InvalidValue, "rounds[0].withdraw.attacker"),
        ("rounds.0.casualties", {"everyone": {}}, UnknownField, "rounds[0].casualties.everyone"),
        ("rounds.0.defenders", {}, UnknownField, "rounds[0].defenders"),
        ("order_of_losses", {}, UnknownField, "order_of_losses"),
    ],
)
def test_malformed_input_names_the_field(
    path: str,
    value: Any,
    error: type[BattleInputError],
    field: str,
) -> None:
    with pytest.raises(error) as raised:
        resolve_json(mutated(path, value))
    assert raised.value.field == field
    assert isinstance(raised.value, ValueError)
    assert str(raised.value).startswith(f"{field}: ")


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        (
            {"version": 1, "kind": "land", "attacker": {"SUB": 1}, "defender": {"INF": 1}},
            "attacker.SUB",
        ),
        (
            {"version": 1, "kind": "land", "attacker": {"BB": 1, "INF": 1}, "defender": {"INF": 1}},
            "attacker.BB",
        ),
        (
            {"version": 1, "kind": "land", "attacker": {"AA": 1}, "defender": {"INF": 1}},
            "attacker.AA",
        ),
        (
            {"version": 1, "kind": "sea", "attacker": {"INF": 1}, "defender": {"TRN": 1}},
            "attacker.INF",
        ),
        (
            {"version": 1, "kind": "sea", "attacker": {"BB": 1}, "defender": {"BMB": 1}},
            "defender.BMB",
        ),
        ({"version": 1, "kind": "land", "attacker": {}, "defender": {"INF": 1}}, "attacker"),
        (
            {
                "version": 1,
                "kind": "land",
                "attacker": {"BB": 1},
                "defender": {"INF": 1},
                "amphibious": 1,
            },
            "attacker",
        ),
        (
            {
                "version": 1,
                "kind": "land",
                "attacker": {"INF": 1},
                "defender": {"INF": 1},
                "loaded": {"TRN": 1},
            },
            "loaded.TRN",
        ),
    ],
)
def test_forces_no_battle_can_have(doc: dict[str, Any], field: str) -> None:
    with pytest.raises(ImpossibleForces) as raised:
        resolve_json(doc)
    assert raised.value.field == field


def test_turn_document_errors_name_the_battle() -> None:
    with pytest.raises(UnknownUnit) as raised:
        resolve_json(
            {
                "version": 1,
                "battles": [
                    {"kind": "land", "attacker": {"INF": 1}, "defender": {"INF": 1}},
                    {"kind": "land", "attacker": {"XYZ": 1}, "defender": {"INF": 1}},
                ],
            }
        )
    assert raised.value.field == "battles[1].attacker.XYZ"


@pytest.mark.parametrize(
    ("doc", "error", "field"),
    [
        ({"battles": []}, MissingField, "version"),
        ({"version": 1, "battles": {}}, WrongType, "battles"),
        ({"version": 1, "battles": [], "kind": "land"}, UnknownField, "kind"),
        (
            {
                "version": 1,
                "battles": [{"version": 2, "kind": "land", "attacker": {"INF": 1}, "defender": {}}],
            },
            UnsupportedVersion,
            "battles[0].version",
        ),
    ],
)
def test_turn_document_shape(
    doc: dict[str, Any], error: type[BattleInputError], field: str
) -> None:
    with pytest.raises(error) as raised:
        resolve_json(doc)
    assert raised.value.field == field


def test_not_an_object() -> None:
    with pytest.raises(WrongType):
        resolve_json([])  # type: ignore[arg-type]
