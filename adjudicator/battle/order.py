"""Several battles in one turn: each must be finished before the next begins.

IAAPA Combat Resolution and Order of Battles: "If a turn involves multiple battles, each
battle may be resolved in whatever order the attacker wishes. However, once a battle begins
it must be resolved completely before the next battle can begin. Once the next battle begins
it is assumed that the previous battle has finished and any surviving attacking units are
retreating. If the attacking units cannot retreat, then the battle will need to be finished
and all subsequent battles rerolled."

A battle *begins* with its first rolled round: a battle without rounds (not yet rolled, or a
walk-in) closes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from adjudicator.battle.engine import with_outcome
from adjudicator.battle.findings import error, warning
from adjudicator.battle.result import BattleResult, Outcome
from adjudicator.diagnostics import Diagnostic, Rule


class Closure(Enum):
    """How a battle of the turn came to an end, or why it has not."""

    FINISHED = "finished"
    """It ended in its own rounds: a side was destroyed or the attacker retreated."""
    RETREATED = "retreated"
    """It still went on when the next battle began, so its attackers retreated."""
    MUST_FINISH = "must-finish"
    """It still went on when the next battle began and its attackers could not retreat: it
    must be finished, and every battle rolled after it re-rolled."""
    REROLL = "reroll"
    """Rolled after a battle that had to be finished first: void, to be re-rolled."""
    OPEN = "open"
    """The last battle begun, still going on: the attacker rolls on or retreats."""
    NOT_BEGUN = "not-begun"
    """No round rolled yet."""


@dataclass(frozen=True)
class TurnBattle:
    """A battle of the turn, in the order rolled, with the attacker's retreat declaration.

    IAAPA Retreats: "Land and naval units retreat during combat; therefore, if you wish to
    retreat these units you must declare the retreat location before you roll the next
    battle." ``retreat_declared`` records that such a note was sent.
    """

    result: BattleResult
    name: str = ""
    retreat_declared: bool = False


@dataclass(frozen=True)
class TurnCombat:
    """The turn's battles closed in order, with findings as ``(battle number, diagnostic)``
    pairs (battles numbered from 1 in the order rolled)."""

    battles: tuple[TurnBattle, ...]
    closures: tuple[Closure, ...]
    diagnostics: tuple[tuple[int, Diagnostic], ...]

    @property
    def rerolled(self) -> tuple[int, ...]:
        """Numbers of the battles to be re-rolled."""
        return tuple(i for i, c in enumerate(self.closures, 1) if c is Closure.REROLL)


def _label(number: int, battle: TurnBattle) -> str:
    return f"battle {number}" + (f" ({battle.name})" if battle.name else "")


def order_of_battles(battles: Sequence[TurnBattle]) -> TurnCombat:
    """Close each battle the way the next one's start closes it, and find the battles that
    must be finished and the ones to re-roll."""
    closed: list[TurnBattle] = []
    closures: list[Closure] = []
    notes: list[tuple[int, Diagnostic]] = []
    blocker: int | None = None
    for number, battle in enumerate(battles, 1):
        result = battle.result
        begun = bool(result.rounds)
        later = any(b.result.rounds for b in battles[number:])
        closure = Closure.NOT_BEGUN
        if blocker is not None:
            closure = Closure.REROLL if begun else Closure.NOT_BEGUN
        elif result.outcome is not Outcome.CONTINUES:
            closure = Closure.FINISHED
        elif begun and not later:
            closure = Closure.OPEN
        elif begun and result.retreat_allowed:
            closure = Closure.RETREATED
            battle = TurnBattle(
                with_outcome(result, Outcome.ATTACKER_RETREATS),
                battle.name,
                battle.retreat_declared,
            )
            stays = result.attacker.surface
            if stays and not battle.retreat_declared:
                message = (
                    f"{_label(number, battle)}: the next battle began, so its {stays} land or "
                    "naval attackers retreat, but no retreat location was declared before it: "
                    "the Minister of Law may void and re-roll the later battles"
                )
                notes.append((number, warning(None, Rule.RETREATS, message)))
        elif begun:
            closure = Closure.MUST_FINISH
            blocker = number
            message = (
                f"{_label(number, battle)} was not finished when the next battle began, and "
                "its attackers cannot retreat: finish it, then re-roll every battle rolled "
                "after it"
            )
            notes.append((number, error(None, Rule.ORDER_OF_BATTLES, message)))
        closures.append(closure)
        closed.append(battle)
    if blocker is not None:
        void = [n for n, c in enumerate(closures, 1) if c is Closure.REROLL]
        if void:
            message = (
                f"battle{'s' * (len(void) != 1)} {', '.join(map(str, void))} must be "
                f"re-rolled once battle {blocker} is finished"
            )
            notes.append((blocker, error(None, Rule.ORDER_OF_BATTLES, message)))
    return TurnCombat(tuple(closed), tuple(closures), tuple(notes))
