"""IAAPA Rules Clarifications on the non-combat move (Combat/Non-Combat Movement, Fighters,
Transport Unloading, Amphibious Assaults, Canals, AA Guns) and the printed game's movement and
landing rules: each case breaks a rule, and a look-alike keeps it (no finding).

Every case is a post-combat email checked against a position built for it, with the same
turn's pre-combat email when the rule needs the combat moves. A non-combat error is an error
that voids no battle (Error Correction VII: "This will apply to CDEs, rolling errors, and
non-combat errors only")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from adjudicator.declarations.findings import Code
from adjudicator.declarations.noncombat import check_non_combat
from adjudicator.diagnostics import Diagnostic, Rule, Severity
from adjudicator.notation import parse
from adjudicator.position import arranged
from adjudicator.powers import Power
from adjudicator.units import UnitType as U

UK, G, R, J, US = Power.UK, Power.GERMANY, Power.USSR, Power.JAPAN, Power.USA
Board = Mapping[str, Mapping[Power, Mapping[U, int]]]
NO_COMBAT = "Purchases: none\n\nCombat moves: none\n"


class Case:
    """A rule case: a position, the turn's pre-combat email (None: not known) and its
    post-combat orders."""

    def check(
        self,
        units: Board,
        pre: str | None,
        post: str,
        power: Power,
        owners: Mapping[str, Power] | None = None,
    ) -> list[Diagnostic]:
        position = arranged(units, to_move=power, owners=owners)
        orders = parse(post)
        assert orders.errors == () and orders.moves, "the orders must read cleanly"
        before = parse(pre) if pre is not None else None
        return check_non_combat(position, power, orders, before)


def found(findings: list[Diagnostic]) -> list[tuple[int, str]]:
    """(line, code) of each finding; every one is an error voiding no battle."""
    assert all(f.severity is Severity.ERROR and f.battles == () for f in findings)
    return [(f.line, f.code) for f in findings]


class TestUnitsThatFoughtStay(Case):
    """Combat/Non-Combat Movement: "With the exception of air units (which land during
    non-combat), no units may engage in both combat and non-combat during the same turn." A
    space may hold more of a type than fought, so only moving more than those that did not
    fight breaks it."""

    BOARD: ClassVar[Board] = {
        "Karelia S.S.R.": {R: {U.INF: 5, U.FTR: 1}},
        "Ukraine S.S.R.": {G: {U.INF: 1}},
    }
    PRE = "Attack #1 - Ukraine (1 INF)\nKar 3 INF, 1 FTR\n"

    def post(self, moves: str, result: str = "#1 Ukraine: won, 3 INF, 1 FTR left") -> str:
        return f"Results:\n{result}\n\nNon-combat moves:\n{moves}\n"

    def test_attackers_moving_on_from_the_battle(self) -> None:
        got = self.check(self.BOARD, self.PRE, self.post("Ukraine 3 INF to Caucasus"), R)
        assert found(got) == [(5, Code.MOVED_AFTER_COMBAT)]
        assert got[0].rule is Rule.NON_COMBAT
        assert "3 INF from Ukraine S.S.R. attacked in battle #1" in got[0].message

    def test_the_fighter_lands_and_the_infantry_that_stayed_home_moves(self) -> None:
        moves = "Ukraine 1 FTR to Karelia\nKar 2 INF to Russia"
        assert self.check(self.BOARD, self.PRE, self.post(moves), R) == []

    def test_moving_more_than_stayed_home_moves_an_attacker(self) -> None:
        got = self.check(self.BOARD, self.PRE, self.post("Kar 3 INF to Russia"), R)
        assert found(got) == [(5, Code.MOVED_AFTER_COMBAT)]
        assert got[0].message.startswith("1 INF from Karelia S.S.R. attacked")

    def test_a_battle_the_results_do_not_report_engages_nobody(self) -> None:
        """ "If the attacker elects not to fight the battle, he may move the previously
        assigned units during non-combat." """
        post = "Non-combat moves:\nKar 5 INF to Russia\n"
        assert self.check(self.BOARD, self.PRE, post, R) == []

    def test_a_void_battle_engages_nobody(self) -> None:
        """Error Correction II: a CDE makes the battle "null and void" (here: an ARM Karelia
        does not have)."""
        pre = "Attack #1 - Ukraine (1 INF)\nKar 3 INF, 1 ARM\n"
        post = self.post("Kar 5 INF to Russia", "#1 Ukraine: won, 3 INF left")
        assert self.check(self.BOARD, pre, post, R) == []

    def test_units_the_turn_did_not_begin_with_do_not_move(self) -> None:
        """Tried as a new player with the board check: "Russia 9 arm -> Karelia" (Russia
        has 2) and a battleship "from" West US passed with no finding. Only units that
        stood in a place when the turn began move from it in non-combat (those that came
        there by combat may not move again)."""
        board: Board = {"Karelia S.S.R.": {R: {U.INF: 5, U.ARM: 1}}, "Russia": {R: {U.ARM: 2}}}
        post = (
            "Non-combat moves:\nRussia 9 ARM to Karelia\nKar 2 INF to Russia\nKar 4 INF to Russia\n"
        )
        got = self.check(board, None, post, R)
        assert found(got) == [(2, Code.NOT_AT_ORIGIN), (4, Code.NOT_AT_ORIGIN)]
        assert got[0].message.startswith("9 ARM moved from Russia, where the turn began with 2")
        assert got[1].message.startswith("6 INF moved from Karelia S.S.R., where the turn began")

    def test_without_the_combat_moves_a_battle_place_still_holds_attackers(self) -> None:
        got = self.check(self.BOARD, None, self.post("Ukraine 3 INF to Caucasus"), R)
        assert found(got) == [(5, Code.MOVED_AFTER_COMBAT)]
        assert "came there by combat" in got[0].message
        assert self.check(self.BOARD, None, self.post("Kar 3 INF to Russia"), R) == []


