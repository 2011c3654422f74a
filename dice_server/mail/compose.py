"""An outbox row and its entry as a message. Everything comes from stored, immutable data
(the Date is the entry's own time), so a resend is the same message byte for byte."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC
from email.message import EmailMessage
from email.utils import format_datetime

from dice_server.models import LedgerEntry, OutboxMessage
from dice_server.readable import describe, subject
from dice_server.verifier import parse_time


@dataclass(frozen=True)
class Letterhead:
    """What every message needs from the configuration."""

    sender: str
    base_url: str


def recipients(row: OutboxMessage) -> list[str]:
    return [*json.loads(row.to_addrs), *json.loads(row.cc_addrs or "[]")]


def entry_message(
    row: OutboxMessage, entry: LedgerEntry, thread_root: str | None, head: Letterhead
) -> EmailMessage:
    """The message announcing ``entry``: readable result, verify link, the entry attached.

    ``thread_root`` is the Message-ID of the game's genesis message, which every later
    message of the game references so that a mail client threads the game.
    """
    obj = json.loads(entry.body)
    data, number, seq = obj["data"], entry.game_number, entry.seq
    msg = EmailMessage()
    msg["From"] = head.sender
    msg["To"] = ", ".join(json.loads(row.to_addrs))
    if json.loads(row.cc_addrs or "[]"):
        msg["Cc"] = ", ".join(json.loads(row.cc_addrs))
    msg["Subject"] = subject(number, seq, entry.kind, data)
    msg["Message-ID"] = row.message_id
    msg["Date"] = format_datetime(parse_time(entry.at).replace(tzinfo=UTC))
    if thread_root and thread_root != row.message_id:
        msg["In-Reply-To"] = thread_root
        msg["References"] = thread_root
    base = head.base_url.rstrip("/")
    lines = [
        f"Game {number}, ledger entry #{seq} ({entry.kind}), stamped {entry.at}.",
        "",
        *describe(entry.kind, data),
        "",
        "--",
        f"The signed entry is attached. Verify it at {base}/verify, or offline:",
        f"download {base}/verifier.py and the keys at {base}/api/v1/keys, then run",
        "  python verifier.py LEDGER.json --keys KEYS.json",
        f"on the game's ledger ({base}/api/v1/games/{number}/ledger).",
    ]
    msg.set_content("\n".join(lines) + "\n")
    attachment = json.dumps(entry.signed(), ensure_ascii=False, indent=1) + "\n"
    msg.add_attachment(
        attachment.encode("utf-8"),
        maintype="application",
        subtype="json",
        filename=f"entry-{seq}.json",
    )
    # A fixed boundary keeps a resend byte-identical. It derives from the entry's hash,
    # which no text inside the entry can know in advance.
    msg.set_boundary(f"=_pbem_{hashlib.sha256(row.message_id.encode()).hexdigest()[:32]}")
    return msg
