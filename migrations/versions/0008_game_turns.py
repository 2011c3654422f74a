"""Turns through the service: each game's position and whose turn it is.

A game created before this revision has no row: the service makes one from the Classic
initial position when it first needs it (its genesis names no position).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_turns",
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("position", sa.Text(), nullable=False),
        sa.Column("position_sha256", sa.String(64), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("power", sa.String(16), nullable=False),
        sa.Column("phase", sa.String(16), nullable=False),
        sa.Column("precombat_seq", sa.Integer(), nullable=True),
        sa.Column("rolled_seq", sa.Integer(), nullable=True),
        sa.Column("previous_position", sa.Text(), nullable=True),
        sa.Column("previous_precombat_seq", sa.Integer(), nullable=True),
        sa.Column("previous_postcombat_seq", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_number"], ["games.number"], name=op.f("fk_game_turns_game_number_games")
        ),
        sa.PrimaryKeyConstraint("game_number", name=op.f("pk_game_turns")),
    )


def downgrade() -> None:
    op.drop_table("game_turns")
