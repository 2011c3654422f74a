"""``pbem smtpd`` and ``pbem mail``: turns by email (dice_server.services.inbox)."""

from __future__ import annotations

import mailbox
import sys
from collections.abc import Iterator
from pathlib import Path

import click

MAILDIR_PARTS = ("cur", "new", "tmp")


@click.command()
def smtpd() -> None:
    """Receive players' mail over SMTP on SMTPD_HOST:SMTPD_PORT until Ctrl-C."""
    from dice_server.cli import service_app
    from dice_server.smtpd import serve

    app = service_app()
    click.echo(
        f"smtpd: mail for {app.extensions['pbem'].mail_domain} on "
        f"{app.config['SMTPD_HOST']}:{app.config['SMTPD_PORT']}",
        err=True,
    )
    serve(app.extensions["pbem"], app.config)


@click.group()
def mail() -> None:
    """Mail received from players."""


def _messages(source: str) -> Iterator[tuple[str, bytes]]:
    """(name, raw bytes) of each message in FILE, - (standard input) or a maildir."""
    if source == "-":
        yield "<stdin>", sys.stdin.buffer.read()
        return
    path = Path(source)
    if path.is_dir():
        if not all((path / part).is_dir() for part in MAILDIR_PARTS):
            raise click.UsageError(f"{source} is a folder but not a maildir (cur, new, tmp)")
        box = mailbox.Maildir(path, create=False)
        for key in sorted(box.iterkeys()):
            with box.get_file(key) as fh:
                yield f"{source}:{key}", fh.read()
        return
    try:
        yield source, path.read_bytes()
    except OSError as exc:
        raise click.UsageError(f"cannot read {source}: {exc.strerror}") from None


@mail.command("ingest")
@click.argument("source")
def mail_ingest(source: str) -> None:
    """Take RFC 5322 messages from FILE, - (an MTA's pipe) or a MAILDIR.

    Prints one line per message: its spool id, what became of it, the game and entry, and
    the reason when it was not recorded. Exit status 0 whatever the messages held (they are
    all kept); 2 when the source cannot be read.
    """
    from dice_server.cli import _ctx
    from dice_server.services.inbox import receive

    ctx = _ctx()
    for name, raw in _messages(source):
        got = receive(ctx, raw, channel="ingest")
        where = f"game {got.game}" if got.game is not None else "-"
        entry = f"#{got.seq}" if got.seq is not None else "-"
        again = " (already received)" if got.duplicate else ""
        line = f"{got.id}\t{got.status}{again}\t{where}\t{entry}\t{name}"
        if got.reason:
            line += f"\t{got.reason}"
        click.echo(line)


@mail.command("quarantine")
def mail_quarantine() -> None:
    """Every message kept aside: id, time, sender, game, subject, reason."""
    from dice_server.cli import _ctx
    from dice_server.services.inbox import quarantine

    for row in quarantine(_ctx()):
        game = "-" if row.game is None else str(row.game)
        click.echo(
            f"{row.id}\t{row.received_at.isoformat(timespec='seconds')}\t"
            f"{row.sender or '(no From)'}\t{game}\t{row.subject or ''}\t{row.reason}"
        )
