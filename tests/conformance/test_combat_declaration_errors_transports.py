"""Transports in the combat move: IAAPA Error Correction II's transport errors, Rules
Clarifications Transport Unloading, Amphibious Assaults and Canals, each case against a
position built for it."""

from __future__ import annotations

from typing import ClassVar

from adjudicator.declarations import Code, void_battles
from adjudicator.declarations.geometry import movement_of
from adjudicator.units import UnitType as U
from tests.conformance.cases import UK, US, Case, G, J, R, Units, errors

WEST_EUROPE: Units = {
    "United Kingdom": {UK: {U.INF: 4, U.ARM: 1}},
    "North Sea Zone": {UK: {U.TRN: 2}},
    "West Europe": {G: {U.INF: 1}},
}


class TestTransportCapacity(Case):
    """A transport holds 1 or 2 INF, or 1 ARM, or 1 AA gun; no INF with an ARM [W12; XML
    transportCapacity]. The rule book's own example: "UK 8 INF on UK SZ 4 TRN", "E Can 1 ARM on
    E Can SZ 1 TRN". Section II: "not enough transports" is a CDE."""

    def test_two_infantry_fill_one_transport(self) -> None:
        assert (
            self.check(WEST_EUROPE, "Attack #1 - W Europe\nUK 2 INF on UK SZ 1 TRN\n", to_move=UK)
            == ()
        )

    def test_an_armour_fills_one_transport(self) -> None:
        assert (
            self.check(WEST_EUROPE, "Attack #1 - W Europe\nUK 1 ARM on UK SZ 1 TRN\n", to_move=UK)
            == ()
        )

    def test_three_infantry_overfill_one_transport(self) -> None:
        found = self.check(
            WEST_EUROPE, "Attack #1 - W Europe\nUK 3 INF on UK SZ 1 TRN\n", to_move=UK
        )
        assert errors(found) == [(2, Code.TRANSPORT_CAPACITY, (1,))]

    def test_an_infantry_and_an_armour_do_not_share_a_transport(self) -> None:
        found = self.check(
            WEST_EUROPE, "Attack #1 - W Europe\nUK 1 INF, 1 ARM on UK SZ 1 TRN\n", to_move=UK
        )
        assert errors(found) == [(2, Code.TRANSPORT_CAPACITY, (1,))]

    def test_more_transports_listed_than_the_zone_holds(self) -> None:
        found = self.check(
            WEST_EUROPE, "Attack #1 - W Europe\nUK 4 INF, 1 ARM on UK SZ 3 TRN\n", to_move=UK
        )
        assert errors(found) == [(2, Code.NOT_ENOUGH_TRANSPORTS, (1,))]

    def test_land_units_sent_over_water_with_no_transport(self) -> None:
        found = self.check(WEST_EUROPE, "Attack #1 - W Europe\nUK 2 INF\n", to_move=UK)
        assert errors(found) == [(2, Code.NOT_ENOUGH_TRANSPORTS, (1,))]


class TestOneAssaultPerTransport(Case):
    """Rules Clarifications, Transport Unloading: "Once a transport unloads ANY of its cargo
    its turn is completed ... Any given transport may only unload into one amphibious
    assault.\""""

    BOARD: ClassVar[Units] = {
        "United Kingdom": {UK: {U.INF: 4}},
        "North Sea Zone": {UK: {U.TRN: 1}},
        "West Europe": {G: {U.INF: 1}},
        "Finland Norway": {G: {U.INF: 1}},
    }

    def test_one_transport_into_two_assaults_voids_both(self) -> None:
        found = self.check(
            self.BOARD,
            "Attack #1 - W Europe\nUK 2 INF on UK SZ 1 TRN\n"
            "Attack #2 - Finland\nUK 2 INF on UK SZ 1 TRN\n",
            to_move=UK,
        )
        assert errors(found) == [
            (2, Code.TRANSPORT_TWO_ASSAULTS, (1, 2)),
            (4, Code.TRANSPORT_TWO_ASSAULTS, (1, 2)),
        ]
        assert "Transport Unloading" in found[0].citation
        assert "battle #1 (West Europe)" in found[1].message
        assert "battle #2 (Finland Norway)" in found[0].message

    def test_two_transports_into_two_assaults(self) -> None:
        board = {**self.BOARD, "North Sea Zone": {UK: {U.TRN: 2}}}
        assert (
            self.check(
                board,
                "Attack #1 - W Europe\nUK 2 INF on UK SZ 1 TRN\n"
                "Attack #2 - Finland\nUK 2 INF on UK SZ 1 TRN\n",
                to_move=UK,
            )
            == ()
        )

    def test_the_clearing_battle_and_its_assault_share_the_transports(self) -> None:
        """The transports fighting the sea battle in the unloading zone are the same that
        unload after it: not two uses."""
        board = {
            "East Canada": {UK: {U.INF: 2}},
            "East Canada Sea Zone": {UK: {U.TRN: 1, U.BB: 1}},
            "North Sea Zone": {G: {U.SUB: 1}},
            "West Europe": {G: {U.INF: 1}},
        }
        assert (
            self.check(
                board,
                "Attack #1 - UK SZ (1 SUB)\nE Can SZ 1 BB, 1 TRN\n"
                "Attack #2 - W Europe (1 INF)\n"
                "E Can 2 INF on E Can SZ 1 TRN to UK SZ\n",
                to_move=UK,
            )
            == ()
        )


