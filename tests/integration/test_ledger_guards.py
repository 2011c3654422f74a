"""The ledger's guards (issue 12, point 6): no row of an append-only table is inserted
over (SQLite's INSERT OR REPLACE deletes without firing the DELETE trigger; PostgreSQL's
ON CONFLICT), the server refuses to extend a chain that no longer ends where its last
append left it, and `pbem ledger check` verifies the stored chains in place."""

# ruff: noqa: S608  (SQL is built from this file's table and column names: it plays the attacker)

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from click.testing import CliRunner, Result
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import Connection, Engine, create_engine, func, inspect, select, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from dice_server import ledger
from dice_server.cli import main
from dice_server.db import reading, writing
from dice_server.errors import LedgerTampered
from dice_server.keys import Signer
from dice_server.migrate import alembic_config
from dice_server.migrate import upgrade as migrate_upgrade
from dice_server.models import Base, DiceTable, Game, LedgerEntry, OutboxMessage, TableEntry
from dice_server.services import ServiceContext
from dice_server.services.games import create_game, end_game, reopen_game
from dice_server.services.integrity import check_ledgers
from dice_server.services.rolls import roll_battle
from dice_server.triplea.addresses import register_now
from dice_server.triplea.tables import Limits, check_roll
from dice_server.triplea.tables import roll as table_roll
from dice_server.verifier import body_hash
from tests.conftest import Databases, League, battle, follow_link
from tests.integration.test_ledger import member_id
from tests.integration.test_pages import Table, mailed_link, register, roll_form

ROOT = Path(__file__).resolve().parents[2]
REFUSED = "is append-only: INSERT over an existing row refused"

#: Each append-only table: a column an overwrite would change, the value it would write,
#: and the unique key (beside the primary key) it would collide on.
GUARDED = {
    "ledger_entries": ("kind", "'note'", ("game_number", "seq")),
    "table_entries": ("kind", "'note'", ("table_id", "seq")),
    "seeds": ("commitment", "'forged'", ("game_number", "commitment_seq")),
    "table_seeds": ("commitment", "'forged'", ("table_id", "commitment_seq")),
    "signing_keys": ("public", "'forged'", ("key_id",)),
}


def engine_of(ctx: ServiceContext) -> Engine:
    engine: Engine = ctx.sessions.kw["bind"]
    return engine


def open_table(ctx: ServiceContext) -> int:
    """A TripleA table with its genesis and one roll."""
    for address in ("red@example.org", "blue@example.org"):
        register_now(ctx, address)
    request = check_roll("current", "3", "6", ["red@example.org"], ["blue@example.org"], "")
    return table_roll(ctx, request, "test-client", Limits()).table.id


@pytest.fixture
def chains(league: League) -> League:
    """The league's game with a roll, and a TripleA table: a row in every guarded table."""
    roll_battle(league.ctx, member_id(league, "axis"), league.game, battle())
    open_table(league.ctx)
    return league


def copy_of_first_row(table: str, *, keep_id: bool) -> str:
    """SELECT the table's first row again, with the guarded column forged (and without
    its id, so that only the unique key collides)."""
    column, forged, _key = GUARDED[table]
    names = [c.name for c in Base.metadata.tables[table].columns if keep_id or c.name != "id"]
    values = [forged if name == column else name for name in names]
    order = "key_id" if table == "signing_keys" else "id"
    select_row = f"SELECT {', '.join(values)} FROM {table} WHERE true ORDER BY {order} LIMIT 1"
    return f"({', '.join(names)}) {select_row}"


def refused(engine: Engine, statement: str) -> None:
    with pytest.raises(DBAPIError, match=REFUSED):
        with engine.begin() as conn:
            conn.execute(text(statement))


def snapshot(engine: Engine) -> dict[str, list[tuple[object, ...]]]:
    with engine.connect() as conn:
        return {
            table: [tuple(row) for row in conn.execute(text(f"SELECT * FROM {table} ORDER BY 1"))]
            for table in GUARDED
        }


