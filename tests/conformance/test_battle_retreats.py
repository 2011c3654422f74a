"""Retreats: IAAPA Amphibious Assaults, Retreats, and Combat Resolution and Order of Battles."""

from __future__ import annotations

from typing import Any

from adjudicator.battle import resolve_json


def battle(
    kind: str,
    attacker: dict[str, int],
    defender: dict[str, int],
    *rounds: dict[str, Any],
    **extra: Any,
) -> dict[str, Any]:
    return {
        "kind": kind,
        "attacker": attacker,
        "defender": defender,
        "rounds": list(rounds),
        **extra,
    }


def resolve(doc: dict[str, Any]) -> dict[str, Any]:
    return resolve_json({"version": 1, **doc})


def misses(**units: int) -> dict[str, list[int]]:
    return {unit: [6] * n for unit, n in units.items()}


ONE_ROUND_EACH_SURVIVES = battle(
    "land",
    {"INF": 2, "ARM": 1},
    {"INF": 3},
    {"attacker": {"INF": [1, 6], "ARM": [6]}, "defender": {"INF": [1, 6, 6]}},
)
"""Round 1: one hit each way; 1 INF + 1 ARM attack on, 2 INF defend."""


class TestAmphibiousAssaults:
    """LAND BATTLE: The land battle may consist of land units from adjacent territories, air
    from anywhere, and potentially units from transports. If units are unloaded from a
    transport then the attacker may not retreat any ground units. It is a fight to the death
    and an exception to the normal retreating rules."""

    def test_no_retreat_once_units_have_unloaded(self) -> None:
        """The battle goes on after round 1, but the attacker may not retreat."""
        out = resolve({**ONE_ROUND_EACH_SURVIVES, "amphibious": 1})
        assert (out["outcome"], out["retreat_allowed"]) == ("continues", 0)

    def test_a_retreat_asked_for_is_refused(self) -> None:
        """A retreat after round 1 is reported and the battle goes on."""
        doc = {**ONE_ROUND_EACH_SURVIVES, "amphibious": 1}
        doc["rounds"] = [{**doc["rounds"][0], "retreat": 1}]
        out = resolve(doc)
        assert out["outcome"] == "continues"
        refused = [d for d in out["diagnostics"] if d["severity"] == "error"]
        assert refused[0]["rule"] == "IAAPA Rules Clarifications: Amphibious Assaults"

    def test_planes_may_not_retreat_either(self) -> None:
        """IAAPA Gentlemen's Agreements: "allowing fighters to retreat from an amphibious
        assault" is not allowed: with only the fighter left there is still no retreat."""
        out = resolve(
            battle(
                "land",
                {"INF": 1, "FTR": 1},
                {"INF": 2},
                {"attacker": misses(INF=1, FTR=1), "defender": {"INF": [1, 6]}},
                amphibious=1,
            )
        )
        assert out["survivors"]["attacker"] == {"FTR": 1}
        assert out["retreat_allowed"] == 0

    def test_twin_land_battle_without_transports_may_retreat(self) -> None:
        """ "If there are no units unloaded from a transport, then it is simply a land battle
        resolved like any other.\""""
        out = resolve(ONE_ROUND_EACH_SURVIVES)
        assert (out["outcome"], out["retreat_allowed"]) == ("continues", 1)

    def test_twin_sea_zone_battle_may_retreat(self) -> None:
        """SEA ZONE BATTLE: If there is a sea zone battle, attacking naval units may retreat."""
        out = resolve(
            battle(
                "sea",
                {"BB": 1, "TRN": 1},
                {"BB": 1},
                {"attacker": {"BB": [6]}, "defender": {"BB": [6]}},
                amphibious=1,
            )
        )
        assert (out["outcome"], out["retreat_allowed"]) == ("continues", 1)

    def test_at_least_one_round_before_a_retreat(self) -> None:
        """ "Any adjacent land units and/or air sent to do land battle must at least perform
        one round of attack and then may retreat as usual.\""""
        out = resolve({**ONE_ROUND_EACH_SURVIVES, "rounds": []})
        assert (out["outcome"], out["retreat_allowed"]) == ("continues", 0)

    def test_retreat_ends_the_battle(self) -> None:
        """A retreat after round 1 of an ordinary land battle: no later round is used."""
        doc = dict(ONE_ROUND_EACH_SURVIVES)
        doc["rounds"] = [
            {**doc["rounds"][0], "retreat": 1},
            {"attacker": {"INF": [1], "ARM": [1]}, "defender": misses(INF=2)},
        ]
        out = resolve(doc)
        assert out["outcome"] == "attacker-retreats" and len(out["rounds"]) == 1
        assert out["survivors"]["attacker"] == {"INF": 1, "ARM": 1}
        assert out["diagnostics"][0]["rule"] == (
            "Combat sequence: a battle ends when a side is gone or retreats"
        )


