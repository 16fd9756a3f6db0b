"""HTTP and WebSocket endpoints over the :class:`~ludus.server.hub.Hub`.

A player is known by a random secret in an HttpOnly cookie; the database keeps only its
hash. A player who logs in to an account (:mod:`.accounts`) has a second cookie, the
session, and plays with the account's key instead, on every browser they log in from.
The WebSocket sends each connection its own view and accepts small JSON messages; every
refusal is an ``error`` message to that connection alone.

Every HTTP refusal is JSON ``{"error": "...", "code": "..."}``, whatever refused it: the
routes, FastAPI's body parsing, Starlette's routing (404, 405), or the guards below (body
size, Host name, cross-origin requests). Each one, and each WebSocket ``error``, is counted
in the metrics by its code (``GET /metrics``; ``/healthz`` and ``/readyz`` answer probes).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import ipaddress
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal
from urllib.parse import urlsplit

import httpx
from fastapi import Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.types import Message as AsgiMessage

from ..core.errors import LudusError, Message
from ..core.options import suggestion_label
from ..games import game_names, get_game, translated_how_to_play
from ..i18n import DEFAULT_LANGUAGE, N_, _, get_language, use_language
from ..i18n.web import COOKIE as LANGUAGE_COOKIE
from ..i18n.web import choose_language
from . import hinting, ratings
from .accounts import SESSION_COOKIE, SESSION_DAYS, Account
from .analysis_jobs import add_analysis_routes
from .bots import bot_kinds, default_bot
from .config import ServerConfig
from .forward import Forwarder, client_address
from .hub import Connection, Hub, RateLimited, Table, dumps, hash_token, server_options
from .learn import add_learn_routes
from .observability import CONTENT_TYPE, Metrics, merge_workers
from .protocol import BODY_DEPTH, SEAT_RANGE, Checked, ProtocolError, RateLimit, error_body, json_body, parse_message
from .refusals import refusal_text
from .store import Store

__all__ = [
    "BODY_DEPTH", "COOKIE", "GC_THRESHOLDS", "HTTP_CODES", "HTTP_WORDS", "READY_TIMEOUT", "STATE_CHANGING",
    "STATUS_OF", "UVICORN_SETTINGS", "BodyLimit", "Checked", "CreateTable", "JoinTable", "OptionsCheck",
    "RequestGuard", "SeatSpec", "create_app", "error_body", "host_allowed", "json_body", "quiet_collector",
    "same_origin", "send_error",
]

log = logging.getLogger("ludus.server")
COOKIE = "ludus_player"
UVICORN_SETTINGS: dict[str, Any] = {
    "ws_max_size": 64 * 1024,  # frames beyond this close the socket; below it, the 4 KiB check answers
    "ws_per_message_deflate": False,  # views are small; compressing each one cost more CPU than it saved
}

# The cyclic garbage collector's defaults (a young collection every 700 allocations, and now and
# then a walk of the whole heap) paused the event loop for long enough to put the round trips of
# 300 busy tables in the hundreds of milliseconds (docs/server.md, "Measured load"). Reference
# counting frees nearly all that a move allocates; the collector is left only cycles to find, so
# it may run far less often, and need never walk what was loaded at start-up.
GC_THRESHOLDS = (100_000, 50, 100)


def said_option(described: dict[str, Any]) -> dict[str, Any]:
    """An option of ``GET /api/games`` in the language in use: its help, and each suggestion's label
    (the suggestion's message and words, used to say it, stay out of the answer). Not named
    ``option``: the catalogs' extractor reads ``option(`` as a game option's declaration."""
    out = {**described, "help": _(described["help"])} if described.get("help") else dict(described)
    if described.get("suggestions"):
        out["suggestions"] = [{**{k: v for k, v in entry.items() if k not in ("message", "words")},
                               "label": suggestion_label(entry)} for entry in described["suggestions"]]
    return out


def quiet_collector() -> None:
    """For a server process about to serve: collect once, freeze what start-up loaded (modules, the
    games' data and compiled code) out of the collector's sight, and collect rarely from then on."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


STATUS_OF = {
    "no_table": 404, "not_seated": 403, "no_token": 403, "table_full": 409, "seat_taken": 409,
    "no_game": 404, "not_finished": 409, "busy": 503, "server_error": 500, "rate_limited": 429, "expired": 410,
    "too_large": 413, "bad_content_type": 415, "cross_origin": 403, "bad_host": 421, "moved": 503,
    "bad_login": 401, "not_logged_in": 401, "name_taken": 409, "logged_in": 409,
    "not_rated": 400, "account_needed": 403, "no_player": 404, "bad_game": 400, "bad_players": 400, "bad_wait": 400,
}
HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large", 415: "bad_content_type"}
HTTP_WORDS = {400: "the request body could not be read: send JSON text in UTF-8",
              404: "there is nothing at this address", 405: "this address does not accept that method"}
STATE_CHANGING = {"POST", "PUT", "PATCH", "DELETE"}
READY_TIMEOUT = 2.0
"""Seconds ``GET /readyz`` waits for the database's answer before calling the server not ready."""
GROUP_SCRAPE_TIMEOUT = 2.0
"""Seconds ``GET /metrics`` of a group waits for each other worker's own figures."""


async def send_error(send: Send, status: int, message: str, code: str) -> None:
    """Answer an HTTP request from ASGI middleware, in the documented error shape."""
    body = error_body(message, code)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot"]
    bot: str | None = Field(default=None, max_length=32)


class CreateTable(Checked):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec] = Field(min_length=1, max_length=16)
    clock: int | None = None
    listed: bool = True
    hints: bool = False  # players may ask what the bot would play
    rated: bool = Field(default=False, strict=True)  # standard rules, account holders only; its end rates
    name: str | None = Field(default=None, max_length=200)


class QuickJoin(Checked):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=64)
    players: int = Field(strict=True)
    rated: bool = Field(default=False, strict=True)
    bots_after: int | None = Field(default=None, strict=True)  # seconds before bots may fill the seats
    name: str | None = Field(default=None, max_length=200)