@pytest.mark.parametrize("table", sorted(GUARDED))
@pytest.mark.parametrize("verb", ["INSERT OR REPLACE", "REPLACE"])
def test_sqlite_insert_or_replace_over_an_existing_row_is_refused(
    chains: League, table: str, verb: str
) -> None:
    """INSERT OR REPLACE deletes the row it collides with without firing the DELETE
    trigger: the BEFORE INSERT guard refuses it first, whichever key collides."""
    engine = engine_of(chains.ctx)
    if engine.dialect.name != "sqlite":
        pytest.skip("INSERT OR REPLACE is SQLite's")
    before = snapshot(engine)
    refused(engine, f"{verb} INTO {table} {copy_of_first_row(table, keep_id=True)}")
    if table != "signing_keys":
        refused(engine, f"{verb} INTO {table} {copy_of_first_row(table, keep_id=False)}")
    assert snapshot(engine) == before


@pytest.mark.parametrize("table", sorted(GUARDED))
def test_on_conflict_and_duplicate_inserts_are_refused(chains: League, table: str) -> None:
    """ON CONFLICT DO UPDATE would rewrite a row (PostgreSQL's UPDATE triggers caught it
    for entries and keys, with another message; a seed's took it), DO NOTHING would drop
    one silently, and a plain duplicate met only the unique index: each is now refused by
    the guard, with one message, on both databases."""
    engine = engine_of(chains.ctx)
    column, _forged, key = GUARDED[table]
    before = snapshot(engine)
    targets = [("key_id",)] if table == "signing_keys" else [("id",), key]
    update = "revealed_seq = 99" if table.endswith("seeds") else f"{column} = excluded.{column}"
    for target in targets:
        row = copy_of_first_row(table, keep_id=target != key)
        conflict = f"ON CONFLICT ({', '.join(target)})"
        refused(engine, f"INSERT INTO {table} {row} {conflict} DO UPDATE SET {update}")
        refused(engine, f"INSERT INTO {table} {row} {conflict} DO NOTHING")
        refused(engine, f"INSERT INTO {table} {row}")
    assert snapshot(engine) == before


def test_a_seed_is_never_renumbered(chains: League) -> None:
    """On SQLite, UPDATE OR REPLACE onto another seed's id would delete that seed unseen."""
    engine = engine_of(chains.ctx)
    end_game(chains.ctx, chains.game, status="annulled")
    reopen_game(chains.ctx, chains.game, reason="ruling 3")
    verb = "UPDATE OR REPLACE" if engine.dialect.name == "sqlite" else "UPDATE"
    before = snapshot(engine)
    for table in ("seeds", "table_seeds"):
        with pytest.raises(DBAPIError, match="never renumbered"):
            with engine.begin() as conn:
                conn.execute(text(f"{verb} {table} SET id = id + 1000 WHERE revealed_seq IS NULL"))
    with pytest.raises(DBAPIError, match="never renumbered"):
        with engine.begin() as conn:
            conn.execute(text(f"{verb} seeds SET id = 1 WHERE id = 2"))
    assert snapshot(engine) == before


# --- The server checks its own chain ------------------------------------------------------


def drop_trigger(conn: Connection, name: str, table: str) -> None:
    """What an attacker with write access to the database can do."""
    on = f" ON {table}" if conn.dialect.name == "postgresql" else ""
    conn.execute(text(f"DROP TRIGGER {name}{on}"))


def truncate_tail(engine: Engine, table: str, chain: str, number: int) -> None:
    with engine.begin() as conn:
        drop_trigger(conn, f"{table}_no_delete", table)
        conn.execute(
            text(
                f"DELETE FROM {table} WHERE {chain} = :n AND seq = "
                f"(SELECT max(seq) FROM {table} WHERE {chain} = :n)"
            ),
            {"n": number},
        )


