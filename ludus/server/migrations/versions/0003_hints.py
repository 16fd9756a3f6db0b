"""Tables may offer hints ("What would the bot play?"); off for every existing table.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN (no table rebuild): on SQLite a rebuilt ludus_tables would cascade-delete its seats
    op.add_column("ludus_tables", sa.Column("hints", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("ludus_tables") as batch:
        batch.drop_column("hints")
