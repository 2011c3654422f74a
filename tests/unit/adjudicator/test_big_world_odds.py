"""The exact odds of a Big World 1942 battle (``adjudicator.bigworld.odds``, and
``adjudicator.odds.odds_json`` for a document saying ``"ruleset": "big_world_1942"``).

Three kinds of check: closed forms worked by hand; the float pass (``big_world_odds``)
against the Fraction pass (``big_world_exact_odds``); and an independent solver written here
from the rule text alone (TripleA rule book, "Battle"), which enumerates every face of every
die of a round and follows the battle to its end with Fractions, never calling the
product's combat functions.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from adjudicator.battle.errors import BattleInputError
from adjudicator.bigworld.odds import big_world_exact_odds, big_world_odds
from adjudicator.bigworld.units import Army
from adjudicator.odds import odds_json
from adjudicator.odds.report import Odds
from tests.big_world import big_world_document as bw

# --------------------------------------------------------------------------------------
# Closed forms
# --------------------------------------------------------------------------------------


class TestClosedForms:
    def test_one_infantry_against_one(self) -> None:
        """Attacker hits 1/6, defender 2/6; a round decides with 1 - (5/6)(4/6) = 4/9:
        wins (1/6)(4/6) / (4/9) = 1/4, loses (5/6)(2/6) / (4/9) = 5/8, both die
        (1/6)(2/6) / (4/9) = 1/8."""
        exact = big_world_exact_odds(bw("land", {"INF": 1}, {"INF": 1}))
        assert (exact.attacker_wins, exact.defender_wins, exact.draw) == (
            Fraction(1, 4),
            Fraction(5, 8),
            Fraction(1, 8),
        )
        assert exact.captures == Fraction(1, 4)

    def test_one_artillery_against_one_infantry_costs_4_a_loss(self) -> None:
        """ART attacks at 2, INF defends at 2: each side hits 1/3; a round decides with
        1 - (2/3)^2 = 5/9: wins (1/3)(2/3) / (5/9) = 2/5, loses 2/5, both die 1/5. The
        artillery (4 PUs in Big World) is lost with 3/5: 12/5; the infantry (3) also with
        3/5: 9/5."""
        exact = big_world_exact_odds(bw("land", {"ART": 1}, {"INF": 1}))
        assert (exact.attacker_wins, exact.defender_wins, exact.draw) == (
            Fraction(2, 5),
            Fraction(2, 5),
            Fraction(1, 5),
        )
        assert exact.attacker_ipc_lost == Fraction(12, 5)
        assert exact.defender_ipc_lost == Fraction(9, 5)

    def test_a_supported_infantry_attacks_at_2(self) -> None:
        """1 INF + 1 ART v 1 INF: the INF paired with the ART attacks at 2, so the attacker
        throws two dice at 2 and scores with 1 - (4/6)^2 = 5/9; the defender with 1/3 (his
        hit takes the attacker's INF, lost first by default). Round 1:
        - attacker hits, defender misses: (5/9)(2/3) = 10/27, attacker wins;
        - both hit: (5/9)(1/3) = 5/27, attacker wins with his ART;
        - only the defender hits: (4/9)(1/3) = 4/27, then 1 ART v 1 INF (2/5, 2/5, 1/5);
        - both miss: 8/27, the round again.
        Wins (15/27 + (4/27)(2/5)) / (19/27) = 83/95; losses (4/27)(2/5) / (19/27) = 8/95;
        both destroyed (4/27)(1/5) / (19/27) = 4/95."""
        exact = big_world_exact_odds(bw("land", {"INF": 1, "ART": 1}, {"INF": 1}))
        assert (exact.attacker_wins, exact.defender_wins, exact.draw) == (
            Fraction(83, 95),
            Fraction(8, 95),
            Fraction(4, 95),
        )

    def test_a_fighter_against_an_aa_gun_alone(self) -> None:
        """The AA gun fires one die at 1 before round 1: the fighter is shot down with 1/6;
        otherwise nothing defends and it wins (planes never capture)."""
        exact = big_world_exact_odds(bw("land", {"FTR": 1}, {"AA": 1}))
        assert exact.attacker_wins == Fraction(5, 6)
        assert exact.captures == 0
        assert exact.attacker_wins + exact.defender_wins + exact.draw == 1


# --------------------------------------------------------------------------------------
# Floats against Fractions
# --------------------------------------------------------------------------------------

SMALL_BATTLES = {
    "artillery": bw("land", {"INF": 2, "ART": 1}, {"INF": 2}),
    "subs v destroyer": bw("sea", {"SUB": 2}, {"DD": 1, "TRN": 1}),
    "subs, no destroyer": bw("sea", {"SUB": 2}, {"CA": 1, "TRN": 1}),
    "two-hit battleship": bw("sea", {"BB": 1}, {"SUB": 2}),
    "aa gun": bw("land", {"FTR": 2, "INF": 1}, {"INF": 2, "AA": 1}),
    "bombardment": bw("land", {"INF": 2, "BB": 1}, {"INF": 2}, amphibious=1),
    "heavy bombers": bw(
        "land", {"BMB": 2}, {"INF": 3}, technologies={"attacker": ["Heavy Bombers"]}
    ),
    "retreat at 1 left": bw(
        "land", {"INF": 3, "ARM": 1}, {"INF": 3}, retreat={"attackers_at_most": 1}
    ),
    "retreat after round 2": bw(
        "land", {"ARM": 2}, {"INF": 2, "ART": 1}, retreat={"after_round": 2}
    ),
    "jets and super subs": bw(
        "sea",
        {"FTR": 2, "SUB": 1},
        {"AC": 1, "FTR": 1},
        technologies={"defender": ["Jet Power"], "attacker": ["Super Subs"]},
    ),
}


def survivors(found: Iterable[tuple[Army, Any]]) -> dict[tuple[tuple[str, int], ...], Any]:
    """Survivors by units (damage aside), their chances added."""
    out: dict[tuple[tuple[str, int], ...], Any] = defaultdict(int)
    for army, p in found:
        out[tuple(army.to_json().items())] += p
    return dict(out)


@pytest.mark.parametrize("doc", SMALL_BATTLES.values(), ids=SMALL_BATTLES.keys())
def test_the_float_odds_are_the_fraction_odds(doc: dict[str, Any]) -> None:
    fast = big_world_odds(doc)
    exact = big_world_exact_odds(doc)
    for name in (
        "attacker_wins",
        "defender_wins",
        "draw",
        "retreated",
        "stalemate",
        "captures",
        "attacker_ipc_lost",
        "defender_ipc_lost",
    ):
        assert getattr(fast, name) == pytest.approx(float(getattr(exact, name)), abs=1e-9), name
    for name in ("attacker_survivors", "defender_survivors", "retreating"):
        want = survivors(getattr(exact, name))
        got = survivors(getattr(fast, name))
        assert set(got) == set(want), name
        for units, p in want.items():
            assert got[units] == pytest.approx(float(p), abs=1e-9), (name, units)
    total = exact.attacker_wins + exact.defender_wins + exact.draw + exact.retreated
    assert total + exact.stalemate == 1


def test_the_retreat_policies_retreat() -> None:
    """Both policies end some battles in a retreat; the amphibious one never does."""
    assert big_world_exact_odds(SMALL_BATTLES["retreat at 1 left"]).retreated > 0
    assert big_world_exact_odds(SMALL_BATTLES["retreat after round 2"]).retreated > 0
    doc = {**SMALL_BATTLES["bombardment"], "retreat": {"after_round": 1}}
    assert big_world_exact_odds(doc).retreated == 0


def test_retreat_after_round_1_is_round_1() -> None:
    """1 INF v 1 INF retreating after round 1: round 1 ends it with 4/9 (win 1/6 x 4/6,
    loss 5/6 x 2/6, both 1/6 x 2/6); the rest, 5/9, retreats."""
    exact = big_world_exact_odds(bw("land", {"INF": 1}, {"INF": 1}, retreat={"after_round": 1}))
    assert exact.attacker_wins == Fraction(4, 36)
    assert exact.defender_wins == Fraction(10, 36)
    assert exact.draw == Fraction(2, 36)
    assert exact.retreated == Fraction(5, 9)


# --------------------------------------------------------------------------------------
# An independent solver from the rule text
# --------------------------------------------------------------------------------------

State = tuple[Any, ...]
Ending = tuple[str, Counter[str]]


def solve(
    start: Mapping[State, Fraction],
    one_round: Callable[[State], Mapping[State, Fraction]],
    ended: Callable[[State], tuple[str, tuple[str, ...]] | None],
) -> dict[tuple[str, tuple[str, ...]], Fraction]:
    """Where a battle ends from the distribution ``start``: a round from a state goes to
    other states with the chances ``one_round`` gives; a round that changes nothing is
    rolled again (its chance ``s`` folded as ``1 / (1 - s)``). ``ended`` names the end of
    a state, as (who won, the winner's units sorted), or None while it goes on."""
    memo: dict[State, dict[tuple[str, tuple[str, ...]], Fraction]] = {}

    def value(state: State) -> dict[tuple[str, tuple[str, ...]], Fraction]:
        end = ended(state)
        if end is not None:
            return {end: Fraction(1)}
        if state not in memo:
            nexts = dict(one_round(state))
            stay = nexts.pop(state, Fraction(0))
            out: dict[tuple[str, tuple[str, ...]], Fraction] = defaultdict(Fraction)
            for nxt, p in nexts.items():
                for end2, q in value(nxt).items():
                    out[end2] += p * q / (1 - stay)
            memo[state] = dict(out)
        return memo[state]

    total: dict[tuple[str, tuple[str, ...]], Fraction] = defaultdict(Fraction)
    for state, p in start.items():
        for end, q in value(state).items():
            total[end] += p * q
    return dict(total)


def faces(n: int) -> Iterable[tuple[tuple[int, ...], Fraction]]:
    """Every throw of ``n`` dice, each with its chance."""
    for dice in product(range(1, 7), repeat=n):
        yield dice, Fraction(1, 6**n)


# Numbers from big_world_1942.xml (the rule book's "infantry have 1 attack and 2 defense";
# "the battleship may roll a single die at 4"; a tank defending "at 3"; "a single die at 1,
# for each attacking aircraft" for the AA gun).
ATTACK = {"INF": 1, "ART": 2, "ARM": 3, "FTR": 3, "BB": 4, "SUB": 2}
DEFENCE = {"INF": 2, "ART": 2, "ARM": 3, "SUB": 2, "DD": 2, "TRN": 1}


def land_round(state: State) -> dict[State, Fraction]:
    """A land round: everyone fires at once; each infantry "paired with Artillery units on
    a 1-to-1 basis" attacks 1 higher; a side's casualties are its first units (each side's
    tuple is in its order of loss)."""
    attackers, defenders = state
    paired = min(attackers.count("INF"), attackers.count("ART"))
    values = []
    for unit in attackers:
        if unit == "INF" and paired:
            values.append(ATTACK["INF"] + 1)
            paired -= 1
        else:
            values.append(ATTACK[unit])
    values += [DEFENCE[unit] for unit in defenders]
    out: dict[State, Fraction] = defaultdict(Fraction)
    for dice, p in faces(len(values)):
        hit = [die <= value for die, value in zip(dice, values, strict=True)]
        on_defender = sum(hit[: len(attackers)])
        on_attacker = sum(hit[len(attackers) :])
        out[(attackers[on_attacker:], defenders[on_defender:])] += p
    return out


def by_survivors(state: State) -> tuple[str, tuple[str, ...]] | None:
    """The end of a state whose sides are tuples of unit names."""
    attackers, defenders = state
    if not attackers and not defenders:
        return ("draw", ())
    if not defenders:
        return ("attacker", tuple(sorted(attackers)))
    if not attackers:
        return ("defender", tuple(sorted(defenders)))
    return None


def product_ends(odds: Odds[Fraction]) -> dict[tuple[str, tuple[str, ...]], Fraction]:
    """The product's odds in the solver's terms (damage aside)."""
    out: dict[tuple[str, tuple[str, ...]], Fraction] = defaultdict(Fraction)
    for side, found in (
        ("attacker", odds.attacker_survivors),
        ("defender", odds.defender_survivors),
    ):
        for army, p in found:
            units = tuple(sorted(u for u, n in army.to_json().items() for _ in range(n)))
            out[(side, units)] += p
    if odds.draw:
        out[("draw", ())] += odds.draw
    return dict(out)


class TestAgainstAnIndependentSolver:
    def test_infantry_and_artillery_against_infantry_and_armour(self) -> None:
        """1 INF + 1 ART v 1 INF + 1 ARM, both sides losing infantry first: the supported
        INF attacks at 2 while the ART lives, at 1 after; the ARM defends at 3."""
        start = {(("INF", "ART"), ("INF", "ARM")): Fraction(1)}
        want = solve(start, land_round, by_survivors)
        doc = bw(
            "land",
            {"INF": 1, "ART": 1},
            {"INF": 1, "ARM": 1},
            order_of_loss={"attacker": ["INF", "ART"], "defender": ["INF", "ARM"]},
        )
        assert product_ends(big_world_exact_odds(doc)) == want
        assert sum(want.values()) == 1

    def test_artillery_first_leaves_the_infantry_at_1(self) -> None:
        """The same battle with the attacker losing his ART first: the INF left attacks
        at 1."""
        start = {(("ART", "INF"), ("INF", "ARM")): Fraction(1)}
        want = solve(start, land_round, by_survivors)
        doc = bw(
            "land",
            {"INF": 1, "ART": 1},
            {"INF": 1, "ARM": 1},
            order_of_loss={"attacker": ["ART", "INF"], "defender": ["INF", "ARM"]},
        )
        assert product_ends(big_world_exact_odds(doc)) == want

    def test_an_aa_gun_before_round_1(self) -> None:
        """1 FTR + 1 INF v 1 INF + 1 AA: the AA gun's one die at 1 downs the fighter with
        1/6 before round 1 ("with no chance to fire back"); then a land battle (the
        attacker losing his INF first)."""
        start = {
            (("INF", "FTR"), ("INF",)): Fraction(5, 6),
            (("INF",), ("INF",)): Fraction(1, 6),
        }
        want = solve(start, land_round, by_survivors)
        doc = bw(
            "land",
            {"FTR": 1, "INF": 1},
            {"INF": 1, "AA": 1},
            order_of_loss={"attacker": ["INF", "FTR"]},
        )
        assert product_ends(big_world_exact_odds(doc)) == want

    def test_a_bombardment_before_round_1(self) -> None:
        """1 INF landed, 1 BB bombarding v 2 INF: the BB's one die at 4 kills an INF with
        4/6 before round 1 ("The bombardment casualty does not get to return fire"), then
        1 INF v 1 or 2 INF with no retreat (none asked anyway)."""
        start = {
            (("INF",), ("INF",)): Fraction(4, 6),
            (("INF",), ("INF", "INF")): Fraction(2, 6),
        }
        want = solve(start, land_round, by_survivors)
        doc = bw("land", {"INF": 1, "BB": 1}, {"INF": 2}, amphibious=1)
        assert product_ends(big_world_exact_odds(doc)) == want

    def test_a_battleship_against_two_subs(self) -> None:
        """1 BB v 2 SUB at sea, no destroyer. Segment 2: the defending subs fire first at 2;
        "If the attacker has no destroyers present, the casualties are removed
        immediately": a battleship hit twice (it takes two hits; "The first hit only
        damages them") is sunk before it fires. Segment 3: the battleship, afloat, fires
        one die at 4 and a hit sinks a sub. The state is (battleship hits left, subs)."""

        def sea_round(state: State) -> dict[State, Fraction]:
            hp, subs = state
            out: dict[State, Fraction] = defaultdict(Fraction)
            for dice, p in faces(subs + 1):
                hp_left = max(0, hp - sum(die <= DEFENCE["SUB"] for die in dice[:subs]))
                if hp_left == 0:
                    out[(0, subs)] += p
                else:
                    out[(hp_left, subs - (dice[subs] <= ATTACK["BB"]))] += p
            return out

        def ended(state: State) -> tuple[str, tuple[str, ...]] | None:
            hp, subs = state
            if hp and not subs:
                return ("attacker", ("BB",))
            if not hp:
                return ("defender", ("SUB",) * subs) if subs else ("draw", ())
            return None

        want = solve({(2, 2): Fraction(1)}, sea_round, ended)
        assert ("draw", ()) not in want  # a sunk battleship never fires
        assert product_ends(big_world_exact_odds(bw("sea", {"BB": 1}, {"SUB": 2}))) == want

    def test_a_sub_against_a_destroyer_and_a_transport(self) -> None:
        """1 SUB v 1 TRN + 1 DD (the defender losing the TRN first): a destroyer is present,
        so the sub's casualty fires back; every unit fires at once: SUB at 2, TRN at 1,
        DD at 2."""

        def sea_round(state: State) -> dict[State, Fraction]:
            attackers, defenders = state
            out: dict[State, Fraction] = defaultdict(Fraction)
            for dice, p in faces(1 + len(defenders)):
                sub_hit = dice[0] <= ATTACK["SUB"]
                back = any(
                    die <= DEFENCE[unit] for die, unit in zip(dice[1:], defenders, strict=True)
                )
                out[((), defenders[sub_hit:]) if back else (attackers, defenders[sub_hit:])] += p
            return out

        start = {(("SUB",), ("TRN", "DD")): Fraction(1)}
        want = solve(start, sea_round, by_survivors)
        doc = bw("sea", {"SUB": 1}, {"TRN": 1, "DD": 1}, order_of_loss={"defender": ["TRN", "DD"]})
        assert product_ends(big_world_exact_odds(doc)) == want

    def test_a_sub_against_a_sub(self) -> None:
        """1 SUB v 1 SUB, no destroyer. Segment 1: "the non-submarine casualties are
        removed immediately", so a defending sub hit by the attacking sub is not removed
        and fires in segment 2 with the other. Both fire at 2, as at once: a round decides
        with 1 - (2/3)^2 = 5/9: attacker (1/3)(2/3) / (5/9) = 2/5, defender 2/5, both 1/5."""

        def sea_round(state: State) -> dict[State, Fraction]:
            attackers, defenders = state
            out: dict[State, Fraction] = defaultdict(Fraction)
            for (a_die, d_die), p in faces(2):
                a_hit, d_hit = a_die <= ATTACK["SUB"], d_die <= DEFENCE["SUB"]
                out[(attackers[d_hit:], defenders[a_hit:])] += p
            return out

        want = solve({(("SUB",), ("SUB",)): Fraction(1)}, sea_round, by_survivors)
        assert want == {
            ("attacker", ("SUB",)): Fraction(2, 5),
            ("defender", ("SUB",)): Fraction(2, 5),
            ("draw", ()): Fraction(1, 5),
        }
        assert product_ends(big_world_exact_odds(bw("sea", {"SUB": 1}, {"SUB": 1}))) == want


# --------------------------------------------------------------------------------------
# The JSON
# --------------------------------------------------------------------------------------


class TestOddsJson:
    @pytest.mark.parametrize("doc", SMALL_BATTLES.values(), ids=SMALL_BATTLES.keys())
    def test_the_json_adds_up(self, doc: dict[str, Any]) -> None:
        out = odds_json(doc)
        assert out["version"] == 1
        assert out["ruleset"] == "big_world_1942"
        ends = out["attacker_wins"] + out["defender_wins"] + out["draw"]
        ends += out.get("retreated", 0) + out.get("stalemate", 0)
        assert ends == pytest.approx(1, abs=1e-9)
        for side in ("attacker", "defender"):
            kept = sum(item["p"] for item in out["survivors"][side])
            assert kept == pytest.approx(out[f"{side}_wins"], abs=1e-9)
        if "retreated" in out:
            gone = sum(item["p"] for item in out["retreating"])
            assert gone == pytest.approx(out["retreated"], abs=1e-9)
        assert ("captures" in out) == (doc["kind"] == "land")

    def test_expected_ipc_lost_uses_big_world_costs(self) -> None:
        """1 ART v 1 INF: the artillery, 4 PUs, is lost with 3/5 (above): 2.4."""
        out = odds_json(bw("land", {"ART": 1}, {"INF": 1}))
        assert out["expected_ipc_lost"]["attacker"] == pytest.approx(2.4, abs=1e-9)
        assert out["expected_ipc_lost"]["defender"] == pytest.approx(1.8, abs=1e-9)

    def test_a_cruiser_costs_10(self) -> None:
        """1 SUB v 1 CA: what the defender loses is 10 times the chance the CA sinks."""
        out = odds_json(bw("sea", {"SUB": 1}, {"CA": 1}))
        lost = out["attacker_wins"] + out["draw"]
        assert out["expected_ipc_lost"]["defender"] == pytest.approx(10 * lost, abs=1e-9)

    def test_classic_is_unchanged(self) -> None:
        """Without the ruleset the Classic calculator answers: no ruleset key, and Classic's
        armour defends at 2 (Big World's at 3), so an INF attacks it better."""
        classic = odds_json(
            {"version": 1, "kind": "land", "attacker": {"INF": 1}, "defender": {"ARM": 1}}
        )
        big = odds_json(bw("land", {"INF": 1}, {"ARM": 1}))
        assert "ruleset" not in classic
        assert classic["attacker_wins"] > big["attacker_wins"]

    def test_surviving_battleships_are_repaired(self) -> None:
        """1 BB v 1 DD: the battleship survives damaged or not; after the battle it is
        repaired (rule book, Battleship: "all battleships will repair to full health after
        the battle is over"), so one survivor line, 1 BB, with the whole win."""
        out = odds_json(bw("sea", {"BB": 1}, {"DD": 1}))
        assert [item["units"] for item in out["survivors"]["attacker"]] == [{"BB": 1}]
        exact = big_world_exact_odds(bw("sea", {"BB": 1}, {"DD": 1}))
        assert all(army.damaged == 0 for army, _ in exact.attacker_survivors)


class TestRefused:
    @pytest.mark.parametrize("low_luck", [1, True])
    def test_low_luck(self, low_luck: object) -> None:
        with pytest.raises(BattleInputError) as caught:
            odds_json(bw("land", {"INF": 1}, {"INF": 1}, low_luck=low_luck))
        assert caught.value.field == "low_luck"
        assert "Low Luck" in caught.value.problem and "Big World" in caught.value.problem

    def test_low_luck_off_is_fine(self) -> None:
        assert odds_json(bw("land", {"INF": 1}, {"INF": 1}, low_luck=0))["attacker_wins"]

    @pytest.mark.parametrize(
        ("extra", "field"),
        [
            ({"rounds": [{"attacker": {"INF": [1]}, "defender": {"INF": [6]}}]}, "rounds"),
            ({"retreat": {"after_round": 0}}, "retreat.after_round"),
            ({"retreat": {"when": 1}}, "retreat.when"),
        ],
    )
    def test_a_bad_request_names_its_field(self, extra: dict[str, Any], field: str) -> None:
        with pytest.raises(BattleInputError) as caught:
            odds_json(bw("land", {"INF": 1}, {"INF": 1}, **extra))
        assert caught.value.field == field

    def test_an_unknown_unit(self) -> None:
        with pytest.raises(BattleInputError) as caught:
            big_world_exact_odds(bw("sea", {"SUB": 1}, {"XYZ": 1}))
        assert caught.value.field == "defender.XYZ"
