"""A battle roll's dice where they lie: each labelled group of an entry with the position of
every die in the entry's ``dice`` (IAAPA Error Correction III: "Since the IAAPA Dice Server
lists the dice in the order that they were thrown ... The die rolls will be counted from left
to right"), and the entries of a battle taken round by round.

A round is one entry, or entries that belong together: a ``subs-first`` entry and the main
roll after it (the attacker "MAY ... roll for the sub first"), and an entry throwing only one
side followed by one throwing only the other (the roller's "defenders only" mode, or an
attacker rolling alone). As in :mod:`adjudicator.rolls.replay`, the round numbers entered
are not read: "the time stamped on the battle round by the IAAPA Dice Server is the order in
which the rounds are considered to have been rolled".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.rulings.model import Die

AA, BOMBARD, FIRST_STRIKE, MAIN = "aa", "bombard", "first-strike", "main"
ATTACKER, DEFENDER = "attacker", "defender"


@dataclass(frozen=True)
class Thrown:
    """One die: where it lies and what it shows."""

    die: Die
    value: int


@dataclass(frozen=True)
class GroupDice:
    """One labelled group of an entry: who threw, what for, and its dice in order."""

    side: str
    unit: str
    fire: str
    """``aa``, ``bombard`` (support shots), ``first-strike`` or ``main``."""
    count: int
    dice: tuple[Thrown, ...]
    target: str = ""
    """The aircraft type AA dice were thrown at."""

    @property
    def per_unit(self) -> int:
        """Dice each listed unit threw (3 for a heavy bomber)."""
        return max(1, len(self.dice) // self.count) if self.count else 1


@dataclass(frozen=True)
class RollDice:
    """A battle roll entry read die by die."""

    seq: int
    data: Mapping[str, Any]
    groups: tuple[GroupDice, ...]

    @property
    def options(self) -> frozenset[str]:
        raw = self.data.get("options", [])
        if not isinstance(raw, list):
            return frozenset()
        return frozenset(o for o in raw if isinstance(o, str))

    @property
    def subs_first(self) -> bool:
        return "subs-first" in self.options

    @property
    def sides(self) -> frozenset[str]:
        """The sides whose main roll (or first strike) the entry throws."""
        return frozenset(g.side for g in self.groups if g.fire in (MAIN, FIRST_STRIKE))

    @property
    def dice(self) -> tuple[Die, ...]:
        return tuple(t.die for g in self.groups for t in g.dice)

    def of(self, fire: str, side: str | None = None) -> tuple[GroupDice, ...]:
        return tuple(g for g in self.groups if g.fire == fire and (side is None or g.side == side))


class NotADiceEntry(ValueError):
    """An entry whose groups do not add up to its dice: it cannot be read die by die."""


def read_dice(body: Mapping[str, Any]) -> RollDice:
    """A battle roll entry's groups with each die's position in the entry's ``dice``."""
    seq = int(body["seq"])
    data = body["data"]
    groups_raw = data.get("groups")
    dice = data.get("dice")
    if not isinstance(groups_raw, list) or not isinstance(dice, list):
        raise NotADiceEntry(f"entry #{seq} holds no groups of dice")
    subs_first = "subs-first" in (data.get("options") or [])
    groups = []
    at = 0
    for raw in groups_raw:
        values = raw.get("dice") if isinstance(raw, Mapping) else None
        if not isinstance(values, list):
            raise NotADiceEntry(f"entry #{seq}: a group without dice")
        unit = str(raw.get("unit", ""))
        if unit == "AA":
            fire = AA
        elif raw.get("fire") == "bombard":
            fire = BOMBARD
        elif subs_first:
            fire = FIRST_STRIKE
        else:
            fire = MAIN
        thrown = tuple(Thrown((seq, at + i), int(v)) for i, v in enumerate(values))
        at += len(values)
        side = str(raw.get("side", DEFENDER if fire == AA else ATTACKER))
        count = int(raw.get("count", len(values)))
        groups.append(GroupDice(side, unit, fire, count, thrown, str(raw.get("target", ""))))
    if at != len(dice) or [t.value for g in groups for t in g.dice] != list(dice):
        raise NotADiceEntry(f"entry #{seq}: its groups do not add up to its dice")
    return RollDice(seq, data, tuple(groups))


def take_round(rolls: Sequence[RollDice], start: int) -> list[RollDice]:
    """The entries of the round beginning at ``rolls[start]``: a first strike with the main
    roll after it, and an entry throwing one side with the next throwing only the other."""
    taken = [rolls[start]]
    nxt = start + 1
    if rolls[start].subs_first and nxt < len(rolls) and not rolls[nxt].subs_first:
        taken.append(rolls[nxt])
        nxt += 1
    main_sides = main_sides_of(taken)
    if len(main_sides) == 1 and nxt < len(rolls):
        following = rolls[nxt]
        theirs = main_sides_of([following])
        if theirs and not theirs & main_sides and not following.subs_first:
            taken.append(following)
    return taken


def main_sides_of(rolls: Sequence[RollDice]) -> frozenset[str]:
    """The sides whose main roll these entries throw."""
    return frozenset(g.side for r in rolls for g in r.groups if g.fire == MAIN)
