"""Several battles of a turn through the Python API, the text rendering, and a side's Units."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.battle import (
    BattleSetup,
    Closure,
    Outcome,
    RoundInput,
    TurnBattle,
    Units,
    order_of_battles,
    render_text,
    resolve,
    resolve_json,
)
from adjudicator.battle.render import has_errors
from adjudicator.diagnostics import Rule, Severity
from adjudicator.units import Battlefield, UnitType

U = UnitType


def land(
    attacker: dict[UnitType, int],
    defender: dict[UnitType, int],
    *rounds: RoundInput,
    amphibious: bool = False,
) -> TurnBattle:
    s = BattleSetup(Battlefield.LAND, Units.of(attacker), Units.of(defender), amphibious=amphibious)
    return TurnBattle(resolve(s, rounds), name="")


UNDECIDED = RoundInput(attacker={U.INF: (6, 6)}, defender={U.INF: (6, 6)})
WON = RoundInput(attacker={U.ARM: (1,)}, defender={U.INF: (6,)})


class TestOrderOfBattles:
    def test_retreat_replaces_the_outcome_of_the_closed_battle(self) -> None:
        turn = order_of_battles(
            [land({U.INF: 2}, {U.INF: 2}, UNDECIDED), land({U.ARM: 1}, {U.INF: 1}, WON)]
        )
        assert turn.closures == (Closure.RETREATED, Closure.FINISHED)
        assert turn.battles[0].result.outcome is Outcome.ATTACKER_RETREATS
        assert not turn.battles[0].result.retreat_allowed
        assert [d.rule for _, d in turn.diagnostics] == [Rule.RETREATS]

    def test_blocking_battle_voids_only_the_begun_ones_after_it(self) -> None:
        turn = order_of_battles(
            [
                land({U.ARM: 1}, {U.INF: 1}, WON),
                land({U.INF: 2}, {U.INF: 2}, UNDECIDED, amphibious=True),
                land({U.ARM: 1}, {U.INF: 1}),
                land({U.ARM: 1}, {U.INF: 1}, WON),
            ]
        )
        assert turn.closures == (
            Closure.FINISHED,
            Closure.MUST_FINISH,
            Closure.NOT_BEGUN,
            Closure.REROLL,
        )
        assert turn.rerolled == (4,)
        assert all(d.severity is Severity.ERROR for _, d in turn.diagnostics)
        assert [n for n, _ in turn.diagnostics] == [2, 2]

    def test_a_lone_battle_is_open(self) -> None:
        turn = order_of_battles([land({U.INF: 2}, {U.INF: 2}, UNDECIDED)])
        assert turn.closures == (Closure.OPEN,) and turn.diagnostics == ()


DOC: dict[str, Any] = {
    "version": 1,
    "kind": "sea",
    "name": "Attack #2 - UK SZ",
    "attacker": {"SUB": 1, "BB": 1},
    "defender": {"SUB": 1, "TRN": 1, "AC": 1, "FTR": 1},
    "rounds": [
        {"subs": [2], "attacker": {"BB": [1]}, "defender": {"SUB": [6], "AC": [3], "FTR": [6]}},
        {"subs": [6], "attacker": {"BB": [6]}, "defender": {"SUB": [6], "FTR": [6]}},
    ],
}


class TestRenderText:
    def test_a_battle(self) -> None:
        text = render_text(resolve_json(DOC))
        lines = text.splitlines()
        assert lines[0] == (
            "Attack #2 - UK SZ: Sea battle: 1 SUB, 1 BB v. 1 FTR, 1 TRN, 1 SUB, 1 AC"
        )
        assert lines[1] == "Round 1: attacker 2 hits, defender 1 hit (first-strike hits 1)"
        assert lines[2] == "  attacker lost 1 SUB; defender lost 1 TRN, 1 SUB"
        assert lines[3].startswith("  PAUSE: ") and "loaded with aircraft" in lines[3]
        assert "WARNING round 2: round 2 was rolled without the pause" in text
        assert "ERROR round 2: " in text

    def test_a_provisional_result_is_not_presented_as_final(self) -> None:
        """Round 2 lacks a die ("final": 0): the outcome is labelled provisional, never
        "Outcome:" as if decided (issue 13, point 8)."""
        out = resolve_json(DOC)
        assert out["final"] == 0 and has_errors(out)
        text = render_text(out)
        assert "Outcome:" not in text
        assert (
            "Provisional outcome, NOT FINAL until the errors below are remedied: the "
            "battle continues (retreat allowed)"
        ) in text

    def test_a_turn(self) -> None:
        battle = {k: v for k, v in DOC.items() if k != "version"}
        text = render_text(resolve_json({"version": 1, "battles": [battle, battle]}))
        assert text.count("Battle ") == 2 and "closed: retreated" in text
        assert "Order of battles:\n  WARNING battle 1: " in text

    def test_rendering_a_stored_result_needs_only_the_dict(self) -> None:
        out = resolve_json(
            {
                "version": 1,
                "kind": "land",
                "attacker": {"ARM": 1},
                "defender": {"INF": 1},
                "rounds": [{"attacker": {"ARM": [1]}, "defender": {"INF": [6]}}],
            }
        )
        assert render_text(dict(out)).splitlines()[-1] == (
            "Outcome: the attacker wins (territory captured)"
        )
        assert not has_errors(out)


class TestUnits:
    def test_canonical_form(self) -> None:
        a = Units.of({U.BB: 1, U.INF: 2, U.ARM: 0})
        b = Units.of([(U.INF, 1), (U.BB, 1), (U.INF, 1)])
        assert a == b and hash(a) == hash(b)
        assert a.counts == ((U.INF, 2), (U.BB, 1))
        assert a.label() == "2 INF, 1 BB" and Units().label() == "none"

    def test_arithmetic(self) -> None:
        a = Units.of({U.INF: 2, U.FTR: 1, U.AA: 1})
        assert a.minus(Units.of({U.INF: 2})) == Units.of({U.FTR: 1, U.AA: 1})
        assert a.combatants() == Units.of({U.INF: 2, U.FTR: 1})
        assert (a.aircraft, a.surface, a.total) == (1, 3, 4)
        with pytest.raises(ValueError, match="cannot remove"):
            a.minus(Units.of({U.ARM: 1}))
        with pytest.raises(ValueError):
            Units.of({U.INF: -1})
