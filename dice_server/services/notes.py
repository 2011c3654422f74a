"""Notes through the roller: everything the rule text says must be "recorded and sent
through the dice roller (not regular email) so that timing can be verified" (IAAPA,
Amendments and Special Orders; Retreats; Error Correction VII) is signed and
timestamped like a roll, as a ``note`` entry."""

from __future__ import annotations

from datetime import UTC
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from dice_server.db import Fetched
from dice_server.dice import SealedSeed
from dice_server.kinds import ROLL_KINDS
from dice_server.kinds.note import MINISTER_TOPICS, read
from dice_server.ledger import SignedEntry
from dice_server.models import Game, LedgerEntry
from dice_server.requests import field_error
from dice_server.services import ServiceContext
from dice_server.services.entries import Actor, Also, Retry, Who, record


def send_note(
    ctx: ServiceContext,
    who: Who,
    number: int,
    payload: Any,
    retry: Retry | None = None,
    also: Also | None = None,
) -> SignedEntry:
    note = read(payload)

    def build(_seq: int, _seed: SealedSeed | None, member: Actor) -> dict[str, Any]:
        return note.record(member.email)

    def check(session: Session, actor: Actor, _game: Fetched) -> None:
        if note.ref_seq is not None:
            check_reference(session, number, note.ref_seq, note.topic)
        if note.away is not None:
            today = ctx.clock().astimezone(UTC).date()
            if note.away[1] < today:
                raise field_error(
                    "until",
                    f"{note.away[1]} is past (today is {today} UTC): an away notice is for "
                    "days to come",
                )
        if note.topic == "forfeit-request":
            from dice_server.services.forfeits import check_request

            game = session.get_one(Game, number)
            wait = ctx.turn_clock.forfeit_after
            check_request(session, game, actor.id, ctx.clock(), wait)

    return record(
        ctx,
        who,
        number,
        "note",
        build,
        needs_dice=False,
        retry=retry,
        check=check,
        cc_ministers=note.topic in MINISTER_TOPICS,
        also=also,
    )


def check_reference(session: Session, number: int, ref_seq: int, topic: str) -> None:
    """A note may refer only to an entry already in the game's ledger."""
    kind = session.execute(
        select(LedgerEntry.kind).where(
            LedgerEntry.game_number == number, LedgerEntry.seq == ref_seq
        )
    ).scalar_one_or_none()
    if kind is None:
        raise field_error("ref_seq", f"game {number} has no entry {ref_seq}")
    if topic == "void-claim" and kind not in ROLL_KINDS:
        raise field_error("ref_seq", f"entry {ref_seq} is a {kind}, not a roll")
