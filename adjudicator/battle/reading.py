"""Reading a battle document (version 1) into a :class:`BattleSetup` and its rounds.

Strict on shape: a missing or misspelt key, a wrong type or a name Classic does not know
raises a :class:`~adjudicator.battle.errors.BattleInputError` naming the field. Lenient on
dice: any list of integers is accepted here, and whether it fits the forces is the engine's
finding, reported as a diagnostic. The format is described in :mod:`adjudicator.battle`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TypeVar

from adjudicator.battle.errors import (
    InvalidValue,
    MissingField,
    UnknownField,
    UnknownTechnology,
    UnknownUnit,
    UnsupportedVersion,
    WrongType,
)
from adjudicator.battle.setup import (
    LOW_LUCK_FIRES,
    BattleSetup,
    CasualtyChoice,
    LowLuckShot,
    RoundInput,
)
from adjudicator.bigworld.units import ALIASES as BIG_WORLD_ALIASES
from adjudicator.bigworld.units import BigWorldUnit
from adjudicator.names import NameResolutionError, exactly, technology_names
from adjudicator.units import Battlefield, OrderOfLoss, Side, Technology, Units, UnitType

VERSION = 1
"""The only document version this module reads."""

UNIT_ALIASES: Mapping[str, UnitType] = MappingProxyType(
    {
        **{unit.value: unit for unit in UnitType},
        "TNK": UnitType.ARM,
        "CV": UnitType.AC,
        "SS": UnitType.SUB,
    }
)
"""Unit names accepted (case-insensitively): the canonical abbreviations, and the other
spellings the IAAPA Abbreviations section lists ("ARM or TNK", "CV or AC", "SS or SUB")."""

BATTLE_KEYS = frozenset(
    {
        "version",
        "ruleset",
        "kind",
        "amphibious",
        "attacker",
        "defender",
        "order_of_loss",
        "loaded",
        "technologies",
        "no_retreat",
        "rounds",
        "name",
        "retreat_declared",
    }
)
ROUND_KEYS = frozenset(
    {
        "aa",
        "bombard",
        "subs",
        "attacker",
        "defender",
        "casualties",
        "withdraw",
        "retreat",
        "low_luck",
    }
)
DICE_KEYS = ("aa", "bombard", "subs", "attacker", "defender")
"""A round's dice: a Low Luck round throws its volleys' remainder dice in their place."""
SHOT_KEYS = frozenset({"side", "fire", "power", "hits"})


@dataclass(frozen=True)
class BattleDocument:
    """A battle document read: the setup, its rounds, and the labels that travel with it."""

    setup: BattleSetup
    rounds: tuple[RoundInput, ...]
    name: str = ""
    retreat_declared: bool = False


def json_object(value: object, where: str) -> Mapping[str, object]:
    """``value`` if it is a JSON object with string keys; :class:`WrongType` at ``where``."""
    if not isinstance(value, Mapping):
        raise WrongType(where, f"expected an object ({{...}}), got {type(value).__name__}")
    for key in value:
        if not isinstance(key, str):
            raise WrongType(where, f"keys must be strings, got {key!r}")
    return value


def known_keys(doc: Mapping[str, object], allowed: frozenset[str], where: str) -> None:
    """:class:`UnknownField` for the first key of ``doc`` not in ``allowed``."""
    for key in doc:
        if key not in allowed:
            raise UnknownField(
                f"{where}.{key}" if where else key,
                f"unknown key; expected one of {', '.join(sorted(allowed))}",
            )


def whole_number(value: object, where: str, *, minimum: int | None = 0) -> int:
    """``value`` if it is an integer (not a boolean) of at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise WrongType(where, f"expected an integer, got {value!r}")
    if minimum is not None and value < minimum:
        raise InvalidValue(where, f"must be {minimum} or more, got {value}")
    return value


