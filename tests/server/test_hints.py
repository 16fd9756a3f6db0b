"""Hints at a table: off unless chosen, shown to all, only for the player to move, answered to them alone."""

from __future__ import annotations

import dataclasses

import pytest

from ludus.server.config import ServerConfig

from .helpers import LiveServer, Player, gm_table, is_view, play_until_done

SCHOOLS = {"schools": "BF,GA,PA"}


@pytest.fixture
def config(tmp_path) -> ServerConfig:
    # a thread instead of a worker process, and a short search, keep these tests quick
    return ServerConfig(database=f"sqlite:///{tmp_path / 'ludus.db'}", bot_delay=0.0, min_clock=1,
                        hint_seconds=0.4, hint_processes=False)


def duel(player: Player, other: Player, hints: bool):
    code = gm_table(player, ["human", "human"], options=SCHOOLS, hints=hints)["code"]
    other.post(f"/api/tables/{code}/join", {"name": "Bob"})
    ws0, ws1 = player.ws(code), other.ws(code)
    for ws in (ws0, ws1):
        ws.until(lambda m: is_view(m) and m["table"]["status"] == "playing")
    mover, waiter = (ws0, ws1) if ws0.view["to_move"] == [0] else (ws1, ws0)
    return code, mover, waiter


def test_off_by_default_and_refused(player, other):
    info = gm_table(player, ["human", "human"], options=SCHOOLS)
    assert info["hints"] is False
    _code, mover, waiter = duel(player, other, hints=False)
    assert mover.view["table"]["hints"] is False
    mover.send({"type": "hint", "id": 1})
    err = mover.error()
    assert err["code"] == "hints_off" and err["id"] == 1
    mover.close()
    waiter.close()


def test_public_info_shows_the_setting(player, other):
    code, mover, waiter = duel(player, other, hints=True)
    assert player.get(f"/api/tables/{code}").json()["hints"] is True
    watcher = Player(player.server)
    assert watcher.get(f"/api/tables/{code}").json()["hints"] is True
    ws = watcher.ws(code)
    assert ws.until(is_view)["table"]["hints"] is True
    lobby = {t["code"]: t for t in watcher.get("/api/tables").json()}
    if code in lobby:  # the lobby lists open tables; a full one may have left it
        assert lobby[code]["hints"] is True
    ws.close()
    watcher.close()
    mover.close()
    waiter.close()


def test_bad_hints_value_is_refused(player):
    r = player.post("/api/tables", {"game": "gorus-maximus", "options": {"players": 2},
                                    "seats": [{"kind": "human"}, {"kind": "bot"}], "hints": {"x": 1}})
    assert r.status_code == 422 and "hints" in r.text


def test_only_the_asker_gets_the_hint(player, other):
    code, mover, waiter = duel(player, other, hints=True)
    legal = {m["label"] for m in mover.view["legal"]}
    mover.send({"type": "hint", "id": "h1"})
    hint = mover.until(lambda m: m["type"] in ("hint", "error"))
    assert hint["type"] == "hint", hint
    assert hint["id"] == "h1" and 1 <= len(hint["moves"]) <= 3
    assert {m["label"] for m in hint["moves"]} <= legal
    assert hint["measure"] == "win chance" and hint["seconds"] > 0 and hint["samples"] > 0
    assert hint["plies"] == 0
    # the other player hears nothing of it
    waiter.send({"type": "ping", "id": "p"})
    waiter.until(lambda m: m["type"] == "pong")
    assert not any(m["type"] == "hint" for m in waiter.seen)
    # the hint does not play the move
    assert player.server.call(lambda: len(player.server.hub.tables[code].recorded)) == 0
    mover.close()
    waiter.close()


