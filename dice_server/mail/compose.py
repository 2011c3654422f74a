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
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime
from typing import Any

from dice_server.kinds import describe, subject
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


_HEADERS: dict[tuple[str, str], Any] = {}
_HEADERS_KEPT = 1024


def _header(name: str, value: str) -> Any:
    """The header ``name: value`` as the message's policy makes it, made once for the
    values every message of a game repeats (From, To, Cc, its thread): parsing an address
    list costs about 0.1 ms a time, and a made header is immutable, so messages share it
    (the bytes written are the same as for the text)."""
    key = (name, value)
    made = _HEADERS.get(key)
    if made is None:
        if len(_HEADERS) >= _HEADERS_KEPT:
            _HEADERS.clear()
        made = _HEADERS[key] = policy.default.header_factory(name, value)
    return made


def recipients(row: OutboxMessage) -> list[str]:
    return [*json.loads(row.to_addrs), *json.loads(row.cc_addrs or "[]")]


def entry_message(
    row: OutboxMessage,
    entry: LedgerEntry,
    thread_root: str | None,
    head: Letterhead,
    keys: Mapping[str, Any] | None = None,
) -> EmailMessage:
    """The message announcing ``entry``: readable result, verify link, the entry attached.

    ``thread_root`` is the Message-ID of the game's genesis message, which every later
    message of the game references so that a mail client threads the game. ``keys`` (the
    game's first message only) are attached as ``keys.json``: the keys travel with the
    game, so that a player's mail alone verifies it (``verifier.py --mail``).
    """
    obj = json.loads(entry.body)
    data, number, seq = obj["data"], entry.game_number, entry.seq
    msg = EmailMessage()
    msg["Subject"] = neutralise_bidi(subject(number, seq, entry.kind, data))
    envelope(msg, row, entry.at, head)
    if thread_root and thread_root != row.message_id:
        msg["In-Reply-To"] = _header("In-Reply-To", thread_root)
        msg["References"] = _header("References", thread_root)
    text = head.mail.render(
        "entry.txt",
        number=number,
        seq=seq,
        kind=entry.kind,
        at=entry.at,
        description=describe(entry.kind, data),
        keys_attached=keys is not None,
    )
    msg.set_content(neutralise_bidi(text))
    attachment = json.dumps(entry.signed(), ensure_ascii=False, indent=1) + "\n"
    msg.add_attachment(
        attachment.encode("utf-8"),
        maintype="application",
        subtype="json",
        filename=f"entry-{seq}.json",
    )
    if keys is not None:
        msg.add_attachment(
            (json.dumps(keys, indent=1) + "\n").encode("utf-8"),
            maintype="application",
            subtype="json",
            filename="keys.json",
        )
    fix_boundary(msg, row)
    return msg


def fix_boundary(msg: EmailMessage, row: OutboxMessage) -> None:
    """A fixed boundary keeps a resend byte-identical. It derives from the entry's hash,
    which no text inside the entry can know in advance."""
    msg.set_boundary(f"=_pbem_{hashlib.sha256(row.message_id.encode()).hexdigest()[:32]}")


def envelope(msg: EmailMessage, row: OutboxMessage, at: str, head: Letterhead) -> None:
    msg["From"] = _header("From", head.sender)
    msg["To"] = _header("To", ", ".join(json.loads(row.to_addrs)))
    if json.loads(row.cc_addrs or "[]"):
        msg["Cc"] = _header("Cc", ", ".join(json.loads(row.cc_addrs)))
    msg["Message-ID"] = row.message_id
    msg["Date"] = format_datetime(parse_time(at).replace(tzinfo=UTC))