class TestBattleshipSupportShot(Case):
    """A battleship giving a support shot in an amphibious assault [SPEC p.15,18] takes part
    in combat; Combat/Non-Combat Movement: it may not move in the non-combat move."""

    BOARD: ClassVar[Board] = {
        "United Kingdom": {UK: {U.INF: 2}},
        "North Sea Zone": {UK: {U.TRN: 1, U.BB: 1}},
        "West Europe": {G: {U.INF: 1}},
    }
    PRE = "Attack #1 - W Europe (1 INF)\nUK 2 INF on North SZ 1 TRN\nNorth SZ 1 BB\n"
    POST = "Results:\n#1 W Europe: won, 2 INF left\n\nNon-combat moves:\n{}\n"

    def test_the_battleship_that_fired_moves(self) -> None:
        post = self.POST.format("North SZ 1 BB to North Atlantic SZ")
        got = self.check(self.BOARD, self.PRE, post, UK)
        assert found(got) == [(5, Code.MOVED_AFTER_COMBAT)]
        assert "fired a support shot in battle #1 (West Europe) (pre-combat line 3)" in (
            got[0].message
        )

    def test_a_second_battleship_that_did_not_fire_moves(self) -> None:
        board = {**self.BOARD, "North Sea Zone": {UK: {U.TRN: 1, U.BB: 2}}}
        post = self.POST.format("North SZ 1 BB to North Atlantic SZ")
        assert self.check(board, self.PRE, post, UK) == []


