"""Malformed WebSocket messages, odd ids, failures inside the handlers, HTTP error shapes, Ctrl+C."""

from __future__ import annotations

import logging
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from .helpers import gm_table, is_view


@pytest.fixture
def duel(player, other):
    code = gm_table(player, ["human", "human"], options={"schools": "BF,GA,PA"})["code"]
    other.post(f"/api/tables/{code}/join", {"name": "Bob"})
    ws0, ws1 = player.ws(code), other.ws(code)
    for ws in (ws0, ws1):
        ws.until(lambda m: is_view(m) and m["table"]["status"] == "playing")
    yield code, ws0, ws1
    ws0.close()
    ws1.close()


def still_answers(ws, mid="alive"):
    ws.send({"type": "ping", "id": mid})
    return ws.until(lambda m: m["type"] == "pong" and m["id"] == mid, timeout=10)


def snapshot(server, code):
    def read():
        t = server.hub.tables[code]
        return (len(t.recorded), t.status, list(t.moves), [(s.name, s.token_hash, s.away) for s in t.seats])
    return server.call(read)


DEEP = "[" * 990 + "]" * 990
DEEP_OBJ = '{"a":' * 600 + "1" + "}" * 600

MALFORMED = [
    '{"type": []}',
    '{"type": {}}',
    '{"type": [[1], {"a": 2}]}',
    DEEP,
    DEEP_OBJ,
    '{"type": "ping", "id": ' + "[" * 900 + "]" * 900 + "}",
    '{"type": "act", "moves": 0, "action": ' + "[" * 900 + "]" * 900 + "}",
    '{"type": "ping", "id": "\\ud800"}',
    '{"type": "ping", "id": "\\udfff\\ud800x"}',
    '{"type": "act", "moves": 0, "action": {"play": "\\ud800"}}',
    '{"type": "act", "moves": 0, "action": {"\\udc00": 1}}',
    '{"type": "ping", "id": true}',
    '{"type": "ping", "id": 1.5}',
    '{"type": "ping", "id": NaN}',
    '{"type": "act", "moves": Infinity, "action": 1}',
    '{"type": "act", "moves": 0, "action": NaN}',
    '{"type": "ping", "id": ' + "9" * 3000 + "}",
    '{"type": "ping", "\\ud800": 1}',
]


@pytest.mark.parametrize("raw", MALFORMED, ids=range(len(MALFORMED)))
def test_malformed_messages_get_bad_message_and_the_connection_lives(duel, server, raw, caplog):
    code, ws0, ws1 = duel
    me = ws0 if ws0.view["to_move"] == [0] else ws1
    # use the mover's real move count so a message is not refused as stale before its content is checked
    raw = raw.replace('"moves": 0', f'"moves": {me.view["moves"]}')
    caplog.set_level(logging.WARNING, logger="ludus")
    before = snapshot(server, code)
    me.send(raw)
    err = me.until(lambda m: m["type"] == "error")
    assert err["code"] == "bad_message", err
    assert err["id"] is None
    still_answers(me)
    assert snapshot(server, code) == before
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_failure_while_handling_a_message_is_answered_and_logged_once(duel, server, caplog):
    _code, ws0, _ws1 = duel
    caplog.set_level(logging.ERROR, logger="ludus")

    async def broken(*args, **kwargs):
        raise RuntimeError("boom")

    server.hub.hand_back = broken
    ws0.send({"type": "resume", "id": "r"})
    err = ws0.until(lambda m: m["type"] == "error")
    assert err["code"] == "server_error" and err["id"] == "r" and "boom" not in err["message"]
    still_answers(ws0)
    assert len([r for r in caplog.records if "boom" in (r.exc_text or "") or "RuntimeError" in (r.exc_text or "")]) == 1


def test_a_failing_sender_is_logged_and_closes_the_socket(duel, server, caplog):
    code, ws0, _ws1 = duel
    caplog.set_level(logging.ERROR, logger="ludus")
    real = server.hub.view_text  # what the sender sends: the view as JSON text

    def broken(table, conn):
        if conn.seat == 0:
            raise RuntimeError("view broke")
        return real(table, conn)

    server.hub.view_text = broken
    server.call(lambda: server.hub._changed(server.hub.tables[code]))
    with pytest.raises(ConnectionClosed):
        for _ in range(50):
            ws0.recv(timeout=5)
    server.hub.view_text = real
    assert any(r.exc_info and "view broke" in str(r.exc_info[1]) for r in caplog.records)


