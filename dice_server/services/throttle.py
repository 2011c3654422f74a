"""Fixed-window limits kept in the database, so they hold across every worker."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, case, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from dice_server.db import Prepared
from dice_server.models import Base, Throttle


def _count_use(insert: Any) -> Any:
    """One use of a key counted in one atomic upsert that starts a new window when the last
    one has passed (built once per dialect, with bind parameters: every roll runs it)."""
    table = Base.metadata.tables["throttles"]
    now = bindparam("now", type_=table.c.window_start.type)
    expired = table.c.window_start <= bindparam("expired_at", type_=table.c.window_start.type)
    return (
        insert(table)
        .values(key=bindparam("key"), window_start=now, count=1)
        .on_conflict_do_update(
            index_elements=[table.c.key],
            set_={
                "count": case((expired, 1), else_=table.c.count + 1),
                "window_start": case((expired, now), else_=table.c.window_start),
            },
        )
        .returning(table.c.count, table.c.window_start)
    )


#: The upsert of :func:`admit`, for SQLite (False) and PostgreSQL (True).
_COUNT_USE = {False: Prepared(_count_use(sqlite_insert)), True: Prepared(_count_use(pg_insert))}


def _aware(moment: datetime, like: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=like.tzinfo)


def take(session: Session, key: str, limit: int, window: timedelta, now: datetime) -> bool:
    """Count one use of ``key``; False once more than ``limit`` uses fell in the current
    window (see :func:`admit`)."""
    return admit(session, key, limit, window, now) is None


def admit(
    session: Session, key: str, limit: int, window: timedelta, now: datetime
) -> timedelta | None:
    """Count one use of ``key``: one atomic upsert that starts a new window when the last
    one has passed. None when the use is within ``limit`` for the current window, else how
    long until the window ends (refused uses count too: hammering does not reopen it)."""
    statement = _COUNT_USE[session.get_bind().dialect.name == "postgresql"]
    count, start = statement.one(
        session.connection(), {"key": key, "now": now, "expired_at": now - window}
    )
    if int(count) <= limit:
        return None
    return max(timedelta(0), _aware(start, now) + window - now)


def remaining_wait(
    session: Session, key: str, limit: int, window: timedelta, now: datetime
) -> timedelta | None:
    """How long until ``key`` may be used again, or None when it may be now. Only reads
    (it never takes the write lock)."""
    row = session.execute(
        select(Throttle.window_start, Throttle.count).where(Throttle.key == key)
    ).first()
    if row is None:
        return None
    start, used = row
    ends = _aware(start, now) + window
    if ends <= now or used < limit:
        return None
    return ends - now
