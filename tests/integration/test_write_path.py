"""The write path of every append (issue 20, point 8): statements run straight on the
driver (dice_server.db.Prepared) and the write transaction (dice_server.db.writing). What
the hot path reads and writes must be exactly what SQLAlchemy's own execution reads and
writes, on both databases; a refused write leaves nothing behind; and on SQLite a write is
flushed to disk after its lock is released but before anyone is told of it."""

from __future__ import annotations

import fcntl
import os
import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import pytest
from sqlalchemy import Select, func, insert, inspect, select
from sqlalchemy.exc import IntegrityError

from dice_server import ledger
from dice_server.db import Prepared, after_commit, reading, writing
from dice_server.ledger import Chain
from dice_server.ledger_queries import GAME_LOCK, TURN_ROLLED
from dice_server.models import Base, GameTurn, LedgerEntry, Member, OutboxMessage
from dice_server.services import ServiceContext
from dice_server.services.accounts import load_member
from dice_server.services.entries import ApiToken
from dice_server.services.outbox import ENQUEUE
from dice_server.services.rolls import roll_battle
from dice_server.services.throttle import admit
from tests.conftest import League, battle

OUTBOX = Base.metadata.tables["outbox"]


def _queued(message_id: str, now: datetime) -> dict[str, object]:
    return {
        "message_id": message_id,
        "game_number": None,
        "table_id": None,
        "entry_seq": None,
        "to_addrs": '["axis@example.org"]',
        "cc_addrs": "[]",
        "raw": b"Subject: x\n\nbody\n",
        "status": "pending",
        "attempts": 0,
        "next_attempt_at": now,
        "created_at": now,
    }


def test_a_prepared_read_matches_sqlalchemys_row_for_row(
    ctx: ServiceContext, league: League
) -> None:
    roll_battle(ctx, ApiToken(league.tokens["axis"]), league.game, battle())
    with reading(ctx.sessions) as session:
        conn = session.connection()
        ours = GAME_LOCK.first(conn, {"number": league.game})
        theirs = conn.execute(cast(Select[Any], GAME_LOCK.statement), {"number": league.game}).one()
    assert ours._fields == tuple(theirs._fields)
    assert tuple(ours) == tuple(theirs)
    assert ours.last_seq == 2 and isinstance(ours.low_luck, bool)  # genesis, then the roll
    with reading(ctx.sessions) as session:
        assert GAME_LOCK.first(session.connection(), {"number": 9999}) is None


def test_a_prepared_write_stores_what_sqlalchemy_stores(ctx: ServiceContext) -> None:
    now = datetime(2026, 11, 26, 5, 41, 6, 524256, tzinfo=UTC)
    with writing(ctx.sessions) as session:
        ENQUEUE.execute(session.connection(), _queued("<ours@example.org>", now))
        session.connection().execute(insert(OUTBOX), _queued("<theirs@example.org>", now))
    with reading(ctx.sessions) as session:
        rows = {
            row.message_id: row
            for row in session.execute(select(OutboxMessage)).scalars()
            if row.message_id in ("<ours@example.org>", "<theirs@example.org>")
        }
        stored = [c for c in OUTBOX.c if c.key not in ("id", "message_id")]
        raw = {
            row[0]: tuple(row)[1:]
            for row in session.connection().execute(
                select(OUTBOX.c.message_id, *stored).where(
                    OUTBOX.c.message_id.in_(["<ours@example.org>", "<theirs@example.org>"])
                )
            )
        }
    ours, theirs = rows["<ours@example.org>"], rows["<theirs@example.org>"]
    for column in ("next_attempt_at", "created_at", "raw", "to_addrs", "status", "attempts"):
        assert getattr(ours, column) == getattr(theirs, column), column
    assert ours.next_attempt_at.replace(tzinfo=UTC) == now
    # the stored values themselves, as the database holds them, are alike
    assert raw["<ours@example.org>"] == raw["<theirs@example.org>"]


def test_a_literal_written_into_a_statement_is_bound(ctx: ServiceContext, league: League) -> None:
    """TURN_ROLLED's ``phase = 'combat'`` and ``rolled_seq IS NULL`` are the statement's own."""
    with writing(ctx.sessions) as session:  # the game's kept turn, waiting for its mover
        turn = session.get_one(GameTurn, league.game)
        turn.phase, turn.rolled_seq = "pre-combat", None
    params = {"number": league.game, "seq": 7}
    with writing(ctx.sessions) as session:
        assert TURN_ROLLED.execute(session.connection(), params) == 0  # not yet declared
        session.get_one(GameTurn, league.game).phase = "combat"
    with writing(ctx.sessions) as session:
        assert TURN_ROLLED.execute(session.connection(), params) == 1
        assert TURN_ROLLED.execute(session.connection(), {**params, "seq": 9}) == 0
    with reading(ctx.sessions) as session:
        assert session.get_one(GameTurn, league.game).rolled_seq == 7


