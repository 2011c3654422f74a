"""The dice of "Triumph of the Will" (Compass Games), a two-player strategic wargame of
the German player against the Japanese player: what each roll throws and how its dice read.

Pure, like the rest of :mod:`adjudicator`: the dice come from ``draw(n)``, the dice server's
next ``n`` six-sided dice in thrown order. Each roll kind is a frozen dataclass with
``from_request`` (a player's JSON request, checked field by field, or
:class:`WillRollError`) and ``record`` (the ledger entry's data: ``"dice"`` every die in
thrown order, ``"groups"`` those dice in order with each die's modifiers and result), and a
``describe_will_*`` function giving the entry in words for the mail:

* ``"will-battle-roll"``, :class:`WillBattleRoll`: a whole battle (10.4-10.8) or tank/panzer
  momentum combat (10.9);
* ``"will-air-roll"``, :class:`WillAirRoll`: the Air Superiority Phase (5.5);
* ``"will-rebel-roll"``, :class:`WillRebellionRoll`: one area's rebellion roll (5.12);
* ``"will-atomic-roll"``, :class:`WillAtomicRoll`: an atomic attack's die (11.2); the rule
  text does not print the mapsheet's Atomic Attack Table, so only "one through five" (a
  blast marker) is read.
"""

from __future__ import annotations

from adjudicator.triumph_will.battle import (
    WillBattleBox,
    WillBattleRoll,
    WillBattleUnit,
    WillUnit,
    describe_will_battle,
)
from adjudicator.triumph_will.common import WILL_PLAYERS, WILL_SYSTEM, WillRollError
from adjudicator.triumph_will.rolls import (
    WILL_DESCRIBE,
    WILL_ROLL_KINDS,
    WillAirRoll,
    WillAtomicRoll,
    WillRebellionRoll,
    describe_will_air,
    describe_will_atomic,
    describe_will_rebellion,
)

__all__ = [
    "WILL_DESCRIBE",
    "WILL_PLAYERS",
    "WILL_ROLL_KINDS",
    "WILL_SYSTEM",
    "WillAirRoll",
    "WillAtomicRoll",
    "WillBattleBox",
    "WillBattleRoll",
    "WillBattleUnit",
    "WillRebellionRoll",
    "WillRollError",
    "WillUnit",
    "describe_will_air",
    "describe_will_atomic",
    "describe_will_battle",
    "describe_will_rebellion",
]
