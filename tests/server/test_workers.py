"""Several workers on one PostgreSQL database: each table played by one of them, the others
forward to it, and a worker that dies has its tables played on by another within seconds."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import select

from ludus.core import records
from ludus.games import get_game
from ludus.server.config import ServerConfig
from ludus.server.db import ActionRow, LeaseRow, make_engine

from .helpers import LiveServer, Player, WsClient, gm_table, is_view, play_until_done, remote, serve_process

PG = os.environ.get("LUDUS_TEST_POSTGRES_URL")
pytestmark = pytest.mark.skipif(not PG, reason="set LUDUS_TEST_POSTGRES_URL to test PostgreSQL")


def config(url: str) -> ServerConfig:
    return ServerConfig(database=url, bot_delay=0.0, disconnect_grace=30.0, min_clock=1, lease_seconds=1.5)


def same_browser(p: Player, server) -> Player:
    q = Player(server)
    q.http.cookies = p.http.cookies
    return q


def reconnect(p: Player, code: str, timeout: float = 15) -> WsClient:
    """Connect until a worker plays the table (one that just died answers nothing for a moment)."""
    end = time.time() + timeout
    while True:
        try:
            ws = p.ws(code)
            ws.until(is_view, timeout=5)
            return ws
        except Exception:
            if time.time() > end:
                raise
            time.sleep(0.3)


def lease_holder(url: str, code: str) -> str | None:
    engine = make_engine(url)
    try:
        with engine.connect() as c:
            return c.execute(select(LeaseRow.address).where(LeaseRow.resource == code)).scalar()
    finally:
        engine.dispose()


def test_a_table_is_played_through_either_worker_and_survives_its_worker_stopping(pg_url):
    a, b = LiveServer(config(pg_url)), LiveServer(config(pg_url))
    p = Player(a)
    try:
        code = gm_table(p, ["human", "bot"])["code"]
        assert lease_holder(pg_url, code) == a.url
        via_b = same_browser(p, b)
        assert via_b.get(f"/api/tables/{code}").json()["you"] == 0  # forwarded to a, with the cookies
        assert code in [t["code"] for t in via_b.get("/api/tables").json()]  # b's lobby lists a's table
        with pytest.raises(Exception, match="403"):  # another site's page, through b, is refused as at a
            via_b.ws(code, Origin="http://games.example").until(is_view)
        ws = via_b.ws(code, Origin=b.url)  # a browser on b's page: its Origin names b, not a
        view = ws.until(lambda m: is_view(m) and m["legal"])
        ws.send({"type": "act", "action": view["legal"][0]["action"], "moves": view["moves"], "id": 1})
        ply = ws.until(lambda m: m["type"] == "ack")["ply"]
        assert a.call(lambda: len(a.hub.tables[code].recorded)) > ply  # a played it
        assert code not in b.hub.tables

        a.stop()  # a clean stop gives its leases back: b plays the table at once
        ws2 = reconnect(via_b, code)
        final = play_until_done(ws2, timeout=120)
        ws2.close()
        assert final["terminal"] and lease_holder(pg_url, code) is None  # a finished table needs no lease
        record = records.parse_record(via_b.get(f"/api/tables/{code}/record").json())
        state = records.replay(record, get_game)
        assert state.is_terminal() and final["result"]["winners"] == state.winners()
    finally:
        p.close()
        b.stop()


def test_forwarded_answers_keep_each_clients_cookies_apart(pg_url):
    """The relay's HTTP client is shared by every client: a cookie set in one client's answer must
    reach that client only, never ride along with the next cookieless request."""
    a, b = LiveServer(config(pg_url)), LiveServer(config(pg_url))
    players = [Player(a)] + [Player(b) for _ in range(3)]
    try:
        code = players[0].post("/api/tables", {"game": "gorus-maximus", "options": {"players": 4}, "name": "Ann",
                                               "seats": [{"kind": "human"}] * 4}).json()["code"]
        assert lease_holder(pg_url, code) == a.url
        for i, p in enumerate(players[1:], start=1):
            r = p.post(f"/api/tables/{code}/join", {"name": f"P{i}"})  # through b, to a
            assert r.status_code == 200, r.text
            assert "ludus_player" in r.cookies, "a forwarded join must hand the new player a token of their own"
        tokens = {p.http.cookies["ludus_player"] for p in players}
        assert len(tokens) == 4
        assert sorted(p.get(f"/api/tables/{code}").json()["you"] for p in players) == [0, 1, 2, 3]
    finally:
        for p in players:
            p.close()
        a.stop()
        b.stop()


def _samples(text: str, name: str) -> dict[tuple[tuple[str, str], ...], float]:
    from prometheus_client.parser import text_string_to_metric_families

    return {tuple(sorted(s.labels.items())): s.value for f in text_string_to_metric_families(text)
            for s in f.samples if s.name == name}


def test_metrics_of_any_worker_show_the_whole_group(pg_url):
    """One scrape, whichever worker answers it: every live worker's figures, each labelled with its
    worker, and ``ludus_group_worker_up`` saying who answered; ``?scope=worker`` is one worker's own.
    A worker that stopped leaves the group's metrics."""
    a, b = LiveServer(config(pg_url)), LiveServer(config(pg_url))
    p = Player(a)
    try:
        code = gm_table(p, ["human", "bot"])["code"]
        ws = p.ws(code)
        view = ws.until(lambda m: is_view(m) and m["legal"])
        ws.send({"type": "act", "action": view["legal"][0]["action"], "moves": view["moves"], "id": 1})
        ws.until(lambda m: m["type"] == "ack")
        ws.close()
        ids = {a.hub.leases.worker: "a", b.hub.leases.worker: "b"}
        for server in (a, b):
            text = Player(server).get("/metrics").text
            up = _samples(text, "ludus_group_worker_up")
            assert up == {(("worker", w),): 1.0 for w in ids}, up
            moves = _samples(text, "ludus_moves_total")
            assert moves[(("game", "gorus-maximus"), ("worker", a.hub.leases.worker))] >= 1  # a played the move
            assert not any(dict(k)["worker"] == b.hub.leases.worker for k in moves)  # b played none
            assert {dict(k)["worker"] for k in _samples(text, "process_resident_memory_bytes")} == set(ids)
        own = Player(b).get("/metrics?scope=worker").text
        assert "ludus_group_worker_up" not in own and 'worker="' not in own
        a.stop()
        b_only = _samples(Player(b).get("/metrics").text, "ludus_group_worker_up")
        assert b_only == {(("worker", b.hub.leases.worker),): 1.0}, b_only  # a's clean stop gave its lease back
    finally:
        p.close()
        b.stop()


