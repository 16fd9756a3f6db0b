"""Alembic migrations for the server's schema, run by :func:`ludus.server.db.migrate` at startup."""
