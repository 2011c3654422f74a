"""The declaration checks' finer points: the carrier search, inferred transport zones, the plan."""

from __future__ import annotations

import pytest

import adjudicator.declarations.landing as landing
from adjudicator.declarations import Code, check_declarations
from adjudicator.declarations.geometry import geometry, movement_of
from adjudicator.declarations.plan import build
from adjudicator.declarations.sites import locate
from adjudicator.notation import Severity, Units, parse
from adjudicator.position import arranged
from adjudicator.powers import Power
from adjudicator.units import UnitType as U

UK, G, R, J, US = Power.UK, Power.GERMANY, Power.USSR, Power.JAPAN, Power.USA

TWO_BATTLES = (
    "Attack #1 - Wake Island SZ (1 SUB)\nW US 1 FTR\nAttack #2 - Alaska SZ (1 SUB)\nE US 1 FTR\n"
)


def _pacific(carriers: int) -> dict[str, dict[Power, dict[U, int]]]:
    return {
        "West US": {US: {U.FTR: 1}},
        "East US": {US: {U.FTR: 1}},
        "North Pacific Sea Zone": {US: {U.AC: carriers}},
        "Wake Island Sea Zone": {J: {U.SUB: 1}},
        "Alaska Sea Zone": {J: {U.SUB: 1}},
    }


def test_the_pacific_premise() -> None:
    g = geometry(arranged({}).board)
    assert g.air("West US", "Wake Island Sea Zone") == 3
    assert g.air("East US", "Alaska Sea Zone") == 4
    assert g.landing("Wake Island Sea Zone", "Alaska Sea Zone") == 2


def test_one_carrier_cannot_be_in_two_places() -> None:
    """Each fighter alone could land on the carrier, but one needs it in the Alaska zone and
    the other within a move of Wake: the carrier ends its move in one zone."""
    found = check_declarations(parse(TWO_BATTLES), arranged(_pacific(1), to_move=US))
    assert [(f.line, f.code, f.battles) for f in found] == [
        (2, Code.NO_LANDING_PLACE, (1, 2)),
        (4, Code.NO_LANDING_PLACE, (1, 2)),
    ]


def test_two_carriers_can() -> None:
    assert check_declarations(parse(TWO_BATTLES), arranged(_pacific(2), to_move=US)) == ()


def test_a_search_too_long_gives_the_benefit_of_the_doubt(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(landing, "SEARCH_LIMIT", 0)
    assert check_declarations(parse(TWO_BATTLES), arranged(_pacific(1), to_move=US)) == ()


def test_transports_with_no_zone_and_one_possible() -> None:
    """ "UK 2 INF on 1 TRN": the UK touches one sea zone, holding the transport."""
    board = {
        "United Kingdom": {UK: {U.INF: 2}},
        "North Sea Zone": {UK: {U.TRN: 1}},
        "West Europe": {G: {U.INF: 1}},
    }
    found = check_declarations(
        parse("Attack #1 - W Europe\nUK 2 INF on 1 TRN\n"), arranged(board, to_move=UK)
    )
    assert [(f.code, f.severity) for f in found] == [(Code.INTENT_CLEAR, Severity.WARNING)]


def test_transports_with_no_zone_and_none_possible() -> None:
    board = {"United Kingdom": {UK: {U.INF: 2}}, "West Europe": {G: {U.INF: 1}}}
    found = check_declarations(
        parse("Attack #1 - W Europe\nUK 2 INF on 1 TRN\n"), arranged(board, to_move=UK)
    )
    assert [f.code for f in found] == [Code.ORIGIN_NOT_LISTED]


def test_cargo_already_at_sea_needs_no_transport_written() -> None:
    """Land units in a sea zone are aboard their transports: "E Med SZ 2 INF" unloads with
    them; not aboard (no transport there) they cannot be there at all."""
    board = {"North Sea Zone": {UK: {U.TRN: 1, U.INF: 2}}, "West Europe": {G: {U.INF: 1}}}
    turn = parse("Attack #1 - W Europe\nUK SZ 2 INF\n")
    position = arranged(board, to_move=UK)
    assert check_declarations(turn, position) == ()
    movement = movement_of(position, UK)
    sites, _ = locate(turn, movement)
    (lift,) = build(sites, movement).lifts
    assert (lift.zone, lift.count, lift.implied, lift.unload) == (
        "North Sea Zone",
        1,
        True,
        "North Sea Zone",
    )


def test_cargo_in_a_sea_battle_does_not_fight() -> None:
    """Transports moving into an enemy zone to load are "considered to be 'loaded' prior to
    the sea zone battle" (Amphibious Assaults): their cargo is no attacker of it."""
    board = {
        "United Kingdom": {UK: {U.INF: 2}},
        "North Sea Zone": {UK: {U.TRN: 1}},
        "Baltic Sea Zone": {G: {U.SUB: 1}},
    }
    turn = parse("Attack #1 - Baltic SZ (1 SUB)\nUK 2 INF on UK SZ 1 TRN to Baltic SZ\n")
    position = arranged(board, to_move=UK)
    movement = movement_of(position, UK)
    sites, _ = locate(turn, movement)
    (sortie,) = build(sites, movement).sorties
    assert sortie.fighting == Units()
    assert check_declarations(turn, position) == ()


def test_a_raid_needs_an_enemy_complex_and_bombers_only() -> None:
    board = {"United Kingdom": {UK: {U.BMB: 1, U.FTR: 1}}, "Germany": {G: {U.IC: 1}}}
    position = arranged(board, to_move=UK)
    found = check_declarations(parse("Attack #1 - Germany (SBR)\nUK 1 BMB, 1 FTR\n"), position)
    assert [f.code for f in found] == [Code.CANNOT_ATTACK]
    found = check_declarations(parse("Attack #1 - West Europe (SBR)\nUK 1 BMB\n"), position)
    assert [f.code for f in found] == [Code.NO_COMPLEX]


def test_a_walk_in_from_the_sea() -> None:
    board = {"United Kingdom": {UK: {U.INF: 2}}, "North Sea Zone": {UK: {U.TRN: 1}}}
    position = arranged(board, to_move=UK, owners={"Finland Norway": G})
    assert (
        check_declarations(parse("Combat moves:\nUK 2 INF on UK SZ 1 TRN WI Finland\n"), position)
        == ()
    )
    found = check_declarations(parse("Combat moves:\nUK 2 INF WI Finland\n"), position)
    assert [f.code for f in found] == [Code.NOT_ENOUGH_TRANSPORTS]
