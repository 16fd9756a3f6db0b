"""Database reads and writes. Writes go through one writer thread that commits them in groups.

Every write is awaited by its caller until its transaction has committed, so "stored
before acknowledged" holds. When many tables move at once, the writes waiting at that
moment share one transaction and one disk flush (group commit): with SQLite's full
fsync that is several times cheaper per move than a flush each, and the durability is
the same. A failed group is retried write by write, so one bad write fails alone.
"""

from __future__ import annotations

import asyncio
import json
import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, update
from sqlalchemy.engine import Engine

from .db import ActionRow, SeatRow, TableRow, make_engine, migrate, utcnow

log = logging.getLogger("ludus.server")
MAX_GROUP = 256

Write = Callable[[Connection], None]


@dataclass
class SeatData:
    seat: int
    kind: str
    bot: str
    name: str | None = None
    token_hash: str | None = None
    away: str | None = None


@dataclass
class TableData:
    """Everything stored about one table: enough to rebuild it exactly."""

    code: str
    game: str
    options: dict[str, Any]
    seed: int
    status: str
    clock_seconds: int | None
    listed: bool
    seats: list[SeatData]
    actions: list[tuple[int, Any, bool]] = field(default_factory=list)  # (seat, action JSON, by_bot)
    rematch_of: str | None = None
    rematch_code: str | None = None


# --------------------------------------------------------------------------- writes (run on the writer thread)
def create_table(t: TableData) -> Write:
    def run(c: Connection) -> None:
        now = utcnow()
        c.execute(insert(TableRow).values(code=t.code, game=t.game, options=json.dumps(t.options), seed=t.seed,
                                          status=t.status, clock_seconds=t.clock_seconds, listed=t.listed,
                                          rematch_of=t.rematch_of, created_at=now, updated_at=now))
        c.execute(insert(SeatRow), [dict(table_code=t.code, seat=s.seat, kind=s.kind, bot=s.bot, name=s.name,
                                         token_hash=s.token_hash, away=s.away) for s in t.seats])
        if t.rematch_of:
            c.execute(update(TableRow).where(TableRow.code == t.rematch_of).values(rematch_code=t.code))
    return run


def update_seat(code: str, seat: SeatData, status: str | None = None) -> Write:
    def run(c: Connection) -> None:
        c.execute(update(SeatRow).where(SeatRow.table_code == code, SeatRow.seat == seat.seat)
                  .values(name=seat.name, token_hash=seat.token_hash, away=seat.away))
        values: dict[str, Any] = {"updated_at": utcnow()}
        if status is not None:
            values["status"] = status
        c.execute(update(TableRow).where(TableRow.code == code).values(**values))
    return run


def append_action(code: str, ply: int, seat: int, action: Any, by_bot: bool, status: str,
                  result: dict[str, Any] | None) -> Write:
    """Store one accepted action; the primary key (table, ply) makes a duplicate impossible."""
    def run(c: Connection) -> None:
        now = utcnow()
        c.execute(insert(ActionRow).values(table_code=code, ply=ply, seat=seat, action=json.dumps(action),
                                           by_bot=by_bot, created_at=now))
        values: dict[str, Any] = {"status": status, "updated_at": now}
        if result is not None:
            values["result"] = json.dumps(result)
        c.execute(update(TableRow).where(TableRow.code == code).values(**values))
    return run


class Writer:
    """One thread that commits queued writes in groups and wakes each waiting caller."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.queue: queue.SimpleQueue[tuple[Write, asyncio.Future, asyncio.AbstractEventLoop] | None] = \
            queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="ludus-writer", daemon=True)
        self.thread.start()

    async def write(self, op: Write) -> None:
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self.queue.put((op, fut, loop))
        await fut

    def close(self) -> None:
        self.queue.put(None)
        self.thread.join(timeout=30)

    def _run(self) -> None:
        while True:
            item = self.queue.get()
            if item is None:
                return
            group = [item]
            stop = False
            while len(group) < MAX_GROUP:
                try:
                    more = self.queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                group.append(more)
            self._commit(group)
            if stop:
                return

    def _commit(self, group: list[tuple[Write, asyncio.Future, asyncio.AbstractEventLoop]]) -> None:
        try:
            with self.engine.begin() as conn:
                for op, _, _ in group:
                    op(conn)
        except Exception:
            if len(group) > 1:  # find the bad one: each alone
                for one in group:
                    self._commit([one])
                return
            _, fut, loop = group[0]
            exc = RuntimeError("database write failed")
            log.exception("database write failed")
            loop.call_soon_threadsafe(_settle, fut, exc)
            return
        for _, fut, loop in group:
            loop.call_soon_threadsafe(_settle, fut, None)


def _settle(fut: asyncio.Future, exc: BaseException | None) -> None:
    if fut.done():
        return
    if exc is None:
        fut.set_result(None)
    else:
        fut.set_exception(exc)


class Store:
    """The engine, the writer thread, and the reads used at startup and on demand."""

    def __init__(self, url: str) -> None:
        self.engine: Engine = make_engine(url)
        migrate(self.engine)
        self.writer = Writer(self.engine)

    async def write(self, op: Write) -> None:
        await self.writer.write(op)

    def close(self) -> None:
        self.writer.close()
        self.engine.dispose()

    # ----------------------------------------------------------------- reads (blocking; run off the loop)
    def _load(self, c: Connection, row: Any) -> TableData:
        seats = [SeatData(r.seat, r.kind, r.bot, r.name, r.token_hash, r.away)
                 for r in c.execute(select(SeatRow).where(SeatRow.table_code == row.code).order_by(SeatRow.seat))]
        actions = [(r.seat, json.loads(r.action), r.by_bot)
                   for r in c.execute(select(ActionRow).where(ActionRow.table_code == row.code)
                                      .order_by(ActionRow.ply))]
        return TableData(code=row.code, game=row.game, options=json.loads(row.options), seed=row.seed,
                         status=row.status, clock_seconds=row.clock_seconds, listed=row.listed, seats=seats,
                         actions=actions, rematch_of=row.rematch_of, rematch_code=row.rematch_code)

    def load_table(self, code: str) -> TableData | None:
        with self.engine.connect() as c:
            row = c.execute(select(TableRow).where(TableRow.code == code)).first()
            return None if row is None else self._load(c, row)

    def load_unfinished(self) -> list[TableData]:
        with self.engine.connect() as c:
            rows = c.execute(select(TableRow).where(TableRow.status != "finished")
                             .order_by(TableRow.created_at)).all()
            return [self._load(c, row) for row in rows]

    def action_count(self, code: str) -> int:
        with self.engine.connect() as c:
            return c.execute(select(func.count()).select_from(ActionRow)
                             .where(ActionRow.table_code == code)).scalar_one()

    def delete_table(self, code: str) -> None:
        with self.engine.begin() as c:
            c.execute(delete(ActionRow).where(ActionRow.table_code == code))
            c.execute(delete(SeatRow).where(SeatRow.table_code == code))
            c.execute(delete(TableRow).where(TableRow.code == code))
