"""HTTP and WebSocket endpoints over the :class:`~ludus.server.hub.Hub`.

A player is known by a random secret in an HttpOnly cookie (no account); the database
keeps only its hash. The WebSocket sends each connection its own view and accepts small
JSON messages; every refusal is an ``error`` message to that connection alone.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from contextlib import asynccontextmanager
from typing import Any, Literal
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..core.errors import LudusError
from ..games import game_names, get_game
from .bots import bot_kinds, default_bot
from .config import ServerConfig
from .hub import Connection, Hub, Table, dumps, new_token, server_options
from .protocol import ProtocolError, RateLimit, parse_message

log = logging.getLogger("ludus.server")
COOKIE = "ludus_player"
UVICORN_SETTINGS: dict[str, Any] = {
    "ws_max_size": 64 * 1024,  # frames beyond this close the socket; below it, the 4 KiB check answers
    "ws_per_message_deflate": False,  # views are small; compressing each one cost more CPU than it saved
}

STATUS_OF = {
    "no_table": 404, "not_seated": 403, "no_token": 403, "table_full": 409, "seat_taken": 409,
    "not_finished": 409, "busy": 503, "server_error": 500,
}


class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot"]
    bot: str | None = Field(default=None, max_length=32)


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec] = Field(min_length=1, max_length=16)
    clock: int | None = None
    listed: bool = True
    name: str | None = Field(default=None, max_length=200)


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200)
    seat: int | None = None


class OptionsCheck(BaseModel):
    model_config = ConfigDict(extra="forbid")
    options: dict[str, Any] = Field(default_factory=dict)


class BodyLimit:
    """Refuse request bodies over the limit before they are read into memory."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await self._too_large(send)
                return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise ProtocolError("too_large", "request body too large")
            return message

        try:
            await self.app(scope, limited, send)
        except ProtocolError:
            await self._too_large(send)

    async def _too_large(self, send: Send) -> None:
        body = json.dumps({"error": f"request body is larger than {self.limit} bytes", "code": "too_large"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


def _error(exc: ProtocolError) -> JSONResponse:
    return JSONResponse({"error": exc.message, "code": exc.code}, status_code=STATUS_OF.get(exc.code, 400))


def _token(request: Request | WebSocket) -> str | None:
    token = request.cookies.get(COOKIE)
    return token if token and len(token) <= 128 else None


def _set_token(request: Request, response: Response, token: str) -> None:
    response.set_cookie(COOKIE, token, max_age=365 * 24 * 3600, httponly=True, samesite="lax", path="/",
                        secure=request.url.scheme == "https")


def _same_origin(ws: WebSocket) -> bool:
    """Browsers send Origin on WebSockets; refuse other sites so they cannot ride a player's cookie."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True  # not a browser (scripts, tests); they must hold the cookie anyway
    host = ws.headers.get("host", "")
    return urlsplit(origin).netloc.lower() == host.lower()


def create_app(config: ServerConfig | None = None, hub: Hub | None = None) -> FastAPI:
    """The API application; :func:`ludus.web.app.create_web_app` adds the pages on top."""
    config = config or ServerConfig()
    hub = hub or Hub(config)

    @asynccontextmanager
    async def lifespan(app: FastAPI):  # type: ignore[no-untyped-def]
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(title="Ludus", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url="/api/openapi.json")
    app.state.hub = hub
    app.add_middleware(BodyLimit, limit=config.max_body_bytes)

    @app.exception_handler(ProtocolError)
    async def _protocol_error(request: Request, exc: ProtocolError) -> JSONResponse:
        return _error(exc)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            problems.append(f"{where or 'body'}: {err.get('msg')}")
        return JSONResponse({"error": "; ".join(problems) or "invalid request", "code": "bad_request"},
                            status_code=422)

    @app.exception_handler(LudusError)
    async def _ludus_error(request: Request, exc: LudusError) -> JSONResponse:
        return JSONResponse({"error": str(exc), "code": "bad_request"}, status_code=400)

    # ------------------------------------------------------------- games
    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        out = []
        for name in game_names():
            game = get_game(name)
            out.append({"name": name, "title": game.title, "summary": game.summary, "min_seats": game.min_seats,
                        "max_seats": game.max_seats, "options": server_options(game), "bots": bot_kinds(game),
                        "default_bot": default_bot(game)})
        return out

    @app.post("/api/games/{name}/options")
    async def check_game_options(name: str, body: OptionsCheck) -> dict[str, Any]:
        from .hub import check_options

        if name not in game_names():
            raise ProtocolError("bad_game", f"unknown game {name!r}")
        game = get_game(name)
        opts = check_options(game, body.options)
        return {"seats": game.num_seats(opts), "seat_names": game.seat_names(opts)}

    # ------------------------------------------------------------- tables
    @app.get("/api/tables")
    async def lobby() -> list[dict[str, Any]]:
        return hub.lobby()

    @app.post("/api/tables", status_code=201)
    async def create(body: CreateTable, request: Request) -> JSONResponse:
        token = _token(request) or (new_token() if body.name is not None else None)
        table = await hub.create(body.game, body.options, [s.model_dump() for s in body.seats], body.clock,
                                 body.listed, token, body.name)
        response = JSONResponse(_table_info(table, token), status_code=201)
        if token and token != _token(request):
            _set_token(request, response, token)
        return response

    @app.get("/api/tables/{code}")
    async def table_info(code: str, request: Request) -> dict[str, Any]:
        table = await hub.get(code)
        return _table_info(table, _token(request))

    @app.post("/api/tables/{code}/join")
    async def join(code: str, body: JoinTable, request: Request) -> JSONResponse:
        table = await hub.get(code)
        token = _token(request) or new_token()
        await hub.join(table, token, body.name, body.seat)
        response = JSONResponse(_table_info(table, token))
        if token != _token(request):
            _set_token(request, response, token)
        return response

    @app.post("/api/tables/{code}/leave")
    async def leave(code: str, request: Request) -> dict[str, Any]:
        table = await hub.get(code)
        await hub.leave(table, _token(request))
        return _table_info(table, _token(request))

    @app.post("/api/tables/{code}/rematch")
    async def rematch(code: str, request: Request) -> dict[str, Any]:
        table = await hub.get(code)
        new = await hub.rematch(table, _token(request))
        return _table_info(new, _token(request))

    @app.get("/api/tables/{code}/record")
    async def record(code: str, request: Request) -> Response:
        table = await hub.get(code)
        data = hub.record_for(table, table.seat_of(_token(request)))
        suffix = "" if data.get("complete", True) else "-partial"
        return Response(json.dumps(data, indent=1, ensure_ascii=False), media_type="application/json", headers={
            "content-disposition": f'attachment; filename="ludus-{table.game.name}-{table.code}{suffix}.json"'})

    @app.get("/api/tables/{code}/replay")
    async def replay(code: str, request: Request, seat: int | None = None) -> dict[str, Any]:
        table = await hub.get(code)
        if seat is not None and not 0 <= seat < len(table.seats):
            raise ProtocolError("bad_seat", f"seat must be 0 to {len(table.seats) - 1}")
        viewer = seat if seat is not None else table.seat_of(_token(request))
        frames = hub.replay_frames(table, viewer)
        return {"table": table.public(), "names": table.names(), "viewer": viewer, "frames": frames}

    # ------------------------------------------------------------- live play
    @app.websocket("/ws/tables/{code}")
    async def play(ws: WebSocket, code: str) -> None:
        if not _same_origin(ws):
            await ws.close(code=4403, reason="cross-site connection refused")
            return
        try:
            table = await hub.get(code)
        except ProtocolError as exc:
            await ws.close(code=4404, reason=exc.message[:120])
            return
        await ws.accept()
        seat = table.seat_of(_token(ws))
        conn = Connection(ws.send_text, seat, RateLimit(config.rate_per_second, config.rate_burst))
        try:
            hub.connect(table, conn)
        except ProtocolError as exc:
            await ws.send_text(dumps({"type": "error", "code": exc.code, "message": exc.message}))
            await ws.close(code=4429)
            return
        sender = asyncio.ensure_future(_sender(hub, table, conn))
        try:
            await _receiver(hub, table, conn, ws, config)
        except WebSocketDisconnect:
            pass
        finally:
            hub.disconnect(table, conn)
            sender.cancel()

    return app


def _table_info(table: Table, token: str | None) -> dict[str, Any]:
    info = table.public()
    info["you"] = table.seat_of(token)
    info["names"] = table.names()
    return info


async def _sender(hub: Hub, table: Table, conn: Connection) -> None:
    """Send queued replies first, then the newest view; views in between are skipped on purpose."""
    try:
        while not conn.closed:
            await conn.wake.wait()
            conn.wake.clear()
            while conn.outbox:
                await conn.send(dumps(conn.outbox.popleft()))
            if conn.dirty and not conn.closed:
                conn.dirty = False
                await conn.send(dumps(hub.view_for(table, conn)))
    except (WebSocketDisconnect, RuntimeError, OSError):
        conn.closed = True
    except asyncio.CancelledError:
        pass


async def _receiver(hub: Hub, table: Table, conn: Connection, ws: WebSocket, config: ServerConfig) -> None:
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        mid = None
        try:
            if not conn.rate.allow(time.monotonic()):
                raise ProtocolError("rate_limited", "too many messages; slow down")
            msg = parse_message(message.get("text") if message.get("text") is not None else message.get("bytes"),
                                config.max_message_bytes)
            mid = msg.get("id")
            kind = msg["type"]
            if kind == "ping":
                conn.push({"type": "pong", "id": mid})
            elif kind == "resume":
                if conn.seat is None:
                    raise ProtocolError("not_seated", "spectators have no seat to take back")
                await hub.hand_back(table, conn.seat)
                conn.push({"type": "ack", "id": mid})
            elif kind == "act":
                if conn.seat is not None and table.seats[conn.seat].away is not None:
                    await hub.hand_back(table, conn.seat)
                ply = await hub.submit(table, conn.seat, msg["action"], msg["moves"])
                conn.push({"type": "ack", "id": mid, "ply": ply})
        except ProtocolError as exc:
            conn.push({"type": "error", "id": mid, "code": exc.code, "message": exc.message})
            if exc.code == "stale":
                conn.mark_dirty()
        if len(conn.outbox) > 256:
            await ws.close(code=4429, reason="too many unread replies")
            return
