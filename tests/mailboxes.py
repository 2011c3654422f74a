"""Players' own mailboxes, for the tests of ``verifier.py --mail``: a game's mail delivered
through the real outbox to an SMTP relay (aiosmtpd on a loopback port) that files every
message in each recipient's own maildir, and the same mail as an mbox, a folder of ``.eml``
files, a folder of saved attachments or a zip, and the ways a mailbox can be spoiled."""

from __future__ import annotations

import email
import io
import json
import mailbox
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from dice_server.mail.delivery import deliver_due
from dice_server.services.games import end_game
from dice_server.verifier import MailReport, canonical_json, mail_items, verify_mail
from tests.conftest import League
from tests.integration.test_mail import RelayController, courier_for, smtp_config
from tests.integration.test_verifiers import play


class MaildirRelay:
    """An SMTP relay that files each message it accepts in every recipient's maildir, as
    the recipient's mail server would: ``root/<address>/new/``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        for address in envelope.rcpt_tos:
            mailbox.Maildir(self.root / address, create=True).add(envelope.content)
        return "250 2.0.0 accepted"

    def maildir(self, address: str) -> Path:
        return self.root / address


@contextmanager
def running_relay(port: int, root: Path) -> Iterator[tuple[MaildirRelay, int]]:
    """A :class:`MaildirRelay` listening on ``port`` (one the test reserved)."""
    handler = MaildirRelay(root)
    controller = RelayController(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


def deliver(app: Flask, port: int) -> None:
    """One delivery run of the outbox over SMTP; everything due must go."""
    report = deliver_due(courier_for(app, **smtp_config(port)))
    assert not report.failed, report.failed


def play_whole_game(app: Flask, client: FlaskClient, league: League, port: int) -> None:
    """Seven entries through the API (genesis; tech, battle, bombing and rocket rolls at
    2, 3, 5 and 6; a note at 4), the seed revealed at 7, all mail delivered."""
    play(client, league)
    end_game(league.ctx, league.game, status="finished", winner="axis")
    deliver(app, port)


def read(path: Path) -> EmailMessage:
    msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def attachments(msg: EmailMessage) -> dict[str, bytes]:
    found = {}
    for part in msg.iter_attachments():
        assert isinstance(part, EmailMessage)
        found[str(part.get_filename())] = part.get_payload(decode=True)
    return found


def by_seq(maildir: Path) -> dict[int, Path]:
    """Each entry's message in a maildir by the entry's seq."""
    found = {}
    for path in (maildir / "new").iterdir():
        for name in attachments(read(path)):
            if name.startswith("entry-"):
                found[int(name.removeprefix("entry-").removesuffix(".json"))] = path
    return found


def in_seq_order(maildir: Path) -> list[Path]:
    """Every message of a maildir, the entries' in seq order, any other after them."""
    entries = by_seq(maildir)
    others = sorted(set((maildir / "new").iterdir()) - set(entries.values()))
    return [entries[seq] for seq in sorted(entries)] + others


def as_mbox(maildir: Path, target: Path) -> Path:
    """The maildir's messages written by the standard library's mbox writer."""
    box = mailbox.mbox(target, create=True)
    for path in in_seq_order(maildir):
        box.add(path.read_bytes())
    box.flush()
    box.close()
    return target


def as_eml_folder(maildir: Path, target: Path) -> Path:
    target.mkdir()
    for number, path in enumerate(in_seq_order(maildir), start=1):
        (target / f"{number:03d}.eml").write_bytes(path.read_bytes())
    return target


def as_saved_files(maildir: Path, target: Path) -> Path:
    """Every attachment saved from the mail client into one folder."""
    target.mkdir()
    for path in in_seq_order(maildir):
        for name, payload in attachments(read(path)).items():
            (target / name).write_bytes(payload)
    return target


def as_zip(maildir: Path) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for number, path in enumerate(in_seq_order(maildir), start=1):
            archive.writestr(f"game/{number:03d}.eml", path.read_bytes())
    return buffer.getvalue()


def replace_entry(msg: EmailMessage, signed: dict[str, str], seq: int) -> bytes:
    """The message with its entry attachment replaced by ``signed``."""
    for part in msg.iter_attachments():
        assert isinstance(part, EmailMessage)
        if part.get_filename() == f"entry-{seq}.json":
            part.set_content(
                (json.dumps(signed, indent=1) + "\n").encode(),
                maintype="application",
                subtype="json",
                disposition="attachment",
                filename=f"entry-{seq}.json",
            )
    return msg.as_bytes()


def entry_of(path: Path, seq: int) -> dict[str, str]:
    signed: dict[str, str] = json.loads(attachments(read(path))[f"entry-{seq}.json"])
    return signed


def resigned(signer: Any, body: dict[str, Any]) -> dict[str, str]:
    """A body of one's choosing signed with the server's own key: what a dishonest server
    (or one whose key leaked) could mail."""
    raw = canonical_json(body)
    return {"body": raw.decode(), "sig": signer.sign(raw), "key": signer.key_id}


def verified(path: Path, keys: Any = None, **options: Any) -> MailReport:
    return verify_mail(mail_items(str(path)), keys, **options)


def chain_lines(report: MailReport) -> list[list[str]]:
    """What a report says of each ledger, without the lines about its keys (which name
    the files the keys came from)."""
    return [
        [line for line in chain.lines() if not line.lstrip().startswith("keys:")]
        for chain in report.chains
    ]
