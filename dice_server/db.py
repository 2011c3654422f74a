"""Engine and sessions. SQLite writers take the write lock first (``BEGIN IMMEDIATE``,
SQLAlchemy's pysqlite recipe) so that two appends to one ledger serialize instead of
both reading the same head; PostgreSQL writers lock the game row (``FOR UPDATE``).

SQLite writers also queue at a gate first: an exclusive ``flock`` on a file beside the
database, held for the whole write transaction. A waiting writer is woken the moment the
gate opens, where SQLite's own busy handler would sleep in steps of up to 100 ms; the
``BEGIN IMMEDIATE`` lock stays the guarantee (the gate is only about waiting well), and the
kernel releases the gate of a process that dies.
"""

from __future__ import annotations

import fcntl
import os
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.orm import Session, sessionmaker

WRITE_OPTION = "pbem_write"
#: The gate file of each SQLite engine (file-backed databases only).
_GATES: weakref.WeakKeyDictionary[Engine, str] = weakref.WeakKeyDictionary()


@contextmanager
def _gate(path: str | None) -> Iterator[None]:
    if path is None:
        yield
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def make_engine(url: str, busy_timeout_ms: int = 30000) -> Engine:
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True)
    engine = create_engine(url, connect_args={"timeout": busy_timeout_ms / 1000})
    database = engine.url.database
    if database and database != ":memory:":
        _GATES[engine] = f"{database}.writegate"

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the driver, decide when a transaction begins (pysqlite recipe).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        if connection.get_execution_options().get(WRITE_OPTION):
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            connection.exec_driver_sql("BEGIN")

    return engine


def make_sessions(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


_writer = threading.local()


def in_write_transaction() -> bool:
    """Whether this thread is inside :func:`writing` (slow work, such as a password hash,
    belongs before it: a writer holds SQLite's write lock for every other process)."""
    return bool(getattr(_writer, "active", False))


@contextmanager
def writing(sessions: sessionmaker[Session]) -> Iterator[Session]:
    """A write transaction: committed on success, rolled back whole on any error.

    Never nest one inside another in the same thread: on SQLite the inner one would wait at
    the gate the outer one holds (refused at once here rather than waiting forever).
    """
    if in_write_transaction():
        raise RuntimeError("write transactions do not nest: finish the first one")
    _writer.active = True
    try:
        with _gate(_GATES.get(sessions.kw["bind"])), sessions() as session, session.begin():
            session.connection(execution_options={WRITE_OPTION: True})
            yield session
    finally:
        _writer.active = False


@contextmanager
def reading(sessions: sessionmaker[Session]) -> Iterator[Session]:
    """A read transaction (deferred: it never blocks a writer on SQLite WAL)."""
    with sessions() as session, session.begin():
        yield session


SCHEDULER_LOCK_KEY = 0x70626D7363686564
"""The PostgreSQL advisory lock the one scheduler holds ("pbmsched" as a 64-bit number)."""


class SchedulerLock:
    """Which ``pbem scheduler`` works: on PostgreSQL a session advisory lock on a connection
    of its own, held for the life of the process (PostgreSQL releases it when that
    connection ends, the process killed included); on SQLite an exclusive ``flock`` on a
    file beside the database (the kernel releases it when the process dies). Every other
    scheduler, on this host or another, waits as a standby and tries again."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._connection: Any = None
        self._fd: int | None = None
        database = engine.url.database
        self._path = (
            f"{database}.scheduler.lock"
            if engine.dialect.name == "sqlite" and database and database != ":memory:"
            else None
        )

    def take(self) -> bool:
        """Take the lock if no other scheduler holds it (never waits)."""
        if self.engine.dialect.name != "sqlite":
            connection = self.engine.connect()
            got = connection.execute(
                text("SELECT pg_try_advisory_lock(:key)"), {"key": SCHEDULER_LOCK_KEY}
            ).scalar()
            connection.commit()  # the session lock outlives the transaction
            if got:
                self._connection = connection
                return True
            connection.close()
            return False
        if self._path is None:
            return True
        fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def held(self) -> bool:
        """Whether the lock is still this process's: on PostgreSQL, whether the connection
        holding it still answers (a lost connection has lost the lock)."""
        if self._connection is None:
            return self.engine.dialect.name == "sqlite"
        try:
            self._connection.execute(text("SELECT 1")).scalar()
            self._connection.commit()
        except Exception:
            return False
        return True

    def release(self) -> None:
        if self._connection is not None:
            try:
                self._connection.invalidate()  # closed, not pooled: the lock goes with it
                self._connection.close()
            finally:
                self._connection = None
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