def test_renewing_leases_does_not_wait_for_a_moves_transaction(pg_url):
    """A move's transaction holds its table's lease row (the fence) until it commits; the renewal
    must neither wait for it (two such waits in opposite orders deadlocked, stalling the writer
    for PostgreSQL's deadlock_timeout) nor count that table as lost."""
    import threading

    from sqlalchemy import text

    a = LiveServer(config(pg_url))
    p = Player(a)
    engine = make_engine(pg_url)
    try:
        code = gm_table(p, ["human", "bot"])["code"]
        with engine.connect() as c, c.begin():
            c.execute(text("SELECT 1 FROM ludus_leases WHERE resource = :r FOR UPDATE"), {"r": code})
            renewed: list[set[str]] = []
            worker = threading.Thread(target=lambda: renewed.append(a.hub.leases._renew()), daemon=True)
            worker.start()
            worker.join(timeout=5)
            assert renewed, "renewing waited for the locked lease row"
            assert code in renewed[0]
    finally:
        engine.dispose()
        p.close()
        a.stop()


def test_a_busy_database_thread_does_not_let_the_leases_lapse(pg_url):
    """Renewal has a thread of its own: a worker whose database thread is held up by a burst of
    reads for longer than a lease keeps its tables (the other worker does not take them)."""
    a, b = LiveServer(config(pg_url)), LiveServer(config(pg_url))
    p = Player(a)
    try:
        code = gm_table(p, ["human", "bot"])["code"]
        ttl = a.hub.config.lease_seconds
        busy = a.hub.db_thread.submit(time.sleep, 3 * ttl)
        time.sleep(2.5 * ttl)
        assert lease_holder(pg_url, code) == a.url
        busy.result(timeout=10)
        assert code in a.hub.leases.held and code not in b.hub.tables
    finally:
        p.close()
        a.stop()
        b.stop()


def test_quick_play_reaches_one_pool_from_any_worker(pg_url):
    a, b = LiveServer(config(pg_url)), LiveServer(config(pg_url))
    pa, pb = Player(a), Player(b)
    try:
        for p, name in ((pa, "Ann"), (pb, "Bo")):
            r = p.post("/api/quick", {"game": "gorus-maximus", "players": 2, "name": name})
            assert r.status_code == 200, r.text
        end = time.time() + 10
        while time.time() < end:
            status = [p.get("/api/quick").json() for p in (pa, pb)]
            if all(s["status"] == "matched" for s in status):
                break
            time.sleep(0.1)
        assert status[0]["status"] == status[1]["status"] == "matched" and status[0]["table"] == status[1]["table"]
    finally:
        pa.close()
        pb.close()
        a.stop()
        b.stop()


