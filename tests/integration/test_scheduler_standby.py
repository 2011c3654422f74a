"""Exactly one scheduler works at a time (issue 20, point 2): a second ``pbem scheduler``
waits as a standby while the first holds the scheduler lock (a PostgreSQL advisory lock; a
file lock beside an SQLite database), and takes over when the first is killed; the game's
mail is delivered by whichever leads, each message once."""

from __future__ import annotations

import email
import os
import signal
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from flask import Flask

from dice_server.db import SchedulerLock
from dice_server.services import ServiceContext
from dice_server.services.rolls import roll_battle
from tests.conftest import League, battle
from tests.integration.test_ledger import member_id
from tests.integration.test_stay_up import _scheduler


class Scheduler:
    """A ``pbem scheduler`` process whose log lines are read as they come."""

    def __init__(self, app: Flask) -> None:
        self.proc = _scheduler(app)
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line.decode(errors="replace"))

    def says(self, words: str, timeout: float = 60) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(words in line for line in self.lines):
                return True
            if self.proc.poll() is not None:
                self.reader.join(5)
                return any(words in line for line in self.lines)
            time.sleep(0.05)
        return False

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.terminate()
        code = self.proc.wait(30)
        self.reader.join(5)
        return code


def copy_of(path: Path) -> tuple[str, int]:
    """A delivered copy (one file a recipient): its message, and how many recipients it
    has, so at most that many copies."""
    msg = email.message_from_bytes(path.read_bytes())
    to = [a for a in (msg["To"] or "").split(",") if a.strip()]
    cc = [a for a in (msg["Cc"] or "").split(",") if a.strip()]
    return str(msg["Message-ID"]), len(to) + len(cc)


def mails(app: Flask, words: str) -> list[Path]:
    folder = Path(app.instance_path) / "maildir" / "new"
    if not folder.is_dir():
        return []
    return [p for p in folder.glob("*") if words in p.read_text(errors="replace")]


def wait_for_mail(app: Flask, words: str, timeout: float = 60) -> list[Path]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = mails(app, words)
        if found:
            return found
        time.sleep(0.1)
    return []


@pytest.mark.slow
def test_a_standby_takes_over_when_the_leader_is_killed(app: Flask, league: League) -> None:
    roller = member_id(league, "axis")
    first = Scheduler(app)
    second: Scheduler | None = None
    try:
        assert first.says("scheduler: leading"), first.lines
        second = Scheduler(app)
        assert second.says("scheduler: standby"), second.lines
        roll_battle(league.ctx, roller, league.game, battle(comment="led by the first"))
        assert wait_for_mail(app, "led by the first"), "the leader delivered nothing"
        assert not any("leading" in line for line in second.lines)

        os.kill(first.proc.pid, signal.SIGKILL)  # no goodbye: the lock goes with the process
        first.proc.wait(30)
        assert second.says("scheduler: leading"), second.lines
        roll_battle(league.ctx, roller, league.game, battle(comment="led by the second"))
        assert wait_for_mail(app, "led by the second"), "the standby took over but sent nothing"
        time.sleep(1.5)  # a few more runs of the outbox: nothing is sent twice
        copies = Counter(copy_of(path) for path in Path(app.instance_path).glob("maildir/new/*"))
        assert copies and all(n <= recipients for (_, recipients), n in copies.items()), copies
    finally:
        first.stop()
        if second is not None:
            assert second.stop() == 0, second.lines


def test_the_lock_is_one_holders_at_a_time(ctx: ServiceContext) -> None:
    engine = ctx.sessions.kw["bind"]
    one, two = SchedulerLock(engine), SchedulerLock(engine)
    try:
        assert one.take()
        assert one.held()
        assert not two.take()
        one.release()
        assert two.take()
        assert not one.take()
    finally:
        one.release()
        two.release()