class TestSeaZoneClearing(Case):
    """Section II: "failure to include transports in the sea zone clearing portion of an
    amphibious assault". Rules Clarifications, Amphibious Assaults: "If there is a sea zone
    battle ... Transports need to be declared as part of the attacking force.\""""

    BOARD: ClassVar[Units] = {
        "East Canada": {UK: {U.INF: 2}},
        "East Canada Sea Zone": {UK: {U.TRN: 1, U.BB: 1}},
        "North Sea Zone": {G: {U.SUB: 1}},
        "West Europe": {G: {U.INF: 1}},
    }
    ASSAULT = "Attack #2 - W Europe (1 INF)\nE Can 2 INF on E Can SZ 1 TRN to UK SZ\n"

    def test_no_sea_battle_declared(self) -> None:
        found = self.check(self.BOARD, self.ASSAULT.replace("#2", "#1"), to_move=UK)
        assert errors(found) == [(2, Code.TRANSPORTS_NOT_IN_SEA_BATTLE, (1,))]
        assert "no sea battle is declared in North Sea Zone" in found[0].message

    def test_the_transports_left_out_of_the_sea_battle(self) -> None:
        """The league's reading of a point the rules leave open (README): the omission voids
        the sea battle, whose attacking force leaves out units the defender may hit, and the
        landing that rides on it."""
        found = self.check(
            self.BOARD, "Attack #1 - UK SZ (1 SUB)\nE Can SZ 1 BB\n" + self.ASSAULT, to_move=UK
        )
        assert errors(found) == [(4, Code.TRANSPORTS_NOT_IN_SEA_BATTLE, (1, 2))]
        assert void_battles(found) == (1, 2)
        assert "the sea battle #1 is void with it" in found[0].message

    def test_the_transports_in_the_sea_battle(self) -> None:
        assert (
            self.check(
                self.BOARD,
                "Attack #1 - UK SZ (1 SUB)\nE Can SZ 1 BB, 1 TRN\n" + self.ASSAULT,
                to_move=UK,
            )
            == ()
        )

    def test_an_unguarded_unloading_zone_needs_no_sea_battle(self) -> None:
        board = {**self.BOARD, "North Sea Zone": {}}
        assert self.check(board, self.ASSAULT, to_move=UK) == ()


class TestUnloadingZone(Case):
    """Section II: "failure to disclose the unloading sea zone if more than one potential zone
    exists in an amphibious assault\""""

    BOARD: ClassVar[Units] = {
        "East Canada": {UK: {U.INF: 2}},
        "East Canada Sea Zone": {UK: {U.TRN: 1}},
        "West Europe": {G: {U.INF: 1}},
    }

    def test_several_potential_zones_and_none_named(self) -> None:
        found = self.check(
            self.BOARD, "Attack #1 - W Europe\nE Can 2 INF on E Can SZ 1 TRN\n", to_move=UK
        )
        assert errors(found) == [(2, Code.UNLOADING_ZONE_UNDISCLOSED, (1,))]
        assert "North Sea Zone" in found[0].message and "West Spain Sea Zone" in found[0].message

    def test_the_zone_named(self) -> None:
        assert (
            self.check(
                self.BOARD,
                "Attack #1 - W Europe\nE Can 2 INF on E Can SZ 1 TRN to W Spain SZ\n",
                to_move=UK,
            )
            == ()
        )

    def test_unloading_where_the_transports_are(self) -> None:
        """The rule book's "UK 8 INF on UK SZ 4 TRN" names no other zone: the transports
        unload where they are, a zone touching the battle."""
        board = {
            "United Kingdom": {UK: {U.INF: 2}},
            "North Sea Zone": {UK: {U.TRN: 1}},
            "West Europe": {G: {U.INF: 1}},
        }
        assert (
            self.check(board, "Attack #1 - W Europe\nUK 2 INF on UK SZ 1 TRN\n", to_move=UK) == ()
        )

    def test_a_single_potential_zone_need_not_be_named(self) -> None:
        board = {
            "Japan": {J: {U.INF: 2}},
            "Japan Sea Zone": {J: {U.TRN: 1}},
            "Alaska": {US: {U.INF: 1}},
        }
        m = movement_of(self.position(board, to_move=J), J)
        reachable = [z for z in m.coast("Alaska") if m.sea_distance("Japan Sea Zone", z) <= 2]
        assert reachable == ["Alaska Sea Zone"]  # the case's premise
        assert (
            self.check(board, "Attack #1 - Alaska\nJapan 2 INF on Japan SZ 1 TRN\n", to_move=J)
            == ()
        )


