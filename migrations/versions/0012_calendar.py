"""A member's calendar link: the random token of the iCalendar feed of his games' forfeit
lines (issue 22), unique, made on first use.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A unique index, not a table constraint: both databases add (and drop) the column in
    # place, without SQLite's copy of a table other tables' keys point to.
    op.add_column("members", sa.Column("calendar_token", sa.String(length=64), nullable=True))
    op.create_index(
        op.f("ix_members_calendar_token"), "members", ["calendar_token"], unique=True
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_members_calendar_token"), table_name="members")
    op.drop_column("members", "calendar_token")
