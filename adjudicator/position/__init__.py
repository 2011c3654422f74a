"""Positions: the board between turns (units, owners, banks, technologies), as data and JSON.

``initial()`` is the Classic opening; ``dump_json``/``load_json`` write and read the
versioned JSON of :mod:`adjudicator.position.serialize` (``initial_json()`` is what
``pbem position initial`` prints). Applying a post-combat turn to a position, with the map
update weighed against the orders, is :func:`adjudicator.declarations.apply_post_combat`.
Units in a space are :class:`adjudicator.units.Units`; positions never read turn notation.
"""

from adjudicator.position.model import (
    CARGO,
    Position,
    PositionError,
    cargo_slots,
    check,
)
from adjudicator.position.serialize import (
    POSITION_VERSION,
    POWER_NAMES,
    TECH_NAMES,
    dump_json,
    initial_json,
    load_json,
)
from adjudicator.position.setup import arranged, initial

__all__ = [
    "CARGO",
    "POSITION_VERSION",
    "POWER_NAMES",
    "TECH_NAMES",
    "Position",
    "PositionError",
    "arranged",
    "cargo_slots",
    "check",
    "dump_json",
    "initial",
    "initial_json",
    "load_json",
]