class TestTransportsThatUnloaded(Case):
    """Transport Unloading: "Once a transport unloads ANY of its cargo its turn is completed
    and it may not move, load nor unload again later that turn"."""

    BOARD: ClassVar[Board] = {
        "United Kingdom": {UK: {U.INF: 2}},
        "North Sea Zone": {UK: {U.TRN: 1}},
        "West Europe": {G: {U.INF: 1}},
        "East Canada": {UK: {U.INF: 2}},
        "East Canada Sea Zone": {UK: {U.TRN: 1}},
    }
    PRE = "Attack #1 - W Europe (1 INF)\nUK 2 INF on North SZ 1 TRN\n"
    RESULT = "Results:\n#1 W Europe: won, 2 INF left\n\n"

    def test_a_transport_that_unloaded_in_combat_sails_on(self) -> None:
        post = self.RESULT + "Non-combat moves:\nNorth SZ 1 TRN to E Can SZ\n"
        got = self.check(self.BOARD, self.PRE, post, UK)
        assert found(got) == [(5, Code.TRANSPORT_MOVE)]
        assert got[0].rule is Rule.TRANSPORT_UNLOADING

    def test_a_transport_unloading_in_non_combat_then_sailing_on(self) -> None:
        post = (
            "Non-combat moves:\nE Can 2 INF on E Can SZ 1 TRN to North SZ to UK\n"
            "North SZ 1 TRN to E Can SZ\n"
        )
        board = {k: v for k, v in self.BOARD.items() if k != "North Sea Zone"}
        got = self.check(board, NO_COMBAT, post, UK)
        assert found(got) == [(3, Code.TRANSPORT_MOVE)]
        assert "unloaded on line 2" in got[0].message

    def test_another_transport_sails_and_one_unloads(self) -> None:
        post = (
            "Non-combat moves:\nE Can 2 INF on E Can SZ 1 TRN to North SZ to UK\n"
            "North SZ 1 TRN to E Can SZ\n"
        )
        assert self.check(self.BOARD, NO_COMBAT, post, UK) == []

    def test_more_cargo_than_the_transports_hold(self) -> None:
        """A transport holds 2 INF, or 1 ARM, or 1 AA gun [W12]."""
        board = {**self.BOARD, "East Canada": {UK: {U.INF: 2, U.ARM: 1}}}
        post = "Non-combat moves:\nE Can 2 INF, 1 ARM on E Can SZ 1 TRN to North SZ to UK\n"
        assert found(self.check(board, NO_COMBAT, post, UK)) == [(2, Code.TRANSPORT_MOVE)]
        board = {**board, "East Canada Sea Zone": {UK: {U.TRN: 2}}}
        post = post.replace("1 TRN", "2 TRN")
        assert self.check(board, NO_COMBAT, post, UK) == []

    def test_unloading_into_enemy_land(self) -> None:
        """ "Transports may unload into one or two friendly land territories during
        non-combat"."""
        post = "Non-combat moves:\nE Can 2 INF on E Can SZ 1 TRN to North SZ to W Europe\n"
        assert found(self.check(self.BOARD, NO_COMBAT, post, UK)) == [(2, Code.MOVE_THROUGH_ENEMY)]

    def test_transports_left_unwritten_are_no_finding(self) -> None:
        """East Canada to the UK is no land move, but transports could make it: a finding
        that they were meant would be a guess."""
        post = "Non-combat moves:\nE Can 2 INF to UK\n"
        assert self.check(self.BOARD, NO_COMBAT, post, UK) == []

    def test_the_unloading_zone_need_not_be_written(self) -> None:
        post = "Non-combat moves:\nE Can 2 INF on E Can SZ 1 TRN to UK\n"
        assert self.check(self.BOARD, NO_COMBAT, post, UK) == []

    def test_boarding_in_a_zone_the_territory_does_not_touch(self) -> None:
        """Facts sheet section 3: "Loading or unloading is the land unit's whole move": the
        cargo boards from its own territory, so the transports' zone must touch it."""
        post = "Non-combat moves:\nE Can 2 INF on North SZ 1 TRN to UK\n"
        got = self.check(self.BOARD, NO_COMBAT, post, UK)
        assert found(got) == [(2, Code.TRANSPORT_MOVE)]
        assert "cannot board" in got[0].message

    def test_unloading_into_land_no_sea_zone_touches(self) -> None:
        """ "Transports may unload into one or two friendly land territories during
        non-combat provided both are adjacent to the sea zone containing the transport":
        Sinkiang touches no sea zone."""
        post = "Non-combat moves:\nE Can 2 INF on E Can SZ 1 TRN to Sinkiang\n"
        got = self.check(self.BOARD, NO_COMBAT, post, UK)
        assert [code for _, code in found(got)] == [Code.TRANSPORT_MOVE]
        assert "touches no sea zone" in got[0].message

    def test_unloading_beside_a_zone_out_of_reach(self) -> None:
        """The same rule: the transports must reach a zone adjacent to the land, 2 sea
        zones at most; from East Canada no zone touching Egypt is that near."""
        post = "Non-combat moves:\nE Can 2 INF on E Can SZ 1 TRN to Egypt\n"
        got = self.check(self.BOARD, NO_COMBAT, post, UK)
        assert Code.MOVE_TOO_FAR in [code for _, code in found(got)]


