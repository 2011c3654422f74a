"""The Monte Carlo of a battle through the engine's own rounds (adjudicator.odds.simulate),
and scripts/check_odds, which holds the exact odds to it."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import math
import random
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from adjudicator.battle import BattleInputError, resolve_json
from adjudicator.battle.setup import RoundInput
from adjudicator.odds import Ending, odds
from adjudicator.odds.sample import Sample, compare
from adjudicator.odds.simulate import EDGES, MonteCarlo, face, hit_below
from adjudicator.units import UnitType

U = UnitType
SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "check_odds"


def land(attacker: dict[str, int], defender: dict[str, int], **extra: Any) -> dict[str, Any]:
    return {"version": 1, "kind": "land", "attacker": attacker, "defender": defender, **extra}


def sea(attacker: dict[str, int], defender: dict[str, int], **extra: Any) -> dict[str, Any]:
    return {"version": 1, "kind": "sea", "attacker": attacker, "defender": defender, **extra}


def within(seen: float, p: float, runs: int, limit: float = 4.5) -> bool:
    """``seen`` is within ``limit`` standard errors of a frequency ``p`` over ``runs``."""
    return abs(seen - p) <= limit * math.sqrt(p * (1 - p) / runs)


def resolve_document(
    document: Mapping[str, object], rounds: Sequence[RoundInput]
) -> dict[str, object]:
    """The battle with the rounds thrown, as ``pbem battle resolve`` reads it (without the
    odds' own ``retreat`` policy and ``low_luck``)."""

    def dice(by_type: Mapping[UnitType, tuple[int, ...]]) -> dict[str, list[int]]:
        return {unit.value: list(d) for unit, d in by_type.items()}

    body = {k: v for k, v in document.items() if k not in ("retreat", "low_luck")}
    body["rounds"] = [
        {
            "aa": list(r.aa),
            "bombard": list(r.bombard),
            "subs": list(r.subs),
            "attacker": dice(r.attacker),
            "defender": dice(r.defender),
            "retreat": int(r.retreat),
        }
        for r in rounds
    ]
    return body


class TestDice:
    def test_each_face_is_a_sixth(self) -> None:
        assert [face(k / 6 + 1e-9) for k in range(6)] == [1, 2, 3, 4, 5, 6]
        assert face(0.0) == 1 and face(math.nextafter(1.0, 0.0)) == 6
        assert [face(math.nextafter(edge, 0.0)) for edge in EDGES] == [1, 2, 3, 4, 5]

    def test_a_hit_is_a_die_at_or_under_the_value(self) -> None:
        """The numbers counted as hits are those whose face the engine counts as a hit, at
        every edge."""
        for value in range(0, 8):
            cut = hit_below(value)
            for edge in (0.0, *EDGES):
                for number in (edge, math.nextafter(edge, 1.0), math.nextafter(edge, 0.0)):
                    if 0.0 <= number < 1.0:
                        assert (number < cut) == (face(number) <= value), (value, number)


class TestClosedForms:
    def test_one_infantry_against_one(self) -> None:
        """1 INF v 1 INF: wins 1/4, loses 5/8, both die 1/8, 9/4 rounds on average."""
        runs = 40_000
        sample = MonteCarlo(land({"INF": 1}, {"INF": 1})).sample(runs, random.Random(1))
        wins, losses, draws = (
            sample.share(e) for e in (Ending.ATTACKER_WINS, Ending.DEFENDER_WINS, Ending.DRAW)
        )
        assert sample.runs == runs and sum(sample.endings.values()) == runs
        assert within(wins, 1 / 4, runs)
        assert within(losses, 5 / 8, runs)
        assert within(draws, 1 / 8, runs)
        # Rounds are geometric with p = 4/9: variance (5/9) / (4/9)^2.
        assert abs(sample.mean_rounds - 9 / 4) <= 4.5 * math.sqrt((5 / 9) / (4 / 9) ** 2 / runs)
        assert sample.attacker_ipc_lost == 3 * (losses + draws)

    def test_walk_in_takes_no_round(self) -> None:
        played = MonteCarlo(land({"INF": 1}, {"IC": 1})).play(random.Random(1))
        assert (played.ending, played.rounds, played.captures) == (Ending.ATTACKER_WINS, 0, True)

    def test_planes_only_win_does_not_capture(self) -> None:
        sample = MonteCarlo(land({"FTR": 2}, {"INF": 1})).sample(2_000, random.Random(2))
        assert sample.share(Ending.ATTACKER_WINS) > 0.5 and sample.captured == 0


class TestRetreat:
    def test_after_round_stops_the_battle_there(self) -> None:
        """``after_round: 2``: a battle still going after round 2 retreats then, ``retreat``
        set on that round, and none lasts longer."""
        player = MonteCarlo(land({"INF": 3}, {"INF": 3}, retreat={"after_round": 2}))
        rng = random.Random(3)
        seen = set()
        for _ in range(300):
            played, rounds = player.recorded(rng)
            seen.add(played.ending)
            assert played.rounds == len(rounds) <= 2
            retreated = played.ending is Ending.RETREATED
            assert [r.retreat for r in rounds] == [False] * (len(rounds) - 1) + [retreated]
            if retreated:
                assert played.rounds == 2 and played.attacker and played.defender
        assert Ending.RETREATED in seen and Ending.DEFENDER_WINS in seen
        assert max(player.sample(2_000, rng).rounds) == 2

    def test_attackers_at_most_retreats_after_the_first_round_at_the_limit(self) -> None:
        """``attackers_at_most: 2``: the attacker retreats after the first round that leaves
        him 2 units or fewer, never before (``battle resolve`` agrees)."""
        doc = land({"INF": 3, "ARM": 1}, {"INF": 3}, retreat={"attackers_at_most": 2})
        player = MonteCarlo(doc)
        rng = random.Random(4)
        retreats = 0
        for _ in range(300):
            played, rounds = player.recorded(rng)
            out: dict[str, Any] = resolve_json(resolve_document(doc, rounds))
            retreated = played.ending is Ending.RETREATED
            assert (out["outcome"] == "attacker-retreats") == retreated
            left = 4
            for result, rnd in zip(out["rounds"][:-1], rounds, strict=False):
                left -= sum(result["attacker_casualties"].values())
                assert left > 2 and not rnd.retreat
            assert rounds[-1].retreat == retreated
            if retreated:
                retreats += 1
                assert 0 < played.attacker.total <= 2
        assert retreats > 50

    def test_an_amphibious_assault_never_retreats(self) -> None:
        """IAAPA Amphibious Assaults: "It is a fight to the death": the policy is ignored."""
        doc = land({"INF": 2, "BB": 1}, {"INF": 2}, amphibious=1, retreat={"attackers_at_most": 1})
        player = MonteCarlo(doc)
        rng = random.Random(5)
        for _ in range(100):
            played, rounds = player.recorded(rng)
            assert played.ending is not Ending.RETREATED
            assert not any(r.retreat for r in rounds)
            assert len(rounds[0].bombard) == 1 and all(not r.bombard for r in rounds[1:])


class TestRoundsAsThrown:
    def test_aa_shots_then_the_survivors_dice(self) -> None:
        """The AA gun fires once per aircraft before round 1; a downed aircraft throws no
        main die."""
        player = MonteCarlo(land({"INF": 1, "FTR": 3}, {"INF": 3, "AA": 1}))
        rng = random.Random(6)
        for _ in range(200):
            _, rounds = player.recorded(rng)
            first = rounds[0]
            assert len(first.aa) == 3 and all(not r.aa for r in rounds[1:])
            assert len(first.attacker.get(U.FTR, ())) == 3 - first.aa.count(1)

    def test_subs_strike_first_and_skip_the_main_roll(self) -> None:
        player = MonteCarlo(sea({"SUB": 2, "BB": 1}, {"TRN": 1, "SUB": 1, "AC": 1, "FTR": 1}))
        rng = random.Random(7)
        for _ in range(200):
            _, rounds = player.recorded(rng)
            assert len(rounds[0].subs) == 2 and U.SUB not in rounds[0].attacker

    def test_cache_and_engine_agree_run_by_run(self) -> None:
        """The cached play gives the battle every round through the engine gives, from the
        same dice (the module's note), over battles using every part of a round."""
        docs = [
            land({"INF": 2, "ARM": 1, "FTR": 2, "BMB": 1}, {"INF": 3, "FTR": 1, "AA": 1}),
            land({"INF": 2, "ARM": 1, "BB": 2}, {"INF": 3, "ARM": 1}, amphibious=1),
            sea({"SUB": 2, "FTR": 1, "BB": 1}, {"TRN": 2, "SUB": 1, "AC": 1, "FTR": 1}),
            sea({"FTR": 2, "BMB": 1}, {"SUB": 2, "TRN": 1}, no_retreat=1),
            land(
                {"INF": 3, "ARM": 2, "BMB": 1},
                {"INF": 4, "FTR": 1},
                technologies={"attacker": ["HEAVY_BOMBERS"], "defender": ["JET_POWER"]},
                order_of_loss={"attacker": ["ARM", "BMB", "INF"]},
                retreat={"attackers_at_most": 2},
            ),
            sea(
                {"SUB": 3},
                {"TRN": 2, "SUB": 1},
                technologies={"attacker": ["SUPER_SUBS"]},
                retreat={"after_round": 2},
            ),
            land({"INF": 2}, {"INF": 2}, retreat={"after_round": 3}),
        ]
        for doc in docs:
            cached, plain = MonteCarlo(doc), MonteCarlo(doc)
            fast, slow = random.Random(8), random.Random(8)
            for _ in range(400):
                assert cached.play(fast) == plain.recorded(slow)[0], doc


class TestSample:
    def test_agrees_with_the_exact_odds(self) -> None:
        doc = sea({"SUB": 2, "FTR": 1}, {"TRN": 1, "AC": 1, "FTR": 1})
        sample = MonteCarlo(doc).sample(20_000, random.Random(9))
        assert all(abs(found.z) <= 4.5 for found in compare(odds(doc), sample))

    def test_parts_add_up(self) -> None:
        doc = land({"INF": 2}, {"INF": 2})
        one = MonteCarlo(doc).sample(300, random.Random(10))
        two = MonteCarlo(doc).sample(200, random.Random(11))
        both = one + two
        assert both.runs == 500
        assert both.endings[Ending.DEFENDER_WINS] == (
            one.endings[Ending.DEFENDER_WINS] + two.endings[Ending.DEFENDER_WINS]
        )
        assert both.mean_rounds == pytest.approx(
            (300 * one.mean_rounds + 200 * two.mean_rounds) / 500
        )

    def test_an_impossible_ending_seen_is_infinitely_off(self) -> None:
        exact = odds(land({"ARM": 1}, {"INF": 1}))
        sample = Sample(10, {Ending.RETREATED: 1, Ending.ATTACKER_WINS: 9}, 9, {1: 10}, 0, 0)
        found = {a.figure: a for a in compare(exact, sample)}
        assert found["retreated"].z == math.inf
        assert found["stalemate"].z == 0.0

    def test_a_sure_figure_allows_float_noise(self) -> None:
        """A battle that always ends in round 1: matched by floats a hair off, and
        infinitely off when a sample lasts longer."""
        found = odds(land({"ARM": 1}, {"INF": 1}))
        once = Sample(10, {Ending.ATTACKER_WINS: 10}, 10, {1: 10}, 0, 0)
        twice = Sample(10, {Ending.ATTACKER_WINS: 10}, 10, {1: 9, 2: 1}, 0, 0)

        def z(rounds: tuple[tuple[int, float], ...], sample: Sample) -> float:
            figures = {a.figure: a for a in compare(replace(found, rounds=rounds), sample)}
            return figures["rounds"].z

        assert abs(z(((1, 1 - 1e-15),), once)) < 1e-6
        assert z(((1, 1.0),), once) == 0.0
        assert z(((1, 1.0),), twice) == math.inf

    def test_low_luck_is_refused(self) -> None:
        with pytest.raises(BattleInputError) as raised:
            MonteCarlo(land({"INF": 1}, {"INF": 1}, low_luck=True))
        assert raised.value.field == "low_luck"


ENGINE_OUTCOME = {
    Ending.ATTACKER_WINS: "attacker-wins",
    Ending.DEFENDER_WINS: "defender-wins",
    Ending.DRAW: "both-destroyed",
    Ending.RETREATED: "attacker-retreats",
    Ending.STALEMATE: "continues",
}
"""What ``battle resolve`` says of a battle that ended so (a stalemate goes on for ever)."""


def _random_battle(rng: random.Random) -> dict[str, Any]:
    if rng.random() < 0.5:
        attacker = {"INF": rng.randint(1, 3), "ARM": rng.randint(0, 2), "FTR": rng.randint(0, 2)}
        defender = {"INF": rng.randint(1, 3), "FTR": rng.randint(0, 1), "AA": rng.randint(0, 1)}
        return land(attacker, defender)
    attacker = {"SUB": rng.randint(1, 2), "BB": rng.randint(0, 1), "FTR": rng.randint(0, 1)}
    defender = {"TRN": rng.randint(0, 2), "SUB": rng.randint(0, 1), "AC": 1, "FTR": 1}
    return sea(attacker, defender)


RUNS = 20_000
CHECKED_BY_RESOLVE_JSON = 100
Z_LIMIT = 4.5
"""Six figures a battle, five battles: a correct calculator passes 4.5 standard errors on all
thirty but with chance 2e-4 (and the seed is fixed)."""


def test_monte_carlo_agrees_with_the_exact_odds() -> None:
    """Each battle played RUNS times round by round through the engine's ``play_round``;
    the first ones also with no round cache and through ``resolve_json`` (which must agree);
    each ending's frequency and the mean rounds lie within Z_LIMIT standard errors of the
    exact odds."""
    rng = random.Random(18)
    for _ in range(5):
        doc = _random_battle(rng)
        player = MonteCarlo(doc)
        for _ in range(CHECKED_BY_RESOLVE_JSON):
            played, rounds = player.recorded(rng)
            out = resolve_json(resolve_document(doc, rounds))
            assert out["outcome"] == ENGINE_OUTCOME[played.ending], (doc, rounds)
            assert out["survivors"] == {
                "attacker": played.attacker.to_json(),
                "defender": played.defender.to_json(),
            }
        sample = player.sample(RUNS, rng)
        for found in compare(odds(doc), sample):
            assert abs(found.z) <= Z_LIMIT, (doc, found)


# scripts/check_odds


@pytest.fixture(scope="module")
def check_odds() -> Iterator[ModuleType]:
    """The script as a module (registered, so that its worker processes can find it)."""
    loader = importlib.machinery.SourceFileLoader("check_odds", str(SCRIPT))
    spec = importlib.util.spec_from_loader("check_odds", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_odds"] = module
    loader.exec_module(module)
    yield module
    del sys.modules["check_odds"]


def run(script: ModuleType, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any]:
    code = script.main(["--runs", "3000", "--battles", "3", "--json", *args])
    return code, json.loads(capsys.readouterr().out)


class TestCheckOdds:
    def test_figures(self, check_odds: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
        code, found = run(check_odds, capsys, "--processes", "1")
        assert code == 0 and found["passed"] and found["runs"] == 3000
        assert len(found["battles"]) == 3
        for battle in found["battles"]:
            figures = {f["figure"]: f for f in battle["figures"]}
            endings = [figures[e.value] for e in Ending]
            assert sum(f["simulated"] for f in endings) == pytest.approx(1.0)
            assert sum(f["exact"] for f in endings) == pytest.approx(1.0, abs=1e-9)
            exact = odds(battle["battle"])
            assert figures["attacker_wins"]["exact"] == pytest.approx(exact.attacker_wins)
            assert battle["largest_z"] == max(abs(f["z"]) for f in battle["figures"])
            assert battle["largest_z"] <= check_odds.Z_LIMIT
        assert found["largest_z"] == max(b["largest_z"] for b in found["battles"])

    def test_processes_share_the_runs_alike(
        self, check_odds: ModuleType, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """The chunks' seeds do not depend on the number of processes."""
        _, alone = run(check_odds, capsys, "--processes", "1")
        _, shared = run(check_odds, capsys, "--processes", "2")
        assert [b["figures"] for b in alone["battles"]] == [b["figures"] for b in shared["battles"]]

    def test_a_disagreement_exits_1(
        self,
        check_odds: ModuleType,
        capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        monkeypatch.setattr(check_odds, "Z_LIMIT", 0.0)
        code, found = run(check_odds, capsys, "--processes", "1")
        assert code == 1 and not found["passed"]

    def test_text(self, check_odds: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
        assert check_odds.main(["--runs", "500", "--battles", "2", "--processes", "1"]) == 0
        text = capsys.readouterr().out
        assert "attacker wins" in text and "largest |z|" in text and "runs/s" in text

    def test_battles_cover_the_rules(self, check_odds: ModuleType) -> None:
        """Twenty Classic battles hold AA guns facing aircraft, amphibious assaults with
        support shots, subs, carriers, fighters and transports at sea, technologies, declared
        orders of loss and both retreat policies."""
        battles = [doc for doc, _ in check_odds.classic_battles(random.Random(18), 20)]
        assert any(
            b["kind"] == "land" and "AA" in b["defender"] and "FTR" in b["attacker"]
            for b in battles
        )
        assert any(b.get("amphibious") and "BB" in b["attacker"] for b in battles)
        at_sea = [b for b in battles if b["kind"] == "sea"]
        for unit in ("SUB", "AC", "FTR", "TRN"):
            assert any(unit in b["attacker"] or unit in b["defender"] for b in at_sea), unit
        assert any("technologies" in b for b in battles)
        assert any("order_of_loss" in b for b in battles)
        free = [b for b in battles if not (b.get("amphibious") or b.get("no_retreat"))]
        policies = {key for b in free for key in b.get("retreat", {})}
        assert policies == {"attackers_at_most", "after_round"}
        assert any("retreat" in b for b in battles if b not in free)
        for doc in battles:
            MonteCarlo(doc)  # every one is a battle the odds read

    def test_big_world_battles(
        self, check_odds: ModuleType, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """``--ruleset big_world_1942``: the exact odds by Big World's rules against its own
        Monte Carlo (the engine's rounds with dice thrown), agreeing within the limit."""
        code, found = run(check_odds, capsys, "--processes", "1", "--ruleset", "big_world_1942")
        assert code == 0 and found["passed"] and found["ruleset"] == "big_world_1942"
        for battle in found["battles"]:
            assert battle["battle"]["ruleset"] == "big_world_1942"
            figures = {f["figure"]: f for f in battle["figures"]}
            assert sum(figures[e.value]["simulated"] for e in Ending) == pytest.approx(1.0)
            assert battle["largest_z"] <= check_odds.Z_LIMIT

    def test_big_world_battles_cover_its_rules(self, check_odds: ModuleType) -> None:
        """Twenty Big World battles hold artillery, AA guns facing aircraft, amphibious
        assaults with bombardment (destroyers too, with Destroyer Bombard), submarines with
        and without destroyers facing them, two-hit battleships, heavy bombers, declared
        orders of loss and both retreat policies."""
        battles = [doc for doc, _ in check_odds.big_world_battles(random.Random(18), 20)]
        assert any("ART" in b["attacker"] for b in battles)
        assert any("AA" in b["defender"] and "FTR" in b["attacker"] for b in battles)
        assert any(b.get("amphibious") and "BB" in b["attacker"] for b in battles)
        assert any(b.get("amphibious") and "DD" in b["attacker"] for b in battles)
        subs = [b for b in battles if "SUB" in b["attacker"] or "SUB" in b["defender"]]
        assert any("DD" in b["defender"] for b in subs if "SUB" in b["attacker"])
        assert any("DD" not in b["defender"] for b in subs if "SUB" in b["attacker"])
        assert any("BB" in b["attacker"] and b["kind"] == "sea" for b in battles)
        techs = [t for b in battles for side in b.get("technologies", {}).values() for t in side]
        assert "Heavy Bombers" in techs and "Destroyer Bombard" in techs
        assert any("order_of_loss" in b for b in battles)
        free = [b for b in battles if not (b.get("amphibious") or b.get("no_retreat"))]
        assert {key for b in free for key in b.get("retreat", {})} == {
            "attackers_at_most",
            "after_round",
        }
