"""A hostile client for the game server: generated bad WebSocket messages and HTTP requests.

Used by ``test_hostile.py`` (a bounded run) and ``benchmarks/server_hostile.py`` (larger counts).
Everything is seeded, so a failure can be replayed. Each case is checked for:

- a well-formed answer: an ``error`` with a known code (WebSocket) or the documented
  ``{"error", "code"}`` JSON (HTTP), or the answer a good request gets;
- no server error (``server_error``, HTTP 5xx, a dropped connection);
- the connection still answering a ping afterwards;
- nothing changed when the input was refused (table status, moves, seats).
"""

from __future__ import annotations

import contextlib
import json
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed

from ludus.games import game_names, get_game

from .helpers import LiveServer, Player, WsClient

WS_CODES = {"bad_message", "too_large", "rate_limited", "not_seated", "not_started", "game_over", "stale",
            "not_your_turn", "bad_action", "illegal", "busy", "unconfirmed"}
# seats per game for the test tables (small, all human)
SEATS = {"gorus-maximus": {"players": 2, "schools": "BF,GA,PA"}, "circus-maximus": {"players": 3},
         "gorus-arena": {"players": 2}}
STRINGS = ["", " ", "a", "ping", "act", "resume", "view", "ACT", "ping ", "\u0000", "\u202e", "\ufeff", "💥", "ü" * 10,
           "x" * 300, "null", "true", "0", "-1", "1e9", "{}", "[]", "<script>", "../../etc/passwd", "%00", "\\",
           '"', "\ud800", "\udfff", "a\ud800b", "\udbff\udfff"]
NUMBERS = [0, 1, -1, 2, 7, 2**31, -2**31, 2**53 + 1, 2**63, -2**63, 10**20, 10**63, 10**64, 10**70, 0.5, -0.0, 1e308,
           1e-308, 3.14]
KEYS = ["type", "id", "moves", "action", "seat", "play", "attack", "do", "card", "line", "rank", "", "__proto__",
        "constructor", "\ud800", "x" * 100]


@dataclass
class Counts:
    ws_messages: int = 0
    http_requests: int = 0
    server_errors: int = 0
    refused_changes: int = 0  # state changes from refused input
    accepted: int = 0  # messages or requests that were good after all (a legal move, a valid table)
    reconnects: int = 0
    by_reply: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def tried(self) -> int:
        return self.ws_messages + self.http_requests

    def note(self, key: str) -> None:
        self.by_reply[key] = self.by_reply.get(key, 0) + 1

    def problem(self, text: str) -> None:
        if len(self.problems) < 50:
            self.problems.append(text[:600])

    def summary(self) -> str:
        top = ", ".join(f"{k} {v}" for k, v in sorted(self.by_reply.items(), key=lambda kv: -kv[1])[:14])
        return (f"messages tried: {self.tried} ({self.ws_messages} WebSocket, {self.http_requests} HTTP); "
                f"server errors: {self.server_errors}; state changes from refused input: {self.refused_changes}; "
                f"accepted as good: {self.accepted}; reconnects after oversize frames: {self.reconnects}\n"
                f"replies: {top}")


