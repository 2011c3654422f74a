"""A TripleA table's entries as mail: the game name and annotation the client sent, the
table's roll number, the dice, the entry attached and the table's page, which verifies it.
Like a game's, the message comes only from stored data, so a resend is byte-identical; its
text is the template ``templates/mail/triplea_entry.txt``."""

from __future__ import annotations

import json

from dice_server.mail.compose import Letterhead, attached, letter
from dice_server.mail.letter import Letter
from dice_server.models import DiceTable, OutboxMessage, TableEntry


def table_message(
    row: OutboxMessage, table: DiceTable, entry: TableEntry, head: Letterhead
) -> Letter:
    """A TripleA table's entry: the game name and annotation from the subject the client
    sent, the table's sequence number, the roll time, the dice, the entry attached and the
    table's page, which verifies it."""
    data = json.loads(entry.body)["data"]
    if entry.kind == "roll":
        title = f"[TripleA] {table.game_name}: {data['annotation'] or 'dice'} (roll #{entry.seq})"
    elif entry.kind == "genesis":
        title = f"[TripleA] {table.game_name}: table {table.id} opened"
    else:
        title = f"[TripleA] {table.game_name}: table {table.id} closed"
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
    return letter(
        row,
        head,
        subject=title,
        at=entry.at,
        thread_root=None,
        text=text,
        attachments=[(f"table-{table.id}-entry-{entry.seq}.json", attached(entry.signed()))],
    )
