"""One battle round on a grid of casualty counts, in floats (numpy).

For a battle whose sides are casualty lines (:mod:`adjudicator.odds.lines`) a state is a
cell ``(a, d)``: the attacker has lost ``a`` units of his line, the defender ``d`` of hers.
A round from ``(a, d)`` takes the attacker to ``a + X`` and the defender to ``d + Y``, where
``X`` is the hits of the defender's units from ``d`` on and ``Y`` those of the attacker's
units from ``a`` on, independent; a count past the end of a line is that side destroyed.
Every cell has its own pair of distributions, so a round is no plain convolution; it is
computed in three steps, each exact (:meth:`Grid.round`):

1. the defender's hits are split at blocks of :data:`~adjudicator.odds.tables.BLOCK`
   columns (:class:`~adjudicator.odds.tables.DefenderBlocks`): the dice of the column's own
   block, then those of the units after the block, the same for every column in it;
2. a column's own block moves its mass down ``x`` rows. The ``x`` attacker units lost still
   fire, so the attacker's hits from row ``a - x`` are those casualties' hits
   (:func:`~adjudicator.odds.tables.casualty_fire`) and the hits of row ``a``'s units: the
   row's own fire is applied once, where the mass has arrived (one small product per row
   with a Toeplitz matrix);
3. each block's common rest moves its mass further down (one banded product per block, for
   all attacker lines at once), and the blocks are added at their columns. Rows past the
   end of a line and columns past the last defender are that side destroyed: they are only
   summed.

Floats drop only kernel entries through which not even the heaviest cell could pass
:data:`KERNEL_PRUNE`. Before the main rolls of a sea battle the attacking subs strike (each
row convolved with its subs' hits); round 1 adds the support shots' hits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from numpy.lib.stride_tricks import as_strided

from adjudicator.odds.lines import CasualtyLine, GridBattle
from adjudicator.odds.tables import (
    BLOCK,
    Chances,
    DefenderBlocks,
    casualty_fire,
    line_dice,
    suffix_hits,
    suffix_tables,
)

Index = npt.NDArray[np.intp]
Mask = npt.NDArray[np.bool_]

KERNEL_PRUNE = 1e-17
"""A kernel entry is dropped in a round when even the heaviest cell's share through it is
below this."""

NEVER_NEEDED = KERNEL_PRUNE / 2
"""Table entries below this are below every round's cut: tables keep no columns past the
last entry above it."""

CUT_AT_MOST = 1e-6
"""However light the cells, kernel entries above this are kept."""

ITEM_AT_MOST = 600_000
"""Multiply-adds per matrix in a stacked product. OpenBLAS runs products this small on one
thread; its threads stall badly on a busy machine, and the grid's products are many."""

MOVED_AT_MOST = 128 * 1024
"""Entries of step 2's moved mass worked out at once: a megabyte, so that they are still
in the core's cache when multiplied (and the first round touches little fresh memory)."""

NO_SUPPORT: tuple[float, ...] = (1.0,)


def any_of(values: npt.NDArray[Any], axis: int | tuple[int, ...]) -> Mask:
    """Whether any entry along ``axis`` is non-zero (``ndarray.any``, typed)."""
    return np.asarray(np.any(values, axis=axis))


def span_of(mask: Mask) -> tuple[int, int]:
    """The first and past-the-last true index (``(0, 0)`` if none)."""
    found = np.flatnonzero(mask)
    if not len(found):
        return 0, 0
    return int(found[0]), int(found[-1]) + 1


def _toeplitz_band(kernels: Chances, rows: int, columns: int) -> Chances:
    """``t[k, r, i] = kernels[k, r - i]`` (zero outside the kernel): ``t[k] @ v`` is the
    first ``rows`` entries of ``v`` convolved with kernel ``k``."""
    count, size = kernels.shape
    padded = np.zeros((count, columns - 1 + max(rows, size)))
    padded[:, columns - 1 : columns - 1 + size] = kernels
    s0, s1 = padded.strides
    view = as_strided(padded[:, columns - 1 :], shape=(count, rows, columns), strides=(s0, s1, -s1))
    return np.ascontiguousarray(view)


def _toeplitz_rows(rows: Chances, n: int) -> Chances:
    """``t[h, e, f] = rows[h, f - e]``: row ``h``'s convolution of a length-``n`` vector,
    as one matrix per row (a read-only view: ``n`` times the rows would be megabytes)."""
    count, size = rows.shape
    padded = np.zeros((count, size + 2 * (n - 1)))
    padded[:, n - 1 : n - 1 + size] = rows
    s0, s1 = padded.strides
    return as_strided(
        padded[:, n - 1 :], shape=(count, n, n + size - 1), strides=(s0, -s1, s1), writeable=False
    )


