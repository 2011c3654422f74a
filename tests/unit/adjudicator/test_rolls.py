"""What each roll throws, in what order, and the entry data it records (the rules side of
the dice server, moved here from the server's request modules).

IAAPA "Using the Dice Server": "carefully and correctly enter all header information and
the exact number and types of attacking and defending units"; Error Correction III: "the
IAAPA Dice Server lists the dice in the order that they were thrown ... The die rolls will
be counted from left to right".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from adjudicator.names import power_names, technology_label, technology_names
from adjudicator.powers import Power
from adjudicator.rolls import (
    BattleRoll,
    BombingRoll,
    RocketRoll,
    RollHeader,
    RollRuleError,
    TechRoll,
)
from adjudicator.units import Technology
from adjudicator.units import UnitType as U
from tests.dice import fixed

HEADER = RollHeader(round=1, turn=2, power=Power.UK, comment="Attack #1")


def stream(values: list[int]) -> Callable[[int], list[int]]:
    """Hands out the prepared dice in order; fails if the roll wants more than prepared."""
    source: Iterator[int] = iter(values)
    return lambda n: [next(source) for _ in range(n)]


def battle(
    attacker: tuple[tuple[U, int], ...] = ((U.INF, 8), (U.ARM, 1), (U.FTR, 2)),
    defender: tuple[tuple[U, int], ...] = ((U.INF, 10), (U.AA, 1)),
    bombard: tuple[tuple[U, int], ...] = (),
    options: tuple[str, ...] = (),
) -> BattleRoll:
    return BattleRoll.of(HEADER, "West Europe", attacker, defender, bombard, options)


def test_aa_fires_first_one_die_per_aircraft_then_attackers_then_defenders() -> None:
    roll = battle(((U.INF, 2), (U.FTR, 2), (U.BMB, 1)), ((U.INF, 3), (U.AA, 1)))
    # 2 AA for the FTR, 1 AA for the BMB, 2 INF, 2 FTR, 1 BMB, 3 defending INF.
    data = roll.record("p@x.org", fixed([1, 2, 1, 1, 2, 3, 4, 4, 5, 2, 3]))
    labels = [(g["side"], g["unit"], g.get("target")) for g in data["groups"]]
    assert labels == [
        ("defender", "AA", "FTR"),
        ("defender", "AA", "BMB"),
        ("attacker", "INF", None),
        ("attacker", "FTR", None),
        ("attacker", "BMB", None),
        ("defender", "INF", None),
    ]
    assert [g["dice"] for g in data["groups"]] == [[1, 2], [1], [1, 2], [3, 4], [4], [5, 2, 3]]
    # Each group's hits as thrown: AA on 1, INF on 1, FTR on 3, BMB on 4, defending INF on 2.
    assert [g["hits"] for g in data["groups"]] == [1, 1, 1, 1, 1, 1]
    assert data["hits"] == {"attacker": 3, "defender": 3}
    assert data["dice"] == [1, 2, 1, 1, 2, 3, 4, 4, 5, 2, 3]


def test_the_aa_groups_follow_the_listing_order_of_the_aircraft() -> None:
    """A bomber listed before the fighters is shot at first; the ``target`` says which
    aircraft the dice were thrown for, not which one a hit removes."""
    roll = battle(((U.BMB, 1), (U.FTR, 2)), ((U.INF, 1), (U.AA, 1)))
    data = roll.record("x", fixed([1, 6, 6, 6, 6, 6, 6]))
    assert [(g["unit"], g.get("target")) for g in data["groups"]][:2] == [
        ("AA", "BMB"),
        ("AA", "FTR"),
    ]


def test_the_entry_data_is_the_ledger_format() -> None:
    data = battle().record("uk@example.org", fixed([6] * 23))
    assert set(data) == {
        "round",
        "turn",
        "country",
        "battle",
        "by",
        "attacker",
        "defender",
        "options",
        "sides",
        "groups",
        "dice",
        "hits",
        "comment",
    }
    assert (data["country"], data["battle"], data["sides"]) == ("UK", "West Europe", 6)
    assert data["attacker"] == [
        {"unit": "INF", "count": 8},
        {"unit": "ARM", "count": 1},
        {"unit": "FTR", "count": 2},
    ]
    assert data["groups"][0] == {
        "side": "defender",
        "unit": "AA",
        "count": 2,
        "hit_on": 1,
        "dice": [6, 6],
        "hits": 0,
        "target": "FTR",
    }


def test_the_ussr_is_recorded_as_ussr() -> None:
    """One name per power in everything recorded (README, "Power names")."""
    header = RollHeader(1, 1, power_names().resolve("Russia").value)
    roll = BattleRoll.of(header, "Karelia S.S.R.", ((U.INF, 1),), ((U.INF, 1),))
    assert roll.record("x", fixed([6, 6]))["country"] == "USSR"


def test_combat_values_of_the_second_edition() -> None:
    units = (U.INF, U.ARM, U.FTR, U.BMB, U.SUB, U.AC, U.BB)
    attack = battle(tuple((u, 1) for u in units), ())
    assert [g["hit_on"] for g in attack.record("x", fixed([6] * 7))["groups"]] == [
        1,
        3,
        3,
        4,
        2,
        1,
        4,
    ]
    defend = battle((), tuple((u, 1) for u in (*units, U.TRN)))
    assert [g["hit_on"] for g in defend.record("x", fixed([6] * 8))["groups"]] == [
        2,
        2,
        4,
        1,
        2,
        3,
        4,
        1,
    ]


def test_attacking_transports_throw_nothing_but_are_recorded() -> None:
    data = battle(((U.TRN, 2), (U.BB, 1)), ((U.SUB, 1),)).record("x", fixed([4, 2]))
    assert [g["unit"] for g in data["groups"]] == ["BB", "SUB"]
    assert {"unit": "TRN", "count": 2} in data["attacker"]


def test_bombard_shots_come_before_the_attack_and_hit_on_four() -> None:
    roll = battle(defender=(), bombard=((U.BB, 2),))
    data = roll.record("x", fixed([4, 5, 1, 1, 1, 1, 1, 1, 1, 1, 6, 6, 6]))
    first = data["groups"][0]
    assert (first["unit"], first["fire"], first["dice"], first["hits"]) == (
        "BB",
        "bombard",
        [4, 5],
        1,
    )
    assert data["bombard"] == [{"unit": "BB", "count": 2}]


def test_subs_first_throws_only_the_attacking_subs() -> None:
    roll = battle(((U.SUB, 2), (U.FTR, 1)), ((U.TRN, 1), (U.BB, 1)), options=("subs-first",))
    data = roll.record("x", fixed([2, 3]))
    assert [(g["side"], g["unit"]) for g in data["groups"]] == [("attacker", "SUB")]
    assert data["hits"] == {"attacker": 1, "defender": 0}


def test_defenders_only_mode_throws_only_the_defence() -> None:
    data = battle(options=("defenders-only",)).record("x", fixed([1] * 12))
    assert {g["side"] for g in data["groups"]} == {"defender"}
    # The AA still fires at the two listed fighters: it belongs to the defence.
    assert [g["unit"] for g in data["groups"]] == ["AA", "INF"]
    assert data["hits"] == {"attacker": 0, "defender": 12}


def test_technology_options() -> None:
    roll = battle(
        ((U.BMB, 2), (U.SUB, 1)),
        ((U.FTR, 1),),
        options=("heavy-bombers", "super-subs", "jet-fighters"),
    )
    data = roll.record("x", fixed([4, 4, 4, 5, 5, 5, 3, 5]))
    bmb, sub, ftr = data["groups"]
    assert (bmb["dice"], bmb["hits"]) == ([4, 4, 4, 5, 5, 5], 3)
    assert (sub["hit_on"], sub["hits"]) == (3, 1)
    assert (ftr["hit_on"], ftr["hits"]) == (5, 1)
    assert data["options"] == ["heavy-bombers", "jet-fighters", "super-subs"]


@pytest.mark.parametrize(
    ("kw", "field", "words"),
    [
        ({"defender": ((U.AA, 2),)}, "defender", "at most one AA"),
        ({"attacker": (), "defender": ()}, "attacker", "no units on either side"),
        ({"options": ("subs-first",)}, "options", "needs attacking SUBs"),
        (
            {"attacker": ((U.SUB, 1),), "options": ("subs-first", "defenders-only")},
            "options",
            "cannot be combined",
        ),
        ({"defender": (), "options": ("defenders-only",)}, "defender", "needs defending"),
        ({"attacker": ((U.TRN, 1),), "defender": ()}, "attacker", "no dice"),
    ],
)
def test_rolls_the_rules_refuse(kw: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(RollRuleError) as info:
        battle(**kw)
    assert info.value.field == field and words in info.value.problem


def test_tech_roll_breakthroughs_and_chart_rerolls() -> None:
    """Facts sheet 7 (from W6, SPEC p.10-11): "Each 6 is a breakthrough, then a second die
    chooses which technology. If you already own it, re-roll." Chart: 1 Jet Power,
    2 Rockets, 3 Super Subs, 4 Long Range Aircraft, 5 Industrial Technology, 6 Heavy Bombers."""
    roll = TechRoll(RollHeader(3, 3, Power.GERMANY), 4, 4, (Technology.JET_POWER,))
    # Research 6, 2, 6, 5: two breakthroughs. Chart: 1 (owned, re-roll), 6; then 6 (won in
    # this roll, re-roll), 2.
    data = roll.record("g@x.org", stream([6, 2, 6, 5, 1, 6, 6, 2]))
    assert data["dice"] == [6, 2, 6, 5, 1, 6, 6, 2]
    assert data["breakthroughs"] == 2
    assert data["technologies"] == ["Heavy Bombers", "Rockets"]
    assert [g["purpose"] for g in data["groups"]] == ["research", "chart", "chart"]
    assert [g["dice"] for g in data["groups"]] == [[6, 2, 6, 5], [1, 6], [6, 2]]
    assert (data["declared"], data["rolled"], data["cost"]) == (4, 4, 20)
    assert data["owned"] == ["Jet Power"]


def test_tech_roll_with_every_technology_owned_wastes_the_breakthrough() -> None:
    roll = TechRoll(RollHeader(3, 3, Power.GERMANY), 1, 1, tuple(Technology))
    data = roll.record("x", stream([6]))
    assert data["technologies"] == [] and data["groups"][1]["technology"] == "none left"


def test_technology_labels_are_the_charts() -> None:
    """The labels recorded before the move ("Jet Power" ... "Heavy Bombers") are kept, and
    every spelling the tech roll accepted still resolves."""
    assert [technology_label(t) for t in Technology] == [
        t.name.replace("_", " ").title() for t in Technology
    ]
    old_names = {
        "jet fighters": Technology.JET_POWER,
        "jets": Technology.JET_POWER,
        "jftr": Technology.JET_POWER,
        "lr": Technology.LONG_RANGE_AIRCRAFT,
        "lra": Technology.LONG_RANGE_AIRCRAFT,
        "long range": Technology.LONG_RANGE_AIRCRAFT,
        "industrial tech": Technology.INDUSTRIAL_TECHNOLOGY,
        "hbmb": Technology.HEAVY_BOMBERS,
        "ss": Technology.SUPER_SUBS,
        "super-subs": Technology.SUPER_SUBS,
    }
    for written, tech in old_names.items():
        assert technology_names().resolve(written).value is tech


def test_bombing_aa_fires_first_then_survivors_roll_damage() -> None:
    """Facts sheet 6: "AA fires first (1 die per bomber, a 1 kills). Each surviving bomber
    rolls 1 die, or 3 with Heavy Bombers. The dice are summed"."""
    roll = BombingRoll(RollHeader(3, 3, Power.GERMANY), "Russia", 3, 1, False)
    data = roll.record("x", stream([1, 4, 2, 5, 6]))
    assert [g["purpose"] for g in data["groups"]] == ["aa", "damage"]
    assert (data["shot_down"], data["damage"]) == (1, 11)
    assert data["groups"][1]["count"] == 2


def test_heavy_bombers_roll_three_dice_each_and_no_aa_means_no_aa_dice() -> None:
    roll = BombingRoll(RollHeader(3, 3, Power.GERMANY), "UK", 2, 0, True)
    data = roll.record("x", stream([1, 2, 3, 4, 5, 6]))
    assert [g["purpose"] for g in data["groups"]] == ["damage"]
    assert (data["damage"], len(data["dice"])) == (21, 6)


def test_every_bomber_shot_down_throws_no_damage() -> None:
    roll = BombingRoll(RollHeader(3, 3, Power.GERMANY), "UK", 2, 1, False)
    data = roll.record("x", stream([1, 1]))
    assert (data["shot_down"], data["damage"], data["dice"]) == (2, 0, [1, 1])


def test_a_rocket_throws_one_die() -> None:
    """IAAPA Rocket Technology: "a country can only have one rocket shot per turn, never two
    or more"."""
    roll = RocketRoll(RollHeader(3, 3, Power.GERMANY), "UK", "West Europe")
    data = roll.record("x", stream([5]))
    assert (data["damage"], data["rockets"], data["from"], data["dice"]) == (
        5,
        1,
        "West Europe",
        [5],
    )
