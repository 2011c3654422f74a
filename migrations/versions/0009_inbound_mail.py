"""Turns by email: each player's personal game address, and every message received.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_addresses",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("nonce", sa.String(64), nullable=False),
        sa.Column("secret_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_number"], ["games.number"], name=op.f("fk_game_addresses_game_number_games")
        ),
        sa.ForeignKeyConstraint(
            ["member_id"], ["members.id"], name=op.f("fk_game_addresses_member_id_members")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_addresses")),
        sa.UniqueConstraint("game_number", "member_id", name=op.f("uq_game_addresses_game_number")),
        sa.UniqueConstraint("secret_hash", name=op.f("uq_game_addresses_secret_hash")),
    )
    op.create_table(
        "inbound_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_key", sa.String(255), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("envelope_from", sa.String(320), nullable=True),
        sa.Column("envelope_to", sa.Text(), nullable=False),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("sender", sa.String(320), nullable=True),
        sa.Column("subject", sa.Text(), nullable=True),
        sa.Column("game_number", sa.Integer(), nullable=True),
        sa.Column("member_id", sa.Integer(), nullable=True),
        sa.Column("entry_seq", sa.Integer(), nullable=True),
        sa.Column("answer_id", sa.String(255), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("processed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["member_id"], ["members.id"], name=op.f("fk_inbound_messages_member_id_members")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_inbound_messages")),
        sa.UniqueConstraint("message_key", name=op.f("uq_inbound_messages_message_key")),
    )
    op.create_index(
        op.f("ix_inbound_messages_status"), "inbound_messages", ["status"], unique=False
    )
    op.create_index(
        op.f("ix_inbound_messages_game_number"), "inbound_messages", ["game_number"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_inbound_messages_game_number"), table_name="inbound_messages")
    op.drop_index(op.f("ix_inbound_messages_status"), table_name="inbound_messages")
    op.drop_table("inbound_messages")
    op.drop_table("game_addresses")
