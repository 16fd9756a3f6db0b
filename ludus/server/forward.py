"""Forwarding: a request about a table another worker plays is passed on to that worker.

In a group of workers on one PostgreSQL database (:mod:`.leases`), a client may reach any
of them (a shared port, a reverse proxy). Requests under ``/api/tables/CODE``, the table's
WebSocket and the quick play pool's requests are answered by the worker holding the lease;
any other worker relays them there (HTTP with its cookies, Host and Origin as the client sent them, so the
holder checks them as usual), with the client's address in a header signed by the group's
shared secret, so the holder's per-address limits count the right client. The WebSocket is
relayed frame by frame, its Origin checked by the relay (the holder sees the relay's Host);
when the holder goes away the relay closes the client's socket (1012), and the page
reconnects to whichever worker plays the table next.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import http.cookiejar
import logging
import re
import time
from typing import TYPE_CHECKING, Any

import httpx
from starlette.types import ASGIApp, Receive, Scope, Send

from .leases import QUICK

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["CLIENT_HEADER", "Forwarder", "client_address", "resource_of"]

log = logging.getLogger("ludus.server")

CLIENT_HEADER = "x-ludus-client"
_TABLE_PATH = re.compile(r"^/(?:api|ws)/tables/([A-Za-z0-9]{1,16})(?:/|$)")
_HOP = {b"connection", b"keep-alive", b"transfer-encoding", b"upgrade", b"te", b"trailer", b"proxy-authorization",
        b"content-length", CLIENT_HEADER.encode()}
# the WebSocket client writes these itself (Host: the holder's address); the relay checks Origin
_WS_SKIP = _HOP | {b"host", b"sec-websocket-key", b"sec-websocket-version", b"sec-websocket-extensions",
                   b"sec-websocket-accept", b"origin", b"cookie"}


def resource_of(path: str) -> str | None:
    """The lease a request path belongs to: a table's code, the quick play pool, or None."""
    if path == "/api/quick" or path.startswith("/api/quick/"):
        return QUICK
    m = _TABLE_PATH.match(path)
    return m.group(1).upper() if m else None


def _sign(secret: bytes, address: str) -> str:
    return hmac.new(secret, b"client " + address.encode("utf-8", "replace"), hashlib.sha256).hexdigest()


def client_address(headers: Any, peer: str | None, secret: bytes | None) -> str | None:
    """The client's address: the peer's, or the one a worker of the group forwarded (if signed)."""
    value = headers.get(CLIENT_HEADER) if secret else None
    if value and secret:
        address, _, mac = value.rpartition(" ")
        if address and hmac.compare_digest(mac, _sign(secret, address)):
            return address
    return peer


WARN_EVERY = 5.0
"""Seconds between two warnings about one unreachable worker (its leases may take a few seconds
to run out, and every client of its tables asks again meanwhile)."""


