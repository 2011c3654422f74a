"""Backups (issue 20, point 7): ``pbem backup FILE`` while rolls are being written, ``pbem
restore FILE`` into a database, and every chain in the restored database checks out; what
is not a backup, a database that still holds entries, a file already there are refused
with the reason, and nothing is touched."""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import replace
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import func, select

from dice_server.app import create_app
from dice_server.db import reading
from dice_server.errors import Conflict, InvalidRequest
from dice_server.models import LedgerEntry
from dice_server.services import EntryLimit, ServiceContext
from dice_server.services.backup import backup, restore
from dice_server.services.rolls import roll_battle
from tests.conftest import PG_URL, Databases, League, battle, pbem_cli
from tests.integration.test_ledger import member_id


def entry_count(ctx: ServiceContext) -> int:
    with reading(ctx.sessions) as session:
        return int(session.execute(select(func.count()).select_from(LedgerEntry)).scalar_one())


def test_a_backup_taken_under_load_restores_with_every_chain_whole(
    league: League, databases: Databases, instance: Path, tmp_path: Path
) -> None:
    roller = member_id(league, "axis")
    stop = threading.Event()
    errors: list[BaseException] = []
    written = [0, 0]
    # Two threads roll as fast as they can for as long as the backup takes (pg_dump is
    # slow): more than a player may in a minute, which is not what this test is about.
    rolling = replace(league.ctx, entry_limit=EntryLimit(entries=10**9))

    def worker(index: int) -> None:
        try:
            while not stop.is_set():
                roll_battle(rolling, roller, league.game, battle())
                written[index] += 1
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    try:
        while sum(written) < 5 and not errors:
            stop.wait(0.01)
        before = entry_count(league.ctx)  # acknowledged before the backup starts
        taken = backup(league.ctx, tmp_path / "league.backup")
        assert sum(written) > 0 and not errors
        while entry_count(league.ctx) < taken.entries + 3 and not errors:
            stop.wait(0.01)  # more rolls after the backup, which it does not hold
    finally:
        stop.set()
        for t in threads:
            t.join(60)
    assert errors == []
    after = entry_count(league.ctx)
    assert taken.path.is_file() and taken.size > 0 and taken.entries >= before

    if PG_URL:  # one database: the restore replaces it
        target_ctx = league.ctx
        with pytest.raises(Conflict) as refused:
            restore(target_ctx, taken.path)
        assert refused.value.field == "replace"
        checks = restore(target_ctx, taken.path, replace=True)
    else:
        fresh = databases.fresh(tmp_path, "restored.sqlite3")
        other = create_app({"INSTANCE_PATH": str(instance), "DATABASE_URL": fresh})
        target_ctx = other.extensions["pbem"]
        checks = restore(target_ctx, taken.path)
    restored = entry_count(target_ctx)
    assert before <= restored <= after
    assert restored < after  # the rolls after the backup are not in it
    assert checks and all(c.problem is None for c in checks), [c.line() for c in checks]
    assert sum(c.entries for c in checks) == restored


def test_what_is_not_a_backup_is_refused_and_the_database_untouched(
    app: Flask, league: League, tmp_path: Path
) -> None:
    before = entry_count(league.ctx)
    junk = tmp_path / "junk.backup"
    junk.write_bytes(b"this is not a database at all")
    other_db = tmp_path / "other.sqlite3"
    sqlite3.connect(other_db).execute("CREATE TABLE t (x)").connection.commit()
    for path in (junk, other_db, tmp_path / "missing.backup"):
        with pytest.raises(InvalidRequest) as refused:
            restore(league.ctx, path, replace=True)
        assert refused.value.field == "file"
    assert entry_count(league.ctx) == before


def test_the_commands(app: Flask, league: League, tmp_path: Path) -> None:
    target = tmp_path / "nightly.backup"
    done = pbem_cli(app, "backup", str(target))
    assert done.exit_code == 0, done.output
    assert "ledger entries written to" in done.stdout and target.is_file()
    again = pbem_cli(app, "backup", str(target))
    assert again.exit_code != 0 and "exists" in again.output
    refused = pbem_cli(app, "restore", str(target))
    assert refused.exit_code != 0 and "--replace" in refused.output
    restored = pbem_cli(app, "restore", str(target), "--replace")
    assert restored.exit_code == 0, restored.output
    assert f"game {league.game}: ok" in restored.stdout or ": ok," in restored.stdout
