"""The outbox: every ledger entry's message, delivered at least once.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-21
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.String(length=255), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=True),
        sa.Column("entry_seq", sa.Integer(), nullable=True),
        sa.Column("to_addrs", sa.Text(), nullable=False),
        sa.Column("cc_addrs", sa.Text(), nullable=False),
        sa.Column("raw", sa.LargeBinary(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_number"], ["games.number"], name=op.f("fk_outbox_game_number_games")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox")),
        sa.UniqueConstraint("message_id", name=op.f("uq_outbox_message_id")),
    )
    op.create_index(op.f("ix_outbox_status"), "outbox", ["status"], unique=False)
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        op.execute(
            "CREATE TRIGGER outbox_no_delete BEFORE DELETE ON outbox "
            "BEGIN SELECT RAISE(ABORT, 'outbox rows are kept: DELETE refused'); END"
        )
    elif dialect == "postgresql":
        op.execute(
            "CREATE TRIGGER outbox_no_delete BEFORE DELETE ON outbox "
            "FOR EACH ROW EXECUTE FUNCTION pbem_refuse_change()"
        )


def downgrade() -> None:
    op.drop_table("outbox")