class JoinTable(Checked):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200)
    seat: int | None = None


class Credentials(Checked):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200)
    password: str = Field(max_length=1024)


class PasswordChange(Checked):
    model_config = ConfigDict(extra="forbid")
    current: str = Field(max_length=1024)
    new: str = Field(max_length=1024)


class PasswordCheck(Checked):
    model_config = ConfigDict(extra="forbid")
    password: str = Field(max_length=1024)


class OptionsCheck(Checked):
    model_config = ConfigDict(extra="forbid")
    options: dict[str, Any] = Field(default_factory=dict)


class BodyLimit:
    """Refuse request bodies over the limit before they reach the application.

    A declared Content-Length over the limit is refused at once; a body sent without one
    (chunked) is read up to the limit first and then handed on, so it is refused the same way.
    """

    def __init__(self, app: ASGIApp, limit: int, metrics: Metrics | None = None) -> None:
        self.app, self.limit, self.metrics = app, limit, metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = None
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                declared = value
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await self._too_large(send)
            return
        if declared is not None and declared.isdigit():
            await self.app(scope, receive, send)  # the server holds the client to its declared length
            return
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                await self._too_large(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> AsgiMessage:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, send: Send) -> None:
        if self.metrics is not None:
            self.metrics.error_sent("too_large", "http")
        await send_error(send, 413, f"request body is larger than {self.limit} bytes", "too_large")


def host_allowed(host: str | None, names: set[str]) -> bool:
    """Whether a Host header names this server: any IP address, ``localhost``, or a name in ``names``.

    A browser that was led to this server by a rebound DNS name sends that name; refusing it
    keeps other sites' pages from reading or changing anything here (DNS rebinding).
    """
    if host is None:
        return True  # no Host header at all: an HTTP/1.0 script, not a browser
    host = host.strip()
    if host.startswith("["):
        inner, sep, rest = host[1:].partition("]")
        if not sep or (rest and not (rest.startswith(":") and rest[1:].isdigit())):
            return False
        try:
            return ipaddress.ip_address(inner).version == 6
        except ValueError:
            return False
    if host.count(":") > 1:  # a bare IPv6 address
        try:
            ipaddress.ip_address(host)
            return True
        except ValueError:
            return False
    name, sep, port = host.partition(":")
    if sep and not port.isdigit():
        return False
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    name = name.lower().rstrip(".")
    return bool(name) and (name == "localhost" or name in names)


def same_origin(origin: str, host: str | None) -> bool:
    """Whether an Origin (or Referer) URL names the host and port this request was sent to."""
    if host is None:
        return False
    try:
        o, h = urlsplit(origin), urlsplit("//" + host)
        if o.scheme not in ("http", "https") or not o.hostname or not h.hostname:
            return False
        o_port, h_port = o.port, h.port
    except ValueError:
        return False
    if o.hostname.lower() != h.hostname.lower():
        return False
    default = (None, 80, 443)  # a proxy in front may have changed the scheme, so either default port will do
    return o_port == h_port or (o_port in default and h_port in default)