class TestLoadedTransportsThatRetreated(Case):
    """Amphibious Assaults: "Any loaded transports that retreat from the sea zone battle may
    not move nor unload cargo during the non-combat phase of the turn"."""

    BOARD: ClassVar[Board] = {
        "United Kingdom": {UK: {U.INF: 2}},
        "North Sea Zone": {UK: {U.TRN: 2, U.BB: 1, U.INF: 2}},
        "Baltic Sea Zone": {G: {U.SUB: 1}},
    }
    PRE = "Attack #1 - Baltic SZ (1 SUB)\nUK 2 INF on North SZ 1 TRN\nNorth SZ 1 BB\n"
    POST = "Results:\n#1 Baltic SZ: retreated to North SZ\n\nNon-combat moves:\n{}\n"

    def test_the_retreated_cargo_is_unloaded(self) -> None:
        got = self.check(self.BOARD, self.PRE, self.POST.format("North SZ 4 INF to UK"), UK)
        assert found(got) == [(5, Code.TRANSPORT_MOVE)]
        assert got[0].rule is Rule.AMPHIBIOUS

    def test_the_cargo_of_the_transport_that_stayed_is_unloaded(self) -> None:
        assert self.check(self.BOARD, self.PRE, self.POST.format("North SZ 2 INF to UK"), UK) == []


class TestHowFarOverLand(Case):
    """INF and AA guns move 1, ARM 2 [facts sheet 0]; in the non-combat move "land and sea
    units may not enter any territory controlled by an enemy or neutral" (TripleA rule book),
    but may end in land captured this turn."""

    BOARD: ClassVar[Board] = {
        "Finland Norway": {G: {U.ARM: 1}},
        "East Europe": {G: {U.INF: 3}},
        "Karelia S.S.R.": {R: {U.INF: 1}},
        "Germany": {G: {U.INF: 2}},
    }
    PRE = "Attack #1 - Karelia (1 INF)\nE Europe 3 INF\n"

    def test_infantry_two_territories_away(self) -> None:
        got = self.check(self.BOARD, NO_COMBAT, "Non-combat moves:\nGer 2 INF to Ukraine\n", G)
        assert found(got) == [(2, Code.MOVE_TOO_FAR)]
        assert (
            self.check(self.BOARD, NO_COMBAT, "Non-combat moves:\nGer 2 INF to E Europe\n", G) == []
        )

    def test_armour_through_land_the_enemy_still_holds(self) -> None:
        post = "Results:\n#1 Karelia: lost\n\nNon-combat moves:\nFinland 1 ARM to E Europe\n"
        got = self.check(self.BOARD, self.PRE, post, G)
        assert found(got) == [(5, Code.MOVE_THROUGH_ENEMY)]
        assert "pass through Karelia S.S.R." in got[0].message

    def test_armour_through_land_captured_this_turn(self) -> None:
        post = (
            "Results:\n#1 Karelia: won, 2 INF left\n\n"
            "Non-combat moves:\nFinland 1 ARM to E Europe\n"
        )
        assert self.check(self.BOARD, self.PRE, post, G) == []

    def test_into_enemy_land_and_into_land_captured_this_turn(self) -> None:
        board = {**self.BOARD, "East Europe": {G: {U.INF: 5}}}
        won = (
            "Results:\n#1 Karelia: won, 2 INF left\n\n"
            "Non-combat moves:\nE Europe 2 INF to Karelia\n"
        )
        assert self.check(board, self.PRE, won, G) == []
        lost = won.replace("won, 2 INF left", "lost")
        assert found(self.check(board, self.PRE, lost, G)) == [(5, Code.MOVE_THROUGH_ENEMY)]

    def test_enemy_land_is_not_judged_without_the_combat_moves(self) -> None:
        """Without the pre-combat turn any enemy territory may have been taken: no finding
        on a guess."""
        post = "Non-combat moves:\nFinland 1 ARM to E Europe\n"
        assert self.check(self.BOARD, None, post, G) == []