def test_not_your_turn_and_watchers_are_refused(player, other):
    code, mover, waiter = duel(player, other, hints=True)
    waiter.send({"type": "hint", "id": 2})
    assert waiter.error()["code"] == "not_your_turn"
    watcher = Player(player.server)
    ws = watcher.ws(code)
    ws.until(is_view)
    ws.send({"type": "hint", "id": 3})
    assert ws.error()["code"] == "not_seated"
    ws.close()
    watcher.close()
    mover.close()
    waiter.close()


def test_one_hint_at_a_time_and_stale_answers_are_withheld(player, other):
    _code, mover, waiter = duel(player, other, hints=True)
    mover.send({"type": "hint", "id": 1})
    mover.send({"type": "hint", "id": 2})
    busy = mover.error()
    assert busy["code"] == "hint_busy" and busy["id"] == 2
    # play a move while the first hint is still being worked out: its answer is now stale
    view = mover.view
    mover.send({"type": "act", "action": view["legal"][0]["action"], "moves": view["moves"], "id": "m"})
    answer = mover.until(lambda m: m.get("id") == 1)
    assert answer["type"] == "error" and answer["code"] == "hint_stale"
    mover.close()
    waiter.close()


def test_rematch_and_restart_keep_the_setting(player, server, config):
    code = gm_table(player, ["human", "bot"], hints=True)["code"]
    ws = player.ws(code)
    ws.until(is_view)
    play_until_done(ws)
    new = player.post(f"/api/tables/{code}/rematch").json()
    assert new["hints"] is True
    ws.close()
    server.stop()
    again = LiveServer(config)
    p = Player(again)
    try:
        assert p.get(f"/api/tables/{new['code']}").json()["hints"] is True
        assert p.get(f"/api/tables/{code}").json()["hints"] is True
    finally:
        p.close()
        again.stop()
        server.stop = lambda: None  # already stopped; the fixture calls it again


def test_the_worker_process_answers(tmp_path):
    config = dataclasses.replace(
        ServerConfig(database=f"sqlite:///{tmp_path / 'ludus.db'}", bot_delay=0.0, min_clock=1),
        hint_seconds=0.3, hint_processes=True)
    srv = LiveServer(config)
    p = Player(srv)
    try:
        code = gm_table(p, ["human", "bot"], hints=True)["code"]
        ws = p.ws(code)
        view = ws.until(lambda m: is_view(m) and m["legal"])
        ws.send({"type": "hint", "id": 9})
        hint = ws.until(lambda m: m["type"] in ("hint", "error") and m.get("id") == 9, timeout=60)
        assert hint["type"] == "hint", hint
        assert hint["moves"][0]["label"] in {m["label"] for m in view["legal"]}
        ws.close()
    finally:
        p.close()
        srv.stop()


def test_migration_keeps_existing_tables_with_hints_off(tmp_path):
    """A database made before hints existed: its tables, seats and moves survive, hints off."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import text

    from ludus.server.db import MIGRATIONS, make_engine, migrate

    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0002")
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO ludus_tables (code, game, options, seed, status, listed, created_at, "
                          "updated_at) VALUES ('OLD123', 'gorus-maximus', '{}', 5, 'playing', 1, '2026-01-01', "
                          "'2026-01-01')"))
        conn.execute(text("INSERT INTO ludus_seats (table_code, seat, kind, bot) "
                          "VALUES ('OLD123', 0, 'bot', 'random')"))
    migrate(engine)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT hints FROM ludus_tables WHERE code = 'OLD123'")).scalar_one() in (0, False)
        assert conn.execute(text("SELECT count(*) FROM ludus_seats WHERE table_code = 'OLD123'")).scalar_one() == 1
    engine.dispose()


def test_no_hint_before_the_game_starts(player):
    code = gm_table(player, ["human", "human"], options=SCHOOLS, hints=True)["code"]  # one seat still free
    ws = player.ws(code)
    assert ws.until(is_view)["table"]["status"] == "open"
    ws.send({"type": "hint", "id": 4})
    err = ws.error()
    assert err["code"] == "not_your_turn" and "not being played" in err["message"]
    ws.close()
