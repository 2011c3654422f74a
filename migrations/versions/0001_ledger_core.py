"""Members, games, seeds, signing keys and the append-only ledger.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

APPEND_ONLY = ("ledger_entries", "signing_keys")

PG_FUNCTION = """
CREATE OR REPLACE FUNCTION pbem_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP;
END
$$
"""

PG_SEED_FUNCTION = """
CREATE OR REPLACE FUNCTION pbem_seed_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.game_number <> OLD.game_number OR NEW.commitment_seq <> OLD.commitment_seq
       OR NEW.commitment <> OLD.commitment OR NEW.sealed <> OLD.sealed
       OR OLD.revealed_seq IS NOT NULL THEN
        RAISE EXCEPTION 'a seed is fixed once committed: only its reveal may be recorded';
    END IF;
    RETURN NEW;
END
$$
"""


def _create_triggers() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        for table in APPEND_ONLY:
            for action in ("UPDATE", "DELETE"):
                op.execute(
                    f"CREATE TRIGGER {table}_no_{action.lower()} BEFORE {action} ON {table} "
                    f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: {action} refused'); END"
                )
        op.execute(
            "CREATE TRIGGER seeds_fixed BEFORE UPDATE ON seeds "
            "WHEN NEW.game_number IS NOT OLD.game_number "
            "OR NEW.commitment_seq IS NOT OLD.commitment_seq "
            "OR NEW.commitment IS NOT OLD.commitment OR NEW.sealed IS NOT OLD.sealed "
            "OR OLD.revealed_seq IS NOT NULL "
            "BEGIN SELECT RAISE(ABORT, 'a seed is fixed once committed: only its reveal may be "
            "recorded'); END"
        )
        op.execute(
            "CREATE TRIGGER seeds_no_delete BEFORE DELETE ON seeds "
            "BEGIN SELECT RAISE(ABORT, 'seeds is append-only: DELETE refused'); END"
        )
    elif dialect == "postgresql":
        op.execute(PG_FUNCTION)
        op.execute(PG_SEED_FUNCTION)
        for table in (*APPEND_ONLY, "seeds"):
            op.execute(
                f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION pbem_refuse_change()"
            )
            op.execute(
                f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
                "FOR EACH STATEMENT EXECUTE FUNCTION pbem_refuse_change()"
            )
        for table in APPEND_ONLY:
            op.execute(
                f"CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION pbem_refuse_change()"
            )
        op.execute(
            "CREATE TRIGGER seeds_fixed BEFORE UPDATE ON seeds "
            "FOR EACH ROW EXECUTE FUNCTION pbem_seed_fixed()"
        )
    else:
        raise NotImplementedError(f"no append-only triggers written for {dialect}")


def upgrade() -> None:
    op.create_table(
        "members",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(length=320), nullable=False),
        sa.Column("email_key", sa.String(length=320), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("confirmed", sa.Boolean(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_members")),
        sa.UniqueConstraint("email_key", name=op.f("uq_members_email_key")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_members_token_hash")),
    )
    op.create_table(
        "signing_keys",
        sa.Column("key_id", sa.String(length=16), nullable=False),
        sa.Column("public", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key_id", name=op.f("pk_signing_keys")),
    )
    op.create_table(
        "games",
        sa.Column("number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("axis_id", sa.Integer(), nullable=False),
        sa.Column("allies_id", sa.Integer(), nullable=False),
        sa.Column("mentor_id", sa.Integer(), nullable=True),
        sa.Column("variant", sa.Text(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("winner", sa.String(length=8), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["allies_id"], ["members.id"], name=op.f("fk_games_allies_id_members")
        ),
        sa.ForeignKeyConstraint(["axis_id"], ["members.id"], name=op.f("fk_games_axis_id_members")),
        sa.ForeignKeyConstraint(
            ["mentor_id"], ["members.id"], name=op.f("fk_games_mentor_id_members")
        ),
        sa.PrimaryKeyConstraint("number", name=op.f("pk_games")),
    )
    op.create_table(
        "agreements",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_number"], ["games.number"], name=op.f("fk_agreements_game_number_games")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_agreements")),
    )
    op.create_index(
        op.f("ix_agreements_game_number"), "agreements", ["game_number"], unique=False
    )
    op.create_table(
        "seeds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("commitment_seq", sa.Integer(), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("sealed", sa.LargeBinary(), nullable=False),
        sa.Column("revealed_seq", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_number"], ["games.number"], name=op.f("fk_seeds_game_number_games")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seeds")),
        sa.UniqueConstraint("game_number", "commitment_seq", name=op.f("uq_seeds_game_number")),
    )
    op.create_index(op.f("ix_seeds_game_number"), "seeds", ["game_number"], unique=False)
    op.create_table(
        "ledger_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("at", sa.String(length=27), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.Column("sig", sa.String(length=88), nullable=False),
        sa.Column("key_id", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_number"], ["games.number"], name=op.f("fk_ledger_entries_game_number_games")
        ),
        sa.ForeignKeyConstraint(
            ["key_id"], ["signing_keys.key_id"], name=op.f("fk_ledger_entries_key_id_signing_keys")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_entries")),
        sa.UniqueConstraint("game_number", "seq", name=op.f("uq_ledger_entries_game_number")),
    )
    _create_triggers()


def downgrade() -> None:
    raise NotImplementedError("the ledger is append-only: its tables are never dropped")