def flag_field(doc: Mapping[str, object], key: str, where: str) -> bool:
    """``doc[key]`` (default 0) if it is 0 or 1, as a boolean."""
    value = doc.get(key, 0)
    path = f"{where}.{key}" if where else key
    if isinstance(value, bool) or not isinstance(value, int):
        raise WrongType(path, f"expected 0 or 1, got {value!r}")
    if value not in (0, 1):
        raise InvalidValue(path, f"expected 0 or 1, got {value}")
    return value == 1


def json_list(value: object, where: str) -> list[object]:
    """``value`` if it is a JSON list."""
    if not isinstance(value, list):
        raise WrongType(where, f"expected a list ([...]), got {type(value).__name__}")
    return value


def unit_named(name: object, where: str) -> UnitType:
    """The unit a name stands for (case-insensitive); :class:`UnknownUnit` if none."""
    if not isinstance(name, str):
        raise WrongType(where, f"expected a unit name, got {name!r}")
    unit = UNIT_ALIASES.get(name.strip().upper())
    if unit is None:
        known = ", ".join(u.value for u in UnitType)
        other = BIG_WORLD_ALIASES.get(name.strip().upper())
        if other is not None:
            raise UnknownUnit(
                where,
                f"{name!r} is not a Classic unit: {other.value} is a Big World 1942 unit "
                f"(ask by the Big World 1942 rules for it); write one of {known}",
            )
        raise UnknownUnit(where, f"{name!r} is not a Classic unit; write one of {known}")
    return unit


Unit = TypeVar("Unit", UnitType, BigWorldUnit)


def units_keyed(
    value: object, where: str, named: Callable[[object, str], Unit]
) -> dict[Unit, tuple[str, object]]:
    """A {UNIT: value} object, keys resolved by ``named``; two spellings of one unit raise."""
    found: dict[Unit, tuple[str, object]] = {}
    for key, item in json_object(value, where).items():
        unit = named(key, f"{where}.{key}")
        if unit in found:
            raise InvalidValue(
                f"{where}.{key}", f"{unit.value} is given twice (also as {found[unit][0]!r})"
            )
        found[unit] = (key, item)
    return found


def _unit_map(value: object, where: str) -> dict[UnitType, tuple[str, object]]:
    return units_keyed(value, where, unit_named)


def read_forces(value: object, where: str) -> Units:
    """``{UNIT: count}`` as :class:`Units`."""
    return Units.of(
        {
            unit: whole_number(count, f"{where}.{key}")
            for unit, (key, count) in _unit_map(value, where).items()
        }
    )


def dice_list(value: object, where: str) -> tuple[int, ...]:
    """A list of integers (dice as written: whether each is 1 to 6 is the engine's finding)."""
    return tuple(
        whole_number(d, f"{where}[{i}]", minimum=None)
        for i, d in enumerate(json_list(value, where))
    )


def _dice_map(value: object, where: str) -> Mapping[UnitType, tuple[int, ...]]:
    return MappingProxyType(
        {
            unit: dice_list(dice, f"{where}.{key}")
            for unit, (key, dice) in _unit_map(value, where).items()
        }
    )


def technology_names_listed(value: object, where: str) -> list[tuple[str, str]]:
    """``(path, name)`` for each name of a list of technologies (strings)."""
    found = []
    for i, name in enumerate(json_list(value, where)):
        if not isinstance(name, str):
            raise WrongType(f"{where}[{i}]", f"expected a technology name, got {name!r}")
        found.append((f"{where}[{i}]", name))
    return found


def _technologies(value: object, where: str) -> frozenset[Technology]:
    techs = set()
    for at, name in technology_names_listed(value, where):
        try:
            techs.add(exactly(technology_names(), name))
        except NameResolutionError:
            raise UnknownTechnology(
                at,
                f"{name!r} is not a technology; write "
                f"one of {', '.join(t.name for t in Technology)}",
            ) from None
    return frozenset(techs)


