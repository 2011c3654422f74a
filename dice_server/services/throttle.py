"""Fixed-window limits kept in the database, so they hold across every worker."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import case, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from dice_server.models import Base, Throttle


def _row(session: Session, key: str, now: datetime) -> Throttle:
    bind = session.get_bind()
    insert = pg_insert if bind.dialect.name == "postgresql" else sqlite_insert
    session.execute(
        insert(Throttle).values(key=key, window_start=now, count=0).on_conflict_do_nothing()
    )
    return session.execute(
        select(Throttle).where(Throttle.key == key).with_for_update()
    ).scalar_one()


def _current(row: Throttle, window: timedelta, now: datetime) -> int:
    start = (
        row.window_start if row.window_start.tzinfo else row.window_start.replace(tzinfo=now.tzinfo)
    )
    if start + window <= now:
        row.window_start, row.count = now, 0
    return row.count


def take(session: Session, key: str, limit: int, window: timedelta, now: datetime) -> bool:
    """Count one use of ``key``: one atomic upsert that starts a new window when the last
    one has passed. False once more than ``limit`` uses fell in the current window (refused
    uses count too: hammering does not reopen the window)."""
    table = Base.metadata.tables["throttles"]
    insert = pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    expired = table.c.window_start <= now - window
    statement = (
        insert(table)
        .values(key=key, window_start=now, count=1)
        .on_conflict_do_update(
            index_elements=[table.c.key],
            set_={
                "count": case((expired, 1), else_=table.c.count + 1),
                "window_start": case((expired, now), else_=table.c.window_start),
            },
        )
        .returning(table.c.count)
    )
    return int(session.execute(statement).scalar_one()) <= limit


def exhausted(session: Session, key: str, limit: int, window: timedelta, now: datetime) -> bool:
    """Whether ``key`` has used up its window, without counting a use."""
    row = _row(session, key, now)
    return _current(row, window, now) >= limit


def wait_left(session: Session, key: str, window: timedelta, now: datetime) -> timedelta:
    row = _row(session, key, now)
    start = (
        row.window_start if row.window_start.tzinfo else row.window_start.replace(tzinfo=now.tzinfo)
    )
    return max(timedelta(0), start + window - now)
