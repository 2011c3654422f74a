"""What the calculator tells a player: the odds of one battle, as JSON and as text."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic

from adjudicator.odds.chain import Chain, Ending, Tally
from adjudicator.odds.rounds import LOW, SHIFT, Force, Prob


@dataclass(frozen=True)
class Odds(Generic[Prob]):
    """The exact odds of a battle before it is rolled.

    ``attacker_wins`` counts every battle the defender loses with an attacker left, planes
    only included; ``captures`` is the part of it with a land unit left in a land battle
    ("planes never capture"). ``survivors`` are the units left to the winner: the
    attacker's sum to ``attacker_wins``, the defender's to ``defender_wins``;
    ``retreating`` the attacker's units that retreat (summing to ``retreated``).
    ``rounds`` gives the chance the battle ends in each round (empty for the exact path of
    a battle with no last round).
    """

    attacker_wins: Prob
    defender_wins: Prob
    draw: Prob
    retreated: Prob
    stalemate: Prob
    captures: Prob
    attacker_survivors: tuple[tuple[Force, Prob], ...]
    defender_survivors: tuple[tuple[Force, Prob], ...]
    retreating: tuple[tuple[Force, Prob], ...]
    attacker_ipc_lost: Prob
    defender_ipc_lost: Prob
    rounds: tuple[tuple[int, Prob], ...]
    unsettled: Prob
    """Probability left in play when the round-by-round pass stopped (below 1e-13)."""


def _ranked(found: Mapping[Force, Prob]) -> tuple[tuple[Force, Prob], ...]:
    return tuple(sorted(found.items(), key=lambda pair: (-pair[1], pair[0].label())))


def summarise(chain: Chain[Prob], tally: Tally[Prob]) -> Odds[Prob]:
    """The odds from where the probability ended."""
    zero = chain.zero
    total: dict[Ending, Prob] = defaultdict(lambda: zero)
    kept: dict[Ending, dict[Force, Prob]] = defaultdict(lambda: defaultdict(lambda: zero))
    begin = chain.start()
    start_a, start_d = chain.ipc(begin >> SHIFT), chain.ipc(begin & LOW)
    lost_a = lost_d = captured = zero
    spent_a: dict[int, int] = {}
    spent_d: dict[int, int] = {}
    holds: dict[int, bool] = {}
    for (ending, state), p in tally.ends.items():
        a_id, d_id = state >> SHIFT, state & LOW
        a, d = chain.units(a_id), chain.units(d_id)
        if a_id not in spent_a:
            spent_a[a_id] = start_a - chain.ipc(a_id)
        if d_id not in spent_d:
            spent_d[d_id] = start_d - chain.ipc(d_id)
        total[ending] += p
        lost_a += p * spent_a[a_id]
        lost_d += p * spent_d[d_id]
        if ending is Ending.ATTACKER_WINS:
            kept[ending][a] += p
            if a_id not in holds:
                holds[a_id] = chain.captures(a_id)
            if holds[a_id]:
                captured += p
        elif ending is Ending.DEFENDER_WINS:
            kept[ending][d] += p
        elif ending is Ending.RETREATED:
            kept[ending][a] += p
    return Odds(
        attacker_wins=total[Ending.ATTACKER_WINS],
        defender_wins=total[Ending.DEFENDER_WINS],
        draw=total[Ending.DRAW],
        retreated=total[Ending.RETREATED],
        stalemate=total[Ending.STALEMATE],
        captures=captured,
        attacker_survivors=_ranked(kept[Ending.ATTACKER_WINS]),
        defender_survivors=_ranked(kept[Ending.DEFENDER_WINS]),
        retreating=_ranked(kept[Ending.RETREATED]),
        attacker_ipc_lost=lost_a,
        defender_ipc_lost=lost_d,
        rounds=tuple(sorted(tally.rounds.items())),
        unsettled=tally.unsettled,
    )


def _f(p: float | Fraction) -> float:
    return float(p)


def _survivors(found: tuple[tuple[Force, Prob], ...]) -> list[dict[str, object]]:
    return [{"units": units.to_json(), "p": _f(p)} for units, p in found]


def odds_to_json(odds: Odds[Prob], *, land: bool) -> dict[str, object]:
    """The version-1 output object (see :mod:`adjudicator.odds`)."""
    out: dict[str, object] = {
        "version": 1,
        "attacker_wins": _f(odds.attacker_wins),
        "defender_wins": _f(odds.defender_wins),
        "draw": _f(odds.draw),
    }
    if land:
        out["captures"] = _f(odds.captures)
    if odds.retreated:
        out["retreated"] = _f(odds.retreated)
    if odds.stalemate:
        out["stalemate"] = _f(odds.stalemate)
    out["survivors"] = {
        "attacker": _survivors(odds.attacker_survivors),
        "defender": _survivors(odds.defender_survivors),
    }
    if odds.retreating:
        out["retreating"] = _survivors(odds.retreating)
    out["expected_ipc_lost"] = {
        "attacker": _f(odds.attacker_ipc_lost),
        "defender": _f(odds.defender_ipc_lost),
    }
    out["rounds"] = [{"round": k, "p": _f(p)} for k, p in odds.rounds]
    return out


def _pct(p: object) -> str:
    return f"{100 * float(p):6.2f}%"  # type: ignore[arg-type]


def render_odds(out: Mapping[str, object], likeliest: int = 5) -> str:
    """The odds for a person: outcomes, IPC lost, the likeliest survivors of each side."""
    lines = [
        f"attacker wins  {_pct(out['attacker_wins'])}"
        + (f"   (captures {_pct(out['captures']).strip()})" if "captures" in out else ""),
        f"defender wins  {_pct(out['defender_wins'])}",
        f"both destroyed {_pct(out['draw'])}",
    ]
    for key, label in (("retreated", "retreats"), ("stalemate", "stalemate")):
        if key in out:
            lines.append(f"{label:<14} {_pct(out[key])}")
    ipc = out["expected_ipc_lost"]
    assert isinstance(ipc, Mapping)
    lines.append(
        f"expected IPC lost: attacker {ipc['attacker']:.1f}, defender {ipc['defender']:.1f}"
    )
    survivors = out["survivors"]
    assert isinstance(survivors, Mapping)
    for side in ("attacker", "defender"):
        found = survivors[side]
        if not found:
            continue
        lines.append(f"likeliest {side} survivors:")
        for item in found[:likeliest]:
            label = ", ".join(f"{n} {unit}" for unit, n in item["units"].items()) or "none"
            lines.append(f"  {_pct(item['p'])}  {label}")
    rounds = out["rounds"]
    assert isinstance(rounds, list)
    if rounds:
        mean = sum(r["round"] * r["p"] for r in rounds)
        lines.append(f"rounds: {mean:.2f} on average, at most {rounds[-1]['round']}")
    return "\n".join(lines) + "\n"