def test_a_killed_worker_loses_no_acknowledged_move_and_another_plays_on(pg_url, tmp_path):
    """Two real server processes; the one playing the table is killed with SIGKILL mid-game."""
    output: list[str] = []
    first, url_a = serve_process(pg_url, output, command=[sys.executable, "-m", "ludus.cli.main"])
    second, url_b = serve_process(pg_url, output, command=[sys.executable, "-m", "ludus.cli.main"])
    p = Player(remote(url_a))
    try:
        code = gm_table(p, ["human", "bot", "bot"])["code"]
        ws = p.ws(code)
        acked = []
        for _ in range(4):
            view = ws.until(lambda m: is_view(m) and m["legal"])
            ws.send({"type": "act", "action": view["legal"][0]["action"], "moves": view["moves"]})
            acked.append(ws.until(lambda m: m["type"] == "ack")["ply"])
        first.send_signal(signal.SIGKILL)
        first.wait()
        ws.close()
        killed = time.time()
        via_b = same_browser(p, remote(url_b))
        ws = reconnect(via_b, code, timeout=20)
        took = time.time() - killed
        print(f"table played on after {took:.1f} s")
        assert took < 8, f"took {took:.1f} s"
        final = play_until_done(ws, timeout=120)
        ws.close()
        engine = make_engine(pg_url)
        with engine.connect() as c:
            plies = [r.ply for r in c.execute(select(ActionRow.ply).where(ActionRow.table_code == code)
                                              .order_by(ActionRow.ply))]
        engine.dispose()
        assert plies == list(range(len(plies)))  # nothing lost, nothing twice
        record = records.parse_record(via_b.get(f"/api/tables/{code}/record").json())
        mine = [i for i, (seat, _) in enumerate(record.actions) if seat == 0]
        assert set(acked) <= set(mine) and final["terminal"]
    finally:
        p.close()
        for proc in (first, second):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                proc.wait(timeout=20)


def _workers_of(pid: int) -> list[int]:
    """The worker processes ``ludus serve --workers`` started (spawned interpreters, not its helpers)."""
    out = []
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        try:
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmdline:
            out.append(int(child))
    return out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_serve_workers_share_a_port_and_a_killed_worker_is_replaced(pg_url):
    output: list[str] = []
    proc, url = serve_process(pg_url, output, extra=("--workers", "2"))
    p = Player(remote(url))
    try:
        end = time.time() + 30
        while len(_workers_of(proc.pid)) < 2 and time.time() < end:
            time.sleep(0.2)
        code = gm_table(p, ["human", "bot", "bot"])["code"]
        ws = reconnect(p, code)
        for victim in list(_workers_of(proc.pid)):  # each worker killed once: the table's among them
            view = ws.view
            if not (view and (view["legal"] or view["terminal"])):
                view = ws.until(lambda m: is_view(m) and (m["legal"] or m["terminal"]), timeout=20)
            if view["terminal"]:
                break
            ws.send({"type": "act", "action": view["legal"][0]["action"], "moves": view["moves"]})
            ws.until(lambda m: m["type"] == "ack")
            os.kill(victim, signal.SIGKILL)
            end = time.time() + 30
            while (victim in _workers_of(proc.pid) or len(_workers_of(proc.pid)) < 2) and time.time() < end:
                time.sleep(0.2)
            assert len(_workers_of(proc.pid)) == 2, "the dead worker was not replaced"
            ws.close()
            ws = reconnect(p, code, timeout=20)
        final = play_until_done(ws, timeout=120)
        ws.close()
        assert final["terminal"]
        engine = make_engine(pg_url)
        with engine.connect() as c:
            plies = [r.ply for r in c.execute(select(ActionRow.ply).where(ActionRow.table_code == code)
                                              .order_by(ActionRow.ply))]
        engine.dispose()
        assert plies == list(range(len(plies)))
    finally:
        p.close()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


def test_a_dropped_tables_bot_stores_nothing_and_starts_no_other(tmp_path):
    """A bot that had chosen its move when the table's lease went (it waits for the table's lock,
    no longer among the table's bot tasks, so dropping cannot cancel it) must neither store its
    move nor start another bot: that loop wrote the same ply again and again, failing the
    writer's whole group each time."""
    import asyncio

    server = LiveServer(ServerConfig(database=str(tmp_path / "t.db"), bot_delay=0.2))
    p = Player(server)
    try:
        code = gm_table(p, ["bot", "human"])["code"]  # seat 0 moves first: the bot
        table = server.call(lambda: server.hub.tables[code])
        locked, release = asyncio.Event(), asyncio.Event()

        async def hold() -> None:
            async with table.lock:
                locked.set()
                await release.wait()

        loop = server.hub.loop
        holder = asyncio.run_coroutine_threadsafe(hold(), loop)
        end = time.time() + 10
        while not server.call(lambda: locked.is_set() and not table.bot_tasks and not table.recorded):
            assert time.time() < end, "the bot never got to wait for the lock"
            time.sleep(0.05)
        time.sleep(0.5)  # the bot has chosen and waits for the lock
        asyncio.run_coroutine_threadsafe(server.hub.drop(code), loop).result(timeout=10)
        loop.call_soon_threadsafe(release.set)
        holder.result(timeout=10)
        time.sleep(1.0)  # several bot delays
        assert server.call(lambda: (len(table.recorded), dict(table.bot_tasks))) == (0, {})
    finally:
        p.close()
        server.stop()
