"""IAAPA Error Correction II: an origin the combat orders make clear holds for the whole turn.

Section II: "if it is clear from the combat orders where the battle is to occur, and what units
are involved, and the units are 100% correct, then no CDE can be called. ... There is only 1
German sub on the board (in azo sz), and only 1 UK trn on the board (in lab sz). The combat
orders list the attacking sub in can sz instead of lab sz. In this case the battle will stand
as correct."

The battle standing, its units left the place they were read to come from: the post-combat
orders are weighed against that (Post Combat Orders: "a map update (This is a list that
contains all territories that said country has units in and/or possesses)"), those units
fought (Rules Clarifications, Combat/Non-Combat Movement) and passed where they passed
(Retreats), whether the origin was read from a name that fits several places ("Car SZ") or
from the only such units on the board.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from adjudicator.declarations import check_report, check_turn
from adjudicator.notation import parse
from adjudicator.position import Position, arranged, initial
from adjudicator.powers import Power
from adjudicator.units import Units, UnitType

FLEET = Units.of({UnitType.AC: 1, UnitType.FTR: 1, UnitType.BB: 1})
"""Japan's ships and plane in the Caroline Islands' zone at the opening."""

PEARL_HARBOR = (
    "Japan 1 pre-combat\nCombat Moves:\nAttack #1 - Hawaii SZ\nCar SZ 1 AC, 1 FTR, 1 BB\n"
)
"""The opening attack on Hawaii, its origin written "Car SZ" (Caroline Islands or Carribean
Sea Zone: only the first holds the fleet)."""

WON = "Japan 1 post-combat\nResults:\nAttack #1 - Hawaii SZ: won, 1 AC, 1 FTR, 1 BB survive\n"

MAP = """Map update:
Japan: 3 INF, 1 ARM, 1 FTR, 1 BMB, AA, IC
Japan SZ: 1 TRN, 1 BB
Manchuria: 3 INF, 1 FTR
Kwangtung: 2 INF
FIC: 2 INF, 1 FTR
Philippines: 2 INF, 1 FTR
Philippines SZ: 1 TRN
Borneo: 1 INF
East Indies: 1 INF
New Guinea: 1 INF
Okinawa: 1 INF
Caroline Islands: 1 INF
Solomon Islands: 1 INF
Solomon Islands SZ: 1 SUB
Wake Island: 1 INF
Hawaii SZ: 1 AC, 1 FTR, 1 BB
"""
"""Every Japanese unit after the attack: the fleet in Hawaii's zone, none left at Caroline."""


@pytest.fixture(scope="module")
def opening() -> Position:
    position = initial()
    while position.to_move is not Power.JAPAN:
        position = position.next_turn()
    return position


def codes(report: dict[str, Any]) -> set[str]:
    return {d["code"] for d in report["diagnostics"]}


