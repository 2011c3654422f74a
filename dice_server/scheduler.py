"""`pbem scheduler`: the one process that runs APScheduler (3.x). Web workers never start
a scheduler. Jobs are module-level functions; the job store is the app's database (its
table is left out of Alembic's autogenerate), job ids are explicit and replaced on start."""

from __future__ import annotations

import logging
import signal
from datetime import UTC
from pathlib import Path
from types import FrameType

from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
from apscheduler.schedulers.blocking import BlockingScheduler
from flask import Flask

from dice_server.mail.delivery import Courier, deliver_due

log = logging.getLogger(__name__)

OUTBOX_JOB = "outbox"
JOBS_TABLE = "apscheduler_jobs"

_courier: Courier | None = None


def outbox_job() -> None:
    """Deliver the due mail (the job APScheduler runs every few seconds)."""
    if _courier is None:
        raise RuntimeError("the outbox job runs only inside `pbem scheduler`")
    report = deliver_due(_courier)
    if report.sent or report.failed:
        log.info("outbox: %d sent, %d failed", len(report.sent), len(report.failed))


def build(app: Flask) -> BlockingScheduler:
    global _courier
    _courier = Courier.from_config(app.extensions["pbem"], app.config, Path(app.instance_path))
    scheduler = BlockingScheduler(
        jobstores={
            "default": SQLAlchemyJobStore(url=app.config["DATABASE_URL"], tablename=JOBS_TABLE)
        },
        job_defaults={"coalesce": True, "max_instances": 1},
        timezone=UTC,
    )
    scheduler.add_job(
        outbox_job,
        "interval",
        seconds=float(app.config["OUTBOX_INTERVAL_SECONDS"]),
        id=OUTBOX_JOB,
        replace_existing=True,
        coalesce=True,
        max_instances=1,
        misfire_grace_time=60,
    )
    return scheduler


def run(app: Flask) -> None:
    """Run until SIGINT or SIGTERM; the first delivery run starts at once."""
    scheduler = build(app)

    def stop(signum: int, _frame: FrameType | None) -> None:
        log.info("scheduler stopping (signal %d)", signum)
        if not scheduler.running:
            raise SystemExit(0)
        scheduler.shutdown(wait=False)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    outbox_job()
    scheduler.start()
