"""Ledger guards: no INSERT over an existing row of an append-only table, and each chain's
head as this server last wrote it.

SQLite's ``INSERT OR REPLACE`` (or ``REPLACE``) resolves a key collision by
deleting the old row without firing its DELETE trigger (delete triggers fire on a REPLACE
only under ``PRAGMA recursive_triggers``), so the triggers of 0001 and 0005 did not stop an
entry, a seed or a key from being replaced. A BEFORE INSERT trigger runs before the
conflict is resolved: refusing there refuses the replacement. PostgreSQL has no REPLACE, but
an ``ON CONFLICT DO NOTHING`` would silently drop a row and ``DO UPDATE`` depends on the
UPDATE triggers; the same guard refuses every one of them with one message, as a unique
violation. Each guard is an indexed EXISTS per key: a primary-key and a unique-index probe.

``games`` and ``dice_tables`` gain ``head_seq`` and ``head_hash``: the seq and body hash of
the last entry the server appended. Every append checks the ledger still ends there, so a
tail replaced, truncated or extended behind the server's back is refused, never extended
(dice_server.ledger). Existing chains are back-filled from their last entry as stored,
which this upgrade must take on trust: `pbem ledger check` afterwards verifies it.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-22
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

#: Each append-only table, with the keys a new row must not share with an existing one.
GUARDED: dict[str, tuple[tuple[str, ...], ...]] = {
    "ledger_entries": (("id",), ("game_number", "seq")),
    "table_entries": (("id",), ("table_id", "seq")),
    "seeds": (("id",), ("game_number", "commitment_seq")),
    "table_seeds": (("id",), ("table_id", "commitment_seq")),
    "signing_keys": (("key_id",),),
}

#: Seeds may be updated (their reveal is recorded), but never renumbered: on SQLite an
#: ``UPDATE OR REPLACE`` onto another seed's id would delete that seed unseen.
SEED_TABLES = ("seeds", "table_seeds")

#: Each chain's table, its entries' table and the column naming the chain.
CHAINS = (
    ("games", "number", "ledger_entries", "game_number"),
    ("dice_tables", "id", "table_entries", "table_id"),
)


def _message(table: str) -> str:
    return f"{table} is append-only: INSERT over an existing row refused"


def _exists(table: str, key: tuple[str, ...]) -> str:
    match = " AND ".join(f"{column} = NEW.{column}" for column in key)
    return f"EXISTS (SELECT 1 FROM {table} WHERE {match})"  # noqa: S608 - names from GUARDED


def _pg_function(table: str, keys: tuple[tuple[str, ...], ...]) -> str:
    found = " OR ".join(_exists(table, key) for key in keys)
    return f"""
CREATE OR REPLACE FUNCTION pbem_{table}_no_overwrite() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF {found} THEN
        RAISE EXCEPTION '{_message(table)}' USING ERRCODE = 'unique_violation';
    END IF;
    RETURN NEW;
END
$$
"""


PG_SEED_ID_FUNCTION = """
CREATE OR REPLACE FUNCTION pbem_seed_id_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.id <> OLD.id THEN
        RAISE EXCEPTION '% is append-only: a seed is never renumbered', TG_TABLE_NAME;
    END IF;
    RETURN NEW;
END
$$
"""


def _create_guards() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        for table, keys in GUARDED.items():
            found = " OR ".join(_exists(table, key) for key in keys)
            op.execute(
                f"CREATE TRIGGER {table}_no_overwrite BEFORE INSERT ON {table} WHEN {found} "
                f"BEGIN SELECT RAISE(ABORT, '{_message(table)}'); END"
            )
        for table in SEED_TABLES:
            op.execute(
                f"CREATE TRIGGER {table}_id_fixed BEFORE UPDATE OF id ON {table} "
                "WHEN NEW.id IS NOT OLD.id "
                f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: a seed is never "
                "renumbered'); END"
            )
    elif dialect == "postgresql":
        for table, keys in GUARDED.items():
            op.execute(_pg_function(table, keys))
            op.execute(
                f"CREATE TRIGGER {table}_no_overwrite BEFORE INSERT ON {table} "
                f"FOR EACH ROW EXECUTE FUNCTION pbem_{table}_no_overwrite()"
            )
        op.execute(PG_SEED_ID_FUNCTION)
        for table in SEED_TABLES:
            op.execute(
                f"CREATE TRIGGER {table}_id_fixed BEFORE UPDATE OF id ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION pbem_seed_id_fixed()"
            )
    else:
        raise NotImplementedError(f"no ledger guards written for {dialect}")


def _drop_guards() -> None:
    dialect = op.get_bind().dialect.name
    for table in GUARDED:
        op.execute(
            f"DROP TRIGGER IF EXISTS {table}_no_overwrite"
            + (f" ON {table}" if dialect == "postgresql" else "")
        )
        if dialect == "postgresql":
            op.execute(f"DROP FUNCTION IF EXISTS pbem_{table}_no_overwrite()")
    for table in SEED_TABLES:
        op.execute(
            f"DROP TRIGGER IF EXISTS {table}_id_fixed"
            + (f" ON {table}" if dialect == "postgresql" else "")
        )
    if dialect == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS pbem_seed_id_fixed()")


def upgrade() -> None:
    for chains, _key, _entries, _chain in CHAINS:
        op.add_column(chains, sa.Column("head_seq", sa.Integer(), nullable=True))
        op.add_column(chains, sa.Column("head_hash", sa.String(length=64), nullable=True))
    for chains, key, entries, chain in CHAINS:
        last = (
            f"FROM {entries} WHERE {entries}.{chain} = {chains}.{key} "
            f"ORDER BY {entries}.seq DESC LIMIT 1"
        )
        op.execute(
            f"UPDATE {chains} SET head_seq = (SELECT {entries}.seq {last}), "  # noqa: S608
            f"head_hash = (SELECT {entries}.hash {last})"
        )
    _create_guards()


def downgrade() -> None:
    _drop_guards()
    for chains, _key, _entries, _chain in CHAINS:
        op.drop_column(chains, "head_hash")
        op.drop_column(chains, "head_seq")