class TestShipsInNonCombat(Case):
    """Ships move 2 sea zones, never into a zone holding enemy units in the non-combat move;
    Canals: "Canals may be used if and only if you or your allies own the territory or
    territories controlling the canal at the beginning of your turn.\""""

    BOARD: ClassVar[Board] = {
        "North Sea Zone": {UK: {U.BB: 2}},
        "Baltic Sea Zone": {G: {U.SUB: 1}},
        "Red Sea Zone": {UK: {U.BB: 1}},
    }

    def test_into_a_zone_the_enemy_holds(self) -> None:
        post = "Non-combat moves:\nNorth SZ 1 BB to Baltic SZ\n"
        assert found(self.check(self.BOARD, NO_COMBAT, post, UK)) == [(2, Code.MOVE_THROUGH_ENEMY)]

    def test_into_a_zone_a_battle_cleared(self) -> None:
        pre = "Attack #1 - Baltic SZ (1 SUB)\nNorth SZ 1 BB\n"
        post = (
            "Results:\n#1 Baltic SZ: won, 1 BB left\n\n"
            "Non-combat moves:\nNorth SZ 1 BB to Baltic SZ\n"
        )
        assert self.check(self.BOARD, pre, post, UK) == []

    def test_through_a_canal_the_side_did_not_hold(self) -> None:
        post = "Non-combat moves:\nRed Sea SZ 1 BB to E Med SZ\n"
        got = self.check(self.BOARD, NO_COMBAT, post, UK, owners={"Anglo Sudan Egypt": G})
        assert found(got) == [(2, Code.MOVE_TOO_FAR)]
        assert got[0].rule is Rule.CANALS
        assert self.check(self.BOARD, NO_COMBAT, post, UK) == []

    def test_every_way_passes_a_zone_the_enemy_holds(self) -> None:
        """East US Sea Zone is two zones from the North Sea, only through East Canada's."""
        board = {**self.BOARD, "East Canada Sea Zone": {G: {U.SUB: 1}}}
        post = "Non-combat moves:\nNorth SZ 1 BB to E US SZ\n"
        got = self.check(board, NO_COMBAT, post, UK)
        assert found(got) == [(2, Code.MOVE_THROUGH_ENEMY)]
        assert "every way passes" in got[0].message
        assert self.check(self.BOARD, NO_COMBAT, post, UK) == []

    def test_three_sea_zones(self) -> None:
        post = "Non-combat moves:\nNorth SZ 1 BB to North Atlantic SZ\n"
        assert self.check(self.BOARD, NO_COMBAT, post, UK) == []
        post = "Non-combat moves:\nNorth SZ 1 BB to Carribean SZ\n"
        assert found(self.check(self.BOARD, NO_COMBAT, post, UK)) == [(2, Code.MOVE_TOO_FAR)]


