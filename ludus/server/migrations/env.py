"""Alembic environment: the caller hands over an open connection (see ``db.migrate``)."""

from alembic import context

from ludus.server.db import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through ludus.server.db.migrate(engine)")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
