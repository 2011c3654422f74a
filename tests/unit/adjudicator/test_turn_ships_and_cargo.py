"""Ships, cargo, carriers, allied defenders and blitzes when a turn is played out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from adjudicator.battle import Outcome
from adjudicator.notation import Turn, parse
from adjudicator.position import Position, PositionError, arranged, dump_json, load_json
from adjudicator.powers import Power
from adjudicator.turns import Advance, BattleOutcome, Finding, advance
from adjudicator.units import Units
from adjudicator.units import UnitType as U

UK, G, R, J, US = Power.UK, Power.GERMANY, Power.USSR, Power.JAPAN, Power.USA
Board = Mapping[str, Mapping[Power, Mapping[U, int]]]


def read(text: str) -> Turn:
    turn = parse(text)
    assert turn.errors == (), turn.errors
    return turn


def units(**counts: int) -> Units:
    return Units.of({U[name]: n for name, n in counts.items()})


def verdict(
    outcome: str, attacker: Units, defender: Units | None = None, **kw: Any
) -> BattleOutcome:
    """A verdict (no defender left unless ``defender`` is given)."""
    return BattleOutcome(attacker, defender or Units(), Outcome(outcome), **kw)


def play(board: Board, pre: str, post: str, verdicts: Any = None, **kw: Any) -> Advance:
    start: Position = arranged(board, **kw)
    return advance(start, read(pre) if pre else None, read(post), verdicts or {})


def codes(turn: Advance) -> list[str]:
    return [f.code for f in turn.findings]


class TestAmphibiousWithASeaBattle:
    """IAAPA Amphibious Assaults: "Transports need to be declared as part of the attacking
    force" of the sea battle clearing the zone they unload from; that battle moves them."""

    BOARD: Mapping[str, Any] = {
        "United Kingdom": {UK: {U.INF: 4, U.IC: 1}},
        "North Sea Zone": {UK: {U.TRN: 2}},
        "West Spain Sea Zone": {UK: {U.BB: 1}},
        "Baltic Sea Zone": {G: {U.SUB: 1, U.AC: 1, U.FTR: 2}},
        "Finland Norway": {G: {U.INF: 1}},
    }
    PRE = (
        "UK 3 pre-combat\n\nCombat moves:\nAttack #1 - Baltic SZ (1 SUB, 1 AC, 2 FTR)\n"
        "W Spain SZ 1 BB\nUK SZ 2 TRN\n\nAttack #2 - Finland Norway (1 INF)\n"
        "UK 4 INF on UK SZ 2 TRN to Baltic SZ\n"
    )

    def test_one_transport_lost_in_the_sea_battle(self) -> None:
        turn = play(
            self.BOARD,
            self.PRE,
            "Results:\n#1 Baltic SZ: won, 1 BB, 1 TRN left\n#2 Finland Norway: won, 2 INF left\n",
            {
                1: verdict("attacker-wins", units(BB=1, TRN=1)),
                2: verdict("attacker-wins", units(INF=2)),
            },
            to_move=UK,
        )
        after = turn.position
        assert after.units_at("Baltic Sea Zone") == {UK: units(TRN=1, BB=1)}
        assert after.units_at("North Sea Zone") == {}
        assert after.owner("Finland Norway") is UK
        assert after.units_at("Finland Norway") == {UK: units(INF=2)}
        assert turn.findings == ()

    def test_defending_fighters_left_without_their_carrier_land_next_to_the_zone(self) -> None:
        turn = play(
            self.BOARD,
            self.PRE,
            "Results:\n#1 Baltic SZ: retreated to UK SZ\n",
            {1: verdict("continues", units(BB=1, TRN=2), units(FTR=2))},
            to_move=UK,
        )
        after = turn.position
        assert after.units_at("Baltic Sea Zone") == {}
        assert after.units_of("East Europe", G) == units(FTR=2)
        assert after.units_at("North Sea Zone") == {UK: units(TRN=2, BB=1)}
        assert Finding.PLANES_LANDED in codes(turn)


