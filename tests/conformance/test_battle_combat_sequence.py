"""The combat sequence as IAAPA PBEM rolls it: AA guns, support shots, the sub's first
strike, and the technologies that change the dice."""

from __future__ import annotations

from typing import Any

from tests.conformance.cases import battle, misses


def rules_cited(out: dict[str, Any], severity: str) -> list[str]:
    return [d["rule"] for d in out["diagnostics"] if d["severity"] == severity]


class TestSubFirstStrike:
    """If a naval battle has an attacking sub, the attacker MAY, at his discretion, roll for
    the sub first. If the sub hits, he MAY request that the defender declare the casualty
    before continuing with the battle."""

    def test_casualty_of_the_first_strike_does_not_fire_back(self) -> None:
        """The sub rolled first sinks the lone BB before it fires: the defender rolls nothing
        and the attacker loses nothing."""
        out = battle("sea", {"SUB": 1, "TRN": 1}, {"BB": 1}, {"subs": [2]})
        first = out["rounds"][0]
        assert (first["first_strike_hits"], first["defender_casualties"]) == (1, {"BB": 1})
        assert first["attacker_casualties"] == {}
        assert out["outcome"] == "attacker-wins" and out["final"] == 1

    def test_twin_sub_in_the_main_roll_is_fired_back_at(self) -> None:
        """Twin: the same sub rolled with everything else: the BB is hit but fires back."""
        out = battle(
            "sea",
            {"SUB": 1, "TRN": 1},
            {"BB": 1},
            {"attacker": {"SUB": [2]}, "defender": {"BB": [4]}},
        )
        assert out["rounds"][0]["attacker_casualties"] == {"TRN": 1}
        assert out["outcome"] == "attacker-wins"

    def test_dice_for_the_sunk_unit_are_too_many(self) -> None:
        """The rest of the round is rolled after the first strike: a die for the sunk BB is
        one die too many (Error Correction III: the first dice are used)."""
        out = battle(
            "sea",
            {"SUB": 1, "BB": 1},
            {"BB": 2},
            {"subs": [1], "attacker": {"BB": [6]}, "defender": {"BB": [1, 6]}},
        )
        assert out["rounds"][0]["attacker_casualties"] == {"SUB": 1}
        assert "IAAPA Error Correction III: Too many units" in rules_cited(out, "error")

    def test_defender_may_declare_the_casualty(self) -> None:
        """ "he MAY request that the defender declare the casualty": the defender names the
        AC, not the default TRN."""
        out = battle(
            "sea",
            {"SUB": 1, "BB": 1},
            {"TRN": 1, "AC": 1},
            {
                "subs": [1],
                "casualties": {"subs": {"AC": 1}},
                "attacker": {"BB": [6]},
                "defender": {"TRN": [6]},
            },
        )
        assert out["rounds"][0]["defender_casualties"] == {"AC": 1}
        assert out["survivors"]["defender"] == {"TRN": 1}

    def test_subs_never_hit_aircraft(self) -> None:
        """Two first-strike hits on an AC with its FTR: the AC sinks, the fighter stays
        (facts sheet 1: "Their hits may only go on ships, never planes")."""
        out = battle(
            "sea", {"SUB": 2}, {"AC": 1, "FTR": 1}, {"subs": [1, 2], "defender": {"FTR": [6]}}
        )
        assert out["rounds"][0]["defender_casualties"] == {"AC": 1}
        assert out["survivors"]["defender"] == {"FTR": 1}
        assert "Combat sequence: subs hit only ships" in rules_cited(out, "info")