class TestLoadingAndSailing(Case):
    """Loading is the land unit's move, from a territory touching the transports' zone; a
    transport moves 2 sea zones [SPEC p.12-16]; Rules Clarifications, Canals: "Canals may be
    used if and only if you or your allies own the territory or territories controlling the
    canal at the beginning of your turn.\""""

    def test_cargo_must_touch_the_transports(self) -> None:
        board = {
            "South Europe": {G: {U.INF: 2}},
            "Baltic Sea Zone": {G: {U.TRN: 1}},
            "Finland Norway": {R: {U.INF: 1}},
        }
        found = self.check(
            board,
            "Attack #1 - Finland\nS Europe 2 INF on Baltic SZ 1 TRN\n",
            to_move=G,
            owners={"Finland Norway": R},
        )
        assert errors(found) == [(2, Code.UNREACHABLE, (1,))]

    def test_transports_move_two_zones(self) -> None:
        board = {
            "East Canada": {UK: {U.INF: 2}},
            "East Canada Sea Zone": {UK: {U.TRN: 1}},
            "Finland Norway": {G: {U.INF: 1}},
        }
        found = self.check(
            board, "Attack #1 - Finland\nE Can 2 INF on E Can SZ 1 TRN to Baltic SZ\n", to_move=UK
        )
        assert errors(found) == []
        far = {
            "West US": {US: {U.INF: 2}},
            "West US Sea Zone": {US: {U.TRN: 1}},
            "Okinawa": {J: {U.INF: 1}},
        }
        m = movement_of(self.position(far, to_move=US), US)
        assert m.geometry.air("West US Sea Zone", "Okinawa Sea Zone") == 3  # the premise
        found = self.check(
            far, "Attack #1 - Okinawa\nW US 2 INF on W US SZ 1 TRN to Okinawa SZ\n", to_move=US
        )
        assert errors(found) == [(2, Code.UNREACHABLE, (1,))]

    SUEZ: ClassVar[Units] = {
        "East Mediteranean Sea Zone": {G: {U.TRN: 1, U.INF: 2}},
        "Persia": {UK: {U.INF: 1}},
    }
    ORDERS = "Attack #1 - Persia\nE Med SZ 2 INF to Red Sea SZ\n"

    def test_suez_is_closed_to_the_side_not_holding_it(self) -> None:
        found = self.check(self.SUEZ, self.ORDERS, to_move=G)
        assert errors(found) == [(2, Code.UNREACHABLE, (1,))]

    def test_suez_is_open_to_the_side_holding_both_its_territories(self) -> None:
        held = {"Anglo Sudan Egypt": G, "Syria Jordan": G}
        assert self.check(self.SUEZ, self.ORDERS, to_move=G, owners=held) == ()


class TestBattleshipSupport(Case):
    """A battleship joins a land battle only to give a support shot in an amphibious assault,
    from a sea zone touching it [SPEC p.15,18]; Rules Clarifications, Amphibious Assaults: "A
    land battle is considered 'amphibious' ONLY if a transport delivers infantry or arm to the
    battle site.\""""

    BOARD: ClassVar[Units] = {
        "United Kingdom": {UK: {U.INF: 2}},
        "North Sea Zone": {UK: {U.TRN: 1, U.BB: 1}},
        "Karelia S.S.R.": {UK: {U.INF: 1}},
        "Finland Norway": {G: {U.INF: 1}},
    }

    def test_support_for_an_amphibious_assault(self) -> None:
        assert (
            self.check(
                self.BOARD, "Attack #1 - Finland\nUK 2 INF on UK SZ 1 TRN\nUK SZ 1 BB\n", to_move=UK
            )
            == ()
        )

    def test_no_support_without_an_assault_from_the_sea(self) -> None:
        found = self.check(self.BOARD, "Attack #1 - Finland\nKar 1 INF\nUK SZ 1 BB\n", to_move=UK)
        assert errors(found) == [(3, Code.CANNOT_ATTACK, (1,))]

    def test_other_ships_cannot_attack_land(self) -> None:
        board = {**self.BOARD, "North Sea Zone": {UK: {U.TRN: 1, U.SUB: 1}}}
        found = self.check(
            board, "Attack #1 - Finland\nUK 2 INF on UK SZ 1 TRN\nUK SZ 1 SUB\n", to_move=UK
        )
        assert errors(found) == [(3, Code.CANNOT_ATTACK, (1,))]
