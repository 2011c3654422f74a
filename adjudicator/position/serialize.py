"""A position as versioned JSON: what ``pbem position initial > FILE`` writes.

Integers and strings only, as in every document the league stores (DESIGN.md): no floats,
booleans or nulls. Places are the board's canonical names, powers the league's (USSR, Germany,
UK, Japan, USA), units the canonical abbreviations, technologies as the tech chart names them.
Keys not listed are rejected, so a misspelt key is an error rather than silently ignored.

Version 1::

    {"version": 1, "kind": "position",
     "board": "World War II Classic",              Board.name; load_json checks it
     "round": 1, "to_move": "USSR",                 the power whose turn comes next
     "banks": {"USSR": 24, "Germany": 32, ...},     IPCs in hand, every power
     "technologies": {"Germany": ["Jet Power"]},    powers with none may be left out
     "owners": {"Alaska": "USA", ...},              every owned land territory
     "units": {"Alaska": {"USA": {"INF": 1}}, ...}} space -> power -> unit -> count

Counts and income are not stored: they follow from ``owners`` and the board
(:meth:`Position.territory_count`, :meth:`Position.ipc_count`, :meth:`Position.income`).
"""

from __future__ import annotations

from typing import Any

from adjudicator.boards import Board, classic
from adjudicator.position.model import Position, PositionError
from adjudicator.position.setup import initial
from adjudicator.powers import TURN_ORDER, Power
from adjudicator.units import Technology, Units, UnitType

POSITION_VERSION = 1
"""Bumped whenever a key changes meaning or disappears."""
KIND = "position"

POWER_NAMES: dict[Power, str] = {
    Power.USSR: "USSR",
    Power.GERMANY: "Germany",
    Power.UK: "UK",
    Power.JAPAN: "Japan",
    Power.USA: "USA",
}
"""The league's names of the powers, as the turn report writes them."""
_POWERS = {name: power for power, name in POWER_NAMES.items()}
TECH_NAMES: dict[Technology, str] = {t: t.name.replace("_", " ").title() for t in Technology}
"""'Jet Power', 'Long Range Aircraft', ...: as the turn report writes them."""
_TECHS = {name: tech for tech, name in TECH_NAMES.items()}
_KEYS = ("version", "kind", "board", "round", "to_move", "banks", "technologies", "owners", "units")


def dump_json(position: Position) -> dict[str, Any]:
    """The version-1 JSON object of ``position`` (keys and lists in a stable order)."""
    return {
        "version": POSITION_VERSION,
        "kind": KIND,
        "board": position.board.name,
        "round": position.round,
        "to_move": POWER_NAMES[position.to_move],
        "banks": {POWER_NAMES[p]: position.bank[p] for p in TURN_ORDER},
        "technologies": {
            POWER_NAMES[p]: sorted(TECH_NAMES[t] for t in position.technologies_of(p))
            for p in TURN_ORDER
            if position.technologies_of(p)
        },
        "owners": {t: POWER_NAMES[p] for t, p in position.owners.items()},
        "units": {
            space: {POWER_NAMES[p]: units.to_json() for p, units in per_power.items()}
            for space, per_power in position.units.items()
        },
    }


def initial_json(board: Board | None = None) -> dict[str, Any]:
    """The opening position of ``board`` (default Classic) as version-1 JSON."""
    return dump_json(initial(board))


def load_json(data: object, board: Board | None = None, *, checked: bool = True) -> Position:
    """The position a :func:`dump_json` object describes, checked against ``board``
    (default Classic). PositionError (a ValueError) saying what is wrong and where.

    With ``checked`` False the document must still be well formed (names, counts, keys), but
    the position need not keep the board's rules: a position as a player's orders left it,
    kept with a finding until the players correct it (:func:`adjudicator.turns.advance`)."""
    board = board or classic()
    obj = _object(data, "the position")
    unknown = sorted(set(obj) - set(_KEYS))
    if unknown:
        raise PositionError(f"unknown key(s) in the position: {', '.join(unknown)}")
    if obj.get("version") != POSITION_VERSION or obj.get("kind") != KIND:
        raise PositionError(
            f"not a version-{POSITION_VERSION} position: version "
            f"{obj.get('version')!r}, kind {obj.get('kind')!r}"
        )
    if obj.get("board") != board.name:
        raise PositionError(f"the position is for board {obj.get('board')!r}, not {board.name!r}")
    owners = {
        _place(board, t, "owners", land=True): _power(p, f"owners.{t}")
        for t, p in _object(obj.get("owners"), "owners").items()
    }
    units: dict[str, dict[Power, Units]] = {}
    for space, per_power in _object(obj.get("units"), "units").items():
        _place(board, space, "units")
        for name, counts in _object(per_power, f"units.{space}").items():
            units.setdefault(space, {})[_power(name, f"units.{space}")] = _units(
                counts, f"units.{space}.{name}"
            )
    banks = {
        _power(p, "banks"): _count(n, f"banks.{p}")
        for p, n in _object(obj.get("banks"), "banks").items()
    }
    missing = [POWER_NAMES[p] for p in TURN_ORDER if p not in banks]
    if missing:
        raise PositionError(f"banks: no IPCs given for {', '.join(missing)}")
    technologies = {
        _power(p, "technologies"): frozenset(
            _tech(t, f"technologies.{p}") for t, _ in _listed(techs, f"technologies.{p}")
        )
        for p, techs in _object(obj.get("technologies", {}), "technologies").items()
    }
    return Position.of(
        board,
        round=_count(obj.get("round"), "round", least=1),
        to_move=_power(obj.get("to_move"), "to_move"),
        owners=owners,
        units=units,
        bank=banks,
        technologies=technologies,
        checked=checked,
    )


def _object(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise PositionError(f"{where} must be an object")
    return value


def _listed(value: object, where: str) -> list[tuple[Any, int]]:
    if not isinstance(value, list):
        raise PositionError(f"{where} must be a list")
    return [(v, i) for i, v in enumerate(value)]


def _count(value: object, where: str, *, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise PositionError(f"{where} must be a whole number of at least {least}, got {value!r}")
    return value


def _power(value: object, where: str) -> Power:
    if not isinstance(value, str) or value not in _POWERS:
        raise PositionError(
            f"{where}: {value!r} is not a power (write one of {', '.join(_POWERS)})"
        )
    return _POWERS[value]


def _tech(value: object, where: str) -> Technology:
    if not isinstance(value, str) or value not in _TECHS:
        raise PositionError(
            f"{where}: {value!r} is not a technology (write one of {', '.join(_TECHS)})"
        )
    return _TECHS[value]


def _place(board: Board, name: str, where: str, *, land: bool = False) -> str:
    if name not in board.territories:
        raise PositionError(f"{where}: {name!r} is not a territory or sea zone of {board.name}")
    if land and board.territories[name].is_sea:
        raise PositionError(f"{where}: {name} is a sea zone, which nobody owns")
    return name


def _units(value: object, where: str) -> Units:
    counts: dict[UnitType, int] = {}
    for name, n in _object(value, where).items():
        try:
            unit = UnitType(name)
        except ValueError:
            raise PositionError(
                f"{where}: {name!r} is not a unit (write one of "
                f"{', '.join(u.value for u in UnitType)})"
            ) from None
        counts[unit] = _count(n, f"{where}.{name}", least=1)
    return Units.of(counts)
