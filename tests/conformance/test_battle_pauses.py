"""IAAPA Default Orders of Loss, exceptions: the rounds after which the attacker MUST pause.

Each condition has its twin: the nearest battle in which no pause is owed.
"""

from __future__ import annotations

from typing import Any, ClassVar

from tests.conformance.cases import battle, misses


def pause(out: dict[str, Any], round_: int = 1) -> dict[str, Any] | None:
    found: dict[str, Any] | None = out["rounds"][round_ - 1]["pause"]
    return found


class TestNavalBattle:
    """If a naval battle has a defending SUB, AC loaded with aircraft, or loaded TRNs and any
    of these units can survive the particular round of battle, the attacker MUST pause and
    ask the defender to identify the casualties prior to rolling the next round. If the
    defending SUB survives then the defender will indicate the sea zone to which it will
    withdraw"""

    def test_sub_that_can_survive(self) -> None:
        """SUB and BB hit once: the default order sinks the SUB, but the defender could lose
        the BB instead, so the sub "can survive": pause, whatever the default says."""
        out = battle(
            "sea",
            {"BB": 1},
            {"SUB": 1, "BB": 1},
            {"attacker": {"BB": [1]}, "defender": misses(SUB=1, BB=1)},
        )
        assert out["rounds"][0]["defender_casualties"] == {"SUB": 1}
        assert (found := pause(out)) is not None and found["reason"] == "sub"

    def test_twin_sub_that_cannot_survive(self) -> None:
        """Twin: a lone SUB hit once cannot survive: no pause."""
        out = battle(
            "sea", {"BB": 2}, {"SUB": 1}, {"attacker": {"BB": [1, 6]}, "defender": misses(SUB=1)}
        )
        assert pause(out) is None

    def test_twin_hits_enough_for_everything(self) -> None:
        """Twin: SUB and BB hit twice: nothing can survive, no pause."""
        out = battle(
            "sea",
            {"BB": 2},
            {"SUB": 1, "BB": 1},
            {"attacker": {"BB": [1, 2]}, "defender": misses(SUB=1, BB=1)},
        )
        assert pause(out) is None

    def test_sub_hits_cannot_shield_a_sub_behind_aircraft(self) -> None:
        """Two submarine hits on SUB, AC and one FTR aboard must sink the SUB and the AC
        (subs never hit aircraft), so neither can survive: no pause."""
        out = battle(
            "sea",
            {"SUB": 2},
            {"SUB": 1, "AC": 1, "FTR": 1},
            {"attacker": {"SUB": [1, 2]}, "defender": misses(SUB=1, AC=1, FTR=1)},
        )
        assert out["rounds"][0]["defender_casualties"] == {"SUB": 1, "AC": 1}
        assert pause(out) is None

    def test_twin_the_same_hits_from_fighters(self) -> None:
        """Twin: two fighter hits may take the FTR and the AC, so the SUB can survive."""
        out = battle(
            "sea",
            {"FTR": 2},
            {"SUB": 1, "AC": 1, "FTR": 1},
            {"attacker": {"FTR": [1, 2]}, "defender": misses(SUB=1, AC=1, FTR=1)},
        )
        assert (found := pause(out)) is not None and "sub" in found["reasons"]

    def test_surviving_sub_without_hits_still_pauses_to_withdraw(self) -> None:
        """Judgement: no hits leave no casualties to identify, but "If the defending SUB
        survives then the defender will indicate the sea zone to which it will withdraw"."""
        out = battle(
            "sea", {"BB": 1}, {"SUB": 1}, {"attacker": {"BB": [6]}, "defender": misses(SUB=1)}
        )
        found = pause(out)
        assert found is not None and found["reason"] == "sub"
        assert "withdrawal" in found["message"]

    def test_twin_no_hits_and_no_attacker_left_to_withdraw_from(self) -> None:
        """Twin: no hits, and the last attacker sunk: the battle is over, nothing to ask."""
        out = battle(
            "sea", {"BB": 1}, {"SUB": 1}, {"attacker": {"BB": [6]}, "defender": {"SUB": [1]}}
        )
        assert out["outcome"] == "defender-wins"
        assert pause(out) is None

    def test_carrier_loaded_with_aircraft(self) -> None:
        """An AC with a fighter aboard, hit once: the defender may lose the fighter or the
        carrier, so the loaded AC can survive: pause."""
        out = battle(
            "sea",
            {"BB": 1},
            {"AC": 1, "FTR": 1},
            {"attacker": {"BB": [2]}, "defender": misses(AC=1, FTR=1)},
            loaded={"AC": 1},
        )
        assert (found := pause(out)) is not None and found["reason"] == "loaded-carrier"

    def test_twin_empty_carrier(self) -> None:
        """Twin: an empty AC beside a TRN, hit once: neither is a pause unit: no pause."""
        out = battle(
            "sea",
            {"BB": 1},
            {"AC": 1, "TRN": 1},
            {"attacker": {"BB": [2]}, "defender": misses(AC=1, TRN=1)},
        )
        assert pause(out) is None

    def test_twin_loaded_carrier_that_cannot_survive(self) -> None:
        """Twin: AC and its FTR hit twice: the carrier cannot survive: no pause."""
        out = battle(
            "sea",
            {"BB": 2},
            {"AC": 1, "FTR": 1},
            {"attacker": {"BB": [2, 3]}, "defender": misses(AC=1, FTR=1)},
        )
        assert pause(out) is None

    def test_loaded_transport(self) -> None:
        """Two TRN, one carrying INF, hit once: the loaded TRN can survive: pause."""
        out = battle(
            "sea",
            {"BB": 1},
            {"TRN": 2},
            {"attacker": {"BB": [4]}, "defender": misses(TRN=2)},
            loaded={"TRN": 1},
        )
        assert (found := pause(out)) is not None and found["reason"] == "loaded-transport"

    def test_twin_empty_transports(self) -> None:
        """Twin: the same two TRN, empty: no pause."""
        out = battle(
            "sea", {"BB": 1}, {"TRN": 2}, {"attacker": {"BB": [4]}, "defender": misses(TRN=2)}
        )
        assert pause(out) is None

    def test_every_surviving_kind_is_named(self) -> None:
        """SUB, loaded AC and loaded TRN all able to survive one hit: three reasons, in the
        rule's order."""
        out = battle(
            "sea",
            {"BB": 1},
            {"SUB": 1, "AC": 1, "FTR": 1, "TRN": 1},
            {"attacker": {"BB": [1]}, "defender": misses(SUB=1, AC=1, FTR=1, TRN=1)},
            loaded={"TRN": 2},
        )
        found = pause(out)
        assert found is not None
        assert found["reasons"] == ["sub", "loaded-carrier", "loaded-transport"]