class TestFighterRange(Case):
    """Fighters: "A fighter may only move a total of 4 spaces on any given turn": the flight
    to the battle and the one from it together."""

    BOARD: ClassVar[Board] = {
        "United Kingdom": {UK: {U.FTR: 2}},
        "West Europe": {G: {U.INF: 1}},
    }
    PRE = "Attack #1 - W Europe (1 INF)\nUK 2 FTR\n"
    POST = "Results:\n#1 W Europe: won, 2 FTR left\n\nNon-combat moves:\n{}\n"

    def test_back_home(self) -> None:
        post = self.POST.format("W Europe 2 FTR to UK")
        assert self.check(self.BOARD, self.PRE, post, UK) == []

    def test_on_past_the_range_left(self) -> None:
        post = self.POST.format("W Europe 2 FTR to Russia")
        got = self.check(self.BOARD, self.PRE, post, UK)
        assert found(got) == [(5, Code.MOVE_TOO_FAR)]
        assert got[0].rule is Rule.FIGHTERS
        assert "2 of a FTR's 4 are left after flying 2 to the battle" in got[0].message

    def test_without_the_combat_moves_the_shortest_flight_to_the_battle_counts(self) -> None:
        """The fighters in West Europe flew at least the 2 from the UK, the nearest place
        any UK fighter was: Russia, 3 more, is too far whatever they did."""
        post = self.POST.format("W Europe 2 FTR to Russia")
        got = self.check(self.BOARD, None, post, UK)
        assert found(got) == [(5, Code.MOVE_TOO_FAR)]
        assert "at most 2 of a FTR's 4 are left after flying at least 2" in got[0].message
        assert self.check(self.BOARD, None, self.POST.format("W Europe 2 FTR to UK"), UK) == []

    def test_a_fighter_that_did_not_fight_has_its_whole_range(self) -> None:
        board = {"United Kingdom": {UK: {U.FTR: 2}}}
        post = "Non-combat moves:\nUK 2 FTR to Russia\n"
        assert self.check(board, NO_COMBAT, post, UK) == []


class TestBomberRange(Case):
    """Facts sheet section 0: "BMB 15/6/4/1" (cost, move, attack, defense): a bomber moves
    6, over the combat and non-combat moves together, as a fighter moves 4."""

    BOARD: ClassVar[Board] = {"United Kingdom": {UK: {U.BMB: 1}}}

    def test_past_its_range(self) -> None:
        post = "Non-combat moves:\nUK 1 BMB to Madagascar\n"
        got = self.check(self.BOARD, NO_COMBAT, post, UK)
        assert found(got) == [(2, Code.MOVE_TOO_FAR)]
        assert got[0].rule is Rule.NON_COMBAT and "bomber's range" in got[0].message

    def test_within_its_range(self) -> None:
        post = "Non-combat moves:\nUK 1 BMB to Russia\n"
        assert self.check(self.BOARD, NO_COMBAT, post, UK) == []


class TestNeutrals(Case):
    """Planes "may not fly over neutrals in non-combat" (facts sheet 8) unless taken this
    turn: Brazil to New Zealand is 4 over Argentina-Chile, 5 around it. Land units never
    enter a neutral in the non-combat move (TripleA rule book: "land and sea units may not
    enter any territory controlled by an enemy or neutral")."""

    BOARD: ClassVar[Board] = {"Brazil": {US: {U.FTR: 1, U.INF: 2}}}

    def test_over_a_neutral(self) -> None:
        post = "Non-combat moves:\nBrazil 1 FTR to New Zealand\n"
        got = self.check(self.BOARD, NO_COMBAT, post, US)
        assert found(got) == [(2, Code.MOVE_THROUGH_ENEMY)]
        assert "without flying over a neutral" in got[0].message

    def test_over_a_neutral_taken_this_turn(self) -> None:
        pre = "Attack #1 - Argentina-Chile (WI)\nBrazil 1 INF\n"
        post = (
            "Results:\n#1 Argentina: walked in\n\nNon-combat moves:\nBrazil 1 FTR to New Zealand\n"
        )
        assert self.check(self.BOARD, pre, post, US) == []

    def test_a_fighter_landing_in_a_neutral(self) -> None:
        """Aircraft land "in a territory that was friendly at the start of your turn" (facts
        sheet 4): a neutral never was."""
        post = "Non-combat moves:\nBrazil 1 FTR to Argentina\n"
        got = self.check(self.BOARD, NO_COMBAT, post, US)
        assert found(got) == [(2, Code.LANDING_ILLEGAL)]
        assert "a neutral" in got[0].message

    def test_infantry_into_a_neutral(self) -> None:
        post = "Non-combat moves:\nBrazil 1 INF to Argentina\n"
        got = self.check(self.BOARD, NO_COMBAT, post, US)
        assert found(got) == [(2, Code.MOVE_THROUGH_ENEMY)]
        assert "a neutral not taken this turn" in got[0].message

    def test_infantry_into_a_neutral_taken_this_turn(self) -> None:
        pre = "Attack #1 - Argentina-Chile (WI)\nBrazil 1 INF\n"
        post = "Results:\n#1 Argentina: walked in\n\nNon-combat moves:\nBrazil 1 INF to Argentina\n"
        assert self.check(self.BOARD, pre, post, US) == []


