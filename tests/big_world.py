"""Big World 1942 battle documents for tests (``"ruleset": "big_world_1942"``)."""

from __future__ import annotations

from typing import Any


def big_world_document(
    kind: str, attacker: dict[str, int], defender: dict[str, int], *rounds: Any, **extra: Any
) -> dict[str, Any]:
    """A Big World battle document: its rounds if any are given (an odds request has none)."""
    document: dict[str, Any] = {
        "version": 1,
        "ruleset": "big_world_1942",
        "kind": kind,
        "attacker": attacker,
        "defender": defender,
        **extra,
    }
    if rounds:
        document["rounds"] = list(rounds)
    return document