def replace_tail(engine: Engine, table: str, chain: str, number: int) -> None:
    """The last entry rewritten in place, its hash column kept consistent with its body."""
    with engine.begin() as conn:
        drop_trigger(conn, f"{table}_no_update", table)
        row = conn.execute(
            text(f"SELECT id, body FROM {table} WHERE {chain} = :n ORDER BY seq DESC LIMIT 1"),
            {"n": number},
        ).one()
        body = row.body.replace(b'"dice":[', b'"dice":[6,')
        assert body != row.body
        conn.execute(
            text(f"UPDATE {table} SET body = :body, hash = :hash WHERE id = :id"),
            {"body": body, "hash": body_hash(body), "id": row.id},
        )


def extend_tail(engine: Engine, table: str, chain: str, number: int) -> None:
    """An entry inserted behind the server's back (no trigger needs dropping for that)."""
    with engine.begin() as conn:
        columns = [c.name for c in Base.metadata.tables[table].columns if c.name != "id"]
        values = ["seq + 1" if name == "seq" else name for name in columns]
        conn.execute(
            text(
                f"INSERT INTO {table} ({', '.join(columns)}) SELECT {', '.join(values)} "
                f"FROM {table} WHERE {chain} = :n ORDER BY seq DESC LIMIT 1"
            ),
            {"n": number},
        )


TAMPERING = {
    "truncated": (truncate_tail, "its tail was truncated"),
    "replaced": (replace_tail, "its last entry was replaced"),
    "extended": (extend_tail, "entries were added behind the server's back"),
}


def counts(ctx: ServiceContext) -> tuple[int, int, int]:
    with reading(ctx.sessions) as session:
        return (
            session.execute(select(func.count()).select_from(LedgerEntry)).scalar_one(),
            session.execute(select(func.count()).select_from(TableEntry)).scalar_one(),
            session.execute(select(func.count()).select_from(OutboxMessage)).scalar_one(),
        )


def stored_tail(ctx: ServiceContext, table: str) -> str:
    with engine_of(ctx).connect() as conn:
        entry = conn.execute(text(f"SELECT seq, hash FROM {table} ORDER BY seq DESC")).first()
    assert entry is not None
    return f"seq {entry.seq} (hash {entry.hash})"


@pytest.mark.parametrize("how", sorted(TAMPERING))
def test_a_game_ledger_changed_behind_the_servers_back_is_never_extended(
    chains: League, client: FlaskClient, how: str
) -> None:
    ctx = chains.ctx
    tamper, words = TAMPERING[how]
    wrote = stored_tail(ctx, "ledger_entries")  # seq 2, the roll
    tamper(engine_of(ctx), "ledger_entries", "game_number", chains.game)
    found = stored_tail(ctx, "ledger_entries")
    before = counts(ctx)
    with pytest.raises(LedgerTampered) as refusal:
        roll_battle(ctx, member_id(chains, "axis"), chains.game, battle())
    message = refusal.value.message
    assert f"game {chains.game}'s ledger is not as this server left it" in message
    assert f"its last append wrote {wrote}" in message
    assert f"now ends at {found} ({words})" in message
    assert f"pbem ledger check {chains.game}" in message
    assert counts(ctx) == before
    # Every channel says the same: the JSON API answers 503 with the message.
    response = client.post(
        f"/api/v1/games/{chains.game}/rolls", json=battle(), headers=chains.auth("axis")
    )
    assert response.status_code == 503
    assert response.get_json()["error"] == message
    # Nor is the game's end (its seed's reveal) written on it.
    with pytest.raises(LedgerTampered):
        end_game(ctx, chains.game, status="annulled")
    assert counts(ctx) == before


def test_the_roller_page_shows_the_refusal(app: Flask, chains: League) -> None:
    ctx = chains.ctx
    client = app.test_client()
    assert register(client).status_code == 200
    assert follow_link(client, mailed_link(ctx, "confirm")).status_code == 302
    game = create_game(ctx, axis="rommel@example.org", allies="axis@example.org").game_number
    truncate_tail(engine_of(ctx), "ledger_entries", "game_number", game)
    before = counts(ctx)
    page = Table(client, ctx, game)
    response = client.post(f"/games/{game}/roll", data=roll_form(page))
    assert response.status_code == 503
    text = response.get_data(as_text=True)
    assert f"game {game}&#39;s ledger is not as this server left it" in text
    assert f"pbem ledger check {game}" in text
    assert counts(ctx) == before


