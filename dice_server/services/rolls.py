"""Rolls (IAAPA "Using the Dice Server"): each is checked whole, then thrown and signed
in one append. Battle rounds, weapons development, strategic bombing and rockets."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from dice_server.ledger import SignedEntry
from dice_server.requests import (
    parse_battle_roll,
    parse_bombing_roll,
    parse_rocket_roll,
    parse_tech_roll,
)
from dice_server.services import ServiceContext
from dice_server.services.entries import Retry, Who, record, thrower


class RollRequest(Protocol):
    def record(self, by: str, draw: Callable[[int], list[int]]) -> dict[str, Any]: ...


KINDS: dict[str, Callable[[Any], RollRequest]] = {
    "roll": parse_battle_roll,
    "tech-roll": parse_tech_roll,
    "bombing-roll": parse_bombing_roll,
    "rocket-roll": parse_rocket_roll,
}


def roll(
    ctx: ServiceContext,
    kind: str,
    who: Who,
    number: int,
    payload: Any,
    retry: Retry | None = None,
) -> SignedEntry:
    """Throw a roll of ``kind`` for game ``number``: the request is checked before any lock."""
    request = KINDS[kind](payload)
    return record(
        ctx,
        who,
        number,
        kind,
        lambda seq, seed, member: request.record(member.email, thrower(ctx, seq, seed)),
        needs_dice=True,
        retry=retry,
    )


def roll_battle(
    ctx: ServiceContext, who: Who, number: int, payload: Any, retry: Retry | None = None
) -> SignedEntry:
    """Throw one battle round for game ``number``."""
    return roll(ctx, "roll", who, number, payload, retry)
