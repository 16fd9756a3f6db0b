"""Accounts and their sessions; seats indexed by their holder's key ("your games").

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ludus_accounts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("name_key", sa.String(96), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("seat_key", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "ludus_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("ludus_accounts.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ludus_sessions_account_id", "ludus_sessions", ["account_id"])
    # a plain CREATE INDEX: no table rebuild (on SQLite a rebuilt table would lose its cascades' rows)
    op.create_index("ix_ludus_seats_token_hash", "ludus_seats", ["token_hash"])


def downgrade() -> None:
    op.drop_index("ix_ludus_seats_token_hash", "ludus_seats")
    op.drop_index("ix_ludus_sessions_account_id", "ludus_sessions")
    op.drop_table("ludus_sessions")
    op.drop_table("ludus_accounts")
