"""Big World 1942 battles resolved from written dice, through ``adjudicator.battle.resolve_json``
(a document saying ``"ruleset": "big_world_1942"``).

Each case is worked by hand in its docstring from the TripleA rule book (``../shared/rules/
triplea-rule-book.md``: "The Units", "Battle", "Amphibious Combat", "Available
Technologies") and the numbers of ``big_world_1942.xml``: INF 1/2, ART 2/2, ARM 3/3,
FTR 3/4, BMB 4/1, TRN 0/1, SUB 2/2, DD 2/2, CA 3/3, AC 1/1, BB 4/4 (attack/defence). A die
hits when it shows the unit's number or less. The quotes are checked against the rule book.
"""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.battle import resolve_json
from adjudicator.battle.errors import BattleInputError
from tests.big_world import big_world_document as bw
from tests.conformance.conftest import docstring_quotes

# --------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------


def rnd(attacker: dict[str, list[int]], defender: dict[str, list[int]], **extra: Any) -> Any:
    """One round's dice."""
    return {"attacker": attacker, "defender": defender, **extra}


def refused(doc: dict[str, Any]) -> BattleInputError:
    with pytest.raises(BattleInputError) as caught:
        resolve_json(doc)
    return caught.value


def first_round(out: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = out["rounds"][0]
    return found


# --------------------------------------------------------------------------------------
# Artillery
# --------------------------------------------------------------------------------------


class TestArtillerySupport:
    """Rule book, Infantry: "when they are paired with Artillery units on a 1-to-1 basis, the
    infantry units will receive +1 attack power." Artillery: "if you had 3 infantry and 2
    artillery, then 2 of the infantry would receive support and have their attacks increased
    to 2, while the 3rd infantry would stay at 1 attack. The support is not cumulative, so 1
    infantry with 2 artillery would only receive 1 support." """

    @pytest.mark.parametrize(
        ("inf_dice", "hits"),
        [
            # the first two INF dice are the supported ones (at 2), the third at 1
            ([2, 2, 2], 2),
            ([2, 2, 1], 3),
            ([3, 3, 2], 0),
            ([3, 3, 1], 1),
            ([1, 3, 2], 1),
        ],
    )
    def test_two_artillery_support_two_of_three_infantry(
        self, inf_dice: list[int], hits: int
    ) -> None:
        """3 INF + 2 ART v 5 INF; the ART dice [3, 3] miss (ART attacks at 2), the
        defenders' [6] x 5 miss: the attacker's hits are the INF dice's alone."""
        out = resolve_json(
            bw(
                "land",
                {"INF": 3, "ART": 2},
                {"INF": 5},
                rnd({"INF": inf_dice, "ART": [3, 3]}, {"INF": [6] * 5}),
            )
        )
        assert first_round(out)["attacker_hits"] == hits
        assert first_round(out)["defender_casualties"] == ({"INF": hits} if hits else {})

    def test_support_is_not_cumulative(self) -> None:
        """1 INF + 2 ART: the infantry attacks at 2, not 3. INF [3] misses; INF [2] hits."""
        for die, hits in ((3, 0), (2, 1)):
            dice = rnd({"INF": [die], "ART": [6, 6]}, {"ARM": [6, 6, 6]})
            out = resolve_json(bw("land", {"INF": 1, "ART": 2}, {"ARM": 3}, dice))
            assert first_round(out)["attacker_hits"] == hits

    def test_support_does_not_apply_on_defence(self) -> None:
        """2 ARM v 2 INF + 1 ART: the defending infantry stays at 2 (support is "+1 attack
        power"), so INF dice [3, 3] miss, as does ART [3]: no hit on the attacker."""
        out = resolve_json(
            bw(
                "land",
                {"ARM": 2},
                {"INF": 2, "ART": 1},
                rnd({"ARM": [6, 6]}, {"INF": [3, 3], "ART": [3]}),
            )
        )
        assert first_round(out)["defender_hits"] == 0
        assert out["survivors"]["attacker"] == {"ARM": 2}


# --------------------------------------------------------------------------------------
# Submarines
# --------------------------------------------------------------------------------------


class TestAttackingSubsStrikeFirst:
    """Rule book, Battle, segment 1: "First, attacking subs (stealth units) fire, and the
    defender allocates the casualties. If the defender has no anti-stealth units (destroyers)
    present, the non-submarine casualties are removed immediately and do not participate
    further in this combat." """

    def test_without_a_defending_destroyer_the_sunk_ship_does_not_fire(self) -> None:
        """1 SUB v 2 CA: SUB [1] hits (at 2); a CA sinks at once, so only one CA fires:
        CA [6] misses. Left: 1 SUB v 1 CA."""
        out = resolve_json(bw("sea", {"SUB": 1}, {"CA": 2}, rnd({"SUB": [1]}, {"CA": [6]})))
        played = first_round(out)
        assert played["sub_hits"] == {"attacker": 1, "defender": 0}
        assert played["first_strike_hits"] == 1
        assert played["defender_casualties"] == {"CA": 1}
        assert out["survivors"] == {"attacker": {"SUB": 1}, "defender": {"CA": 1}}

    def test_dice_for_the_sunk_ship_are_refused(self) -> None:
        """Same battle, a die written for the sunk CA: two CA dice where one CA fires."""
        error = refused(bw("sea", {"SUB": 1}, {"CA": 2}, rnd({"SUB": [1]}, {"CA": [6, 6]})))
        assert error.field == "rounds[0].defender.CA"

    def test_a_miss_lets_both_ships_fire(self) -> None:
        """SUB [3] misses: both CA fire, CA [6, 1] sinks the SUB."""
        out = resolve_json(bw("sea", {"SUB": 1}, {"CA": 2}, rnd({"SUB": [3]}, {"CA": [6, 1]})))
        assert out["outcome"] == "defender-wins"
        assert out["survivors"]["defender"] == {"CA": 2}

    def test_with_a_defending_destroyer_the_casualty_fires_back(self) -> None:
        """1 SUB v 1 DD + 1 CA: SUB [1] hits and the defender loses the DD (his default
        order: TRN, SUB, DD, CA, ...), but a destroyer was present, so the DD still fires:
        DD [1] (at 2) sinks the SUB; CA [6]. The defender wins with the CA."""
        out = resolve_json(
            bw("sea", {"SUB": 1}, {"DD": 1, "CA": 1}, rnd({"SUB": [1]}, {"DD": [1], "CA": [6]}))
        )
        played = first_round(out)
        assert played["sub_hits"] == {"attacker": 1, "defender": 0}
        assert played["defender_hits"] == 1
        assert played["defender_casualties"] == {"DD": 1}
        assert played["attacker_casualties"] == {"SUB": 1}
        assert out["outcome"] == "defender-wins"
        assert out["survivors"]["defender"] == {"CA": 1}

    def test_with_a_defending_destroyer_its_die_is_required(self) -> None:
        error = refused(bw("sea", {"SUB": 1}, {"DD": 1, "CA": 1}, rnd({"SUB": [1]}, {"CA": [6]})))
        assert error.field == "rounds[0].defender.DD"

    def test_a_defending_sub_sunk_by_the_first_strike_still_fires(self) -> None:
        """1 SUB v 1 SUB, no destroyer: the attacking SUB [1] hits the defending SUB, a
        submarine casualty, which segment 1 does not remove ("the non-submarine casualties
        are removed immediately"); in segment 2 it fires: SUB [1] hits. Both are lost."""
        out = resolve_json(bw("sea", {"SUB": 1}, {"SUB": 1}, rnd({"SUB": [1]}, {"SUB": [1]})))
        assert out["outcome"] == "both-destroyed"


class TestDefendingSubsStrikeFirst:
    """Rule book, Battle, segment 2: "Next, defending subs fire using the equivalent
    procedure. If the attacker has no destroyers present, the casualties are removed
    immediately and do not participate further in this battle." """

    def test_without_an_attacking_destroyer_the_sunk_ship_does_not_fire(self) -> None:
        """2 CA v 1 SUB: SUB [2] hits (defends at 2), a CA sinks before it fires: one CA
        die, [6]. Left: 1 CA v 1 SUB."""
        out = resolve_json(bw("sea", {"CA": 2}, {"SUB": 1}, rnd({"CA": [6]}, {"SUB": [2]})))
        played = first_round(out)
        assert played["sub_hits"] == {"attacker": 0, "defender": 1}
        assert played["attacker_casualties"] == {"CA": 1}
        assert out["survivors"] == {"attacker": {"CA": 1}, "defender": {"SUB": 1}}

    def test_dice_for_the_sunk_attacker_are_refused(self) -> None:
        error = refused(bw("sea", {"CA": 2}, {"SUB": 1}, rnd({"CA": [6, 6]}, {"SUB": [2]})))
        assert error.field == "rounds[0].attacker.CA"

    def test_an_attacking_destroyer_lets_the_casualty_fire(self) -> None:
        """1 DD + 1 CA v 1 SUB: SUB [2] hits and the attacker loses his DD (TRN, SUB, DD,
        CA, ...), which fires anyway: DD [1] sinks the SUB, CA [6]. Attacker wins with
        the CA."""
        out = resolve_json(
            bw("sea", {"DD": 1, "CA": 1}, {"SUB": 1}, rnd({"DD": [1], "CA": [6]}, {"SUB": [2]}))
        )
        played = first_round(out)
        assert played["sub_hits"] == {"attacker": 0, "defender": 1}
        assert played["attacker_casualties"] == {"DD": 1}
        assert out["outcome"] == "attacker-wins"
        assert out["survivors"]["attacker"] == {"CA": 1}


class TestSubsAndAircraft:
    """Rule book, Battle, Special Cases: "Subs cannot inflict casualties on air units, ever."
    "On some maps, air units cannot hit submarines unless a destroyer is present in battle (in
    Big World, air units can hit submarines without a destroyer present)." """

    def test_a_sub_hit_passes_over_a_fighter_to_take_the_transport(self) -> None:
        """1 SUB v 1 FTR + 1 TRN, the defender's order of loss FTR first: SUB [1] hits,
        the FTR cannot be taken, the TRN is; it sinks before firing (no destroyer), so
        only the FTR fires: [6]."""
        out = resolve_json(
            bw(
                "sea",
                {"SUB": 1},
                {"FTR": 1, "TRN": 1},
                rnd({"SUB": [1]}, {"FTR": [6]}),
                order_of_loss={"defender": ["FTR", "TRN"]},
            )
        )
        assert first_round(out)["defender_casualties"] == {"TRN": 1}
        assert out["survivors"]["defender"] == {"FTR": 1}

    def test_against_fighters_alone_the_sub_hit_is_wasted(self) -> None:
        """1 SUB v 1 FTR: SUB [1] is a hit no unit can take; the FTR [6] misses."""
        out = resolve_json(bw("sea", {"SUB": 1}, {"FTR": 1}, rnd({"SUB": [1]}, {"FTR": [6]})))
        played = first_round(out)
        assert played["attacker_hits"] == 1
        assert played["defender_casualties"] == {}
        assert out["survivors"] == {"attacker": {"SUB": 1}, "defender": {"FTR": 1}}
        assert out["outcome"] == "continues"

    def test_aircraft_hit_subs_without_a_destroyer(self) -> None:
        """1 FTR v 1 SUB at sea, no destroyer anywhere: the SUB fires first, [6] misses;
        FTR [3] (at 3) sinks it."""
        out = resolve_json(bw("sea", {"FTR": 1}, {"SUB": 1}, rnd({"FTR": [3]}, {"SUB": [6]})))
        assert first_round(out)["defender_casualties"] == {"SUB": 1}
        assert out["outcome"] == "attacker-wins"
        assert out["captured"] == 0


# --------------------------------------------------------------------------------------
# Battleships
# --------------------------------------------------------------------------------------


class TestTwoHitBattleship:
    """Rule book, Battle: "Some units, such as battleships, are so large that it takes two
    hits to destroy them. The first hit only damages them." Battleship: "If damaged in battle
    but still alive after the battle ends, all battleships will repair to full health after
    the battle is over." """

    def test_the_first_hit_damages_the_second_sinks(self) -> None:
        """2 CA v 1 BB. Round 1: CA [1, 6], one hit: the BB is damaged, not lost; BB [6].
        Round 2: CA [1, 6], the second hit sinks it; BB [6]."""
        out = resolve_json(
            bw(
                "sea",
                {"CA": 2},
                {"BB": 1},
                rnd({"CA": [1, 6]}, {"BB": [6]}),
                rnd({"CA": [1, 6]}, {"BB": [6]}),
            )
        )
        one, two = out["rounds"]
        assert one["attacker_hits"] == 1
        assert one["defender_casualties"] == {}
        assert one["damaged"] == {"attacker": 0, "defender": 1}
        assert two["defender_casualties"] == {"BB": 1}
        assert two["damaged"] == {"attacker": 0, "defender": 0}
        assert out["outcome"] == "attacker-wins"

    def test_two_hits_in_one_round_sink_it_and_it_still_fires(self) -> None:
        """CA [1, 1]: both hits in round 1 sink the BB, which fires in the same round
        (BB [6]): its die is required."""
        out = resolve_json(bw("sea", {"CA": 2}, {"BB": 1}, rnd({"CA": [1, 1]}, {"BB": [6]})))
        assert first_round(out)["defender_casualties"] == {"BB": 1}
        assert out["outcome"] == "attacker-wins"
        error = refused(bw("sea", {"CA": 2}, {"BB": 1}, rnd({"CA": [1, 1]}, {})))
        assert error.field == "rounds[0].defender.BB"

    def test_damage_comes_before_any_loss(self) -> None:
        """2 CA v 1 BB + 1 DD: CA [1, 6], one hit, taken as damage on the BB although the DD
        comes first in the defender's order of loss."""
        out = resolve_json(
            bw("sea", {"CA": 2}, {"BB": 1, "DD": 1}, rnd({"CA": [1, 6]}, {"BB": [6], "DD": [6]}))
        )
        assert first_round(out)["defender_casualties"] == {}
        assert first_round(out)["damaged"]["defender"] == 1
        assert out["survivors"]["defender"] == {"DD": 1, "BB": 1}

    def test_the_damaged_battleship_survives_and_the_battle_ends(self) -> None:
        """1 BB v 1 DD. Round 1: BB [6], DD [1]: the BB is damaged. Round 2: BB [1] sinks
        the DD, DD [6]. The attacker wins with his one battleship, repaired (survivors
        count units: 1 BB; the round shows it was damaged when the round ended)."""
        out = resolve_json(
            bw(
                "sea",
                {"BB": 1},
                {"DD": 1},
                rnd({"BB": [6]}, {"DD": [1]}),
                rnd({"BB": [1]}, {"DD": [6]}),
            )
        )
        assert out["rounds"][0]["damaged"] == {"attacker": 1, "defender": 0}
        assert out["rounds"][0]["attacker_casualties"] == {}
        assert out["outcome"] == "attacker-wins"
        assert out["survivors"]["attacker"] == {"BB": 1}

    def test_damage_carries_from_round_to_round(self) -> None:
        """1 BB v 2 DD. Round 1: BB [6], DD [1, 6]: damaged. Round 2: BB [6], DD [1, 6]: the
        second hit, in another round, sinks it."""
        out = resolve_json(
            bw(
                "sea",
                {"BB": 1},
                {"DD": 2},
                rnd({"BB": [6]}, {"DD": [1, 6]}),
                rnd({"BB": [6]}, {"DD": [1, 6]}),
            )
        )
        assert out["rounds"][1]["attacker_casualties"] == {"BB": 1}
        assert out["outcome"] == "defender-wins"


# --------------------------------------------------------------------------------------
# AA guns
# --------------------------------------------------------------------------------------


class TestAAGun:
    """Rule book, AA Gun: "They will roll a single die at 1, for each attacking aircraft in
    the battle. Any air that is hit immediately dies, with no chance to fire back." """

    def doc(self, aa: list[int], fighter_dice: list[int]) -> dict[str, Any]:
        """2 FTR + 1 BMB + 1 INF v 1 INF + 1 AA."""
        return bw(
            "land",
            {"FTR": 2, "BMB": 1, "INF": 1},
            {"INF": 1, "AA": 1},
            rnd({"FTR": fighter_dice, "BMB": [6], "INF": [6]}, {"INF": [6]}, aa=aa),
        )

    def test_one_die_per_aircraft_hitting_on_1(self) -> None:
        """Three aircraft, three AA dice [1, 2, 6]: only the 1 hits. A fighter goes first
        (the attacker's default order: INF, ART, ARM, FTR, BMB, aircraft only) and does not
        fire: one FTR die left."""
        out = resolve_json(self.doc([1, 2, 6], [6]))
        played = first_round(out)
        assert played["aa_hits"] == 1
        assert played["attacker_casualties"] == {"FTR": 1}
        assert out["survivors"]["attacker"] == {"INF": 1, "FTR": 1, "BMB": 1}

    def test_the_downed_fighter_has_no_die(self) -> None:
        error = refused(self.doc([1, 2, 6], [6, 6]))
        assert error.field == "rounds[0].attacker.FTR"

    def test_the_gun_throws_one_die_per_aircraft(self) -> None:
        assert refused(self.doc([1, 2], [6])).field == "rounds[0].aa"
        assert refused(self.doc([1, 2, 6, 6], [6])).field == "rounds[0].aa"

    def test_too_few_aa_dice_says_how_many(self) -> None:
        """1 FTR + 1 BMB: the gun throws 2 dice, and the message should say so."""
        error = refused(
            bw(
                "land",
                {"FTR": 1, "BMB": 1},
                {"INF": 1, "AA": 1},
                rnd({"FTR": [6], "BMB": [6]}, {"INF": [6]}, aa=[6]),
            )
        )
        assert error.field == "rounds[0].aa"
        assert "throw 2 dice" in error.problem

    def test_the_gun_fires_before_round_1_only(self) -> None:
        """1 FTR + 1 INF v 2 INF + 1 AA: AA [6]; round 2 with an AA die is refused."""
        doc = bw(
            "land",
            {"FTR": 1, "INF": 1},
            {"INF": 2, "AA": 1},
            rnd({"FTR": [6], "INF": [6]}, {"INF": [6, 6]}, aa=[6]),
            rnd({"FTR": [6], "INF": [6]}, {"INF": [6, 6]}, aa=[1]),
        )
        assert refused(doc).field == "rounds[1]"

    def test_no_aircraft_no_aa_die(self) -> None:
        doc = bw("land", {"INF": 1}, {"INF": 1, "AA": 1}, rnd({"INF": [6]}, {"INF": [6]}, aa=[1]))
        assert refused(doc).field == "rounds[0].aa"


# --------------------------------------------------------------------------------------
# Amphibious assaults
# --------------------------------------------------------------------------------------


class TestBombardment:
    """Rule book, Battleship: "the battleship may roll a single die at 4 before the battle
    begins in order to try to cause an enemy casualty." Amphibious Combat: "The bombardment
    casualty does not get to return fire." "The invading amphibious units may not retreat."
    Available Technologies: "Each of your Destroyers may conduct shore bombardment." """

    def doc(self, bombard: dict[str, list[int]], defender_dice: list[int], **kw: Any) -> Any:
        ships = {unit: 1 for unit in bombard}
        return bw(
            "land",
            {"INF": 2, **ships},
            {"INF": 2},
            rnd({"INF": [6, 6]}, {"INF": defender_dice}, bombard=bombard),
            amphibious=1,
            **kw,
        )

    def test_the_battleship_fires_one_die_at_4_and_its_casualty_does_not_fire(self) -> None:
        """2 INF + 1 BB (bombarding) v 2 INF: BB [4] hits, one INF is lost before round 1
        and does not fire: one defender die, [6]."""
        out = resolve_json(self.doc({"BB": [4]}, [6]))
        played = first_round(out)
        assert played["bombard_hits"] == 1
        assert played["defender_casualties"] == {"INF": 1}
        assert out["start"]["bombarding"] == {"BB": 1}
        assert out["start"]["attacker"] == {"INF": 2}
        assert out["survivors"] == {"attacker": {"INF": 2}, "defender": {"INF": 1}}
        assert out["retreat_allowed"] == 0

    def test_the_bombardment_casualty_has_no_die(self) -> None:
        assert refused(self.doc({"BB": [4]}, [6, 6])).field == "rounds[0].defender.INF"

    def test_a_bombardment_miss(self) -> None:
        """BB [5] misses: both defending INF fire."""
        out = resolve_json(self.doc({"BB": [5]}, [6, 6]))
        assert first_round(out)["bombard_hits"] == 0
        assert out["survivors"]["defender"] == {"INF": 2}

    def test_the_battleship_does_not_fight_the_land_battle(self) -> None:
        doc = self.doc({"BB": [5]}, [6, 6])
        doc["rounds"][0]["attacker"]["BB"] = [1]
        assert refused(doc).field == "rounds[0].attacker.BB"

    def test_a_destroyer_bombards_only_with_destroyer_bombard(self) -> None:
        """Without the technology an attacking DD on land is refused; with it, DD [2] (its
        attack) hits and DD [3] misses."""
        assert refused(self.doc({"DD": [2]}, [6])).field == "attacker.DD"
        techs = {"attacker": ["Destroyer Bombard"]}
        hit = resolve_json(self.doc({"DD": [2]}, [6], technologies=techs))
        assert first_round(hit)["bombard_hits"] == 1
        miss = resolve_json(self.doc({"DD": [3]}, [6, 6], technologies=techs))
        assert first_round(miss)["bombard_hits"] == 0

    def test_no_retreat_from_an_amphibious_assault(self) -> None:
        doc = self.doc({"BB": [5]}, [6, 6])
        doc["rounds"][0]["retreat"] = 1
        assert refused(doc).field == "rounds[0].retreat"

    def test_a_retreat_from_an_ordinary_land_battle(self) -> None:
        out = resolve_json(bw("land", {"INF": 1}, {"INF": 1}, rnd({"INF": [6]}, {"INF": [6]})))
        assert out["retreat_allowed"] == 1
        doc = bw("land", {"INF": 1}, {"INF": 1}, rnd({"INF": [6]}, {"INF": [6]}, retreat=1))
        assert resolve_json(doc)["outcome"] == "attacker-retreats"


# --------------------------------------------------------------------------------------
# Technologies
# --------------------------------------------------------------------------------------


class TestHeavyBombers:
    """Available Technologies, Heavy Bomber: "Each of your bombers rolls 2 dice when
    attacking and raiding (if ‘LHTR’ rules is turned on, then only the better result is
    used." The game file turns LHTR Heavy Bombers on, with 2 dice."""

    @pytest.mark.parametrize(
        ("dice", "hits"), [([2, 3], 1), ([5, 6], 0), ([5, 4], 1), ([6, 1], 1), ([4, 4], 1)]
    )
    def test_two_dice_one_hit_at_most(self, dice: list[int], hits: int) -> None:
        """1 heavy BMB (at 4) v 2 INF: a hit if either die shows 4 or less, never two."""
        out = resolve_json(
            bw(
                "land",
                {"BMB": 1},
                {"INF": 2},
                rnd({"BMB": dice}, {"INF": [6, 6]}),
                technologies={"attacker": ["Heavy Bombers"]},
            )
        )
        assert first_round(out)["attacker_hits"] == hits

    def test_two_heavy_bombers_throw_in_pairs(self) -> None:
        """2 BMB: dice [5, 6, 1, 2] are (5, 6) no hit and (1, 2) one hit."""
        out = resolve_json(
            bw(
                "land",
                {"BMB": 2},
                {"INF": 3},
                rnd({"BMB": [5, 6, 1, 2]}, {"INF": [6, 6, 6]}),
                technologies={"attacker": ["heavy bombers"]},
            )
        )
        assert first_round(out)["attacker_hits"] == 1

    def test_without_the_technology_one_die(self) -> None:
        doc = bw("land", {"BMB": 1}, {"INF": 2}, rnd({"BMB": [2, 3]}, {"INF": [6, 6]}))
        assert refused(doc).field == "rounds[0].attacker.BMB"

    def test_a_defending_heavy_bomber_throws_one_die(self) -> None:
        """Heavy bombers roll 2 dice "when attacking": a defending BMB throws 1, at 1."""
        techs = {"defender": ["Heavy Bombers"]}
        out = resolve_json(
            bw("land", {"INF": 1}, {"BMB": 1}, rnd({"INF": [6]}, {"BMB": [1]}), technologies=techs)
        )
        assert out["outcome"] == "defender-wins"
        doc = bw("land", {"INF": 1}, {"BMB": 1}, rnd({"INF": [6]}, {"BMB": [1, 1]}))
        doc["technologies"] = techs
        assert refused(doc).field == "rounds[0].defender.BMB"


class TestJetPowerAndSuperSubs:
    """Available Technologies: "Each Fighter’s defense power is increased by 1." "Each
    Submarine’s attack power is increased by 1." """

    @pytest.mark.parametrize(("techs", "hits"), [([], 0), (["Jet Power"], 1)])
    def test_a_jet_fighter_defends_at_5(self, techs: list[str], hits: int) -> None:
        """1 INF v 1 FTR, FTR [5]: a miss at 4, a hit at 5."""
        out = resolve_json(
            bw(
                "land",
                {"INF": 1},
                {"FTR": 1},
                rnd({"INF": [6]}, {"FTR": [5]}),
                technologies={"defender": techs},
            )
        )
        assert first_round(out)["defender_hits"] == hits

    def test_a_jet_fighter_still_attacks_at_3(self) -> None:
        out = resolve_json(
            bw(
                "land",
                {"FTR": 1},
                {"INF": 1},
                rnd({"FTR": [4]}, {"INF": [6]}),
                technologies={"attacker": ["Jet Power"]},
            )
        )
        assert first_round(out)["attacker_hits"] == 0

    @pytest.mark.parametrize(("techs", "hits"), [([], 0), (["Super Subs"], 1)])
    def test_a_super_sub_attacks_at_3(self, techs: list[str], hits: int) -> None:
        """1 SUB v 1 CA, SUB [3]: a miss at 2, a hit at 3."""
        out = resolve_json(
            bw(
                "sea",
                {"SUB": 1},
                {"CA": 1},
                rnd({"SUB": [3]}, {"CA": [6]} if not hits else {}),
                technologies={"attacker": techs},
            )
        )
        assert first_round(out)["sub_hits"]["attacker"] == hits

    def test_a_super_sub_still_defends_at_2(self) -> None:
        """ "Super Sub Defence Bonus" is 0 in big_world_1942.xml: SUB [3] misses."""
        out = resolve_json(
            bw(
                "sea",
                {"CA": 1},
                {"SUB": 1},
                rnd({"CA": [6]}, {"SUB": [3]}),
                technologies={"defender": ["Super Subs"]},
            )
        )
        assert first_round(out)["defender_hits"] == 0


# --------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------

ONE_ON_ONE = {"kind": "land", "attacker": {"INF": 1}, "defender": {"INF": 1}}


def duel(attacker: list[int], defender: list[int] | None, **more: list[int]) -> dict[str, Any]:
    """1 INF v 1 INF, one round: the attacker's INF dice, the defender's (None: no INF
    list) and more defender lists by unit."""
    dice = {"INF": defender} if defender is not None else {}
    return bw("land", {"INF": 1}, {"INF": 1}, rnd({"INF": attacker}, {**dice, **more}))


class TestErrors:
    @pytest.mark.parametrize(
        ("doc", "field"),
        [
            (bw("land", {"XYZ": 1}, {"INF": 1}), "attacker.XYZ"),
            (bw("land", {"INF": 1}, {"XYZ": 1}), "defender.XYZ"),
            (bw("land", {"INF": 1, "BB": 1}, {"INF": 1}), "attacker.BB"),
            (bw("land", {"INF": 1}, {"INF": 1, "TRN": 1}), "defender.TRN"),
            (bw("sea", {"INF": 1}, {"DD": 1}), "attacker.INF"),
            (bw("land", {"AA": 1}, {"INF": 1}), "attacker.AA"),
            (duel([], [6]), "rounds[0].attacker.INF"),
            (duel([6], None), "rounds[0].defender.INF"),
            (duel([6, 6], [6]), "rounds[0].attacker.INF"),
            (duel([6], [6], ARM=[1]), "rounds[0].defender.ARM"),
            (duel([7], [6]), "rounds[0].attacker.INF[0]"),
            (duel([6], [6, 0]), "rounds[0].defender.INF[1]"),
            ({**ONE_ON_ONE, "version": 1, "ruleset": "big_world_1943"}, "ruleset"),
            (bw("land", {"INF": 1}, {"INF": 1}, low_luck=1), "low_luck"),
        ],
    )
    def test_a_bad_document_names_its_field(self, doc: dict[str, Any], field: str) -> None:
        assert refused(doc).field == field

    def test_too_few_dice_says_how_many(self) -> None:
        error = refused(bw("land", {"INF": 2}, {"INF": 1}, rnd({"INF": [6]}, {"INF": [6]})))
        assert error.field == "rounds[0].attacker.INF"
        assert "throw 2 dice" in error.problem

    def test_too_few_dice_for_supported_infantry_says_how_many(self) -> None:
        """3 INF + 2 ART throw 3 INF dice (2 supported, 1 not); 2 were written."""
        error = refused(
            bw(
                "land",
                {"INF": 3, "ART": 2},
                {"INF": 5},
                rnd({"INF": [2, 2], "ART": [3, 3]}, {"INF": [6] * 5}),
            )
        )
        assert error.field == "rounds[0].attacker.INF"
        assert "throw 3 dice" in error.problem

    def test_a_round_after_the_battle_names_the_outcome(self) -> None:
        doc = bw(
            "land",
            {"INF": 1},
            {"INF": 1},
            rnd({"INF": [6]}, {"INF": [1]}),
            rnd({"INF": [1]}, {"INF": [6]}),
        )
        error = refused(doc)
        assert error.field == "rounds[1]"
        assert "defender-wins" in error.problem

    def test_an_unknown_unit_is_listed_with_the_known_ones(self) -> None:
        error = refused(bw("land", {"XYZ": 1}, {"INF": 1}))
        assert "Big World 1942" in error.problem and "ART" in error.problem

    def test_big_world_inside_a_turn_document_is_refused(self) -> None:
        """A turn's battles are Classic's: a Big World battle in one names its place."""
        inner = {"version": 1, "battles": [bw("land", {"INF": 1}, {"INF": 1})]}
        assert refused(inner).field == "battles[0].ruleset"
        outer = {"version": 1, "ruleset": "big_world_1942", "battles": [ONE_ON_ONE]}
        assert refused(outer).field == "ruleset"


# --------------------------------------------------------------------------------------
# Classic is unchanged
# --------------------------------------------------------------------------------------


CLASSIC: dict[str, Any] = {
    "version": 1,
    "kind": "land",
    "amphibious": 1,
    "attacker": {"INF": 2, "BB": 1},
    "defender": {"INF": 2, "ARM": 1},
    "rounds": [
        {"bombard": [1], "attacker": {"INF": [1, 6]}, "defender": {"INF": [6, 6], "ARM": [3]}}
    ],
}


class TestClassicUnchanged:
    def test_with_or_without_ruleset_classic(self) -> None:
        plain = resolve_json(CLASSIC)
        named = resolve_json({**CLASSIC, "ruleset": "classic"})
        assert plain == named
        assert "ruleset" not in plain

    def test_classic_numbers_still_apply(self) -> None:
        """Classic's armour defends at 2 (ARM [3] misses; Big World's defends at 3); the
        bombardment and the INF [1] take the two defending INF."""
        out = resolve_json(CLASSIC)
        played = first_round(out)
        assert played["bombard_hits"] == 1
        assert played["defender_hits"] == 0
        assert out["survivors"] == {"attacker": {"INF": 2}, "defender": {"ARM": 1}}

    def test_the_same_dice_under_big_world(self) -> None:
        """The same battle written for Big World: ARM [3] hits (defends at 3)."""
        out = resolve_json(
            bw(
                "land",
                {"INF": 2, "BB": 1},
                {"INF": 2, "ARM": 1},
                {
                    "bombard": {"BB": [1]},
                    "attacker": {"INF": [1, 6]},
                    "defender": {"INF": [6], "ARM": [3]},
                },
                amphibious=1,
            )
        )
        assert first_round(out)["defender_hits"] == 1

    def test_a_classic_turn_document(self) -> None:
        one = {**ONE_ON_ONE, "rounds": [{"attacker": {"INF": [1]}, "defender": {"INF": [6]}}]}
        out = resolve_json({"version": 1, "battles": [one]})
        assert out["battles"][0]["outcome"] == "attacker-wins"


# --------------------------------------------------------------------------------------
# The quotes above are the rule book's
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("quote", docstring_quotes(globals()), ids=lambda q: q[:40])
def test_the_rules_quoted_are_in_the_rule_book(quote: str, triplea_rule_book: str) -> None:
    assert " ".join(quote.split()) in " ".join(triplea_rule_book.split())
