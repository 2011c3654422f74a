"""A battle's verdict, as the service builds it from the engine's result, its JSON, or a
bombing raid's roll entry."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from adjudicator.battle import (
    BattleSetup,
    Outcome,
    RoundInput,
    resolve,
    resolve_json,
)
from adjudicator.powers import Power
from adjudicator.rolls import BombingRoll, Draw, RollHeader
from adjudicator.turns import (
    BattleOutcome,
    VerdictError,
    outcome_from_json,
    outcome_of,
    raid_outcome,
    raid_outcome_from_entry,
)
from adjudicator.units import Battlefield, Units
from adjudicator.units import UnitType as U

SEA_WITH_WITHDRAWAL = {
    "version": 1,
    "kind": "sea",
    "attacker": {"BB": 1, "FTR": 1},
    "defender": {"SUB": 2, "TRN": 1},
    "rounds": [
        {
            "attacker": {"BB": [1], "FTR": [6]},
            "defender": {"SUB": [6, 6]},
            "casualties": {"defender": {"TRN": 1}},
            "withdraw": {"defender": 1},
        }
    ],
}
"""The battleship sinks the transport; one sub withdraws, one stays to fight on."""


def stream(dice: list[int]) -> Draw:
    supply: Iterator[int] = iter(dice)
    return lambda n: [next(supply) for _ in range(n)]


def test_from_the_engines_result() -> None:
    setup = BattleSetup(
        Battlefield.LAND, Units.of({U.INF: 2, U.ARM: 1}), Units.of({U.INF: 1, U.AA: 1})
    )
    result = resolve(setup, [RoundInput(attacker={U.INF: (1, 6), U.ARM: (6,)}, defender={})])
    verdict = outcome_of(result, retreat_to="Karelia S.S.R.")
    assert verdict == BattleOutcome(
        Units.of({U.INF: 2, U.ARM: 1}), Units(), Outcome.ATTACKER_WINS, "Karelia S.S.R."
    )
    assert not verdict.is_raid and not verdict.retreating


def test_from_the_json_with_withdrawn_subs() -> None:
    doc = resolve_json(SEA_WITH_WITHDRAWAL)
    verdict = outcome_from_json(doc, withdraw_to="Baltic Sea Zone")
    assert verdict.defender_survivors == Units.of({U.SUB: 1})
    assert verdict.defender_withdrawn == Units.of({U.SUB: 1})
    assert verdict.outcome is Outcome.CONTINUES and verdict.retreating
    assert verdict.withdraw_to == "Baltic Sea Zone"


def test_from_a_turn_documents_battle() -> None:
    doc = resolve_json({"version": 1, "battles": [SEA_WITH_WITHDRAWAL]})
    battle = doc["battles"][0]
    assert outcome_from_json(battle).attacker_survivors == Units.of({U.BB: 1, U.FTR: 1})


@pytest.mark.parametrize(
    "doc",
    [
        {"outcome": "attacker-wins"},
        {"survivors": {"attacker": {}, "defender": {}}, "outcome": "won"},
        {"survivors": {"attacker": {"TANK": 1}, "defender": {}}, "outcome": "attacker-wins"},
        {"survivors": {"attacker": [], "defender": {}}, "outcome": "attacker-wins"},
    ],
)
def test_malformed_json_is_a_verdict_error(doc: dict[str, object]) -> None:
    with pytest.raises(VerdictError):
        outcome_from_json(doc)
    assert issubclass(VerdictError, ValueError)


def test_a_raid_from_its_roll_entry() -> None:
    """Facts sheet 6: "AA fires first (1 die per bomber, a 1 kills)"; the survivors' dice
    are the damage."""
    roll = BombingRoll(RollHeader(3, 3, Power.UK), "Germany", 3, 1, False)
    data = roll.record("x", stream([1, 4, 2, 5, 6]))
    verdict = raid_outcome_from_entry(data)
    assert verdict.is_raid and verdict.damage == 11
    assert verdict.attacker_survivors == Units.of({U.BMB: 2})


def test_every_bomber_shot_down() -> None:
    verdict = raid_outcome(2, 2, 0)
    assert verdict.attacker_survivors == Units() and verdict.outcome is Outcome.DEFENDER_WINS


@pytest.mark.parametrize(("bombers", "down", "damage"), [(1, 2, 0), (1, 0, -1), (-1, 0, 0)])
def test_an_impossible_raid(bombers: int, down: int, damage: int) -> None:
    with pytest.raises(VerdictError):
        raid_outcome(bombers, down, damage)


def test_a_raid_entry_missing_a_key() -> None:
    with pytest.raises(VerdictError, match="damage"):
        raid_outcome_from_entry({"bombers": 1, "shot_down": 0})