class TestAaGuns:
    """If an AA gun is forgotten, roll for the missing shots. If the AA gun hits, remove the
    attacking aircraft, adjust the counts for round 2 and the remainder of the battle is to be
    re-rolled starting with round 2. Aircraft are removed from right to left. For example, if
    one AA hit occurs, it is the last aircraft (and its die roll) that is removed

    Only this remedy, for a gun forgotten, removes aircraft by the position of a die. AA shots
    rolled in time remove the aircraft the attacker picks, by his order of loss
    (``test_aa_casualties.py``); the dice of an aircraft shot down in the same roll as round
    1 are its type's last ones, the way this rule removes "the last aircraft (and its die
    roll)".
    """

    def test_aircraft_shot_down_before_it_fires(self) -> None:
        """One fighter is lost; its die is the fighters' last, the 1: void."""
        out = battle(
            "land",
            {"FTR": 2},
            {"INF": 1, "AA": 1},
            {"aa": [6, 1], "attacker": {"FTR": [6, 1]}, "defender": misses(INF=1)},
        )
        assert out["rounds"][0]["attacker_hits"] == 0

    def test_round_rolled_after_the_aa_shots(self) -> None:
        """Rolled after the AA shots, the round carries dice for the survivors only."""
        out = battle(
            "land",
            {"FTR": 2},
            {"INF": 1, "AA": 1},
            {"aa": [6, 1], "attacker": {"FTR": [1]}, "defender": misses(INF=1)},
        )
        assert out["rounds"][0]["defender_casualties"] == {"INF": 1}
        assert out["final"] == 1

    def test_forgotten_aa_is_reported_with_the_right_to_left_remedy(self) -> None:
        """No AA dice in round 1 with a gun present: an error quoting the remedy."""
        out = battle(
            "land",
            {"FTR": 2},
            {"INF": 1, "AA": 1},
            {"attacker": {"FTR": [6, 6]}, "defender": misses(INF=1)},
        )
        errors = [d for d in out["diagnostics"] if d["severity"] == "error"]
        assert errors and errors[0]["rule"] == "IAAPA Error Correction III: AA Guns"
        assert "right to left" in errors[0]["message"]

    def test_ghost_aa_that_missed_is_ignored(self) -> None:
        """If an AA gun is rolled in error (i.e., there is no AA gun present) and the ghost
        AA gun missed, then the ghost gun roll will be ignored and the battle will stand."""
        out = battle(
            "land",
            {"FTR": 1},
            {"INF": 1},
            {"aa": [4], "attacker": {"FTR": [1]}, "defender": misses(INF=1)},
        )
        assert out["final"] == 1 and out["outcome"] == "attacker-wins"
        assert rules_cited(out, "warning") == ["IAAPA Error Correction III: AA Guns"]

    def test_ghost_aa_that_hit_removes_nothing(self) -> None:
        """A ghost hit removes no aircraft; the rest of the battle is re-rolled."""
        out = battle(
            "land",
            {"FTR": 1},
            {"INF": 2},
            {"aa": [1], "attacker": {"FTR": [1]}, "defender": misses(INF=2)},
            {"attacker": {"FTR": [1]}, "defender": misses(INF=1)},
        )
        assert out["rounds"][0]["attacker_casualties"] == {}
        assert len(out["rounds"]) == 1 and out["final"] == 0

    def test_aa_fires_before_round_1_only(self) -> None:
        """AA dice in round 2 are a ghost gun's: ignored."""
        out = battle(
            "land",
            {"FTR": 1, "ARM": 1},
            {"INF": 2, "AA": 1},
            {"aa": [6], "attacker": {"FTR": [6], "ARM": [6]}, "defender": misses(INF=2)},
            {"aa": [1], "attacker": {"FTR": [6], "ARM": [6]}, "defender": misses(INF=2)},
        )
        assert out["rounds"][1]["aa_hits"] == 0
        assert out["survivors"]["attacker"] == {"ARM": 1, "FTR": 1}


class TestSupportShots:
    """In an amphibious assault each battleship fires once, in round 1, hitting on 4 or less;
    the defender chooses the casualty and it fires back (facts sheet 5; Error Correction III:
    "If a player leaves the BB support shot on in round 2 ... the generic ghost rule will
    apply")."""

    def test_support_shot_hits_on_four(self) -> None:
        """A 4 hits; the casualty (INF, by the default order) still fires back."""
        out = battle(
            "land",
            {"INF": 1, "BB": 1},
            {"INF": 2},
            {"bombard": [4], "attacker": {"INF": [6]}, "defender": {"INF": [2, 6]}},
            amphibious=1,
        )
        first = out["rounds"][0]
        assert (first["bombard_hits"], first["defender_casualties"]) == (1, {"INF": 1})
        assert first["attacker_casualties"] == {"INF": 1}

    def test_twin_five_misses(self) -> None:
        """Twin: a 5 misses."""
        out = battle(
            "land",
            {"INF": 1, "BB": 1},
            {"INF": 2},
            {"bombard": [5], "attacker": {"INF": [6]}, "defender": misses(INF=2)},
            amphibious=1,
        )
        assert out["rounds"][0]["bombard_hits"] == 0

    def test_battleship_is_never_a_casualty_of_the_land_battle(self) -> None:
        """The BB supports, and cannot be hit: defending hits fall on the landed units."""
        out = battle(
            "land",
            {"ARM": 1, "BB": 1},
            {"INF": 2},
            {"bombard": [6], "attacker": {"ARM": [6]}, "defender": {"INF": [1, 1]}},
            amphibious=1,
        )
        assert out["rounds"][0]["attacker_casualties"] == {"ARM": 1}
        assert out["outcome"] == "defender-wins"

    def test_support_shot_in_round_2_is_a_ghost(self) -> None:
        """A support shot rolled in round 2 that hits: ignored, and rounds after re-rolled."""
        out = battle(
            "land",
            {"ARM": 2, "BB": 1},
            {"INF": 3},
            {"bombard": [6], "attacker": {"ARM": [6, 6]}, "defender": misses(INF=3)},
            {"bombard": [1], "attacker": {"ARM": [6, 6]}, "defender": misses(INF=3)},
            {"attacker": {"ARM": [1, 1]}, "defender": misses(INF=3)},
            amphibious=1,
        )
        assert out["rounds"][1]["bombard_hits"] == 0 and len(out["rounds"]) == 2
        assert "IAAPA Error Correction III: BB Support Shots" in rules_cited(out, "error")

    def test_no_support_shot_without_an_amphibious_assault(self) -> None:
        """Battleships may only attack a land battle as an amphibious assault's support."""
        out = battle(
            "land",
            {"ARM": 1},
            {"INF": 1},
            {"bombard": [2], "attacker": {"ARM": [6]}, "defender": misses(INF=1)},
        )
        assert out["rounds"][0]["bombard_hits"] == 0
        assert rules_cited(out, "warning") == ["IAAPA Error Correction III: BB Support Shots"]


