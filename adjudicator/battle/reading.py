"""Reading a battle document (version 1) into a :class:`BattleSetup` and its rounds.

Strict on shape: a missing or misspelt key, a wrong type or a name Classic does not know
raises a :class:`~adjudicator.battle.errors.BattleInputError` naming the field. Lenient on
dice: any list of integers is accepted here, and whether it fits the forces is the engine's
finding, reported as a diagnostic. The format is described in :mod:`adjudicator.battle`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

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


def _object(value: object, where: str) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise WrongType(where, f"expected an object ({{...}}), got {type(value).__name__}")
    for key in value:
        if not isinstance(key, str):
            raise WrongType(where, f"keys must be strings, got {key!r}")
    return value


def _keys(doc: Mapping[str, object], allowed: frozenset[str], where: str) -> None:
    for key in doc:
        if key not in allowed:
            raise UnknownField(
                f"{where}.{key}" if where else key,
                f"unknown key; expected one of {', '.join(sorted(allowed))}",
            )


def _integer(value: object, where: str, *, minimum: int | None = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise WrongType(where, f"expected an integer, got {value!r}")
    if minimum is not None and value < minimum:
        raise InvalidValue(where, f"must be {minimum} or more, got {value}")
    return value


def _flag(doc: Mapping[str, object], key: str, where: str) -> bool:
    value = doc.get(key, 0)
    path = f"{where}.{key}" if where else key
    if isinstance(value, bool) or not isinstance(value, int):
        raise WrongType(path, f"expected 0 or 1, got {value!r}")
    if value not in (0, 1):
        raise InvalidValue(path, f"expected 0 or 1, got {value}")
    return value == 1


def _list(value: object, where: str) -> list[object]:
    if not isinstance(value, list):
        raise WrongType(where, f"expected a list ([...]), got {type(value).__name__}")
    return value


def unit_named(name: object, where: str) -> UnitType:
    """The unit a name stands for (case-insensitive); :class:`UnknownUnit` if none."""
    if not isinstance(name, str):
        raise WrongType(where, f"expected a unit name, got {name!r}")
    unit = UNIT_ALIASES.get(name.strip().upper())
    if unit is None:
        raise UnknownUnit(
            where,
            f"{name!r} is not a Classic unit; write one of {', '.join(u.value for u in UnitType)}",
        )
    return unit


def _unit_map(value: object, where: str) -> dict[UnitType, tuple[str, object]]:
    """A {UNIT: value} object, keys resolved; two spellings of one unit raise."""
    found: dict[UnitType, tuple[str, object]] = {}
    for key, item in _object(value, where).items():
        unit = unit_named(key, f"{where}.{key}")
        if unit in found:
            raise InvalidValue(
                f"{where}.{key}", f"{unit.value} is given twice (also as {found[unit][0]!r})"
            )
        found[unit] = (key, item)
    return found


def read_forces(value: object, where: str) -> Units:
    """``{UNIT: count}`` as :class:`Units`."""
    return Units.of(
        {
            unit: _integer(count, f"{where}.{key}")
            for unit, (key, count) in _unit_map(value, where).items()
        }
    )


def _dice(value: object, where: str) -> tuple[int, ...]:
    return tuple(
        _integer(d, f"{where}[{i}]", minimum=None) for i, d in enumerate(_list(value, where))
    )


def _dice_map(value: object, where: str) -> Mapping[UnitType, tuple[int, ...]]:
    return MappingProxyType(
        {
            unit: _dice(dice, f"{where}.{key}")
            for unit, (key, dice) in _unit_map(value, where).items()
        }
    )


def _technologies(value: object, where: str) -> frozenset[Technology]:
    techs = set()
    for i, name in enumerate(_list(value, where)):
        if not isinstance(name, str):
            raise WrongType(f"{where}[{i}]", f"expected a technology name, got {name!r}")
        try:
            techs.add(exactly(technology_names(), name))
        except NameResolutionError:
            raise UnknownTechnology(
                f"{where}[{i}]",
                f"{name!r} is not a technology; write "
                f"one of {', '.join(t.name for t in Technology)}",
            ) from None
    return frozenset(techs)


def _orders(doc: Mapping[str, object], field: Battlefield) -> dict[Side, OrderOfLoss]:
    raw = _object(doc.get("order_of_loss", {}), "order_of_loss")
    _keys(raw, frozenset({"attacker", "defender"}), "order_of_loss")
    orders = {}
    for side in Side:
        if side.value not in raw:
            continue
        where = f"order_of_loss.{side.value}"
        units = tuple(
            unit_named(n, f"{where}[{i}]") for i, n in enumerate(_list(raw[side.value], where))
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
        values[unit] = _integer(count, f"loaded.{key}")
    return values.get(UnitType.TRN, 0), values.get(UnitType.AC)


def _low_luck(value: object, where: str) -> tuple[LowLuckShot, ...]:
    """A Low Luck round's volleys: ``[{"side", "fire", "power", "hits"}, ...]``."""
    shots = []
    seen: set[tuple[Side, str]] = set()
    for i, item in enumerate(_list(value, where)):
        at = f"{where}[{i}]"
        shot = _object(item, at)
        _keys(shot, SHOT_KEYS, at)
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
                _integer(shot["power"], f"{at}.power"),
                _integer(shot["hits"], f"{at}.hits"),
            )
        )
    return tuple(shots)


