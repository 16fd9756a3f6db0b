"""Leases: which worker of a group plays each table (PostgreSQL groups of workers).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ludus_leases",
        sa.Column("resource", sa.String(32), primary_key=True),
        sa.Column("worker", sa.String(32), nullable=False),
        sa.Column("address", sa.Text(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ludus_leases_worker", "ludus_leases", ["worker"])


def downgrade() -> None:
    op.drop_index("ix_ludus_leases_worker", "ludus_leases")
    op.drop_table("ludus_leases")
