"""The exact odds follow the combat sequence the engine follows: each case a battle small
enough to work out by hand, in fractions, the rule it comes from quoted."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import pytest

from adjudicator.odds import exact_odds, odds_json
from adjudicator.units import UnitType


def battle(kind: str, attacker: dict[str, int], defender: dict[str, int], **kw: Any) -> Any:
    return {"version": 1, "kind": kind, "attacker": attacker, "defender": defender, **kw}


def outcome(doc: dict[str, Any]) -> tuple[F, F, F]:
    found = exact_odds(doc)
    return found.attacker_wins, found.defender_wins, found.draw


class TestLandCombatSequence:
    def test_defending_casualties_fire_back(self) -> None:
        """Facts sheet 1: "The defender rolls all units, including those just chosen as
        casualties. Fire is simultaneous, so defending casualties always shoot back."
        1 INF v 1 INF: a round decides with 1 - (5/6)(4/6) = 4/9; both die in (1/6)(2/6)."""
        assert outcome(battle("land", {"INF": 1}, {"INF": 1})) == (F(1, 4), F(5, 8), F(1, 8))

    def test_aa_fires_before_round_one(self) -> None:
        """Facts sheet 1: "AA fires, before round 1 only: 1 die per attacking plane, a 1
        hits, the attacker picks which plane dies, and there is no return fire." A fighter
        that survives the gun (5/6) then fights as if no gun were there."""
        without = exact_odds(battle("land", {"FTR": 1}, {"INF": 1}))
        gun = exact_odds(battle("land", {"FTR": 1}, {"INF": 1, "AA": 1}))
        assert gun.attacker_wins == F(5, 6) * without.attacker_wins
        assert gun.defender_wins == F(1, 6) + F(5, 6) * without.defender_wins

    def test_only_planes_never_capture(self) -> None:
        """Facts sheet 1: "If both die, or only planes survive, the defender keeps the
        territory." """
        out = odds_json(battle("land", {"FTR": 1}, {"INF": 1}))
        assert out["attacker_wins"] > 0 and out["captures"] == 0

    def test_support_shots_join_round_one(self) -> None:
        """Facts sheet 1, land battle: "(Amphibious assaults, round 1 only) battleship
        support shots"; the defender's casualties still fire back. Round 1: the INF is hit
        with 1 - (5/6)(2/6) = 13/18 and fires back 1/3; then 1 INF v 1 INF (1/4, 5/8, 1/8)
        with 5/27 left. Wins 13/27 + (5/27)(1/4) = 19/36, loses 5/54 + (5/27)(5/8) = 5/24."""
        doc = battle("land", {"INF": 1, "BB": 1}, {"INF": 1}, amphibious=1)
        assert outcome(doc) == (F(19, 36), F(5, 24), F(19, 72))

    def test_amphibious_assault_is_a_fight_to_the_death(self) -> None:
        """IAAPA Amphibious Assaults: "If units are unloaded from a transport then the
        attacker may not retreat any ground units. It is a fight to the death"."""
        doc = battle("land", {"INF": 2}, {"INF": 2}, amphibious=1, retreat={"after_round": 1})
        assert exact_odds(doc).retreated == 0

    def test_heavy_bombers_roll_three_dice(self) -> None:
        """Heavy Bombers: an attacking bomber throws 3 dice. It misses with (2/6)^3 = 1/27;
        the INF hits 1/3: wins (26/27)(2/3), loses (1/27)(1/3), both (26/27)(1/3), over the
        79/81 a round decides."""
        doc = battle("land", {"BMB": 1}, {"INF": 1}, technologies={"attacker": ["Heavy Bombers"]})
        assert outcome(doc) == (F(52, 79), F(1, 79), F(26, 79))


