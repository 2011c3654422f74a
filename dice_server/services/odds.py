"""The odds calculator as a service (issue 18, point 2): the exact chances of a battle before
it is rolled, for anyone logged in, from the JSON API and the calculator page alike.

The rules engine (:mod:`adjudicator.odds`) follows every outcome of every round, so its cost
grows about as the fourth power of the units in play: a member could otherwise ask for a
battle that keeps a worker busy for minutes. A request is therefore bounded before the engine
sees it, by the units a side brings (every unit listed counts, AA guns and complexes too):

* :data:`MAX_LAND_UNITS` (30) a side in a land battle. The slowest 30-a-side battles timed
  on the server (evenly matched: 15 ARM and 15 FTR against 29 INF and an AA gun) take 0.6 s;
  35 a side took 1.0 s, 40 a side 2.2 s and 60 a side over 5 s.
* :data:`MAX_SEA_UNITS` (20) a side in a sea battle, where carriers, fighters, submarines
  and transports make the slowest battles about twice as slow as on land: 0.45 s at 20 a
  side (10 SUB and 10 FTR against 6 AC, 6 FTR and 8 BB), 0.9 s at 25, 1.5 s at 30.

A Big World 1942 battle (``"ruleset": "big_world_1942"``, :mod:`adjudicator.bigworld.odds`)
has limits of its own: its chain follows damaged battleships, artillery pairs and destroyers
apart, and is slower than Classic's for the same number of units. Timed with the engine
directly (CPU seconds, best of three, on the 2-core development machine while other work ran
on it; the Classic battles above took 0.03 s and 0.27 s there):

* :data:`MAX_BIG_WORLD_LAND_UNITS` (30) a side, as Classic: the slowest 30-a-side battles
  found (20 ARM and 10 BMB against 29 INF and an AA gun) take 0.8 to 1.2 s, mixed ones
  (8 INF, 8 ART, 7 ARM, 7 FTR against 10 INF, 10 ART, 9 ARM and an AA gun; 15 ARM and
  15 FTR against 29 INF and an AA gun) 0.6 to 0.75 s; 35 a side took 1.1 s.
* :data:`MAX_BIG_WORLD_SEA_UNITS` (16) a side, lower than Classic's 20: submarines and
  battleships on both sides are the slowest, 10 SUB and 10 BB a side taking 1.9 s at 20,
  1.1 s at 18, 0.9 s at 17 and 0.7 s at 16 (also with Super Subs); at 20 mixes of SUB, BB,
  FTR and AC took 1.1 to 1.7 s, at 16 no mix of SUB, DD, CA, BB, AC, FTR and BMB of 80
  tried took over 0.4 s.

Every answer thus stays well under the two seconds a page may take. The limits are of the
engine's speed on this machine, not of the rules: raise them when the engine gets faster.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.battle.reading import BATTLE_KEYS, RULESET
from adjudicator.boards import classic
from adjudicator.odds import odds_json
from dice_server.errors import InvalidRequest, NotFound
from dice_server.models import Member
from dice_server.requests import check_fields, field_error
from dice_server.services import ServiceContext
from dice_server.services.battles import current_battles

MAX_LAND_UNITS = 30
"""The most units a side may bring to a land battle whose odds are asked."""
MAX_SEA_UNITS = 20
"""The most units a side may bring to a sea battle whose odds are asked."""
MAX_BIG_WORLD_LAND_UNITS = 30
"""The most units a side may bring to a Big World 1942 land battle whose odds are asked."""
MAX_BIG_WORLD_SEA_UNITS = 16
"""The most units a side may bring to a Big World 1942 sea battle whose odds are asked."""

ODDS_FIELDS = set(BATTLE_KEYS - {"rounds", "retreat_declared"}) | {"retreat", "low_luck"}
"""What an odds request may hold: a battle document of :mod:`adjudicator.battle` without its
rounds, the attacker's retreat policy and ``low_luck`` (0 or 1) (:mod:`adjudicator.odds`).
A Low Luck volley has two outcomes where dice have one per die, so the limits timed on dice
hold for it."""

SIDES = ("attacker", "defender")
SEA_UNITS = frozenset({"SUB", "TRN", "DD", "CA", "AC", "BB"})
"""The ships of either ruleset (Big World 1942 adds destroyers and cruisers; a Classic
battle never lists them, so Classic's answers are unchanged)."""


def limits(payload: Mapping[str, Any]) -> tuple[int, int]:
    """The most units a side may bring to a land and to a sea battle by the ruleset the
    request names (:data:`MAX_LAND_UNITS` and :data:`MAX_SEA_UNITS` for Classic,
    :data:`MAX_BIG_WORLD_LAND_UNITS` and :data:`MAX_BIG_WORLD_SEA_UNITS` for Big World;
    a ruleset the engine does not know is refused by it, after this check)."""
    if payload.get("ruleset") == RULESET:
        return MAX_BIG_WORLD_LAND_UNITS, MAX_BIG_WORLD_SEA_UNITS
    return MAX_LAND_UNITS, MAX_SEA_UNITS


def _units_brought(value: object) -> int:
    """The units a side lists (an upper bound whatever else is wrong with the list: the
    engine names the fault of a list that is not a map of counts)."""
    if not isinstance(value, Mapping):
        return 0
    return sum(count for count in value.values() if type(count) is int and count > 0)


def check_size(payload: Mapping[str, Any]) -> None:
    """Refuse a battle too large to work out while the member waits (the limits above)."""
    sea = str(payload.get("kind", "")).strip().lower() == "sea"
    land_limit, sea_limit = limits(payload)
    limit = sea_limit if sea else land_limit
    rules = "Big World 1942 " if payload.get("ruleset") == RULESET else ""
    where = f"a {rules}{'sea' if sea else 'land'} battle"
    for side in SIDES:
        brought = _units_brought(payload.get(side))
        if brought > limit:
            raise field_error(
                side,
                f"{brought} units; the calculator works out {where} of at most {limit} "
                f"units a side: leave out units that cannot change the result, or ask "
                f"for a smaller battle",
            )


def battle_odds(payload: Any) -> dict[str, Any]:
    """The odds of the battle ``payload`` describes (the input and output of
    :func:`adjudicator.odds.odds_json`); :class:`InvalidRequest` naming the field when the
    request is not an object, has a field the format does not define, is too large
    (:func:`check_size`) or is one the engine cannot read."""
    fields = check_fields(payload, ODDS_FIELDS, set())
    check_size(fields)
    try:
        return odds_json(fields)
    except ValueError as exc:
        raise InvalidRequest(str(exc), field=getattr(exc, "field", None)) from None


def battlefield(territory: object, declared: Mapping[str, Mapping[str, int]]) -> str:
    """The battle's kind, "sea" or "land": the board's word on the territory, else what the
    defender's units say (only a sea zone holds submarines, transports, destroyers,
    cruisers, carriers and battleships)."""
    try:
        return "sea" if classic().territory(str(territory)).is_sea else "land"
    except (LookupError, ValueError):
        return "sea" if SEA_UNITS & set(declared.get("defender", {})) else "land"


def declared_battle_document(
    ctx: ServiceContext, number: int, battle_number: int, viewer: Member
) -> dict[str, Any]:
    """The odds request for declared battle ``battle_number`` of game ``number``'s current
    turn: its declared units and the orders of loss in force (for the game's players, its
    mentor and the Minister of Law, as the battles they read).

    A land battle the attacker brings a battleship or transport to is an amphibious assault
    (IAAPA Amphibious Assaults): the battleships give support shots and the transports,
    which never fight on land, are left out."""
    found = next(
        (b for b in current_battles(ctx, number, viewer) if b["number"] == battle_number), None
    )
    if found is None:
        raise NotFound(
            f"game {number} has no declared battle #{battle_number} in the current turn: "
            "pick one from the game page's battle list",
            "battle",
        )
    declared = found["declared"]
    kind = battlefield(found.get("territory"), declared)
    attacker = {str(u): int(n) for u, n in declared.get("attacker", {}).items()}
    defender = {str(u): int(n) for u, n in declared.get("defender", {}).items()}
    amphibious = kind == "land" and bool({"BB", "TRN"} & set(attacker))
    orders = {s: list(found["orders_of_loss"][s]) for s in SIDES if s in found["orders_of_loss"]}
    if kind == "land":
        attacker.pop("TRN", None)
        if "attacker" in orders:
            orders["attacker"] = [u for u in orders["attacker"] if u != "TRN"]
    document: dict[str, Any] = {
        "version": 1,
        "kind": kind,
        "amphibious": int(amphibious),
        "attacker": attacker,
        "defender": defender,
    }
    if found.get("territory"):
        document["name"] = f"#{battle_number} {found['territory']}"
    if orders := {side: order for side, order in orders.items() if order}:
        document["order_of_loss"] = orders
    return document
