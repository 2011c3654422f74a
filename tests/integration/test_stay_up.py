"""Issue 12, point 1: no anonymous client can stop the service. A registration hashes its
password before the write transaction; the scheduler outlives a busy database and keeps
no job store of its own there; a roll's mail still arrives after a registration flood."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from dice_server.db import in_write_transaction, writing
from dice_server.errors import ServiceError
from dice_server.services import ServiceContext, accounts
from dice_server.services.rolls import roll_battle
from tests.conftest import PG_URL, League, battle


def test_a_registration_hashes_outside_the_write_transaction(
    ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scrypt hash (tens of milliseconds) must not hold the write lock: two anonymous
    clients registering in a loop would otherwise keep every other writer waiting."""
    seen: list[bool] = []
    real = accounts.generate_password_hash

    def watched(password: str, **kwargs: Any) -> str:
        seen.append(in_write_transaction())
        return real(password, **kwargs)

    monkeypatch.setattr(accounts, "generate_password_hash", watched)
    accounts.register(ctx, "first@example.org", "First", "a-long-password", "10.0.0.1")
    accounts.register(ctx, "first@example.org", "Again", "a-long-password", "10.0.0.1")
    member = accounts.authenticate(ctx, "first@example.org", "a-long-password", "10.0.0.1")
    token = "unused"
    with pytest.raises(ServiceError):
        accounts.reset_password(ctx, token, "another-long-password")
    accounts.set_password(ctx, "first@example.org", "a-third-password")
    assert member.email == "first@example.org"
    assert seen and not any(seen)


def test_write_transactions_refuse_to_nest(ctx: ServiceContext) -> None:
    with writing(ctx.sessions):
        with pytest.raises(RuntimeError, match="do not nest"):
            with writing(ctx.sessions):
                pass
    with writing(ctx.sessions):  # and the flag is cleared after an error
        pass


def _scheduler(app: Flask, **extra: str) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "PBEM_INSTANCE_PATH": app.instance_path,
        "PBEM_DATABASE_URL": app.config["DATABASE_URL"],
        "PBEM_MAIL_TRANSPORT": "maildir",
        "PBEM_OUTBOX_INTERVAL_SECONDS": "0.2",
        **extra,
    }
    pbem = str(Path(sys.executable).parent / "pbem")
    return subprocess.Popen([pbem, "scheduler"], env=env, stderr=subprocess.PIPE)


def _mailed(app: Flask, words: str, timeout: float = 30) -> bool:
    folder = Path(app.instance_path) / "maildir" / "new"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        texts = (p.read_text(errors="replace") for p in folder.glob("*"))
        if any(words in text for text in texts):
            return True
        time.sleep(0.1)
    return False


@pytest.mark.slow
def test_the_scheduler_survives_a_registration_flood_and_a_locked_database(
    app: Flask, league: League
) -> None:
    """Two clients registering without pause while the scheduler runs; then the database
    held locked longer than any driver waits (SQLite): the scheduler is still running
    afterwards and a roll's mail still arrives."""
    scheduler = _scheduler(app)
    try:
        assert _mailed(app, f"[Game {league.game}] #1"), "the opening was never delivered"
        stop = threading.Event()
        made = [0, 0]

        def flood(who: int) -> None:
            n = 0
            while not stop.is_set():
                n += 1
                accounts.register(  # from many clients, as a botnet would
                    league.ctx,
                    f"flood{who}-{n}@example.org",
                    "Flood",
                    "a-long-password",
                    f"10.{who}.{n // 250}.{n % 250}",
                )
                made[who] += 1

        threads = [threading.Thread(target=flood, args=(i,)) for i in range(2)]
        for thread in threads:
            thread.start()
        time.sleep(3)
        stop.set()
        for thread in threads:
            thread.join()
        assert min(made) > 0
        if not PG_URL:
            # An operator's long write (or a stuck client) holds SQLite's lock for 6 s:
            # longer than pysqlite's 5 s default wait that killed the old job store.
            database = app.config["DATABASE_URL"].removeprefix("sqlite:///")
            holder = sqlite3.connect(database, timeout=30, isolation_level=None)
            holder.execute("BEGIN IMMEDIATE")
            time.sleep(6)
            holder.execute("ROLLBACK")
            holder.close()
        assert scheduler.poll() is None, scheduler.stderr.read().decode()  # type: ignore[union-attr]
        entry = roll_battle(league.ctx, 1, league.game, battle(comment="after the flood"))
        assert _mailed(app, f"[Game {league.game}] #{entry.seq} "), "the roll was not mailed"
        assert scheduler.poll() is None
    finally:
        scheduler.terminate()
        _, err = scheduler.communicate(timeout=30)
    assert scheduler.returncode == 0, err.decode()
    # It logs what it did, never that it looked: no APScheduler line for each idle run.
    assert "executed successfully" not in err.decode()
    assert 'Running job "outbox_job' not in err.decode()