class TestNavalCombatSequence:
    def test_sub_first_strike_casualties_do_not_fire_back(self) -> None:
        """Facts sheet 1, naval battle: "Attacking subs fire first ... Ships hit by the sub
        strike are removed at once and do not fire back." 1 SUB v 1 BB: the sub sinks it
        with 1/3, else the BB sinks the sub with 2/3: 3/7 against 4/7, never both."""
        assert outcome(battle("sea", {"SUB": 1}, {"BB": 1})) == (F(3, 7), F(4, 7), F(0))

    def test_subs_hit_only_ships(self) -> None:
        """Facts sheet 1: "Subs hit only ships. Planes can hit subs. A sub attacked only by
        planes cannot shoot back." An attacking sub never sinks a lone fighter."""
        assert outcome(battle("sea", {"SUB": 1}, {"FTR": 1})) == (F(0), F(1), F(0))

    def test_subs_lost_first_against_air_that_cannot_retreat(self) -> None:
        """IAAPA Default Orders of Loss, note: "In a no retreat situation involving only
        attacking air units, defending subs are lost before other defending units." """
        plain = odds_json(battle("sea", {"FTR": 1}, {"TRN": 1, "SUB": 1}))
        stuck = odds_json(battle("sea", {"FTR": 1}, {"TRN": 1, "SUB": 1}, no_retreat=1))
        assert {"SUB": 1} in [s["units"] for s in plain["survivors"]["defender"]]
        assert {"TRN": 1} not in [s["units"] for s in plain["survivors"]["defender"]]
        assert {"TRN": 1} in [s["units"] for s in stuck["survivors"]["defender"]]
        assert {"SUB": 1} not in [s["units"] for s in stuck["survivors"]["defender"]]


class TestLowLuck:
    """TripleA rule book, "Low Luck vs. Dice": "all of the attacker's units have their attack
    powers added together. The total is then divided by the dice sides (6), and if there is
    any remainder it is rolled for. The defender does the same with the defense powers of
    all their units." """

    def test_the_rule_books_example(self) -> None:
        """ "Germany using 4 armour to attack Russia, which is defending with 2 infantry plus
        1 armour ... The total is 12 attack power (4 x 3). This is then divided by 6, giving
        us 2 hits, and zero remainder." The book's defence, "7 defense power (2x2 + 1x3)",
        is its own map's armour (defending at 3); in Classic armour defends at 2, so Russia
        has 6 power: exactly 1 hit. Round 1 leaves Russia 1 ARM and Germany 3 ARM, always.
        Round 2: 9 power is at least 1 hit, so Russia's armour dies; its 2 power is a die at
        2. Germany always wins, in two rounds, with 3 ARM 2/3 and 2 ARM 1/3."""
        doc = battle("land", {"ARM": 4}, {"INF": 2, "ARM": 1}, low_luck=True)
        found = exact_odds(doc)
        assert (found.attacker_wins, found.defender_wins, found.draw) == (1, 0, 0)
        left = {units.count(UnitType.ARM): p for units, p in found.attacker_survivors}
        assert left == {3: F(2, 3), 2: F(1, 3)}
        assert [r["round"] for r in odds_json(doc)["rounds"]] == [2]

    def test_the_rule_books_defence_with_a_remainder(self) -> None:
        """The book's second half, "7 defense power ... giving us 1 hit, and 1 remainder.
        Russia now rolls 1 die at 1": with 3 INF and 1 ARM defending (3x2 + 1x2 = 8 power, 1
        hit and a die at 2), round 1 costs Germany 1 ARM, or 2 one time in 3."""
        doc = battle(
            "land", {"ARM": 4}, {"INF": 3, "ARM": 1}, low_luck=True, retreat={"after_round": 1}
        )
        found = exact_odds(doc)
        left = {units.count(UnitType.ARM): p for units, p in found.retreating}
        assert left == {3: F(2, 3), 2: F(1, 3)}

    def test_a_remainder_is_one_die(self) -> None:
        """1 INF v 1 INF by Low Luck is the same as by dice: 1 power and 2 power, one die
        each."""
        lucky = battle("land", {"INF": 1}, {"INF": 1}, low_luck=1)
        assert outcome(lucky) == (F(1, 4), F(5, 8), F(1, 8))

    def test_a_sure_hit_needs_no_die(self) -> None:
        """6 INF attacking (6 power: exactly 1 hit) 1 INF (2 power: a die at 2): the
        defender always dies in round 1 and takes an infantry with it 1 time in 3."""
        found = exact_odds(battle("land", {"INF": 6}, {"INF": 1}, low_luck=True))
        assert (found.attacker_wins, found.defender_wins, found.draw) == (1, 0, 0)
        assert found.attacker_ipc_lost == F(1, 3) * 3

    def test_a_low_luck_flag_must_be_a_flag(self) -> None:
        with pytest.raises(ValueError, match="low_luck"):
            exact_odds(battle("land", {"INF": 1}, {"INF": 1}, low_luck="yes"))
