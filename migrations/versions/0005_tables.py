"""TripleA tables: their own append-only ledgers and seeds, and registered addresses.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-21
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def _triggers() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        for action in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER table_entries_no_{action.lower()} BEFORE {action} ON "
                f"table_entries BEGIN SELECT RAISE(ABORT, 'table_entries is append-only: "
                f"{action} refused'); END"
            )
        op.execute(
            "CREATE TRIGGER table_seeds_fixed BEFORE UPDATE ON table_seeds "
            "WHEN NEW.table_id IS NOT OLD.table_id "
            "OR NEW.commitment_seq IS NOT OLD.commitment_seq "
            "OR NEW.commitment IS NOT OLD.commitment OR NEW.sealed IS NOT OLD.sealed "
            "OR OLD.revealed_seq IS NOT NULL "
            "BEGIN SELECT RAISE(ABORT, 'a seed is fixed once committed: only its reveal may be "
            "recorded'); END"
        )
        op.execute(
            "CREATE TRIGGER table_seeds_no_delete BEFORE DELETE ON table_seeds "
            "BEGIN SELECT RAISE(ABORT, 'table_seeds is append-only: DELETE refused'); END"
        )
    elif dialect == "postgresql":
        op.execute(
            """
            CREATE OR REPLACE FUNCTION pbem_table_seed_fixed() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                IF NEW.table_id <> OLD.table_id OR NEW.commitment_seq <> OLD.commitment_seq
                   OR NEW.commitment <> OLD.commitment OR NEW.sealed <> OLD.sealed
                   OR OLD.revealed_seq IS NOT NULL THEN
                    RAISE EXCEPTION 'a seed is fixed once committed: only its reveal may be recorded';
                END IF;
                RETURN NEW;
            END
            $$
            """
        )
        for table in ("table_entries", "table_seeds"):
            op.execute(
                f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION pbem_refuse_change()"
            )
            op.execute(
                f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
                "FOR EACH STATEMENT EXECUTE FUNCTION pbem_refuse_change()"
            )
        op.execute(
            "CREATE TRIGGER table_entries_no_update BEFORE UPDATE ON table_entries "
            "FOR EACH ROW EXECUTE FUNCTION pbem_refuse_change()"
        )
        op.execute(
            "CREATE TRIGGER table_seeds_fixed BEFORE UPDATE ON table_seeds "
            "FOR EACH ROW EXECUTE FUNCTION pbem_table_seed_fixed()"
        )
    else:
        raise NotImplementedError(f"no append-only triggers written for {dialect}")


def upgrade() -> None:
    op.create_table(
        "dice_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=32), nullable=False),
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("open_key", sa.String(length=64), nullable=True),
        sa.Column("game_name", sa.String(length=200), nullable=False),
        sa.Column("protocol", sa.String(length=8), nullable=False),
        sa.Column("addresses", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_dice_tables")),
        sa.UniqueConstraint("open_key", name=op.f("uq_dice_tables_open_key")),
        sa.UniqueConstraint("public_id", name=op.f("uq_dice_tables_public_id")),
    )
    op.create_table(
        "table_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("at", sa.String(length=27), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.Column("sig", sa.String(length=88), nullable=False),
        sa.Column("key_id", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(
            ["key_id"], ["signing_keys.key_id"], name=op.f("fk_table_entries_key_id_signing_keys")
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["dice_tables.id"], name=op.f("fk_table_entries_table_id_dice_tables")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_table_entries")),
        sa.UniqueConstraint("table_id", "seq", name=op.f("uq_table_entries_table_id")),
    )
    op.create_table(
        "table_seeds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("commitment_seq", sa.Integer(), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("sealed", sa.LargeBinary(), nullable=False),
        sa.Column("revealed_seq", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["table_id"], ["dice_tables.id"], name=op.f("fk_table_seeds_table_id_dice_tables")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_table_seeds")),
        sa.UniqueConstraint("table_id", "commitment_seq", name=op.f("uq_table_seeds_table_id")),
    )
    op.create_index(op.f("ix_table_seeds_table_id"), "table_seeds", ["table_id"], unique=False)
    op.create_table(
        "dice_addresses",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(length=320), nullable=False),
        sa.Column("email_key", sa.String(length=320), nullable=False),
        sa.Column("confirmed", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_dice_addresses")),
        sa.UniqueConstraint("email_key", name=op.f("uq_dice_addresses_email_key")),
    )
    op.create_table(
        "address_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("address_id", sa.Integer(), nullable=False),
        sa.Column("purpose", sa.String(length=16), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["address_id"], ["dice_addresses.id"],
            name=op.f("fk_address_tokens_address_id_dice_addresses"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_address_tokens")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_address_tokens_token_hash")),
    )
    op.create_index(
        op.f("ix_address_tokens_address_id"), "address_tokens", ["address_id"], unique=False
    )
    _triggers()


def downgrade() -> None:
    raise NotImplementedError("table ledgers are append-only: their tables are never dropped")
