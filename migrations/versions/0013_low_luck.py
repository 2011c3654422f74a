"""Low Luck as a per-game option (issue 18): a game whose battle rounds are thrown by Low
Luck (``low-luck-roll`` entries: the sure hits and one die for the remainder), as its
genesis records.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "games", sa.Column("low_luck", sa.Boolean(), nullable=False, server_default=sa.false())
    )


def downgrade() -> None:
    op.drop_column("games", "low_luck")
