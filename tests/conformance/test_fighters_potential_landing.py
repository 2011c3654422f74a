"""IAAPA Rules Clarifications, Fighters: range and the potential landing place, each case
against a position built for it. The distances a case leans on are asserted as its premise."""

from __future__ import annotations

from typing import ClassVar

from adjudicator.declarations import Code
from adjudicator.declarations.geometry import geometry
from adjudicator.notation import Severity
from adjudicator.position import arranged
from adjudicator.units import Technology
from adjudicator.units import UnitType as U
from tests.conformance.cases import UK, US, Case, G, J, Units, errors

LRA = frozenset({Technology.LONG_RANGE_AIRCRAFT})


def air(a: str, b: str) -> int:
    return geometry(arranged({}).board).air(a, b)


class TestFourSpaces(Case):
    """Fighters: "A fighter may only move a total of 4 spaces on any given turn." The range is
    spent over the combat and non-combat moves together; Long Range Aircraft adds 2."""

    CAUCASUS: ClassVar[Units] = {"United Kingdom": {UK: {U.FTR: 1}}, "Caucasus": {G: {U.INF: 1}}}

    def test_out_of_range(self) -> None:
        assert air("East US", "Caucasus") == 6
        found = self.check(
            {"East US": {UK: {U.FTR: 1}}, "Caucasus": {G: {U.INF: 1}}},
            "Attack #1 - Caucasus\nE US 1 FTR\n",
            to_move=UK,
            owners={"Caucasus": G},
        )
        assert errors(found) == [(2, Code.UNREACHABLE, (1,))]

    def test_two_out_and_two_back(self) -> None:
        assert air("United Kingdom", "West Europe") == 2
        assert (
            self.check(
                {"United Kingdom": {UK: {U.FTR: 1}}, "West Europe": {G: {U.INF: 1}}},
                "Attack #1 - W Europe\nUK 1 FTR (land UK)\n",
                to_move=UK,
            )
            == ()
        )

    def test_four_out_leaves_no_move_to_land(self) -> None:
        assert air("United Kingdom", "Caucasus") == 4
        found = self.check(
            self.CAUCASUS, "Attack #1 - Caucasus\nUK 1 FTR\n", to_move=UK, owners={"Caucasus": G}
        )
        assert errors(found) == [(2, Code.NO_LANDING_PLACE, (1,))]
        assert "kamikaze" in found[0].message

    def test_long_range_aircraft_leaves_two_moves(self) -> None:
        """Russia, held by an ally since the start of the turn, touches Caucasus."""
        assert (
            self.check(
                self.CAUCASUS,
                "Attack #1 - Caucasus\nUK 1 FTR (land Russia)\n",
                to_move=UK,
                owners={"Caucasus": G},
                technologies={UK: LRA},
            )
            == ()
        )


class TestAllMovesToASeaBattle(Case):
    """Fighters: "If a fighter has expended its 4 movement points in order to reach a sea zone
    battle site and the other attacking units retreat then said fighter will be lost." It may
    still attack: a carrier in the battle is its potential landing place."""

    BALTIC: ClassVar[Units] = {
        "East US": {UK: {U.FTR: 1}},
        "North Sea Zone": {UK: {U.AC: 1}},
        "Baltic Sea Zone": {G: {U.SUB: 1}},
    }

    def test_the_premise(self) -> None:
        assert air("East US", "Baltic Sea Zone") == 4

    def test_with_a_carrier_in_the_battle(self) -> None:
        assert (
            self.check(
                self.BALTIC, "Attack #1 - Baltic SZ (1 SUB)\nE US 1 FTR\nUK SZ 1 AC\n", to_move=UK
            )
            == ()
        )

    def test_with_no_carrier_anywhere(self) -> None:
        board = {**self.BALTIC, "North Sea Zone": {}}
        found = self.check(board, "Attack #1 - Baltic SZ (1 SUB)\nE US 1 FTR\n", to_move=UK)
        assert errors(found) == [(2, Code.NO_LANDING_PLACE, (1,))]


