"""When a worker of a group goes, its tables are spread over the workers left (each adopts up to
its fair share per pass), and a peer that counts as alive but adopts nothing strands no table."""

from __future__ import annotations

import os
import time
from collections import Counter

import pytest
from sqlalchemy import select

from ludus.server.config import ServerConfig
from ludus.server.db import LeaseRow, make_engine

from .helpers import LiveServer, Player, gm_table

PG = os.environ.get("LUDUS_TEST_POSTGRES_URL")
pytestmark = pytest.mark.skipif(not PG, reason="set LUDUS_TEST_POSTGRES_URL to test PostgreSQL")


def holders(url: str, codes: list[str]) -> Counter:
    engine = make_engine(url)
    try:
        with engine.connect() as c:
            rows = c.execute(select(LeaseRow.address).where(LeaseRow.resource.in_(codes))).all()
    finally:
        engine.dispose()
    return Counter(r.address for r in rows)


def start(url: str) -> LiveServer:
    return LiveServer(ServerConfig(database=url, bot_delay=0.0, lease_seconds=1.5, create_per_minute_client=0))


def tables_at(server: LiveServer, n: int) -> list[str]:
    p = Player(server)
    try:
        return [gm_table(p, ["human", "bot"])["code"] for _ in range(n)]
    finally:
        p.close()


def adopted(url: str, codes: list[str], timeout: float = 15) -> Counter:
    end = time.time() + timeout
    while True:
        held = holders(url, codes)
        if sum(held.values()) == len(codes) or time.time() > end:
            return held
        time.sleep(0.1)


def test_a_gone_workers_tables_are_spread_over_the_workers_left(pg_url):
    first = start(pg_url)
    codes = tables_at(first, 8)
    rest = [start(pg_url), start(pg_url)]
    try:
        assert holders(pg_url, codes) == {first.url: 8}
        first.stop()  # its leases go back at once: both others find the orphans on their next pass
        held = adopted(pg_url, codes)
        assert held == {rest[0].url: 4, rest[1].url: 4}, held
        for server in rest:  # each plays what it holds
            mine = server.call(lambda s=server: {c for c in codes if c in s.hub.tables})
            assert len(mine) == 4
    finally:
        for server in rest:
            server.stop()


def test_a_peer_that_adopts_nothing_strands_no_table(pg_url):
    first = start(pg_url)
    codes = tables_at(first, 4)
    taker, idle = start(pg_url), start(pg_url)
    idle.hub.leases._orphans = lambda *a, **k: ([], 0)  # alive (its own lease renewed) but never adopting
    try:
        first.stop()
        began = time.time()
        held = adopted(pg_url, codes)
        assert held == {taker.url: 4}, held  # its fair share at once, the rest once overdue (two lease times)
        assert time.time() - began < 10
    finally:
        taker.stop()
        idle.stop()
