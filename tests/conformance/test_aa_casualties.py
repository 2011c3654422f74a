"""Which aircraft an AA hit removes: the attacker's choice, by his order of loss, wherever
AA dice are read (a battle document, a roll entry read for its mail, a replayed battle).

The rule is not in the IAAPA text (which only forbids "allowing an AA to hit on a 1 or a 2"
and gives the forgotten-gun remedy, ``TestAaGuns`` in ``test_battle_combat_sequence.py``):
it is the Classic combat sequence of the facts sheet and TripleA's ``classic.xml``, quoted
below and checked against those files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import pytest

from adjudicator.powers import Power
from adjudicator.rolls import BattleRoll, RollHeader, read_roll, replay
from adjudicator.units import UnitType as U
from tests.conformance.cases import battle, misses

SHARED = Path(__file__).resolve().parents[2].parent / "shared"

FACTS_SHEET = (
    "AA fires, before round 1 only: 1 die per attacking plane, a 1 hits, the attacker picks "
    "which plane dies, and there is no return fire."
)
CLASSIC_XML = (
    "Choose AA Casualties = You get to pick your casualties for AA gun fire (if off, the "
    "casualties will be random)."
)
DEFAULT_ORDER = "Attacking: INF, ARM, FTR, BMB"


@pytest.mark.parametrize(
    ("path", "quote"),
    [
        (("rules", "classic-2nd-edition-facts.md"), FACTS_SHEET),
        (("data", "triplea", "classic.xml"), CLASSIC_XML),
        (("rules", "iaapa-2nd-edition-rules-2008.txt"), DEFAULT_ORDER),
    ],
)
def test_the_rule_is_quoted_exactly(path: tuple[str, ...], quote: str) -> None:
    source = SHARED.joinpath(*path)
    if not source.is_file():
        pytest.fail(f"{source} is missing: the conformance tests need ../shared")
    assert quote in " ".join(source.read_text(encoding="utf-8").split())


class TestAaCasualties:
    """Facts sheet section 1, Classic combat sequence: "AA fires, before round 1 only: 1 die
    per attacking plane, a 1 hits, the attacker picks which plane dies, and there is no
    return fire." ``classic.xml``: "Choose AA Casualties = You get to pick your casualties
    for AA gun fire". IAAPA Default Orders of Loss, Land Territories: "Attacking: INF, ARM,
    FTR, BMB" - without special orders, fighters die before bombers.

    An AA group of a roll is labelled with the aircraft type it was thrown for; that label
    does not say which aircraft a hit removes.
    """

    ATTACK: ClassVar[dict[str, int]] = {"INF": 1, "FTR": 2, "BMB": 1}
    DEFENCE: ClassVar[dict[str, int]] = {"INF": 2, "AA": 1}
    MAIN: ClassVar[dict[str, Any]] = {
        "attacker": {"INF": [6], "FTR": [6, 6], "BMB": [1]},
        "defender": misses(INF=2),
    }

    def test_a_one_on_the_last_aa_die_takes_a_fighter(self) -> None:
        """The third AA die (the one thrown for the bomber) hits: by the default order the
        attacker loses a fighter, and the bomber's 1 hits. (Before issue 13 the engine took
        the bomber, whose die sat in that position.)"""
        out = battle("land", self.ATTACK, self.DEFENCE, {"aa": [6, 6, 1], **self.MAIN})
        first = out["rounds"][0]
        assert first["aa_hits"] == 1 and first["attacker_casualties"] == {"FTR": 1}
        assert first["attacker_hits"] == 1 and first["defender_casualties"] == {"INF": 1}
        assert out["final"] == 1

    def test_twin_the_position_of_the_one_does_not_matter(self) -> None:
        """Twin: the first AA die hits instead: the same fighter is lost."""
        out = battle("land", self.ATTACK, self.DEFENCE, {"aa": [1, 6, 6], **self.MAIN})
        first = out["rounds"][0]
        assert first["attacker_casualties"] == {"FTR": 1}
        assert first["defender_casualties"] == {"INF": 1}

    def test_a_declared_order_that_puts_the_bomber_first(self) -> None:
        """ "A player may designate any order of loss that he desires for his casualties":
        with the bomber first, the AA hit on a die thrown for a fighter takes the bomber,
        and the bomber's 1 does not count. (Before issue 13: a fighter, and the 1 hit.)"""
        out = battle(
            "land",
            self.ATTACK,
            self.DEFENCE,
            {"aa": [1, 6, 6], **self.MAIN},
            order_of_loss={"attacker": ["BMB", "INF", "ARM", "FTR"]},
        )
        first = out["rounds"][0]
        assert first["attacker_casualties"] == {"BMB": 1}
        assert first["attacker_hits"] == 0 and first["defender_casualties"] == {}

    def test_two_hits_take_both_fighters_before_the_bomber(self) -> None:
        out = battle("land", self.ATTACK, self.DEFENCE, {"aa": [6, 1, 1], **self.MAIN})
        first = out["rounds"][0]
        assert first["attacker_casualties"] == {"FTR": 2}
        assert first["attacker_hits"] == 1

    def test_the_void_die_is_the_last_of_its_type(self) -> None:
        """The attacker picks the aircraft, not its die: of the fighters' dice [1, 6] thrown
        with the AA shots, the last (6) is the downed fighter's, whichever AA die hit, so the
        1 counts. (Before issue 13 the first fighter's die was void, as its AA die hit.)"""
        out = battle(
            "land",
            {"FTR": 2},
            {"INF": 1, "AA": 1},
            {"aa": [1, 6], "attacker": {"FTR": [1, 6]}, "defender": misses(INF=1)},
        )
        assert out["rounds"][0]["attacker_hits"] == 1
        assert out["outcome"] == "attacker-wins"


HEADER = RollHeader(round=1, turn=1, power=Power.GERMANY)


def thrown(*dice: int) -> Any:
    return lambda n: list(dice[:n])


class TestAaCasualtiesOfARecordedRoll:
    """The same rule read from what the dice server records: a bomber listed before the
    fighters is shot at first (its AA group comes first), and a hit on its die still takes a
    fighter. The roll's mail reads it so (:func:`read_roll`), and the battle replayed from
    the entry says the same."""

    def entry(self) -> dict[str, Any]:
        roll = BattleRoll.of(
            HEADER, "Karelia S.S.R.", ((U.INF, 1), (U.BMB, 1), (U.FTR, 2)), ((U.INF, 2), (U.AA, 1))
        )
        # AA for the BMB: 1; AA for the FTR: 6 6; INF 6; BMB 1; FTR 3 3; defending INF 6 6.
        data = roll.record("g@example.org", thrown(1, 6, 6, 6, 1, 3, 3, 6, 6))
        return {"v": 1, "game": 7, "seq": 5, "kind": "roll", "data": data}

    def test_a_bomber_listed_before_the_fighters(self) -> None:
        entry = self.entry()
        assert [g.get("target") for g in entry["data"]["groups"][:2]] == ["BMB", "FTR"]
        reading = read_roll(entry["data"])
        assert reading.aa_casualties.to_json() == {"FTR": 1}
        assert [(unit.value, dice) for unit, dice in reading.void] == [("FTR", (3,))]
        out = replay([entry])
        first = out["rounds"][0]
        assert first["attacker_casualties"] == {"FTR": 1}
        # The bomber's 1 and the surviving fighter's 3 hit: two INF.
        assert first["attacker_hits"] == 2 and first["defender_casualties"] == {"INF": 2}
        assert reading.round is not None and reading.round.attacker_hits == 2
