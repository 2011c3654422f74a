"""Who holds land when it changes hands in combat: capture or liberation.

Facts sheet section 8 [SPEC p.14,20,21; TA BattleTracker]: an ally's original territory taken
from the enemy returns to that ally when its capital is free (or is the capital being
liberated); otherwise the liberator holds it. IAAPA Rules Clarifications, Placement of New
Units: "if you liberate their capital you will not be allowed to place any new units in that
complex as it has now reverted back to your Ally's control": a liberated capital's owner gets
back its original territories its allies hold.

The rule is stated once, as pure functions of the position at the start of the turn (board and
capitals) and the owners as they stand when the land changes hands, for the two callers that
apply it: the turn played out (:meth:`adjudicator.turns.table.Table.capture`) and the
post-combat report (:func:`adjudicator.declarations.apply_post_combat`).
"""

from __future__ import annotations

from collections.abc import Mapping

from adjudicator.position.model import Position
from adjudicator.powers import Power


def new_owner(
    start: Position, owners: Mapping[str, Power | None], territory: str, power: Power
) -> Power:
    """Who holds land ``territory`` when ``power`` takes it, ``owners`` holding the board
    then: its original owner if that is an ally whose capital is free, or is ``territory``
    itself (liberation); else ``power``."""
    original = start.board.territories[territory].original_owner
    if original is None:
        return power
    owner = Power.from_triplea(original)
    if owner is power or owner.alliance is not power.alliance:
        return power
    capital = start.capital(owner)
    if capital == territory or owners.get(capital) is owner:
        return owner
    return power


def restored(start: Position, owners: Mapping[str, Power | None], ally: Power) -> list[str]:
    """The territories that go back to ``ally`` when its capital is liberated: its original
    territories its allies hold (``owners``)."""
    name = ally.triplea_name
    territories = start.board.territories
    return [
        territory
        for territory, owner in owners.items()
        if owner is not None
        and owner is not ally
        and owner.alliance is ally.alliance
        and territories[territory].original_owner == name
    ]
