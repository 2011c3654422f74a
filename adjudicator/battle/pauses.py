"""When the attacker MUST stop for the defender's casualty choice.

IAAPA Default Orders of Loss, exceptions: "If a naval battle has a defending SUB, AC loaded
with aircraft, or loaded TRNs and any of these units can survive the particular round of
battle, the attacker MUST pause and ask the defender to identify the casualties prior to
rolling the next round. If the defending SUB survives then the defender will indicate the
sea zone to which it will withdraw. If a land battle has a defending BMB, and it can survive
the particular round of battle, the attacker MUST pause".

"Can survive" is read against the round's actual attacking hits, whatever order of loss is
standing: the pause is owed when *some* lawful allocation of those hits (first strike, main
roll and support shots together; submarine hits never on aircraft) keeps one such unit.
A round without hits has no casualties to identify, so it pauses only for a surviving sub's
withdrawal, and only while attackers remain to withdraw from.
"""

from __future__ import annotations

from adjudicator.battle.casualties import can_survive
from adjudicator.battle.result import Pause, PauseReason
from adjudicator.units import Units, UnitType

U = UnitType


def loaded_carriers(defender: Units, carrier_fighters: int) -> int:
    """Carriers with a fighter aboard, counting each fighter on its own carrier while the
    carriers last (the reading that owes the defender the most pauses: who sits where is
    not in the battle's record)."""
    return min(carrier_fighters, defender.count(U.AC))


def detect_pause(
    defender: Units,
    *,
    land: bool,
    carrier_fighters: int,
    loaded_transports: int,
    restricted: int,
    unrestricted: int,
    attackers_left: bool,
    answered: bool,
) -> Pause | None:
    """The pause owed after a round, or ``None``.

    ``defender`` is the defender's units at the start of the round (before the first
    strike), ``restricted``/``unrestricted`` every attacking hit of the round,
    ``attackers_left`` whether attackers remain after it, ``answered`` whether the
    defender's casualty choice for the round is recorded.
    """
    candidates: list[tuple[PauseReason, UnitType]] = []
    if land:
        candidates.append((PauseReason.BOMBER, U.BMB))
    else:
        candidates.append((PauseReason.SUB, U.SUB))
        if loaded_carriers(defender, carrier_fighters):
            candidates.append((PauseReason.LOADED_CARRIER, U.AC))
        if loaded_transports and defender.count(U.TRN):
            candidates.append((PauseReason.LOADED_TRANSPORT, U.TRN))
    total = restricted + unrestricted
    reasons = tuple(
        reason
        for reason, unit in candidates
        if can_survive(defender, unit, restricted, unrestricted)
        and (total > 0 or (reason is PauseReason.SUB and attackers_left))
    )
    if not reasons:
        return None
    return Pause(reasons, total, answered)