class TestOrderOfBattles:
    """If a turn involves multiple battles, each battle may be resolved in whatever order the
    attacker wishes. However, once a battle begins it must be resolved completely before the
    next battle can begin. Once the next battle begins it is assumed that the previous battle
    has finished and any surviving attacking units are retreating. If the attacking units
    cannot retreat, then the battle will need to be finished and all subsequent battles
    rerolled."""

    NEXT = battle(
        "land", {"ARM": 1}, {"INF": 1}, {"attacker": {"ARM": [1]}, "defender": misses(INF=1)}
    )

    def turn(self, *battles: dict[str, Any]) -> dict[str, Any]:
        return resolve_json({"version": 1, "battles": list(battles)})

    def test_next_battle_closes_the_previous_one(self) -> None:
        """The first battle still went on: its attackers retreat."""
        out = self.turn({**ONE_ROUND_EACH_SURVIVES, "retreat_declared": 1}, self.NEXT)
        first = out["battles"][0]
        assert (first["closed"], first["outcome"]) == ("retreated", "attacker-retreats")
        assert out["diagnostics"] == []

    def test_attackers_that_cannot_retreat_must_finish(self) -> None:
        """An amphibious assault left unfinished: finish it, re-roll the later battles."""
        out = self.turn({**ONE_ROUND_EACH_SURVIVES, "amphibious": 1}, self.NEXT, self.NEXT)
        assert [b["closed"] for b in out["battles"]] == ["must-finish", "reroll", "reroll"]
        assert {d["severity"] for d in out["diagnostics"]} == {"error"}
        assert "2, 3 must be re-rolled" in out["diagnostics"][-1]["message"]

    def test_last_battle_begun_stays_open(self) -> None:
        """Nothing began after the last battle: it is open, the attacker rolls on or
        retreats."""
        out = self.turn(self.NEXT, ONE_ROUND_EACH_SURVIVES)
        assert [b["closed"] for b in out["battles"]] == ["finished", "open"]
        assert out["battles"][1]["retreat_allowed"] == 1

    def test_battle_not_yet_rolled_closes_nothing(self) -> None:
        """A battle begins with its first round: one listed without rounds closes nothing."""
        out = self.turn(ONE_ROUND_EACH_SURVIVES, {**self.NEXT, "rounds": []})
        assert [b["closed"] for b in out["battles"]] == ["open", "not-begun"]

    def test_twin_finished_battle_closes_nothing(self) -> None:
        """A battle won outright before the next one began: nothing to report."""
        out = self.turn(self.NEXT, self.NEXT)
        assert [b["closed"] for b in out["battles"]] == ["finished", "finished"]
        assert out["diagnostics"] == []


class TestRetreatDeclaration:
    """Land and naval units retreat during combat; therefore, if you wish to retreat these
    units you must declare the retreat location before you roll the next battle. This can be
    done by adding a note in the comments section of the dice roller. If this is not done,
    then any subsequent battles may, at the discretion of the Minister of Law, be voided and
    subject to re-rolling."""

    def test_undeclared_retreat_is_left_to_the_minister(self) -> None:
        out: dict[str, Any] = resolve_json(
            {"version": 1, "battles": [ONE_ROUND_EACH_SURVIVES, TestOrderOfBattles.NEXT]}
        )
        assert [(d["battle"], d["severity"], d["rule"]) for d in out["diagnostics"]] == [
            (1, "warning", "IAAPA Rules Clarifications: Retreats")
        ]

    def test_twin_aircraft_need_no_declaration(self) -> None:
        """Only land and naval units retreat during combat; planes land in non-combat."""
        air = battle(
            "land", {"FTR": 1}, {"INF": 2}, {"attacker": {"FTR": [1]}, "defender": misses(INF=2)}
        )
        out: dict[str, Any] = resolve_json(
            {"version": 1, "battles": [air, TestOrderOfBattles.NEXT]}
        )
        assert out["battles"][0]["closed"] == "retreated"
        assert out["diagnostics"] == []
