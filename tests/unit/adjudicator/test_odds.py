"""The exact battle-odds calculator: closed forms, sums, retreat policies, the CLI and the
text (the Monte Carlo through the battle engine itself is in test_odds_simulate.py)."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from click.testing import CliRunner

from adjudicator.battle import BattleInputError
from adjudicator.odds import exact_odds, odds, odds_json, render_odds
from adjudicator.odds.rounds import binomial


def table(doc: dict[str, Any]) -> dict[str, Any]:
    """The JSON output, typed for reading."""
    return odds_json(doc)


def land(attacker: dict[str, int], defender: dict[str, int], **extra: Any) -> dict[str, Any]:
    return {"version": 1, "kind": "land", "attacker": attacker, "defender": defender, **extra}


def sea(attacker: dict[str, int], defender: dict[str, int], **extra: Any) -> dict[str, Any]:
    return {"version": 1, "kind": "sea", "attacker": attacker, "defender": defender, **extra}


class TestClosedForms:
    def test_one_infantry_against_one(self) -> None:
        """Attacker hits 1/6, defender 2/6; a round decides with 4/9: wins (1/6)(4/6) /
        (4/9) = 1/4, loses (5/6)(2/6) / (4/9) = 5/8, both die (1/6)(2/6) / (4/9) = 1/8."""
        exact = exact_odds(land({"INF": 1}, {"INF": 1}))
        assert (exact.attacker_wins, exact.defender_wins, exact.draw) == (
            Fraction(1, 4),
            Fraction(5, 8),
            Fraction(1, 8),
        )
        fast = odds(land({"INF": 1}, {"INF": 1}))
        assert fast.attacker_wins == pytest.approx(0.25, abs=1e-12)
        assert fast.defender_wins == pytest.approx(0.625, abs=1e-12)
        assert fast.draw == pytest.approx(0.125, abs=1e-12)

    def test_one_armour_against_one_infantry(self) -> None:
        """Attacker hits 3/6, defender 2/6; a round decides with 1 - (1/2)(2/3) = 2/3: wins
        (1/2)(2/3) / (2/3) = 1/2, loses (1/2)(1/3) / (2/3) = 1/4, both die 1/4. Expected
        IPC lost: attacker 5 * (1/4 + 1/4), defender 3 * (1/2 + 1/4)."""
        exact = exact_odds(land({"ARM": 1}, {"INF": 1}))
        assert (exact.attacker_wins, exact.defender_wins, exact.draw) == (
            Fraction(1, 2),
            Fraction(1, 4),
            Fraction(1, 4),
        )
        assert exact.attacker_ipc_lost == Fraction(5, 2)
        assert exact.defender_ipc_lost == Fraction(9, 4)

    def test_rounds_are_geometric(self) -> None:
        """1 INF v 1 INF ends in round k with (5/9)^(k-1) (4/9)."""
        rounds = dict(odds(land({"INF": 1}, {"INF": 1})).rounds)
        for k in (1, 2, 5):
            assert rounds[k] == pytest.approx((5 / 9) ** (k - 1) * 4 / 9, abs=1e-15)

    def test_binomial_sums_to_one_exactly(self) -> None:
        assert sum(binomial(7, 2, Fraction).values()) == 1


SMALL = [
    land({"INF": 2, "ARM": 1, "FTR": 1}, {"INF": 2, "AA": 1}),
    land({"INF": 2, "ARM": 1}, {"INF": 1, "ARM": 1, "FTR": 1}),
    land({"INF": 1, "ARM": 1, "BB": 1}, {"INF": 2}, amphibious=1),
    sea({"SUB": 2, "FTR": 1}, {"TRN": 1, "AC": 1, "FTR": 1}),
    sea({"BB": 1, "SUB": 1}, {"SUB": 1, "TRN": 2}),
    land({"BMB": 1, "INF": 1}, {"INF": 2}, technologies={"attacker": ["Heavy Bombers"]}),
]


class TestFloatMatchesFractions:
    @pytest.mark.parametrize("doc", SMALL)
    def test_same_odds(self, doc: dict[str, Any]) -> None:
        exact, fast = exact_odds(doc), odds(doc)
        for name in ("attacker_wins", "defender_wins", "draw", "captures"):
            assert getattr(fast, name) == pytest.approx(float(getattr(exact, name)), abs=1e-11)
        assert exact.attacker_wins + exact.defender_wins + exact.draw + exact.stalemate == 1


class TestSums:
    @pytest.mark.parametrize("doc", SMALL)
    def test_probabilities_sum_to_one(self, doc: dict[str, Any]) -> None:
        out = table(doc)
        ends = out["attacker_wins"] + out["defender_wins"] + out["draw"]
        ends += out.get("retreated", 0) + out.get("stalemate", 0)
        assert ends == pytest.approx(1, abs=1e-9)
        assert sum(r["p"] for r in out["rounds"]) == pytest.approx(1, abs=1e-9)
        survivors = out["survivors"]
        assert sum(s["p"] for s in survivors["attacker"]) == pytest.approx(
            out["attacker_wins"], abs=1e-12
        )
        assert sum(s["p"] for s in survivors["defender"]) == pytest.approx(
            out["defender_wins"], abs=1e-12
        )

    def test_planes_only_win_does_not_capture(self) -> None:
        """A fighter alone wins but never captures."""
        out = table(land({"FTR": 1}, {"INF": 1}))
        assert out["attacker_wins"] > 0 and out["captures"] == 0

    def test_zero_attack_ends(self) -> None:
        """Transports attacking transports: the attacker rolls nothing, the defender's 1s
        sink it in the end."""
        exact = exact_odds(sea({"TRN": 2}, {"TRN": 1}))
        assert exact.defender_wins == 1 and exact.stalemate == 0

    def test_nothing_to_fight_is_a_walk_in(self) -> None:
        out = table(land({"INF": 1}, {"IC": 1}))
        assert out["attacker_wins"] == 1 and out["rounds"] == [{"round": 0, "p": 1.0}]


class TestRetreat:
    def test_after_round_one(self) -> None:
        doc = land({"INF": 3}, {"INF": 3}, retreat={"after_round": 1})
        out = table(doc)
        assert [r["round"] for r in out["rounds"]] == [1]
        assert out["retreated"] > 0.5
        assert sum(s["p"] for s in out["retreating"]) == pytest.approx(out["retreated"])
        exact = exact_odds(doc)
        assert exact.retreated + exact.attacker_wins + exact.defender_wins + exact.draw == 1

    def test_attackers_at_most_lowers_the_losses(self) -> None:
        base = odds(land({"INF": 4, "ARM": 2}, {"INF": 5}))
        careful = odds(land({"INF": 4, "ARM": 2}, {"INF": 5}, retreat={"attackers_at_most": 3}))
        assert careful.retreated > 0
        assert careful.defender_wins < base.defender_wins
        assert careful.attacker_ipc_lost < base.attacker_ipc_lost

    def test_amphibious_assault_never_retreats(self) -> None:
        """IAAPA Amphibious Assaults: "It is a fight to the death"."""
        doc = land({"INF": 2}, {"INF": 2}, amphibious=1, retreat={"after_round": 1})
        assert odds(doc).retreated == 0


class TestInput:
    @pytest.mark.parametrize(
        ("extra", "field"),
        [
            ({"retreat": {"after_round": 0}}, "retreat.after_round"),
            ({"retreat": {"when": 1}}, "retreat.when"),
            ({"retreat": {"after_round": 1, "attackers_at_most": 2}}, "retreat"),
            ({"rounds": [{"attacker": {"INF": [1]}}]}, "rounds"),
        ],
    )
    def test_bad_input_names_the_field(self, extra: dict[str, Any], field: str) -> None:
        with pytest.raises(BattleInputError) as raised:
            odds(land({"INF": 1}, {"INF": 1}, **extra))
        assert raised.value.field == field

    def test_cli(self, tmp_path: Any) -> None:
        from dice_server.cli import main

        path = tmp_path / "b.json"
        path.write_text(json.dumps(land({"INF": 1}, {"INF": 1})))
        runner = CliRunner()
        done = runner.invoke(main, ["battle", "odds", str(path), "--json"])
        assert done.exit_code == 0, done.output
        assert json.loads(done.stdout)["draw"] == pytest.approx(0.125)
        text = runner.invoke(main, ["battle", "odds", str(path)])
        assert "attacker wins" in text.stdout and "25.00%" in text.stdout
        path.write_text(json.dumps(land({"INF": 1}, {"XYZ": 1})))
        bad = runner.invoke(main, ["battle", "odds", str(path)])
        assert bad.exit_code == 2 and "defender" in bad.stderr

    def test_render(self) -> None:
        text = render_odds(table(land({"INF": 2}, {"INF": 1})))
        assert "likeliest attacker survivors" in text
