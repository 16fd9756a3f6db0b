"""Accounts: sign-up carries the browser's games over, another browser logs in to the same seats,
and every way of misusing the endpoints gets a clear refusal that changes nothing."""

from __future__ import annotations

import logging
import os
import secrets
from pathlib import Path

import pytest
from sqlalchemy import func, inspect, select, text
from websockets.exceptions import ConnectionClosed

from ludus.server.accounts import DELETED_NAME, SESSION_COOKIE
from ludus.server.config import ServerConfig
from ludus.server.db import AccountRow, SessionRow, make_engine

from .helpers import LiveServer, Player, gm_table, is_view, migrate_to, play_until_done

PASSWORD = "correct horse battery"


def signup(p: Player, name: str = "Livia", password: str = PASSWORD) -> dict:
    r = p.post("/api/account/signup", {"name": name, "password": password})
    assert r.status_code == 201, r.text
    return r.json()


def login(p: Player, name: str = "Livia", password: str = PASSWORD) -> int:
    return p.post("/api/account/login", {"name": name, "password": password}).status_code


def count(server: LiveServer, row: type) -> int:
    engine = make_engine(server.config.database)
    try:
        with engine.connect() as c:
            return c.execute(select(func.count()).select_from(row)).scalar_one()
    finally:
        engine.dispose()


def test_signup_keeps_the_browsers_games_and_another_browser_gets_the_same_seat(server, player):
    code = gm_table(player, ["human", "bot"])["code"]  # played before there was an account
    before = player.get("/api/me").json()
    assert before["account"] is None and [g["code"] for g in before["games"]] == [code]
    body = signup(player)
    assert body["account"]["name"] == "Livia"
    cookie = next(c for c in player.http.cookies.jar if c.name == SESSION_COOKIE)
    assert cookie.has_nonstandard_attr("HttpOnly")
    assert player.get(f"/api/tables/{code}").json()["you"] == 0

    laptop = Player(server)
    try:
        assert laptop.get(f"/api/tables/{code}").json()["you"] is None
        assert login(laptop) == 200
        me = laptop.get("/api/me").json()
        assert me["account"]["name"] == "Livia"
        assert [(g["code"], g["seat"], g["status"]) for g in me["games"]] == [(code, 0, "playing")]
        assert laptop.get(f"/api/tables/{code}").json()["you"] == 0
        ws = laptop.ws(code)
        view = ws.until(lambda m: is_view(m) and m["legal"])
        assert view["you"] == 0
        ws.send({"type": "act", "action": view["legal"][0]["action"], "moves": view["moves"], "id": 1})
        assert ws.until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
        ws.close()
    finally:
        laptop.close()


def test_a_logged_in_player_takes_seats_under_the_accounts_name(server, player, other):
    signup(player, "Marcus")
    code = gm_table(player, ["human", "human"], name="Somebody Else")["code"]
    assert player.get(f"/api/tables/{code}").json()["names"][0] == "Marcus"
    signup(other, "Julia")
    joined = other.post(f"/api/tables/{code}/join", {"name": "Marcus"})
    assert joined.status_code == 200 and joined.json()["names"] == ["Marcus", "Julia"]


def test_login_moves_anonymous_seats_but_not_into_a_table_where_the_account_sits(server, player, other):
    signup(player)
    shared = gm_table(player, ["human", "human"])["code"]
    assert other.post(f"/api/tables/{shared}/join", {"name": "Guest"}).json()["you"] == 1  # anonymous, seat 2
    solo = gm_table(other, ["human", "bot"])["code"]
    assert login(other) == 200
    games = {g["code"]: g["seat"] for g in other.get("/api/me").json()["games"]}
    assert games == {shared: 0, solo: 0}  # the solo game moved; at the shared table the account keeps its seat
    assert other.get(f"/api/tables/{shared}").json()["you"] == 0
    other.post("/api/account/logout")
    assert other.get(f"/api/tables/{shared}").json()["you"] == 1  # the browser's own seat is still its own
    assert other.get(f"/api/tables/{solo}").json()["you"] is None  # it moved to the account


def test_games_list_unfinished_first_with_the_outcome_of_finished_ones(server, player):
    signup(player)
    first = gm_table(player, ["human", "bot"])["code"]
    ws = player.ws(first)
    final = play_until_done(ws)
    ws.close()
    second = gm_table(player, ["human", "bot"])["code"]
    games = player.get("/api/me").json()["games"]
    assert [g["code"] for g in games] == [second, first]
    done = games[1]
    assert done["status"] == "finished" and done["players"][0] == "Livia" and done["players"][1].endswith(" bot 2")
    winners = final["result"]["winners"]
    assert done["outcome"] == ("won" if winners == [0] else "shared" if 0 in winners else "lost")


