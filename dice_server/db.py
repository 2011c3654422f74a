"""Engine and sessions. SQLite writers take the write lock first (``BEGIN IMMEDIATE``,
SQLAlchemy's pysqlite recipe) so that two appends to one ledger serialize instead of
both reading the same head; PostgreSQL writers lock the game row (``FOR UPDATE``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

WRITE_OPTION = "pbem_write"


def make_engine(url: str, busy_timeout_ms: int = 30000) -> Engine:
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True)
    engine = create_engine(url, connect_args={"timeout": busy_timeout_ms / 1000})

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


@contextmanager
def writing(sessions: sessionmaker[Session]) -> Iterator[Session]:
    """A write transaction: committed on success, rolled back whole on any error."""
    with sessions() as session, session.begin():
        session.connection(execution_options={WRITE_OPTION: True})
        yield session


@contextmanager
def reading(sessions: sessionmaker[Session]) -> Iterator[Session]:
    """A read transaction (deferred: it never blocks a writer on SQLite WAL)."""
    with sessions() as session, session.begin():
        yield session
