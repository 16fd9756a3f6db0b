"""Tables, seats and actions.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ludus_tables",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("clock_seconds", sa.Integer(), nullable=True),
        sa.Column("listed", sa.Boolean(), nullable=False),
        sa.Column("rematch_of", sa.String(16), nullable=True),
        sa.Column("rematch_code", sa.String(16), nullable=True),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ludus_tables_status", "ludus_tables", ["status"])
    op.create_table(
        "ludus_seats",
        sa.Column("table_code", sa.String(16), sa.ForeignKey("ludus_tables.code", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(32), nullable=False),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("away", sa.String(16), nullable=True),
    )
    op.create_table(
        "ludus_actions",
        sa.Column("table_code", sa.String(16), sa.ForeignKey("ludus_tables.code", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("ply", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.Text(), nullable=False),
        sa.Column("by_bot", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ludus_actions")
    op.drop_table("ludus_seats")
    op.drop_index("ix_ludus_tables_status", "ludus_tables")
    op.drop_table("ludus_tables")
