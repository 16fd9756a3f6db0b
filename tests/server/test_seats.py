"""Who plays a seat: the turn clock, leaving and disconnecting hand it to a bot, and back."""

from __future__ import annotations

import re
import subprocess
import sys
import time

import httpx
import pytest

from ludus.server.config import ServerConfig

from .helpers import LiveServer, Player, gm_table, is_view


def seat_view(ws, pred, timeout=20):
    return ws.until(lambda m: is_view(m) and pred(m), timeout)


def test_turn_clock_gives_the_seat_to_a_bot_and_back(player, other, server):
    code = gm_table(player, ["human", "human"], clock=1)["code"]
    other.post(f"/api/tables/{code}/join", {"name": "Bob"})
    ws0, ws1 = player.ws(code), other.ws(code)
    view = seat_view(ws0, lambda m: m["table"]["status"] == "playing")
    first = view["to_move"][0]
    late, watcher = (ws0, ws1) if first == 0 else (ws1, ws0)
    assert str(first) in view["clock"]
    # nobody moves: after a second the bot takes the seat, and the other player sees it
    seen = seat_view(watcher, lambda m: m["table"]["seats"][first]["away"] == "timeout")
    assert seen["table"]["seats"][first]["kind"] == "human"
    seat_view(watcher, lambda m: m["ply"] >= 1)  # and the bot has played for it
    late.send({"type": "resume", "id": "back"})
    late.until(lambda m: m["type"] == "ack" and m["id"] == "back")
    seat_view(watcher, lambda m: m["table"]["seats"][first]["away"] is None)
    ws0.close()
    ws1.close()


def test_leaving_mid_game_hands_the_seat_to_a_bot_until_the_player_returns(player, other, server):
    code = gm_table(player, ["human", "human"])["code"]
    other.post(f"/api/tables/{code}/join", {"name": "Bob"})
    ws1 = other.ws(code)
    seat_view(ws1, lambda m: m["table"]["status"] == "playing")
    r = player.post(f"/api/tables/{code}/leave")
    assert r.status_code == 200 and r.json()["seats"][0]["away"] == "left"
    seat_view(ws1, lambda m: m["table"]["seats"][0]["away"] == "left")
    # the bot plays seat 0 whenever it is its turn; Bob keeps playing his own
    for _ in range(30):
        view = seat_view(ws1, lambda m: m["legal"] or m["ply"] >= 6)
        if view["ply"] >= 6:
            break
        ws1.send({"type": "act", "action": view["legal"][0]["action"], "moves": view["moves"]})
    assert server.call(lambda: any(server.hub.tables[code].by_bot))
    ws0 = player.ws(code)  # coming back takes the seat back
    seat_view(ws0, lambda m: m["table"]["seats"][0]["away"] is None)
    ws0.close()
    ws1.close()


def test_a_player_gone_too_long_is_replaced_and_restored(tmp_path):
    config = ServerConfig(database=f"sqlite:///{tmp_path / 'g.db'}", bot_delay=0.0, disconnect_grace=0.5)
    server = LiveServer(config)
    try:
        a, b = Player(server), Player(server)
        code = gm_table(a, ["human", "human"])["code"]
        b.post(f"/api/tables/{code}/join", {"name": "Bob"})
        ws0, ws1 = a.ws(code), b.ws(code)
        seat_view(ws1, lambda m: m["table"]["status"] == "playing")
        ws0.close()
        seat_view(ws1, lambda m: m["table"]["seats"][0]["away"] == "disconnected", timeout=10)
        ws0 = a.ws(code)
        view = seat_view(ws0, lambda m: m["table"]["seats"][0]["away"] is None)
        assert view["you"] == 0
        ws0.close()
        ws1.close()
        a.close()
        b.close()
    finally:
        server.stop()


def test_bots_can_run_in_a_worker_process(tmp_path):
    config = ServerConfig(database=f"sqlite:///{tmp_path / 'p.db'}", bot_delay=0.0, bot_processes=True)
    server = LiveServer(config)
    try:
        p = Player(server)
        code = gm_table(p, ["bot", "bot"], name=None)["code"]
        watcher = p.ws(code)
        seat_view(watcher, lambda m: m["ply"] >= 3, timeout=60)
        watcher.close()
        p.close()
    finally:
        server.stop()


def test_serve_command_prints_the_address_and_serves_the_pages(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "ludus.cli.main", "serve", "--port", "0", "--database",
                             str(tmp_path / "s.db")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m, line
        for _ in range(100):
            try:
                r = httpx.get(m.group(0), timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        assert r.status_code == 200 and "Ludus" in r.text
        assert "script-src 'self'" in r.headers["content-security-policy"]
        assert httpx.get(m.group(0) + "games/gorus-maximus/page.js").status_code == 200
        assert httpx.get(m.group(0) + "static/../server/db.py").status_code == 404
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_serve_refuses_an_unusable_database(tmp_path):
    out = subprocess.run([sys.executable, "-m", "ludus.cli.main", "serve", "--port", "0", "--database",
                          "mysql://nobody@localhost/x"], capture_output=True, text=True, timeout=60)
    assert out.returncode != 0
    assert "unsupported database" in out.stdout + out.stderr


@pytest.mark.parametrize("url, expect", [("game.db", "sqlite:///"), ("postgresql://u:p@h/db", "postgresql+psycopg://")])
def test_database_urls(url, expect):
    from ludus.server.db import normalize_url

    assert normalize_url(url).startswith(expect)


def test_stopping_mid_game_stops_the_bots_cleanly(tmp_path, caplog):
    import logging

    from ludus.server.store import Store

    caplog.set_level(logging.WARNING, logger="ludus")
    config = ServerConfig(database=f"sqlite:///{tmp_path / 'stop.db'}", bot_delay=0.0)
    server = LiveServer(config)
    p = Player(server)
    code = gm_table(p, ["bot", "bot", "bot", "bot"], name=None, options={"target": 20})["code"]  # a long game
    watcher = p.ws(code)
    seat_view(watcher, lambda m: m["ply"] >= 20)
    watcher.close()
    server.stop()
    p.close()
    store = Store(config.database)
    stored = store.action_count(code)
    time.sleep(0.3)
    assert store.action_count(code) == stored  # nothing is written once the server has stopped
    store.close()
    assert not [r for r in caplog.records if r.name.startswith("ludus") and r.levelno >= logging.WARNING]
    resumed = LiveServer(config)  # and the table carries on from exactly there
    # (read through the API: on a loaded machine the bots may have finished the game before the
    # stop, and a finished table is read back on demand rather than resumed at startup)
    q = Player(resumed)
    assert q.get(f"/api/tables/{code}").json()["plies"] >= stored
    q.close()
    resumed.stop()