class RequestGuard:
    """Before anything else: the Host must name this server (HTTP and WebSocket), and a browser's
    state-changing request must come from this server's own pages (Origin, else Referer)."""

    def __init__(self, app: ASGIApp, allowed_hosts: list[str], metrics: Metrics | None = None) -> None:
        self.app = app
        self.names = {n.strip().lower().rstrip(".") for n in allowed_hosts if n.strip()}
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers: dict[bytes, bytes] = {}
        for name, value in scope.get("headers", []):
            headers.setdefault(name, value)
        raw_host = headers.get(b"host")
        host = raw_host.decode("latin-1") if raw_host is not None else None
        if not host_allowed(host, self.names):
            log.info("refused a request for the host name %r", (host or "")[:80])
            await self._refuse(scope, send, 421, "this server does not serve that host name; add it with "
                                                 "ludus serve --allowed-host NAME", "bad_host")
            return
        if scope["type"] == "http" and scope.get("method", "GET") in STATE_CHANGING:
            origin = headers.get(b"origin") or headers.get(b"referer")
            if origin is not None and not same_origin(origin.decode("latin-1"), host):
                await self._refuse(scope, send, 403, "requests that change anything must come from this "
                                                     "server's own pages", "cross_origin")
                return
        await self.app(scope, receive, send)

    async def _refuse(self, scope: Scope, send: Send, status: int, message: str, code: str) -> None:
        if self.metrics is not None:
            self.metrics.error_sent(code, "http" if scope["type"] == "http" else "ws")
        if scope["type"] == "http":
            await send_error(send, status, message, code)
        elif "websocket.http.response" in scope.get("extensions", {}):  # the same JSON answer, before the upgrade
            body = error_body(message, code)
            await send({"type": "websocket.http.response.start", "status": status,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "websocket.http.response.body", "body": body})
        else:
            await send({"type": "websocket.close", "code": 4400 + status % 100, "reason": code})


def _error(exc: ProtocolError) -> Response:
    headers = {"retry-after": str(exc.retry_after)} if isinstance(exc, RateLimited) else None
    return Response(error_body(exc.message, exc.code), status_code=STATUS_OF.get(exc.code, 400),
                    media_type="application/json", headers=headers)


async def _group_metrics(hub: Hub, own: bytes, host: str) -> list[tuple[str, bytes | None]]:
    """Every live worker's own metrics (this one's as rendered), asked of each at its address with
    the scrape's Host (which the group's workers allow alike); None for one that did not answer
    within ``GROUP_SCRAPE_TIMEOUT``."""
    try:
        workers = await hub.db(hub.leases.workers)
    except Exception as exc:  # noqa: BLE001 - the database is down: this worker's figures still count
        log.warning("metrics: the group's workers could not be read: %s", type(exc).__name__)
        workers = [(hub.leases.worker, hub.leases.address)]
    if not any(worker == hub.leases.worker for worker, _ in workers):
        workers.append((hub.leases.worker, hub.leases.address))

    async def ask(client: httpx.AsyncClient, worker: str, address: str) -> tuple[str, bytes | None]:
        if worker == hub.leases.worker:
            return worker, own
        try:
            answer = await client.get(f"{address.rstrip('/')}/metrics", params={"scope": "worker"},
                                      headers={"host": host} if host else {})
            answer.raise_for_status()
            return worker, answer.content
        except httpx.HTTPError as exc:
            log.info("metrics: worker %s at %s did not answer: %s", worker, address, type(exc).__name__)
            return worker, None

    async with httpx.AsyncClient(timeout=GROUP_SCRAPE_TIMEOUT) as client:
        return list(await asyncio.gather(*(ask(client, w, a) for w, a in workers)))


def _token(hub: Hub, request: Request | WebSocket) -> str | None:
    """The player's token, if this server issued it; anything else counts as no token at all."""
    token = request.cookies.get(COOKIE)
    return token if hub.valid_token(token) else None


@dataclass(frozen=True)
class Player:
    """Who sent a request: the key their seats hold, their anonymous cookie token, their account."""

    key: str | None
    token: str | None
    account: Account | None

    def session(self) -> tuple[int, str] | None:
        return (self.account.id, self.account.session) if self.account else None


async def _player(hub: Hub, request: Request | WebSocket) -> Player:
    token = _token(hub, request)
    account = await hub.accounts.session(request.cookies.get(SESSION_COOKIE))
    key = account.key if account else hash_token(token) if token else None
    return Player(key, token, account)


def _account_json(account: Account | None) -> dict[str, Any] | None:
    return None if account is None else {"name": account.name, "created_at": account.created_at.isoformat()}


def _set_session(request: Request, response: Response, token: str) -> None:
    response.set_cookie(SESSION_COOKIE, token, max_age=SESSION_DAYS * 24 * 3600, httponly=True, samesite="lax",
                        path="/", secure=request.url.scheme == "https")


def _address(request: Request | WebSocket) -> str | None:
    """The client's address (in a group of workers, the one a worker forwarded for it)."""
    peer = request.client.host if request.client else None
    hub = getattr(request.app.state, "hub", None)
    return client_address(request.headers, peer, hub.registry.secret if hub is not None and hub.leases.enabled
                          else None)