class Forwarder:
    """Outermost inside the request guard: relays the requests this worker does not answer."""

    def __init__(self, app: ASGIApp, hub: Hub) -> None:
        self.app = app
        self.hub = hub
        self.http: httpx.AsyncClient | None = None
        self.warned: dict[str, tuple[float, int]] = {}  # target -> (when last warned, failures not logged since)

    def _failed(self, what: str, target: str, exc: BaseException) -> None:
        """Log a failed relay, at most once per WARN_EVERY seconds per target (with the count left out)."""
        now = time.monotonic()
        last, quiet = self.warned.get(target, (-WARN_EVERY, 0))
        if now - last < WARN_EVERY:
            self.warned[target] = (last, quiet + 1)
            return
        self.warned[target] = (now, 0)
        log.warning("forwarding %s to %s failed: %s%s", what, target, exc,
                    f" (and {quiet} more there since the last warning)" if quiet else "")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and self.hub.leases.enabled and self.hub.started:
            resource = resource_of(scope.get("path", ""))
            target = await self.hub.where(resource) if resource else None
            if target:
                if scope["type"] == "http":
                    await self._http(scope, receive, send, target)
                else:
                    await self._websocket(scope, receive, send, target)
                return
        await self.app(scope, receive, send)

    def _client(self, scope: Scope) -> list[tuple[str, str]]:
        secret = self.hub.registry.secret
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}
        address = client_address(headers, scope["client"][0] if scope.get("client") else None, secret)
        return [(CLIENT_HEADER, f"{address} {_sign(secret, address)}")] if address and secret else []

    async def _http(self, scope: Scope, receive: Receive, send: Send, target: str) -> None:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in scope.get("headers", [])
                   if k.lower() not in _HOP]  # Host as the client sent it: the holder checks it as usual
        headers += self._client(scope)
        url = target + scope["path"] + (f"?{scope['query_string'].decode('latin-1')}" if scope.get("query_string")
                                        else "")
        if self.http is None:
            # The relay is shared by every client: it must never keep a cookie from one client's answer
            # (httpx's jar would send it with the next cookieless request: another player's identity).
            self.http = httpx.AsyncClient(timeout=30, cookies=http.cookiejar.CookieJar(
                policy=http.cookiejar.DefaultCookiePolicy(allowed_domains=[])))
        try:
            r = await self.http.request(scope["method"], url, headers=headers, content=body)
        except httpx.HTTPError as exc:
            self._failed(scope["path"], target, exc)
            from .app import send_error

            await send_error(send, 503, "the server playing this table does not answer; try again in a moment",
                             "busy")
            return
        out = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in r.headers.multi_items()
               if k.lower().encode() not in _HOP and k.lower() != "content-encoding"]
        out.append((b"content-length", str(len(r.content)).encode()))
        await send({"type": "http.response.start", "status": r.status_code, "headers": out})
        await send({"type": "http.response.body", "body": r.content})

    async def _websocket(self, scope: Scope, receive: Receive, send: Send, target: str) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidStatus

        raw = {k.lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in scope.get("headers", [])
                   if k.lower() not in _WS_SKIP]
        if b"cookie" in raw:
            headers.append(("Cookie", raw[b"cookie"]))
        headers += self._client(scope)
        url = "ws" + target[4:] + scope["path"] if target.startswith("http") else target + scope["path"]
        first = await receive()  # websocket.connect
        if first["type"] != "websocket.connect":
            return
        from .app import same_origin

        origin = raw.get(b"origin")
        # The holder sees the relay's Host, not the client's, so the page's Origin is checked here, as
        # the holder would (app.play); the relayed handshake then carries no Origin.
        if origin is not None and not same_origin(origin, raw.get(b"host")):
            await send({"type": "websocket.close", "code": 4403, "reason": "cross-site connection refused"})
            return
        try:
            upstream = await connect(url, additional_headers=headers,
                                     max_size=2**22, open_timeout=10, compression=None,
                                     user_agent_header=None)
        except (OSError, InvalidStatus, TimeoutError) as exc:
            self._failed("a WebSocket", target, exc)
            # accepted, then closed "try again later": refused before the accept, the client would
            # see a 403, as if it were not allowed in (the page reconnects either way)
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": 1013, "reason": "try again"})
            return
        await send({"type": "websocket.accept"})

        async def client_to_upstream() -> None:
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    return
                data = message.get("text") if message.get("text") is not None else message.get("bytes")
                if data is not None:
                    await upstream.send(data)

        async def upstream_to_client() -> None:
            with contextlib.suppress(ConnectionClosed):
                async for data in upstream:
                    key = "text" if isinstance(data, str) else "bytes"
                    await send({"type": "websocket.send", key: data})

        tasks = [asyncio.ensure_future(client_to_upstream()), asyncio.ensure_future(upstream_to_client())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            code = upstream.close_code or 1012
            await upstream.close()
            with contextlib.suppress(Exception):  # the client may be gone already
                await send({"type": "websocket.close", "code": code if code != 1000 else 1000,
                            "reason": upstream.close_reason or ""})
