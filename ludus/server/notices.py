"""Notices between the workers of a group: what one worker changed that another one shows.

A table lives in the memory of the worker that plays it (:mod:`.leases`). When an account's
change on one worker touches seats or sessions at tables another worker plays (a sign-up or
login carries the browser's seats over, an account is deleted, its sessions end), the worker
making it adds a PostgreSQL ``NOTIFY`` to the very transaction that changes the rows. The
database delivers it to every worker of the group once (and only if) that transaction
commits; each worker ``LISTEN``s on a connection of its own and makes the same change to the
tables it plays, under each table's lock, as the worker that made it did to its own.

The channel is named after a hash of the group's secret, so two groups sharing a database
server (in different schemas) do not hear each other. A payload holds the seat keys and the
session hashes concerned: values the database holds anyway, sent only to it and to the
workers listening there, and never logged. A worker that loses its listening connection
reconnects by itself; what it missed meanwhile it shows once the table is loaded again
(the database is right all along). SQLite and a lone PostgreSQL server need none of this.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, text

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["Notices"]

log = logging.getLogger("ludus.server")

_NOTIFY = text("SELECT pg_notify(:channel, :payload)")

Handler = Callable[[dict[str, Any]], Awaitable[None]]


class Notices:
    """Sending notices inside write transactions, and hearing the other workers' (PostgreSQL groups)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.channel = ""
        self.handlers: dict[str, Handler] = {}
        self.task: asyncio.Task | None = None
        self.listening = asyncio.Event()
        self.heard = 0  # notices from other workers handled (for tests)

    @property
    def enabled(self) -> bool:
        return self.hub.leases.enabled and bool(self.channel)

    def on(self, kind: str, handler: Handler) -> None:
        self.handlers[kind] = handler

    def send(self, c: Connection, kind: str, **fields: Any) -> None:
        """Inside a write's transaction: tell the other workers once it commits (nothing on SQLite)."""
        if not self.enabled:
            return
        payload = json.dumps({"kind": kind, "from": self.hub.leases.worker, **fields}, separators=(",", ":"))
        c.execute(_NOTIFY, {"channel": self.channel, "payload": payload})

    # ----------------------------------------------------------------- listening
    async def start(self) -> None:
        """Listen for the group's notices (PostgreSQL with leases only); wait a moment until it does."""
        secret = self.hub.registry.secret
        if not self.hub.leases.enabled or secret is None:
            return
        self.channel = "ludus_" + hashlib.sha256(b"notices " + secret).hexdigest()[:24]
        self.listening = asyncio.Event()
        self.task = self.hub.spawn(self._listen(), "notices")
        try:
            await asyncio.wait_for(self.listening.wait(), 10)
        except TimeoutError:
            log.warning("not yet listening for the other workers' notices; retrying in the background")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
            self.task = None

    def _conninfo(self) -> str:
        assert self.hub.store is not None
        url = self.hub.store.engine.url.set(drivername="postgresql")
        return url.render_as_string(hide_password=False)

    async def _listen(self) -> None:
        import psycopg
        from psycopg import sql

        delay = 0.5
        while not self.hub.stopping:
            try:
                conn = await psycopg.AsyncConnection.connect(self._conninfo(), autocommit=True)
                async with conn:
                    await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                    self.listening.set()
                    delay = 0.5
                    async for notice in conn.notifies():
                        await self._handle(notice.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - the database went away: listen again when it is back
                self.listening.clear()
                if self.hub.stopping:
                    return
                log.warning("listening for the other workers' notices failed (%s); again in %g s",
                            type(exc).__name__, delay)
                await asyncio.sleep(delay)
                delay = min(10.0, 2 * delay)

    async def _handle(self, payload: str) -> None:
        try:
            notice = json.loads(payload)
            if notice.get("from") == self.hub.leases.worker:
                return  # this worker made the change, and has shown it already
            handler = self.handlers.get(notice.get("kind"))
            if handler is None:
                return
            await handler(notice)
            self.heard += 1
        except Exception:
            log.exception("a notice from another worker could not be handled")