def _set_token(request: Request, response: Response, token: str) -> None:
    response.set_cookie(COOKIE, token, max_age=365 * 24 * 3600, httponly=True, samesite="lax", path="/",
                        secure=request.url.scheme == "https")


def _same_origin(ws: WebSocket) -> bool:
    """Browsers send Origin on WebSockets; refuse other sites so they cannot ride a player's cookie."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True  # not a browser (scripts, tests); they must hold the cookie anyway
    return same_origin(origin, ws.headers.get("host"))


def create_app(config: ServerConfig | None = None, hub: Hub | None = None) -> FastAPI:
    """The API application; :func:`ludus.web.app.create_web_app` adds the pages on top."""
    config = config or ServerConfig()
    hub = hub or Hub(config)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            app.state.analysis.close()
            await hub.stop()

    app = FastAPI(title="Ludus", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url="/api/openapi.json")
    app.state.hub = hub
    metrics = hub.metrics
    app.add_middleware(Forwarder, hub=hub)  # a group of workers: requests for another's tables go there
    app.add_middleware(BodyLimit, limit=config.max_body_bytes, metrics=metrics)
    app.add_middleware(RequestGuard, allowed_hosts=list(config.allowed_hosts), metrics=metrics)

    @app.exception_handler(ProtocolError)
    async def _protocol_error(request: Request, exc: ProtocolError) -> Response:
        metrics.error_sent(exc.code, "http")
        if exc.message_template:  # an error the catalog can say: in the reader's language
            lang = choose_language(request.cookies.get(LANGUAGE_COOKIE), request.headers.get("accept-language"))
            exc.message = exc.said_in(lang)
        return _error(exc)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> Response:
        problems = []
        for err in exc.errors()[:5]:
            where = ".".join(str(p)[:40] for p in err.get("loc", ()) if p != "body")
            problems.append(f"{where or 'body'}: {str(err.get('msg'))[:200]}")
        metrics.error_sent("bad_request", "http")
        return Response(error_body("; ".join(problems) or "invalid request", "bad_request"), status_code=422,
                        media_type="application/json")

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        """Starlette's and FastAPI's own refusals (no route, wrong method, a body that cannot be read)."""
        status = exc.status_code
        code = HTTP_CODES.get(status, "bad_request" if 400 <= status < 500 else "server_error")
        words = HTTP_WORDS.get(status) or (exc.detail if isinstance(exc.detail, str) else "the request was refused")
        headers = {k: v for k, v in (exc.headers or {}).items() if k.lower() == "allow"}
        metrics.error_sent(code, "http")
        return Response(error_body(words, code), status_code=status, media_type="application/json",
                        headers=headers or None)

    @app.exception_handler(Exception)
    async def _server_error(request: Request, exc: Exception) -> Response:
        """A bug: the client gets the documented shape, the log gets the traceback (never the client)."""
        metrics.error_sent("server_error", "http")
        return Response(error_body("the server failed to handle this request", "server_error"), status_code=500,
                        media_type="application/json")

    @app.exception_handler(LudusError)
    async def _ludus_error(request: Request, exc: LudusError) -> Response:
        metrics.error_sent("bad_request", "http")
        return Response(error_body(str(exc), "bad_request"), status_code=400, media_type="application/json")

    # ------------------------------------------------------------- health and metrics
    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, str]:
        """The process is alive and its event loop answers (nothing else is checked)."""
        return {"status": "ok"}

    @app.get("/readyz", include_in_schema=False)
    async def readyz() -> Response:
        """Ready for players: start-up is done (tables resumed) and the database answers a trivial query."""
        reason, message = None, ""
        if hub.stopping:
            reason, message = "stopping", "the server is shutting down"
        elif not hub.started or hub.store is None:
            reason, message = "starting", "the server has not finished starting"
        else:
            try:
                await asyncio.wait_for(hub.db(hub.store.ping), READY_TIMEOUT)
            except TimeoutError:
                reason, message = "database", f"the database did not answer within {READY_TIMEOUT:g} s"
            except Exception as exc:  # noqa: BLE001 - any failure means not ready; the details go to the log only
                log.warning("readiness check: the database did not answer: %s",
                            str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
                reason, message = "database", f"the database did not answer ({type(exc).__name__})"
        if reason is None:
            return JSONResponse({"status": "ready"})
        return JSONResponse({"status": "unavailable", "reason": reason, "error": message, "code": "not_ready"},
                            status_code=503, headers={"cache-control": "no-store"})

    @app.get("/metrics", include_in_schema=False)
    async def prometheus_metrics(request: Request, scope: str | None = Query(None, max_length=16)) -> Response:
        """Prometheus text format, rendered on the event loop (the tables are counted here). In a
        group of workers (PostgreSQL), the whole group's, each sample labelled with its worker, so
        that one scrape of the shared address sees every worker whichever answers it;
        ``?scope=worker`` is this worker's own (what the others ask for)."""
        own = metrics.render()
        if scope == "worker" or not hub.leases.enabled:
            body = own
        else:
            body = merge_workers(await _group_metrics(hub, own, request.headers.get("host", "")))
        return Response(body, media_type=CONTENT_TYPE, headers={"cache-control": "no-store"})

    # ------------------------------------------------------------- games
    @app.get("/api/games")
    async def games(request: Request) -> list[dict[str, Any]]:
        """Every game, with its title, summary and options' help in the reader's language (cookie
        or Accept-Language; the terminal's translations of ``ludus games``), English otherwise."""
        lang = choose_language(request.cookies.get(LANGUAGE_COOKIE), request.headers.get("accept-language"))
        out = []
        with use_language(lang):
            for name in game_names():
                game = get_game(name)
                options = [said_option(o) for o in server_options(game)]
                out.append({"name": name, "title": _(game.title), "summary": _(game.summary) if game.summary else "",
                            "min_seats": game.min_seats, "max_seats": game.max_seats, "options": options,
                            "bots": bot_kinds(game), "default_bot": default_bot(game), "rated": _rated_json(game)})
        return out

    @app.post("/api/games/{name}/options", dependencies=[Depends(json_body)])
    async def check_game_options(name: str, body: OptionsCheck) -> dict[str, Any]:
        from .hub import check_options

        if name not in game_names():
            raise ProtocolError("bad_game", Message(N_("unknown game '{name}'"), name=name))
        game = get_game(name)
        opts = check_options(game, body.options)
        return {"seats": game.num_seats(opts), "seat_names": game.seat_names(opts)}

    def _rules(name: str, values: dict[str, Any], request: Request) -> dict[str, Any]:
        """The rules in the reader's language where the game ships them translated (the same text
        ``ludus rules`` shows), each option's help through the terminal's catalog; else English."""
        from .hub import check_options
        from .rules import explain_data_values, explain_options, render_markdown, rules_html

        if name not in game_names():
            raise ProtocolError("no_game", Message(N_("unknown game '{name}'; GET /api/games lists them"), name=name))
        game = get_game(name)
        opts = check_options(game, values)  # the same refusal as the options check above
        lang = choose_language(request.cookies.get(LANGUAGE_COOKIE), request.headers.get("accept-language"))
        translated = translated_how_to_play(name, lang) if lang != "en" else None
        html = render_markdown(translated, panel=True) if translated else rules_html(name)
        with use_language(lang):
            options = [{**o, "help": _(o["help"])} if o.get("help") else o for o in explain_options(game, opts)]
            title = _(game.title)
        return {"game": name, "title": title, "html": html, "options": options,
                "data_values": explain_data_values(game, opts), "lang": lang if translated else "en"}

    @app.get("/api/games/{name}/rules")
    async def game_rules(name: str, request: Request) -> dict[str, Any]:
        """The game's rules as safe HTML, with its options at their defaults."""
        return _rules(name, {}, request)

    @app.post("/api/games/{name}/rules", dependencies=[Depends(json_body)])
    async def game_rules_for(name: str, body: OptionsCheck, request: Request) -> dict[str, Any]:
        """The same, with the options explained as a lobby form or a table has set them."""
        return _rules(name, body.options, request)

    # ------------------------------------------------------------- tables
    @app.get("/api/tables")
    async def lobby(request: Request) -> list[dict[str, Any]]:
        return [_titled(request, info) for info in await hub.lobby()]

    async def seated(request: Request, wants_seat: bool) -> tuple[Player, str | None]:
        """The player, and the cookie token to hand out when a player without one takes a seat."""
        me = await _player(hub, request)
        if me.key is not None or not wants_seat:
            return me, None
        token = hub.issue_token()
        return Player(hash_token(token), token, None), token

    @app.post("/api/tables", status_code=201, dependencies=[Depends(json_body)])
    async def create(body: CreateTable, request: Request) -> JSONResponse:
        me, new_token = await seated(request, body.name is not None)
        name = me.account.name if me.account and body.name is not None else body.name  # an account plays by its name
        table = await hub.create(body.game, body.options, [s.model_dump() for s in body.seats], body.clock,
                                 body.listed, me.key, name, address=_address(request), hints=body.hints,
                                 rated=body.rated, member=me.account is not None)
        response = JSONResponse(_table_info(table, me.key), status_code=201)
        if new_token:
            _set_token(request, response, new_token)
        return response

    @app.get("/api/tables/{code}")
    async def table_info(code: str, request: Request) -> dict[str, Any]:
        table = await hub.get(code)
        return _titled(request, _table_info(table, (await _player(hub, request)).key))

    @app.post("/api/tables/{code}/join", dependencies=[Depends(json_body)])
    async def join(code: str, body: JoinTable, request: Request) -> JSONResponse:
        table = await hub.get(code)
        me, new_token = await seated(request, True)
        assert me.key is not None
        await hub.join(table, me.key, me.account.name if me.account else body.name, body.seat,
                       member=me.account is not None)
        response = JSONResponse(_titled(request, _table_info(table, me.key)))
        if new_token:
            _set_token(request, response, new_token)
        return response

    @app.post("/api/tables/{code}/leave")
    async def leave(code: str, request: Request) -> dict[str, Any]:
        table = await hub.get(code)
        key = (await _player(hub, request)).key
        await hub.leave(table, key)
        return _table_info(table, key)

    @app.post("/api/tables/{code}/rematch")
    async def rematch(code: str, request: Request) -> dict[str, Any]:
        table = await hub.get(code)
        key = (await _player(hub, request)).key
        new = await hub.rematch(table, key)
        return _table_info(new, key)

    @app.get("/api/tables/{code}/record")
    async def record(code: str, request: Request) -> Response:
        table = await hub.get(code)
        data = hub.record_for(table, table.seat_of((await _player(hub, request)).key))
        suffix = "" if data.get("complete", True) else "-partial"
        return Response(json.dumps(data, indent=1, ensure_ascii=False), media_type="application/json", headers={
            "content-disposition": f'attachment; filename="ludus-{table.game.name}-{table.code}{suffix}.json"'})

    @app.get("/api/tables/{code}/replay")
    async def replay(code: str, request: Request, seat: int | None = None) -> dict[str, Any]:
        table = await hub.get(code)
        if seat is not None and not 0 <= seat < len(table.seats):
            raise ProtocolError("bad_seat", Message(SEAT_RANGE, high=len(table.seats) - 1))
        viewer = seat if seat is not None else table.seat_of((await _player(hub, request)).key)
        frames = hub.replay_frames(table, viewer)
        return {"table": _titled(request, table.public()), "names": table.names(), "viewer": viewer, "frames": frames}

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
        metrics.connections.inc()
        try:
            await _serve_socket(hub, table, ws, config)
        finally:
            metrics.connections.dec()

    # ------------------------------------------------------------- accounts (ludus.server.accounts)
    accounts = hub.accounts

    @app.get("/api/me")
    async def me(request: Request, games: bool = True) -> dict[str, Any]:
        """The player's account (or null), their games, unfinished first, and their ratings: with or
        without an account. ``games=false``: the account only (each page's header asks that)."""
        player = await _player(hub, request)
        mine = [] if player.account is None or not games else \
            await hub.db(ratings.ratings_of, store().engine, f"account:{player.account.id}")
        return {"account": _account_json(player.account),
                "games": await accounts.games(player.key) if games else [], "ratings": mine}

    # ------------------------------------------------------------- quick play (ludus.server.quickplay)
    @app.post("/api/quick", dependencies=[Depends(json_body)])
    async def quick_join(body: QuickJoin, request: Request) -> JSONResponse:
        """Wait for a table of this game and player count (again: the place in line is kept)."""
        me, new_token = await seated(request, True)
        assert me.key is not None
        name = me.account.name if me.account else body.name
        if name is None:
            raise ProtocolError("bad_name", Message(N_("please give a name")))
        hub.quick.join(me.key, name, body.game, body.players, body.rated, body.bots_after, me.account is not None)
        await hub.quick.match_once()  # the player who completes a pool learns it in this answer
        response = JSONResponse(hub.quick.status(me.key))
        if new_token:
            _set_token(request, response, new_token)
        return response

    @app.get("/api/quick")
    async def quick_status(request: Request) -> dict[str, Any]:
        """Waiting, matched (with the table's code) or none; asking keeps the place in the pool."""
        return hub.quick.status((await _player(hub, request)).key)

    @app.post("/api/quick/leave")
    async def quick_leave(request: Request) -> dict[str, Any]:
        return hub.quick.leave((await _player(hub, request)).key)

    # ------------------------------------------------------------- ratings (ludus.server.ratings)
    def store() -> Store:
        assert hub.store is not None
        return hub.store

    @app.get("/api/ratings/{game}")
    async def leaderboard(game: str, limit: int = Query(100, ge=1, le=500)) -> dict[str, Any]:
        """A game's leaderboard, one list per pool of player counts."""
        if game not in game_names():
            raise ProtocolError("no_game", Message(N_("unknown game '{name}'; games here: {games}"), name=game,
                                                  games=", ".join(game_names())))
        return await hub.db(ratings.leaderboard, store().engine, game, limit)

    @app.get("/api/players/{name}")
    async def player_ratings(name: str) -> dict[str, Any]:
        """A player's public page: their name, since when, and their ratings with their history."""
        row = await hub.db(accounts.public_row, name)
        if row is None:
            raise ProtocolError("no_player", Message(N_("there is no player '{name}'"), name=name[:40]))
        return {"name": row.name, "kind": "account", "since": _aware(row.created_at).isoformat(),
                "href": f"/players/{row.name}",
                "ratings": await hub.db(ratings.ratings_of, store().engine, f"account:{row.id}")}

    @app.get("/api/bots/{kind}")
    async def bot_ratings(kind: str) -> dict[str, Any]:
        """A bot kind's public ratings (the kinds the games offer)."""
        offered = {k for name in game_names() for k in bot_kinds(get_game(name))}
        if kind not in offered:
            raise ProtocolError("no_player", Message(N_("there is no bot '{name}'"), name=kind[:40]))
        subject = ratings.bot_subject(kind)
        return {"name": f"{kind.capitalize()} bot", "kind": "bot", "since": None, "href": f"/bots/{kind}",
                "ratings": await hub.db(ratings.ratings_of, store().engine, subject)}

    async def logged_in(request: Request) -> Account:
        account = (await _player(hub, request)).account
        if account is None:
            raise ProtocolError("not_logged_in", Message(N_("you are not logged in")))
        return account

    @app.post("/api/account/signup", status_code=201, dependencies=[Depends(json_body)])
    async def signup(body: Credentials, request: Request) -> JSONResponse:
        player = await _player(hub, request)
        if player.account is not None:
            raise ProtocolError("logged_in", Message(N_("you are logged in as {name}; log out first"),
                                                    name=player.account.name))
        account, token = await accounts.signup(body.name, body.password, player.key, _address(request))
        response = JSONResponse({"account": _account_json(account)}, status_code=201)
        _set_session(request, response, token)
        return response

    @app.post("/api/account/login", dependencies=[Depends(json_body)])
    async def login(body: Credentials, request: Request) -> JSONResponse:
        player = await _player(hub, request)
        anonymous = hash_token(player.token) if player.token else None  # its seats move to the account
        account, token = await accounts.login(body.name, body.password, anonymous, _address(request))
        if player.account is not None and player.account.session != account.session:
            await accounts.logout(player.account)  # logging in as someone else ends the session before
        response = JSONResponse({"account": _account_json(account)})
        _set_session(request, response, token)
        return response

    @app.post("/api/account/logout")
    async def logout(request: Request) -> JSONResponse:
        account = (await _player(hub, request)).account
        if account is not None:
            await accounts.logout(account)
        response = JSONResponse({"account": None})
        response.delete_cookie(SESSION_COOKIE, path="/")
        return response

    @app.post("/api/account/logout-everywhere")
    async def logout_everywhere(request: Request) -> JSONResponse:
        await accounts.logout_everywhere(await logged_in(request))
        response = JSONResponse({"account": None})
        response.delete_cookie(SESSION_COOKIE, path="/")
        return response

    @app.post("/api/account/password", dependencies=[Depends(json_body)])
    async def change_password(body: PasswordChange, request: Request) -> dict[str, Any]:
        account = await logged_in(request)
        await accounts.change_password(account, body.current, body.new, _address(request))
        return {"account": _account_json(account)}

    @app.post("/api/account/delete", dependencies=[Depends(json_body)])
    async def delete_account(body: PasswordCheck, request: Request) -> JSONResponse:
        await accounts.delete(await logged_in(request), body.password, _address(request))
        response = JSONResponse({"account": None})
        response.delete_cookie(SESSION_COOKIE, path="/")
        return response

    add_learn_routes(app)  # the guided first games: /api/learn (ludus.server.learn)
    add_analysis_routes(app, hub)  # post-game analysis: /api/tables/{code}/analysis (ludus.server.analysis_jobs)
    return app


