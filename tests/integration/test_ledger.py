"""The ledger in a real, migrated database: chain, time order, append-only triggers,
sealed seeds, commit-reveal, and concurrent appends that never fork or skip a seq."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect, select, text
from sqlalchemy.exc import DBAPIError

from dice_server.db import reading
from dice_server.errors import Conflict
from dice_server.ledger import format_time
from dice_server.models import Base, LedgerEntry, Seed
from dice_server.services import ServiceContext
from dice_server.services.games import end_game, export_ledger, reopen_game
from dice_server.services.rolls import roll_battle
from dice_server.verifier import seed_commitment, verify_ledger
from tests.conftest import PG_URL, Databases, League, SteppingClock, battle

ROOT = Path(__file__).resolve().parents[2]


def member_id(league: League, who: str) -> int:
    from dice_server.services.members import member_by_token

    with reading(league.ctx.sessions) as session:
        return member_by_token(session, league.tokens[who]).id


def bodies(ctx: ServiceContext, game: int) -> list[dict[str, object]]:
    doc = export_ledger(ctx, game, None)
    return [json.loads(e["body"]) for e in doc["entries"]]


def test_genesis_commits_to_the_seed_and_lists_players(league: League) -> None:
    (genesis,) = bodies(league.ctx, league.game)
    assert genesis["seq"] == 1 and genesis["prev"] == "0" * 64 and genesis["kind"] == "genesis"
    data = genesis["data"]
    assert isinstance(data, dict)
    assert data["players"] == {"axis": "axis@example.org", "allies": "allies@example.org"}
    assert data["mentor"] == "mentor@example.org"
    assert data["agreements"] == ["no attack on Russia R1"]
    with reading(league.ctx.sessions) as session:
        seed_row = session.execute(select(Seed)).scalar_one()
    assert data["seed_commitment"] == seed_row.commitment


def test_seed_is_sealed_at_rest(league: League) -> None:
    with reading(league.ctx.sessions) as session:
        seed_row = session.execute(select(Seed)).scalar_one()
    box = league.ctx.keys.seed_box
    label = f"pbem-seed:game:{league.game}:commitment:1"
    seed = box.open(seed_row.sealed, label)
    assert seed_commitment(seed) == seed_row.commitment
    assert seed not in seed_row.sealed
    with pytest.raises(Exception):  # bound to its game: another label does not open it
        box.open(seed_row.sealed, f"pbem-seed:game:{league.game + 1}:commitment:1")


def test_time_is_strictly_increasing_even_when_the_clock_stalls_or_steps_back(
    league: League, clock: SteppingClock
) -> None:
    """IAAPA: "the time stamped on the battle round by the IAAPA Dice Server is the order in
    which the rounds are considered to have been rolled": the stamps must never tie or go back."""
    ctx = dataclasses.replace(league.ctx, clock=clock)
    start = datetime.now(UTC) + timedelta(days=1)
    clock.now = start
    roller = member_id(league, "allies")
    roll_battle(ctx, roller, league.game, battle())
    roll_battle(ctx, roller, league.game, battle())  # the clock stalls
    clock.advance(hours=1)
    roll_battle(ctx, roller, league.game, battle())
    clock.advance(hours=-3)  # the clock steps back
    roll_battle(ctx, roller, league.game, battle())
    ats = [str(b["at"]) for b in bodies(ctx, league.game)][1:]
    us = timedelta(microseconds=1)
    assert ats == [
        format_time(start),
        format_time(start + us),
        format_time(start + timedelta(hours=1)),
        format_time(start + timedelta(hours=1) + us),
    ]


def test_append_only_triggers_refuse_update_and_delete(league: League) -> None:
    engine = league.ctx.sessions.kw["bind"]
    for statement in (
        "UPDATE ledger_entries SET kind = 'note'",
        "DELETE FROM ledger_entries",
        "UPDATE signing_keys SET public = 'x'",
        "DELETE FROM signing_keys",
        "UPDATE seeds SET commitment = 'x'",
        "DELETE FROM seeds",
    ):
        with pytest.raises(DBAPIError, match=r"append-only|fixed once committed"):
            with engine.begin() as conn:
                conn.execute(text(statement))
    assert len(bodies(league.ctx, league.game)) == 1


def test_triggers_are_present_after_alembic_upgrade_head(
    databases: Databases, tmp_path: Path
) -> None:
    """`alembic upgrade head`, run as an operator would, leaves the triggers in place."""
    url = databases.empty(tmp_path, "fresh.sqlite3")
    query = "SELECT name FROM sqlite_master WHERE type='trigger'"
    if PG_URL:
        query = "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal"
    env = {**os.environ, "PBEM_DATABASE_URL": url, "PBEM_INSTANCE_PATH": str(tmp_path)}
    subprocess.run(
        [sys.executable, "-m", "alembic", "upgrade", "head"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    engine = create_engine(url)
    with engine.connect() as conn:
        names = set(conn.execute(text(query)).scalars())
    engine.dispose()
    assert {
        "ledger_entries_no_update",
        "ledger_entries_no_delete",
        "signing_keys_no_update",
        "signing_keys_no_delete",
        "seeds_fixed",
        "seeds_no_delete",
    } <= names


def test_models_match_the_migrations(ctx: ServiceContext) -> None:
    engine = ctx.sessions.kw["bind"]
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []
    assert "alembic_version" in inspect(engine).get_table_names()


def test_concurrent_appends_to_one_game_never_fork_or_skip(league: League) -> None:
    roller = member_id(league, "axis")
    errors: list[BaseException] = []
    start = threading.Barrier(20)

    def worker() -> None:
        try:
            start.wait()
            roll_battle(league.ctx, roller, league.game, battle())
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    doc = export_ledger(league.ctx, league.game, None)
    seqs = [json.loads(e["body"])["seq"] for e in doc["entries"]]
    assert seqs == list(range(1, 22))
    keys = {
        "keys": [
            {
                "id": league.ctx.keys.signer.key_id,
                "alg": "Ed25519",
                "public": league.ctx.keys.signer.public_b64,
            }
        ]
    }
    report = verify_ledger(doc, keys)
    assert report.ok, report.problems


def test_reveal_then_no_roll_until_a_new_commitment(league: League) -> None:
    roller = member_id(league, "axis")
    roll_battle(league.ctx, roller, league.game, battle())
    end_game(league.ctx, league.game, status="finished", winner="axis", reason="Moscow fell")
    with pytest.raises(Conflict, match="finished"):
        roll_battle(league.ctx, roller, league.game, battle())
    reopen_game(league.ctx, league.game, reason="Minister of Law: error recognised in time")
    roll_battle(league.ctx, roller, league.game, battle())
    kinds = [b["kind"] for b in bodies(league.ctx, league.game)]
    assert kinds == ["genesis", "roll", "seed-reveal", "commitment", "roll"]
    with reading(league.ctx.sessions) as session:
        seeds = session.execute(select(Seed).order_by(Seed.commitment_seq)).scalars().all()
        assert [(s.commitment_seq, s.revealed_seq) for s in seeds] == [(1, 3), (4, None)]
        count = len(session.execute(select(LedgerEntry)).scalars().all())
    assert count == 5