# --------------------------------------------------------------------------- random JSON
def rand_value(rng: random.Random, depth: int = 0) -> Any:
    r = rng.random()
    if depth > 3 or r < 0.45:
        kind = rng.randrange(6)
        if kind == 0:
            return rng.choice(STRINGS)
        if kind == 1:
            return rng.choice(NUMBERS)
        if kind == 2:
            return rng.choice([True, False, None])
        if kind == 3:
            return "".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0x80, 0x3000),
                                           rng.randrange(0xD800, 0xE000), rng.randrange(0, 32)]))
                           for _ in range(rng.randrange(1, 12)))
        if kind == 4:
            return rng.randrange(-10**6, 10**6)
        return float("nan") if rng.random() < 0.5 else rng.choice([float("inf"), float("-inf")])
    if r < 0.7:
        return [rand_value(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
    return {rng.choice(KEYS): rand_value(rng, depth + 1) for _ in range(rng.randrange(0, 4))}


def deep(rng: random.Random, levels: int) -> str:
    if rng.random() < 0.5:
        return "[" * levels + "]" * levels
    return '{"a":' * levels + "0" + "}" * levels


def encode(msg: Any) -> str:
    """JSON text as a client might send it (lone surrogates and NaN escaped as the JSON text allows)."""
    return json.dumps(msg, ensure_ascii=True, allow_nan=True)


def mutate_action(rng: random.Random, action: Any) -> Any:
    """A legal action bent out of shape: a value replaced, a key added or dropped, the wrong container."""
    kind = rng.randrange(8)
    if isinstance(action, dict) and action:
        key = rng.choice(list(action))
        if kind == 0:
            return {**action, key: rand_value(rng)}
        if kind == 1:
            return {**action, rng.choice(KEYS): rand_value(rng)}
        if kind == 2:
            return {k: v for k, v in action.items() if k != key}
        if kind == 3:
            return {**action, key: str(action[key]) + rng.choice(["x", "0", " ", "\ud800", ""])}
        if kind == 4:
            return {**action, key: [action[key]]}
    if kind == 5:
        return [action]
    if kind == 6:
        return json.dumps(action)
    return rand_value(rng)


# --------------------------------------------------------------------------- the tables under attack
class Arena:
    """One all-human table per game, every seat connected, plus a spectator per table."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.tables: dict[str, dict[str, Any]] = {}
        self.players: list[Player] = []
        for name in game_names():
            game = get_game(name)
            options = SEATS.get(name, {})
            n = game.num_seats(game.parse_options(options))
            seated = [Player(server) for _ in range(n)]
            self.players.extend(seated)
            r = seated[0].post("/api/tables", {"game": name, "options": options, "seats": [{"kind": "human"}] * n,
                                               "name": "P1", "listed": True})
            assert r.status_code == 201, r.text
            code = r.json()["code"]
            for i, p in enumerate(seated[1:], start=2):
                r = p.post(f"/api/tables/{code}/join", {"name": f"P{i}"})
                assert r.status_code == 200, r.text
            watcher = Player(server)
            self.players.append(watcher)
            self.tables[code] = {"game": name, "players": seated, "watcher": watcher,
                                 "ws": [p.ws(code) for p in seated], "spectator": watcher.ws(code)}
        for t in self.tables.values():
            for ws in t["ws"] + [t["spectator"]]:
                ws.until(lambda m: m["type"] == "view")

    def close(self) -> None:
        for t in self.tables.values():
            for ws in t["ws"] + [t["spectator"]]:
                with contextlib.suppress(Exception):
                    ws.close()
        for p in self.players:
            p.close()

    def info(self, code: str) -> dict[str, Any]:
        """The server's own view of a table (read on its event loop): who moves, their count, legal moves."""
        def read() -> dict[str, Any]:
            t = self.server.hub.tables[code]
            movers = [] if t.state.is_terminal() or t.status != "playing" else \
                [s for s in t.state.current_seats() if s >= 0]
            return {"movers": movers, "moves": list(t.moves),
                    "legal": {s: [a.to_json() for a in t.state.legal_actions(s)] for s in movers}}
        return self.server.call(read)

    def snapshot(self) -> Any:
        def read() -> Any:
            hub = self.server.hub
            out = []
            for code, t in sorted(hub.tables.items()):
                out.append((code, t.status, len(t.recorded), tuple(t.moves),
                            tuple((s.name, s.token_hash, s.away) for s in t.seats)))
            return tuple(out)
        return self.server.call(read)


# --------------------------------------------------------------------------- WebSocket cases
def ws_case(rng: random.Random, arena: Arena, codes: list[str], legal_pool: list[Any]) -> tuple[str, int, Any]:
    """(table code, which connection: seat index or -1 for the spectator, the frame to send)."""
    code = rng.choice(codes)
    t = arena.tables[code]
    kind = rng.randrange(16)
    who = rng.choice(list(range(len(t["ws"]))) + [-1])
    if kind <= 4 or kind == 15:  # garbage actions from the seat to move, with its true move count
        info = arena.info(code)
        if info["movers"]:
            seat = rng.choice(info["movers"])
            legal = info["legal"][seat]
            r = rng.random()
            if r < 0.4 and legal:
                action = mutate_action(rng, rng.choice(legal))
            elif r < 0.6 and legal_pool:
                action = rng.choice(legal_pool)  # another game's move
            else:
                action = rand_value(rng)
            msg: dict[str, Any] = {"type": "act", "action": action, "moves": info["moves"][seat]}
            if rng.random() < 0.5:
                msg["id"] = rng.choice([1, "a", rng.randrange(10**6)])
            return code, seat, encode(msg)
    if kind == 5:  # wrong types for every field of every message type
        msg = {"type": rng.choice(["act", "ping", "resume"])}
        for key in rng.sample(["id", "moves", "action", "seat", "type"], rng.randrange(1, 4)):
            msg[key] = rand_value(rng)
        return code, who, encode(msg)
    if kind == 6:  # the type field itself
        return code, who, encode({"type": rand_value(rng), **({"id": 1} if rng.random() < 0.5 else {})})
    if kind == 7:  # any JSON at all
        return code, who, encode(rand_value(rng))
    if kind == 8:  # deep nesting, inside the size limit
        levels = rng.choice([30, 33, 64, 200, 900, 1300])
        where = rng.randrange(3)
        body = deep(rng, levels)
        text = [body, '{"type":"ping","id":' + body + "}",
                '{"type":"act","moves":0,"action":' + body + "}"][where]
        return code, who, text[:4000] if len(text) > 4096 else text
    if kind == 9:  # text that is not JSON, or JSON with what JSON does not allow
        return code, who, rng.choice([
            "", " ", "{", "}", "{}", "[", "nul", "truee", '{"type":"ping"', '{"type":"ping",}', "{'type':'ping'}",
            '{"type":"ping","id":NaN}', '{"type":"ping","id":Infinity}', '{"type":"act","moves":-Infinity}',
            '{"type":"ping"}garbage', '{"type":"ping"}{"type":"ping"}', "\x00", "\ufeff{}",
            '{"type":"ping","id":1e999}',
            '{"type":"ping","id":' + "9" * 5000 + "}", '{"type":"ping","id":"\\ud800"}', '{"\\ud800":1}',
            '{"type":"\\udc00"}', '{"type":"ping","id":"\\ud83d\\ude00"}', '"\\ud800"', "-" * 10,
        ])
    if kind == 10:  # odd ids on otherwise good pings and resumes
        mid = rng.choice([rand_value(rng), "x" * rng.choice([64, 65, 1000]), 10**rng.randrange(60, 70), -0.0, True,
                          "\ud800", "ok", 0])
        return code, who, encode({"type": rng.choice(["ping", "resume"]), "id": mid})
    if kind == 11:  # too large for the protocol, small enough for the socket
        return code, who, encode({"type": "ping", "id": 1, "pad": "x" * rng.randrange(4100, 20000)})
    if kind == 12:
        return code, who, bytes(rng.randrange(256) for _ in range(rng.randrange(0, 64)))
    if kind == 13:  # stale or future move counts, and moves by the wrong seat or a spectator
        msg = {"type": "act", "action": rand_value(rng), "moves": rng.choice([0, 1, 5, 2**31 - 1, 2**31, -1])}
        return code, who, encode(msg)
    # kind 14: extra and missing fields
    msg = {"type": rng.choice(["act", "ping", "resume"])}
    if rng.random() < 0.5:
        msg[rng.choice(KEYS)] = rand_value(rng)
    return code, who, encode(msg)


def read_reply(ws: WsClient, ping_id: str, counts: Counts, timeout: float = 10) -> list[dict[str, Any]]:
    """Every non-view message up to the pong for ``ping_id`` (which is checked and left out)."""
    replies = []
    end = time.time() + timeout
    while True:
        text = ws.conn.recv(timeout=max(0.1, end - time.time()))
        msg = json.loads(text)
        if msg.get("type") == "view":
            continue
        if msg.get("type") == "pong" and msg.get("id") == ping_id:
            return replies
        replies.append(msg)


def check_reply(msg: dict[str, Any]) -> str | None:
    """What is wrong with a reply, or None."""
    kind = msg.get("type")
    if kind == "error":
        base = {"type", "id", "code", "message"}
        if set(msg) != base and not (msg.get("code") == "illegal" and set(msg) == base | {"reason"}):
            return f"error with fields {sorted(msg)}"
        reason = msg.get("reason")
        if reason is not None and not (isinstance(reason, dict) and set(reason) == {"code", "params"}
                                       and isinstance(reason["code"], str) and isinstance(reason["params"], dict)):
            return f"error reason {reason!r:.120}"
        if msg["code"] not in WS_CODES:
            return f"error code {msg['code']!r}"
        if not isinstance(msg["message"], str) or not msg["message"]:
            return "error without a message"
        if msg["id"] is not None and (isinstance(msg["id"], bool) or not isinstance(msg["id"], (str, int))):
            return f"error id {msg['id']!r}"
        return None
    if kind == "pong" and set(msg) == {"type", "id"}:
        return None
    if kind == "ack" and set(msg) <= {"type", "id", "ply"}:
        return None
    return f"unexpected reply {msg!r:.200}"


def run_ws(arena: Arena, counts: Counts, n: int, rng: random.Random, deadline: float) -> None:
    codes = list(arena.tables)
    legal_pool = []
    for code in codes:
        info = arena.info(code)
        for seat in info["movers"]:
            legal_pool.extend(info["legal"][seat][:5])
    before = arena.snapshot()
    i = 0
    while i < n and time.time() < deadline:
        i += 1
        code, who, frame = ws_case(rng, arena, codes, legal_pool)
        t = arena.tables[code]
        ws = t["spectator"] if who < 0 else t["ws"][who]
        counts.ws_messages += 1
        ping_id = f"check-{i}"
        try:
            ws.send(frame)
            ws.send({"type": "ping", "id": ping_id})
            replies = read_reply(ws, ping_id, counts)
        except (ConnectionClosed, TimeoutError) as exc:
            counts.server_errors += 1
            counts.problem(f"connection lost or silent after {frame!r:.300}: {exc!r}")
            replace_ws(arena, code, who, counts)
            before = arena.snapshot()
            continue
        if len(replies) != 1:
            counts.problem(f"{len(replies)} replies to {frame!r:.200}: {replies!r:.300}")
        for reply in replies:
            bad = check_reply(reply)
            if bad:
                counts.problem(f"{bad} for {frame!r:.300}")
            counts.note(reply.get("code") or reply.get("type"))
            if reply.get("code") == "server_error":
                counts.server_errors += 1
                counts.problem(f"server_error for {frame!r:.300}")
        after = arena.snapshot()
        if after != before:
            if any(r.get("type") == "ack" and "ply" in r for r in replies):
                counts.accepted += 1  # a move that was legal after all
            else:
                counts.refused_changes += 1
                counts.problem(f"state changed after a refused {frame!r:.300}")
        before = after
    # frames over the socket's own limit close the connection (as documented); the client reconnects
    for _ in range(3):
        code = rng.choice(codes)
        t = arena.tables[code]
        counts.ws_messages += 1
        try:
            t["spectator"].send("x" * 70_000)
            for _ in range(50):
                t["spectator"].conn.recv(timeout=5)
            counts.problem("a 70 kB frame did not close the connection")
        except ConnectionClosed:
            pass
        except TimeoutError:
            counts.problem("a 70 kB frame got no answer")
        replace_ws(arena, code, -1, counts)
    if arena.snapshot() != before:
        counts.refused_changes += 1
        counts.problem("state changed after oversize frames")


def replace_ws(arena: Arena, code: str, who: int, counts: Counts) -> None:
    t = arena.tables[code]
    player = t["watcher"] if who < 0 else t["players"][who]
    ws = player.ws(code)
    ws.until(lambda m: m["type"] == "view")
    ws.send({"type": "ping", "id": "back"})
    ws.until(lambda m: m["type"] == "pong" and m["id"] == "back")
    counts.reconnects += 1
    if who < 0:
        t["spectator"] = ws
    else:
        t["ws"][who] = ws


# --------------------------------------------------------------------------- HTTP cases
METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "PROPFIND"]
CONTENT_TYPES = ["application/json", "application/json; charset=utf-8", "text/plain",
                 "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/vnd.api+json",
                 "", "application/json\x00", "*/*", "application/xml"]


def http_paths(rng: random.Random, codes: list[str]) -> str:
    code = rng.choice(codes + ["ZZZZZZ", "abcdef", "", "..", "%2e%2e", "A" * 300, "💥", "%ED%A0%80", "%00", "ABC%2F"])
    game = rng.choice(game_names() + ["chess", "", "..", "%00"])
    path = rng.choice([
        "/api/games", f"/api/games/{game}/options", "/api/tables", f"/api/tables/{code}",
        f"/api/tables/{code}/join", f"/api/tables/{code}/leave", f"/api/tables/{code}/rematch",
        f"/api/tables/{code}/record", f"/api/tables/{code}/replay", f"/api/tables/{code}/replay?seat=" +
        rng.choice(["0", "-1", "99", "x", "1e3", "", "0&seat=1", "%00", "9" * 40]), "/api/pages", "/api/openapi.json",
        "/api", "/api/", "/api/nothing", f"/api/tables/{code}/nothing", "//api/tables", "/api/tables/",
        "/", f"/t/{code}", f"/t/{code}/replay", "/static/common.js", "/static/../server/db.py",
        "/static/%2e%2e/server/db.py", "/static/", "/nothing", "/docs", "/ws/tables/" + code,
        f"/api/games/{game}/rules", f"/api/tables/{code}/analysis", f"/api/tables/{code}/analysis?seat=" +
        rng.choice(["0", "-1", "99", "x", "", "%00"]), "/api/learn", f"/api/learn/{game}",
        f"/api/learn/{game}/steps/" + rng.choice(["0", "1", "-1", "99", "x", "1e3", "%00", "9" * 40]),
        f"/api/learn/{game}/steps/0/try", f"/learn/{game}",
    ])
    if rng.random() < 0.1:
        path += "?" + rng.choice(["a=1", "x=" + "y" * 2000, "%ff", "&&&", "seat=1"])
    return path


def http_body(rng: random.Random, codes: list[str]) -> bytes | None:
    kind = rng.randrange(9)
    if kind == 0:
        return None
    if kind == 1:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(0, 80)))
    if kind == 2:
        return deep(rng, rng.choice([13, 50, 900, 3000])).encode()
    if kind == 3:  # create bodies with wrong fields
        game = rng.choice(game_names() + ["chess"])
        body: dict[str, Any] = {"game": game, "seats": [{"kind": rng.choice(["human", "bot"])}] * rng.randrange(0, 5)}
        for key in rng.sample(["options", "clock", "listed", "name", "seats", "game", "extra"], rng.randrange(1, 4)):
            body[key] = rand_value(rng)
        return encode(body).encode()
    if kind == 4:  # options with odd values
        opts = {rng.choice(["players", "schools", "target", "cf_table", "solo", "fighter1", "rounds", "caesar",
                            "\ud800", "teams"]): rand_value(rng) for _ in range(rng.randrange(1, 4))}
        return encode({"options": opts}).encode()
    if kind == 5:  # join bodies
        return encode({"name": rand_value(rng), "seat": rand_value(rng)}).encode()
    if kind == 6:
        return b"x" * rng.choice([16 * 1024 + 1, 40000])
    if kind == 7:
        return rng.choice([b"{not json", b"", b"null", b"[]", b"1e999999", b'{"name": NaN}', b"\xff\xfe", b"{}",
                           b'{"name": "\\ud800"}', b'{"options": {"players": "\\udfff"}}'])
    return encode(rand_value(rng)).encode()