def _fold_right(mass: Chances, kernel: Chances, room: int) -> tuple[Chances, Chances]:
    """Each row of ``mass`` (last axis) convolved with its own ``kernel`` row: the first
    ``room`` columns, and the sum of the rest."""
    width = mass.shape[-1]
    spread = width + kernel.shape[-1] - 1
    out = np.zeros((*mass.shape[:-1], max(spread, room + 1)))
    for j in range(kernel.shape[-1]):
        out[..., j : j + width] += mass * kernel[..., j : j + 1]
    return out[..., : min(room, spread)], out[..., room:].sum(axis=-1)


class _Scratch:
    """The round's big arrays, kept from round to round: fresh memory costs a page fault on
    first touch, and a round's arrays are megabytes."""

    def __init__(self) -> None:
        self._kept: dict[str, Chances] = {}

    def empty(self, name: str, shape: tuple[int, ...]) -> Chances:
        """An uninitialised array of ``shape``."""
        size = int(np.prod(shape))
        kept = self._kept.get(name)
        if kept is None or kept.size < size:
            kept = self._kept[name] = np.empty(size + size // 4)
        return kept[:size].reshape(shape)

    def zeros(self, name: str, shape: tuple[int, ...]) -> Chances:
        """A zeroed array of ``shape``."""
        out = self.empty(name, shape)
        out.fill(0.0)
        return out


@dataclass
class _Line:
    """One attacker line's tables, by casualties (rows past the line: no units)."""

    line: CasualtyLine
    hits: Chances
    """The main roll's hits."""
    fire: Chances
    """``fire[a, e, f] = hits[a, f - e]``: row ``a``'s fire as a matrix that convolves."""


@dataclass
class Live:
    """The cells still fighting: ``mass[r, i, c]`` is the chance that the battle goes on
    with the attacker on line ``lines[i]`` after ``lost[i] + r`` casualties and the defender
    after ``first + c``."""

    mass: Chances
    lines: Index
    lost: Index
    first: int

    def trimmed(self) -> Live:
        """The same cells in the smallest block (lines with none dropped)."""
        rows = any_of(self.mass, 2)
        keep = np.flatnonzero(any_of(rows, 0))
        mass, rows = self.mass[:, keep], rows[:, keep]
        low = rows.argmax(axis=0)
        high = rows.shape[0] - rows[::-1].argmax(axis=0)
        height = int((high - low).max())
        at = low[None, :] + np.arange(height)[:, None]
        taken = np.take_along_axis(mass, np.minimum(at, mass.shape[0] - 1)[:, :, None], axis=0)
        taken *= (at < high[None, :])[:, :, None]
        c0, c1 = span_of(any_of(taken, (0, 1)))
        return Live(taken[:, :, c0:c1], self.lines[keep], self.lost[keep] + low, self.first + c0)


@dataclass
class RoundEnd:
    """A round's result: the cells still fighting, and the mass the round ended.

    ``captured[r, i]``: the defender destroyed, the attacker on ``live.lines[i]`` after
    ``live.lost[i] + r`` casualties; ``held[i, d]``: that attacker destroyed, the defender
    after ``d`` casualties (``d`` the length of her line: both destroyed).
    """

    live: Live
    captured: Chances
    held: Chances


class Grid:
    """A battle on the grid of casualty counts: its tables, and one round at a time."""

    def __init__(self, battle: GridBattle) -> None:
        self.battle = battle
        lines = battle.attackers
        defenders = battle.defenders
        self.n_d = n_d = len(defenders)
        defence = line_dice(defenders.units, battle.defence_dice)
        self.defence_hits = suffix_hits(defence, n_d + 1)
        self.blocks = DefenderBlocks.of(defence, self.defence_hits)
        main = [line_dice(line.units, battle.main_dice) for line in lines]
        self.span = BLOCK * (1 + max(1, max(dice.shape[1] - 1 for dice in main)))
        tables = suffix_tables(main, [len(line) + BLOCK + 1 for line in lines])
        self.width = max(span_of(any_of(table > NEVER_NEEDED, 0))[1] for table in tables)
        starts = np.cumsum([0] + [len(line) + BLOCK + 1 for line in lines])
        hits = np.zeros((int(starts[-1]), self.width))
        for table, at in zip(tables, starts, strict=False):
            hits[at : at + len(table), : min(self.width, table.shape[1])] = table[:, : self.width]
        fire = _toeplitz_rows(hits, self.span)
        self.lines = [
            _Line(line, hits[at:end], fire[at:end])
            for line, at, end in zip(lines, starts, starts[1:], strict=False)
        ]
        self.sizes = np.array([len(line) for line in lines])
        self.longest = int(self.sizes.max())
        self.psi, self.window = self._casualty_fire(main)
        self.strike = self._strike_table() if battle.first_strike else None
        self.inert_rows = np.zeros((len(lines), self.longest + 1), dtype=bool)
        for i, item in enumerate(self.lines):
            quiet = item.hits[: len(item.line), 0] == 1.0
            if self.strike is not None:
                quiet &= self.strike[i, : len(item.line), 0] == 1.0
            self.inert_rows[i, : len(item.line)] = quiet
        self.inert_columns: Mask = self.defence_hits[:n_d, 0] == 1.0
        self.scratch = _Scratch()

    def _casualty_fire(self, main: list[Chances]) -> tuple[Chances, Index]:
        """The :func:`~adjudicator.odds.tables.casualty_fire` of every window of unit kinds
        met along the lines, and each line's window row by row (rows past a line: none)."""
        taps = self.span // BLOCK
        kinds: dict[bytes, int] = {}
        dice = [np.zeros((1, taps))]
        dice[0][0, 0] = 1.0
        codes = []
        for table in main:
            padded = np.zeros((len(table), taps))
            padded[:, : table.shape[1]] = table
            code = np.zeros(len(table) + 2 * BLOCK + 1, dtype=np.int64)
            for i, row in enumerate(padded):
                found = kinds.setdefault(row.tobytes(), len(kinds) + 1)
                if found == len(dice):
                    dice.append(row[None, :])
                code[BLOCK + i] = found
            codes.append(code)
        base = len(dice)
        windows: dict[int, int] = {}
        window = np.zeros((len(main), self.longest + BLOCK + 1), dtype=np.intp)
        every: list[npt.NDArray[np.int64]] = []
        for i, code in enumerate(codes):
            rows = len(code) - BLOCK
            back = np.stack([code[BLOCK - 1 - x : BLOCK - 1 - x + rows] for x in range(BLOCK)], 1)
            keys = (back * base ** np.arange(BLOCK)).sum(axis=1)
            for r, key in enumerate(keys.tolist()):
                if key not in windows:
                    windows[key] = len(every)
                    every.append(back[r])
                window[i, r] = windows[key]
            window[i, rows:] = windows.setdefault(0, len(every))
            if len(every) == windows[0]:
                every.append(np.zeros(BLOCK, dtype=np.int64))
        table = np.concatenate(dice)[np.array(every)]
        return casualty_fire(table, self.span), window

    def _strike_table(self) -> Chances:
        """The subs' first strike's hits by line and casualties (rows past a line: none)."""
        battle = self.battle
        tables = suffix_tables(
            [line_dice(line.units, battle.strike_dice) for line in battle.attackers],
            [len(line) + 1 for line in battle.attackers],
        )
        taps = max(table.shape[1] for table in tables)
        strike = np.zeros((len(tables), self.longest + 1, taps))
        strike[:, :, 0] = 1.0
        for i, table in enumerate(tables):
            strike[i, : table.shape[0]] = 0.0
            strike[i, : table.shape[0], : table.shape[1]] = table
        return strike

    def start(self) -> Live:
        """The battle before round 1: each line's weight at no casualties."""
        weights = np.array([line.weight for line in self.battle.attackers])
        count = len(weights)
        return Live(weights.reshape(1, count, 1), np.arange(count), np.zeros(count, int), 0)

    def round(self, live: Live, *, support: tuple[float, ...] = NO_SUPPORT) -> RoundEnd:
        """One round from the ``live`` cells (see the module's note)."""
        mass, n_d = live.mass, self.n_d
        rows, count, columns = mass.shape
        captured = np.zeros((rows, count))
        if self.strike is not None:
            at = np.minimum(live.lost[None, :] + np.arange(rows)[:, None], self.longest)
            mass, struck = _fold_right(mass, self.strike[live.lines[None, :], at], n_d - live.first)
            captured += struck
            columns = mass.shape[2]
        cut = min(KERNEL_PRUNE / float(mass.max()), CUT_AT_MOST)
        c0 = live.first - live.first % BLOCK
        n_blocks = -(-(live.first - c0 + columns) // BLOCK)
        height = rows + BLOCK
        # Step 2: each column's own block moves its mass down; the casualties fire.
        here = self.scratch.zeros("here", (count, height + BLOCK, n_blocks * BLOCK))
        place = slice(live.first - c0, live.first - c0 + columns)
        here[:, BLOCK : BLOCK + rows, place] = mass.transpose(1, 0, 2)
        s0, s1, s2 = here.strides
        shifted = as_strided(
            here[:, BLOCK:, :],
            shape=(count, height, n_blocks, BLOCK + 1, BLOCK),
            strides=(s0, s1, BLOCK * s2, -s1, s2),
        )
        head = self.blocks.head[c0 : c0 + n_blocks * BLOCK].reshape(n_blocks, BLOCK, BLOCK + 1)
        items = [self.lines[i] for i in live.lines]
        spans = [
            min(height, len(item.hits) - lo) for item, lo in zip(items, live.lost, strict=True)
        ]
        reach = np.zeros(self.width, dtype=bool)
        for item, lo, n in zip(items, live.lost, spans, strict=True):
            reach |= item.hits[lo : lo + n].max(axis=0) > cut
        j0, j1 = span_of(reach)
        wide = self.span + (j1 - j0) - 1
        fire = self._fire_of_casualties(shifted, head.transpose(0, 2, 1), live)
        strips = self.scratch.empty("strips", (count, height, n_blocks, wide))
        for i, (item, lo, n) in enumerate(zip(items, live.lost, spans, strict=True)):
            np.matmul(fire[i, :n], item.fire[lo : lo + n, :, j0 : j0 + wide], out=strips[i, :n])
            strips[i, n:] = 0.0
        # Step 3: each block's common rest moves its mass further down.
        return self._land(live, strips, fire, captured, c0, c0 + j0, cut, support)

    def _fire_of_casualties(self, shifted: Chances, head: Chances, live: Live) -> Chances:
        """Step 2: ``shifted[i, h, k, x, e]`` is line ``i``'s mass in row ``h - x`` at
        column ``k * BLOCK + e``; times ``head[k, x, e]``, its chance of ``x`` casualties
        from the block's own dice, it is the mass moved to row ``h``, and its products with
        :attr:`psi` the fire of those casualties. A few lines at a time
        (:data:`MOVED_AT_MOST`): every row with the commonest window at once, then the rows
        near a change of unit kind with their own."""
        count, height, n_blocks = shifted.shape[:3]
        size = (BLOCK + 1) * BLOCK
        rows = np.minimum(live.lost[:, None] + np.arange(height)[None, :], self.window.shape[1] - 1)
        window = self.window[live.lines[:, None], rows]
        commonest = int(np.bincount(window.ravel()).argmax())
        common, other = self.psi[commonest], window != commonest
        fire = self.scratch.empty("fire", (count, height, n_blocks, self.span))
        step = max(1, ITEM_AT_MOST // (size * self.span))
        per = max(1, MOVED_AT_MOST // (height * n_blocks * size))
        for i0 in range(0, count, per):
            part = slice(i0, min(count, i0 + per))
            moved = self.scratch.empty(
                "moved", (part.stop - i0, height, n_blocks, BLOCK + 1, BLOCK)
            )
            np.multiply(shifted[part], head, out=moved)
            flat = moved.reshape(-1, size)
            out = fire[part].reshape(-1, self.span)
            whole = flat.shape[0] // step * step
            if whole:
                np.matmul(
                    flat[:whole].reshape(-1, step, size),
                    common,
                    out=out[:whole].reshape(-1, step, self.span),
                )
            if whole < flat.shape[0]:
                np.matmul(flat[whole:], common, out=out[whole:])
            odd = other[part]
            if odd.any():
                chosen = moved.reshape(-1, height, n_blocks, size)[odd]
                fire[part][odd] = np.matmul(chosen, self.psi[window[part][odd]])
        return fire

    def _land(
        self,
        live: Live,
        strips: Chances,
        fire: Chances,
        captured: Chances,
        c0: int,
        left: int,
        cut: float,
        support: tuple[float, ...],
    ) -> RoundEnd:
        """Step 3: ``strips[i, h, k, e]`` is block ``k``'s mass of line ``i`` after step 2,
        ``h`` rows down, at column ``left + k * BLOCK + e``."""
        n_d = self.n_d
        count, height, n_blocks, wide = strips.shape
        live_columns = np.clip(n_d - left - np.arange(n_blocks) * BLOCK, 0, wide)
        has_dead = live_columns < wide
        for block in np.flatnonzero(has_dead):
            first_dead = live_columns[block]
            strips[:, :, block, first_dead] = strips[:, :, block, first_dead:].sum(axis=2)
        reaches = self.sizes[live.lines] - live.lost
        depth = int(reaches.max())
        tails = self.blocks.tail[c0 // BLOCK : c0 // BLOCK + n_blocks]
        g1 = span_of(any_of(tails > cut, 0))[1]
        kernels = np.where(tails[:, :g1] > cut, tails[:, :g1], 0.0)
        down = _toeplitz_band(kernels, depth, height)
        # What the block's rest takes past a line's end, row by row: the attacker destroyed.
        past = np.concatenate(
            [np.cumsum(kernels[:, ::-1], axis=1)[:, ::-1], np.zeros((n_blocks, 1))], axis=1
        )
        lost = past[:, np.clip(reaches[:, None] - np.arange(height)[None, :], 0, g1)]
        swept = np.matmul(lost.transpose(1, 0, 2)[:, :, None, :], strips.transpose(0, 2, 1, 3))
        # Summed by line and the defender's casualties (``n_d``: her dead columns, a draw).
        columns_of = left + np.arange(n_blocks)[:, None] * BLOCK + np.arange(wide)[None, :]
        within = (np.arange(wide)[None, :] <= live_columns[:, None]).ravel()
        spots = np.arange(count)[:, None] * (n_d + 1) + np.minimum(columns_of, n_d).ravel()[within]
        weights = swept.reshape(count, n_blocks * wide)[:, within]
        held = np.asarray(np.bincount(spots.ravel(), weights.ravel(), count * (n_d + 1)), float)
        held = held.reshape(count, n_d + 1)
        # Rows that can matter in each block: fire's totals bound the strips' entries.
        heavy = fire.sum(axis=3).max(axis=0) * kernels.max(axis=1) > KERNEL_PRUNE
        width = max(0, min(n_blocks * BLOCK + wide - 1, n_d - left))
        landed = np.zeros((depth, count, width))
        landed_dead = np.zeros((depth, count))
        for k in range(n_blocks):
            keep = int(live_columns[k])
            used = keep + int(has_dead[k])
            h0, h1 = span_of(heavy[:, k])
            # Rows it lands in: the kernel's own span of hits from the rows it leaves.
            k0, k1 = span_of(kernels[k] > 0.0)
            r0, r1 = h0 + k0, min(depth, h1 + k1 - 1)
            if not used or not h1 or not k1 or r1 <= r0:
                continue
            source = strips[:, h0:h1, k, :used]
            spread = self.scratch.empty("spread", (r1 - r0, count, used))
            chunk = max(1, ITEM_AT_MOST // ((r1 - r0) * (h1 - h0)))
            for e in range(0, used, chunk):
                part = slice(e, e + chunk)
                np.matmul(
                    down[k, r0:r1, h0:h1],
                    source[..., part],
                    out=spread[..., part].transpose(1, 0, 2),
                )
            at = k * BLOCK
            landed[r0:r1, :, at : at + keep] += spread[:, :, :keep]
            if has_dead[k]:
                landed_dead[r0:r1] += spread[:, :, keep]
        alive = np.arange(depth)[:, None] < reaches[None, :]
        landed *= alive[:, :, None]
        landed_dead *= alive
        landed_dead[: captured.shape[0]] += captured
        out = Live(landed, live.lines, live.lost, left)
        if len(support) > 1:
            return self._support(out, landed_dead, held, support)
        return RoundEnd(out, landed_dead, held)

    def _support(
        self, live: Live, captured: Chances, held: Chances, support: tuple[float, ...]
    ) -> RoundEnd:
        """Round 1's support shots: their hits join the attacker's main roll, which a line
        AA fire left empty does not make (nor do they, as in
        :meth:`~adjudicator.odds.rounds.RoundChain.first`)."""
        n_d = self.n_d
        empty = self.sizes[live.lines] == 0
        shots = np.where(empty[:, None], 0.0, np.asarray(support)[None, :])
        shots[:, 0] += empty
        mass, struck = _fold_right(live.mass, shots[None, :, :], n_d - live.first)
        spread, dead = _fold_right(held[:, :n_d], shots, n_d)
        held = np.concatenate([spread, (held[:, n_d] + dead)[:, None]], axis=1)
        return RoundEnd(Live(mass, live.lines, live.lost, live.first), captured + struck, held)
