"""Challenges and bids: the variants register, game challenges, and the bids that commit
their members (IAAPA How to Start a Game, Game Commitments, Bidding, Variants).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "variants",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("name_key", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_variants")),
        sa.UniqueConstraint("name_key", name=op.f("uq_variants_name_key")),
    )
    op.create_table(
        "challenges",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("challenger_id", sa.Integer(), nullable=False),
        sa.Column("opponent_id", sa.Integer(), nullable=False),
        sa.Column("mentor_id", sa.Integer(), nullable=True),
        sa.Column("method", sa.String(16), nullable=False),
        sa.Column("variant_id", sa.Integer(), nullable=True),
        sa.Column("agreements", sa.Text(), nullable=False),
        sa.Column("instructions", sa.Text(), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("bid_total", sa.Integer(), nullable=False),
        sa.Column("bid_details", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reply_bid_total", sa.Integer(), nullable=True),
        sa.Column("reply_bid_details", sa.Text(), nullable=True),
        sa.Column("reply_message", sa.Text(), nullable=True),
        sa.Column("game_number", sa.Integer(), nullable=True),
        sa.Column("request_key", sa.String(64), nullable=True),
        sa.Column("request_fingerprint", sa.String(64), nullable=True),
        sa.ForeignKeyConstraint(
            ["challenger_id"], ["members.id"], name=op.f("fk_challenges_challenger_id_members")
        ),
        sa.ForeignKeyConstraint(
            ["opponent_id"], ["members.id"], name=op.f("fk_challenges_opponent_id_members")
        ),
        sa.ForeignKeyConstraint(
            ["mentor_id"], ["members.id"], name=op.f("fk_challenges_mentor_id_members")
        ),
        sa.ForeignKeyConstraint(
            ["variant_id"], ["variants.id"], name=op.f("fk_challenges_variant_id_variants")
        ),
        sa.ForeignKeyConstraint(
            ["game_number"], ["games.number"], name=op.f("fk_challenges_game_number_games")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_challenges")),
        sa.UniqueConstraint("game_number", name=op.f("uq_challenges_game_number")),
        sa.UniqueConstraint("request_key", name=op.f("uq_challenges_request_key")),
    )
    op.create_index(op.f("ix_challenges_challenger_id"), "challenges", ["challenger_id"])
    op.create_index(op.f("ix_challenges_opponent_id"), "challenges", ["opponent_id"])
    op.create_index(op.f("ix_challenges_status"), "challenges", ["status"])
    op.create_index(op.f("ix_challenges_expires_at"), "challenges", ["expires_at"])
    op.create_table(
        "bid_commitments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("challenge_id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("details", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["challenge_id"],
            ["challenges.id"],
            name=op.f("fk_bid_commitments_challenge_id_challenges"),
        ),
        sa.ForeignKeyConstraint(
            ["member_id"], ["members.id"], name=op.f("fk_bid_commitments_member_id_members")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_bid_commitments")),
    )
    op.create_index(op.f("ix_bid_commitments_challenge_id"), "bid_commitments", ["challenge_id"])
    op.create_index(op.f("ix_bid_commitments_member_id"), "bid_commitments", ["member_id"])


def downgrade() -> None:
    op.drop_table("bid_commitments")
    op.drop_table("challenges")
    op.drop_table("variants")
