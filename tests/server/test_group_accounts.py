"""An account changed through one worker of a group shows at once at the tables another worker
plays: the seats a sign-up or login carries over, a deleted account's seats, and the sockets of
sessions that ended (PostgreSQL NOTIFY, :mod:`ludus.server.notices`)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import pytest
from websockets.exceptions import ConnectionClosed

from ludus.server.accounts import DELETED_NAME
from ludus.server.config import ServerConfig

from .helpers import LiveServer, Player, gm_table, is_view, pg_schema

PG = os.environ.get("LUDUS_TEST_POSTGRES_URL")
pytestmark = pytest.mark.skipif(not PG, reason="set LUDUS_TEST_POSTGRES_URL to test PostgreSQL")
PASSWORD = "correct horse battery"


def as_browser(p: Player, server: LiveServer) -> Player:
    """The same browser (a copy of its cookies now) reaching another worker of the group."""
    q = Player(server)
    q.http.cookies = p.http.cookies
    return q


def soon(check: Callable[[], bool], timeout: float = 5.0) -> None:
    end = time.time() + timeout
    while not check():
        assert time.time() < end, "the other worker did not show the change"
        time.sleep(0.05)


def test_seats_carried_over_and_deleted_through_one_worker_change_at_the_tables_another_plays(pg_url):
    a, b = (LiveServer(ServerConfig(database=pg_url, bot_delay=0.0, lease_seconds=1.5)) for _ in range(2))
    p, q, joiner = Player(a), Player(a), Player(a)
    players = [p, q, joiner]
    try:
        playing = gm_table(p, ["human", "bot"])["code"]  # played by a, before there is an account
        waiting = gm_table(p, ["human", "human"])["code"]  # not begun yet
        assert a.call(lambda: playing in a.hub.tables and playing not in b.hub.tables)
        pb = as_browser(p, b)
        players.append(pb)
        r = pb.post("/api/account/signup", {"name": "Livia", "password": PASSWORD})  # through b
        assert r.status_code == 201, r.text
        laptop = Player(b)
        players.append(laptop)
        assert laptop.post("/api/account/login", {"name": "Livia", "password": PASSWORD}).status_code == 200
        soon(lambda: laptop.get(f"/api/tables/{playing}").json()["you"] == 0)  # a's seat holds the account now
        assert laptop.get(f"/api/tables/{waiting}").json()["you"] == 0
        ws = laptop.ws(playing)  # relayed by b to a, which seats the account
        view = ws.until(is_view)
        assert view["you"] == 0
        ws.close()

        later = gm_table(q, ["human", "bot"])["code"]  # another browser's table at a; it logs in through b
        qb = as_browser(q, b)
        players.append(qb)
        assert qb.post("/api/account/login", {"name": "Livia", "password": PASSWORD}).status_code == 200
        soon(lambda: laptop.get(f"/api/tables/{later}").json()["you"] == 0)

        direct = as_browser(laptop, a)  # the laptop's socket, straight to a
        players.append(direct)
        ws = direct.ws(playing)
        assert ws.until(is_view)["you"] == 0
        assert pb.post("/api/account/logout-everywhere").status_code == 200  # through b
        with pytest.raises(ConnectionClosed) as closed:  # a closes the ended sessions' sockets
            ws.until(lambda m: False, timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401

        assert pb.post("/api/account/login", {"name": "Livia", "password": PASSWORD}).status_code == 200
        assert pb.post("/api/account/delete", {"password": PASSWORD}).status_code == 200  # through b
        soon(lambda: joiner.get(f"/api/tables/{playing}").json()["names"][0] == DELETED_NAME)
        info = joiner.get(f"/api/tables/{playing}").json()
        assert info["seats"][0]["away"] == "left"  # a bot plays on for the deleted account at a
        soon(lambda: joiner.get(f"/api/tables/{waiting}").json()["names"][0] == "Seat 1 (open)")
        r = joiner.post(f"/api/tables/{waiting}/join", {"name": "Gaius", "seat": 0})  # the seat is free at a
        assert r.status_code == 200 and r.json()["you"] == 0, r.text
        assert a.call(lambda: a.hub.notices.heard) >= 4
    finally:
        for player in players:
            player.close()
        a.stop()
        b.stop()


def test_notices_stay_within_their_group(pg_url):
    """Two groups on one database server, in two schemas: each listens on its own channel."""
    assert PG
    with pg_schema(PG) as other_url:
        a = LiveServer(ServerConfig(database=pg_url, bot_delay=0.0, lease_seconds=1.5))
        b = LiveServer(ServerConfig(database=other_url, bot_delay=0.0, lease_seconds=1.5))
        try:
            assert a.hub.notices.channel and a.hub.notices.channel != b.hub.notices.channel
        finally:
            a.stop()
            b.stop()