class TestPotentialLandingPlace(Case):
    """Fighters: "A fighter may participate in a battle provided there is a potential place to
    land. This does not mean that there must be a place to land regardless of the battle
    outcomes. In this context a potential landing place means that if all the attacker's
    battles are won without a loss, regardless of the odds, will the fighter be able to land.
    If the answer is yes then the attack is legal and will not be considered a kamikaze
    attack.\""""

    BALTIC = TestAllMovesToASeaBattle.BALTIC

    def test_regardless_of_the_odds(self) -> None:
        """A lone carrier against a battleship and two subs: won without a loss, it is
        there for the fighter."""
        board = {**self.BALTIC, "Baltic Sea Zone": {G: {U.SUB: 2, U.BB: 1}}}
        assert (
            self.check(board, "Attack #1 - Baltic SZ\nE US 1 FTR\nUK SZ 1 AC\n", to_move=UK) == ()
        )

    def test_a_carrier_moving_after_the_battles(self) -> None:
        """A carrier that does not fight moves in the non-combat move, before fighters land
        [SPEC FAQ p.1]: into the zone the battle cleared."""
        assert (
            self.check(self.BALTIC, "Attack #1 - Baltic SZ (1 SUB)\nE US 1 FTR\n", to_move=UK) == ()
        )

    def test_two_fighters_a_carrier(self) -> None:
        board = {**self.BALTIC, "East US": {UK: {U.FTR: 2}}}
        assert (
            self.check(board, "Attack #1 - Baltic SZ (1 SUB)\nE US 2 FTR\nUK SZ 1 AC\n", to_move=UK)
            == ()
        )

    def test_three_fighters_do_not_fit_one_carrier(self) -> None:
        board = {**self.BALTIC, "East US": {UK: {U.FTR: 3}}}
        found = self.check(
            board, "Attack #1 - Baltic SZ (1 SUB)\nE US 3 FTR\nUK SZ 1 AC\n", to_move=UK
        )
        assert errors(found) == [(2, Code.NO_LANDING_PLACE, (1,))]
        assert "no room" in found[0].message

    def test_fighters_staying_aboard_take_the_room(self) -> None:
        board = {
            **self.BALTIC,
            "East US": {UK: {U.FTR: 2}},
            "North Sea Zone": {UK: {U.AC: 1, U.FTR: 1}},
        }
        found = self.check(
            board, "Attack #1 - Baltic SZ (1 SUB)\nE US 2 FTR\nUK SZ 1 AC\n", to_move=UK
        )
        assert errors(found) == [(2, Code.NO_LANDING_PLACE, (1,))]

    def test_an_allys_carrier(self) -> None:
        """A carrier holds two fighters, its own or an ally's [SPEC p.14,16]."""
        board = {**self.BALTIC, "North Sea Zone": {US: {U.AC: 1}}, "Baltic Sea Zone": {}}
        board = {**board, "Karelia Sea Zone": {G: {U.SUB: 1}}}
        assert (
            air("East US", "Karelia Sea Zone") == 4
            and air("Karelia Sea Zone", "North Sea Zone") == 1
        )
        found = self.check(
            board,
            "Attack #1 - Karelia SZ (1 SUB)\nE US 1 FTR\n",
            to_move=UK,
            owners={"Karelia S.S.R.": G},
        )
        assert errors(found) == [(2, Code.NO_LANDING_PLACE, (1,))]  # 4 out, 0 left
        board = {**board, "East Canada": {UK: {U.FTR: 1}}}
        assert air("East Canada", "Karelia Sea Zone") == 3
        assert (
            self.check(
                board,
                "Attack #1 - Karelia SZ (1 SUB)\nE Can 1 FTR\n",
                to_move=UK,
                owners={"Karelia S.S.R.": G},
            )
            == ()
        )
        without = {**board, "North Sea Zone": {}}
        found = self.check(
            without,
            "Attack #1 - Karelia SZ (1 SUB)\nE Can 1 FTR\n",
            to_move=UK,
            owners={"Karelia S.S.R.": G},
        )
        assert errors(found) == [(2, Code.NO_LANDING_PLACE, (1,))]

    def test_a_territory_taken_this_turn_is_no_landing_place(self) -> None:
        """Planes land where their side was at the start of the turn, never in a territory
        taken this turn [SPEC p.14,21; FAQ p.1], even when every battle is won."""
        board = {
            "United Kingdom": {UK: {U.FTR: 1, U.INF: 2}},
            "North Sea Zone": {UK: {U.TRN: 1}},
            "Germany": {G: {U.INF: 1}},
            "West Europe": {G: {U.INF: 1}},
        }
        assert air("United Kingdom", "Germany") == 3 and air("Germany", "West Europe") == 1
        found = self.check(
            board,
            "Attack #1 - W Europe\nUK 2 INF on UK SZ 1 TRN\n"
            "Attack #2 - Germany\nUK 1 FTR (land W Europe)\n",
            to_move=UK,
        )
        assert errors(found) == [(4, Code.NO_LANDING_PLACE, (2,))]
        held = self.check(
            {**board, "West Europe": {}},
            "Attack #1 - Germany\nUK 1 FTR (land W Europe)\n",
            to_move=UK,
            owners={"West Europe": UK},
        )
        assert held == ()

    def test_no_landing_flight_over_a_neutral(self) -> None:
        """Planes may not fly over neutrals in the non-combat move [SPEC p.8,13]; IAAPA
        Neutral Territories: "An air unit may fly over a neutral territory, capture it, and then
        continue on to another battle", so a neutral taken this turn may be flown over."""
        board: Units = {"Brazil": {US: {U.FTR: 1, U.INF: 1}}, "Peru Sea Zone": {J: {U.SUB: 1}}}
        hostile = {"Panama": J, "New Zealand": J}
        g = geometry(arranged({}).board)
        assert g.air("Brazil", "Peru Sea Zone") == 2
        assert g.landing("Peru Sea Zone", "Brazil") == 4
        found = self.check(
            board, "Attack #1 - Peru SZ (1 SUB)\nBrazil 1 FTR\n", to_move=US, owners=hostile
        )
        assert errors(found) == [(2, Code.NO_LANDING_PLACE, (1,))]
        assert (
            self.check(
                board,
                "Attack #1 - Peru SZ (1 SUB)\nBrazil 1 FTR\nAttack #2 - Peru (WI)\nBrazil 1 INF\n",
                to_move=US,
                owners=hostile,
            )
            == ()
        )

    def test_a_wrong_landing_written_with_another_possible(self) -> None:
        found = self.check(
            {"United Kingdom": {UK: {U.FTR: 1}}, "West Europe": {G: {U.INF: 1}}},
            "Attack #1 - W Europe\nUK 1 FTR (land Germany)\n",
            to_move=UK,
        )
        assert [(f.code, f.severity) for f in found] == [
            (Code.LANDING_NOT_POSSIBLE, Severity.WARNING)
        ]