@pytest.mark.parametrize("body, code", [
    ({"name": "x", "password": PASSWORD}, "bad_name"),
    ({"name": "a" * 25, "password": PASSWORD}, "bad_name"),
    ({"name": "two words", "password": PASSWORD}, "bad_name"),
    ({"name": "evil\u202e", "password": PASSWORD}, "bad_name"),
    ({"name": "Livia", "password": "short"}, "bad_password"),
    ({"name": "Livia", "password": "x" * 257}, "bad_password"),
    ({"name": "Livia", "password": 12345678}, "bad_request"),
    ({"name": "Livia"}, "bad_request"),
    ({"name": "Livia", "password": PASSWORD, "admin": True}, "bad_request"),
])
def test_bad_signups_are_refused_and_store_nothing(server, player, body, code):
    r = player.post("/api/account/signup", body)
    assert r.status_code in (400, 422) and r.json()["code"] == code
    assert PASSWORD not in r.text
    assert count(server, AccountRow) == 0 and SESSION_COOKIE not in player.http.cookies


def test_names_are_one_account_whatever_their_case_and_a_second_signup_is_refused(server, player, other):
    signup(player, "Livia")
    r = other.post("/api/account/signup", {"name": "LIVIA", "password": PASSWORD})
    assert r.status_code == 409 and r.json()["code"] == "name_taken"
    assert login(other, "lIvIa") == 200
    r = other.post("/api/account/signup", {"name": "Another", "password": PASSWORD})
    assert r.status_code == 409 and r.json()["code"] == "logged_in"
    assert count(server, AccountRow) == 1


def test_a_form_post_from_another_site_cannot_log_in(server, player):
    signup(player)
    fresh = Player(server)
    try:
        r = fresh.http.post("/api/account/login", data={"name": "Livia", "password": PASSWORD})
        assert r.status_code == 415
        r = fresh.post("/api/account/login", {"name": "Livia", "password": PASSWORD},
                       headers={"origin": "https://evil.example"})
        assert r.status_code == 403 and r.json()["code"] == "cross_origin"
        assert SESSION_COOKIE not in fresh.http.cookies
    finally:
        fresh.close()


def test_wrong_passwords_are_throttled_per_account_even_for_the_right_one(tmp_path):
    config = ServerConfig(database=f"sqlite:///{tmp_path / 'a.db'}", bot_delay=0.0,
                          login_failures_per_minute_account=0.5, login_failures_burst_account=3)
    server = LiveServer(config)
    a, b = Player(server), Player(server)
    try:
        signup(a, "Livia")
        signup(b, "Quintus")
        b.post("/api/account/logout")
        codes = [b.post("/api/account/login", {"name": "livia", "password": f"guess number {i}"}).status_code
                 for i in range(3)]
        assert codes == [401, 401, 401]
        r = b.post("/api/account/login", {"name": "Livia", "password": PASSWORD})
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        assert int(r.headers["retry-after"]) >= 1
        assert login(b, "Quintus") == 200  # another account is not locked out by Livia's
    finally:
        a.close()
        b.close()
        server.stop()


def test_wrong_passwords_are_throttled_per_address_across_names(tmp_path):
    config = ServerConfig(database=f"sqlite:///{tmp_path / 'a.db'}", bot_delay=0.0,
                          login_failures_per_minute_address=0.5, login_failures_burst_address=4)
    server = LiveServer(config)
    p = Player(server)
    try:
        codes = [p.post("/api/account/login", {"name": f"name{i}", "password": PASSWORD}).status_code
                 for i in range(5)]
        assert codes == [401, 401, 401, 401, 429]
    finally:
        p.close()
        server.stop()


def test_guesses_sent_at_once_are_counted_before_any_is_checked(tmp_path):
    """Each attempt takes its token before the password is checked (and gets it back if right), so
    guesses sent in parallel cannot all pass the throttle while the first ones are being hashed."""
    from concurrent.futures import ThreadPoolExecutor

    config = ServerConfig(database=f"sqlite:///{tmp_path / 'a.db'}", bot_delay=0.0,
                          login_failures_per_minute_account=0.5, login_failures_burst_account=3)
    server = LiveServer(config)
    players = [Player(server) for _ in range(10)]
    try:
        signup(players[0], "Livia")
        with ThreadPoolExecutor(10) as pool:
            codes = list(pool.map(lambda i: players[i].post("/api/account/login", {
                "name": "Livia", "password": f"guess {i}"}).status_code, range(10)))
        assert sorted(codes) == [401] * 3 + [429] * 7
    finally:
        for p in players:
            p.close()
        server.stop()


