"""Backups of the database (``pbem backup FILE``, ``pbem restore FILE``).

SQLite: SQLite's online backup API copies a consistent snapshot while the server runs (a
roll committed before the copy starts is in it, one committed during it is either wholly in
it or not at all). PostgreSQL: ``pg_dump`` in its custom format (one transaction's
snapshot), restored by ``pg_restore``. Either way the file is written beside its name and
renamed into place, so a backup cut short never leaves a file that looks whole.

A restore replaces the whole database. It refuses a database that holds ledger entries
unless told to replace them (``replace``), and reads the backup before touching the
database: a file that is not a backup of this service is refused with the reason. After a
restore every chain is checked in place (:func:`dice_server.services.integrity.check_ledgers`).

What the database does not hold: the instance's keys (``signing_key.pem``, ``seed_key``,
``secret_key`` in the instance folder). Without the seed key no sealed seed can be opened
again, so back the instance folder up beside the database (once: the keys change only on
``pbem keys rotate``).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.engine import Engine, make_url

from dice_server.db import reading
from dice_server.errors import Conflict, InvalidRequest
from dice_server.migrate import upgrade
from dice_server.models import Game, LedgerEntry
from dice_server.services import ServiceContext
from dice_server.services.integrity import ChainCheck, check_ledgers

_PG_TIMEOUT = 3600


@dataclass(frozen=True)
class Backup:
    """A backup written: where, how big, and what it holds."""

    path: Path
    size: int
    games: int
    entries: int

    def line(self) -> str:
        return (
            f"backup of {self.games} games, {self.entries} ledger entries written to "
            f"{self.path} ({self.size} bytes)"
        )


def _engine(ctx: ServiceContext) -> Engine:
    engine: Engine = ctx.sessions.kw["bind"]
    return engine


def _counts(ctx: ServiceContext) -> tuple[int, int]:
    with reading(ctx.sessions) as session:
        games = session.execute(select(func.count()).select_from(Game)).scalar_one()
        entries = session.execute(select(func.count()).select_from(LedgerEntry)).scalar_one()
    return int(games), int(entries)


def _libpq_url(engine: Engine) -> str:
    """The database's URL as ``pg_dump`` and ``pg_restore`` take it (no driver name)."""
    return engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


def _run(args: list[str], what: str) -> None:
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=_PG_TIMEOUT)
    except FileNotFoundError:
        raise Conflict(f"{args[0]} is not installed: install PostgreSQL's client tools") from None
    if done.returncode != 0:
        raise Conflict(f"{what} failed: {done.stderr.strip() or done.stdout.strip()}")


def backup(ctx: ServiceContext, path: Path, *, overwrite: bool = False) -> Backup:
    """Write a backup of the whole database to ``path`` while the service runs."""
    if path.exists() and not overwrite:
        raise Conflict(f"file: {path} exists; give another name (or --overwrite)", "file")
    if not path.parent.is_dir():
        raise InvalidRequest(f"file: there is no folder {path.parent}", "file")
    engine = _engine(ctx)
    partial = path.with_name(path.name + ".partial")
    partial.unlink(missing_ok=True)
    games, entries = _counts(ctx)
    try:
        if engine.dialect.name == "sqlite":
            _sqlite_backup(engine, partial)
        else:
            _run(
                [
                    "pg_dump",
                    "--format=custom",
                    "--no-owner",
                    f"--file={partial}",
                    _libpq_url(engine),
                ],
                "pg_dump",
            )
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return Backup(path, path.stat().st_size, games, entries)


def _copy_sqlite(source: sqlite3.Connection, target: str | Path) -> None:
    """SQLite's online backup of ``source`` into the database file ``target``."""
    copy = sqlite3.connect(target)
    try:
        source.backup(copy)
    finally:
        copy.close()


def _sqlite_backup(engine: Engine, target: Path) -> None:
    raw = engine.raw_connection()
    try:
        source = raw.driver_connection
        assert isinstance(source, sqlite3.Connection)
        _copy_sqlite(source, target)
    finally:
        raw.close()


def _sqlite_backup_file(path: Path) -> None:
    """Refuse a file that is not an SQLite backup of this service."""
    try:
        with path.open("rb") as f:
            if f.read(16) != b"SQLite format 3\x00":
                raise InvalidRequest(f"file: {path} is not an SQLite database", "file")
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            tables = {
                row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
        finally:
            conn.close()
    except (OSError, sqlite3.DatabaseError) as exc:
        raise InvalidRequest(f"file: {path} cannot be read: {exc}", "file") from None
    if not {"alembic_version", "ledger_entries", "games"} <= tables:
        raise InvalidRequest(
            f"file: {path} is an SQLite database but not a backup of this service "
            "(it has no ledger)",
            "file",
        )


def restore(ctx: ServiceContext, path: Path, *, replace: bool = False) -> list[ChainCheck]:
    """Replace the whole database by the backup at ``path`` (the service stopped), then
    check every chain in it; the checks, one per chain. A backup taken before a migration
    is migrated to the current schema."""
    if not path.is_file():
        raise InvalidRequest(f"file: there is no file {path}", "file")
    engine = _engine(ctx)
    _, entries = _counts(ctx)
    if entries and not replace:
        raise Conflict(
            f"the database holds {entries} ledger entries: a restore replaces them all; "
            "say so with --replace (and stop the service first)",
            "replace",
        )
    if engine.dialect.name == "sqlite":
        _sqlite_backup_file(path)
        engine.dispose()
        database = make_url(str(engine.url)).database
        assert database
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            _copy_sqlite(source, database)
        finally:
            source.close()
    else:
        with path.open("rb") as f:
            if f.read(5) != b"PGDMP":
                raise InvalidRequest(f"file: {path} is not a pg_dump backup", "file")
        engine.dispose()
        _run(
            [
                "pg_restore",
                "--clean",
                "--if-exists",
                "--no-owner",
                "--single-transaction",
                f"--dbname={_libpq_url(engine)}",
                str(path),
            ],
            "pg_restore",
        )
    engine.dispose()
    upgrade(engine)  # a backup taken before a migration is brought up to date
    return list(check_ledgers(ctx))