class TestCarrierRetreat(Case):
    """Fighters: "An aircraft carrier's retreat from a battle would also satisfy the potential
    landing requirement."

    A US fighter from the Western US attacks a Japanese sub in the Wake Island zone (3 moves,
    1 left). Its only landing place in reach is the North Pacific zone, where a US carrier
    starts and attacks another Japanese sub in the Alaska zone (2 from Wake): it could retreat
    to where it came from."""

    def board(self, carrier_at: str, fighters: int = 1, aboard: int = 0) -> Units:
        carrier = {U.AC: 1, U.FTR: aboard} if aboard else {U.AC: 1}
        return {
            "West US": {US: {U.FTR: fighters}},
            carrier_at: {US: carrier},
            "Wake Island Sea Zone": {J: {U.SUB: 1}},
            "Alaska Sea Zone": {J: {U.SUB: 1}},
        }

    ORDERS = (
        "Attack #1 - Wake Island SZ (1 SUB)\nW US {n} FTR\n"
        "Attack #2 - Alaska SZ (1 SUB)\n{zone} 1 AC\n"
    )

    def test_the_premise(self) -> None:
        g = geometry(arranged({}).board)
        assert g.air("West US", "Wake Island Sea Zone") == 3
        assert g.landing("Wake Island Sea Zone", "North Pacific Sea Zone") == 1
        assert g.landing("Wake Island Sea Zone", "Alaska Sea Zone") == 2
        assert g.landing("Wake Island Sea Zone", "West Canada Sea Zone") == 3

    def test_the_carriers_retreat_is_a_landing_place(self) -> None:
        found = self.check(
            self.board("North Pacific Sea Zone"),
            self.ORDERS.format(n=1, zone="North Pacific SZ"),
            to_move=US,
        )
        assert found == ()

    def test_a_carrier_retreating_out_of_reach_is_not(self) -> None:
        found = self.check(
            self.board("West Canada Sea Zone"), self.ORDERS.format(n=1, zone="W Can SZ"), to_move=US
        )
        assert errors(found) == [(2, Code.NO_LANDING_PLACE, (1,))]

    def test_the_retreating_carrier_still_holds_two(self) -> None:
        found = self.check(
            self.board("North Pacific Sea Zone", fighters=3),
            self.ORDERS.format(n=3, zone="North Pacific SZ"),
            to_move=US,
        )
        assert errors(found) == [(2, Code.NO_LANDING_PLACE, (1,))]
        assert (
            self.check(
                self.board("North Pacific Sea Zone", fighters=2),
                self.ORDERS.format(n=2, zone="North Pacific SZ"),
                to_move=US,
            )
            == ()
        )


class TestBombers(Case):
    """Bombers move 6, 8 with Long Range Aircraft [SPEC; TA], and no plane may make a
    kamikaze attack [XML Kamikaze Airplanes=false]: the potential landing place is asked of
    them too (on land: a bomber never lands on a carrier)."""

    BOARD: ClassVar[Units] = {"East US": {US: {U.BMB: 1}}, "Germany": {G: {U.INF: 1}}}

    def test_the_premise(self) -> None:
        assert air("East US", "Germany") == 5 and air("Germany", "United Kingdom") == 3

    def test_one_move_left_and_no_land_in_reach(self) -> None:
        found = self.check(self.BOARD, "Attack #1 - Germany\nE US 1 BMB\n", to_move=US)
        assert errors(found) == [(2, Code.NO_LANDING_PLACE, (1,))]

    def test_long_range_aircraft_reaches_the_uk(self) -> None:
        assert (
            self.check(
                self.BOARD,
                "Attack #1 - Germany\nE US 1 BMB (land UK)\n",
                to_move=US,
                technologies={US: LRA},
            )
            == ()
        )

    def test_a_bomber_does_not_land_on_a_carrier(self) -> None:
        board = {**self.BOARD, "Baltic Sea Zone": {US: {U.AC: 1}}}
        found = self.check(board, "Attack #1 - Germany\nE US 1 BMB\n", to_move=US)
        assert errors(found) == [(2, Code.NO_LANDING_PLACE, (1,))]
