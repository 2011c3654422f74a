"""The registry of ledger entry kinds: one module a kind (:mod:`.battle`, :mod:`.tech`,
:mod:`.bombing`, :mod:`.rocket`, :mod:`.note`, :mod:`.turn`, :mod:`.game`; the other game
systems' rolls in :mod:`.will` and :mod:`.tragedy`), each declaring an
:class:`~dice_server.kinds.base.EntryKind`. The roll service, the JSON API's paths, the
roller's pages and forms, the timeline and the mail all read it; the standalone verifier
keeps its own frozen list of kinds, which a test holds equal to this one.

Adding a kind: a module here with its ``KIND``, listed in :data:`REGISTRY`, and its roller
template ``templates/roller_<page>.html`` when members write it.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from dice_server.kinds import (
    battle,
    bombing,
    game,
    note,
    rocket,
    ruling,
    tech,
    tragedy,
    turn,
    will,
)
from dice_server.kinds.base import EntryKind

REGISTRY: Mapping[str, EntryKind] = MappingProxyType(
    {
        kind.name: kind
        for kind in (
            game.GENESIS,
            turn.KIND,
            battle.KIND,
            battle.LOW_LUCK,
            tech.KIND,
            bombing.KIND,
            rocket.KIND,
            note.KIND,
            ruling.KIND,
            game.SEED_REVEAL,
            game.COMMITMENT,
            *tragedy.KINDS,
            *will.KINDS,
        )
    }
)
"""Every kind the server writes, by its ledger name, in the order a game meets them."""

ROLL_KINDS = frozenset(name for name, kind in REGISTRY.items() if kind.rolls)
"""The kinds that hold dice."""

WRITTEN = tuple(kind for kind in REGISTRY.values() if kind.read is not None)
"""The kinds a member writes, through the API, the roller or (later) mail."""

BY_API_PATH: Mapping[str, EntryKind] = MappingProxyType({k.api_path: k for k in WRITTEN})


def system_rolls(system: str) -> tuple[EntryKind, ...]:
    """The roll kinds thrown in a game of ``system``, in the registry's order."""
    return tuple(k for k in WRITTEN if k.rolls and k.system == system)


def subject(number: int, seq: int, kind: str, data: Mapping[str, Any]) -> str:
    """``[Game 123] #41 UK: West Europe round 1`` and the like for every kind."""
    known = REGISTRY.get(kind)
    return f"[Game {number}] #{seq} {known.headline(data) if known else kind}"


def describe(kind: str, data: Mapping[str, Any]) -> list[str]:
    """The body of an entry in lines a player reads: who wrote it, what its kind says, and
    the writer's comment."""
    lines = [f"By: {data['by']}"] if "by" in data else []
    known = REGISTRY.get(kind)
    if known is not None:
        lines += known.describe(data)
    if data.get("comment"):
        lines += ["", f"Comment: {data['comment']}"]
    return lines


__all__ = [
    "BY_API_PATH",
    "REGISTRY",
    "ROLL_KINDS",
    "WRITTEN",
    "EntryKind",
    "describe",
    "subject",
    "system_rolls",
]
