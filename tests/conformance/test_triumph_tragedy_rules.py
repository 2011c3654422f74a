"""Triumph & Tragedy's dice (:mod:`adjudicator.triumph_tragedy`) against its rule summary.

The dice are given (``draw`` hands out fixed values in order), so every case is worked by
hand from the summary's "Combat" section and the Unit Table (which the summary names but
does not print: firing order Fortress, Air Force, Carrier, Submarine, Fleet, Tank, Infantry;
firepower against A/N/G/S Fortress 2/3/4/3, Air Force 3/1/1/1, Carrier 2/2/1/2, Submarine
0/1/0/1, Fleet 1/3/1/2, Tank 0/0/2/0, Infantry 1/1/3/0). Each quote in a test class's
docstring is checked against the summary's text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjudicator.triumph_tragedy import (
    TTCombatRound,
    TTRollError,
    TTTurnOrderRoll,
    describe_tt_turn_order,
)
from tests.conformance.conftest import docstring_quotes
from tests.dice import PreparedDice, thrown_in_order

SUMMARY = (
    Path(__file__).resolve().parents[2].parent
    / "shared"
    / "rules"
    / "triumph-and-tragedy-1936-summary.md"
)


def u(name: str, cv: int, target: str | None = None, **more: Any) -> dict[str, Any]:
    unit: dict[str, Any] = {"unit": name, "cv": cv, **more}
    if target is not None:
        unit["target"] = target
    return unit


def battle(
    attacking: list[dict[str, Any]], defending: list[dict[str, Any]], /, **more: Any
) -> TTCombatRound:
    request = {
        "year": 1940,
        "season": "Summer",
        "area": "Poland",
        "battle": "land",
        "attacker": "Axis",
        "defender": "USSR",
        "units": {"attacker": attacking, "defender": defending},
        **more,
    }
    return TTCombatRound.from_request(request)


def sea(
    attacking: list[dict[str, Any]], defending: list[dict[str, Any]], /, **more: Any
) -> TTCombatRound:
    return battle(
        attacking, defending, **{"battle": "sea", "area": "North Sea", "defender": "West", **more}
    )


def fired(data: dict[str, Any]) -> list[tuple[str, int, list[int], int]]:
    """Each group as (id, CV it fired with, dice, hits)."""
    return [(g["id"], g["cv"], g["dice"], g["hits"]) for g in data["groups"]]


def cuts(data: dict[str, Any]) -> list[tuple[str, int, int]]:
    """Every reduction of the round in order, as (id, from, to)."""
    return [(r["id"], r["from"], r["to"]) for g in data["groups"] for r in g["reductions"]]


def after(data: dict[str, Any]) -> dict[str, int]:
    return {a["id"]: a["cv"] for side in ("attacker", "defender") for a in data["after"][side]}


class TestNavalRoundWorkedByHand:
    """A sea battle ("Sea battles: fought to conclusion", one round asked for at a time):
    the Axis attacks with a Submarine (2 CV), a Fleet (3) and an Air Force (2), all at N;
    the West defends with a Carrier (3) and a Fleet (2) firing at N and a Convoy (2).
    "units act in the order given by Unit Table", "roll # dice = CV of firing unit",
    "hit scored if result" at or under the firepower, "reduce *strongest* unit of the target
    class by 1CV", "Carriers and Convoys lose 2CV per hit", "eliminate unit if CV = 0".

    * Air Force A3, 2 dice at N1: 1, 4: one hit; the strongest N is the Carrier (3): 3 -> 1.
    * Carrier D1, now 1 die at N2: 2: a hit; the Axis N is the Fleet A2: 3 -> 2.
    * Submarine A1, 2 dice at N1: 1, 1: two hits (a 1 hits on either reading of the doubtful
      Submarine entry). The West Fleet (2) and Convoy (2) are equally strong: the Fleet,
      listed first, 2 -> 1; then the strongest is the Convoy (2): 2 -> 0, eliminated.
    * Fleets, the defender first: D2, now 1 die at N3: 3: a hit, A2 2 -> 1; A2, now 1 die: 5,
      a miss.
    * The Convoy never fires.
    """

    DICE = (1, 4, 2, 1, 1, 3, 5)

    def roll(self) -> TTCombatRound:
        return sea(
            [u("Submarine", 2, "N"), u("Fleet", 3, "N"), u("Air Force", 2, "N")],
            [u("Carrier", 3, "N"), u("Fleet", 2, "N"), u("Convoy", 2)],
        )

    def test_die_by_die(self) -> None:
        data = thrown_in_order(self.roll(), list(self.DICE))
        assert fired(data) == [
            ("A3", 2, [1, 4], 1),
            ("D1", 1, [2], 1),
            ("A1", 2, [1, 1], 2),
            ("D2", 1, [3], 1),
            ("A2", 1, [5], 0),
        ]
        assert [g["hit_on"] for g in data["groups"]] == [1, 2, 1, 3, 3]
        assert cuts(data) == [
            ("D1", 3, 1),
            ("A2", 3, 2),
            ("D2", 2, 1),
            ("D3", 2, 0),
            ("A2", 2, 1),
        ]
        assert after(data) == {"A1": 2, "A2": 1, "A3": 2, "D1": 1, "D2": 1, "D3": 0}
        assert data["eliminated"] == ["D3"]
        assert data["not_acting"] == [{"side": "defender", "id": "D3", "why": "does not fire"}]

    def test_every_group_counts_its_own_hits(self) -> None:
        data = thrown_in_order(self.roll(), list(self.DICE))
        for g in data["groups"]:
            assert g["hits"] == sum(1 for d in g["dice"] if d <= g["hit_on"])
        assert [d for g in data["groups"] for d in g["dice"]] == data["dice"] == list(self.DICE)


class TestFirstFire:
    """ "for each unit type, defending units act before attackers (unless attackers have
    FirstFire and defenders do not)"; a Declaration of War: "units of the Declarer have
    temporary First Fire capability for this Turn (negated by the Enemy having same
    capability)". An Axis Tank (2 CV) attacks a Soviet Tank (2 CV), both at G (Tank G2):
    whoever acts first throws 1, 2, two hits, and eliminates the other before it acts.
    """

    def round(self, **more: Any) -> dict[str, Any]:
        return thrown_in_order(battle([u("Tank", 2, "G")], [u("Tank", 2, "G")], **more), [1, 2])

    def test_attacking_tanks_with_first_fire_act_first(self) -> None:
        data = self.round(first_fire={"attacker": ["Tank"]})
        assert fired(data) == [("A1", 2, [1, 2], 2)]
        assert data["groups"][0]["first_fire"] == 1
        assert data["not_acting"] == [
            {"side": "defender", "id": "D1", "why": "eliminated before it acted"}
        ]

    def test_without_it_the_defender_acts_first(self) -> None:
        data = self.round()
        assert fired(data) == [("D1", 2, [1, 2], 2)]
        assert after(data) == {"A1": 0, "D1": 2}

    def test_the_declarer_has_first_fire(self) -> None:
        data = self.round(declarer_first_fire=1)
        assert fired(data) == [("A1", 2, [1, 2], 2)]
        assert data["first_fire"] == {"attacker": ["Tank"], "defender": []}

    def test_the_declarers_first_fire_is_negated_by_the_defenders(self) -> None:
        data = self.round(declarer_first_fire=1, first_fire={"defender": ["Tank"]})
        assert fired(data) == [("D1", 2, [1, 2], 2)]
        assert data["first_fire"] == {"attacker": ["Tank"], "defender": ["Tank"]}

    def test_first_fire_for_one_type_only(self) -> None:
        """The Tanks' First Fire does not move the Infantry: the defender's goes first."""
        data = thrown_in_order(
            battle(
                [u("Infantry", 1, "G")],
                [u("Infantry", 1, "G")],
                first_fire={"attacker": ["Tank"]},
            ),
            [6, 6],
        )
        assert [g["id"] for g in data["groups"]] == ["D1", "A1"]


class TestDefenderBeforeAttacker:
    """ "for each unit type, defending units act before attackers": two Fleets (3 CV) at sea,
    both at N (Fleet N3). The defender's fleet throws 1, 2, 6: two hits, the attacker's
    Fleet 3 -> 1, which then throws one die only."""

    def test_the_defending_fleet_fires_first(self) -> None:
        data = thrown_in_order(sea([u("Fleet", 3, "N")], [u("Fleet", 3, "N")]), [1, 2, 6, 3])
        assert fired(data) == [("D1", 3, [1, 2, 6], 2), ("A1", 1, [3], 1)]
        assert after(data) == {"A1": 1, "D1": 2}


class TestReducedBeforeActing:
    """ "roll # dice = CV of firing unit": the CV as it stands when the unit acts. An Air
    Force (3 CV) fires at G (Air Force G1) before the Infantry (4 CV) it attacks, which
    fires back at A (Infantry A1): 1, 1, 4 is two hits, the Infantry 4 -> 2, so it throws
    two dice, 1 and 6: one hit, the Air Force 3 -> 2."""

    def test_the_infantry_rolls_two_dice_not_four(self) -> None:
        dice = PreparedDice([1, 1, 4, 1, 6])
        data = battle([u("Air Force", 3, "G")], [u("Infantry", 4, "A")]).record("me", dice)
        assert dice.calls == [3, 2]
        assert fired(data) == [("A1", 3, [1, 1, 4], 2), ("D1", 2, [1, 6], 1)]
        assert after(data) == {"A1": 2, "D1": 2}


class TestExcessHits:
    """ "any excess hits are ignored": Infantry (4 CV) at G (Infantry G3) throws 1, 2, 3, 3:
    four hits on two Soviet Tanks of 1 CV; the first two eliminate them, the other two are
    ignored."""

    def test_two_hits_are_ignored(self) -> None:
        data = thrown_in_order(
            battle([u("Infantry", 4, "G")], [u("Tank", 1), u("Tank", 1)]), [1, 2, 3, 3]
        )
        group = data["groups"][0]
        assert (group["hits"], len(group["reductions"]), group["excess"]) == (4, 2, 2)
        assert data["eliminated"] == ["D1", "D2"]


class TestInvadedGroundUnits:
    """ "G units that Invaded this turn are revealed and then placed upright (they absorb
    hits normally but take no action this combat round: reveal normally afterwards)": a
    unit without a target does not fire, yet it is reduced like any other."""

    def test_the_invader_absorbs_hits_and_does_not_fire(self) -> None:
        data = thrown_in_order(battle([u("Infantry", 3)], [u("Infantry", 2, "G")]), [1, 6])
        assert fired(data) == [("D1", 2, [1, 6], 1)]
        assert cuts(data) == [("A1", 3, 2)]
        assert data["not_acting"] == [{"side": "attacker", "id": "A1", "why": "does not fire"}]


class TestTargets:
    """ "each firing unit must announce its target class"; "neutral Fortresses target Ground
    units first"; "Carriers can fire at N1 *and* immediately Retreat/ReBase"."""

    def test_a_neutral_fortress_fires_at_ground_units(self) -> None:
        with pytest.raises(TTRollError) as caught:
            battle(
                [u("Infantry", 2, "G"), u("Air Force", 2, "G")],
                [u("Fortress", 2, "A")],
                defender="Neutral",
            )
        assert caught.value.field == "units.defender[0].target"

    def test_a_scooting_carrier_hits_on_one_only(self) -> None:
        data = thrown_in_order(sea([u("Fleet", 2)], [u("Carrier", 2, "N", scoot=1)]), [2, 1])
        assert fired(data) == [("D1", 2, [2, 1], 1)]
        assert data["groups"][0]["hit_on"] == 1


