"""Low Luck battle rounds (issue 18, point 3) as the rule book gives them: TripleA rule book,
"Low Luck vs. Dice". The engine lays the round out and adds it up; the dice server only
supplies the remainder dice (``draw``), given here."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest

from adjudicator.luck import (
    expected_hits,
    hits_distribution,
    hits_variance,
    low_luck_volley,
    luck_of,
)
from adjudicator.powers import Power
from adjudicator.rolls import BattleRoll, RollHeader
from adjudicator.rolls.lowluck import LowLuckRoll, stopped_by_aa, volley_lines, volleys
from adjudicator.units import UnitType as U

ADDED_UP = (
    "all of the attacker’s units have their attack powers added together. The total is then "
    "divided by the dice sides (6), and if there is any remainder it is rolled for."
)
EXAMPLE = "The total is 12 attack power (4 x 3)."
RUSSIA = "The total for her is 7 defense power (2x2 + 1x3)."
ONE_DIE = "Russia now rolls 1 die at 1, to see if she gets 1 more hit."


AA_FIRST = (
    "They will roll a single die at 1, for each attacking aircraft in the battle. Any air "
    "that is hit immediately dies, with no chance to fire back."
)


def dice(*values: int) -> Callable[[int], list[int]]:
    """A draw that hands out these dice in order, one stream over every call (as the dice
    server's draw does), and fails if asked for more than it has."""
    given = list(values)

    def draw(n: int) -> list[int]:
        assert n <= len(given), f"asked for {n} more dice, the test has {len(given)} left"
        out = given[:n]
        del given[:n]
        return out

    return draw


def roll(attacker: dict[U, int], defender: dict[U, int], **kw: object) -> LowLuckRoll:
    header = RollHeader(1, 1, Power.GERMANY)
    return LowLuckRoll(
        BattleRoll.of(
            header,
            "Ukraine",
            tuple(attacker.items()),
            tuple(defender.items()),
            **kw,  # type: ignore[arg-type]
        )
    )


class TestLowLuckVsDice:
    """In "Low Luck", all of the attacker's units have their attack powers added together.
    The total is then divided by the dice sides (6), and if there is any remainder it is
    rolled for. The defender does the same with the defense powers of all their units."""

    def test_the_rule_is_quoted(self, triplea_rule_book: str) -> None:
        text = triplea_rule_book.replace("\n", " ")
        for words in (ADDED_UP, EXAMPLE, RUSSIA, ONE_DIE):
            assert words in text, words

    @pytest.mark.parametrize(("die", "russia"), [(1, 2), (2, 1), (6, 1)])
    def test_the_rule_books_example(self, die: int, russia: int) -> None:
        """4 armour attacking: 12 power = 2 hits, no die. The book's defence (2 infantry and
        1 armour, 7 power: 1 hit and a die hitting on 1) is Big World's, whose armour
        defends at 3; in the Classic game armour defends at 2, so the same 7 power here is
        3 infantry and a bomber (3x2 + 1x1)."""
        data = roll({U.ARM: 4}, {U.INF: 3, U.BMB: 1}).record("g@example.org", dice(die))
        germany, soviet = data["volleys"]
        assert germany == {
            "side": "attacker", "fire": "units", "power": 12, "sure": 2, "remainder": 0,
            "dice": [], "hits": 2,
        }  # fmt: skip
        assert (soviet["power"], soviet["sure"], soviet["remainder"]) == (7, 1, 1)
        assert soviet["dice"] == [die] and soviet["hits"] == russia
        assert data["dice"] == [die]
        assert data["hits"] == {"attacker": 2, "defender": russia}

    def test_classic_armour_defends_at_2(self) -> None:
        data = roll({U.ARM: 4}, {U.INF: 2, U.ARM: 1}).record("g@example.org", dice())
        assert [v["power"] for v in data["volleys"]] == [12, 6]  # no die on either side

    def test_no_remainder_no_die(self) -> None:
        data = roll({U.INF: 3, U.ARM: 1}, {U.INF: 3}).record("g@example.org", dice())
        assert data["dice"] == [] and data["hits"] == {"attacker": 1, "defender": 1}


class TestVolleysThatCannotShareHits:
    """The hits of an AA gun (only aircraft), of the support shots (fired before the battle)
    and of submarines (never aircraft) are added up apart, in the order a dice round throws
    them, as the exact calculator adds them."""

    def test_aa_bombard_subs_and_units_each_their_own_volley(self) -> None:
        fired = roll(
            {U.SUB: 2, U.FTR: 2, U.BMB: 1},
            {U.INF: 2, U.AA: 1},
            bombard=((U.BB, 2),),
        ).volleys
        assert [(v.fire, v.side, v.power) for v in fired] == [
            ("aa", "defender", 3),  # three aircraft, a shot each at 1
            ("bombard", "attacker", 8),
            ("subs", "attacker", 4),
            ("units", "attacker", 10),
            ("units", "defender", 4),
        ]
        data = roll(
            {U.SUB: 2, U.FTR: 2, U.BMB: 1}, {U.INF: 2, U.AA: 1}, bombard=((U.BB, 2),)
        ).record("g@example.org", dice(4, 3, 5, 4, 2))
        # one die a volley, each at its remainder: AA 3, bombard 2, subs 4, units 4 and 4
        assert data["dice"] == [4, 3, 5, 4, 2]
        assert [v["hits"] for v in data["volleys"]] == [0, 1, 0, 2, 1]
        assert data["hits"] == {"attacker": 3, "defender": 1}
        assert not stopped_by_aa(data)

    def test_an_aa_hit_stops_the_throw_before_the_downed_aircraft_fire(
        self, triplea_rule_book: str
    ) -> None:
        """The AA gun: "They will roll a single die at 1, for each attacking aircraft in the
        battle. Any air that is hit immediately dies, with no chance to fire back." By Low Luck
        the attacker's units fire one added-up power, so a downed aircraft's power cannot be
        taken out of a volley already thrown: when the AA gun hits, only its volley is thrown,
        and the round goes on in the next roll."""
        assert " ".join(AA_FIRST.split()) in " ".join(triplea_rule_book.split())
        data = roll({U.INF: 3, U.FTR: 2, U.BMB: 1}, {U.INF: 2, U.AA: 1}).record(
            "g@example.org", dice(2, 6, 6)
        )
        # three aircraft: power 3, no sure hit, a die at 3 or less: 2 hits
        assert data["volleys"] == [
            {"side": "defender", "fire": "aa", "power": 3, "sure": 0, "remainder": 3,
             "dice": [2], "hits": 1}
        ]  # fmt: skip
        assert data["dice"] == [2] and data["hits"] == {"attacker": 0, "defender": 1}
        assert {g["unit"] for g in data["groups"]} == {"AA"}  # one group per aircraft type
        assert [u["unit"] for u in data["attacker"]] == ["INF", "FTR", "BMB"]  # as entered
        assert stopped_by_aa(data)
        assert "rolls the round again" in volley_lines(data)[-1]

    def test_six_aircraft_are_one_sure_aa_hit(self) -> None:
        data = roll({U.FTR: 6}, {U.INF: 1, U.AA: 1}).record("g@example.org", dice())
        assert [(v["fire"], v["hits"], v["dice"]) for v in data["volleys"]] == [("aa", 1, [])]
        assert data["dice"] == [] and stopped_by_aa(data)

    def test_heavy_bombers_count_three_dice_each(self) -> None:
        [bombers] = volleys(roll({U.BMB: 1}, {U.INF: 1}, options=["heavy-bombers"]).roll.groups)[:1]
        assert bombers.power == 12

    def test_subs_first_fires_only_the_subs(self) -> None:
        data = roll({U.SUB: 3, U.BB: 1}, {U.BB: 1}, options=["subs-first"]).record(
            "g@example.org", dice()
        )
        assert [(v["fire"], v["power"]) for v in data["volleys"]] == [("subs", 6)]
        assert data["hits"] == {"attacker": 1, "defender": 0}

    def test_the_calculator_agrees_on_each_volley(self) -> None:
        from fractions import Fraction

        from adjudicator.odds.rounds import low_luck

        for power in range(0, 20):
            sure, rest = divmod(power, 6)
            got = low_luck(power, Fraction)
            want = (
                {sure: Fraction(6 - rest, 6), sure + 1: Fraction(rest, 6)}
                if rest
                else {sure: Fraction(1)}
            )
            assert got == want


class TestDiceLuckOfTheExample:
    """Dice luck (issue 18, point 5) of the rule book's Low Luck example: only the remainder
    die is luck (adjudicator.luck.low_luck_volley)."""

    def test_the_rule_books_defence_of_power_7(self, triplea_rule_book: str) -> None:
        """The rule book: "Now it is Russia’s turn to fire. The total for her is 7 defense power
        (2x2 + 1x3). This is then divided by 6, giving us 1 hit, and 1 remainder. Russia now
        rolls 1 die at 1, to see if she gets 1 more hit. We will pretend she misses for this
        example." Expected 7/6; 1 hit (the die missed) happens 5 times in 6, 2 hits once in 6."""
        for quoted in (RUSSIA, ONE_DIE):
            assert quoted in triplea_rule_book.replace("\n", " ")
        missed = [low_luck_volley(7, 1)]
        assert expected_hits(missed) == Fraction(7, 6)
        assert hits_variance(missed) == Fraction(1, 6) * Fraction(5, 6)
        assert hits_distribution(missed) == (Fraction(0), Fraction(5, 6), Fraction(1, 6))
        luck = luck_of(missed)
        assert (luck.dice, luck.hits, luck.expected) == (1, 1, Fraction(7, 6))
        assert luck.p_at_most == pytest.approx(5 / 6)
        assert luck.p_at_least == 1.0
        assert luck.surplus == Fraction(-1, 6)

        hit = luck_of([low_luck_volley(7, 2)])
        assert (hit.dice, hit.hits, hit.expected) == (1, 2, Fraction(7, 6))
        assert hit.p_at_most == 1.0
        assert hit.p_at_least == pytest.approx(1 / 6)
        assert hit.surplus == Fraction(5, 6)

    def test_the_rule_books_attack_of_power_12_is_no_luck(self, triplea_rule_book: str) -> None:
        """The rule book: "The total is 12 attack power (4 x 3). This is then divided by 6,
        giving us 2 hits, and zero remainder." No die is thrown: the mean is the hits, and
        nothing else could have happened."""
        assert EXAMPLE in triplea_rule_book.replace("\n", " ")
        luck = luck_of([low_luck_volley(12, 2)])
        assert (luck.dice, luck.hits) == (0, 2)
        assert luck.expected == Fraction(2) and luck.variance == Fraction(0)
        assert luck.z is None and luck.surplus == 0
        assert luck.p_at_most == luck.p_at_least == 1.0
        assert hits_distribution([low_luck_volley(12, 2)]) == (
            Fraction(0),
            Fraction(0),
            Fraction(1),
        )
