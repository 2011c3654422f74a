"""An outbox row and its entry as a message. Everything comes from stored, immutable data
(the Date is the entry's own time), so a resend is the same message byte for byte.

What a person reads (the Subject, the text) has its bidirectional controls made visible
(dice_server.text); the attached entry keeps its exact bytes, so it still verifies."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC
from email.message import EmailMessage
from email.utils import format_datetime

from dice_server.models import DiceTable, LedgerEntry, OutboxMessage, TableEntry
from dice_server.readable import describe, subject
from dice_server.text import neutralise_bidi
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
    msg["Subject"] = neutralise_bidi(subject(number, seq, entry.kind, data))
    _envelope(msg, row, entry.at, head)
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
    msg.set_content(neutralise_bidi("\n".join(lines) + "\n"))
    attachment = json.dumps(entry.signed(), ensure_ascii=False, indent=1) + "\n"
    msg.add_attachment(
        attachment.encode("utf-8"),
        maintype="application",
        subtype="json",
        filename=f"entry-{seq}.json",
    )
    _fix_boundary(msg, row)
    return msg


def _fix_boundary(msg: EmailMessage, row: OutboxMessage) -> None:
    """A fixed boundary keeps a resend byte-identical. It derives from the entry's hash,
    which no text inside the entry can know in advance."""
    msg.set_boundary(f"=_pbem_{hashlib.sha256(row.message_id.encode()).hexdigest()[:32]}")


def _envelope(msg: EmailMessage, row: OutboxMessage, at: str, head: Letterhead) -> None:
    msg["From"] = head.sender
    msg["To"] = ", ".join(json.loads(row.to_addrs))
    if json.loads(row.cc_addrs or "[]"):
        msg["Cc"] = ", ".join(json.loads(row.cc_addrs))
    msg["Message-ID"] = row.message_id
    msg["Date"] = format_datetime(parse_time(at).replace(tzinfo=UTC))


def table_message(
    row: OutboxMessage, table: DiceTable, entry: TableEntry, head: Letterhead
) -> EmailMessage:
    """A TripleA table's entry: the game name and annotation from the subject the client
    sent, the table's sequence number, the roll time, the dice, the entry attached and the
    table's page, which verifies it."""
    data = json.loads(entry.body)["data"]
    url = f"{head.base_url.rstrip('/')}/tables/{table.public_id}"
    msg = EmailMessage()
    if entry.kind == "roll":
        title = f"[TripleA] {table.game_name}: {data['annotation'] or 'dice'} (roll #{entry.seq})"
        lines = [
            f"Game: {table.game_name}",
            f"Annotation: {data['annotation']}",
            f"Table {table.id}, roll #{entry.seq}, stamped {entry.at}",
            f"{data['count']} dice of {data['sides']} sides, in the order thrown:",
            "  " + ",".join(str(d) for d in data["dice"]),
        ]
    elif entry.kind == "genesis":
        title = f"[TripleA] {table.game_name}: table {table.id} opened"
        lines = [
            f"A dice table is open for {', '.join(json.loads(row.to_addrs))}.",
            f"Its dice seed is committed: {data['seed_commitment']}; it is revealed when a "
            "participant closes the table, and then every die can be recomputed.",
        ]
    else:
        title = f"[TripleA] {table.game_name}: table {table.id} closed"
        lines = [f"The table is closed; its seed is revealed: {data['seed']}."]
    msg["Subject"] = neutralise_bidi(title)
    _envelope(msg, row, entry.at, head)
    lines += ["", f"Every roll of this table, in order, and its verification: {url}"]
    msg.set_content(neutralise_bidi("\n".join(lines) + "\n"))
    msg.add_attachment(
        (json.dumps(entry.signed(), ensure_ascii=False, indent=1) + "\n").encode(),
        maintype="application",
        subtype="json",
        filename=f"table-{table.id}-entry-{entry.seq}.json",
    )
    _fix_boundary(msg, row)
    return msg
