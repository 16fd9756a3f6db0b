"""Floods: spectators cannot lock out the players, table creation is rate limited, open tables expire."""

from __future__ import annotations

import dataclasses
import time

import pytest
from websockets.exceptions import WebSocketException

from ludus.server.config import ServerConfig
from ludus.server.store import Store

from .helpers import LiveServer, Player, gm_table, is_view


def open_spectator(p: Player, code: str):
    """A spectator connection, or None when the server refuses it."""
    try:
        ws = p.ws(code)
        msg = ws.recv(timeout=10)
    except WebSocketException:
        return None
    if msg["type"] == "error":
        assert msg["code"] == "busy", msg
        ws.close()
        return None
    return ws


def test_spectators_cannot_lock_the_players_out(player, other, server):
    code = gm_table(player, ["human", "human"])["code"]
    crowd = Player(server)  # one client address (loopback), no seat
    watchers = []
    for _ in range(72):
        ws = open_spectator(crowd, code)
        if ws is None:
            break
        watchers.append(ws)
    cfg = server.config
    assert len(watchers) == min(cfg.max_spectators_per_table, cfg.max_spectators_per_address)
    # the creator gets in, and so does the second player
    ws0 = player.ws(code)
    assert ws0.until(is_view)["you"] == 0
    other.post(f"/api/tables/{code}/join", {"name": "Bob"})
    ws1 = other.ws(code)
    view = ws1.until(lambda m: is_view(m) and m["table"]["status"] == "playing")
    assert view["you"] == 1 and view["table"]["seats"][1]["connected"]
    for ws in watchers + [ws0, ws1]:
        ws.close()
    crowd.close()


def test_spectators_are_capped_per_table_and_per_address(tmp_path):
    config = ServerConfig(database=f"sqlite:///{tmp_path / 's.db'}", bot_delay=0.0, max_spectators_per_table=5,
                          max_spectators_per_address=8)
    server = LiveServer(config)
    try:
        p = Player(server)
        a = gm_table(p, ["human", "human"])["code"]
        b = gm_table(p, ["human", "human"])["code"]
        first = [open_spectator(Player(server), a) for _ in range(6)]
        assert sum(ws is not None for ws in first) == 5  # the table's cap
        second = [open_spectator(Player(server), b) for _ in range(5)]
        assert sum(ws is not None for ws in second) == 3  # the address's cap: 5 + 3
        for ws in first + second:
            if ws is not None:
                ws.close()
        time.sleep(0.3)
        again = open_spectator(Player(server), b)  # closing frees the places
        assert again is not None
        again.close()
        seat = p.ws(a)
        assert seat.until(is_view)["you"] == 0
        seat.close()
        p.close()
    finally:
        server.stop()


def create_open(p: Player, **headers):
    return p.http.post("/api/tables", json={"game": "gorus-maximus", "options": {"players": 2},
                                            "seats": [{"kind": "human"}, {"kind": "human"}]}, headers=headers)


def test_a_table_creation_flood_is_rate_limited(player, other, server):
    cfg = server.config
    made = 0
    refused = None
    for _ in range(cfg.create_burst_client + 5):
        r = player.post("/api/tables", {"game": "gorus-maximus", "options": {"players": 2},
                                        "seats": [{"kind": "human"}, {"kind": "human"}], "name": "Ann"})
        if r.status_code == 201:
            made += 1
            continue
        refused = r
        break
    assert refused is not None and refused.status_code == 429, refused and refused.text
    assert refused.json()["code"] == "rate_limited" and "minute" in refused.json()["error"]
    assert refused.headers.get("retry-after")
    assert cfg.create_burst_client <= made <= cfg.create_burst_client + 1  # + what refills meanwhile
    # a flooder who drops its cookie is stopped by the address's bucket
    anon_made = 0
    for _ in range(cfg.create_burst_address + 5):
        anon = Player(server)
        r = create_open(anon)
        anon.close()
        if r.status_code != 201:
            assert r.status_code == 429 and r.json()["code"] == "rate_limited"
            break
        anon_made += 1
    assert cfg.create_burst_address <= made + anon_made <= cfg.create_burst_address + 2
    # the server stays usable: other requests work, and joining an existing table too
    assert other.get("/api/tables").status_code == 200
    code = player.get("/api/tables").json()[0]["code"]
    assert other.post(f"/api/tables/{code}/join", {"name": "Bob"}).status_code == 200
    assert len(player.get("/api/tables").json()) == made + anon_made


def test_another_address_is_not_limited_by_a_flooder(tmp_path):
    config = ServerConfig(database=f"sqlite:///{tmp_path / 'f.db'}", bot_delay=0.0, create_per_minute_address=1,
                          create_burst_address=2)
    server = LiveServer(config)
    try:
        p = Player(server)
        assert create_open(p).status_code == 201 and create_open(p).status_code == 201
        assert create_open(p).status_code == 429
        # the same server reached over another loopback address is another client address
        p2 = Player(server)
        p2.http = type(p.http)(base_url=server.url, timeout=20,
                               transport=__import__("httpx").HTTPTransport(local_address="127.0.0.2"))
        assert create_open(p2).status_code == 201
        p.close()
        p2.close()
    finally:
        server.stop()


def test_open_tables_nobody_joins_expire(tmp_path):
    config = ServerConfig(database=f"sqlite:///{tmp_path / 'e.db'}", bot_delay=0.0, open_table_ttl=1.0,
                          max_live_tables=3)
    server = LiveServer(config)
    try:
        p = Player(server)
        codes = [gm_table(p, ["human", "human"])["code"] for _ in range(3)]
        full = p.post("/api/tables", {"game": "gorus-maximus", "options": {"players": 2},
                                      "seats": [{"kind": "human"}, {"kind": "human"}], "name": "Ann"})
        assert full.status_code == 503
        ws = p.ws(codes[0])
        ws.until(is_view)
        deadline = time.time() + 15
        while time.time() < deadline and p.get("/api/tables").json():
            time.sleep(0.2)
        assert p.get("/api/tables").json() == []
        r = p.get(f"/api/tables/{codes[0]}")
        assert r.status_code == 410 and r.json()["code"] == "expired" and "expired" in r.json()["error"]
        assert p.post(f"/api/tables/{codes[1]}/join", {"name": "Bob"}).status_code == 410
        with pytest.raises(WebSocketException):  # the watcher is told and disconnected
            for _ in range(20):
                ws.recv(timeout=5)
        # expired tables no longer count toward the limit
        assert gm_table(p, ["human", "bot"])["status"] == "playing"
        p.close()
    finally:
        server.stop()
    store = Store(config.database)
    statuses = {code: store.load_table(code).status for code in codes}
    store.close()
    assert set(statuses.values()) == {"expired"}


def test_open_tables_past_their_time_expire_at_startup(tmp_path):
    config = ServerConfig(database=f"sqlite:///{tmp_path / 'r.db'}", bot_delay=0.0, open_table_ttl=3600)
    server = LiveServer(config)
    p = Player(server)
    old = gm_table(p, ["human", "human"])["code"]
    playing = gm_table(p, ["human", "bot"])["code"]
    server.stop()
    time.sleep(0.6)
    server = LiveServer(dataclasses.replace(config, open_table_ttl=0.5))
    try:
        p.http.base_url = server.url
        assert server.call(lambda: old not in server.hub.tables and playing in server.hub.tables)
        assert p.get(f"/api/tables/{old}").status_code == 410
        assert p.get(f"/api/tables/{playing}").json()["status"] == "playing"
        p.close()
    finally:
        server.stop()
