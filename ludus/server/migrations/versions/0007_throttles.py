"""Throttles shared by a group of workers: token buckets per (limit, hashed key).

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ludus_throttles",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("tokens", sa.Float(), nullable=False),
        sa.Column("rate", sa.Float(), nullable=False),
        sa.Column("burst", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("full_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ludus_throttles_full_at", "ludus_throttles", ["full_at"])


def downgrade() -> None:
    op.drop_index("ix_ludus_throttles_full_at", "ludus_throttles")
    op.drop_table("ludus_throttles")
