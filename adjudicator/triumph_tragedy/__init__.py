"""The dice of "Triumph & Tragedy" (GMT Games), the three-player game of the Axis, the West
and the USSR from 1936 to 1945: what each roll throws and how its dice read.

Pure, like the rest of :mod:`adjudicator`: the dice come from ``draw(n)``, the dice server's
next ``n`` six-sided dice in thrown order. Each roll kind is a frozen dataclass with
``from_request`` (a player's JSON request, checked field by field, or :class:`TTRollError`
naming the JSON path of the bad field) and ``record`` (the ledger entry's data: ``"dice"``
every die in thrown order, ``"groups"`` those dice in order), and a ``describe_tt_*``
function giving the entry in words for the mail:

* ``"tt-combat-round"``, :class:`TTCombatRound`: one combat round of one land or sea battle
  (the summary's "Combat" section), fired unit by unit in the order of the Unit Table
  (:data:`TT_UNIT_TABLE`, transcribed from the published game: the summary names the table
  but does not print it);
* ``"tt-turn-order"``, :class:`TTTurnOrderRoll`: the Year Start Phase's "Determine Turn
  Order: roll 1d6"; the map board's arrows are not in the text, so only the die is recorded.

The rule text is ``triumph-and-tragedy-1936-summary.md`` in ../shared/rules.
"""

from __future__ import annotations

from adjudicator.triumph_tragedy.combat import (
    TT_BATTLES,
    TT_COMBAT_KIND,
    TTCombatRound,
    TTCombatUnit,
    describe_tt_combat,
)
from adjudicator.triumph_tragedy.rolls import (
    TT_DESCRIBE,
    TT_ROLL_KINDS,
    TT_TURN_ORDER_KIND,
    TTTurnOrderRoll,
    describe_tt_turn_order,
)
from adjudicator.triumph_tragedy.units import (
    TT_CLASSES,
    TT_FACTIONS,
    TT_PLAYER_FACTIONS,
    TT_SEASONS,
    TT_SYSTEM,
    TT_UNIT_TABLE,
    TT_UNITS,
    TTRollError,
    TTUnitType,
    tt_unit_type,
)

__all__ = [
    "TT_BATTLES",
    "TT_CLASSES",
    "TT_COMBAT_KIND",
    "TT_DESCRIBE",
    "TT_FACTIONS",
    "TT_PLAYER_FACTIONS",
    "TT_ROLL_KINDS",
    "TT_SEASONS",
    "TT_SYSTEM",
    "TT_TURN_ORDER_KIND",
    "TT_UNITS",
    "TT_UNIT_TABLE",
    "TTCombatRound",
    "TTCombatUnit",
    "TTRollError",
    "TTTurnOrderRoll",
    "TTUnitType",
    "describe_tt_combat",
    "describe_tt_turn_order",
    "tt_unit_type",
]
