"""Low Luck rounds played by the battle engine and replayed from the ledger (issue 18, point
3): the volleys' recorded powers checked against the units present, their hits taken by the
orders of loss, an AA hit's throw completed by the next roll.

TripleA rule book, "Low Luck vs. Dice": "all of the attacker's units have their attack powers
added together. The total is then divided by the dice sides (6), and if there is any
remainder it is rolled for."
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from adjudicator.battle import BattleInputError, resolve_json
from adjudicator.diagnostics import Rule
from adjudicator.powers import Power
from adjudicator.rolls import BattleRoll, RollHeader, battle_document, replay
from adjudicator.rolls.lowluck import LowLuckRoll
from adjudicator.rolls.replay import EntryError
from adjudicator.units import UnitType as U


def shot(side: str, fire: str, power: int, hits: int) -> dict[str, Any]:
    return {"side": side, "fire": fire, "power": power, "hits": hits}


def land(attacker: dict[str, int], defender: dict[str, int], *rounds: list[Any]) -> dict[str, Any]:
    return {
        "version": 1,
        "kind": "land",
        "attacker": attacker,
        "defender": defender,
        "rounds": [{"low_luck": r} for r in rounds],
    }


def rules(result: dict[str, Any]) -> list[str]:
    return [d["rule"] for d in result["diagnostics"] if d["severity"] == "error"]


class TestTheEngine:
    def test_hits_come_from_the_volleys_and_casualties_from_the_order_of_loss(self) -> None:
        # 3 INF + 1 ARM attack (power 6: 1 sure hit); 2 INF defend (power 4).
        doc = land(
            {"INF": 3, "ARM": 1},
            {"INF": 2},
            [shot("attacker", "units", 6, 1), shot("defender", "units", 4, 1)],
            [shot("attacker", "units", 5, 1), shot("defender", "units", 2, 0)],
        )
        result = resolve_json(doc)
        assert rules(result) == []
        first, second = result["rounds"]
        assert first["attacker_casualties"] == {"INF": 1}  # INF first, by the default
        assert first["defender_casualties"] == {"INF": 1}
        # round 2: 2 INF + 1 ARM, power 5, against the last INF (power 2)
        assert second["attacker_hits"] == 1 and result["outcome"] == "attacker-wins"

    def test_a_power_that_is_not_the_units_present_is_a_rolling_error(self) -> None:
        doc = land(
            {"INF": 3, "ARM": 1},
            {"INF": 2},
            [shot("attacker", "units", 9, 1), shot("defender", "units", 4, 0)],
        )
        result = resolve_json(doc)
        assert Rule.TOO_MANY_UNITS.value in rules(result)
        message = next(d["message"] for d in result["diagnostics"] if d["severity"] == "error")
        assert "power 9 thrown" in message and "power 6" in message

    def test_a_missing_volley_is_too_few_units(self) -> None:
        doc = land({"INF": 3}, {"INF": 2}, [shot("attacker", "units", 3, 0)])
        assert Rule.TOO_FEW_UNITS.value in rules(resolve_json(doc))

    def test_hits_no_die_could_give_are_refused(self) -> None:
        # power 4: no sure hit, one die at 4 or less: 0 or 1 hit, never 2
        doc = land(
            {"INF": 4},
            {"INF": 2},
            [shot("attacker", "units", 4, 2), shot("defender", "units", 4, 0)],
        )
        result = resolve_json(doc)
        assert Rule.LOW_LUCK.value in rules(result)
        assert result["rounds"][0]["defender_casualties"] == {}

    def test_aa_hits_take_aircraft_before_the_units_fire(self) -> None:
        # AA against 2 FTR + 1 BMB: power 3; the FTR go first by the attacker's default
        doc = land(
            {"INF": 2, "FTR": 2, "BMB": 1},
            {"INF": 3, "AA": 1},
            [
                shot("defender", "aa", 3, 1),
                shot("attacker", "units", 2 + 3 + 4, 1),
                shot("defender", "units", 6, 1),
            ],
        )
        result = resolve_json(doc)
        assert rules(result) == []
        assert result["rounds"][0]["aa_hits"] == 1
        assert result["rounds"][0]["attacker_casualties"] == {"INF": 1, "FTR": 1}

    def test_the_reader_refuses_dice_beside_volleys_and_unknown_fires(self) -> None:
        bad = land({"INF": 1}, {"INF": 1}, [shot("attacker", "units", 1, 0)])
        bad["rounds"][0]["attacker"] = {"INF": [3]}
        with pytest.raises(BattleInputError, match=r"rounds\[0\]\.attacker"):
            resolve_json(bad)
        with pytest.raises(BattleInputError, match="fire"):
            resolve_json(land({"INF": 1}, {"INF": 1}, [shot("attacker", "guns", 1, 0)]))
        with pytest.raises(BattleInputError, match="twice"):
            resolve_json(
                land(
                    {"INF": 1},
                    {"INF": 1},
                    [shot("attacker", "units", 1, 0), shot("attacker", "units", 1, 0)],
                )
            )


def stream(*dice: int) -> Callable[[int], list[int]]:
    """The dice server's draw: one stream over the entry, in thrown order."""
    left = list(dice)

    def draw(n: int) -> list[int]:
        out, left[:n] = left[:n], []
        assert len(out) == n, "the test ran out of dice"
        return out

    return draw


