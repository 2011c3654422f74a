"""Fitting the dice thrown to the units that throw them (IAAPA Error Correction III).

"Since the IAAPA Dice Server lists the dice in the order that they were thrown the error
correction guidelines will take this into account. The die rolls will be counted from left
to right." A unit's dice are matched to its units left to right; dice beyond the units are
set aside ("take the correct number of dice"), units beyond the dice did not fire ("roll for
the missing units"). Either way the battle is re-rolled from the next round, which the
engine reports instead of using those rounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adjudicator.battle.findings import error
from adjudicator.diagnostics import Diagnostic, Rule

FACES = range(1, 7)
"""The faces of a battle die."""


@dataclass(frozen=True)
class DiceCheck:
    """The dice kept for a group of units, and what was wrong with the rest.

    ``used`` are the valid dice matched to units, left to right; ``missing`` counts units
    left without a valid die; ``extra`` counts dice beyond the units, which are not used.
    """

    used: tuple[int, ...]
    missing: int
    extra: int
    diagnostics: tuple[Diagnostic, ...]

    @property
    def fits(self) -> bool:
        """True when every unit has exactly one valid die."""
        return not (self.missing or self.extra)


def hits(dice: Sequence[int], value: int) -> int:
    """Dice at or below ``value``: "A hit is a die roll <= the unit's value"."""
    return sum(1 for d in dice if d <= value)


def next_round(number: int) -> str:
    """The re-roll instruction Error Correction III gives after a rolling error."""
    return f"then re-roll the battle from round {number + 1}"


def check_dice(
    number: int,
    what: str,
    dice: Sequence[int],
    expected: int,
    *,
    remedy: bool = True,
) -> DiceCheck:
    """Match ``dice`` (as thrown) to ``expected`` dice for ``what`` in round ``number``.

    Only the first ``expected`` dice belong to units; a die outside 1..6 among them leaves
    its unit without a die. With ``remedy`` the messages give the Too many / Too few units
    remedies (re-roll from the next round); callers with their own rule word their own.
    """
    head, tail = dice[:expected], dice[expected:]
    used = tuple(d for d in head if d in FACES)
    bad = [d for d in dice if d not in FACES]
    missing = expected - len(used)
    notes: list[Diagnostic] = []
    if bad:
        notes.append(
            error(
                number,
                Rule.DICE_FACES,
                (
                    f"{what}: {', '.join(map(str, bad))} "
                    f"{'is not a die' if len(bad) == 1 else 'are not dice'} (1 to 6): not used"
                ),
            )
        )
    then = f"; {next_round(number)}" if remedy else ""
    if tail:
        notes.append(
            error(
                number,
                Rule.TOO_MANY_UNITS,
                (
                    f"{what}: {len(dice)} dice for {expected}: the first {expected} used, the "
                    f"last {len(tail)} set aside{then}"
                ),
            )
        )
    if missing:
        notes.append(
            error(
                number,
                Rule.TOO_FEW_UNITS,
                (
                    f"{what}: {len(used)} valid {'die' if len(used) == 1 else 'dice'} "
                    f"for {expected}: roll {missing} more for the "
                    f"missing unit{'s' * (missing != 1)}{then}"
                ),
            )
        )
    return DiceCheck(used, missing, len(tail), tuple(notes))
