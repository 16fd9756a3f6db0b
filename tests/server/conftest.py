"""Fixtures: a live server on a fresh SQLite file per test, with bots that do not pause."""

from __future__ import annotations

import pytest

from ludus.server.config import ServerConfig

from .helpers import LiveServer, Player


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