def http_headers(rng: random.Random, port: int, tokens: list[str]) -> dict[str, str]:
    h: dict[str, str] = {}
    if rng.random() < 0.7:
        h["content-type"] = rng.choice(CONTENT_TYPES)
    r = rng.random()
    if r < 0.15:
        h["origin"] = rng.choice(["http://evil.example", "null", f"http://127.0.0.1:{port}", "file://", "x",
                                  f"http://127.0.0.1:{port + 1}", "http://[::1", "http://127.0.0.1:99999"])
    elif r < 0.25:
        h["referer"] = rng.choice(["http://evil.example/x", f"http://127.0.0.1:{port}/t/A", "::::", ""])
    if rng.random() < 0.1:
        h["host"] = rng.choice(["evil.example", f"127.0.0.1:{port}", "localhost", "[::1]:1", "::1", "a b", "[::1",
                                "127.0.0.1.nip.io", "localhost:x"])
    if rng.random() < 0.3:
        token = rng.choice(tokens + ["a", "x" * 43 + "." + "y" * 43, "." * 5, "%00", "é" * 10, "x" * 200])
        h["cookie"] = f"ludus_player={token}"
    return h


def run_http(arena: Arena, counts: Counts, n: int, rng: random.Random, deadline: float) -> None:
    server = arena.server
    codes = list(arena.tables)
    real = [p.http.cookies.get("ludus_player") or "" for p in arena.players]
    # tokens that hold seats, cut or altered, must never work (the real ones are left out: leaving
    # would hand a seat to a bot, and the table would change by itself)
    tokens = [tok[:-1] + ("A" if tok[-1] != "A" else "B") for tok in real if tok][:3]
    tokens += [tok.split(".")[0] for tok in real if tok][:2] + [tok + "." for tok in real if tok][:2]
    before = arena.snapshot()
    with httpx.Client(base_url=server.url, timeout=20) as client:
        i = 0
        while i < n and time.time() < deadline:
            i += 1
            method = rng.choice(METHODS)
            path = http_paths(rng, codes)
            body = http_body(rng, codes) if method not in ("GET", "HEAD") or rng.random() < 0.1 else None
            headers = http_headers(rng, server.port, tokens)
            counts.http_requests += 1
            try:
                r = client.request(method, path, content=body, headers=headers)
            except (httpx.LocalProtocolError, httpx.UnsupportedProtocol, httpx.InvalidURL, UnicodeEncodeError):
                counts.http_requests -= 1  # the client library would not send it
                continue
            except httpx.HTTPError as exc:
                counts.server_errors += 1
                counts.problem(f"{method} {path}: {exc!r}")
                continue
            counts.note(f"HTTP {r.status_code}")
            if r.status_code >= 500:
                counts.server_errors += 1
                counts.problem(f"{method} {path} {headers} {body!r:.200} -> {r.status_code} {r.text[:300]}")
            if r.status_code >= 400 and method != "HEAD":
                try:
                    data = r.json()
                except ValueError:
                    data = None
                if not (isinstance(data, dict) and set(data) == {"error", "code"} and isinstance(data["error"], str)
                        and isinstance(data["code"], str)):
                    counts.problem(f"{method} {path} -> {r.status_code} not in the error shape: {r.text[:200]}")
                if "Traceback" in r.text:
                    counts.problem(f"{method} {path} leaked a traceback")
            after = arena.snapshot()
            if after != before:
                if 200 <= r.status_code < 300 and method == "POST":
                    counts.accepted += 1
                else:
                    counts.refused_changes += 1
                    counts.problem(f"{method} {path} -> {r.status_code} changed the tables")
            before = after


def run(server: LiveServer, ws_cases: int, http_cases: int, seed: int = 1, seconds: float = 50.0) -> Counts:
    """The whole hostile run against ``server``; returns the counts (``problems`` lists what went wrong)."""
    rng = random.Random(seed)
    counts = Counts()
    switch = sys.getswitchinterval()
    sys.setswitchinterval(0.0002)  # client and server share a process here: hand the GIL over quickly
    arena = Arena(server)
    start = time.time()
    try:
        run_ws(arena, counts, ws_cases, rng, start + seconds * ws_cases / max(1, ws_cases + http_cases))
        run_http(arena, counts, http_cases, rng, start + seconds)
        # still usable for everyone: every seat and spectator answers
        for _code, t in arena.tables.items():
            for ws in t["ws"] + [t["spectator"]]:
                ws.send({"type": "ping", "id": "end"})
                ws.until(lambda m: m["type"] == "pong" and m["id"] == "end")
    finally:
        arena.close()
        sys.setswitchinterval(switch)
    return counts