@pytest.mark.parametrize("how", sorted(TAMPERING))
def test_a_table_ledger_changed_behind_the_servers_back_is_never_extended(
    chains: League, how: str
) -> None:
    ctx = chains.ctx
    tamper, words = TAMPERING[how]
    with reading(ctx.sessions) as session:
        table = session.execute(select(DiceTable.id)).scalar_one()
    wrote = stored_tail(ctx, "table_entries")
    tamper(engine_of(ctx), "table_entries", "table_id", table)
    found = stored_tail(ctx, "table_entries")
    before = counts(ctx)
    request = check_roll("current", "2", "6", ["red@example.org"], ["blue@example.org"], "")
    with pytest.raises(LedgerTampered) as refusal:
        table_roll(ctx, request, "test-client", Limits())
    message = refusal.value.message
    assert f"table {table}'s ledger is not as this server left it" in message
    assert f"its last append wrote {wrote}, but the ledger now ends at {found} ({words})" in (
        message
    )
    assert f"pbem ledger check --table {table}" in message
    assert counts(ctx) == before


def test_a_game_emptied_behind_the_servers_back_is_refused(chains: League) -> None:
    engine = engine_of(chains.ctx)
    with engine.begin() as conn:
        drop_trigger(conn, "ledger_entries_no_delete", "ledger_entries")
        conn.execute(text("DELETE FROM ledger_entries"))
    with pytest.raises(LedgerTampered, match=r"holds no entry \(it was emptied\)"):
        roll_battle(chains.ctx, member_id(chains, "axis"), chains.game, battle())


def test_each_append_records_the_head_it_wrote(chains: League) -> None:
    entry = roll_battle(chains.ctx, member_id(chains, "allies"), chains.game, battle())
    with reading(chains.ctx.sessions) as session:
        game = session.get(Game, chains.game)
        table = session.execute(select(DiceTable)).scalar_one()
        last = session.execute(
            select(TableEntry).order_by(TableEntry.seq.desc()).limit(1)
        ).scalar_one()
    assert game is not None
    assert (game.head_seq, game.head_hash) == (3, entry.hash)
    assert (table.head_seq, table.head_hash) == (last.seq, last.hash)


