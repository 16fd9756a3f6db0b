"""A commit that fails may have happened: the server reads the move back instead of guessing.

PostgreSQL runs behind a small TCP proxy (loopback, in this file) that watches the client's
messages and cuts the connection around COMMIT: either it forwards COMMIT and drops the
server's answer (the commit happened, the client sees an error), or it drops the connection
before COMMIT gets through (nothing happened). A "blackout" also cuts every other connection
and refuses new ones until healed, so the server cannot find out at once. SQLite gets the
same cases by wrapping the writer's transaction. In every case: the player gets an ack (the
move is stored) or a clean error (it is not), the table goes on, and a restarted server
replays exactly what the players were told.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import struct
import threading
from typing import Any

import pytest
from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from ludus.server import store as store_module
from ludus.server.config import ServerConfig
from ludus.server.db import ActionRow, normalize_url

from .helpers import LiveServer, Player, WsClient, gm_table, is_view

PG_URL = os.environ.get("LUDUS_TEST_POSTGRES_URL")
needs_pg = pytest.mark.skipif(not PG_URL, reason="set LUDUS_TEST_POSTGRES_URL to test PostgreSQL")

SSL_REQUEST, GSS_REQUEST, CANCEL_REQUEST = 80877103, 80877104, 80877102


# --------------------------------------------------------------------------- the proxy
class _Link:
    def __init__(self, client: socket.socket, server: socket.socket) -> None:
        self.client, self.server = client, server
        self.drop_reply = False
        self.closed = False
        self.moving = False  # its transaction under way stores a move (other commits, e.g. leases', pass)
        self.move_statements: set[bytes] = set()  # prepared statements that store a move

    def cut_client(self) -> None:
        """Close only the client's side: the server's session stays open, as after a network partition."""
        with contextlib.suppress(OSError):
            self.client.shutdown(socket.SHUT_RDWR)
        self.client.close()

    def cut(self) -> None:
        if self.closed:
            return
        self.closed = True
        for sock in (self.client, self.server):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()


class PgProxy:
    """Forwards 127.0.0.1:<port> to PostgreSQL, reading the client's protocol messages.

    Only the COMMIT of a transaction that stores a move (an INSERT into ``ludus_actions``) is
    cut; other transactions (the server's lease renewals, reads) go through.
    ``arm("after")``: the next such COMMIT goes to the server and the server's answer is dropped with
    the connection (committed, but the client sees an error). ``arm("before")``: the next COMMIT
    is never forwarded; the connection is cut (not committed). ``arm("limbo")``: like "before",
    but the server's side is held open, so its session sits in its transaction, holding its
    locks, as if the network had failed (the server must end that session to learn anything).
    With ``blackout=True`` every connection is cut at that moment and new ones are refused
    until :meth:`heal`.
    """

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.links: list[_Link] = []
        self.mode: str | None = None
        self.blackout = False
        self.down = False
        self.fired = threading.Event()
        self.queries: list[bytes] = []  # every simple-query ('Q') message seen, for the record
        self.running = True
        threading.Thread(target=self._accept, daemon=True).start()

    def arm(self, mode: str, blackout: bool = False) -> None:
        with self.lock:
            self.mode, self.blackout = mode, blackout
            self.fired.clear()

    def heal(self) -> None:
        with self.lock:
            self.down = False

    def close(self) -> None:
        self.running = False
        self.listener.close()
        with self.lock:
            for link in self.links:
                link.cut()

    def _go_dark(self) -> None:
        """Cut every connection and refuse new ones (called with the lock held)."""
        self.down = True
        for link in self.links:
            link.cut()

    def _accept(self) -> None:
        while self.running:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self.lock:
                down = self.down
            if down:
                client.close()
                continue
            try:
                server = socket.create_connection(self.target, timeout=5)
                server.settimeout(None)
            except OSError:
                client.close()
                continue
            link = _Link(client, server)
            with self.lock:
                self.links.append(link)
            threading.Thread(target=self._upstream, args=(link,), daemon=True).start()
            threading.Thread(target=self._downstream, args=(link,), daemon=True).start()

    def _downstream(self, link: _Link) -> None:
        try:
            while True:
                data = link.server.recv(65536)
                if not data:
                    break
                with self.lock:
                    if link.drop_reply:  # the answer to COMMIT: the client never sees it
                        if self.blackout:
                            self._go_dark()
                        link.cut()
                        return
                link.client.sendall(data)
        except OSError:
            pass
        link.cut()

    def _upstream(self, link: _Link) -> None:
        buf = b""
        startup = True  # untyped messages (SSL/GSS request, startup) until the startup message
        try:
            while True:
                data = link.client.recv(65536)
                if not data:
                    break
                buf += data
                while True:
                    if startup:
                        if len(buf) < 8:
                            break
                        size = struct.unpack("!I", buf[:4])[0]
                        if len(buf) < size:
                            break
                        msg, buf = buf[:size], buf[size:]
                        code = struct.unpack("!I", msg[4:8])[0]
                        if code not in (SSL_REQUEST, GSS_REQUEST, CANCEL_REQUEST):
                            startup = False
                        link.server.sendall(msg)
                        continue
                    if len(buf) < 5:
                        break
                    size = struct.unpack("!I", buf[1:5])[0]
                    if len(buf) < 1 + size:
                        break
                    msg, buf = buf[:1 + size], buf[1 + size:]
                    if msg[:1] == b"P":  # Parse: name, query (psycopg prepares what it runs often)
                        name, _, rest = msg[5:].partition(b"\0")
                        if rest.startswith(b"INSERT INTO ludus_actions"):
                            if name:  # a prepared statement, run later by name alone
                                link.move_statements.add(name)
                            link.moving = True
                    elif msg[:1] == b"B":  # Bind: portal, statement
                        statement = msg[5:].split(b"\0", 2)[1]
                        if statement and statement in link.move_statements:
                            link.moving = True
                    elif b"INSERT INTO ludus_actions" in msg:
                        link.moving = True
                    if msg[:1] == b"Q":
                        query = msg[5:].rstrip(b"\0")
                        with self.lock:
                            self.queries.append(query)
                            commit = query.strip().upper() == b"COMMIT"
                            mode = self.mode if commit and link.moving else None
                            if commit:
                                link.moving = False
                            if mode is not None:
                                self.mode = None
                                self.fired.set()
                            if mode == "before":
                                if self.blackout:
                                    self._go_dark()
                                link.cut()
                                return
                            if mode == "limbo":
                                link.cut_client()
                                return
                            if mode == "after":
                                link.drop_reply = True
                    link.server.sendall(msg)
        except OSError:
            pass
        link.cut()


def _through(proxy: PgProxy, url: str) -> str:
    """``url`` rewritten to go through the proxy, in clear text so the proxy can read it."""
    u = make_url(normalize_url(url))
    return u.set(host="127.0.0.1", port=proxy.port,
                 query={**u.query, "sslmode": "disable", "gssencmode": "disable"}).render_as_string(
        hide_password=False)


@pytest.fixture
def proxy():
    assert PG_URL
    u = make_url(normalize_url(PG_URL))
    p = PgProxy(u.host or "127.0.0.1", u.port or 5432)
    yield p
    p.close()


# --------------------------------------------------------------------------- what the tests check
def stored(url: str, code: str) -> list[tuple[int, int, Any]]:
    """(ply, seat, action) of every stored move of table ``code``, read directly."""
    engine = create_engine(normalize_url(url))
    try:
        with engine.connect() as c:
            return [(r.ply, r.seat, json.loads(r.action)) for r in
                    c.execute(select(ActionRow).where(ActionRow.table_code == code).order_by(ActionRow.ply))]
    finally:
        engine.dispose()


def my_turn(ws: WsClient) -> dict[str, Any]:
    """The newest view if it is the player's turn and no move was sent from it yet, else the next such view."""
    acted = getattr(ws, "acted", set())
    ws.acted = acted  # type: ignore[attr-defined]
    view = ws.view
    if not (view and view["legal"] and not view["terminal"] and view["ply"] not in acted):
        view = ws.until(lambda m: is_view(m) and bool(m["legal"]) and not m["terminal"] and m["ply"] not in acted,
                        timeout=30)
    return view


def send_move(ws: WsClient, view: dict[str, Any], move: dict[str, Any], mid: Any) -> dict[str, Any]:
    """Send ``move`` from ``view``; returns the reply (ack or error)."""
    ws.acted.add(view["ply"])  # type: ignore[attr-defined]
    ws.send({"type": "act", "action": move["action"], "moves": view["moves"], "id": mid})
    return ws.until(lambda m: m["type"] in ("ack", "error"))


def play(ws: WsClient, n: int, acked: list[int]) -> None:
    """Make ``n`` moves, each acknowledged."""
    for _ in range(n):
        view = my_turn(ws)
        reply = send_move(ws, view, view["legal"][0], view["moves"])
        assert reply["type"] == "ack", reply
        acked.append(reply["ply"])


def faulty_move(ws: WsClient) -> tuple[dict[str, Any], dict[str, Any], int]:
    """Send one move at the player's turn; returns (the move, the reply, its ply)."""
    view = my_turn(ws)
    move = view["legal"][0]
    return move, send_move(ws, view, move, "faulty"), view["ply"]


def check_restart(config: ServerConfig, code: str, url: str, acked: list[int], failed: list[tuple[int, Any]],
                  before: list[tuple[int, Any]]) -> None:
    """A new server on the same database replays exactly the stored record: every acknowledged
    move, none the player was told failed (``failed``: ply and move), and everything the first
    server had applied."""
    rows = stored(url, code)
    assert [ply for ply, _, _ in rows] == list(range(len(rows)))
    mine = {ply for ply, seat, _ in rows if seat == 0}
    assert set(acked) <= mine
    for ply, action in failed:  # unless the player made the same move again there, and it was acked
        assert (ply, 0, action) not in rows or ply in acked
    again = LiveServer(config)
    try:
        recorded = again.call(lambda: list(again.hub.tables[code].recorded))
    finally:
        again.stop()
    assert recorded == [(seat, action) for _, seat, action in rows]
    assert recorded[:len(before)] == before


def two_seat_table(server: LiveServer) -> tuple[Player, str, WsClient]:
    p = Player(server)
    code = gm_table(p, ["human", "bot"])["code"]
    return p, code, p.ws(code)


# --------------------------------------------------------------------------- PostgreSQL through the proxy
@needs_pg
def test_psycopg_commits_with_a_simple_query_the_proxy_can_see(proxy):
    engine = create_engine(_through(proxy, PG_URL))
    with engine.begin() as c:
        c.execute(text("SELECT 1"))
    engine.dispose()
    assert b"COMMIT" in proxy.queries


@needs_pg
@pytest.mark.parametrize("mode", ["after", "before", "limbo"])
def test_a_commit_cut_by_the_network_is_settled_by_reading_back(proxy, pg_url, mode):
    config = ServerConfig(database=_through(proxy, pg_url), bot_delay=0.0)
    server = LiveServer(config)
    p, code, ws = two_seat_table(server)
    acked: list[int] = []
    failed: list[tuple[int, Any]] = []
    try:
        play(ws, 3, acked)
        my_turn(ws)
        proxy.arm(mode)
        move, reply, ply = faulty_move(ws)
        assert proxy.fired.is_set()
        rows = stored(pg_url, code)
        if reply["type"] == "ack":
            assert reply["ply"] == ply and (ply, 0, move["action"]) in rows
            acked.append(ply)
        else:  # a clean refusal: the move is really not there
            assert reply["code"] == "server_error", reply
            assert len(rows) == ply
            failed.append((ply, move["action"]))
            ws.acted.discard(ply)  # type: ignore[attr-defined] - the player may play at that ply again
        if mode == "after":  # the commit happened: the player must be told so
            assert reply["type"] == "ack", reply
        play(ws, 4, acked)  # the table is not jammed at that ply
        before = server.call(lambda: list(server.hub.tables[code].recorded))
    finally:
        ws.close()
        server.stop()
        p.close()
    check_restart(ServerConfig(database=pg_url, bot_delay=0.0), code, pg_url, acked, failed, before)


@needs_pg
@pytest.mark.parametrize("mode", ["after", "before"])
def test_while_the_database_is_unreachable_the_ply_stays_reserved(proxy, pg_url, mode):
    config = ServerConfig(database=_through(proxy, pg_url), bot_delay=0.0)
    server = LiveServer(config)
    p, code, ws = two_seat_table(server)
    acked: list[int] = []
    failed: list[tuple[int, Any]] = []
    try:
        play(ws, 3, acked)
        view = my_turn(ws)
        proxy.arm(mode, blackout=True)
        move, reply, ply = faulty_move(ws)
        assert proxy.fired.is_set()
        assert reply["type"] == "error" and reply["code"] == "unconfirmed", reply
        # another move at the same ply must not be taken while the first one's fate is unknown
        refused = send_move(ws, view, view["legal"][-1], "other")
        assert refused["type"] == "error" and refused["code"] == "unconfirmed", refused
        assert len(stored(pg_url, code)) == ply + (mode == "after")
        proxy.heal()
        settled = ws.until(lambda m: m["type"] in ("ack", "error"), timeout=30)
        rows = stored(pg_url, code)
        if mode == "after":
            assert settled["type"] == "ack" and settled["ply"] == ply, settled
            assert rows[ply] == (ply, 0, move["action"])
            acked.append(ply)
        else:
            assert settled["type"] == "error" and settled["code"] == "server_error", settled
            assert len(rows) == ply
            failed.append((ply, move["action"]))
            ws.acted.discard(ply)  # type: ignore[attr-defined] - the player may play at that ply again
        play(ws, 4, acked)
        before = server.call(lambda: list(server.hub.tables[code].recorded))
    finally:
        proxy.heal()
        ws.close()
        server.stop()
        p.close()
    check_restart(ServerConfig(database=pg_url, bot_delay=0.0), code, pg_url, acked, failed, before)


# --------------------------------------------------------------------------- SQLite, by fault injection
class FaultyCommits:
    """Wraps the writer's transaction: the next one can fail before or after it commits; with
    ``blind`` the read-back fails too until ``heal``."""

    def __init__(self, server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
        self.writer = server.hub.store.writer
        self.inner = self.writer._transact
        self.mode: str | None = None
        self.blind = False
        self.fired = threading.Event()
        monkeypatch.setattr(self.writer, "_transact", self._transact)
        real_check = store_module.check_applied

        def check(*args: Any, **kw: Any) -> list[bool]:
            if self.blind:
                raise OperationalError("SELECT", {}, ConnectionError("database unreachable"))
            return real_check(*args, **kw)

        monkeypatch.setattr(store_module, "check_applied", check)

    def arm(self, mode: str, blind: bool = False) -> None:
        self.mode, self.blind = mode, blind
        self.fired.clear()

    def heal(self) -> None:
        self.blind = False

    def _transact(self, ops: list[Any]) -> None:
        mode, self.mode = self.mode, None
        if mode is not None:
            self.fired.set()
        if mode == "before":
            raise OperationalError("INSERT", {}, ConnectionError("connection lost"), connection_invalidated=True)
        self.inner(ops)
        if mode == "after":
            raise OperationalError("COMMIT", {}, ConnectionError("connection lost"), connection_invalidated=True)


@pytest.mark.parametrize("mode", ["after", "before"])
def test_sqlite_commit_errors_are_settled_by_reading_back(config, monkeypatch, mode):
    server = LiveServer(config)
    faults = FaultyCommits(server, monkeypatch)
    p, code, ws = two_seat_table(server)
    acked: list[int] = []
    try:
        play(ws, 2, acked)
        my_turn(ws)
        faults.arm(mode)
        move, reply, ply = faulty_move(ws)
        assert faults.fired.is_set()
        assert reply["type"] == "ack" and reply["ply"] == ply, reply
        assert stored(config.database, code)[ply] == (ply, 0, move["action"])
        acked.append(ply)
        play(ws, 3, acked)
        before = server.call(lambda: list(server.hub.tables[code].recorded))
    finally:
        ws.close()
        server.stop()
        p.close()
    check_restart(config, code, config.database, acked, [], before)


@pytest.mark.parametrize("mode", ["after", "before"])
def test_sqlite_unknown_outcome_holds_the_ply_until_read_back(config, monkeypatch, mode):
    server = LiveServer(config)
    faults = FaultyCommits(server, monkeypatch)
    p, code, ws = two_seat_table(server)
    acked: list[int] = []
    failed: list[tuple[int, Any]] = []
    try:
        play(ws, 2, acked)
        view = my_turn(ws)
        faults.arm(mode, blind=True)
        move, reply, ply = faulty_move(ws)
        assert reply["type"] == "error" and reply["code"] == "unconfirmed", reply
        refused = send_move(ws, view, view["legal"][-1], "other")
        assert refused["type"] == "error" and refused["code"] == "unconfirmed", refused
        faults.heal()
        settled = ws.until(lambda m: m["type"] in ("ack", "error"), timeout=30)
        if mode == "after":
            assert settled["type"] == "ack" and settled["ply"] == ply, settled
            acked.append(ply)
        else:
            assert settled["type"] == "error" and settled["code"] == "server_error", settled
            assert len(stored(config.database, code)) == ply
            failed.append((ply, move["action"]))
            ws.acted.discard(ply)  # type: ignore[attr-defined] - the player may play at that ply again
        play(ws, 3, acked)
        before = server.call(lambda: list(server.hub.tables[code].recorded))
    finally:
        ws.close()
        server.stop()
        p.close()
    check_restart(config, code, config.database, acked, failed, before)
