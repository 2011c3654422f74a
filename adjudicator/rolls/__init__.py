"""The dice server's rolls as rules: what each roll throws, and how its dice are read.

What a roll throws (:mod:`.battle`, :mod:`.special`) and how a battle roll's dice are read
(:mod:`.replay`, on top of :mod:`adjudicator.battle`) live together here, so they cannot
disagree; the dice server only checks the request and supplies the dice (``draw``). The
entry data a roll records is the ledger's format (DESIGN.md): the same request and dice
always give the same data.
"""

from __future__ import annotations

from adjudicator.rolls.battle import (
    ATTACKER_TECH,
    BATTLE_UNITS,
    COMBAT_VALUES,
    DEFENDER_TECH,
    OPTIONS,
    SIDES,
    BattleRoll,
    Draw,
    Group,
    Listing,
    RollHeader,
    RollRuleError,
    layout,
)
from adjudicator.rolls.replay import (
    BATTLE_ROLL_KINDS,
    EntryError,
    RollReading,
    battle_document,
    read_roll,
    replay,
)
from adjudicator.rolls.special import (
    BREAKTHROUGH,
    ROCKET_SHOTS,
    BombingRoll,
    RocketRoll,
    TechRoll,
)

__all__ = [
    "ATTACKER_TECH",
    "BATTLE_ROLL_KINDS",
    "BATTLE_UNITS",
    "BREAKTHROUGH",
    "COMBAT_VALUES",
    "DEFENDER_TECH",
    "OPTIONS",
    "ROCKET_SHOTS",
    "SIDES",
    "BattleRoll",
    "BombingRoll",
    "Draw",
    "EntryError",
    "Group",
    "Listing",
    "RocketRoll",
    "RollHeader",
    "RollReading",
    "RollRuleError",
    "TechRoll",
    "battle_document",
    "layout",
    "read_roll",
    "replay",
]
