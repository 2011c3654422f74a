"""The battle engine through its Python API: state carried between rounds, choices,
withdrawals, and the corners the conformance cases do not reach."""

from __future__ import annotations

import json
from typing import Any

import pytest

from adjudicator.battle import (
    BattleResult,
    BattleSetup,
    CasualtyChoice,
    Outcome,
    PauseReason,
    RoundInput,
    Severity,
    Units,
    resolve,
    resolve_json,
)
from adjudicator.diagnostics import Rule
from adjudicator.units import Battlefield, Technology, UnitType

U = UnitType
LAND, SEA = Battlefield.LAND, Battlefield.SEA


def setup(
    field: Battlefield, attacker: dict[UnitType, int], defender: dict[UnitType, int], **extra: Any
) -> BattleSetup:
    return BattleSetup(field, Units.of(attacker), Units.of(defender), **extra)


def rolled(
    attacker: dict[UnitType, tuple[int, ...]],
    defender: dict[UnitType, tuple[int, ...]],
    **extra: Any,
) -> RoundInput:
    return RoundInput(attacker=attacker, defender=defender, **extra)


def rules(result: BattleResult, severity: Severity) -> list[Rule]:
    return [d.rule for d in result.diagnostics if d.severity is severity]


class TestWithdrawals:
    def test_last_attacking_sub_withdrawing_is_a_retreat(self) -> None:
        s = setup(SEA, {U.SUB: 1}, {U.TRN: 2})
        r = resolve(s, [rolled({U.SUB: (6,)}, {U.TRN: (6, 6)}, withdraw_attacker=1)])
        assert r.outcome is Outcome.ATTACKER_RETREATS
        assert r.withdrawn(attacker=True) == Units.of({U.SUB: 1})
        assert r.attacker == Units()

    def test_defending_subs_withdrawing_leave_the_zone_to_the_attacker(self) -> None:
        s = setup(SEA, {U.BB: 1}, {U.SUB: 2})
        r = resolve(s, [rolled({U.BB: (1,)}, {U.SUB: (6, 6)}, withdraw_defender=1)])
        assert r.outcome is Outcome.ATTACKER_WINS
        assert r.casualties(attacker=False) == Units.of({U.SUB: 1})

    def test_more_than_survive_is_refused(self) -> None:
        s = setup(SEA, {U.BB: 1}, {U.SUB: 2})
        r = resolve(s, [rolled({U.BB: (1,)}, {U.SUB: (6, 6)}, withdraw_defender=2)])
        assert r.outcome is Outcome.CONTINUES and r.defender == Units.of({U.SUB: 1})
        assert rules(r, Severity.ERROR) == [Rule.SUB_WITHDRAWAL]

    def test_after_the_battle_ended_it_is_ignored(self) -> None:
        s = setup(SEA, {U.BB: 1}, {U.SUB: 1})
        r = resolve(s, [rolled({U.BB: (1,)}, {U.SUB: (6,)}, withdraw_attacker=1)])
        assert r.outcome is Outcome.ATTACKER_WINS
        assert rules(r, Severity.WARNING) == [Rule.SUB_WITHDRAWAL]


class TestChoices:
    def test_choice_that_does_not_fit_falls_back_to_the_order(self) -> None:
        s = setup(LAND, {U.ARM: 1}, {U.INF: 1, U.BMB: 1})
        bad = CasualtyChoice(defender=Units.of({U.INF: 1, U.BMB: 1}))
        r = resolve(s, [rolled({U.ARM: (1,)}, {U.INF: (6,), U.BMB: (6,)}, chosen=bad)])
        assert r.rounds[0].defender_casualties == Units.of({U.INF: 1})
        assert rules(r, Severity.ERROR) == [Rule.DEFAULT_OOL]
        pause = r.rounds[0].pause
        assert pause is not None and pause.answered

    def test_first_strike_choice_may_not_name_an_aircraft(self) -> None:
        s = setup(SEA, {U.SUB: 1}, {U.AC: 1, U.FTR: 1})
        bad = CasualtyChoice(first_strike=Units.of({U.FTR: 1}))
        r = resolve(s, [RoundInput(subs=(1,), defender={U.AC: (6,), U.FTR: (6,)}, chosen=bad)])
        assert r.rounds[0].defender_casualties == Units.of({U.AC: 1})
        assert Rule.DEFAULT_OOL in rules(r, Severity.ERROR)

    def test_attacker_names_his_own_casualties(self) -> None:
        s = setup(LAND, {U.INF: 1, U.FTR: 1}, {U.INF: 2})
        mine = CasualtyChoice(attacker=Units.of({U.FTR: 1}))
        r = resolve(s, [rolled({U.INF: (6,), U.FTR: (6,)}, {U.INF: (1, 6)}, chosen=mine)])
        assert r.attacker == Units.of({U.INF: 1})


class TestCargoBetweenRounds:
    def test_empty_transports_are_lost_before_the_loaded_one(self) -> None:
        """Three TRN, one loaded; two hits sink two empties; the loaded one still owes a
        pause in round 2 only if it can survive: one hit on the last TRN cannot."""
        s = setup(SEA, {U.BB: 2}, {U.TRN: 3}, transport_cargo=1)
        r = resolve(
            s, [rolled({U.BB: (1, 1)}, {U.TRN: (6, 6, 6)}), rolled({U.BB: (1, 6)}, {U.TRN: (6,)})]
        )
        first = r.rounds[0].pause
        assert first is not None and first.reasons == (PauseReason.LOADED_TRANSPORT,)
        assert r.rounds[1].pause is None and r.outcome is Outcome.ATTACKER_WINS

    def test_carrier_whose_fighter_is_lost_is_no_longer_loaded(self) -> None:
        s = setup(SEA, {U.BB: 2}, {U.AC: 1, U.FTR: 1, U.TRN: 1})
        r = resolve(
            s,
            [
                rolled({U.BB: (1, 1)}, {U.AC: (6,), U.FTR: (6,), U.TRN: (6,)}),
                rolled({U.BB: (1, 6)}, {U.AC: (6,)}),
            ],
        )
        assert r.rounds[0].defender_casualties == Units.of({U.TRN: 1, U.FTR: 1})
        assert r.rounds[0].pause is not None
        assert r.rounds[1].pause is None

    def test_fighters_aboard_default_to_every_defending_fighter_that_fits(self) -> None:
        s = setup(SEA, {U.BB: 1}, {U.AC: 1, U.FTR: 3})
        assert s.initial_carrier_fighters() == 2
        assert (
            setup(
                SEA, {U.BB: 1}, {U.AC: 1, U.FTR: 1}, carrier_fighters=0
            ).initial_carrier_fighters()
            == 0
        )


