"""Throttles hold across a group of workers on one PostgreSQL database: wrong passwords per name
and per address, sign-ups per address and table creations per browser and per address are
counted once for the whole group (``ludus_throttles``), with keys stored only as HMACs."""

from __future__ import annotations

import hashlib
import hmac
import os
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import select, text

from ludus.server.config import ServerConfig
from ludus.server.db import ThrottleRow, make_engine

from .helpers import LiveServer, Player, gm_table

PG = os.environ.get("LUDUS_TEST_POSTGRES_URL")
pytestmark = pytest.mark.skipif(not PG, reason="set LUDUS_TEST_POSTGRES_URL to test PostgreSQL")
PASSWORD = "correct horse battery"


def group(url: str, n: int = 2, **limits: float) -> list[LiveServer]:
    return [LiveServer(ServerConfig(database=url, bot_delay=0.0, lease_seconds=1.5, **limits)) for _ in range(n)]


def stop(servers: list[LiveServer], players: list[Player]) -> None:
    for p in players:
        p.close()
    for s in servers:
        s.stop()


def as_browser(p: Player, server: LiveServer) -> Player:
    """The same browser (its cookies) reaching another worker of the group."""
    q = Player(server)
    q.http.cookies = p.http.cookies
    return q


def rows(url: str) -> list[ThrottleRow]:
    engine = make_engine(url)
    try:
        with engine.connect() as c:
            return list(c.execute(select(ThrottleRow)))
    finally:
        engine.dispose()


def test_wrong_passwords_for_a_name_count_once_across_the_workers(pg_url):
    servers = group(pg_url, login_failures_per_minute_account=0.5, login_failures_burst_account=4)
    a, b = servers
    owner, pa = Player(a), Player(a)
    pb = as_browser(pa, b)
    try:
        assert owner.post("/api/account/signup", {"name": "Livia", "password": PASSWORD}).status_code == 201
        codes = [(pa if i % 2 else pb).post("/api/account/login", {"name": "LIVIA", "password": f"guess {i}"})
                 .status_code for i in range(4)]
        assert codes == [401, 401, 401, 401]  # two wrong passwords through each worker: four for the group
        for p in (pa, pb):  # either worker now refuses, the right password included, before checking it
            r = p.post("/api/account/login", {"name": "Livia", "password": PASSWORD})
            assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text
            assert int(r.headers["retry-after"]) >= 1
        assert pb.post("/api/account/login", {"name": "Nobody", "password": PASSWORD}).status_code == 401
        stored = rows(pg_url)
        assert {r.name for r in stored} >= {"login_name", "login_address", "signup_address"}
        for r in stored:  # neither the name nor the address is stored, only an HMAC of each
            values = [r.name, r.key, r.tokens, r.rate, r.burst, r.updated_at, r.full_at]
            assert not any("livia" in str(v).lower() or "127.0.0.1" in str(v) for v in values)
        secret = a.hub.registry.secret
        assert hmac.new(secret, b"throttle\x00login_address\x00127.0.0.1", hashlib.sha256).hexdigest() in {
            r.key for r in stored if r.name == "login_address"}
    finally:
        stop(servers, [owner, pa, pb])


def test_guesses_sent_at_once_to_both_workers_are_counted_before_any_passes(pg_url):
    servers = group(pg_url, login_failures_per_minute_account=0.5, login_failures_burst_account=3)
    owner = Player(servers[0])
    players = [Player(servers[i % 2]) for i in range(12)]
    try:
        assert owner.post("/api/account/signup", {"name": "Quintus", "password": PASSWORD}).status_code == 201

        def guess(i: int) -> int:
            return players[i].post("/api/account/login", {"name": "Quintus", "password": f"guess {i}"}).status_code

        with ThreadPoolExecutor(12) as pool:
            codes = list(pool.map(guess, range(12)))
        assert sorted(codes) == [401] * 3 + [429] * 9  # only the burst was checked, whatever the timing
    finally:
        stop(servers, [owner, *players])


def test_the_right_password_costs_nothing_and_the_bucket_refills_in_database_time(pg_url):
    servers = group(pg_url, login_failures_per_minute_account=60.0, login_failures_burst_account=2)
    a, b = servers
    pa, pb = Player(a), Player(b)
    try:
        assert pa.post("/api/account/signup", {"name": "Gaius", "password": PASSWORD}).status_code == 201
        for _ in range(4):  # right passwords do not use the budget up
            assert pb.post("/api/account/login", {"name": "Gaius", "password": PASSWORD}).status_code == 200
        assert [pb.post("/api/account/login", {"name": "Gaius", "password": "wrong one!"}).status_code
                for _ in range(3)] == [401, 401, 429]
        time.sleep(1.2)  # one a second comes back
        assert pa.post("/api/account/login", {"name": "Gaius", "password": PASSWORD}).status_code == 200
    finally:
        stop(servers, [pa, pb])


def test_signups_per_address_count_once_across_the_workers(pg_url):
    servers = group(pg_url, signups_per_minute_address=0.5, signups_burst_address=3)
    players = [Player(servers[i % 2]) for i in range(5)]
    try:
        codes = [p.post("/api/account/signup", {"name": f"member{i}", "password": PASSWORD}).status_code
                 for i, p in enumerate(players)]
        assert codes == [201, 201, 201, 429, 429]
    finally:
        stop(servers, players)


def test_table_creations_per_browser_and_per_address_count_once_across_the_workers(pg_url):
    servers = group(pg_url, create_per_minute_client=0.5, create_burst_client=3,
                    create_per_minute_address=0.5, create_burst_address=5)
    a, b = servers
    pa = Player(a)
    gm_table(pa, ["human", "bot"])  # the browser's cookie comes from here
    pb = as_browser(pa, b)
    others = [Player(b), Player(a)]
    try:
        made = [(pb if i % 2 else pa).post("/api/tables", {
            "game": "gorus-maximus", "options": {"players": 2}, "seats": [{"kind": "human"}, {"kind": "bot"}],
            "name": "Ann"}) for i in range(3)]
        assert [r.status_code for r in made] == [201, 201, 429]
        assert "you are creating tables too fast" in made[2].json()["error"]
        body = {"game": "gorus-maximus", "options": {"players": 2}, "seats": [{"kind": "human"}, {"kind": "bot"}],
                "name": "Bo"}
        assert [p.post("/api/tables", body).status_code for p in others] == [201, 201]  # five for the address
        r = others[0].post("/api/tables", body)
        assert r.status_code == 429 and "your network address is" in r.json()["error"]
    finally:
        stop(servers, [pa, pb, *others])


def test_full_buckets_are_pruned(pg_url):
    servers = group(pg_url, 1, signups_per_minute_address=600.0, signups_burst_address=1)
    (a,) = servers
    p = Player(a)
    try:
        assert p.post("/api/account/signup", {"name": "Pruned", "password": PASSWORD}).status_code == 201
        assert [r.name for r in rows(pg_url)] == ["signup_address"]
        time.sleep(0.3)  # the bucket is full again after 0.1 s
        engine = make_engine(pg_url)
        with engine.begin() as c:
            assert c.execute(text("SELECT count(*) FROM ludus_throttles WHERE full_at < now()")).scalar() == 1
        engine.dispose()
        a.hub.throttles.next_prune = 0.0
        q = Player(a)
        assert q.post("/api/account/login", {"name": "Pruned", "password": "wrong one!"}).status_code == 401
        q.close()
        assert sorted(r.name for r in rows(pg_url)) == ["login_address", "login_name"]
    finally:
        stop(servers, [p])
