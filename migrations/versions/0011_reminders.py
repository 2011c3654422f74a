"""The turn clock's reminders: one row per reminder mailed in a wait, its key unique so
that two schedulers (or a run after a crash) send it once (issue 22).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "turn_reminders",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("waiting_since", sa.String(32), nullable=False),
        sa.Column("reminder", sa.String(16), nullable=False),
        sa.Column("power", sa.String(32), nullable=False),
        sa.Column("message_id", sa.String(255), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_number"], ["games.number"], name=op.f("fk_turn_reminders_game_number_games")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_turn_reminders")),
        sa.UniqueConstraint(
            "game_number",
            "waiting_since",
            "reminder",
            name=op.f("uq_turn_reminders_game_number"),
        ),
    )


def downgrade() -> None:
    op.drop_table("turn_reminders")
