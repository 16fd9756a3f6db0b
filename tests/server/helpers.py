"""A real server on a loopback port (in a thread) and a small synchronous WebSocket client."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import connect

from ludus.server.app import UVICORN_SETTINGS, create_app
from ludus.server.config import ServerConfig


class LiveServer:
    """uvicorn serving :func:`create_app` on 127.0.0.1; ``stop`` shuts it down cleanly."""

    def __init__(self, config: ServerConfig, port: int = 0,
                 make_app: Callable[[ServerConfig], Any] = create_app) -> None:
        self.config = config
        # IPPROTO_TCP, so asyncio sets TCP_NODELAY on each connection: with client and server in one
        # process, a reply written in two parts otherwise waited ~40 ms for the client's delayed ACK
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        config.advertise = config.advertise or self.url  # where the other workers of a group reach it
        self.app = make_app(config)
        self.hub = self.app.state.hub
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning", lifespan="on", **UVICORN_SETTINGS))
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        deadline = time.time() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.time() > deadline:
                raise RuntimeError("server did not start")
            time.sleep(0.02)

    def _run(self) -> None:
        asyncio.run(self.server.serve(sockets=[self.sock]))

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` on the server's event loop (to read live tables without racing it)."""
        loop = self.hub.loop
        fut = asyncio.run_coroutine_threadsafe(_call(fn), loop)
        return fut.result(timeout=10)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)
        self.sock.close()


async def _call(fn: Callable[[], Any]) -> Any:
    return fn()


class Player:
    """A browser stand-in: an HTTP client with its own cookie jar, and WebSocket connections."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.url, timeout=20)

    def post(self, path: str, body: Any = None, **kw: Any) -> httpx.Response:
        return self.http.post(path, json=body if body is not None else {}, **kw)

    def get(self, path: str) -> httpx.Response:
        return self.http.get(path)

    def ws(self, code: str, **headers: str) -> WsClient:
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        hdrs = dict(headers)
        if cookie:
            hdrs["Cookie"] = cookie
        return WsClient(connect(f"{self.server.ws_url}/ws/tables/{code}", additional_headers=hdrs,
                                open_timeout=10, max_size=2**22, legacy=True))

    def close(self) -> None:
        self.http.close()


class WsClient:
    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.seen: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.view: dict[str, Any] | None = None
        self.history: list[Any] = []

    def send(self, msg: Any) -> None:
        self.conn.send(msg if isinstance(msg, (str, bytes)) else json.dumps(msg))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        text = self.conn.recv(timeout=timeout)
        self.raw.append(text)
        msg = json.loads(text)
        self.seen.append(msg)
        if msg["type"] == "view":
            start = msg["history"]["from"]
            self.history = self.history[:start] + msg["history"]["entries"]
            self.view = msg
        return msg

    def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 20) -> dict[str, Any]:
        end = time.time() + timeout
        while True:
            left = end - time.time()
            if left <= 0:
                raise TimeoutError("expected message did not arrive")
            msg = self.recv(timeout=left)
            if pred(msg):
                return msg

    def error(self, timeout: float = 10) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == "error", timeout)

    def close(self) -> None:
        """Read what is still queued first: the client stops reading (and so misses the close) when full."""
        try:
            while True:
                self.conn.recv(timeout=0.05)
        except Exception:  # noqa: BLE001 - TimeoutError when drained, ConnectionClosed when gone
            pass
        self.conn.close()


def is_view(m: dict[str, Any]) -> bool:
    return m["type"] == "view"


def gm_table(player: Player, seats: list[str], name: str | None = "Ann", **extra: Any) -> dict[str, Any]:
    """Create a Gorus Maximus table; ``seats`` like ["human", "bot", ...]."""
    options = extra.pop("options", {})
    body = {"game": "gorus-maximus", "options": {"players": len(seats), **options},
            "seats": [{"kind": k} for k in seats], "name": name, **extra}
    r = player.post("/api/tables", body)
    assert r.status_code == 201, r.text
    return r.json()


def play_until_done(ws: WsClient, timeout: float = 120, pick: Callable[[list], Any] | None = None) -> dict[str, Any]:
    """Answer every turn with the first legal move (or ``pick``'s) until the game ends."""
    acted = -1
    end = time.time() + timeout
    while True:
        view = ws.view
        if view is not None and view["terminal"]:
            return view
        if view is not None and view["legal"] and view["moves"] != acted:
            acted = view["moves"]
            move = pick(view["legal"]) if pick else view["legal"][0]
            ws.send({"type": "act", "action": move["action"], "moves": view["moves"], "id": acted})
        msg = ws.recv(timeout=max(0.1, end - time.time()))
        if msg["type"] == "error" and msg["code"] == "rate_limited":  # a scripted player outpaces the limit
            time.sleep(0.2)
            acted = -1


def migrate_to(url: str, revision: str, down: bool = False) -> None:
    """Bring the database at ``url`` to the Alembic ``revision`` (an older version's schema)."""
    from alembic import command
    from alembic.config import Config

    from ludus.server.db import MIGRATIONS, make_engine

    engine = make_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    try:
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            (command.downgrade if down else command.upgrade)(cfg, revision)
    finally:
        engine.dispose()


def serve_process(db: Any, output: list[str], port: int = 0, command: list[str] | None = None,
                  extra: tuple[str, ...] = ()) -> tuple[subprocess.Popen, str]:
    """A real ``ludus serve`` process on ``db`` (``command``: another way to start the CLI, e.g. with
    a patch), answering once it prints its address; its output is collected in ``output``."""
    cmd = command or [sys.executable, "-m", "ludus.cli.main"]
    proc = subprocess.Popen([*cmd, "serve", "--port", str(port), "--database", str(db), "--bot-delay", "0", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    m = re.search(r"http://[\d.]+:(\d+)/", line)
    assert m, line
    url = m.group(0).rstrip("/")
    threading.Thread(target=lambda: output.extend(proc.stdout or ()), daemon=True).start()  # keep the pipe drained
    for _ in range(100):
        try:
            httpx.get(url + "/api/games", timeout=1)
            break
        except httpx.HTTPError:
            time.sleep(0.1)
    return proc, url


def remote(url: str) -> Any:
    """What :class:`Player` needs of a server, for one running in another process."""
    return type("S", (), {"url": url, "ws_url": url.replace("http", "ws")})()


@contextlib.contextmanager
def pg_schema(url: str) -> Iterator[str]:
    """``url`` in a schema of its own (other tests use the same database in parallel), dropped after."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from ludus.server.db import normalize_url

    schema = f"ludus_test_{secrets.token_hex(4)}"
    admin = create_engine(normalize_url(url))
    with admin.begin() as c:
        c.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        yield make_url(normalize_url(url)).update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(
            hide_password=False)
    finally:
        with admin.begin() as c:
            c.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()
