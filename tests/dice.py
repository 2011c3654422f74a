"""Prepared dice for the rules engine's rolls: a roll's ``draw(n)`` handed exactly the dice a
test case works out by hand."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def fixed(values: list[int]) -> Callable[[int], list[int]]:
    """Exactly the prepared dice, in one draw (the roll must ask for all of them at once)."""

    def draw(n: int) -> list[int]:
        assert n == len(values), f"the roll asked for {n} dice, the case prepared {len(values)}"
        return list(values)

    return draw


class PreparedDice:
    """A ``draw`` handing out these dice in order over any number of calls (``calls``: how
    many each asked for); ``left`` must end empty."""

    def __init__(self, values: list[int]) -> None:
        self.left = list(values)
        self.calls: list[int] = []

    def __call__(self, n: int) -> list[int]:
        assert n <= len(self.left), f"the roll wants {n} more dice, the case has {self.left}"
        self.calls.append(n)
        out, self.left = self.left[:n], self.left[n:]
        return out


def thrown_in_order(roll: Any, values: list[int], by: str = "player@example.org") -> dict[str, Any]:
    """The entry data of ``roll`` thrown with exactly these dice: every one used, and recorded
    in the order thrown."""
    dice = PreparedDice(values)
    data: dict[str, Any] = roll.record(by, dice)
    assert dice.left == [], "the roll threw fewer dice than the case gives"
    assert data["dice"] == values
    return data