class TestLandBattle:
    """If a land battle has a defending BMB, and it can survive the particular round of
    battle, the attacker MUST pause and ask the defender to identify casualties prior to
    rolling the next round."""

    def test_bomber_that_can_survive(self) -> None:
        """INF and BMB hit once: pause (the default takes the INF, but the choice is his)."""
        out = battle(
            "land",
            {"ARM": 1},
            {"INF": 1, "BMB": 1},
            {"attacker": {"ARM": [3]}, "defender": misses(INF=1, BMB=1)},
        )
        assert (found := pause(out)) is not None and found["reason"] == "bomber"

    def test_twin_bomber_that_cannot_survive(self) -> None:
        """Twin: INF and BMB hit twice: no pause."""
        out = battle(
            "land",
            {"ARM": 2},
            {"INF": 1, "BMB": 1},
            {"attacker": {"ARM": [3, 1]}, "defender": misses(INF=1, BMB=1)},
        )
        assert pause(out) is None

    def test_twin_fighter_is_not_a_pause_unit(self) -> None:
        """Twin: a defending FTR in the bomber's place: no pause."""
        out = battle(
            "land",
            {"ARM": 1},
            {"INF": 1, "FTR": 1},
            {"attacker": {"ARM": [3]}, "defender": misses(INF=1, FTR=1)},
        )
        assert pause(out) is None

    def test_twin_no_hits_no_casualties_to_identify(self) -> None:
        """Judgement: a round without attacking hits has no casualties to identify."""
        out = battle(
            "land",
            {"ARM": 1},
            {"INF": 1, "BMB": 1},
            {"attacker": {"ARM": [6]}, "defender": misses(INF=1, BMB=1)},
        )
        assert pause(out) is None

    def test_support_shots_count_towards_the_round(self) -> None:
        """A support-shot hit and an attack hit together take INF and BMB: no pause."""
        out = battle(
            "land",
            {"INF": 1, "BB": 1},
            {"INF": 1, "BMB": 1},
            {"bombard": [4], "attacker": {"INF": [1]}, "defender": misses(INF=1, BMB=1)},
            amphibious=1,
        )
        assert out["rounds"][0]["defender_casualties"] == {"INF": 1, "BMB": 1}
        assert pause(out) is None


class TestRollingThroughAPause:
    """If the attacker rolls both attacker AND defender in these cases without pausing and
    allowing the defender to declare his OOL, and if following the OOL correctly MAY have
    resulted in a DIFFERENT battle outcome for the dice ACTUALLY ROLLED, the attacking rolls
    shall stand, and the defender shall have the option to"""

    ROUND_2: ClassVar[dict[str, Any]] = {"attacker": {"ARM": [6, 6]}, "defender": misses(BMB=1)}

    def test_next_round_rolled_without_the_pause_is_reported(self) -> None:
        """The attacking rolls stand (round 2 is used) and the defender's options are named."""
        out = battle(
            "land",
            {"ARM": 2},
            {"INF": 1, "BMB": 1},
            {"attacker": {"ARM": [3, 6]}, "defender": misses(INF=1, BMB=1)},
            self.ROUND_2,
        )
        assert len(out["rounds"]) == 2
        skipped = [d for d in out["diagnostics"] if "without the pause" in d["message"]]
        assert [(d["round"], d["severity"]) for d in skipped] == [(2, "warning")]

    def test_answered_pause_applies_the_defenders_choice(self) -> None:
        """The defender identifies the BMB as the casualty and keeps the INF; nothing is owed
        when round 2 is rolled."""
        out = battle(
            "land",
            {"ARM": 2},
            {"INF": 1, "BMB": 1},
            {
                "attacker": {"ARM": [3, 6]},
                "defender": misses(INF=1, BMB=1),
                "casualties": {"defender": {"BMB": 1}},
            },
            {"attacker": {"ARM": [6, 6]}, "defender": misses(INF=1)},
        )
        assert out["rounds"][0]["defender_casualties"] == {"BMB": 1}
        assert out["rounds"][0]["pause"]["answered"] == 1
        assert not [d for d in out["diagnostics"] if "without the pause" in d["message"]]
        assert out["survivors"]["defender"] == {"INF": 1}
