"""An outbox row and its entry as a message. Everything comes from stored, immutable data
(the Date is the entry's own time), so a resend is the same message byte for byte.

The text is the template ``templates/mail/entry.txt``, its links made under the public
``BASE_URL`` (dice_server.mail.templates). What a person reads (the Subject, the text) has
its bidirectional controls made visible (dice_server.text); the attached entry keeps its
exact bytes, so it still verifies."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC
from email.utils import format_datetime
from typing import Any

from dice_server.kinds import describe, subject
from dice_server.mail.letter import Letter
from dice_server.models import LedgerEntry, OutboxMessage
from dice_server.services import MailTemplates
from dice_server.text import neutralise_bidi
from dice_server.verifier import parse_time


@dataclass(frozen=True)
class Letterhead:
    """What every message needs from the configuration: the sender, and the templates
    that write its text with links under the public address."""

    sender: str
    mail: MailTemplates


def recipients(row: OutboxMessage) -> list[str]:
    return [*json.loads(row.to_addrs), *json.loads(row.cc_addrs or "[]")]


def entry_message(
    row: OutboxMessage,
    entry: LedgerEntry,
    thread_root: str | None,
    head: Letterhead,
    keys: Mapping[str, Any] | None = None,
) -> Letter:
    """The message announcing ``entry``: readable result, verify link, the entry attached.

    ``thread_root`` is the Message-ID of the game's genesis message, which every later
    message of the game references so that a mail client threads the game. ``keys`` (the
    game's first message only) are attached as ``keys.json``: the keys travel with the
    game, so that a player's mail alone verifies it (``verifier.py --mail``).
    """
    obj = json.loads(entry.body)
    data, number, seq = obj["data"], entry.game_number, entry.seq
    text = head.mail.render(
        "entry.txt",
        number=number,
        seq=seq,
        kind=entry.kind,
        at=entry.at,
        description=describe(entry.kind, data),
        keys_attached=keys is not None,
    )
    attachments = [(f"entry-{seq}.json", attached(entry.signed()))]
    if keys is not None:
        attachments.append(("keys.json", (json.dumps(keys, indent=1) + "\n").encode("utf-8")))
    return letter(
        row,
        head,
        subject=subject(number, seq, entry.kind, data),
        at=entry.at,
        thread_root=thread_root,
        text=text,
        attachments=attachments,
    )


def attached(signed: Mapping[str, Any]) -> bytes:
    """A signed entry as the file attached to its message."""
    return (json.dumps(signed, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def letter(
    row: OutboxMessage,
    head: Letterhead,
    *,
    subject: str,
    at: str,
    thread_root: str | None,
    text: str,
    attachments: list[tuple[str, bytes]],
) -> Letter:
    """The message of ``row``: its addresses and Message-ID, dated at the entry's time, the
    text and subject readable (bidirectional controls made visible), and a fixed boundary,
    which keeps a resend byte-identical. The boundary derives from the entry's hash,
    which no text inside the entry can know in advance."""
    return Letter(
        subject=neutralise_bidi(subject),
        sender=head.sender,
        to=tuple(json.loads(row.to_addrs)),
        cc=tuple(json.loads(row.cc_addrs or "[]")),
        message_id=row.message_id,
        date=format_datetime(parse_time(at).replace(tzinfo=UTC)),
        thread_root=thread_root,
        text=neutralise_bidi(text),
        attachments=tuple(attachments),
        boundary=f"=_pbem_{hashlib.sha256(row.message_id.encode()).hexdigest()[:32]}",
    )
