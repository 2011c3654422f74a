"""What the dice decided in each declared battle: the input a turn is played out with.

IAAPA Declaration and Battle Resolution Procedures: the attacker resolves each battle on the
dice server "according to the Milton Bradley 2nd Edition and, where applicable, Association
rules", and then writes "the results of combat" in the post-combat email. The engine reads the
dice itself (:func:`adjudicator.battle.resolve`, :func:`adjudicator.rolls.replay`); a
:class:`BattleOutcome` is that verdict reduced to what moves the board: who survives on each
side, how the battle ended, where retreating or withdrawing units go, and a bombing raid's
damage. Build one from a :class:`~adjudicator.battle.BattleResult` (:func:`outcome_of`), from
the battle JSON ``resolve_json`` prints (:func:`outcome_from_json`) or from a bombing raid's
roll entry (:func:`raid_outcome`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from adjudicator.battle.result import BattleResult, Outcome
from adjudicator.units import NO_UNITS, Units, UnitType


class VerdictError(ValueError):
    """A battle verdict that cannot be read (a missing key, a unit that is not a unit)."""


@dataclass(frozen=True)
class BattleOutcome:
    """One battle's verdict from the recorded dice.

    ``attacker_survivors``/``defender_survivors`` count the units that fought and are left
    (AA guns, complexes and support battleships never fight and are never listed: they stay
    where they are, or change hands with the territory). ``retreat_to`` is where the attacker's
    survivors go when the outcome is ``ATTACKER_RETREATS`` (or ``CONTINUES``: "Once the next
    battle begins it is assumed that the previous battle has finished and any surviving
    attacking units are retreating", IAAPA Combat Resolution and Order of Battles), and where
    attacking subs that withdrew go. ``defender_withdrawn`` are the defending subs that withdrew
    to ``withdraw_to`` (IAAPA Rules Clarifications, Sub Withdrawal). ``damage`` is set only for
    a strategic bombing raid: the IPCs the target's owner loses, the surviving bombers being
    ``attacker_survivors``.
    """

    attacker_survivors: Units
    defender_survivors: Units
    outcome: Outcome
    retreat_to: str | None = None
    attacker_withdrawn: Units = field(default=NO_UNITS)
    defender_withdrawn: Units = field(default=NO_UNITS)
    withdraw_to: str | None = None
    damage: int | None = None

    @property
    def is_raid(self) -> bool:
        """Whether this is a strategic bombing raid's verdict."""
        return self.damage is not None

    @property
    def retreating(self) -> bool:
        """Whether the attacker's survivors leave the battle (a retreat, or a battle still
        going on when the next one began)."""
        return self.outcome in (Outcome.ATTACKER_RETREATS, Outcome.CONTINUES)


def outcome_of(
    result: BattleResult, *, retreat_to: str | None = None, withdraw_to: str | None = None
) -> BattleOutcome:
    """The verdict of a battle the engine resolved; ``retreat_to``/``withdraw_to`` are the
    places the players named (the dice do not say them)."""
    return BattleOutcome(
        attacker_survivors=result.attacker,
        defender_survivors=result.defender,
        outcome=result.outcome,
        retreat_to=retreat_to,
        attacker_withdrawn=result.withdrawn(True),
        defender_withdrawn=result.withdrawn(False),
        withdraw_to=withdraw_to,
    )


def _units(doc: Mapping[str, Any], key: str, where: str) -> Units:
    value = doc.get(key, {})
    if not isinstance(value, Mapping):
        raise VerdictError(f"{where}.{key}: expected an object of unit counts, got {value!r}")
    try:
        return Units.of({UnitType(str(k).upper()): int(n) for k, n in value.items()})
    except ValueError as exc:
        raise VerdictError(f"{where}.{key}: {exc}") from None


def outcome_from_json(
    doc: Mapping[str, Any], *, retreat_to: str | None = None, withdraw_to: str | None = None
) -> BattleOutcome:
    """The verdict in one battle object of :func:`adjudicator.battle.resolve_json`'s output
    (or of a turn's ``battles`` list); VerdictError if it lacks ``survivors`` or ``outcome``."""
    survivors = doc.get("survivors")
    if not isinstance(survivors, Mapping):
        raise VerdictError("survivors: expected {attacker: {...}, defender: {...}}")
    try:
        outcome = Outcome(doc.get("outcome"))
    except ValueError:
        raise VerdictError(f"outcome: {doc.get('outcome')!r} is not a battle outcome") from None
    withdrawn_a, withdrawn_d = NO_UNITS, NO_UNITS
    for i, rnd in enumerate(doc.get("rounds", ())):
        gone = rnd.get("withdrawn", {}) if isinstance(rnd, Mapping) else {}
        withdrawn_a = withdrawn_a + _units(gone, "attacker", f"rounds[{i}].withdrawn")
        withdrawn_d = withdrawn_d + _units(gone, "defender", f"rounds[{i}].withdrawn")
    return BattleOutcome(
        attacker_survivors=_units(survivors, "attacker", "survivors"),
        defender_survivors=_units(survivors, "defender", "survivors"),
        outcome=outcome,
        retreat_to=retreat_to,
        attacker_withdrawn=withdrawn_a,
        defender_withdrawn=withdrawn_d,
        withdraw_to=withdraw_to,
    )


def raid_outcome(bombers: int, shot_down: int, damage: int) -> BattleOutcome:
    """The verdict of a strategic bombing raid: ``bombers`` flew, the AA shot ``shot_down``,
    the survivors' dice came to ``damage`` (a :class:`adjudicator.rolls.BombingRoll` entry's
    ``bombers``, ``shot_down`` and ``damage``; see :func:`raid_outcome_from_entry`)."""
    if min(bombers, shot_down, damage) < 0 or shot_down > bombers:
        raise VerdictError(
            f"a raid of {bombers} BMB with {shot_down} shot down and {damage} damage cannot be"
        )
    left = Units.of({UnitType.BMB: bombers - shot_down})
    return BattleOutcome(
        attacker_survivors=left,
        defender_survivors=NO_UNITS,
        outcome=Outcome.ATTACKER_WINS if left else Outcome.DEFENDER_WINS,
        damage=damage,
    )


def raid_outcome_from_entry(data: Mapping[str, Any]) -> BattleOutcome:
    """The verdict in a bombing raid roll's entry data (``bombers``, ``shot_down``,
    ``damage``, as :meth:`adjudicator.rolls.BombingRoll.record` writes them)."""
    try:
        return raid_outcome(int(data["bombers"]), int(data["shot_down"]), int(data["damage"]))
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, VerdictError):
            raise
        raise VerdictError(
            f"a bombing raid entry needs bombers, shot_down, damage: {exc}"
        ) from None
