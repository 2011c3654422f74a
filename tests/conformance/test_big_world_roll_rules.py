"""A Big World 1942 battle round on the dice server (:mod:`adjudicator.bigworld.roll`): what
it throws, in the order of the rule book's "Battle" segments, and how its dice are read.

The dice are given (``draw`` hands out fixed values), so every case is worked by hand from
the TripleA rule book and the numbers of ``big_world_1942.xml`` (INF 1/2, ART 2/2, ARM 3/3,
FTR 3/4, BMB 4/1, TRN 0/1, SUB 2/2, DD 2/2, CA 3/3, AC 1/1, BB 4/4). Each quote is checked
against the rule book.
"""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.bigworld.resolve import resolve_big_world
from adjudicator.bigworld.roll import (
    BigWorldRoll,
    BigWorldRollError,
    BigWorldRollHeader,
    big_world_roll_document,
    read_big_world_roll,
)
from adjudicator.bigworld.units import BigWorldUnit as W
from tests.conformance.conftest import docstring_quotes
from tests.dice import fixed

HEADER = BigWorldRollHeader(round=1, turn=3, country="Germany")


def thrown(roll: BigWorldRoll, dice: list[int]) -> dict[str, Any]:
    return roll.record("axis@example.org", fixed(dice))


def layout(data: dict[str, Any]) -> list[tuple[str, str, int, int, str]]:
    """Each group as (side, unit, count, hit_on, label)."""
    out = []
    for g in data["groups"]:
        label = g.get("fire") or g.get("support") or g.get("target") or ""
        if g.get("best_of"):
            label = f"best of {g['best_of']}"
        out.append((g["side"], g["unit"], g["count"], g["hit_on"], label))
    return out


def first_round(data: dict[str, Any]) -> dict[str, Any]:
    out = resolve_big_world(big_world_roll_document(data), void=True)
    rounds: list[dict[str, Any]] = out["rounds"]  # type: ignore[assignment]
    return rounds[0]


class TestOrderThrown:
    """Rule book, "Battle": the segments of a round. "First, attacking subs (stealth units)
    fire, and the defender allocates the casualties." "Next, defending subs fire using the
    equivalent procedure." "Next, any remaining attacking units fire", then "any remaining
    defending units fire using the equivalent procedure". Before round 1 the AA gun fires
    at each attacking aircraft."""

    def test_sea_round_subs_first_then_the_rest_as_listed(self) -> None:
        roll = BigWorldRoll.of(
            HEADER,
            "SZ 5 Greenland Sea",
            ((W.DD, 1), (W.SUB, 2), (W.BB, 1)),
            ((W.CA, 1), (W.SUB, 1), (W.TRN, 2)),
        )
        data = thrown(roll, [6] * 8)
        assert layout(data) == [
            ("attacker", "SUB", 2, 2, "subs"),
            ("defender", "SUB", 1, 2, "subs"),
            ("attacker", "DD", 1, 2, ""),
            ("attacker", "BB", 1, 4, ""),
            ("defender", "CA", 1, 3, ""),
            ("defender", "TRN", 2, 1, ""),
        ]
        assert data["ruleset"] == "big_world_1942"
        assert data["dice"] == [6] * 8

    def test_aa_fires_in_round_one_only(self) -> None:
        forces = ((W.INF, 2), (W.FTR, 1), (W.BMB, 1)), ((W.INF, 2), (W.AA, 1))
        first = BigWorldRoll.of(HEADER, "Eastern Poland", *forces)
        assert layout(thrown(first, [6] * 8))[:2] == [
            ("defender", "AA", 1, 1, "FTR"),
            ("defender", "AA", 1, 1, "BMB"),
        ]
        later = BigWorldRoll.of(BigWorldRollHeader(2, 3, "Germany"), "Eastern Poland", *forces)
        assert [g[1] for g in layout(thrown(later, [6] * 6))] == ["INF", "FTR", "BMB", "INF"]


class TestArtillery:
    """Rule book, Artillery: "if you had 3 infantry and 2 artillery, then 2 of the infantry
    would receive support and have their attacks increased to 2, while the 3rd infantry
    would stay at 1 attack." """

    def test_two_of_three_infantry_at_two(self) -> None:
        roll = BigWorldRoll.of(HEADER, "Eastern Poland", ((W.INF, 3), (W.ART, 2)), ((W.INF, 1),))
        data = thrown(roll, [2, 2, 2, 3, 3, 6])
        assert layout(data)[:3] == [
            ("attacker", "INF", 2, 2, "ART"),
            ("attacker", "INF", 1, 1, ""),
            ("attacker", "ART", 2, 2, ""),
        ]
        # The supported pair hit with their 2s; the third INF's 2 misses at 1.
        assert [g["hits"] for g in data["groups"]] == [2, 0, 0, 0]
        assert data["hits"] == {"attacker": 2, "defender": 0}


class TestHeavyBombers:
    """Big World plays LHTR heavy bombers: "Each of your bombers rolls 2 dice when attacking"
    (rule book, "Available Technologies"), and with LHTR the better of the two counts. The
    group's own hits count its dice as thrown (the verifier's check of every roll); the
    reading counts one hit per bomber."""

    def test_two_dice_one_hit(self) -> None:
        roll = BigWorldRoll.of(
            HEADER, "Eastern Poland", ((W.BMB, 1),), ((W.INF, 2),), options=["heavy-bombers"]
        )
        data = thrown(roll, [1, 2, 6, 6])
        assert layout(data)[0] == ("attacker", "BMB", 1, 4, "best of 2")
        assert data["groups"][0]["hits"] == 2  # as thrown
        assert first_round(data)["attacker_hits"] == 1  # the better die only


