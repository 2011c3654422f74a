"""Low Luck offered in challenges (issue 18): the challenger proposes it, and the game the
accepted challenge starts throws its battle rounds by Low Luck (``games.low_luck``).

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "challenges",
        sa.Column("low_luck", sa.Boolean(), nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    op.drop_column("challenges", "low_luck")
