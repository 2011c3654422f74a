"""A TripleA table's entries as mail: the game name and annotation the client sent, the
table's roll number, the dice, the entry attached and the table's page, which verifies it.
Like a game's, the message comes only from stored data, so a resend is byte-identical; its
text is the template ``templates/mail/triplea_entry.txt``."""

from __future__ import annotations

import json
from email.message import EmailMessage

from dice_server.mail.compose import Letterhead, envelope, fix_boundary
from dice_server.models import DiceTable, OutboxMessage, TableEntry
from dice_server.text import neutralise_bidi


def table_message(
    row: OutboxMessage, table: DiceTable, entry: TableEntry, head: Letterhead
) -> EmailMessage:
    """A TripleA table's entry: the game name and annotation from the subject the client
    sent, the table's sequence number, the roll time, the dice, the entry attached and the
    table's page, which verifies it."""
    data = json.loads(entry.body)["data"]
    msg = EmailMessage()
    if entry.kind == "roll":
        title = f"[TripleA] {table.game_name}: {data['annotation'] or 'dice'} (roll #{entry.seq})"
    elif entry.kind == "genesis":
        title = f"[TripleA] {table.game_name}: table {table.id} opened"
    else:
        title = f"[TripleA] {table.game_name}: table {table.id} closed"
    msg["Subject"] = neutralise_bidi(title)
    envelope(msg, row, entry.at, head)
    text = head.mail.render(
        "triplea_entry.txt",
        kind=entry.kind,
        data=data,
        game_name=table.game_name,
        table_id=table.id,
        public_id=table.public_id,
        seq=entry.seq,
        at=entry.at,
        addresses=json.loads(row.to_addrs),
    )
    msg.set_content(neutralise_bidi(text))
    msg.add_attachment(
        (json.dumps(entry.signed(), ensure_ascii=False, indent=1) + "\n").encode(),
        maintype="application",
        subtype="json",
        filename=f"table-{table.id}-entry-{entry.seq}.json",
    )
    fix_boundary(msg, row)
    return msg
