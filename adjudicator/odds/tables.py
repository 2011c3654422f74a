"""The hit distributions of casualty lines, tabulated for the grid.

Along a line (:mod:`adjudicator.odds.lines`) a side with ``k`` casualties has the units from
``k`` on, so its hits are the sum of those units' dice: row ``k`` of :func:`suffix_hits` is
that distribution, and row ``k`` is row ``k + 1`` convolved with the dice of unit ``k``.
The grid (:mod:`adjudicator.odds.grid`) splits these products in two places:

- the defender's, in blocks of :data:`BLOCK` casualty counts: for ``d`` in a block, the
  hits of the units from ``d`` on are the hits of the units from ``d`` to the block's end
  (:attr:`DefenderBlocks.head`, a few dice) and those of the units after it
  (:attr:`DefenderBlocks.tail`, the same for the whole block);
- the attacker's, where a round takes ``x`` of his units: the units lost
  (``a - x`` to ``a``) still fire that round, and :func:`casualty_fire` tabulates their dice
  so that the rest of his fire is the row of the units he keeps.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import numpy.typing as npt

Chances = npt.NDArray[np.float64]
_Kind = TypeVar("_Kind")

BLOCK = 8
"""Casualty counts per defender block: small enough that a block's own dice are a short
distribution, large enough that the blocks are few."""


def dice_rows(kernels: Sequence[tuple[float, ...]], rows: int, width: int) -> Chances:
    """Each unit's dice as a row (padded with zeros); rows past the line throw nothing."""
    out = np.zeros((rows, width))
    out[:, 0] = 1.0
    for i, kernel in enumerate(kernels[:rows]):
        out[i, 0] = 0.0
        out[i, : len(kernel)] = kernel
    return out


def line_dice(units: Sequence[_Kind], dice: Callable[[_Kind], tuple[float, ...]]) -> Chances:
    """``dice(unit)`` of each of ``units`` as a row, each kind of unit worked out once."""
    kinds: dict[_Kind, int] = {}
    codes = np.array([kinds.setdefault(unit, len(kinds)) for unit in units], dtype=np.intp)
    kernels = [dice(unit) for unit in kinds]
    table = dice_rows(kernels, len(kernels), max((len(k) for k in kernels), default=1))
    return table[codes]


def suffix_hits(dice: Chances, rows: int) -> Chances:
    """Row ``k``: the hits of units ``k, k+1, ...`` together (``dice`` one row per unit);
    rows from ``len(dice)`` on hold no units (no hits)."""
    return suffix_tables([dice], [rows])[0]


def suffix_tables(lines: Sequence[Chances], rows: Sequence[int]) -> list[Chances]:
    """:func:`suffix_hits` of several lines at once. A suffix depends only on the units
    after it, so the lines are aligned at their ends and extended one unit at a time,
    all together."""
    count = len(lines)
    longest = max(len(dice) for dice in lines)
    taps = max(dice.shape[1] for dice in lines)
    width = max(int((dice.shape[1] - 1) * len(dice)) for dice in lines) + 1
    aligned_dice = np.zeros((count, longest + 1, taps))
    aligned_dice[:, :, 0] = 1.0
    for i, dice in enumerate(lines):
        aligned_dice[i, 1 : len(dice) + 1] = 0.0
        aligned_dice[i, 1 : len(dice) + 1, : dice.shape[1]] = dice[::-1]
    aligned = np.zeros((count, longest + 1, width))
    aligned[:, 0, 0] = 1.0
    for back in range(1, longest + 1):
        below, row, step = aligned[:, back - 1], aligned[:, back], aligned_dice[:, back]
        for j in range(taps):
            row[:, j:] += below[:, : width - j] * step[:, j : j + 1]
    out = []
    for i, dice in enumerate(lines):
        n = len(dice)
        table = np.zeros((max(rows[i], n + 1), width))
        table[: n + 1] = aligned[i, n::-1]
        table[n + 1 :, 0] = 1.0
        out.append(table[: rows[i]])
    return out


def casualty_fire(windows: Chances, span: int) -> Chances:
    """``psi[w, x * BLOCK + t, e]``: the chance that the last ``x`` units of window ``w``
    (``windows[w, i]``: the dice of the unit ``i + 1`` places before a row, the casualties
    of a side that keeps its units from that row on) score ``e - t`` hits; ``t`` only
    shifts (the column of the grid within a defender block). Shape
    ``(len(windows), (BLOCK + 1) * BLOCK, span)``."""
    count, _, taps = windows.shape
    lost = np.zeros((count, BLOCK + 1, span - BLOCK + 1))
    lost[:, 0, 0] = 1.0
    for x in range(1, BLOCK + 1):
        unit = windows[:, x - 1]
        before, after = lost[:, x - 1], lost[:, x]
        for j in range(taps):
            after[:, j:] += before[:, : after.shape[1] - j] * unit[:, j : j + 1]
    psi = np.zeros((count, BLOCK + 1, BLOCK, span))
    for t in range(BLOCK):
        psi[:, :, t, t : t + lost.shape[2]] = lost
    return psi.reshape(count, (BLOCK + 1) * BLOCK, span)


@dataclass(frozen=True)
class DefenderBlocks:
    """The defender's hits split at the blocks' ends.

    ``head[d]``: the hits of units ``d`` to the end of ``d``'s block (at most ``BLOCK``
    dice, ``BLOCK + 1`` entries); ``tail[b]``: the hits of the units after block ``b``.
    The hits of the units from ``d`` on are ``head[d]`` convolved with ``tail[d // BLOCK]``.
    """

    head: Chances
    tail: Chances

    @classmethod
    def of(cls, dice: Chances, hits: Chances) -> DefenderBlocks:
        """Split ``hits`` (the :func:`suffix_hits` of one-die ``dice``)."""
        n = len(dice)
        blocks = n // BLOCK + 2
        size = blocks * BLOCK
        padded = np.zeros((size, 2))
        padded[:, 0] = 1.0
        padded[:n] = 0.0
        padded[:n, : dice.shape[1]] = dice
        head = np.zeros((size, BLOCK + 1))
        ends = np.arange(blocks) * BLOCK + BLOCK
        head[ends - 1, :2] = padded[ends - 1]
        for back in range(2, BLOCK + 1):
            rows, later = ends - back, ends - back + 1
            for j in range(2):
                head[rows, j:] += head[later, : BLOCK + 1 - j] * padded[rows, j : j + 1]
        tail = hits[np.minimum(ends, n)]
        return cls(head, tail)