def _orders(doc: Mapping[str, object], field: Battlefield) -> dict[Side, OrderOfLoss]:
    raw = json_object(doc.get("order_of_loss", {}), "order_of_loss")
    known_keys(raw, frozenset({"attacker", "defender"}), "order_of_loss")
    orders = {}
    for side in Side:
        if side.value not in raw:
            continue
        where = f"order_of_loss.{side.value}"
        units = tuple(
            unit_named(n, f"{where}[{i}]") for i, n in enumerate(json_list(raw[side.value], where))
        )
        if len(set(units)) != len(units):
            raise InvalidValue(where, "lists a unit twice")
        orders[side] = OrderOfLoss(side, field, units)
    return orders


def _cargo(doc: Mapping[str, object]) -> tuple[int, int | None]:
    values: dict[UnitType, int] = {}
    for unit, (key, count) in _unit_map(doc.get("loaded", {}), "loaded").items():
        if unit not in (UnitType.AC, UnitType.TRN):
            raise UnknownField(
                f"loaded.{key}", "only AC (fighters aboard) and TRN (units aboard) can be loaded"
            )
        values[unit] = whole_number(count, f"loaded.{key}")
    return values.get(UnitType.TRN, 0), values.get(UnitType.AC)


def _low_luck(value: object, where: str) -> tuple[LowLuckShot, ...]:
    """A Low Luck round's volleys: ``[{"side", "fire", "power", "hits"}, ...]``."""
    shots = []
    seen: set[tuple[Side, str]] = set()
    for i, item in enumerate(json_list(value, where)):
        at = f"{where}[{i}]"
        shot = json_object(item, at)
        known_keys(shot, SHOT_KEYS, at)
        for key in sorted(SHOT_KEYS - set(shot)):
            raise MissingField(f"{at}.{key}", "every Low Luck volley names side, fire, power, hits")
        side, fire = shot["side"], shot["fire"]
        if side not in ("attacker", "defender"):
            raise InvalidValue(f"{at}.side", f"expected attacker or defender, got {side!r}")
        if fire not in LOW_LUCK_FIRES:
            raise InvalidValue(
                f"{at}.fire", f"expected one of {', '.join(LOW_LUCK_FIRES)}, got {fire!r}"
            )
        whose = Side.ATTACKER if side == "attacker" else Side.DEFENDER
        if (whose, fire) in seen:
            raise InvalidValue(at, f"the {side}'s {fire} volley is given twice")
        seen.add((whose, fire))
        shots.append(
            LowLuckShot(
                whose,
                str(fire),
                whole_number(shot["power"], f"{at}.power"),
                whole_number(shot["hits"], f"{at}.hits"),
            )
        )
    return tuple(shots)


def _round(value: object, where: str) -> RoundInput:
    doc = json_object(value, where)
    known_keys(doc, ROUND_KEYS, where)
    chosen = CasualtyChoice()
    if "casualties" in doc:
        raw = json_object(doc["casualties"], f"{where}.casualties")
        known_keys(raw, frozenset({"subs", "attacker", "defender"}), f"{where}.casualties")
        parts = {k: read_forces(v, f"{where}.casualties.{k}") for k, v in raw.items()}
        chosen = CasualtyChoice(parts.get("subs"), parts.get("defender"), parts.get("attacker"))
    withdraw = json_object(doc.get("withdraw", {}), f"{where}.withdraw")
    known_keys(withdraw, frozenset({"attacker", "defender"}), f"{where}.withdraw")
    shots = None
    if "low_luck" in doc:
        shots = _low_luck(doc["low_luck"], f"{where}.low_luck")
        for key in DICE_KEYS:
            if key in doc:
                raise InvalidValue(
                    f"{where}.{key}", "a Low Luck round records volleys, not dice (low_luck)"
                )
    return RoundInput(
        aa=dice_list(doc.get("aa", []), f"{where}.aa"),
        bombard=dice_list(doc.get("bombard", []), f"{where}.bombard"),
        subs=dice_list(doc.get("subs", []), f"{where}.subs"),
        attacker=_dice_map(doc.get("attacker", {}), f"{where}.attacker"),
        defender=_dice_map(doc.get("defender", {}), f"{where}.defender"),
        chosen=chosen,
        withdraw_attacker=whole_number(withdraw.get("attacker", 0), f"{where}.withdraw.attacker"),
        withdraw_defender=whole_number(withdraw.get("defender", 0), f"{where}.withdraw.defender"),
        retreat=flag_field(doc, "retreat", where),
        low_luck=shots,
    )


