"""The Axis economic victory, "Magic 84", as the IAAPA counts it.

IAAPA Rules Clarifications, MAGIC 84: "The Magic 84 count is performed immediately after the
United States' turn. If after the United States' turn the total combined Axis IPC Count is
84 or higher the game is over."

The IPC count is the income value of the territories a power controls (the "$32" of a turn's
"UK 30/$32"), not the IPCs in hand. The count is taken only at the end of the US turn (the
end of a game round): an Axis count of 84 reached after Germany's or Japan's turn and lost
again before the US turn ends does not end the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from adjudicator.powers import Alliance, Power

MAGIC_NUMBER = 84
"""The combined Axis IPC count that ends the game."""

COUNTED_AFTER = Power.USA
"""The power after whose turn the count is performed."""


@dataclass(frozen=True)
class Magic84:
    """The Magic 84 check after one power's turn.

    ``axis_count`` is the combined Axis IPC count when the check is performed, ``None``
    after any other power's turn (no count is taken).
    """

    after: Power
    axis_count: int | None

    @property
    def performed(self) -> bool:
        """Whether the count is performed after this turn (only after the US turn)."""
        return self.axis_count is not None

    @property
    def game_over(self) -> bool:
        """True when the count is performed and reaches 84: the Axis win the game."""
        return self.axis_count is not None and self.axis_count >= MAGIC_NUMBER


def magic_84(after: Power, ipc_counts: Mapping[Power, int]) -> Magic84:
    """The Magic 84 check after ``after``'s turn, with each power's IPC count.

    ``ipc_counts`` must give both Axis powers (a power that has lost everything counts 0);
    Allied entries are ignored. A negative or non-integer count raises ``ValueError``.
    """
    for power, count in ipc_counts.items():
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(
                f"{power.name}'s IPC count must be a whole number 0 or more, got {count!r}"
            )
    axis = [p for p in Power if p.alliance is Alliance.AXIS]
    missing = [p.name for p in axis if p not in ipc_counts]
    if missing:
        raise ValueError(
            f"the Magic 84 count needs every Axis power's IPC count; missing {', '.join(missing)}"
        )
    if after is not COUNTED_AFTER:
        return Magic84(after, None)
    return Magic84(after, sum(ipc_counts[p] for p in axis))