def test_the_throttle_upsert_reads_its_window_back_as_a_time(ctx: ServiceContext) -> None:
    now = datetime(2026, 11, 26, 6, 0, tzinfo=UTC)
    window = timedelta(seconds=60)
    with writing(ctx.sessions) as session:
        assert admit(session, "test:prepared", 2, window, now) is None
        assert admit(session, "test:prepared", 2, window, now + timedelta(seconds=10)) is None
        wait = admit(session, "test:prepared", 2, window, now + timedelta(seconds=20))
    assert wait == timedelta(seconds=40)  # the window began at the first use
    with writing(ctx.sessions) as session:  # a new window once the last one has passed
        assert admit(session, "test:prepared", 2, window, now + timedelta(seconds=61)) is None


def test_a_statement_missing_a_column_sqlalchemy_would_fill_is_refused(
    ctx: ServiceContext,
) -> None:
    short = Prepared(insert(OUTBOX), column_keys=["message_id", "to_addrs", "status"])
    with writing(ctx.sessions) as session, pytest.raises(ValueError, match="created_at"):
        short.execute(session.connection(), {"message_id": "<x@y>", "to_addrs": "[]"})


def test_a_refused_statement_raises_sqlalchemys_error_and_writes_nothing(
    ctx: ServiceContext, league: League
) -> None:
    """A second entry at a seq already taken (the unique key of a ledger): the driver's
    error comes out as SQLAlchemy's IntegrityError, and the whole transaction, the ORM
    work and the statements before it included, is rolled back."""
    chain = Chain.game(league.game)
    with reading(ctx.sessions) as session:
        genesis = ledger.entry(session, chain, 1)
        before = session.scalar(select(OutboxMessage.id).order_by(OutboxMessage.id.desc()))
    assert genesis is not None
    ran: list[str] = []
    row = {
        "chain": league.game,
        "seq": 1,
        "kind": "note",
        "at": genesis.at,
        "body": genesis.body,
        "hash": genesis.hash,
        "sig": genesis.sig,
        "key_id": genesis.key_id,
    }
    with pytest.raises(IntegrityError), writing(ctx.sessions) as session:
        after_commit(session, lambda: ran.append("committed"))
        ENQUEUE.execute(session.connection(), _queued("<lost@example.org>", datetime.now(UTC)))
        session.get_one(GameTurn, league.game).power = "Neverland"
        session.flush()
        chain.queries.insert_entry.execute(session.connection(), row)
    assert ran == []
    with reading(ctx.sessions) as session:
        after = session.scalar(select(OutboxMessage.id).order_by(OutboxMessage.id.desc()))
        assert after == before
        assert session.get_one(GameTurn, league.game).power != "Neverland"
        assert session.scalar(select(LedgerEntry.kind).where(LedgerEntry.seq == 1)) == "genesis"


def test_after_commit_runs_once_the_write_has_committed(ctx: ServiceContext) -> None:
    seen: list[int | None] = []

    def look() -> None:  # reads in a transaction of its own: the write must be there
        with reading(ctx.sessions) as session:
            seen.append(
                session.scalar(
                    select(OutboxMessage.id).where(OutboxMessage.message_id == "<kept@x>")
                )
            )

    with writing(ctx.sessions) as session:
        after_commit(session, look)
        ENQUEUE.execute(session.connection(), _queued("<kept@x>", datetime.now(UTC)))
        assert seen == []
    assert len(seen) == 1 and seen[0] is not None


def _sqlite_database(ctx: ServiceContext) -> str:
    engine = ctx.sessions.kw["bind"]
    if engine.dialect.name != "sqlite":
        pytest.skip("the write-ahead log and the gate are SQLite's")
    return str(engine.url.database)