def test_ids_are_checked_and_every_good_id_is_echoed(duel):
    _code, ws0, _ws1 = duel
    for mid in ["", "x" * 64, 0, -5, 10**20, "ünïcödé ✓"]:
        ws0.send({"type": "ping", "id": mid})
        assert ws0.until(lambda m: m["type"] in ("pong", "error"))["id"] == mid
    for mid in ["x" * 65, True, 1.5, [1], {"a": 1}, 10**70]:
        ws0.send({"type": "ping", "id": mid})
        err = ws0.until(lambda m: m["type"] in ("pong", "error"))
        assert err["type"] == "error" and err["code"] == "bad_message" and err["id"] is None


def test_a_surrogate_id_does_not_mute_the_connection(duel, server):
    _code, ws0, ws1 = duel
    ws0.send('{"type":"ping","id":"\\ud800"}')
    assert ws0.until(lambda m: m["type"] in ("pong", "error"))["code"] == "bad_message"
    me = ws0 if ws0.view["to_move"] == [0] else ws1
    view = me.view
    me.send({"type": "act", "action": view["legal"][0]["action"], "moves": view["moves"], "id": "m"})
    assert me.until(lambda m: m["type"] == "ack")["id"] == "m"
    me.until(lambda m: is_view(m) and m["ply"] == 1)


# ------------------------------------------------------------------ HTTP error shapes
@pytest.mark.parametrize("method, path, status", [
    ("GET", "/api/nothing", 404), ("GET", "/api/tables/ABCDEF/nothing", 404), ("DELETE", "/api/tables", 405),
    ("PUT", "/api/games", 405), ("GET", "/api/tables/ABCDEF/join", 405), ("PATCH", "/api/tables/ABCDEF", 405),
    ("GET", "/nothing/here", 404),
])
def test_unknown_paths_and_methods_answer_the_documented_shape(player, method, path, status):
    r = player.http.request(method, path)
    assert r.status_code == status
    body = r.json()
    assert set(body) == {"error", "code"} and body["code"] in ("not_found", "method_not_allowed"), body


@pytest.mark.parametrize("content", [b"{not json", b"\xff\xfe{}", b'{"game": "\xc3"}', b"", b"null", b"[]", b"1e999999",
                                     b'{"game": ' + b"[" * 2000 + b"]" * 2000 + b"}"])
def test_bodies_that_do_not_parse_answer_the_documented_shape(player, content):
    for path in ("/api/tables", "/api/games/gorus-maximus/options"):
        r = player.http.post(path, content=content, headers={"content-type": "application/json"})
        assert 400 <= r.status_code < 500, (path, content, r.status_code, r.text)
        assert set(r.json()) == {"error", "code"}, r.text
    assert player.get("/api/tables").json() == []


def test_a_chunked_body_over_the_limit_is_refused_as_too_large(player):
    def chunks():
        for _ in range(40):
            yield b" " * 1000

    r = player.http.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["code"] == "too_large"


def test_a_bug_answers_the_documented_shape_without_a_traceback(player, server):
    def broken():
        raise RuntimeError("lobby broke")

    server.hub.lobby = broken
    r = player.get("/api/tables")
    assert r.status_code == 500 and r.json() == {"error": "the server failed to handle this request",
                                                 "code": "server_error"}
    assert "Traceback" not in r.text and "lobby broke" not in r.text


# ------------------------------------------------------------------ Ctrl+C
def test_serve_takes_allowed_hosts_and_ctrl_c_stops_it_without_a_traceback(tmp_path):
    ludus = Path(sys.executable).with_name("ludus")
    cmd = [str(ludus)] if ludus.exists() else [sys.executable, "-m", "ludus.cli.main"]
    proc = subprocess.Popen(cmd + ["serve", "--port", "0", "--database", str(tmp_path / "c.db"),
                                   "--allowed-host", "games.example"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m and "serving at" in line, line
        for _ in range(100):
            try:
                httpx.get(m.group(0) + "api/games", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        # --allowed-host adds a name to the IP addresses and localhost
        assert httpx.get(m.group(0) + "api/games", headers={"host": "games.example"}).status_code == 200
        assert httpx.get(m.group(0) + "api/games", headers={"host": "other.example"}).status_code == 421
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert proc.returncode == 0, (proc.returncode, err)
    assert "stopped" in (line + out).lower()