def _titled(request: Request, info: dict[str, Any]) -> dict[str, Any]:
    """A table's description with its game's title in the reader's language (the terminal's words for it)."""
    lang = choose_language(request.cookies.get(LANGUAGE_COOKIE), request.headers.get("accept-language"))
    if lang != "en" and isinstance(info.get("title"), str):
        with use_language(lang):
            info = {**info, "title": _(info["title"])}
    return info


def _rated_json(game: Any) -> dict[str, Any] | None:
    rated = ratings.rated_play(game)
    if rated is None:
        return None
    # the note in the language in use where the catalog has it; note_lang says which it is in
    note = _(rated.note) if rated.note else ""
    return {"pools": [{"pool": p.key, "label": p.label, "min_seats": p.min_seats, "max_seats": p.max_seats}
                      for p in rated.pools], "choose": list(rated.choose), "note": note,
            "note_lang": get_language() if note != rated.note else DEFAULT_LANGUAGE}


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _table_info(table: Table, key: str | None) -> dict[str, Any]:
    info = table.public()
    info["you"] = table.seat_of(key)
    info["names"] = table.names()
    return info


async def _serve_socket(hub: Hub, table: Table, ws: WebSocket, config: ServerConfig) -> None:
    """One accepted WebSocket, from taking its place at the table to its end."""
    player = await _player(hub, ws)
    seat = table.seat_of(player.key)
    conn = Connection(ws.send_text, seat, RateLimit(config.rate_per_second, config.rate_burst), _address(ws))
    conn.session = player.session()
    conn.lang = choose_language(ws.cookies.get(LANGUAGE_COOKIE), ws.headers.get("accept-language"))
    try:
        hub.connect(table, conn)
    except ProtocolError as exc:
        hub.metrics.error_sent(exc.code, "ws")
        await ws.send_text(dumps({"type": "error", "id": None, "code": exc.code, "message": exc.said_in(conn.lang)}))
        await ws.close(code=4404 if exc.code == "expired" else 4429, reason=exc.code)
        return
    sender = hub.spawn(_sender(hub, table, conn, ws), f"sender at table {table.code}")
    try:
        await _receiver(hub, table, conn, ws, config)
    except WebSocketDisconnect:
        pass
    finally:
        hub.disconnect(table, conn)
        sender.cancel()


