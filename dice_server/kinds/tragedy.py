"""Triumph & Tragedy's rolls (a game created with ``--system triumph-and-tragedy``): a
combat round of one battle and the year-start turn-order die, thrown and read by
:mod:`adjudicator.triumph_tragedy`."""

from __future__ import annotations

from adjudicator.triumph_tragedy import (
    TT_DESCRIBE,
    TT_SYSTEM,
    TTCombatRound,
    TTTurnOrderRoll,
)
from dice_server.kinds.base import Data
from dice_server.kinds.systems import system_kind


def _round_headline(data: Data) -> str:
    lost = len(data.get("eliminated", []))
    return (
        f"{data['attacker']} v {data['defender']}: {data['battle']} battle in {data['area']}, "
        f"{data['season']} {data['year']}, round {data['round']} ({lost} eliminated)"
    )


def _order_headline(data: Data) -> str:
    return f"Turn order {data['year']}: die {data['dice'][0]}"


COMBAT = system_kind(
    name="tt-combat-round",
    system=TT_SYSTEM,
    title="Combat round (Triumph & Tragedy)",
    page="tt-combat",
    from_request=TTCombatRound.from_request,
    headline=_round_headline,
    describe=TT_DESCRIBE["tt-combat-round"],
    example={
        "year": 1939,
        "season": "Fall",
        "area": "North Sea",
        "battle": "sea",
        "round": 1,
        "attacker": "Axis",
        "defender": "West",
        "units": {
            "attacker": [
                {"unit": "Fleet", "cv": 3, "target": "N"},
                {"unit": "Submarine", "cv": 2, "target": "N"},
            ],
            "defender": [
                {"unit": "Carrier", "cv": 2, "target": "N"},
                {"unit": "Fleet", "cv": 4, "target": "N"},
                {"unit": "Convoy", "cv": 2},
            ],
        },
    },
)
TURN_ORDER = system_kind(
    name="tt-turn-order",
    system=TT_SYSTEM,
    title="Turn order (Triumph & Tragedy, year start)",
    page="tt-turn-order",
    from_request=TTTurnOrderRoll.from_request,
    headline=_order_headline,
    describe=TT_DESCRIBE["tt-turn-order"],
    example={"year": 1937, "faction": "Axis"},
)
KINDS = (COMBAT, TURN_ORDER)
