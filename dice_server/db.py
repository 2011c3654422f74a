"""Engine and sessions. SQLite writers take the write lock first (``BEGIN IMMEDIATE``,
SQLAlchemy's pysqlite recipe) so that two appends to one ledger serialize instead of
both reading the same head; PostgreSQL writers lock the game row (``FOR UPDATE``).

SQLite writers also queue at a gate first: an exclusive ``flock`` on a file beside the
database, held for the whole write transaction. A waiting writer is woken the moment the
gate opens, where SQLite's own busy handler would sleep in steps of up to 100 ms; the
``BEGIN IMMEDIATE`` lock stays the guarantee (the gate is only about waiting well), and the
kernel releases the gate of a process that dies.

A SQLite write is on disk before :func:`writing` returns, as with ``synchronous=FULL``, but
the flush to disk is made after the write lock is released: the connections run
``synchronous=NORMAL`` (a commit writes the write-ahead log without waiting for the disk)
and :func:`writing` then flushes the log itself (``fdatasync``) before it returns, so
before any answer, mail or page is made from it. The next writer appends to the log
meanwhile. A flush covers every commit before it, and the log is replayed in order after a
power loss, so a crash can lose only writes that no caller was told of, and never an entry
without those it chains on. (A reader in another process may see a commit in the
microseconds before its flush; a roll lost that way is thrown again at the same seq from
the same seed: the same request gets the same dice.) A process killed at any moment loses
nothing: the log is in the kernel's hands once written.
"""

from __future__ import annotations

import fcntl
import os
import threading
import weakref
from collections import namedtuple
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ClauseElement, Connection, Dialect, Engine, create_engine, event, text
from sqlalchemy.exc import DBAPIError
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


#: The write-ahead log of each SQLite engine (file-backed databases only).
_WALS: weakref.WeakKeyDictionary[Engine, str] = weakref.WeakKeyDictionary()


def make_durable(engine: Engine) -> None:
    """Flush the engine's write-ahead log to disk: every commit made to it so far, this
    process's and others', is then durable (a file's flush is of the file, whichever
    descriptor asks). No log: the last checkpoint copied it into the database, and
    flushed it there."""
    wal = _WALS.get(engine)
    if wal is None:
        return
    try:
        fd = os.open(wal, os.O_RDWR)
    except FileNotFoundError:
        return
    try:
        os.fdatasync(fd)
    finally:
        os.close(fd)


def make_engine(url: str, busy_timeout_ms: int = 30000) -> Engine:
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True)
    engine = create_engine(url, connect_args={"timeout": busy_timeout_ms / 1000})
    database = engine.url.database
    if database and database != ":memory:":
        _GATES[engine] = f"{database}.writegate"
        _WALS[engine] = f"{database}-wal"

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the driver, decide when a transaction begins (pysqlite recipe).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        # on the driver's connection: nothing of SQLAlchemy's own to run for it
        driver = connection.connection.driver_connection
        if connection.get_execution_options().get(WRITE_OPTION):
            driver.execute("BEGIN IMMEDIATE")
        else:
            driver.execute("BEGIN")

    return engine