async def _sender(hub: Hub, table: Table, conn: Connection, ws: WebSocket) -> None:
    """Send queued replies first, then the newest view; views in between are skipped on purpose.

    Nothing may end this task silently: a failure other than the client going away is logged
    and the socket closed, so the client notices and reconnects instead of waiting forever.
    """
    try:
        while not conn.closed:
            await conn.wake.wait()
            conn.wake.clear()
            while conn.outbox:
                await conn.send(dumps(conn.outbox.popleft()))
            if conn.close_with is not None:
                code, reason = conn.close_with
                conn.closed = True
                await ws.close(code=code, reason=reason)
                return
            if conn.dirty and not conn.closed:
                conn.dirty = False
                await conn.send(hub.view_text(table, conn))
    except asyncio.CancelledError:
        pass
    except (WebSocketDisconnect, OSError):
        conn.closed = True
    except Exception:
        conn.closed = True
        if ws.application_state.name == "DISCONNECTED" or ws.client_state.name == "DISCONNECTED":
            return  # the socket went away while we wrote to it: nothing to report
        log.exception("sending to a connection at table %s failed; closing it", table.code)
        with contextlib.suppress(Exception):  # already closing or gone
            await ws.close(code=1011, reason="server error")


async def _receiver(hub: Hub, table: Table, conn: Connection, ws: WebSocket, config: ServerConfig) -> None:
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        mid = None
        try:
            if not conn.rate.allow(time.monotonic()):
                raise ProtocolError("rate_limited", Message(N_("too many messages; slow down")))
            msg = parse_message(message.get("text") if message.get("text") is not None else message.get("bytes"),
                                config.max_message_bytes)
            mid = msg.get("id")
            await _handle(hub, table, conn, msg, mid)
        except ProtocolError as exc:
            hub.metrics.error_sent(exc.code, "ws")
            reply = exc.message_json(mid)
            if exc.reason is not None:  # a rule's refusal: in the reader's language (docs/i18n.md)
                reply["message"] = refusal_text(table.game.name, exc.message, exc.reason, conn.lang)
            else:  # the server's own refusals too, where the catalog has them
                reply["message"] = exc.said_in(conn.lang)
            conn.push(reply)
            if exc.code == "stale":
                conn.mark_dirty()
        except (asyncio.CancelledError, WebSocketDisconnect):
            raise
        except Exception:  # one message's failure must not end the connection: answer it and go on
            log.exception("a message at table %s failed", table.code)
            hub.metrics.error_sent("server_error", "ws")
            conn.push({"type": "error", "id": mid, "code": "server_error",
                       "message": "the server failed to handle that message; nothing changed, please retry"})
        if conn.closed:
            return
        if len(conn.outbox) > 256:
            await ws.close(code=4429, reason="too many unread replies")
            return


async def _handle(hub: Hub, table: Table, conn: Connection, msg: dict[str, Any], mid: Any) -> None:
    kind = msg["type"]
    if kind == "ping":
        conn.push({"type": "pong", "id": mid})
    elif kind == "resume":
        if conn.seat is None:
            raise ProtocolError("not_seated", Message(N_("spectators have no seat to take back")))
        await hub.hand_back(table, conn.seat)
        conn.push({"type": "ack", "id": mid})
    elif kind == "act":
        if conn.seat is not None and table.seats[conn.seat].away is not None:
            await hub.hand_back(table, conn.seat)
        ply = await hub.submit(table, conn.seat, msg["action"], msg["moves"], mid=mid, auto=msg.get("auto", False))
        conn.push({"type": "ack", "id": mid, "ply": ply})
    elif kind == "hint":
        hinting.ask(hub, table, conn, mid)  # answered later, to this connection only
