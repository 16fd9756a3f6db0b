"""Every accepted move is stored before it is shown; a restarted server resumes tables exactly."""

from __future__ import annotations

import os
import signal

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from ludus.core import records
from ludus.games import get_game
from ludus.server.config import ServerConfig
from ludus.server.db import Base, make_engine, migrate
from ludus.server.store import Store

from .helpers import LiveServer, Player, gm_table, is_view, play_until_done, remote, serve_process


def test_migrations_build_exactly_the_models(tmp_path):
    engine = make_engine(str(tmp_path / "m.db"))
    migrate(engine)
    migrate(engine)  # running again is harmless
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
    engine.dispose()


def test_ack_comes_after_the_move_is_in_the_database(player, server):
    code = gm_table(player, ["human", "bot"])["code"]
    ws = player.ws(code)
    view = ws.until(lambda m: is_view(m) and m["legal"])
    store = Store(server.config.database)
    before = store.action_count(code)
    ws.send({"type": "act", "action": view["legal"][0]["action"], "moves": view["moves"], "id": 1})
    ack = ws.until(lambda m: m["type"] == "ack")
    assert store.action_count(code) >= ack["ply"] + 1 > before
    store.close()
    ws.close()


def test_a_restarted_server_resumes_the_table_exactly(config, tmp_path):
    first = LiveServer(config)
    p = Player(first)
    code = gm_table(p, ["human", "bot", "bot"])["code"]
    ws = p.ws(code)
    for _ in range(12):
        view = ws.until(lambda m: is_view(m) and m["legal"])
        ws.send({"type": "act", "action": view["legal"][-1]["action"], "moves": view["moves"]})
        ws.until(lambda m: m["type"] == "ack")
    ws.close()
    before = first.call(lambda: (first.hub.tables[code].state.to_json(), list(first.hub.tables[code].recorded)))
    first.stop()
    p.close()

    second = LiveServer(config)
    after = second.call(lambda: (second.hub.tables[code].state.to_json(), list(second.hub.tables[code].recorded)))
    # bots may have moved between the snapshot and the stop; the stored prefix must match exactly
    assert after[1][:len(before[1])] == before[1]
    if len(after[1]) == len(before[1]):
        assert after[0] == before[0]
    second.stop()


def test_killed_server_loses_no_acknowledged_move(tmp_path):
    """A real ``ludus serve`` process, killed with SIGKILL mid-game and started again."""
    db = tmp_path / "kill.db"
    output: list[str] = []

    proc, url = serve_process(db, output)
    port = int(url.rsplit(":", 1)[1])
    p = Player(remote(url))
    code = gm_table(p, ["human", "bot", "bot", "bot"])["code"]
    ws = p.ws(code)
    acked = []
    for _ in range(6):
        view = ws.until(lambda m: is_view(m) and m["legal"])
        ws.send({"type": "act", "action": view["legal"][0]["action"], "moves": view["moves"]})
        acked.append(ws.until(lambda m: m["type"] == "ack")["ply"])
    view = ws.until(lambda m: is_view(m) and m["legal"])
    ws.send({"type": "act", "action": view["legal"][0]["action"], "moves": view["moves"]})
    proc.send_signal(signal.SIGKILL)  # at once, maybe while that move is being written
    proc.wait()
    ws.close()
    proc, url = serve_process(db, output, port)
    try:
        ws = p.ws(code)
        view = ws.until(is_view)
        assert view["you"] == 0 and view["ply"] >= acked[-1] + 1
        try:
            final = play_until_done(ws, timeout=60)
        except TimeoutError:
            info = p.get(f"/api/tables/{code}").json()
            pytest.fail("game stalled after restart; server said:\n" + "".join(output[-50:])
                        + f"\ntable: {info}\nlast messages: {ws.raw[-3:]}")
        record = records.parse_record(p.get(f"/api/tables/{code}/record").json())
        state = records.replay(record, get_game)
        assert state.is_terminal() and final["result"]["winners"] == state.winners()
        mine = [i for i, (seat, _) in enumerate(record.actions) if seat == 0]
        assert set(acked) <= set(mine)
        ws.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
        p.close()


@pytest.mark.skipif(not os.environ.get("LUDUS_TEST_POSTGRES_URL"),
                    reason="set LUDUS_TEST_POSTGRES_URL to test PostgreSQL")
def test_postgresql_plays_and_resumes_through_the_same_code():
    config = ServerConfig(database=os.environ["LUDUS_TEST_POSTGRES_URL"], bot_delay=0.0)
    first = LiveServer(config)
    p = Player(first)
    code = gm_table(p, ["human", "bot"])["code"]
    ws = p.ws(code)
    for _ in range(5):
        view = ws.until(lambda m: is_view(m) and m["legal"])
        ws.send({"type": "act", "action": view["legal"][0]["action"], "moves": view["moves"]})
        ws.until(lambda m: m["type"] == "ack")
    ws.close()
    first.stop()
    second = LiveServer(config)
    p.server = second
    p.http.base_url = second.url
    ws = p.ws(code)
    view = ws.until(is_view)
    assert view["you"] == 0 and view["moves"] == 5
    final = play_until_done(ws)
    record = records.parse_record(p.get(f"/api/tables/{code}/record").json())
    assert records.replay(record, get_game).winners() == final["result"]["winners"]
    ws.close()
    second.stop()
    p.close()