def entry(
    seq: int,
    attacker: Sequence[tuple[U, int]],
    defender: Sequence[tuple[U, int]],
    dice: Sequence[int],
    *,
    battle: str = "Ukraine",
    options: Sequence[str] = (),
) -> dict[str, Any]:
    roll = LowLuckRoll(
        BattleRoll.of(
            RollHeader(1, 1, Power.GERMANY),
            battle,
            tuple(attacker),
            tuple(defender),
            options=list(options),
        )
    )
    data = roll.record("g@example.org", stream(*dice))
    return {"seq": seq, "kind": "low-luck-roll", "data": data}


class TestReplayFromTheLedger:
    def test_an_aa_hit_entry_and_the_survivors_roll_are_one_round(self) -> None:
        # 3 INF, 2 FTR, 1 BMB against 3 INF and an AA gun: the AA die (power 3) hits on 2
        aa = entry(1, [(U.INF, 3), (U.FTR, 2), (U.BMB, 1)], [(U.INF, 3), (U.AA, 1)], [2])
        assert [v["fire"] for v in aa["data"]["volleys"]] == ["aa"]
        # the attacker names a fighter lost and rolls round 1 for the rest (no AA this time)
        main = entry(2, [(U.INF, 3), (U.FTR, 1), (U.BMB, 1)], [(U.INF, 3)], [6, 1])
        doc = battle_document([aa, main])
        assert len(doc["rounds"]) == 1
        assert [s["fire"] for s in doc["rounds"][0]["low_luck"]] == ["aa", "units", "units"]
        result = replay([aa, main])
        assert rules(result) == []
        [first] = result["rounds"]
        assert first["aa_hits"] == 1
        # attacker power 3 + 3 + 4 = 10: 1 sure, die 6 misses; defender 6: 1 sure, no die
        assert first["attacker_hits"] == 1 and first["defender_hits"] == 2  # AA hit included
        assert first["attacker_casualties"] == {"INF": 1, "FTR": 1}
        assert first["defender_casualties"] == {"INF": 1}

    def test_a_survivors_roll_that_still_counts_the_downed_fighter_is_too_many_units(
        self,
    ) -> None:
        aa = entry(1, [(U.INF, 3), (U.FTR, 2), (U.BMB, 1)], [(U.INF, 3), (U.AA, 1)], [1])
        main = entry(2, [(U.INF, 3), (U.FTR, 2), (U.BMB, 1)], [(U.INF, 3)], [6])
        result = replay([aa, main])
        assert Rule.TOO_MANY_UNITS.value in rules(result)

    def test_a_round_with_no_aa_hit_is_one_entry(self) -> None:
        one = entry(1, [(U.INF, 3), (U.FTR, 1)], [(U.INF, 2), (U.AA, 1)], [6, 1])
        assert [v["fire"] for v in one["data"]["volleys"]] == ["aa", "units", "units"]
        result = replay([one])
        assert rules(result) == [] and result["rounds"][0]["aa_hits"] == 0
        # AA power 1: die 6 misses; attacker 3 + 3 = 6: 1 sure hit; defender 4: die 1 hits
        assert result["rounds"][0]["defender_casualties"] == {"INF": 1}
        assert result["rounds"][0]["attacker_casualties"] == {"INF": 1}

    def test_subs_rolled_first_open_the_round(self) -> None:
        # 2 SUB (power 4) rolled first at 3 TRN: the die 1 hits; the BB's main roll follows
        sea = "Baltic Sea Zone"
        first = entry(1, [(U.SUB, 2), (U.BB, 1)], [(U.TRN, 3)], [1], battle=sea,
                      options=["subs-first"])  # fmt: skip
        assert [v["fire"] for v in first["data"]["volleys"]] == ["subs"]
        main = entry(2, [(U.BB, 1)], [(U.TRN, 2)], [6, 6], battle=sea)
        doc = battle_document([first, main])
        assert [s["fire"] for s in doc["rounds"][0]["low_luck"]] == [
            "first-strike",
            "units",
            "units",
        ]
        result = replay([first, main])
        assert rules(result) == []
        [one] = result["rounds"]
        assert one["first_strike_hits"] == 1 and one["defender_casualties"] == {"TRN": 1}
        assert result["survivors"]["defender"] == {"TRN": 2}

    def test_dice_and_low_luck_rounds_are_not_one_battle(self) -> None:
        lucky = entry(1, [(U.INF, 1)], [(U.INF, 1)], [1, 1])
        dice = {**lucky, "seq": 2, "kind": "roll", "data": {**lucky["data"], "groups": []}}
        with pytest.raises(EntryError, match="dice and by Low Luck"):
            battle_document([lucky, dice])

    def test_an_entry_without_volleys_is_refused(self) -> None:
        broken = entry(1, [(U.INF, 1)], [(U.INF, 1)], [1, 1])
        del broken["data"]["volleys"]
        with pytest.raises(EntryError, match="volleys"):
            battle_document([broken])
