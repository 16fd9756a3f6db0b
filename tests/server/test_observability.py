"""Seeing the server run: /healthz, /readyz, Prometheus metrics at /metrics, and JSON-lines logs."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import re
import signal
import subprocess
import sys
import time
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine

from ludus.server.app import create_app
from ludus.server.hub import hash_token
from ludus.server.observability import JsonLinesFormatter, Metrics, configure_logging

from .helpers import gm_table, is_view, play_until_done

GAME = "gorus-maximus"
NAME = "Quintilla"  # a player name to look for in the metrics (it must not be there)


def scrape(player) -> tuple[str, dict[tuple[str, frozenset], float]]:
    """The /metrics text, and every sample by (name, labels)."""
    r = player.get("/metrics")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    samples: dict[tuple[str, frozenset], float] = {}
    for family in text_string_to_metric_families(r.text):
        for s in family.samples:
            samples[(s.name, frozenset(s.labels.items()))] = s.value
    return r.text, samples


def value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


# ------------------------------------------------------------------ health
def test_healthz_and_readyz_answer_when_the_server_runs(player):
    r = player.get("/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok"}
    r = player.get("/readyz")
    assert r.status_code == 200 and r.json() == {"status": "ready"}


def test_readyz_is_503_while_the_database_does_not_answer(server, player, tmp_path):
    store = server.hub.store
    good = store.engine
    unreachable = create_engine(f"sqlite:///{tmp_path / 'no such folder' / 'x.db'}")  # cannot be opened
    store.engine = unreachable  # the reads (and the readiness check) use this engine; the writer keeps its own
    try:
        r = player.get("/readyz")
        assert r.status_code == 503
        body = r.json()
        assert body["status"] == "unavailable" and body["reason"] == "database" and body["code"] == "not_ready"
        assert "OperationalError" in body["error"]
        assert str(tmp_path) not in r.text  # the details go to the log, not to whoever asks
        assert player.get("/healthz").status_code == 200  # alive all the same
    finally:
        store.engine = good
        unreachable.dispose()
    assert player.get("/readyz").status_code == 200


def test_readyz_is_503_when_the_database_is_too_slow(server, player, monkeypatch):
    import ludus.server.app as app_module

    store = server.hub.store
    monkeypatch.setattr(app_module, "READY_TIMEOUT", 0.2)
    monkeypatch.setattr(store, "ping", lambda: time.sleep(1.0))  # a database that takes a second to answer
    r = player.get("/readyz")
    assert r.status_code == 503
    assert r.json()["reason"] == "database" and "within 0.2 s" in r.json()["error"]
    monkeypatch.undo()
    time.sleep(1.0)  # let the slow answer finish on the database thread
    assert player.get("/readyz").status_code == 200


def test_readyz_is_503_before_startup_and_while_stopping(config, server, player):
    app = create_app(config)  # never started: httpx's ASGI transport runs no lifespan

    async def ask() -> tuple[httpx.Response, httpx.Response]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1") as c:
            return await c.get("/readyz"), await c.get("/healthz")

    ready, alive = asyncio.run(ask())
    assert ready.status_code == 503 and ready.json()["reason"] == "starting"
    assert alive.status_code == 200 and alive.json() == {"status": "ok"}
    app.state.hub.bots.close()

    hub = server.hub
    server.call(lambda: setattr(hub, "stopping", True))
    try:
        r = player.get("/readyz")
        assert r.status_code == 503 and r.json()["reason"] == "stopping"
    finally:
        server.call(lambda: setattr(hub, "stopping", False))


# ------------------------------------------------------------------ metrics
def test_each_app_has_its_own_registry():
    a, b = Metrics(process=False), Metrics(process=False)
    a.move_accepted(GAME)
    assert a.registry is not b.registry
    assert a.registry.get_sample_value("ludus_moves_total", {"game": GAME}) == 1
    assert b.registry.get_sample_value("ludus_moves_total", {"game": GAME}) is None


def test_metrics_count_moves_refusals_latency_bots_and_commits(server, player):
    table = gm_table(player, ["human", "bot"], name=NAME, options={"schools": "BF,GA,PA"})
    code = table["code"]
    token = player.http.cookies.get("ludus_player")
    assert token
    ws = player.ws(code)
    ws.until(lambda m: is_view(m) and m["legal"])
    _, during = scrape(player)
    assert value(during, "ludus_ws_connections") == 1
    assert value(during, "ludus_tables", state="playing") == 1

    view = ws.view
    hand = view["observation"]["hand"]
    missing = next(c for c in ("BF4", "GA4", "PA4", "BF5", "GA5", "PA5", "BF6", "GA6") if c not in hand)
    ws.send({"type": "act", "action": {"play": missing}, "moves": view["moves"], "id": "bad"})
    err = ws.error()
    assert err["code"] == "illegal"
    seen_cards = set(hand)
    final = play_until_done(ws, timeout=120)
    seen_cards |= set(final["observation"].get("hand", []))

    plies = player.get(f"/api/tables/{code}").json()["plies"]
    by_bot = server.call(lambda: sum(server.hub.tables[code].by_bot))
    assert plies > 2 and 0 < by_bot < plies
    text, s = scrape(player)

    assert value(s, "ludus_moves_total", game=GAME) == plies
    assert value(s, "ludus_move_seconds_count", game=GAME) == plies
    assert value(s, "ludus_move_seconds_sum", game=GAME) > 0
    assert value(s, "ludus_move_seconds_bucket", game=GAME, le="+Inf") == plies
    assert value(s, "ludus_moves_refused_total", game=GAME, code="illegal") == 1
    assert value(s, "ludus_errors_total", code="illegal", via="ws") == 1
    assert value(s, "ludus_tables", state="finished") == 1
    assert value(s, "ludus_tables", state="playing") == 0
    assert value(s, "ludus_bot_search_seconds_count", kind="heuristic") == by_bot
    assert value(s, "ludus_bot_queue", pool="thread") == 0
    commits = value(s, "ludus_db_commit_seconds_count")
    assert commits >= 1 and value(s, "ludus_db_commit_writes_count") == commits
    assert value(s, "ludus_db_commit_writes_sum") >= plies + 1  # the table, then each move
    assert value(s, "ludus_db_commit_failures_total") == 0

    # counts, times, codes and game names only: no token, table code, name or card
    for secret in (token, hash_token(token), code, NAME, *seen_cards):
        assert secret not in text, secret
    assert "ludus_player" not in text

    ws.close()
    for _ in range(100):
        _, s = scrape(player)
        if value(s, "ludus_ws_connections") == 0:
            break
        time.sleep(0.05)
    assert value(s, "ludus_ws_connections") == 0


def test_tables_gauge_follows_a_created_table(player, other):
    _, s = scrape(player)
    assert value(s, "ludus_tables", state="open") == 0
    code = gm_table(player, ["human", "human"], name=NAME)["code"]
    _, s = scrape(player)
    assert value(s, "ludus_tables", state="open") == 1 and value(s, "ludus_tables", state="playing") == 0
    assert other.post(f"/api/tables/{code}/join", {"name": "Bob"}).status_code == 200
    _, s = scrape(player)
    assert value(s, "ludus_tables", state="open") == 0 and value(s, "ludus_tables", state="playing") == 1


def test_http_refusals_are_counted_by_code(player):
    assert player.get("/api/tables/ZZZZZZ").status_code == 404
    assert player.get("/no/such/page").status_code == 404
    r = player.http.get("/healthz", headers={"host": "elsewhere.example"})
    assert r.status_code == 421
    _, s = scrape(player)
    assert value(s, "ludus_errors_total", code="no_table", via="http") == 1
    assert value(s, "ludus_errors_total", code="not_found", via="http") == 1
    assert value(s, "ludus_errors_total", code="bad_host", via="http") == 1


# ------------------------------------------------------------------ logs
@pytest.fixture
def root_logging():
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for h in list(root.handlers):
        root.removeHandler(h)
    for h in handlers:
        root.addHandler(h)
    root.setLevel(level)


def test_json_formatter_writes_one_object_per_line():
    buf = io.StringIO()
    handler = logging.StreamHandler(buf)
    handler.setFormatter(JsonLinesFormatter())
    log = logging.getLogger("ludus.test.json")
    log.addHandler(handler)
    log.propagate = False
    log.setLevel(logging.INFO)
    try:
        log.info("table %s created\nsecond line", "ABCDEF", extra={"seats": 2, "game": GAME})
        try:
            raise ValueError("boom")
        except ValueError:
            log.exception("it failed")
    finally:
        log.removeHandler(handler)
        log.propagate = True
    lines = buf.getvalue().splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["message"] == "table ABCDEF created\nsecond line"
    assert first["level"] == "INFO" and first["logger"] == "ludus.test.json" and first["pid"] == os.getpid()
    assert first["seats"] == 2 and first["game"] == GAME
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", first["time"])
    assert second["level"] == "ERROR" and "ValueError: boom" in second["exception"]


def test_configure_logging_switches_the_root_handler(root_logging, capsys):
    configure_logging(json_lines=True)
    logging.getLogger("ludus.server").info("hello", extra={"tables": 3})
    line = capsys.readouterr().err.strip().splitlines()[-1]
    record = json.loads(line)
    assert record["message"] == "hello" and record["tables"] == 3 and record["logger"] == "ludus.server"
    configure_logging(json_lines=False)
    logging.getLogger("ludus.server").info("plain")
    line = capsys.readouterr().err.strip().splitlines()[-1]
    assert line.endswith("INFO ludus.server: plain")


def test_serve_log_json_writes_json_lines(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "ludus.cli.main", "serve", "--port", "0", "--log-json",
                             "--database", str(tmp_path / "j.db")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m, line
        base = m.group(0)
        for _ in range(200):
            try:
                if httpx.get(base + "readyz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        body: dict[str, Any] = {"game": GAME, "options": {"players": 2}, "seats": [{"kind": "human"}, {"kind": "bot"}]}
        assert httpx.post(base + "api/tables", json=body).status_code == 201
        assert "ludus_moves" in httpx.get(base + "metrics").text
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    lines = [x for x in err.splitlines() if x.strip()]
    records = [json.loads(x) for x in lines]  # every line is one JSON object
    assert records and all({"time", "level", "logger", "message"} <= set(r) for r in records)
    messages = [r["message"] for r in records if r["logger"] == "ludus.server"]
    assert any("unfinished table" in msg for msg in messages), messages
    assert any(re.search(r"table \w+ created", msg) for msg in messages), messages


def test_commits_and_failed_commits_are_counted(tmp_path):
    from ludus.server.store import Store, Write, WriteFailed, expire_table

    metrics = Metrics(process=False)
    store = Store(f"sqlite:///{tmp_path / 'c.db'}", metrics.committed)

    def broken(conn: Any) -> None:
        raise RuntimeError("no")

    async def go() -> None:
        await store.write(expire_table("NOSUCH"))  # a write that changes nothing, but commits
        with pytest.raises(WriteFailed):
            await store.write(Write(broken, what="a broken write"))

    try:
        asyncio.run(go())
    finally:
        store.close()
    reg = metrics.registry
    assert reg.get_sample_value("ludus_db_commit_seconds_count") == 1
    assert reg.get_sample_value("ludus_db_commit_writes_sum") == 1
    assert reg.get_sample_value("ludus_db_commit_failures_total") == 2  # the group, then the write alone