class TestPearlHarborFromCarSZ:
    """The attack from "Car SZ" stands (Section II); its fleet left the Caroline Islands."""

    def test_the_fleet_leaves_the_caroline_islands_zone(self, opening: Position) -> None:
        """The map update "contains all territories that said country has units in": after the
        battle won, the fleet is in Hawaii's zone and no longer where it was read to start."""
        after = check_turn(parse(WON), opening, precombat=parse(PEARL_HARBOR)).position
        assert after.units_of("Caroline Islands Sea Zone", Power.JAPAN) == Units()
        assert after.units_of("Hawaii Sea Zone", Power.JAPAN) == FLEET

    def test_a_map_update_agreeing_draws_no_map_finding(self, opening: Position) -> None:
        """A map update listing the fleet in Hawaii's zone, and none at Caroline, is what the
        orders leave: nothing to weigh (Section V)."""
        report = check_report(WON + MAP + "\nJapan 12/$25\n", opening, precombat=PEARL_HARBOR)
        assert not {c for c in codes(report) if c.startswith("map-")}
        assert report["computed_counts"] == {"power": "Japan", "territories": 12, "ipcs": 25}

    def test_the_battleship_that_fought_may_not_move_in_non_combat(self, opening: Position) -> None:
        """Combat/Non-Combat Movement: "With the exception of air units (which land during
        non-combat), no units may engage in both combat and non-combat during the same turn":
        the battleship that left the Caroline Islands' zone to fight cannot sail from it."""
        post = WON + "Non-combat moves:\nCaroline Islands SZ 1 BB to Philippines SZ\n"
        report = check_report(post, opening, precombat=PEARL_HARBOR)
        (error,) = [d for d in report["diagnostics"] if d["severity"] == "error"]
        assert (error["code"], error["line"]) == ("moved-after-combat", 5)
        assert "Caroline Islands Sea Zone" in error["message"]

    def test_a_retreat_to_the_zone_the_fleet_passed_through(self, opening: Position) -> None:
        """Retreats: "Any adjacent friendly land territory or sea zone will qualify as a legal
        retreat location as long as an attacking unit originates from or passes through the
        territory or sea zone": from the Caroline Islands to Hawaii, the fleet passes Wake
        Island's zone."""
        post = (
            "Japan 1 post-combat\nResults:\nAttack #1 - Hawaii SZ: retreated to Wake Island SZ "
            "with 1 AC, 1 FTR, 1 BB\n"
        )
        report = check_report(post, opening, precombat=PEARL_HARBOR)
        assert "retreat-illegal" not in codes(report)


class TestTheOnlySubOnTheBoard:
    """The rule's example: "There is only 1 German sub on the board (in azo sz), and only 1 UK
    trn on the board (in lab sz). The combat orders list the attacking sub in can sz instead of
    lab sz. In this case the battle will stand as correct": the sub fought from azo sz, and is
    in lab sz after."""

    BOARD: ClassVar[dict[str, dict[Power, Units]]] = {
        "West Spain Sea Zone": {Power.GERMANY: Units.of({UnitType.SUB: 1})},
        "East Canada Sea Zone": {Power.UK: Units.of({UnitType.TRN: 1})},
    }
    WON = "Germany 1 post-combat\nResults:\nAttack #1 - Lab SZ: won, 1 SUB survives\n"

    @pytest.mark.parametrize(
        "origin",
        ["Can SZ 1 SUB", "North Sea SZ 1 SUB", "1 SUB"],
        ids=["a name of three zones", "a zone with no sub", "no origin"],
    )
    def test_the_sub_leaves_azo_sz(self, origin: str) -> None:
        position = arranged(self.BOARD, to_move=Power.GERMANY)
        pre = parse(f"Germany 1 pre-combat\nCombat Moves:\nAttack #1 - Lab SZ (1 TRN)\n{origin}\n")
        checked = check_turn(parse(self.WON), position, precombat=pre)
        after = checked.position
        assert after.units_of("West Spain Sea Zone", Power.GERMANY) == Units()
        assert after.units_of("East Canada Sea Zone", Power.GERMANY) == Units.of({UnitType.SUB: 1})
        assert after.units_of("East Canada Sea Zone", Power.UK) == Units()

    def test_the_battle_declared_in_can_sz_is_fought_in_lab_sz(self) -> None:
        """...the battle will stand as correct: "Can SZ" read as lab sz, the result reported
        for lab sz is that battle's."""
        position = arranged(self.BOARD, to_move=Power.GERMANY)
        pre = parse(
            "Germany 1 pre-combat\nCombat Moves:\nAttack #1 - Can SZ (1 TRN)\nAzo SZ 1 SUB\n"
        )
        after = check_turn(parse(self.WON), position, precombat=pre).position
        assert after.units_of("West Spain Sea Zone", Power.GERMANY) == Units()
        assert after.units_of("East Canada Sea Zone", Power.GERMANY) == Units.of({UnitType.SUB: 1})
