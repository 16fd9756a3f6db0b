"""Fixtures: a live server on a fresh SQLite file per test, with bots that do not pause; and a
PostgreSQL URL in a schema of the test's own (``pg_url``)."""

from __future__ import annotations

import os

import pytest

from ludus.server.config import ServerConfig

from .helpers import LiveServer, Player, pg_schema


@pytest.fixture
def config(tmp_path) -> ServerConfig:
    return ServerConfig(database=f"sqlite:///{tmp_path / 'ludus.db'}", bot_delay=0.0, disconnect_grace=30.0,
                        min_clock=1)


@pytest.fixture
def server(config):
    srv = LiveServer(config)
    yield srv
    srv.stop()


@pytest.fixture
def player(server):
    p = Player(server)
    yield p
    p.close()


@pytest.fixture
def other(server):
    p = Player(server)
    yield p
    p.close()


@pytest.fixture
def pg_url():
    """LUDUS_TEST_POSTGRES_URL in a schema of this test's own, so no other server (another test, in
    parallel) resumes its tables and it resumes none of theirs; dropped afterwards."""
    url = os.environ.get("LUDUS_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("set LUDUS_TEST_POSTGRES_URL to test PostgreSQL")
    with pg_schema(url) as schema_url:
        yield schema_url