class TestSubmarineCasualtiesDoNotFire:
    """Rule book, "Battle": "If the defender has no anti-stealth units (destroyers) present,
    the non-submarine casualties are removed immediately and do not participate further in
    this combat." The roll throws for every unit listed; the reading makes the dice of such
    a casualty void (the last dice of its type)."""

    def test_no_destroyer_the_cruisers_last_die_is_void(self) -> None:
        roll = BigWorldRoll.of(HEADER, "SZ 5 Greenland Sea", ((W.SUB, 1),), ((W.CA, 2),))
        # SUB hits (2); the CAs throw 1 and 1: the second is void.
        data = thrown(roll, [2, 1, 1])
        r = first_round(data)
        assert r["void"] == {"defender": {"CA": [1]}}
        assert r["defender_hits"] == 1
        assert r["defender_casualties"] == {"CA": 1}
        lines = read_big_world_roll(data)
        assert any(line.startswith("  Void: defender CA 1") for line in lines)
        assert "  Hits: attacker 1, defender 1" in lines

    def test_with_a_destroyer_every_die_counts(self) -> None:
        roll = BigWorldRoll.of(HEADER, "SZ 5 Greenland Sea", ((W.SUB, 1),), ((W.CA, 1), (W.DD, 1)))
        data = thrown(roll, [2, 1, 1])
        r = first_round(data)
        assert r["void"] == {}
        assert r["defender_hits"] == 2


class TestAntiaircraft:
    """An aircraft the AA gun downs before round 1 does not fire: its die is void."""

    def test_a_downed_fighter_throws_no_battle_die(self) -> None:
        roll = BigWorldRoll.of(
            HEADER, "Eastern Poland", ((W.INF, 1), (W.FTR, 2)), ((W.INF, 1), (W.AA, 1))
        )
        data = thrown(roll, [1, 4, 6, 3, 3, 6])  # AA: 1 hits, 4 misses; INF 6; FTR 3 3
        r = first_round(data)
        assert r["aa_hits"] == 1
        assert r["void"] == {"attacker": {"FTR": [3]}}
        assert r["attacker_hits"] == 1


class TestBombardment:
    """Rule book, "Amphibious Combat": "The bombardment casualty does not get to return
    fire." Ships bombard in round 1 only; a DD only with Destroyer Bombard."""

    def test_the_casualty_does_not_fire(self) -> None:
        roll = BigWorldRoll.of(
            HEADER, "Eastern Poland", ((W.INF, 1),), ((W.INF, 2),), bombard=((W.BB, 1),)
        )
        data = thrown(roll, [4, 6, 2, 2])
        assert layout(data)[0] == ("attacker", "BB", 1, 4, "bombardment")
        r = first_round(data)
        assert r["bombard_hits"] == 1
        assert r["void"] == {"defender": {"INF": [2]}}
        assert r["defender_hits"] == 1

    def test_a_destroyer_needs_the_technology(self) -> None:
        with pytest.raises(BigWorldRollError) as caught:
            BigWorldRoll.of(HEADER, "Eastern Poland", ((W.INF, 1),), ((W.INF, 1),), ((W.DD, 1),))
        assert caught.value.field == "bombard"
        allowed = BigWorldRoll.of(
            HEADER,
            "Eastern Poland",
            ((W.INF, 1),),
            ((W.INF, 1),),
            ((W.DD, 1),),
            ["destroyer-bombard"],
        )
        assert layout(thrown(allowed, [6, 6, 6]))[0] == ("attacker", "DD", 1, 2, "bombardment")


class TestRefused:
    """What no Big World battle has is refused before any die, naming the field."""

    @pytest.mark.parametrize(
        ("attacker", "defender", "field"),
        [
            (((W.INF, 1), (W.DD, 1)), ((W.INF, 1),), "attacker"),
            (((W.DD, 1),), ((W.BMB, 1),), "defender"),
            (((W.INF, 1),), ((W.IC, 1),), "defender"),
            (((W.AA, 1),), ((W.INF, 1),), "attacker"),
        ],
    )
    def test_refusals(self, attacker: Any, defender: Any, field: str) -> None:
        with pytest.raises(BigWorldRollError) as caught:
            BigWorldRoll.of(HEADER, "Somewhere", attacker, defender)
        assert caught.value.field == field


@pytest.mark.parametrize("quote", docstring_quotes(globals()), ids=lambda q: q[:40])
def test_the_rules_quoted_are_in_the_rule_book(quote: str, triplea_rule_book: str) -> None:
    assert " ".join(quote.split()) in " ".join(triplea_rule_book.split())


def test_the_powers_and_their_alliances_are_the_game_files() -> None:
    """The six powers a Big World roll names are ``big_world_1942.xml``'s players, each in
    the alliance the file gives it (China is an Ally: its dice count for the Allies' luck)."""
    from adjudicator.bigworld.roll import BIG_WORLD_ALLIANCES, big_world_country
    from adjudicator.boards.shipped import big_world

    players = {big_world_country(p.name): p.alliance for p in big_world().players}
    assert players == {name: a.value for name, a in BIG_WORLD_ALLIANCES.items()}
