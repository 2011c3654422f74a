"""Positions: the board between turns (units, owners, banks, technologies), as data and JSON.

``initial()`` is the Classic opening; ``dump_json``/``load_json`` write and read the
versioned JSON of :mod:`adjudicator.position.serialize` (``initial_json()`` is what
``pbem position initial`` prints). Applying a post-combat turn to a position, with the map
update weighed against the orders, is :func:`adjudicator.declarations.apply_post_combat`.
"""

from adjudicator.position.model import (
    CARGO,
    EMPTY,
    Position,
    PositionError,
    cargo_slots,
    check,
    count_of,
)
from adjudicator.position.serialize import (
    POWER_NAMES,
    TECH_NAMES,
    VERSION,
    dump_json,
    initial_json,
    load_json,
)
from adjudicator.position.setup import arranged, initial

__all__ = [
    "CARGO",
    "EMPTY",
    "POWER_NAMES",
    "TECH_NAMES",
    "VERSION",
    "Position",
    "PositionError",
    "arranged",
    "cargo_slots",
    "check",
    "count_of",
    "dump_json",
    "initial",
    "initial_json",
    "load_json",
]