class TestDefenders:
    def test_losses_shared_by_allies_are_taken_in_turn_order(self) -> None:
        turn = play(
            {
                "East Europe": {G: {U.INF: 4}},
                "Karelia S.S.R.": {R: {U.INF: 2}, UK: {U.INF: 2}},
            },
            "Combat moves:\nAttack #1 - Karelia (4 INF)\nE Eur 4 INF\n",
            "Results:\n#1 Karelia: retreated to E Eur\n",
            {1: verdict("attacker-retreats", units(INF=1), units(INF=1))},
            to_move=G,
        )
        assert turn.position.units_at("Karelia S.S.R.") == {UK: units(INF=1)}
        assert Finding.SPLIT_LOSSES in codes(turn)

    def test_a_sub_withdraws_to_the_zone_named(self) -> None:
        board = {
            "North Sea Zone": {UK: {U.BB: 1}},
            "Baltic Sea Zone": {G: {U.SUB: 2}},
        }
        pre = "Combat moves:\nAttack #1 - Baltic SZ (2 SUB)\nUK SZ 1 BB\n"
        post = (
            "Results:\n#1 Baltic SZ: won\n\nSpecial orders:\n"
            "Battle #1: sub withdraws to Karelia SZ\n"
        )
        won = verdict("attacker-wins", units(BB=1), defender_withdrawn=units(SUB=1))
        turn = play(board, pre, post, {1: won}, to_move=UK)
        assert turn.position.units_at("Karelia Sea Zone") == {G: units(SUB=1)}
        assert turn.position.units_at("Baltic Sea Zone") == {UK: units(BB=1)}

    def test_a_sub_withdrawing_nowhere_named_stays(self) -> None:
        board = {"North Sea Zone": {UK: {U.BB: 1}}, "Baltic Sea Zone": {G: {U.SUB: 2}}}
        pre = "Combat moves:\nAttack #1 - Baltic SZ (2 SUB)\nUK SZ 1 BB\n"
        won = verdict("attacker-wins", units(BB=1), defender_withdrawn=units(SUB=1))
        turn = play(board, pre, "Results:\n#1 Baltic SZ: won\n", {1: won}, to_move=UK)
        assert turn.position.units_of("Baltic Sea Zone", G) == units(SUB=1)
        assert Finding.WITHDRAWAL_UNKNOWN in codes(turn)


class TestNonCombatShips:
    def test_transports_carry_the_cargo_named_and_unnamed(self) -> None:
        turn = play(
            {
                "East US": {US: {U.INF: 2, U.IC: 1}},
                "East US Sea Zone": {US: {U.TRN: 2, U.INF: 1}},
            },
            "",
            "Non-combat moves:\nE US 2 INF on E US SZ 1 TRN to UK SZ to UK\n"
            "E US SZ 1 TRN to E Can SZ\n",
            to_move=US,
        )
        after = turn.position
        assert after.units_of("United Kingdom", US) == units(INF=2)
        assert after.units_of("North Sea Zone", US) == units(TRN=1)
        assert after.units_of("East Canada Sea Zone", US) == units(TRN=1, INF=1)
        assert after.units_at("East US Sea Zone") == {}
        assert turn.findings == ()

    def test_a_move_from_where_nothing_is(self) -> None:
        turn = play({"Russia": {R: {U.INF: 1}}}, "", "Non-combat moves:\nRussia 2 INF to Karelia\n")
        assert turn.position.units_of("Karelia S.S.R.", R) == units(INF=1)
        assert [(f.code, f.line) for f in turn.findings] == [(Finding.NOT_THERE, 2)]

    def test_an_illegal_position_is_kept_unchecked(self) -> None:
        turn = play(
            {"United Kingdom": {UK: {U.INF: 2, U.IC: 1}}},
            "",
            "Non-combat moves:\nUK 2 INF to UK SZ\n",
            to_move=UK,
        )
        assert turn.position.units_of("North Sea Zone", UK) == units(INF=2)
        assert Finding.ILLEGAL_POSITION in codes(turn)

    def test_an_illegal_position_is_stored_and_read_back_unchecked(self) -> None:
        turn = play(
            {"United Kingdom": {UK: {U.INF: 2, U.IC: 1}}},
            "",
            "Non-combat moves:\nUK 2 INF to UK SZ\n",
            to_move=UK,
        )
        stored = dump_json(turn.position)
        assert load_json(stored, checked=False) == turn.position
        with pytest.raises(PositionError, match="do not fit"):
            load_json(stored)


class TestBlitz:
    def test_a_tank_takes_the_empty_territory_it_passes(self) -> None:
        turn = play(
            {"East Europe": {G: {U.ARM: 1}}, "Caucasus": {R: {U.INF: 1}}},
            "Combat moves:\nAttack #1 - Caucasus (1 INF)\nE Eur 1 ARM via Ukraine to Caucasus\n",
            "Results:\n#1 Caucasus: won, 1 ARM left\n",
            {1: verdict("attacker-wins", units(ARM=1))},
            owners={"Ukraine S.S.R.": R},
            to_move=G,
        )
        assert turn.position.owner("Ukraine S.S.R.") is G
        assert turn.position.owner("Caucasus") is G
        assert set(turn.captured) == {"Ukraine S.S.R.", "Caucasus"}