def test_a_key_published_by_a_racing_append_does_not_fail_this_one(
    ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two first appends may both find the key unpublished: the second's insert is refused
    by the guard (or the primary key), which must not fail its append."""
    signer: Signer = ctx.keys.signer
    with writing(ctx.sessions) as session:
        ledger.publish_key(session, signer)
    monkeypatch.setattr(ledger, "_published", set())
    looked_up = Session.get

    def not_yet_published(self: Session, entity: Any, ident: Any, **kw: Any) -> Any:
        return None if ident == signer.key_id else looked_up(self, entity, ident, **kw)

    monkeypatch.setattr(Session, "get", not_yet_published)
    with writing(ctx.sessions) as session:
        ledger.publish_key(session, signer)
        session.execute(text("SELECT 1"))  # the transaction is still usable
    with engine_of(ctx).connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM signing_keys")).scalar_one() == 1


# --- pbem ledger check -------------------------------------------------------------------


def pbem(instance: Path, database_url: str, *args: str) -> Result:
    runner = CliRunner(env={"PBEM_INSTANCE_PATH": str(instance), "PBEM_DATABASE_URL": database_url})
    return runner.invoke(main, ["ledger", "check", *args], catch_exceptions=False)


def test_ledger_check_passes_a_sound_database(
    chains: League, instance: Path, database_url: str
) -> None:
    end_game(chains.ctx, chains.game, status="finished", winner="axis")  # dice recomputed too
    result = pbem(instance, database_url)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == [f"game {chains.game}", "table 1"]
    assert lines[0].startswith(f"game {chains.game}: ok, 3 entries, head seq 3 (hash ")
    assert lines[1].startswith("table 1: ok, 2 entries, head seq 2 (hash ")
    one = pbem(instance, database_url, str(chains.game))
    assert one.exit_code == 0 and one.stdout.splitlines() == lines[:1]
    table = pbem(instance, database_url, "--table", "1")
    assert table.exit_code == 0 and table.stdout.splitlines() == lines[1:]
    missing = pbem(instance, database_url, "77")
    assert missing.exit_code == 1 and "no game 77" in missing.stderr


def rewrite(engine: Engine, table: str, seq: int, assignments: str, **values: object) -> None:
    with engine.begin() as conn:
        drop_trigger(conn, f"{table}_no_update", table)
        statement = text(f"UPDATE {table} SET {assignments} WHERE seq = :seq")
        conn.execute(statement, {"seq": seq, **values})


def test_ledger_check_names_the_first_problem(
    chains: League, instance: Path, database_url: str
) -> None:
    """A body changed at seq 2 of 3 (its hash column kept consistent): the signature fails
    there and seq 3's prev no longer matches; the first problem is seq 2's."""
    roll_battle(chains.ctx, member_id(chains, "allies"), chains.game, battle())
    engine = engine_of(chains.ctx)
    with engine.connect() as conn:
        body = conn.execute(text("SELECT body FROM ledger_entries WHERE seq = 2")).scalar_one()
    forged = body.replace(b"Attack #1", b"Attack #2")
    assert forged != body
    rewrite(
        engine,
        "ledger_entries",
        2,
        "body = :body, hash = :hash",
        body=forged,
        hash=body_hash(forged),
    )
    result = pbem(instance, database_url)
    assert result.exit_code == 1
    game_line, table_line = result.stdout.splitlines()
    assert game_line == f"game {chains.game}: PROBLEM at seq 2: signature does not verify"
    assert table_line.startswith("table 1: ok")
    assert result.stderr.startswith(f"error: game {chains.game}, seq 2: signature does not verify")


@pytest.mark.parametrize(
    ("assignments", "values", "problem"),
    [
        ("hash = :hash", {"hash": "0" * 64}, "seq 2: the stored hash column is not the body's"),
        ("kind = 'note'", {}, "seq 2: the stored kind column ('note') is not the body's ('roll')"),
        ("at = :at", {"at": "2001-01-01T00:00:00.000000Z"}, "seq 2: the stored at column"),
    ],
)
def test_ledger_check_compares_the_stored_columns_with_the_body(
    chains: League,
    instance: Path,
    database_url: str,
    assignments: str,
    values: dict[str, object],
    problem: str,
) -> None:
    rewrite(engine_of(chains.ctx), "ledger_entries", 2, assignments, **values)
    result = pbem(instance, database_url, str(chains.game))
    assert result.exit_code == 1
    assert result.stdout.startswith(f"game {chains.game}: PROBLEM at {problem}")


@pytest.mark.parametrize("how", sorted(TAMPERING))
def test_ledger_check_finds_a_tail_changed_behind_the_servers_back(
    chains: League, instance: Path, database_url: str, how: str
) -> None:
    tamper, words = TAMPERING[how]
    tamper(engine_of(chains.ctx), "table_entries", "table_id", 1)
    result = pbem(instance, database_url, "--table", "1")
    assert result.exit_code == 1
    (line,) = result.stdout.splitlines()
    assert line.startswith("table 1: PROBLEM at ")
    if how == "truncated":  # what remains is a sound chain: only its head tells
        assert line.startswith("table 1: PROBLEM at head: its last append wrote seq 2")
        assert line.endswith(f"({words})")
    elif how == "replaced":
        assert line == "table 1: PROBLEM at seq 2: signature does not verify"
    else:
        assert line.startswith("table 1: PROBLEM at seq 3: ")
    assert result.stderr.startswith("error: table 1, ")


@pytest.mark.parametrize(
    ("assignment", "problem"),
    [
        ("commitment = :forged", "seq 1: the stored seed's commitment is not the entry's"),
        ("sealed = :sealed", "seq 1: the stored seed does not open to this commitment"),
    ],
)
def test_ledger_check_opens_each_sealed_seed_against_its_commitment(
    chains: League, instance: Path, database_url: str, assignment: str, problem: str
) -> None:
    """A seed swapped under its commitment would throw other dice than the committed ones
    (the genesis mailed to both players holds the commitment)."""
    with engine_of(chains.ctx).begin() as conn:
        drop_trigger(conn, "seeds_fixed", "seeds")
        sealed = chains.ctx.keys.seed_box.seal(
            b"\0" * 32, f"pbem-seed:game:{chains.game}:commitment:1"
        )
        conn.execute(text(f"UPDATE seeds SET {assignment}"), {"forged": "f" * 64, "sealed": sealed})
    result = pbem(instance, database_url, str(chains.game))
    assert result.exit_code == 1
    assert result.stdout == f"game {chains.game}: PROBLEM at {problem}\n"


def test_ledger_check_refuses_a_replaced_signing_key(
    chains: League, instance: Path, database_url: str
) -> None:
    public = Signer(Ed25519PrivateKey.generate()).public_b64
    with engine_of(chains.ctx).begin() as conn:
        drop_trigger(conn, "signing_keys_no_update", "signing_keys")
        conn.execute(text("UPDATE signing_keys SET public = :p"), {"p": public})
    result = pbem(instance, database_url)
    assert result.exit_code == 1
    assert "signing_keys:" in result.stderr and "does not match its public key" in result.stderr


def test_check_ledgers_is_a_service_every_channel_can_call(chains: League) -> None:
    checked = list(check_ledgers(chains.ctx))
    assert [(c.name, c.ok, c.entries) for c in checked] == [
        (f"game {chains.game}", True, 2),
        ("table 1", True, 2),
    ]


# --- The migration ------------------------------------------------------------------------

GUARD_TRIGGERS = {f"{table}_no_overwrite" for table in GUARDED} | {
    "seeds_id_fixed",
    "table_seeds_id_fixed",
}


def trigger_names(url: str) -> set[str]:
    query = "SELECT name FROM sqlite_master WHERE type='trigger'"
    if url.startswith("postgresql"):
        query = "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal"
    engine = create_engine(url)
    with engine.connect() as conn:
        names = set(conn.execute(text(query)).scalars())
    engine.dispose()
    return names


def test_the_guards_are_present_after_alembic_upgrade_head(
    databases: Databases, tmp_path: Path
) -> None:
    """`alembic upgrade head`, run as an operator would, leaves the guards in place."""
    url = databases.empty(tmp_path, "fresh.sqlite3")
    env = {**os.environ, "PBEM_DATABASE_URL": url, "PBEM_INSTANCE_PATH": str(tmp_path)}
    subprocess.run(
        [sys.executable, "-m", "alembic", "upgrade", "head"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    assert GUARD_TRIGGERS | {"ledger_entries_no_delete", "table_entries_no_update"} <= (
        trigger_names(url)
    )


def test_downgrade_removes_the_guards_and_upgrade_back_fills_the_heads(
    chains: League, database_url: str
) -> None:
    ctx = chains.ctx
    engine = engine_of(ctx)
    with reading(ctx.sessions) as session:
        heads = session.execute(select(Game.head_seq, Game.head_hash)).all()
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0006")
    assert not GUARD_TRIGGERS & trigger_names(database_url)
    with engine.connect() as conn:
        for table in ("games", "dice_tables"):
            columns = {column["name"] for column in inspect(conn).get_columns(table)}
            assert not {"head_seq", "head_hash"} & columns
    migrate_upgrade(engine)
    assert GUARD_TRIGGERS <= trigger_names(database_url)
    with reading(ctx.sessions) as session:
        assert session.execute(select(Game.head_seq, Game.head_hash)).all() == heads
        assert session.execute(select(DiceTable.head_seq)).scalar_one() == 2
    assert roll_battle(ctx, member_id(chains, "axis"), chains.game, battle()).seq == 3