def check_version(doc: Mapping[str, object], where: str = "version") -> None:
    """Raise unless the document says ``"version": 1``."""
    if "version" not in doc:
        raise MissingField(where, f"required; this engine reads version {VERSION}")
    if doc["version"] != VERSION or isinstance(doc["version"], bool):
        raise UnsupportedVersion(
            where,
            f"version {doc['version']!r} is not supported; this engine reads version {VERSION}",
        )


RULESET = "big_world_1942"
"""The ``ruleset`` a document names to be read by Big World 1942's rules
(:mod:`adjudicator.bigworld`)."""
CLASSIC_RULESET = "classic"
"""The default ruleset: the league's Classic (A&A 2nd edition)."""


def ruleset_of(doc: Mapping[str, object]) -> str:
    """The ruleset a battle document names (``classic`` when it names none); InvalidValue
    for any other."""
    value = doc.get("ruleset", CLASSIC_RULESET)
    if value not in (CLASSIC_RULESET, RULESET):
        raise InvalidValue("ruleset", f'expected "{CLASSIC_RULESET}" or "{RULESET}", got {value!r}')
    return str(value)


def battlefield_of(doc: Mapping[str, object]) -> Battlefield:
    """Where the battle a document describes is fought (its ``kind``), once the keys every
    battle needs are there."""
    for key in ("kind", "attacker", "defender"):
        if key not in doc:
            raise MissingField(key, "required")
    kind = doc["kind"]
    if not isinstance(kind, str) or kind.strip().lower() not in ("land", "sea"):
        raise InvalidValue("kind", f'expected "land" or "sea", got {kind!r}')
    return Battlefield(kind.strip().lower())


def read_battle(value: object, *, versioned: bool = True) -> BattleDocument:
    """Read one battle document; raise a :class:`BattleInputError` naming the bad field."""
    doc = json_object(value, "(document)")
    known_keys(doc, BATTLE_KEYS, "")
    if versioned or "version" in doc:
        check_version(doc)
    if ruleset_of(doc) != CLASSIC_RULESET:
        raise InvalidValue("ruleset", "a turn's battles are read by Classic's rules only")
    field = battlefield_of(doc)
    orders = _orders(doc, field)
    techs = json_object(doc.get("technologies", {}), "technologies")
    known_keys(techs, frozenset({"attacker", "defender"}), "technologies")
    cargo, fighters = _cargo(doc)
    name = doc.get("name", "")
    if not isinstance(name, str):
        raise WrongType("name", f"expected a string, got {name!r}")
    rounds = tuple(
        _round(r, f"rounds[{i}]") for i, r in enumerate(json_list(doc.get("rounds", []), "rounds"))
    )
    setup = BattleSetup(
        battlefield=field,
        attacker=read_forces(doc["attacker"], "attacker"),
        defender=read_forces(doc["defender"], "defender"),
        amphibious=flag_field(doc, "amphibious", ""),
        attacker_order=orders.get(Side.ATTACKER),
        defender_order=orders.get(Side.DEFENDER),
        transport_cargo=cargo,
        carrier_fighters=fighters,
        attacker_technologies=_technologies(techs.get("attacker", []), "technologies.attacker"),
        defender_technologies=_technologies(techs.get("defender", []), "technologies.defender"),
        no_retreat=flag_field(doc, "no_retreat", ""),
    )
    return BattleDocument(setup, rounds, name, flag_field(doc, "retreat_declared", ""))
