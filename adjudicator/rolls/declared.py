"""A battle roll weighed against the battle it belongs to: the units it rolled against the
units that should be rolling (the declaration in the first round, the survivors after it),
and the order of loss a turn or special order sets for the battle.

IAAPA Error Correction III, Rolling Errors: "If a player incorrectly enters too few units,
simply roll for the missing units and then re-roll the remainder of the battle beginning
with the next round." "If a player incorrectly enters too many units, for any given unit
type, simply start with the first listed die roll and sequentially, from left to right, take
the correct number of dice." "If a player enters the wrong type of unit then its roll will
be ignored and the correct unit will be rolled for."
"""

from __future__ import annotations

from collections.abc import Mapping

from adjudicator.boards import classic
from adjudicator.diagnostics import Diagnostic, Rule, Severity
from adjudicator.notation import Turn, parse

REMEDIES = {
    Rule.WRONG_UNITS: '"if a player enters the wrong type of unit then its roll will be ignored"',
    Rule.TOO_MANY_UNITS: "take the correct number of dice from the left",
    Rule.TOO_FEW_UNITS: "roll for the missing units and then re-roll the remainder of the battle",
}


def rolling_errors(
    side: str, rolled: Mapping[str, int], expected: Mapping[str, int], what: str
) -> list[Diagnostic]:
    """An error for each unit type ``side`` rolled in another number than ``expected``
    (``what`` names where the expected units come from, for the message)."""
    found = []
    for unit in sorted(set(rolled) | set(expected)):
        have, want = rolled.get(unit, 0), expected.get(unit, 0)
        if have == want:
            continue
        if want == 0:
            rule = Rule.WRONG_UNITS
        elif have > want:
            rule = Rule.TOO_MANY_UNITS
        else:
            rule = Rule.TOO_FEW_UNITS
        message = f"{side}: {have} {unit} rolled, {want} in {what}: {REMEDIES[rule]}"
        found.append(Diagnostic(Severity.ERROR, rule, message, code=rule.name.lower()))
    return found


def _waters(territory: str) -> str:
    """``"sea"`` for a battle in a sea zone, else ``"land"``."""
    found = classic().territories.get(territory)
    if found is not None:
        return "sea" if found.is_sea else "land"
    return "sea" if "sea zone" in territory.lower() else "land"


def order_of_loss_in(text: str, number: int, territory: str, read: Turn | None = None) -> list[str]:
    """The order of loss an email or note sets for battle ``number`` (named by number,
    territory, or for every battle), as unit names lost first; a count written for a step
    ("1 INF, FTR, INF") keeps the unit's first place only. IAAPA Rules Clarifications,
    Orders of Loss: "A player may designate any order of loss that he desires for his
    casualties." The last order that applies stands. ``read``: ``parse(text)``, when the
    caller has it."""
    order: list[str] = []
    for special in (read if read is not None else parse(text)).orders_of_loss:
        scoped = special.number is not None or special.territory is not None
        if scoped and special.number != number and special.territory != territory:
            continue
        if special.waters is not None and special.waters != _waters(territory):
            continue
        order = []
        for step in special.order:
            if step.unit.value not in order:
                order.append(step.unit.value)
    return order
