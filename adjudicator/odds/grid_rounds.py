"""The round-by-round pass (:func:`~adjudicator.odds.chain.by_rounds`) on the grid.

Each round of :class:`~adjudicator.odds.grid.Grid` leaves the cells still fighting and the
mass it ended (a side destroyed); the pass then applies the attacker's retreat policy and
finds stalemates, as :func:`~adjudicator.odds.chain.by_rounds` does state by state, and
keys what ended by the same states (ids of the :class:`~adjudicator.odds.rounds.RoundChain`)
so that :func:`~adjudicator.odds.report.summarise` reads both alike.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from adjudicator.odds.chain import Ending, RetreatPolicy, Tally
from adjudicator.odds.grid import Grid, Live, Mask, RoundEnd
from adjudicator.odds.lines import GridBattle
from adjudicator.odds.rounds import SHIFT, RoundChain, State
from adjudicator.odds.tables import Chances
from adjudicator.units import Units


class _Ends:
    """Where the probability has gone so far, by attacker line and casualty counts."""

    def __init__(self, grid: Grid) -> None:
        self.grid = grid
        lines, longest, n_d = len(grid.lines), grid.longest, grid.n_d
        self.captured = np.zeros((lines, longest + 1))
        """The defender destroyed, by line and the attacker's casualties."""
        self.held = np.zeros((lines, n_d + 1))
        """The attacker destroyed, by line and the defender's casualties (``n_d``: both)."""
        self.kept: dict[Ending, Chances] = {}
        """Retreats and stalemates, by line and both sides' casualties."""

    def add_round(self, result: RoundEnd) -> float:
        """Record what the round ended; returns its total."""
        live = result.live
        rows = live.lost[None, :] + np.arange(result.captured.shape[0])[:, None]
        lines = np.broadcast_to(live.lines[None, :], rows.shape)
        inside = rows <= self.grid.longest
        self.captured[lines[inside], rows[inside]] += result.captured[inside]
        self.held[live.lines] += result.held
        return float(result.captured.sum() + result.held.sum())

    def add_cells(self, ending: Ending, live: Live, zone: Mask) -> float:
        """Move the live cells in ``zone`` (shaped like ``live.mass``) to ``ending``."""
        part = np.where(zone, live.mass, 0.0)
        if not part.any():
            return 0.0
        grid = self.grid
        store = self.kept.setdefault(
            ending, np.zeros((len(grid.lines), grid.longest + 1, grid.n_d))
        )
        r, i, c = np.nonzero(part)
        store[live.lines[i], live.lost[i] + r, live.first + c] += part[r, i, c]
        live.mass[zone] = 0.0
        return float(part.sum())

    def tally(self, chain: RoundChain[float]) -> dict[tuple[Ending, State], float]:
        """Everything recorded, keyed by ``chain``'s states."""
        grid = self.grid
        lines = [item.line for item in grid.lines]
        defenders = grid.battle.defenders
        d_ids = [chain.intern(defenders.left(d)) for d in range(grid.n_d + 1)]
        a_ids: dict[tuple[int, int], int] = {}

        def a_id(line: int, lost: int) -> int:
            key = (int(line), int(lost))
            found = a_ids.get(key)
            if found is None:
                found = a_ids[key] = chain.intern(lines[key[0]].left(key[1]))
            return found

        ends: dict[tuple[Ending, State], float] = defaultdict(float)
        empty_d = d_ids[grid.n_d]
        for line, lost in zip(*np.nonzero(self.captured), strict=True):
            state = a_id(line, lost) << SHIFT | empty_d
            ends[(Ending.ATTACKER_WINS, state)] += float(self.captured[line, lost])
        empty_a = chain.intern(Units())
        for d in np.flatnonzero(self.held.any(axis=0)):
            ending = Ending.DRAW if d == grid.n_d else Ending.DEFENDER_WINS
            ends[(ending, empty_a << SHIFT | d_ids[d])] += float(self.held[:, d].sum())
        for ending, store in self.kept.items():
            for line, lost, d in zip(*np.nonzero(store), strict=True):
                state = a_id(line, lost) << SHIFT | d_ids[d]
                ends[(ending, state)] += float(store[line, lost, d])
        return dict(ends)


def by_rounds_on_grid(
    chain: RoundChain[float],
    battle: GridBattle,
    policy: RetreatPolicy,
    *,
    tolerance: float,
    floor: float,
    most_rounds: int = 10_000,
) -> Tally[float]:
    """:func:`~adjudicator.odds.chain.by_rounds` for a battle on the grid: the same endings,
    round by round, keyed by the same states (ids of ``chain``). Cells lighter than
    ``floor`` after a round are dropped."""
    grid = Grid(battle)
    setup = battle.setup
    limit = policy.attackers_at_most if setup.retreat_possible else None
    stop = policy.after_round if setup.retreat_possible else None
    stalemate = bool(grid.inert_rows.any() and grid.inert_columns.any())
    ends = _Ends(grid)
    rounds: dict[int, float] = {}
    result = grid.round(grid.start(), support=battle.support)
    number = 1
    while True:
        live = result.live
        for part in (live.mass, result.captured, result.held):
            part[part < floor] = 0.0
        ended = ends.add_round(result)
        rows = live.lost[None, :] + np.arange(live.mass.shape[0])[:, None]
        lines = np.broadcast_to(live.lines[None, :], rows.shape)
        if limit is not None:
            zone = (rows >= grid.sizes[lines] - limit)[:, :, None]
            ended += ends.add_cells(Ending.RETREATED, live, np.broadcast_to(zone, live.mass.shape))
        if stalemate:
            quiet = grid.inert_rows[lines, np.minimum(rows, grid.longest)]
            columns = live.first + np.arange(live.mass.shape[2])
            zone = quiet[:, :, None] & grid.inert_columns[columns][None, None, :]
            ended += ends.add_cells(Ending.STALEMATE, live, zone)
        if stop is not None and number >= stop:
            ended += ends.add_cells(Ending.RETREATED, live, live.mass > 0)
        if ended:
            rounds[number] = ended
        left = float(live.mass.sum())
        if not live.mass.any() or left <= tolerance or number >= most_rounds:
            return Tally(ends.tally(chain), rounds, left)
        result = grid.round(live.trimmed())
        number += 1
