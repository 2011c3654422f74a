"""Table entries' mail rendered at delivery, like a game's: the outbox names the table.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-21
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("outbox", sa.Column("table_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("outbox", "table_id")