class TestLanding(Case):
    """Aircraft land "in a territory that was friendly at the start of your turn, never one
    captured this turn, or a carrier with room" (facts sheet 4): two fighters a carrier, the
    carriers having moved first [SPEC FAQ p.1]."""

    BOARD: ClassVar[Board] = {
        "Karelia S.S.R.": {R: {U.INF: 3, U.FTR: 1}},
        "Ukraine S.S.R.": {G: {U.INF: 1}},
    }
    PRE = "Attack #1 - Ukraine (1 INF)\nKar 3 INF\n"
    RESULT = "Results:\n#1 Ukraine: won, 2 INF left\n\nNon-combat moves:\n"

    def test_in_land_captured_this_turn(self) -> None:
        got = self.check(self.BOARD, self.PRE, self.RESULT + "Kar 1 FTR to Ukraine\n", R)
        assert found(got) == [(5, Code.LANDING_ILLEGAL)]
        assert "captured this turn" in got[0].message
        assert self.check(self.BOARD, self.PRE, self.RESULT + "Kar 1 FTR to Russia\n", R) == []

    HAWAII: ClassVar[Board] = {
        "Hawaiian Islands": {US: {U.FTR: 2, U.BMB: 1}},
        "Hawaii Sea Zone": {US: {U.AC: 1, U.FTR: 1}},
        "West US Sea Zone": {US: {U.AC: 1}},
    }

    def test_a_carrier_with_room(self) -> None:
        post = "Non-combat moves:\nHawaii 1 FTR to Hawaii SZ\n"
        assert self.check(self.HAWAII, NO_COMBAT, post, US) == []

    def test_more_fighters_than_the_carrier_holds(self) -> None:
        post = "Non-combat moves:\nHawaii 2 FTR to Hawaii SZ\n"
        assert found(self.check(self.HAWAII, NO_COMBAT, post, US)) == [(2, Code.LANDING_ILLEGAL)]

    def test_a_carrier_that_moves_there_first(self) -> None:
        post = "Non-combat moves:\nHawaii 2 FTR to Hawaii SZ\nW US SZ 1 AC to Hawaii SZ\n"
        assert self.check(self.HAWAII, NO_COMBAT, post, US) == []

    def test_at_sea_with_no_carrier_and_a_bomber_at_sea(self) -> None:
        post = "Non-combat moves:\nHawaii 1 FTR to Midway SZ\nHawaii 1 BMB to Hawaii SZ\n"
        assert found(self.check(self.HAWAII, NO_COMBAT, post, US)) == [
            (2, Code.LANDING_ILLEGAL),
            (3, Code.LANDING_ILLEGAL),
        ]


class TestAAGunsAndCapturedLand(Case):
    """AA Guns: "You may move an AA Gun into but not out of a newly captured territory.\""""

    BOARD: ClassVar[Board] = {
        "Karelia S.S.R.": {R: {U.INF: 3}},
        "Caucasus": {R: {U.AA: 1}},
        "Ukraine S.S.R.": {G: {U.INF: 1, U.AA: 1}},
    }
    PRE = "Attack #1 - Ukraine (1 INF, 1 AA)\nKar 3 INF\n"
    RESULT = "Results:\n#1 Ukraine: won, 2 INF left\n\nNon-combat moves:\n"

    def test_the_captured_gun_moves_out(self) -> None:
        got = self.check(self.BOARD, self.PRE, self.RESULT + "Ukraine 1 AA to Caucasus\n", R)
        assert found(got) == [(5, Code.AA_OUT_OF_CAPTURED)]
        assert got[0].rule is Rule.AA_GUN_MOVES

    def test_a_gun_moves_in(self) -> None:
        assert self.check(self.BOARD, self.PRE, self.RESULT + "Caucasus 1 AA to Ukraine\n", R) == []