class TestLandBattles:
    """ "Land battles: only one combat round per battle per turn"."""

    def test_a_second_round_is_refused(self) -> None:
        with pytest.raises(TTRollError) as caught:
            battle([u("Tank", 2, "G")], [u("Infantry", 2, "G")], round=2)
        assert caught.value.field == "round"

    def test_a_sea_battle_may_go_on(self) -> None:
        assert sea([u("Fleet", 2, "N")], [u("Fleet", 2, "N")], round=3).round == 3


class TestTurnOrder:
    """Year Start Phase: "Determine Turn Order: roll 1d6 and set turn order as per arrows on
    map board". The arrows are on the board, not in the text: the entry holds the die."""

    @pytest.mark.parametrize("die", [1, 2, 3, 4, 5, 6])
    def test_one_die(self, die: int) -> None:
        roll = TTTurnOrderRoll.from_request({"year": 1937, "faction": "Axis"})
        data = thrown_in_order(roll, [die])
        assert (data["die"], data["dice"], data["groups"]) == (
            die,
            [die],
            [{"roll": "turn order", "dice": [die]}],
        )
        assert describe_tt_turn_order(data)[-1] == (
            f"The die is {die}: set the turn order by the arrows on the map board for a {die}."
        )


def _summary() -> str:
    if not SUMMARY.is_file():
        pytest.fail(
            f"{SUMMARY} is missing: the conformance tests need ../shared beside the project"
        )
    return SUMMARY.read_text(encoding="utf-8")


@pytest.mark.parametrize("quote", docstring_quotes(globals()), ids=lambda q: q[:40])
def test_the_rules_quoted_are_in_the_summary(quote: str) -> None:
    assert " ".join(quote.split()) in " ".join(_summary().split())


def test_every_class_quotes_the_summary() -> None:
    classes = [v for k, v in globals().items() if k.startswith("Test") and isinstance(v, type)]
    assert classes
    for cls in classes:
        assert docstring_quotes({cls.__name__: cls}), cls.__name__
