"""Rated tables, ratings per game pool, and each rated game's seats (the rating history).

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN (no table rebuild): on SQLite a rebuilt ludus_tables would cascade-delete its seats
    op.add_column("ludus_tables", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "ludus_ratings",
        sa.Column("pool", sa.String(100), primary_key=True),
        sa.Column("subject", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("ludus_accounts.id", ondelete="CASCADE"), nullable=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ludus_ratings_account_id", "ludus_ratings", ["account_id"])
    op.create_table(
        "ludus_rated_seats",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_code", sa.String(16), sa.ForeignKey("ludus_tables.code", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("pool", sa.String(100), nullable=False),
        sa.Column("subject", sa.String(64), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("counted", sa.Boolean(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ludus_rated_seats_table_code", "ludus_rated_seats", ["table_code"])
    op.create_index("ix_ludus_rated_seats_subject", "ludus_rated_seats", ["subject"])


def downgrade() -> None:
    op.drop_index("ix_ludus_rated_seats_subject", "ludus_rated_seats")
    op.drop_index("ix_ludus_rated_seats_table_code", "ludus_rated_seats")
    op.drop_table("ludus_rated_seats")
    op.drop_index("ix_ludus_ratings_account_id", "ludus_ratings")
    op.drop_table("ludus_ratings")
    # a plain DROP COLUMN (SQLite 3.35+): a rebuilt ludus_tables would cascade-delete its seats
    op.drop_column("ludus_tables", "rated")