class TestAaCorners:
    def test_aa_gun_alone_still_fires(self) -> None:
        s = setup(LAND, {U.INF: 1, U.FTR: 2}, {U.AA: 1})
        r = resolve(s, [RoundInput(aa=(1, 6))])
        assert r.rounds[0].attacker_casualties == Units.of({U.FTR: 1})
        assert r.outcome is Outcome.ATTACKER_WINS and r.captured and r.final

    def test_heavy_bomber_shot_down_takes_its_three_dice(self) -> None:
        s = setup(
            LAND,
            {U.BMB: 2},
            {U.INF: 3, U.AA: 1},
            attacker_technologies=frozenset({Technology.HEAVY_BOMBERS}),
        )
        r = resolve(
            s,
            [
                RoundInput(
                    aa=(6, 1), attacker={U.BMB: (6, 6, 6, 1, 1, 1)}, defender={U.INF: (6, 6, 6)}
                )
            ],
        )
        assert r.rounds[0].attacker_hits == 0 and r.final

    def test_walk_in_needs_no_roll(self) -> None:
        s = setup(LAND, {U.ARM: 1}, {U.IC: 1})
        r = resolve(s, [])
        assert r.outcome is Outcome.ATTACKER_WINS and r.captured and not r.retreat_allowed

    def test_planes_alone_never_capture(self) -> None:
        s = setup(LAND, {U.FTR: 1}, {U.INF: 1})
        r = resolve(s, [rolled({U.FTR: (1,)}, {U.INF: (6,)})])
        assert r.outcome is Outcome.ATTACKER_WINS and not r.captured


class TestDiceThatCannotHit:
    def test_defending_sub_facing_only_aircraft_may_leave_its_die_out(self) -> None:
        s = setup(SEA, {U.FTR: 1}, {U.SUB: 1, U.TRN: 1})
        r = resolve(s, [rolled({U.FTR: (6,)}, {U.TRN: (6,)})])
        assert r.final

    def test_its_hit_finds_no_target(self) -> None:
        s = setup(SEA, {U.FTR: 1}, {U.SUB: 1})
        r = resolve(s, [rolled({U.FTR: (6,)}, {U.SUB: (1,)})])
        assert r.rounds[0].defender_hits == 1 and r.attacker == Units.of({U.FTR: 1})
        assert rules(r, Severity.INFO) == [Rule.SUBS_HIT_SHIPS]

    def test_attacking_transport_rolls_nothing(self) -> None:
        s = setup(SEA, {U.TRN: 1, U.BB: 1}, {U.TRN: 1})
        r = resolve(s, [rolled({U.TRN: (1,), U.BB: (6,)}, {U.TRN: (6,)})])
        assert r.rounds[0].attacker_hits == 0
        assert rules(r, Severity.ERROR) == [Rule.WRONG_UNITS]


def test_amphibious_without_infantry_or_armour_is_questioned() -> None:
    s = setup(LAND, {U.FTR: 1}, {U.INF: 1}, amphibious=True)
    assert rules(resolve(s, []), Severity.WARNING) == [Rule.AMPHIBIOUS]


def test_no_retreat_flag() -> None:
    s = setup(LAND, {U.ARM: 2}, {U.INF: 2}, no_retreat=True)
    r = resolve(s, [rolled({U.ARM: (1, 6)}, {U.INF: (6, 6)}, retreat=True)])
    assert r.outcome is Outcome.CONTINUES and not r.retreat_allowed
    assert rules(r, Severity.ERROR) == [Rule.RETREATS]


def test_output_is_plain_json_of_integers_and_strings() -> None:
    out: dict[str, Any] = resolve_json(
        {
            "version": 1,
            "kind": "land",
            "amphibious": 1,
            "attacker": {"INF": 2, "BB": 1},
            "defender": {"INF": 2, "BMB": 1},
            "rounds": [
                {
                    "bombard": [1],
                    "attacker": {"INF": [1, 6]},
                    "defender": {"INF": [6, 6], "BMB": [6]},
                }
            ],
        }
    )

    def walk(value: object) -> None:
        assert not isinstance(value, (bool, float))
        if isinstance(value, dict):
            for key, item in value.items():
                assert isinstance(key, str)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        else:
            assert value is None or isinstance(value, (int, str))

    walk(out)
    assert json.loads(json.dumps(out)) == out
    assert out["rounds"][0]["pause"]["reason"] == "bomber"


@pytest.mark.parametrize("field", [LAND, SEA])
def test_no_rounds_yet(field: Battlefield) -> None:
    attacker = {U.ARM: 1} if field is LAND else {U.BB: 1}
    defender = {U.INF: 1} if field is LAND else {U.TRN: 1}
    r = resolve(setup(field, attacker, defender), [])
    assert r.outcome is Outcome.CONTINUES and r.rounds == () and not r.retreat_allowed
