"""Big World 1942's unit rules read from TripleA's game file, through the engine's TripleA
reader (:func:`~adjudicator.boards.triplea.load_triplea_units` and
:func:`~adjudicator.boards.triplea.load_triplea_properties`), into the JSON document the
package ships (``scripts/gen_big_world.py`` writes it; a test holds it equal to a fresh
reading of ``big_world_1942.xml``)."""

from __future__ import annotations

from typing import Any

from adjudicator.bigworld.units import TRIPLEA_UNIT_NAMES, BigWorldUnit
from adjudicator.boards.triplea import StrPath, load_triplea_properties, load_triplea_units
from adjudicator.units import Domain


def _flag(options: dict[str, str], name: str) -> bool:
    return options.get(name, "").strip().lower() == "true"


def _number(options: dict[str, str], name: str) -> int | None:
    value = options.get(name)
    return None if value is None else int(value)


def big_world_rules_document(path: StrPath) -> dict[str, Any]:
    """The ``big_world_1942.json`` document read from the game file at ``path``.

    A unit's attack and defence are ``None`` when the file gives it neither (the AA gun and
    the factory); its cost is its single-unit price in the ``production`` frontier."""
    read = load_triplea_units(path)
    properties = load_triplea_properties(path)
    units: dict[str, dict[str, Any]] = {}
    for unit in BigWorldUnit:
        name = TRIPLEA_UNIT_NAMES[unit]
        options = dict(read.options[name])
        if _flag(options, "isAir"):
            domain = Domain.AIR
        elif _flag(options, "isSea"):
            domain = Domain.SEA
        else:
            domain = Domain.LAND
        rolls = "attack" in options or "defense" in options
        units[unit.value] = {
            "domain": domain.value,
            "cost": read.cost(name),
            "movement": _number(options, "movement") or 0,
            "attack": (_number(options, "attack") or 0) if rolls else None,
            "defence": (_number(options, "defense") or 0) if rolls else None,
            "hit_points": _number(options, "hitPoints") or 1,
            "supports": _flag(options, "artillery"),
            "supportable": _flag(options, "artillerySupportable"),
            "destroyer": _flag(options, "isDestroyer"),
            "submarine": _flag(options, "isSub"),
            "bombards": _flag(options, "canBombard"),
            "anti_aircraft": _flag(options, "isAA"),
            "factory": _flag(options, "isFactory"),
            "transport_cost": _number(options, "transportCost"),
            "transport_capacity": _number(options, "transportCapacity") or 0,
            "carrier_cost": _number(options, "carrierCost"),
            "carrier_capacity": _number(options, "carrierCapacity") or 0,
        }
    return {
        "source": "TripleA big_world_1942.xml",
        "units": units,
        "options": {
            "two_hit_battleship": properties.get("Two hit battleship", "").lower() == "true",
            "heavy_bomber_dice": int(properties.get("Heavy Bomber Dice Rolls", "3")),
            "lhtr_heavy_bombers": properties.get("LHTR Heavy Bombers", "").lower() == "true",
            "super_sub_defence_bonus": int(properties.get("Super Sub Defence Bonus", "0")),
        },
    }
