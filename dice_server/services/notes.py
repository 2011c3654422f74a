"""Notes through the roller: everything the rule text says must be "recorded and sent
through the dice roller (not regular email) so that timing can be verified" (IAAPA,
Amendments and Special Orders; Retreats; Error Correction VII) is signed and
timestamped like a roll, as a ``note`` entry."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from dice_server.dice import SealedSeed
from dice_server.jsonbody import shown
from dice_server.ledger import SignedEntry
from dice_server.models import LedgerEntry
from dice_server.requests import check_fields, field_error, positive_int, text
from dice_server.services import ServiceContext
from dice_server.services.entries import Actor, Retry, Who, record
from dice_server.verifier import ROLL_KINDS

TOPICS = {
    "special-orders": "orders of loss, sub withdrawals and other special instructions",
    "retreat": "a retreat location, declared before the next battle is rolled",
    "error-recognition": "an error recognised (Error Correction VII)",
    "void-claim": "a roll made in the wrong game (names its seq)",
    "forfeit-request": "a request that the opponent forfeit",
    "general": "anything else whose timing matters",
}
MAX_NOTE = 10000
#: Notes the Minister of Law is sent a copy of.
MINISTER_TOPICS = frozenset({"forfeit-request", "error-recognition"})


def send_note(
    ctx: ServiceContext, who: Who, number: int, payload: Any, retry: Retry | None = None
) -> SignedEntry:
    fields = check_fields(payload, {"topic", "ref_seq", "text"}, {"topic", "text"})
    topic = fields["topic"]
    if not isinstance(topic, str):
        raise field_error(
            "topic", f"must be a topic's name, not {shown(topic)}; use one of {', '.join(TOPICS)}"
        )
    if topic not in TOPICS:
        raise field_error("topic", f"unknown topic {shown(topic)}; use one of {', '.join(TOPICS)}")
    body = text(fields, "text", MAX_NOTE)
    ref_seq = positive_int(fields, "ref_seq", 2**31 - 1) if "ref_seq" in fields else None
    if topic == "void-claim" and ref_seq is None:
        raise field_error("ref_seq", "a void-claim names the seq of the roll made in error")

    def build(_seq: int, _seed: SealedSeed | None, member: Actor) -> dict[str, Any]:
        data: dict[str, Any] = {"topic": topic, "text": body, "by": member.email}
        if ref_seq is not None:
            data["ref_seq"] = ref_seq
        return data

    def check(session: Session) -> None:
        if ref_seq is not None:
            check_reference(session, number, ref_seq, topic)

    return record(
        ctx,
        who,
        number,
        "note",
        build,
        needs_dice=False,
        retry=retry,
        check=check,
        cc_ministers=topic in MINISTER_TOPICS,
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