def _round(value: object, where: str) -> RoundInput:
    doc = _object(value, where)
    _keys(doc, ROUND_KEYS, where)
    chosen = CasualtyChoice()
    if "casualties" in doc:
        raw = _object(doc["casualties"], f"{where}.casualties")
        _keys(raw, frozenset({"subs", "attacker", "defender"}), f"{where}.casualties")
        parts = {k: read_forces(v, f"{where}.casualties.{k}") for k, v in raw.items()}
        chosen = CasualtyChoice(parts.get("subs"), parts.get("defender"), parts.get("attacker"))
    withdraw = _object(doc.get("withdraw", {}), f"{where}.withdraw")
    _keys(withdraw, frozenset({"attacker", "defender"}), f"{where}.withdraw")
    shots = None
    if "low_luck" in doc:
        shots = _low_luck(doc["low_luck"], f"{where}.low_luck")
        for key in DICE_KEYS:
            if key in doc:
                raise InvalidValue(
                    f"{where}.{key}", "a Low Luck round records volleys, not dice (low_luck)"
                )
    return RoundInput(
        aa=_dice(doc.get("aa", []), f"{where}.aa"),
        bombard=_dice(doc.get("bombard", []), f"{where}.bombard"),
        subs=_dice(doc.get("subs", []), f"{where}.subs"),
        attacker=_dice_map(doc.get("attacker", {}), f"{where}.attacker"),
        defender=_dice_map(doc.get("defender", {}), f"{where}.defender"),
        chosen=chosen,
        withdraw_attacker=_integer(withdraw.get("attacker", 0), f"{where}.withdraw.attacker"),
        withdraw_defender=_integer(withdraw.get("defender", 0), f"{where}.withdraw.defender"),
        retreat=_flag(doc, "retreat", where),
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


def read_battle(value: object, *, versioned: bool = True) -> BattleDocument:
    """Read one battle document; raise a :class:`BattleInputError` naming the bad field."""
    doc = _object(value, "(document)")
    _keys(doc, BATTLE_KEYS, "")
    if versioned or "version" in doc:
        check_version(doc)
    for key in ("kind", "attacker", "defender"):
        if key not in doc:
            raise MissingField(key, "required")
    kind = doc["kind"]
    if not isinstance(kind, str) or kind.strip().lower() not in ("land", "sea"):
        raise InvalidValue("kind", f'expected "land" or "sea", got {kind!r}')
    field = Battlefield(kind.strip().lower())
    orders = _orders(doc, field)
    techs = _object(doc.get("technologies", {}), "technologies")
    _keys(techs, frozenset({"attacker", "defender"}), "technologies")
    cargo, fighters = _cargo(doc)
    name = doc.get("name", "")
    if not isinstance(name, str):
        raise WrongType("name", f"expected a string, got {name!r}")
    rounds = tuple(
        _round(r, f"rounds[{i}]") for i, r in enumerate(_list(doc.get("rounds", []), "rounds"))
    )
    setup = BattleSetup(
        battlefield=field,
        attacker=read_forces(doc["attacker"], "attacker"),
        defender=read_forces(doc["defender"], "defender"),
        amphibious=_flag(doc, "amphibious", ""),
        attacker_order=orders.get(Side.ATTACKER),
        defender_order=orders.get(Side.DEFENDER),
        transport_cargo=cargo,
        carrier_fighters=fighters,
        attacker_technologies=_technologies(techs.get("attacker", []), "technologies.attacker"),
        defender_technologies=_technologies(techs.get("defender", []), "technologies.defender"),
        no_retreat=_flag(doc, "no_retreat", ""),
    )
    return BattleDocument(setup, rounds, name, _flag(doc, "retreat_declared", ""))