def make_sessions(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


_writer = threading.local()


def in_write_transaction() -> bool:
    """Whether this thread is inside :func:`writing` (slow work, such as a password hash,
    belongs before it: a writer holds SQLite's write lock for every other process)."""
    return bool(getattr(_writer, "active", False))


class BoundSession(Session):
    """The session of a :func:`writing` or :func:`reading` transaction: bound to the
    transaction's connection, which ``connection()`` returns as it is. A transaction that
    runs only Core statements (the hot path of an append, the member a page loads:
    :class:`Prepared`) so costs no ORM transaction of its own; ORM work joins the
    connection's transaction when it first asks (``join_transaction_mode``
    "conservative_savepoint": the session never commits or rolls it back itself)."""

    def __init__(self, conn: Connection) -> None:
        super().__init__(bind=conn, expire_on_commit=False)
        self._conn = conn
        self._after_commit: list[Callable[[], None]] = []

    def connection(self, *_args: Any, **_kwargs: Any) -> Connection:
        return self._conn


@contextmanager
def _bound(conn: Connection) -> Iterator[BoundSession]:
    """A session on ``conn``'s transaction: what ORM work is pending is flushed into the
    transaction at the end, which the caller then commits (or rolls back on an error)."""
    session = BoundSession(conn)
    try:
        yield session
        if session.in_transaction():
            session.flush()
    finally:
        session.close()  # the connection's transaction is left as it is


def after_commit(session: Session, hook: Callable[[], None]) -> None:
    """Run ``hook`` once the session's transaction has committed (never if it rolls back)."""
    if isinstance(session, BoundSession):
        session._after_commit.append(hook)
    else:
        event.listen(session, "after_commit", lambda _session: hook(), once=True)


@contextmanager
def writing(sessions: sessionmaker[Session], *, durable: bool = True) -> Iterator[Session]:
    """A write transaction: committed on success, rolled back whole on any error.

    The connection is taken from the pool before the gate, so that the write lock is held
    only from ``BEGIN IMMEDIATE`` to the commit; on SQLite the commit is flushed to disk
    after the lock is released and before this returns (the module's docstring). Hooks
    given to :func:`after_commit` run last. Never nest one inside another in the same
    thread: on SQLite the inner one would wait at the gate the outer one holds (refused at
    once here rather than waiting forever).

    ``durable=False`` is for bookkeeping whose loss only repeats work (the outbox's claims
    and marks: delivery is at least once, under the same Message-ID): the commit is seen
    by every process at once, as any other, but is not flushed before this returns (on
    PostgreSQL, ``synchronous_commit`` off for the transaction), so a power loss in the
    next moment may undo it; the next durable write's flush covers it. Nothing a member
    is answered from is written so.
    """
    if in_write_transaction():
        raise RuntimeError("write transactions do not nest: finish the first one")
    engine = sessions.kw["bind"]
    _writer.active = True
    try:
        with engine.connect() as conn:
            with _gate(_GATES.get(engine)):
                conn.execution_options(**{WRITE_OPTION: True})
                with conn.begin(), _bound(conn) as session:
                    if not durable and conn.dialect.name == "postgresql":
                        conn.exec_driver_sql("SET LOCAL synchronous_commit TO OFF")
                    yield session
            if durable:
                make_durable(engine)
        for hook in session._after_commit:
            hook()
    finally:
        _writer.active = False


@contextmanager
def reading(sessions: sessionmaker[Session]) -> Iterator[Session]:
    """A read transaction (deferred: it never blocks a writer on SQLite WAL): every
    statement in it sees the database as one moment left it."""
    with sessions.kw["bind"].connect() as conn, conn.begin(), _bound(conn) as session:
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


Processor = Callable[[Any], Any] | None

_named_tuple: Callable[..., Any] = namedtuple
#: A row :class:`Prepared` read: a named tuple of its statement's columns.
Fetched = Any


@dataclass(frozen=True)
class _Compiled:
    sql: str
    #: The bind names in the order the driver takes them (None: it takes a mapping).
    order: tuple[str, ...] | None
    #: The values the statement was built with (its literals), by bind name.
    fixed: dict[str, Any]
    binds: tuple[tuple[str, Callable[[Any], Any]], ...]
    #: The row class (fields named as the statement names its columns) and each column's
    #: result processor; None for a statement that returns no rows.
    row: Any
    results: tuple[Processor, ...]


class Prepared:
    """A Core statement built once and compiled once per dialect, then run straight on the
    DBAPI cursor of the caller's transaction.

    The hot path of an append (every roll and note) runs a handful of statements under the
    write lock; through ``Connection.execute`` each costs about 40 µs of Python (its cache
    key, its parameters, its result's set-up) beside the database's 10 µs, and on SQLite
    every other writer waits for all of it. Values pass through the column types' own bind
    and result processors, so what is stored and read is what ``Connection.execute`` stores
    and reads; a statement whose missing values SQLAlchemy would fill in from Python-side
    defaults is refused when compiled (give every column). Errors are raised as
    SQLAlchemy's (``IntegrityError`` and the rest), as ``Connection.execute`` raises them.
    Rows are named tuples: ``row.column`` and ``row[0]`` both work.
    """

    def __init__(self, statement: ClauseElement, *, column_keys: Sequence[str] | None = None):
        self.statement = statement
        self._column_keys = list(column_keys) if column_keys is not None else None
        self._by_dialect: dict[str, _Compiled] = {}

    def _compiled(self, dialect: Dialect) -> _Compiled:
        found = self._by_dialect.get(dialect.name)
        if found is None:
            found = self._by_dialect[dialect.name] = self._compile(dialect)
        return found

    def _compile(self, dialect: Dialect) -> _Compiled:
        compiled: Any = self.statement.compile(dialect=dialect, column_keys=self._column_keys)
        if compiled.insert_prefetch or compiled.update_prefetch:
            missing = [c.key for c in (*compiled.insert_prefetch, *compiled.update_prefetch)]
            raise ValueError(f"give a value for every column (missing: {', '.join(missing)})")
        binds = []
        fixed = {}
        for name, bind in compiled.binds.items():
            if not bind.required:  # a value written into the statement (a literal)
                fixed[name] = bind.effective_value
            processor = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if processor is not None:
                binds.append((name, processor))
        columns = list(getattr(self.statement, "exported_columns", ()))
        row: Any = None
        results: tuple[Processor, ...] = ()
        if columns:
            row = _named_tuple("Fetched", [c.key for c in columns], rename=True)
            results = tuple(
                c.type.dialect_impl(dialect).result_processor(dialect, None) for c in columns
            )
        return _Compiled(
            sql=compiled.string,
            order=tuple(compiled.positiontup) if compiled.positional else None,
            fixed=fixed,
            binds=tuple(binds),
            row=row,
            results=results,
        )

    def _run(self, conn: Connection, params: Mapping[str, Any]) -> tuple[Any, _Compiled]:
        compiled = self._compiled(conn.dialect)
        if compiled.fixed:
            params = {**compiled.fixed, **params}
        if compiled.binds:
            params = dict(params)
            for name, processor in compiled.binds:
                params[name] = processor(params[name])
        bound: Any = params if compiled.order is None else [params[n] for n in compiled.order]
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.execute(compiled.sql, bound)
        except conn.dialect.loaded_dbapi.Error as error:
            cursor.close()
            raise DBAPIError.instance(
                compiled.sql, bound, error, conn.dialect.loaded_dbapi.Error
            ) from error
        return cursor, compiled

    def execute(self, conn: Connection, params: Mapping[str, Any]) -> int:
        """Run a statement that returns no rows; the number of rows it changed."""
        cursor, _compiled = self._run(conn, params)
        count = int(cursor.rowcount)
        cursor.close()
        return count

    def first(self, conn: Connection, params: Mapping[str, Any]) -> Any:
        """The statement's first row, or None."""
        cursor, compiled = self._run(conn, params)
        found = cursor.fetchone()
        cursor.close()
        if found is None:
            return None
        assert compiled.row is not None, "first() of a statement that returns no rows"
        if any(compiled.results):
            found = self._processed(compiled, found)
        return compiled.row._make(found)

    def all(self, conn: Connection, params: Mapping[str, Any]) -> list[Any]:
        """Every row of the statement."""
        cursor, compiled = self._run(conn, params)
        rows = cursor.fetchall()
        cursor.close()
        assert compiled.row is not None, "all() of a statement that returns no rows"
        make = compiled.row._make
        if not any(compiled.results):
            return [make(row) for row in rows]
        return [make(self._processed(compiled, row)) for row in rows]

    @staticmethod
    def _processed(compiled: _Compiled, row: Sequence[Any]) -> list[Any]:
        return [
            value if p is None or value is None else p(value)
            for p, value in zip(compiled.results, row, strict=True)
        ]

    def read(self, engine: Engine, params: Mapping[str, Any]) -> Any:
        """The statement's first row, or None, read on a connection of the engine's pool
        in a transaction of its own (one statement: one consistent view), without a
        session: what a page reads before anything else (the member logged in)."""
        with engine.connect() as conn:
            return self.first(conn, params)

    def one(self, conn: Connection, params: Mapping[str, Any]) -> Any:
        found = self.first(conn, params)
        if found is None:
            raise LookupError("the statement returned no row")
        return found