def test_a_sqlite_server_counts_its_limits_in_memory_without_the_database(tmp_path, monkeypatch):
    from ludus.server.throttles import Throttles

    def no_database(*_args):
        raise AssertionError("a single SQLite server's limits never ask the database")

    monkeypatch.setattr(Throttles, "_take_rows", no_database)
    monkeypatch.setattr(Throttles, "_give_rows", no_database)
    config = ServerConfig(database=f"sqlite:///{tmp_path / 'a.db'}", bot_delay=0.0,
                          login_failures_per_minute_account=0.5, login_failures_burst_account=2)
    server = LiveServer(config)
    p = Player(server)
    try:
        assert not server.hub.throttles.shared
        gm_table(p, ["human", "bot"])
        signup(p, "Livia")
        assert login(p, "Livia") == 200
        assert [login(p, "Livia", "wrong password") for _ in range(3)] == [401, 401, 429]
        assert server.hub.accounts.failed_by_name.memory.buckets  # the buckets are the process's own
    finally:
        p.close()
        server.stop()


def test_unknown_names_and_wrong_passwords_get_the_same_answer(server, player, other):
    signup(player)
    wrong = other.post("/api/account/login", {"name": "Livia", "password": "not the password"})
    unknown = other.post("/api/account/login", {"name": "Nobody", "password": "not the password"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"error": "wrong name or password", "code": "bad_login"}


def test_the_password_is_never_stored_or_logged_in_clear(server, player, caplog):
    caplog.set_level(logging.DEBUG)
    secret = "p-" + secrets.token_hex(12)
    signup(player, "Livia", secret)
    other = Player(server)
    try:
        assert login(other, "Livia", secret) == 200
        new = "q-" + secrets.token_hex(12)
        assert other.post("/api/account/password", {"current": secret, "new": new}).status_code == 200
        assert other.post("/api/account/login", {"name": "Livia", "password": "x" + new}).status_code == 401
    finally:
        other.close()
    engine = make_engine(server.config.database)
    with engine.connect() as c:
        stored = c.execute(select(AccountRow.password_hash)).scalar_one()
        sessions = [r.token_hash for r in c.execute(select(SessionRow))]
    engine.dispose()
    assert stored.startswith("$argon2id$")
    db = Path(server.config.database.removeprefix("sqlite:///"))
    raw = b"".join(f.read_bytes() for f in db.parent.iterdir() if f.name.startswith(db.name))
    for clear in (secret, new):
        assert clear.encode() not in raw
        assert clear not in caplog.text
    cookies = [c.value for c in player.http.cookies.jar if c.name == SESSION_COOKIE]
    assert cookies and all(c.encode() not in raw for c in cookies)
    assert sessions and all(len(s) == 64 for s in sessions)


def test_one_accounts_session_cannot_act_for_another(server, player, other):
    signup(player, "Livia")
    code = gm_table(player, ["human", "bot"])["code"]
    mine = player.ws(code)
    legal = mine.until(lambda m: is_view(m) and m["legal"])  # Livia's turn, and a move she may play
    signup(other, "Quintus")
    before = other.get(f"/api/tables/{code}").json()
    assert before["you"] is None
    assert other.post(f"/api/tables/{code}/leave").json()["code"] == "not_seated"
    ws = other.ws(code)
    view = ws.until(is_view)
    assert view["you"] is None and not view["legal"]
    ws.send({"type": "act", "action": legal["legal"][0]["action"], "moves": legal["moves"], "id": 7})
    assert ws.error()["code"] == "not_seated"
    assert player.get(f"/api/tables/{code}").json()["plies"] == before["plies"]  # nothing was played
    ws.close()
    mine.close()
    forged = Player(server)
    try:
        forged.http.cookies.set(SESSION_COOKIE, secrets.token_urlsafe(32))
        assert forged.get("/api/me").json() == {"account": None, "games": [], "ratings": []}
        assert forged.post("/api/account/logout-everywhere").json()["code"] == "not_logged_in"
    finally:
        forged.close()


def test_logout_ends_the_session_for_good_and_closes_its_sockets(server, player):
    signup(player)
    code = gm_table(player, ["human", "bot"])["code"]
    stolen = player.http.cookies[SESSION_COOKIE]
    ws = player.ws(code)
    assert ws.until(is_view)["you"] == 0
    assert player.post("/api/account/logout").json() == {"account": None}
    assert SESSION_COOKIE not in player.http.cookies
    with pytest.raises(ConnectionClosed) as closed:  # the server closes the session's socket
        ws.until(lambda m: False, timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    replay = Player(server)
    try:
        replay.http.cookies.set(SESSION_COOKIE, stolen)
        assert replay.get("/api/me").json()["account"] is None
        assert replay.get(f"/api/tables/{code}").json()["you"] is None
    finally:
        replay.close()


def test_logout_everywhere_and_a_password_change_end_the_other_sessions(server, player, other):
    signup(player)
    assert login(other) == 200
    third = Player(server)
    try:
        assert login(third) == 200
        r = player.post("/api/account/password", {"current": "wrong one!", "new": "brand new pass"})
        assert r.status_code == 401 and r.json()["code"] == "bad_login"
        assert other.get("/api/me").json()["account"] is not None  # a refused change ends nothing
        r = player.post("/api/account/password", {"current": PASSWORD, "new": "brand new pass"})
        assert r.status_code == 200
        assert player.get("/api/me").json()["account"]["name"] == "Livia"  # this session stays
        assert other.get("/api/me").json()["account"] is None
        assert login(third, password=PASSWORD) == 401 and login(third, password="brand new pass") == 200
        assert player.post("/api/account/logout-everywhere").status_code == 200
        assert player.get("/api/me").json()["account"] is None
        assert third.get("/api/me").json()["account"] is None
        assert count(server, SessionRow) == 0
    finally:
        third.close()


def test_deleting_the_account_removes_its_personal_data_and_keeps_its_games(server, player, other):
    signup(player, "Livia")
    waiting = gm_table(player, ["human", "human"])["code"]
    playing = gm_table(player, ["human", "bot"])["code"]
    finished = gm_table(player, ["human", "bot"])["code"]
    ws = player.ws(finished)
    play_until_done(ws)
    ws.close()
    r = player.post("/api/account/delete", {"password": "not it at all"})
    assert r.status_code == 401 and count(server, AccountRow) == 1
    assert player.post("/api/account/delete", {"password": PASSWORD}).json() == {"account": None}
    assert count(server, AccountRow) == 0 and count(server, SessionRow) == 0
    assert login(other, "Livia") == 401
    assert other.get(f"/api/tables/{finished}").json()["names"][0] == DELETED_NAME
    info = other.get(f"/api/tables/{playing}").json()
    assert info["names"][0] == DELETED_NAME and info["seats"][0]["away"] == "left"  # a bot plays on
    assert other.post(f"/api/tables/{waiting}/join", {"name": "Gaius", "seat": 0}).json()["you"] == 0  # seat freed
    engine = make_engine(server.config.database)
    with engine.connect() as c:  # the name is nowhere in the database any more
        for table in inspect(engine).get_table_names():
            for row in c.execute(text(f"SELECT * FROM {table}")):
                assert all("Livia" not in str(v) for v in row), (table, row)
    engine.dispose()
    assert signup(Player(server), "Livia")["account"]["name"] == "Livia"  # the name is free again


def test_a_database_made_before_accounts_upgrades_in_place(tmp_path):
    """A file at migration 0003 (the version before accounts), with a game under way in it."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    migrate_to(url, "0003")
    first = LiveServer(ServerConfig(database=url, bot_delay=0.0))
    # the server migrates to the newest revision at start; for a game stored the old way, go back to 0003
    p = Player(first)
    code = gm_table(p, ["human", "bot"])["code"]
    first.stop()
    migrate_to(url, "0003", down=True)
    engine = make_engine(url)
    with engine.connect() as conn:
        assert "ludus_accounts" not in inspect(conn).get_table_names()
    engine.dispose()

    second = LiveServer(ServerConfig(database=url, bot_delay=0.0))
    p.server, p.http.base_url = second, second.url
    try:
        assert p.get(f"/api/tables/{code}").json()["you"] == 0
        signup(p)
        assert [g["code"] for g in p.get("/api/me").json()["games"]] == [code]
    finally:
        p.close()
        second.stop()


@pytest.mark.skipif(not os.environ.get("LUDUS_TEST_POSTGRES_URL"),
                    reason="set LUDUS_TEST_POSTGRES_URL to test PostgreSQL")
def test_accounts_on_postgresql():
    server = LiveServer(ServerConfig(database=os.environ["LUDUS_TEST_POSTGRES_URL"], bot_delay=0.0))
    a, b = Player(server), Player(server)
    name = "pg-" + secrets.token_hex(4)
    try:
        code = gm_table(a, ["human", "bot"])["code"]
        signup(a, name)
        r = b.post("/api/account/signup", {"name": name.upper(), "password": PASSWORD})
        assert r.status_code == 409
        assert login(b, name) == 200
        assert b.get(f"/api/tables/{code}").json()["you"] == 0
        assert b.post("/api/account/delete", {"password": PASSWORD}).status_code == 200
        assert a.get("/api/me").json()["account"] is None
        assert b.get(f"/api/tables/{code}").json()["names"][0] == DELETED_NAME
    finally:
        a.close()
        b.close()
        server.stop()
