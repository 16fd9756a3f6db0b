"""Live tables: seats, connections, bots and clocks, with every change written before it is shown.

All table state lives on the event loop and changes only under the table's lock. The
:class:`Hub` is the one object the endpoints (:mod:`.app`) talk to. It owns what every part
shares: the configuration, the database and its thread, the bot runner, the event loop, the
background tasks and the live tables. The work is done by one collaborator per concern, each
holding a reference back to the hub:

* :class:`~.tables.TableRegistry` (``hub.registry``): tokens, creating, finding, listing,
  remembering and expiring tables;
* :class:`~.seats.Seating` (``hub.seating``): seats, connections and absent players;
* :class:`~.turns.Turns` (``hub.turns``): moves, bots and clocks;
* :class:`~.accounts.Accounts` (``hub.accounts``): optional accounts, their sessions and games;
* :class:`~.quickplay.QuickPlay` (``hub.quick``): players waiting for a table ("Play now");
* :mod:`.views` and :mod:`.replay`: what a viewer is sent, and a table's record and replay.

After any change to a table, the part that made it calls :meth:`Hub.changed`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from . import replay, views
from . import store as ops
from .accounts import Accounts
from .bots import BotRunner
from .config import ServerConfig
from .db import DatabaseLock, lock_database
from .hinting import HintRunner
from .leases import QUICK, Leases
from .live import Connection, PendingMove, Seat, Table, hash_token, table_gone
from .notices import Notices
from .observability import Metrics
from .protocol import dumps
from .quickplay import QuickPlay
from .seats import Seating
from .store import Store
from .tables import (
    CODE_ALPHABET,
    CODE_LENGTH,
    MAX_CLOCK,
    RateLimited,
    TableRegistry,
    check_options,
    is_file_option,
    server_options,
)
from .throttles import Throttles
from .turns import UNCONFIRMED, Turns

__all__ = [
    "CODE_ALPHABET", "CODE_LENGTH", "MAX_CLOCK", "UNCONFIRMED", "Connection", "Hub", "PendingMove", "RateLimited",
    "Seat", "Table", "check_options", "dumps", "hash_token", "is_file_option", "server_options", "table_gone",
]

log = logging.getLogger("ludus.server")
T = TypeVar("T")


class Hub:
    """Every live table, the database and the bots, on one event loop."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.store: Store | None = None
        self.db_lock: DatabaseLock | None = None  # this hub's hold on a SQLite file (see start)
        self.tables: dict[str, Table] = {}
        self.db_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ludus-db")
        # this server's own instruments (GET /metrics); the tables by state are counted when scraped
        self.metrics = Metrics(lambda: list(self.tables.values()))
        self.bots = BotRunner(config.bot_threads, config.bot_processes, metrics=self.metrics,
                              workers=config.bot_workers)
        self.hints = HintRunner(config.hint_processes)  # its own worker: a hint never delays a bot
        self.loop: asyncio.AbstractEventLoop | None = None
        self.started = False  # start-up is done: the database is ready and the unfinished tables are back
        self.stopping = False
        # Every task the hub starts, until it ends: the event loop keeps only a weak reference to a
        # task, so one nobody holds could be garbage-collected mid-run, and its failure go unseen.
        self.background: set[asyncio.Task[Any]] = set()
        self.throttles = Throttles(self)  # rate limits: in memory, or the group's in the database
        self.notices = Notices(self)  # a group's workers tell each other of account changes (notices.py)
        self.registry = TableRegistry(self)
        self.seating = Seating(self)
        self.turns = Turns(self)
        self.accounts = Accounts(self)
        self.quick = QuickPlay(self, config.quick_idle)
        self.leases = Leases(self, config.lease_seconds)

    # ----------------------------------------------------------------- life cycle
    async def start(self) -> None:
        """Open the database and bring its unfinished tables back. A SQLite file is held for this
        hub first (:func:`~.db.lock_database`): a second server on it refuses to start."""
        self.loop = asyncio.get_running_loop()
        self.db_lock = await self.db(lock_database, self.config.database)
        try:
            self.store = await self.db(Store, self.config.database, self.metrics.committed)
            self.leases.start(self.store.engine.dialect.name, self.config.advertise)
            await self.registry.resume()
            await self.notices.start()  # before any table is adopted: no account change to it is missed
            if self.leases.enabled:
                await self.leases.tick()  # the tables nobody plays now are played here from the start
            self.leases.begin()
        except BaseException:
            self._release_database()
            raise
        self.started = True

    def _release_database(self) -> None:
        if self.db_lock is not None:
            self.db_lock.release()
            self.db_lock = None

    async def stop(self) -> None:
        self.stopping = True
        if self.registry.sweeper is not None:
            self.registry.sweeper.cancel()
        if self.quick.matcher is not None:
            self.quick.matcher.cancel()
        for table in self.tables.values():
            self.turns.cancel_all(table)
            for seat in table.seats:
                handle = table.grace.pop(seat.index, None)
                if handle:
                    handle.cancel()
        self.bots.close()
        self.hints.close()
        await self.notices.stop()
        await self.leases.stop()
        if self.store is not None:
            await self.db(self.store.close)
        self.db_thread.shutdown(wait=True)
        self._release_database()  # only once nothing more is written

    def spawn(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        """Start ``coro`` as a task kept in :attr:`background` until it ends; if it fails, log why."""
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self.background.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self.background.discard(task)
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None:
            log.error("background task %r failed", task.get_name(), exc_info=exc)

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a blocking database read off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self.db_thread, fn, *args)

    async def write(self, op: ops.Write) -> None:
        """Queue a write and wait until it is committed (grouped with others waiting then)."""
        assert self.store is not None
        await self.store.write(op)

    async def drop(self, resource: str) -> None:
        """Stop playing ``resource`` here (its lease went to another worker): its connections are
        closed (they reconnect, and are forwarded to the new holder); its state is forgotten."""
        if resource == QUICK:
            self.quick.entries.clear()  # the pages ask again, at the new holder
            return
        table = self.tables.pop(resource, None)
        if table is None:
            return
        table.dropped = True
        self.turns.cancel_all(table)
        for handle in table.grace.values():
            handle.cancel()
        table.grace.clear()
        for conn in list(table.conns):
            conn.close(1012, "table moved to another server")

    async def where(self, resource: str) -> str | None:
        """Where a request about ``resource`` is answered: None here, else the address of the worker
        that plays it. A table nobody plays is claimed here first (its route then loads it)."""
        if not self.leases.enabled or resource in self.leases.held:
            return None
        if resource != QUICK:
            table = self.tables.get(resource)
            if table is not None and table.status not in ("open", "playing"):
                return None
            assert self.store is not None
            status = await self.db(self.store.table_status, resource)
            if status not in ("open", "playing"):
                return None  # finished, expired or unknown: any worker answers from the database
        ours, address = await self.leases.claim(resource)
        if ours or not address or address == self.leases.address:
            return None
        return address

    def changed(self, table: Table) -> None:
        """After any change to ``table``: drop its cached views, wake its connections, reschedule its turn."""
        table.cache.clear()
        for conn in table.conns:
            conn.mark_dirty()
        self.turns.schedule(table)

    _changed = changed  # its former name

    # ----------------------------------------------------------------- tables and tokens (tables.py)
    def issue_token(self) -> str:
        return self.registry.issue_token()

    def valid_token(self, token: str | None) -> bool:
        return self.registry.valid_token(token)

    async def get(self, code: str) -> Table:
        return await self.registry.get(code)

    async def lobby(self) -> list[dict[str, Any]]:
        return await self.registry.lobby()

    async def create(self, game_name: str, options: Any, seats: list[dict[str, Any]], clock: int | None,
                     listed: bool, key: str | None, name: str | None, rematch_of: Table | None = None,
                     address: str | None = None, *, hints: bool = False, rated: bool = False,
                     member: bool = False, holders: list[tuple[str, str]] | None = None) -> Table:
        return await self.registry.create(game_name, options, seats, clock, listed, key, name,
                                          rematch_of=rematch_of, address=address, hints=hints, rated=rated,
                                          member=member, holders=holders)

    async def rematch(self, table: Table, key: str | None) -> Table:
        return await self.registry.rematch(table, key)

    # ----------------------------------------------------------------- seats and connections (seats.py)
    # A player is known by a key: the hash of their cookie token, or their account's key.
    async def join(self, table: Table, key: str, name: Any, seat: int | None, member: bool = False) -> int:
        return await self.seating.join(table, key, name, seat, member)

    async def leave(self, table: Table, key: str | None) -> None:
        await self.seating.leave(table, key)

    def connect(self, table: Table, conn: Connection) -> None:
        self.seating.connect(table, conn)

    def disconnect(self, table: Table, conn: Connection) -> None:
        self.seating.disconnect(table, conn)

    async def hand_back(self, table: Table, index: int) -> None:
        await self.seating.hand_back(table, index)

    # ----------------------------------------------------------------- moves (turns.py)
    async def submit(self, table: Table, seat: int | None, raw: Any, moves: int, by_bot: bool = False,
                     mid: Any = None, auto: bool = False) -> int:
        return await self.turns.submit(table, seat, raw, moves, by_bot=by_bot, mid=mid, auto=auto)

    # ----------------------------------------------------------------- what a viewer sees (views.py, replay.py)
    def view_for(self, table: Table, conn: Connection) -> dict[str, Any]:
        return views.view_for(table, conn)

    def view_text(self, table: Table, conn: Connection) -> str:
        """:meth:`view_for` as the JSON text a connection is sent (shared by the seat's connections)."""
        return views.view_text(table, conn)

    def record_for(self, table: Table, viewer: int | None) -> dict[str, Any]:
        return replay.record_for(table, viewer)

    def replay_frames(self, table: Table, viewer: int | None) -> list[dict[str, Any]]:
        return replay.replay_frames(table, viewer)
