"""`pbem scheduler`: the one process that runs APScheduler (3.x). Web workers never start
a scheduler. Jobs are module-level functions with explicit ids, added on every start.

The job store is in memory: the jobs are fixed by the code and re-added at start, so a
database job store would only be one more writer fighting the application for SQLite's
write lock (it had no write gate, and its "database is locked" ended the process). A job
that fails, the database busy or down included, is logged and runs again at the next
interval: the scheduler outlives it. It logs what a run did, never that it looked.

Exactly one scheduler works at a time, across hosts: it holds the scheduler lock
(:class:`dice_server.db.SchedulerLock`: a PostgreSQL advisory lock, or a file lock beside an
SQLite database). Another one started beside it waits as a standby, trying the lock every
outbox interval, and takes over within one interval of the first one's death. Every job is
idempotent (claims, once-only keys), so a job cut short by a death is finished by the next.
A scheduler whose lock connection is lost stops with status 1 (its supervisor restarts it,
as a standby if another has taken over)."""

from __future__ import annotations

import logging
import signal
import time
from collections.abc import Callable, Sized
from datetime import UTC
from pathlib import Path
from types import FrameType

from apscheduler.jobstores.memory import MemoryJobStore
from apscheduler.schedulers.blocking import BlockingScheduler
from flask import Flask
from sqlalchemy.exc import SQLAlchemyError

from dice_server.db import SchedulerLock
from dice_server.mail.delivery import Courier, deliver_due
from dice_server.services import ServiceContext

log = logging.getLogger(__name__)

OUTBOX_JOB = "outbox"
INBOX_JOB = "inbox"
INBOX_INTERVAL_SECONDS = 60
DEADLINES_JOB = "deadlines"
DEADLINES_INTERVAL_SECONDS = 600
CHALLENGES_JOB = "challenges"
CHALLENGES_INTERVAL_SECONDS = 600
REMINDERS_JOB = "reminders"
LOCK_JOB = "scheduler-lock"

_courier: Courier | None = None


def outbox_job() -> None:
    """Deliver the due mail (the job APScheduler runs every few seconds)."""
    if _courier is None:
        raise RuntimeError("the outbox job runs only inside `pbem scheduler`")
    try:
        report = deliver_due(_courier)
    except SQLAlchemyError as exc:
        # Busy or unreachable database: nothing was lost (claims expire); try next interval.
        log.warning("outbox: the database did not answer (%s); trying again next run", exc)
        return
    if report.sent or report.failed:
        log.info("outbox: %d sent, %d failed", len(report.sent), len(report.failed))


def _run(name: str, work: Callable[[ServiceContext], Sized], did: str) -> None:
    """Run one service job in the scheduler; a busy or absent database waits for the next
    run (nothing is lost: the job finds the same work again)."""
    if _courier is None:
        raise RuntimeError(f"the {name} job runs only inside `pbem scheduler`")
    try:
        done = work(_courier.ctx)
    except SQLAlchemyError as exc:
        log.warning("%s: the database did not answer (%s); trying again next run", name, exc)
        return
    if len(done):
        log.info("%s: %d %s", name, len(done), did)


def inbox_job() -> None:
    """Process mail left spooled (the receiver crashed, or the database was busy)."""
    from dice_server.services.inbox import process_pending

    _run("inbox", process_pending, "spooled message(s) processed")


def deadlines_job() -> None:
    """Report to the Minister of Law every deadline he set that has passed unmet."""
    from dice_server.services.rulings import missed_deadlines

    _run("deadlines", missed_deadlines, "missed deadline(s) reported")


def challenges_job() -> None:
    """Expire the challenges issued 14 days ago and not answered (IAAPA Game Challenge Time
    Limitations), telling both players."""
    from dice_server.services.challenges import expire_challenges

    _run("challenges", expire_challenges, "challenge(s) expired")


def reminders_job() -> None:
    """Remind the players to move who have been silent too long, and tell both players of a
    game whose forfeit line has passed (the turn clock; each mail once a wait)."""
    from dice_server.services.reminders import send_reminders

    _run("reminders", send_reminders, "turn reminder(s) queued")


def build(app: Flask) -> BlockingScheduler:
    global _courier
    _courier = Courier.from_config(app.extensions["pbem"], app.config, Path(app.instance_path))
    # APScheduler logs two INFO lines for every run of every job: keep its warnings only.
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    scheduler = BlockingScheduler(
        jobstores={"default": MemoryJobStore()},
        job_defaults={"coalesce": True, "max_instances": 1},
        timezone=UTC,
    )
    jobs = (
        (outbox_job, OUTBOX_JOB, float(app.config["OUTBOX_INTERVAL_SECONDS"]), 60),
        (deadlines_job, DEADLINES_JOB, DEADLINES_INTERVAL_SECONDS, 600),
        (inbox_job, INBOX_JOB, INBOX_INTERVAL_SECONDS, 60),
        (challenges_job, CHALLENGES_JOB, CHALLENGES_INTERVAL_SECONDS, 600),
        (reminders_job, REMINDERS_JOB, float(app.config["REMINDERS_INTERVAL_SECONDS"]), 300),
    )
    for job, name, seconds, grace in jobs:
        scheduler.add_job(
            job,
            "interval",
            seconds=seconds,
            id=name,
            replace_existing=True,
            coalesce=True,
            max_instances=1,
            misfire_grace_time=grace,
        )
    return scheduler


def run(app: Flask) -> None:
    """Wait for the scheduler lock (as a standby while another holds it), then run until
    SIGINT or SIGTERM; the first delivery run starts at once."""
    stopping: list[int] = []
    scheduler: BlockingScheduler | None = None

    def stop(signum: int, _frame: FrameType | None) -> None:
        if stopping:  # a second signal (the terminal's INT, then the supervisor's TERM)
            log.info("scheduler already stopping (signal %d)", signum)
            return
        stopping.append(signum)
        log.info("scheduler stopping (signal %d)", signum)
        if scheduler is None or not scheduler.running:
            raise SystemExit(0)
        scheduler.shutdown(wait=False)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    lock = SchedulerLock(app.extensions["pbem"].sessions.kw["bind"])
    every = max(float(app.config["OUTBOX_INTERVAL_SECONDS"]), 0.1)
    if not _take(lock):
        log.info("scheduler: standby (another scheduler holds the lock); trying every %g s", every)
        while not _take(lock):
            time.sleep(every)
    log.info("scheduler: leading (this process holds the scheduler lock)")
    try:
        scheduler = build(app)
        lost: list[bool] = []

        def watch_lock() -> None:
            if not lock.held() and not lost:
                lost.append(True)
                log.error("scheduler: the scheduler lock was lost; stopping (status 1)")
                assert scheduler is not None
                scheduler.shutdown(wait=False)

        scheduler.add_job(
            watch_lock, "interval", seconds=every, id=LOCK_JOB, coalesce=True, max_instances=1
        )
        outbox_job()
        scheduler.start()
        if lost:
            raise SystemExit(1)
    finally:
        lock.release()


def _take(lock: SchedulerLock) -> bool:
    """Try the scheduler lock once; a database that does not answer is a lock not taken."""
    try:
        return lock.take()
    except SQLAlchemyError as exc:
        log.warning("scheduler: the database did not answer (%s); trying again", exc)
        return False