class TestTechnologies:
    """Weapons developments that change battle dice (facts sheet 7): Heavy Bombers roll 3
    dice attacking, Super Subs attack at 3, Jet Power fighters defend at 5."""

    def test_heavy_bombers_roll_three_dice_each(self) -> None:
        """Each die at 4 or less is a separate hit: one bomber can score three."""
        out = battle(
            "land",
            {"BMB": 1},
            {"INF": 3},
            {"attacker": {"BMB": [1, 4, 3]}, "defender": misses(INF=3)},
            technologies={"attacker": ["Heavy Bombers"]},
        )
        assert out["rounds"][0]["defender_casualties"] == {"INF": 3}

    def test_twin_three_dice_without_the_technology_are_too_many(self) -> None:
        out = battle(
            "land",
            {"BMB": 1},
            {"INF": 3},
            {"attacker": {"BMB": [1, 4, 3]}, "defender": misses(INF=3)},
        )
        assert out["rounds"][0]["defender_casualties"] == {"INF": 1}
        assert "IAAPA Error Correction III: Too many units" in rules_cited(out, "error")

    def test_super_subs_attack_at_three(self) -> None:
        out = battle(
            "sea",
            {"SUB": 1},
            {"TRN": 1},
            {"attacker": {"SUB": [3]}, "defender": misses(TRN=1)},
            technologies={"attacker": ["SUPER_SUBS"]},
        )
        assert out["outcome"] == "attacker-wins"

    def test_super_subs_do_not_defend_better(self) -> None:
        out = battle(
            "sea",
            {"TRN": 1, "BB": 1},
            {"SUB": 1},
            {"attacker": {"BB": [6]}, "defender": {"SUB": [3]}},
            technologies={"defender": ["SUPER_SUBS"]},
        )
        assert out["rounds"][0]["attacker_casualties"] == {}

    def test_jet_fighters_defend_at_five(self) -> None:
        out = battle(
            "land",
            {"ARM": 1},
            {"FTR": 1},
            {"attacker": {"ARM": [6]}, "defender": {"FTR": [5]}},
            technologies={"defender": ["JET_POWER"]},
        )
        assert out["outcome"] == "defender-wins"

    def test_twin_fighters_without_jets_miss_on_five(self) -> None:
        out = battle(
            "land", {"ARM": 1}, {"FTR": 1}, {"attacker": {"ARM": [6]}, "defender": {"FTR": [5]}}
        )
        assert out["outcome"] == "continues"


class TestCapture:
    """Facts sheet section 8: "Only surviving land units capture a territory. Planes alone
    never do." Section 1: "If both die, or only planes survive, the defender keeps the
    territory."

    West Europe's one infantry falls to the first round's dice; what the attacker has left
    decides whether it is taken."""

    def test_fighters_alone_win_without_taking_it(self) -> None:
        out = battle(
            "land", {"FTR": 2}, {"INF": 1}, {"attacker": {"FTR": [1, 6]}, "defender": {"INF": [6]}}
        )
        assert (out["outcome"], out["captured"]) == ("attacker-wins", 0)

    def test_a_tank_left_beside_them_takes_it(self) -> None:
        out = battle(
            "land",
            {"ARM": 1, "FTR": 1},
            {"INF": 1},
            {"attacker": {"ARM": [1], "FTR": [6]}, "defender": {"INF": [6]}},
        )
        assert (out["outcome"], out["captured"]) == ("attacker-wins", 1)