def test_a_sqlite_write_is_on_disk_before_it_returns_and_flushed_outside_the_lock(
    ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commit is flushed (fdatasync of the write-ahead log) once the gate is open
    again for the next writer, and before ``writing`` returns and its hooks run."""
    database = _sqlite_database(ctx)
    flushes: list[tuple[str, bool, bool]] = []
    flush = os.fdatasync

    def watched(fd: int) -> None:
        gate = os.open(f"{database}.writegate", os.O_RDWR)
        try:
            fcntl.flock(gate, fcntl.LOCK_EX | fcntl.LOCK_NB)
            gate_open = True
        except BlockingIOError:
            gate_open = False
        finally:
            os.close(gate)
        with closing(sqlite3.connect(database)) as other:
            committed = other.execute(
                "SELECT count(*) FROM outbox WHERE message_id = '<durable@x>'"
            ).fetchone() == (1,)
        flushes.append((os.readlink(f"/proc/self/fd/{fd}"), gate_open, committed))
        flush(fd)

    monkeypatch.setattr(os, "fdatasync", watched)
    hooks: list[int] = []
    with writing(ctx.sessions) as session:
        after_commit(session, lambda: hooks.append(len(flushes)))
        ENQUEUE.execute(session.connection(), _queued("<durable@x>", datetime.now(UTC)))
        assert flushes == []
    assert flushes == [(f"{database}-wal", True, True)]
    assert hooks == [1]  # after the flush

    flushes.clear()
    with pytest.raises(RuntimeError), writing(ctx.sessions) as session:
        ENQUEUE.execute(session.connection(), _queued("<undone@x>", datetime.now(UTC)))
        raise RuntimeError("refused")
    assert flushes == []  # nothing committed, nothing to flush


def test_sqlite_connections_leave_the_flush_to_the_writer(ctx: ServiceContext) -> None:
    _sqlite_database(ctx)
    with reading(ctx.sessions) as session:
        mode = session.connection().exec_driver_sql("PRAGMA synchronous").scalar()
        journal = session.connection().exec_driver_sql("PRAGMA journal_mode").scalar()
    assert (mode, journal) == (1, "wal")  # NORMAL: a commit writes the log, writing() flushes


def test_the_member_a_page_loads_is_the_member_a_session_loads(
    ctx: ServiceContext, league: League
) -> None:
    """Every page loads the member logged in with one statement outside any session: the
    member must be whole (every column) and detached, as one a session loaded and closed."""
    with reading(ctx.sessions) as session:
        stored = session.scalars(select(Member).order_by(Member.id)).all()
    assert stored
    for each in stored:
        loaded = load_member(ctx, each.id)
        assert loaded is not None
        state = inspect(loaded)
        assert state.detached and not state.expired_attributes
        for attr in Member.__mapper__.column_attrs:
            assert getattr(loaded, attr.key) == getattr(each, attr.key), attr.key
    assert load_member(ctx, max(m.id for m in stored) + 1) is None
    # detached, not new: a session that takes it back writes no second member
    member = load_member(ctx, stored[0].id)
    assert member is not None
    with writing(ctx.sessions) as session:
        session.add(member)
        member.name = "Renamed"
    with reading(ctx.sessions) as session:
        assert session.scalar(select(func.count()).select_from(Member)) == len(stored)
        assert session.get_one(Member, stored[0].id).name == "Renamed"


def test_outbox_bookkeeping_is_committed_at_once_but_not_waited_on_to_disk(
    ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A claim or a mark of the outbox (``writing(durable=False)``) is seen by any other
    connection as soon as it commits, but the run does not wait for it to reach the disk
    (on SQLite no flush; on PostgreSQL ``synchronous_commit`` off for that transaction
    alone): a power loss could only send a message again, as delivery at least once
    allows. Every other write still waits."""
    flushed: list[int] = []
    flush = os.fdatasync

    def counted(fd: int) -> None:
        flushed.append(fd)
        flush(fd)

    monkeypatch.setattr(os, "fdatasync", counted)
    with reading(ctx.sessions) as session:
        postgres = session.connection().dialect.name == "postgresql"
        if postgres:  # the server's own setting (the tests' throwaway server runs it off)
            default = session.connection().exec_driver_sql("SHOW synchronous_commit").scalar()
    with writing(ctx.sessions, durable=False) as session:
        ENQUEUE.execute(session.connection(), _queued("<quick@x>", datetime.now(UTC)))
        if postgres:
            setting = session.connection().exec_driver_sql("SHOW synchronous_commit").scalar()
            assert setting == "off"
    assert flushed == []
    with reading(ctx.sessions) as session:
        seen = session.execute(
            select(func.count()).select_from(OUTBOX).where(OUTBOX.c.message_id == "<quick@x>")
        ).scalar_one()
        if postgres:  # the setting was the transaction's own
            after = session.connection().exec_driver_sql("SHOW synchronous_commit").scalar()
            assert after == default
    assert seen == 1
    with writing(ctx.sessions) as session:
        ENQUEUE.execute(session.connection(), _queued("<kept@x>", datetime.now(UTC)))
    assert len(flushed) == (0 if postgres else 1)
