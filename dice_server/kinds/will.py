"""Triumph of the Will's rolls (a game created with ``--system triumph-of-the-will``): a
whole battle or momentum combat (10.4-10.9), the air superiority roll (5.5), a rebellion
roll (5.12, 12.1) and an atomic attack's die (11.2), thrown and read by
:mod:`adjudicator.triumph_will`."""

from __future__ import annotations

from adjudicator.triumph_will import (
    WILL_DESCRIBE,
    WILL_SYSTEM,
    WillAirRoll,
    WillAtomicRoll,
    WillBattleRoll,
    WillRebellionRoll,
)
from dice_server.kinds.base import Data
from dice_server.kinds.systems import system_kind


def _battle_headline(data: Data) -> str:
    where = f" in {data['area']}" if data.get("area") else ""
    what = "momentum combat" if data.get("momentum") else "battle"
    return f"{data['attacker']} {what}{where}, turn {data['turn']}: {data['winner']} wins"


def _air_headline(data: Data) -> str:
    return f"Air superiority, turn {data['turn']}: {data['winner']}, {data['aircraft']} aircraft"


def _rebellion_headline(data: Data) -> str:
    result = "rebellion" if data["rebellion"] else "no rebellion"
    return f"Rebellion roll for {data['area']}, turn {data['turn']}: {result}"


def _atomic_headline(data: Data) -> str:
    target = f" on the {data['target']}" if data.get("target") else ""
    return f"{data['side']} atomic attack{target}, turn {data['turn']}: die {data['dice'][0]}"


BATTLE = system_kind(
    name="will-battle-roll",
    system=WILL_SYSTEM,
    title="Battle (Triumph of the Will 10.4-10.9)",
    page="will-battle",
    from_request=WillBattleRoll.from_request,
    headline=_battle_headline,
    describe=WILL_DESCRIBE["will-battle-roll"],
    example={
        "turn": 3,
        "side": "German",
        "area": "Ukraine",
        "boxes": [
            {"attacker": [{"unit": "panzer"}], "defender": [{"unit": "infantry"}], "air": 0},
            {"attacker": [{"unit": "infantry"}], "defender": [{"unit": "infantry"}], "air": 0},
        ],
    },
)
AIR = system_kind(
    name="will-air-roll",
    system=WILL_SYSTEM,
    title="Air superiority (Triumph of the Will 5.5)",
    page="will-air",
    from_request=WillAirRoll.from_request,
    headline=_air_headline,
    describe=WILL_DESCRIBE["will-air-roll"],
    example={"turn": 3, "side": "German", "german_hq": 2, "japanese_hq": 1},
)
REBELLION = system_kind(
    name="will-rebel-roll",
    system=WILL_SYSTEM,
    title="Rebellion (Triumph of the Will 5.12)",
    page="will-rebellion",
    from_request=WillRebellionRoll.from_request,
    headline=_rebellion_headline,
    describe=WILL_DESCRIBE["will-rebel-roll"],
    example={"turn": 3, "side": "Japanese", "area": "Poland", "adjacent_rebellions": 1},
)
ATOMIC = system_kind(
    name="will-atomic-roll",
    system=WILL_SYSTEM,
    title="Atomic attack (Triumph of the Will 11.2)",
    page="will-atomic",
    from_request=WillAtomicRoll.from_request,
    headline=_atomic_headline,
    describe=WILL_DESCRIBE["will-atomic-roll"],
    example={"turn": 9, "side": "Japanese", "target": "fleet", "area": "North Sea"},
)
KINDS = (BATTLE, AIR, REBELLION, ATOMIC)
