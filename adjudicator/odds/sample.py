"""Battles played with dice, counted, and held to the exact odds: the figures of a Monte Carlo
(:mod:`adjudicator.odds.simulate`) beside :class:`~adjudicator.odds.report.Odds`, each in
standard errors of a sample that size (issue 18: "exact odds equal a 1,000,000-run Monte
Carlo of the engine's own ``battle resolve`` within its error")."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from adjudicator.odds.chain import Ending
from adjudicator.odds.report import Odds


@dataclass(frozen=True)
class Sample:
    """``runs`` battles played, counted; each ending's frequency is :meth:`share`, the means
    are named as in :class:`~adjudicator.odds.report.Odds` (``attacker_ipc_lost``, ...)."""

    runs: int
    endings: Mapping[Ending, int]
    captured: int
    """Land battles won with a land unit left."""
    rounds: Mapping[int, int]
    """How many battles ended in each round."""
    attacker_ipc_total: int
    defender_ipc_total: int

    def share(self, ending: Ending) -> float:
        """How often the battles ended so."""
        return self.endings.get(ending, 0) / self.runs

    @property
    def mean_rounds(self) -> float:
        """Rounds a battle lasted, on average."""
        return sum(k * n for k, n in self.rounds.items()) / self.runs

    @property
    def attacker_ipc_lost(self) -> float:
        """IPC the attacker lost, on average."""
        return self.attacker_ipc_total / self.runs

    @property
    def defender_ipc_lost(self) -> float:
        """IPC the defender lost, on average."""
        return self.defender_ipc_total / self.runs

    def __add__(self, other: Sample) -> Sample:
        """Both samples as one (the runs of one battle played in parts)."""
        endings, rounds = Counter(self.endings), Counter(self.rounds)
        endings.update(other.endings)
        rounds.update(other.rounds)
        return Sample(
            self.runs + other.runs,
            dict(endings),
            self.captured + other.captured,
            dict(sorted(rounds.items())),
            self.attacker_ipc_total + other.attacker_ipc_total,
            self.defender_ipc_total + other.defender_ipc_total,
        )


@dataclass(frozen=True)
class Agreement:
    """One figure of the exact odds against a sample: the difference in standard errors of
    a sample that size drawn from the exact odds (infinite if they say it cannot differ)."""

    figure: str
    exact: float
    simulated: float
    z: float


FLOAT_NOISE = 1e-9
"""A figure the exact odds give with no spread (a chance of 0 or 1, a battle that always
lasts one round) matches a sample this close: the float odds leave less than 1e-13 of
their probability unaccounted."""


def _agreement(figure: str, exact: float, seen: float, variance: float, runs: int) -> Agreement:
    error = math.sqrt(max(0.0, variance) / runs)
    if error > 0:
        return Agreement(figure, exact, seen, (seen - exact) / error)
    return Agreement(figure, exact, seen, 0.0 if abs(seen - exact) <= FLOAT_NOISE else math.inf)


def compare(exact: Odds[float], sample: Sample) -> tuple[Agreement, ...]:
    """Each ending's frequency against its exact chance (a binomial's error), then the mean
    rounds against the exact mean (the error from the exact spread of rounds)."""
    found = []
    for ending in Ending:
        p = min(1.0, max(0.0, float(getattr(exact, ending.value))))
        found.append(_agreement(ending.value, p, sample.share(ending), p * (1 - p), sample.runs))
    mean = sum(k * p for k, p in exact.rounds)
    spread = sum(k * k * p for k, p in exact.rounds) - mean * mean
    found.append(_agreement("rounds", mean, sample.mean_rounds, spread, sample.runs))
    return tuple(found)
