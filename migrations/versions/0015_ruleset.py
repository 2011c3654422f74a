"""The ruleset a game is played by (issue 18): ``classic`` (Axis & Allies 2nd edition, the
league's game) or ``big_world_1942`` (TripleA's Big World 1942), as its genesis records.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "games",
        sa.Column("ruleset", sa.String(32), nullable=False, server_default="classic"),
    )


def downgrade() -> None:
    op.drop_column("games", "ruleset")
