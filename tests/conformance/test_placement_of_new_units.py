"""IAAPA Rules Clarifications, Placement of New Units, Income Collection and Spending and AA
Guns, as the turn report checks a post-combat email (``pbem turn check --position``): where new
units may go, how many a complex builds, and who owns the land, guns and complexes a battle
takes or frees. The same examples played out from the dice are in
``test_turn_capture_and_income``; here the report must agree with them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from adjudicator.declarations import Code, apply_post_combat
from adjudicator.declarations.turncheck import check_turn
from adjudicator.diagnostics import Diagnostic, Severity
from adjudicator.position import Position, arranged
from adjudicator.powers import Power
from adjudicator.turns import advance
from adjudicator.units import Units
from adjudicator.units import UnitType as U
from tests.conformance.test_turn_capture_and_income import read, won

UK, G, R, J, US = Power.UK, Power.GERMANY, Power.USSR, Power.JAPAN, Power.USA
Board = Mapping[str, Mapping[Power, Mapping[U, int]]]


def check(units: Board, post: str, pre: str | None = None, **kw: Any) -> tuple[Diagnostic, ...]:
    start: Position = arranged(units, **kw)
    return check_turn(read(post), start, precombat=read(pre) if pre else None).findings


def placed(found: tuple[Diagnostic, ...]) -> list[tuple[int, str]]:
    """The placement findings as (line, code)."""
    codes = {Code.PLACEMENT_ILLEGAL, Code.PRODUCTION_LIMIT, Code.CAPITAL_LOST}
    return [(f.line, str(f.code)) for f in found if f.code in codes]


HOME: Board = {
    "United Kingdom": {UK: {U.INF: 2, U.IC: 1, U.AA: 1}},
    "North Sea Zone": {UK: {U.AC: 1}},
    "West Europe": {G: {U.INF: 1, U.IC: 1}},
}


class TestAtAComplexOwnedSinceTheStartOfTheTurn:
    """ "You must have owned the IC at the beginning of your turn and you must still control
    the industrial complex at the time of the placement of new units.\""""

    def test_a_complex_taken_this_turn_builds_nothing(self) -> None:
        email = "Results:\n#1 W Europe: won, 2 INF left\n\nPlacement:\nW Europe 1 INF\n"
        found = check(HOME, email, owners={"West Europe": G}, to_move=UK)
        assert placed(found) == [(5, "placement-illegal")]
        (finding,) = [f for f in found if f.code is Code.PLACEMENT_ILLEGAL]
        assert finding.severity is Severity.ERROR and finding.battles == ()
        assert "start of the turn" in finding.message

    def test_the_home_complex_builds(self) -> None:
        email = "Results:\n#1 W Europe: won, 2 INF left\n\nPlacement:\nUK 1 INF\n"
        assert placed(check(HOME, email, to_move=UK)) == []

    def test_land_without_a_complex(self) -> None:
        found = check(HOME, "Placement:\nEire 1 INF\n", owners={"Eire": UK}, to_move=UK)
        assert placed(found) == [(2, "placement-illegal")]


class TestShipsAndFighters:
    """ "Shipping may be placed in any water area on the board that is adjacent to a land
    territory possessing an IC." "A newly purchased fighter may not be placed on an aircraft
    carrier. It must be placed in a land territory.\""""

    def test_a_new_fighter_on_a_carrier(self) -> None:
        found = check(HOME, "Placement:\nUK SZ 1 FTR\n", to_move=UK)
        assert placed(found) == [(2, "placement-illegal")]
        assert "aircraft carrier" in next(f.message for f in found if f.line == 2)

    def test_a_new_fighter_on_land_and_a_new_carrier_at_sea(self) -> None:
        found = check(HOME, "Placement:\nUK 1 FTR\nUK SZ 1 AC\n", to_move=UK)
        assert placed(found) == []

    def test_ships_away_from_any_complex(self) -> None:
        found = check(HOME, "Placement:\nC Med SZ 1 TRN\n", to_move=UK)
        assert placed(found) == [(2, "placement-illegal")]

    def test_ships_into_a_zone_enemy_ships_hold(self) -> None:
        units = {**HOME, "North Sea Zone": {G: {U.SUB: 1}}}
        found = check(units, "Placement:\nUK SZ 1 TRN\n", to_move=UK)
        assert placed(found) == [(2, "placement-illegal")]
        assert "enemy units" in next(f.message for f in found if f.line == 2)

    def test_ships_into_a_zone_cleared_this_turn(self) -> None:
        units = {**HOME, "North Sea Zone": {G: {U.SUB: 1}, UK: {U.AC: 1}}}
        email = "Results:\n#1 UK SZ: won, 1 AC left\n\nPlacement:\nUK SZ 1 TRN\n"
        assert placed(check(units, email, to_move=UK)) == []


class TestProduction:
    """Facts sheet section 8: "New, bid or captured ICs build at most the territory's IPC
    value each turn, with a minimum of 1 on 0-value land"; original ones build without limit
    for their original owner."""

    INDIA: ClassVar[Board] = {"India": {UK: {U.INF: 1, U.IC: 1}}, "United Kingdom": {UK: {U.IC: 1}}}

    def test_a_new_complex_builds_its_territorys_value(self) -> None:
        found = check(self.INDIA, "Placement:\nIndia 3 INF\nIndia SZ 1 TRN\n", to_move=UK)
        assert placed(found) == [(3, "production-limit")]

    def test_within_the_value(self) -> None:
        found = check(self.INDIA, "Placement:\nIndia 2 INF\nIndia SZ 1 TRN\n", to_move=UK)
        assert placed(found) == []

    def test_land_units_past_the_value(self) -> None:
        found = check(self.INDIA, "Placement:\nIndia 4 INF\n", to_move=UK)
        assert placed(found) == [(2, "production-limit")]

    def test_an_original_complex_has_no_limit(self) -> None:
        found = check(self.INDIA, "Placement:\nUK 12 INF\n", to_move=UK)
        assert placed(found) == []


class TestOneComplexAndOneGunATerritory:
    """Facts sheet section 8, Placement: "One IC per territory, at most one AA gun per
    territory, no fighters onto carriers" [XML maxFactoriesPerTerritory=1, Multiple AA=false];
    "Land and air units go at ICs you owned since the start of your turn." A new complex goes
    on land the mover held at the start of its turn."""

    def test_a_second_complex(self) -> None:
        found = check(HOME, "Placement:\nUK 1 IC\n", to_move=UK)
        assert placed(found) == [(2, "placement-illegal")]
        assert "one industrial complex" in next(f.message for f in found if f.line == 2)

    def test_a_new_complex_on_land_held_since_the_start(self) -> None:
        found = check(HOME, "Placement:\nEire 1 IC\n", owners={"Eire": UK}, to_move=UK)
        assert placed(found) == []

    def test_a_new_complex_on_land_taken_this_turn(self) -> None:
        email = "Results:\n#1 Finland: won, 2 INF left\n\nPlacement:\nFinland 1 IC\n"
        units = {**HOME, "Finland Norway": {G: {U.INF: 1}}}
        found = check(units, email, owners={"Finland Norway": G}, to_move=UK)
        assert placed(found) == [(5, "placement-illegal")]
        assert "held since the start" in next(f.message for f in found if f.line == 5)

    def test_two_aa_guns_in_one_territory(self) -> None:
        found = check(HOME, "Placement:\nUK 2 AA\n", to_move=UK)
        assert placed(found) == [(2, "placement-illegal")]
        assert "one AA gun" in next(f.message for f in found if f.line == 2)


class TestEachUnitInItsElement:
    """Facts sheet section 8, Placement: "Land and air units go at ICs you owned since the
    start of your turn. Ships go in any adjacent sea zone ... that is not enemy-occupied"
    (IAAPA Placement of New Units: "Shipping may be placed in any water area on the board that
    is adjacent to a land territory possessing an IC")."""

    def test_ships_on_land(self) -> None:
        found = check(HOME, "Placement:\nUK 1 TRN\n", to_move=UK)
        assert placed(found) == [(2, "placement-illegal")]
        assert "sea zone beside a complex" in next(f.message for f in found if f.line == 2)

    def test_infantry_at_sea(self) -> None:
        found = check(HOME, "Placement:\nUK SZ 1 INF\n", to_move=UK)
        assert placed(found) == [(2, "placement-illegal")]
        assert "placed on land" in next(f.message for f in found if f.line == 2)


class TestNoPurchaseWithoutTheCapital:
    """Income Collection and Spending: "You may not purchase any new units while your capital
    is under enemy control.\""""

    def test_units_placed_without_the_capital(self) -> None:
        units = {"United Kingdom": {G: {U.INF: 2}}, "India": {UK: {U.IC: 1}}}
        found = check(units, "Placement:\nIndia 1 INF\n", owners={"United Kingdom": G}, to_move=UK)
        assert placed(found) == [(2, "capital-lost")]

    def test_with_the_capital(self) -> None:
        units = {"United Kingdom": {UK: {U.INF: 2}}, "India": {UK: {U.IC: 1}}}
        assert placed(check(units, "Placement:\nIndia 1 INF\n", to_move=UK)) == []


NOVO: Board = {"Sinkiang": {US: {U.INF: 2}}, "Novosibirsk": {J: {U.INF: 1, U.AA: 1}}}
NOVO_PRE = "Combat moves:\nAttack #1 - Novosibirsk (1 INF, AA)\nSink 2 INF\n"
NOVO_POST = "Results:\n#1 Novosibirsk: won, 2 INF left\n"


class TestAaGunsInTheReport:
    """IAAPA AA Guns: "If an enemy AA Gun is located in a territory that is liberated then
    ownership of that AA gun will belong to the country that owned the territory at the start
    of the game"; "If an enemy AA Gun is located in a territory that you capture then you will
    own the AA Gun." The report's position must be the played-out one."""

    def both(self, units: Board, **kw: Any) -> tuple[Position, Position]:
        start = arranged(units, to_move=US, **kw)
        pre, post = read(NOVO_PRE), read(NOVO_POST)
        reported = apply_post_combat(start, post, precombat=pre).position
        played = advance(start, pre, post, {1: won(INF=2)}).position
        return reported, played

    def test_example_1_liberated(self) -> None:
        for after in self.both(NOVO, owners={"Novosibirsk": J}):
            assert after.owner("Novosibirsk") is R
            assert after.units_of("Novosibirsk", R) == Units.of({U.AA: 1})

    def test_example_1_captured_while_russia_is_held(self) -> None:
        units = {**NOVO, "Russia": {G: {U.INF: 1}}}
        for after in self.both(units, owners={"Novosibirsk": J, "Russia": G}):
            assert after.owner("Novosibirsk") is US
            assert after.units_of("Novosibirsk", US) == Units.of({U.INF: 2, U.AA: 1})


class TestALiberatedCapitalTakesBackItsLand:
    """Placement of New Units: "If you possess an industrial complex located in one of your
    Ally's territories (i.e., their capital is under enemy control) then you may place new
    units there. ... As such, if you liberate their capital you will not be allowed to place
    any new units in that complex as it has now reverted back to your Ally's control.\""""

    UNITS: ClassVar[Board] = {
        "Russia": {G: {U.INF: 1, U.IC: 1}},
        "Karelia S.S.R.": {UK: {U.INF: 3, U.IC: 1}},
        "United Kingdom": {UK: {U.IC: 1}},
    }
    OWNERS: ClassVar[dict[str, Power]] = {"Russia": G, "Karelia S.S.R.": UK}
    PRE = "Purchases: 1 INF\nCombat moves:\nAttack #1 - Russia (1 INF, IC)\nKar 3 INF\n"

    def test_the_complex_reverts_and_builds_nothing_for_the_liberator(self) -> None:
        post = "Results:\n#1 Russia: won, 2 INF left\n\nPlacement:\nKarelia 1 INF\n"
        start = arranged(self.UNITS, owners=self.OWNERS, to_move=UK)
        reported = check_turn(read(post), start, precombat=read(self.PRE))
        played = advance(start, read(self.PRE), read(post), {1: won(INF=2)})
        for after in (reported.position, played.position):
            assert after.owner("Russia") is R and after.owner("Karelia S.S.R.") is R
            assert after.units_of("Karelia S.S.R.", R) == Units.of({U.IC: 1})
        assert placed(reported.findings) == [(5, "placement-illegal")]

    def test_without_the_liberation_the_allys_complex_builds(self) -> None:
        post = "Results:\n#1 Russia: lost\n\nPlacement:\nKarelia 1 INF\n"
        start = arranged(self.UNITS, owners=self.OWNERS, to_move=UK)
        reported = check_turn(read(post), start, precombat=read(self.PRE))
        assert reported.position.owner("Karelia S.S.R.") is UK
        assert placed(reported.findings) == []


class TestPlanesAloneNeverCapture:
    """Facts sheet section 8: "Only surviving land units capture a territory. Planes alone
    never do." The report says so, and its position agrees with the one played out."""

    UNITS: ClassVar[Board] = {"United Kingdom": {UK: {U.FTR: 2}}, "West Europe": {G: {U.INF: 1}}}
    PRE = "Combat moves:\nAttack #1 - W Europe (1 INF)\nUK 2 FTR\n"

    def test_fighters_alone_take_nothing(self) -> None:
        post = "Results:\n#1 W Europe: won, 2 FTR left\n"
        start = arranged(self.UNITS, to_move=UK)
        reported = check_turn(read(post), start, precombat=read(self.PRE))
        played = advance(start, read(self.PRE), read(post), {1: won(FTR=2)})
        for after in (reported.position, played.position):
            assert after.owner("West Europe") is G
        (finding,) = [f for f in reported.findings if f.code == Code.AIR_ONLY]
        assert finding.line == 2 and "planes never capture" in finding.message
