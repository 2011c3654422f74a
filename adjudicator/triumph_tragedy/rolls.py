"""The turn-order roll of the Year Start Phase, and the table of every Triumph & Tragedy
roll kind the dice server offers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Self

from adjudicator.triumph_tragedy.combat import (
    TT_COMBAT_KIND,
    TTCombatRound,
    describe_tt_combat,
)
from adjudicator.triumph_tragedy.units import (
    TT_PLAYER_FACTIONS,
    TTDraw,
    tt_check_fields,
    tt_choice,
    tt_comment,
    tt_entry,
    tt_throw,
    tt_year,
)

TT_TURN_ORDER_KIND = "tt-turn-order"


@dataclass(frozen=True)
class TTTurnOrderRoll:
    """The Year Start Phase's last step: "Determine Turn Order: roll 1d6 and set turn order
    as per arrows on map board". One die. The arrows are printed on the map board, not in
    the rule text, so the entry records the die only: the players read the turn order off
    the board."""

    year: int
    faction: str
    """The Faction asking for the roll: Axis, West or USSR."""

    FIELDS = frozenset({"year", "faction", "comment"})

    @classmethod
    def from_request(cls, fields: Mapping[str, Any]) -> Self:
        """The turn-order roll asked for, or :class:`TTRollError` naming the field."""
        tt_check_fields(fields, cls.FIELDS)
        year = tt_year(fields)
        faction = tt_choice(fields, "faction", TT_PLAYER_FACTIONS)
        tt_comment(fields)
        return cls(year, faction)

    def record(self, by: str, draw: TTDraw) -> dict[str, Any]:
        """One die, in one group."""
        data = tt_entry(TT_TURN_ORDER_KIND, by)
        die = tt_throw(draw, 1)
        data.update(
            {
                "year": self.year,
                "faction": self.faction,
                "dice": die,
                "groups": [{"roll": "turn order", "dice": list(die)}],
                "die": die[0],
            }
        )
        return data


def describe_tt_turn_order(data: Mapping[str, Any]) -> list[str]:
    """The turn-order roll in words."""
    return [
        f"{data['year']}, Year Start Phase: {data['faction']} rolls 1d6 to determine the turn "
        "order.",
        f"The die is {data['die']}: set the turn order by the arrows on the map board for a "
        f"{data['die']}.",
    ]


TT_ROLL_KINDS: Mapping[str, type] = MappingProxyType(
    {
        TT_COMBAT_KIND: TTCombatRound,
        TT_TURN_ORDER_KIND: TTTurnOrderRoll,
    }
)
"""Every Triumph & Tragedy roll kind the dice server offers, by name."""

TT_DESCRIBE: Mapping[str, Callable[[Mapping[str, Any]], list[str]]] = MappingProxyType(
    {
        TT_COMBAT_KIND: describe_tt_combat,
        TT_TURN_ORDER_KIND: describe_tt_turn_order,
    }
)
"""How each kind's ledger entry reads in the mail."""
