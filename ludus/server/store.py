"""Database reads and writes. Writes go through one writer thread that commits them in groups.

Every write is awaited by its caller until its transaction has committed, so "stored
before acknowledged" holds. When many tables move at once, the writes waiting at that
moment share one transaction and one disk flush (group commit): with SQLite's full
fsync that is several times cheaper per move than a flush each, and the durability is
the same. A failed group is retried write by write, so one bad write fails alone. Moves
queued one after another in a group share their statements: each of a move's statements is
sent once for all of them (``executemany``, which psycopg pipelines), so a group of moves
costs a few round trips to PostgreSQL rather than three per move.

A commit that fails may still have happened: the connection can drop after the database
received COMMIT but before its answer arrived. So each write carries a check that reads it
back (``Write.applied``). After a failed commit the writer asks, on another connection,
whether each write is already there (on PostgreSQL it first makes sure the old session is
gone, so its transaction cannot still land). A write that is there has succeeded; one that
is not is retried alone; and when the database cannot be asked at all, the caller gets
:class:`OutcomeUnknown` rather than a failure, and must not assume either way.
"""

from __future__ import annotations

import asyncio
import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, timedelta
from typing import Any

from sqlalchemy import Connection, bindparam, delete, func, insert, select, text, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

from .db import ActionRow, SeatRow, TableRow, make_engine, migrate, utcnow

__all__ = [
    "MAX_GROUP", "OutcomeUnknown", "SeatData", "Step", "StepFailed", "Store", "TableData", "Write", "WriteFailed",
    "Writer", "append_action", "check_applied", "create_table", "expire_table", "read_table", "run_writes",
    "update_seat",
]

log = logging.getLogger("ludus.server")
MAX_GROUP = 256


class WriteFailed(RuntimeError):
    """The write is known not to be in the database: nothing changed."""


class OutcomeUnknown(RuntimeError):
    """The commit failed in a way that may have stored the write, and the database could not be
    asked. ``ghost`` is the PostgreSQL backend whose transaction may still be pending (or None)."""

    def __init__(self, message: str, ghost: int | None = None) -> None:
        super().__init__(message)
        self.ghost = ghost


class StepFailed(RuntimeError):
    """A statement that had to change exactly one row did not (a move's lease fence: another worker
    plays the table now). Its transaction is rolled back."""


Step = tuple[Any, dict[str, Any]]
"""One statement of a write and its parameters."""


@dataclass
class Write:
    """One write: ``run`` does it inside a transaction; ``applied`` tells whether it is already stored."""

    run: Callable[[Connection], None]
    applied: Callable[[Connection], bool] | None = None
    what: str = "write"
    # A move's write also as plain statements, so that consecutive moves of a group can send each
    # statement once for all of them (run_writes); ``check`` must change exactly one row, ``then``
    # runs after them. ``run`` does the same for this write alone.
    steps: tuple[Step, ...] | None = None
    check: Step | None = None
    then: Callable[[Connection], None] | None = None

    def __call__(self, c: Connection) -> None:
        self.run(c)


def run_writes(c: Connection, ops: list[Write]) -> None:
    """Run ``ops`` in their order inside one transaction; each run of consecutive writes made of
    steps (moves) goes statement by statement, one ``executemany`` per statement.

    Within a run, every write's steps run before any write's check and ``then``; a write's own
    statements keep their order, and writes sharing a statement keep theirs (a table's two moves
    in one group update its row in the order they were made; a final move's statement, the one
    with the result, comes after the other moves' status updates)."""
    i = 0
    while i < len(ops):
        j = i
        while j < len(ops) and ops[j].steps is not None:
            j += 1
        if j - i < 2:  # not a run: as it is
            ops[i](c)
            i += 1
            continue
        _run_batch(c, ops[i:j])
        i = j


def _run_batch(c: Connection, ops: list[Write]) -> None:
    statements: dict[int, tuple[Any, list[dict[str, Any]]]] = {}
    checks: dict[int, tuple[Any, list[dict[str, Any]]]] = {}
    for op in ops:
        assert op.steps is not None
        for statement, params in op.steps:
            statements.setdefault(id(statement), (statement, []))[1].append(params)
        if op.check is not None:
            checks.setdefault(id(op.check[0]), (op.check[0], []))[1].append(op.check[1])
    for statement, rows in statements.values():
        c.execute(statement, rows)
    for statement, rows in checks.values():
        if c.execute(statement, rows).rowcount != len(rows):  # which one: the writes retried alone say
            raise StepFailed(f"{len(rows)} moves' checks changed fewer rows than expected")
    for op in ops:
        if op.then is not None:
            op.then(c)


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
    hints: bool = False  # players may ask what the bot would play
    rated: bool = False  # its final move updates ratings (ratings.py)


# --------------------------------------------------------------------------- writes (run on the writer thread)
def create_table(t: TableData) -> Write:
    def run(c: Connection) -> None:
        now = utcnow()
        c.execute(insert(TableRow).values(code=t.code, game=t.game, options=json.dumps(t.options), seed=t.seed,
                                          status=t.status, clock_seconds=t.clock_seconds, listed=t.listed,
                                          hints=t.hints, rated=t.rated, rematch_of=t.rematch_of, created_at=now,
                                          updated_at=now))
        c.execute(insert(SeatRow), [{"table_code": t.code, "seat": s.seat, "kind": s.kind, "bot": s.bot,
                                     "name": s.name, "token_hash": s.token_hash, "away": s.away} for s in t.seats])
        if t.rematch_of:
            c.execute(update(TableRow).where(TableRow.code == t.rematch_of).values(rematch_code=t.code))

    def applied(c: Connection) -> bool:
        return c.execute(select(TableRow.seed).where(TableRow.code == t.code)).scalar() == t.seed
    return Write(run, applied, f"table {t.code}")


def update_seat(code: str, seat: SeatData, status: str | None = None) -> Write:
    def run(c: Connection) -> None:
        c.execute(update(SeatRow).where(SeatRow.table_code == code, SeatRow.seat == seat.seat)
                  .values(name=seat.name, token_hash=seat.token_hash, away=seat.away))
        values: dict[str, Any] = {"updated_at": utcnow()}
        if status is not None:
            values["status"] = status
        c.execute(update(TableRow).where(TableRow.code == code).values(**values))

    def applied(c: Connection) -> bool:
        row = c.execute(select(SeatRow.name, SeatRow.token_hash, SeatRow.away)
                        .where(SeatRow.table_code == code, SeatRow.seat == seat.seat)).first()
        if row is None or tuple(row) != (seat.name, seat.token_hash, seat.away):
            return False
        return status is None or c.execute(select(TableRow.status).where(TableRow.code == code)).scalar() == status
    return Write(run, applied, f"seat {seat.seat} of table {code}")


# A move's two statements, built once: SQLAlchemy then compiles each once and reuses it, where a
# statement built per move cost more CPU than the database's own work on it.
_INSERT_ACTION = insert(ActionRow)
_MOVE_STATUS = (update(TableRow).where(TableRow.code == bindparam("m_code"))
                .values(status=bindparam("m_status"), updated_at=bindparam("m_at")))
_MOVE_RESULT = _MOVE_STATUS.values(result=bindparam("m_result"))


def append_action(code: str, ply: int, seat: int, action: Any, by_bot: bool, status: str,
                  result: dict[str, Any] | None, check: Step | None = None,
                  then: Callable[[Connection], None] | None = None) -> Write:
    """Store one accepted action; the primary key (table, ply) makes a duplicate impossible.

    It counts as already applied when the row at (table, ply) holds this very action by this
    seat. The table's status, ``check`` (a statement that must change one row: the lease fence)
    and whatever ``then`` writes (a final move's ratings) are in the same transaction."""
    raw = json.dumps(action)
    now = utcnow()
    values: dict[str, Any] = {"m_code": code, "m_status": status, "m_at": now}
    if result is not None:
        values["m_result"] = json.dumps(result)
    steps: tuple[Step, ...] = (
        (_INSERT_ACTION, {"table_code": code, "ply": ply, "seat": seat, "action": raw, "by_bot": by_bot,
                          "created_at": now}),
        (_MOVE_STATUS if result is None else _MOVE_RESULT, values))

    def run(c: Connection) -> None:
        for statement, params in steps:
            c.execute(statement, params)
        if check is not None and c.execute(check[0], check[1]).rowcount != 1:
            raise StepFailed(f"table {code} is played by another worker now")
        if then is not None:
            then(c)

    def applied(c: Connection) -> bool:
        row = c.execute(select(ActionRow.seat, ActionRow.action, ActionRow.by_bot)
                        .where(ActionRow.table_code == code, ActionRow.ply == ply)).first()
        return row is not None and (row.seat, row.action, bool(row.by_bot)) == (seat, raw, by_bot)
    return Write(run, applied, f"move {ply} of table {code}", steps=steps, check=check, then=then)


def expire_table(code: str) -> Write:
    """Mark an open table expired (only if it is still open)."""
    def run(c: Connection) -> None:
        c.execute(update(TableRow).where(TableRow.code == code, TableRow.status == "open")
                  .values(status="expired", updated_at=utcnow()))

    def applied(c: Connection) -> bool:
        return c.execute(select(TableRow.status).where(TableRow.code == code)).scalar() != "open"
    return Write(run, applied, f"expiry of table {code}")


def _backend_pid(conn: Connection) -> int | None:
    """The PostgreSQL server process of this connection (None elsewhere); read without a query."""
    if conn.dialect.name != "postgresql":
        return None
    try:
        return int(conn.connection.dbapi_connection.info.backend_pid)  # type: ignore[union-attr]
    except Exception:  # noqa: BLE001 - only a help for settling a failed commit
        return None


def _bury(c: Connection, ghost: int) -> None:
    """Make sure PostgreSQL backend ``ghost`` (the session whose COMMIT failed) has ended.

    Until it has, its transaction may still commit or roll back, and a read could see the old
    state. Ending it settles the transaction for good; then a read tells the truth."""
    if ghost == _backend_pid(c):
        return  # a new session that happens to have the old number: the old one is gone
    # only a session of this same user and database: never someone else's that reused the number
    mine = "FROM pg_stat_activity WHERE pid = :pid AND usename = current_user AND datname = current_database()"
    for call in ("pg_terminate_backend(pid, 5000)", "pg_terminate_backend(pid)"):  # the first needs PostgreSQL 14
        try:
            c.execute(text(f"SELECT {call} {mine}"), {"pid": ghost})
            c.commit()
            break
        except Exception:  # noqa: BLE001 - not allowed (or too old): try the next, then wait for it to go
            c.rollback()
    for _ in range(100):
        alive = c.execute(text(f"SELECT count(*) {mine}"), {"pid": ghost}).scalar()
        c.rollback()
        if not alive:
            return
        time.sleep(0.1)
    raise RuntimeError(f"database session {ghost} is still open")


def check_applied(engine: Engine, ops: list[Write], ghost: int | None = None) -> list[bool]:
    """Whether each write is in the database, read on a connection other than the failed one.

    Raises when the database cannot be asked. ``ghost``: a PostgreSQL backend that must be gone first."""
    with engine.connect() as c:
        if ghost is not None:
            _bury(c, ghost)
        out = []
        for op in ops:
            if op.applied is None:  # callers pass only writes that can be read back
                raise TypeError(f"{op.what} cannot be read back")
            out.append(bool(op.applied(c)))
            c.rollback()
        return out


class Writer:
    """One thread that commits queued writes in groups and wakes each waiting caller."""

    def __init__(self, engine: Engine, on_commit: Callable[[float, int, bool], None] | None = None) -> None:
        self.engine = engine
        self.on_commit = on_commit  # told (seconds, writes, committed) after each transaction: the metrics
        self.last_pid: int | None = None  # the PostgreSQL backend of the transaction under way
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

    def _transact(self, ops: list[Write]) -> None:
        """Run ``ops`` in one transaction and commit it (tests wrap this to inject failures)."""
        with self.engine.begin() as conn:
            self.last_pid = _backend_pid(conn)
            run_writes(conn, ops)

    def _commit(self, group: list[tuple[Write, asyncio.Future, asyncio.AbstractEventLoop]],
                alone: bool = False) -> None:
        """Commit ``group`` in one transaction; after a failure, settle each write by reading it back."""
        self.last_pid = None
        started = time.perf_counter()
        try:
            self._transact([op for op, _, _ in group])
        except Exception as exc:  # noqa: BLE001 - every failure is settled below
            error: Exception = exc
            self._observe(started, len(group), False)
        else:
            self._observe(started, len(group), True)
            for _, fut, loop in group:
                loop.call_soon_threadsafe(_settle, fut, None)
            return
        # The transaction failed, maybe during COMMIT: it may have happened all the same. If the
        # connection was lost, its server session may still be finishing it: end that first.
        lost = isinstance(error, DBAPIError) and error.connection_invalidated
        ghost = self.last_pid if lost else None
        log.warning("database write failed (%d write(s)): %s", len(group), str(error).splitlines()[0] if str(error)
                    else type(error).__name__)
        checked = [item for item in group if getattr(item[0], "applied", None) is not None]
        unchecked = [item for item in group if getattr(item[0], "applied", None) is None]
        try:
            found = check_applied(self.engine, [op for op, _, _ in checked], ghost)
        except Exception as exc:  # noqa: BLE001 - the database cannot be asked now
            log.error("cannot tell whether %d write(s) were stored: %s", len(checked),
                      str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
            for op, fut, loop in checked:
                loop.call_soon_threadsafe(_settle, fut, OutcomeUnknown(f"{op.what}: outcome unknown", ghost))
            retry = unchecked
        else:
            retry = list(unchecked)
            for (op, fut, loop), there in zip(checked, found):
                if there:
                    log.warning("%s was stored although its commit reported an error", op.what)
                    loop.call_soon_threadsafe(_settle, fut, None)
                else:
                    retry.append((op, fut, loop))
        if alone:  # this was already the retry: what is not there has failed
            for op, fut, loop in retry:
                log.error("database write failed: %s", getattr(op, "what", "write"))
                loop.call_soon_threadsafe(_settle, fut, WriteFailed("database write failed"))
            return
        for one in retry:  # each alone, so one bad write fails alone
            self._commit([one], alone=True)

    def _observe(self, started: float, writes: int, ok: bool) -> None:
        if self.on_commit is not None:
            try:
                self.on_commit(time.perf_counter() - started, writes, ok)
            except Exception:  # counting must never fail a write
                log.exception("recording a commit's metrics failed")


def _read(c: Connection, row: Any) -> TableData:
    seats = [SeatData(r.seat, r.kind, r.bot, r.name, r.token_hash, r.away)
             for r in c.execute(select(SeatRow).where(SeatRow.table_code == row.code).order_by(SeatRow.seat))]
    actions = [(r.seat, json.loads(r.action), r.by_bot)
               for r in c.execute(select(ActionRow).where(ActionRow.table_code == row.code).order_by(ActionRow.ply))]
    return TableData(code=row.code, game=row.game, options=json.loads(row.options), seed=row.seed,
                     status=row.status, clock_seconds=row.clock_seconds, listed=row.listed, seats=seats,
                     actions=actions, rematch_of=row.rematch_of, rematch_code=row.rematch_code,
                     hints=bool(row.hints), rated=bool(row.rated))


def read_table(c: Connection, code: str) -> TableData | None:
    """A stored table with its seats and record, read on ``c``."""
    row = c.execute(select(TableRow).where(TableRow.code == code)).first()
    return None if row is None else _read(c, row)


def _settle(fut: asyncio.Future, exc: BaseException | None) -> None:
    if fut.done():
        return
    if exc is None:
        fut.set_result(None)
    else:
        fut.set_exception(exc)


class Store:
    """The engine, the writer thread, and the reads used at startup and on demand."""

    def __init__(self, url: str, on_commit: Callable[[float, int, bool], None] | None = None) -> None:
        self.engine: Engine = make_engine(url)
        migrate(self.engine)
        self.writer = Writer(self.engine, on_commit)

    def ping(self) -> None:
        """A trivial query (blocking): raises when the database does not answer."""
        with self.engine.connect() as c:
            c.execute(text("SELECT 1")).scalar()

    async def write(self, op: Write) -> None:
        await self.writer.write(op)

    def applied(self, op: Write, ghost: int | None = None) -> bool:
        """Read back whether ``op`` is stored (blocking; raises when the database cannot be asked)."""
        return check_applied(self.engine, [op], ghost)[0]

    def close(self) -> None:
        self.writer.close()
        self.engine.dispose()

    # ----------------------------------------------------------------- reads (blocking; run off the loop)
    def load_table(self, code: str) -> TableData | None:
        with self.engine.connect() as c:
            return read_table(c, code)

    def load_live(self, ttl: float) -> tuple[list[tuple[TableData, float]], int]:
        """Expire the open tables untouched for ``ttl`` seconds, then read the open and playing ones.

        Returns each table with the seconds since its last seat change, and how many expired
        (once at startup: tables may have passed their time while the server was down).
        """
        now = utcnow()
        with self.engine.begin() as c:
            expired = c.execute(update(TableRow).where(TableRow.status == "open",
                                                       TableRow.updated_at < now - timedelta(seconds=ttl))
                                .values(status="expired", updated_at=now)).rowcount
        out = []
        with self.engine.connect() as c:
            rows = c.execute(select(TableRow).where(TableRow.status.in_(("open", "playing")))
                             .order_by(TableRow.created_at)).all()
            for row in rows:
                at = row.updated_at
                if at.tzinfo is None:  # SQLite keeps no zone; everything is written in UTC
                    at = at.replace(tzinfo=UTC)
                out.append((_read(c, row), max(0.0, (now - at).total_seconds())))
        return out, expired or 0

    def listed_live(self, limit: int = 200) -> list[TableData]:
        """The listed open and playing tables, seats included, actions left out (the lobby of a group)."""
        with self.engine.connect() as c:
            rows = c.execute(select(TableRow).where(TableRow.status.in_(("open", "playing")), TableRow.listed)
                             .order_by(TableRow.created_at).limit(limit)).all()
            codes = [r.code for r in rows]
            seats: dict[str, list[SeatData]] = {code: [] for code in codes}
            for r in c.execute(select(SeatRow).where(SeatRow.table_code.in_(codes)).order_by(SeatRow.seat)):
                seats[r.table_code].append(SeatData(r.seat, r.kind, r.bot, r.name, r.token_hash, r.away))
        return [TableData(code=r.code, game=r.game, options=json.loads(r.options), seed=r.seed, status=r.status,
                          clock_seconds=r.clock_seconds, listed=r.listed, seats=seats[r.code], hints=bool(r.hints),
                          rated=bool(r.rated), rematch_of=r.rematch_of) for r in rows]

    def table_status(self, code: str) -> str | None:
        with self.engine.connect() as c:
            return c.execute(select(TableRow.status).where(TableRow.code == code)).scalar()

    def expire_stale(self, ttl: float) -> int:
        """Expire the open tables untouched for ``ttl`` seconds; how many."""
        now = utcnow()
        with self.engine.begin() as c:
            return c.execute(update(TableRow).where(TableRow.status == "open",
                                                    TableRow.updated_at < now - timedelta(seconds=ttl))
                             .values(status="expired", updated_at=now)).rowcount or 0

    def action_count(self, code: str) -> int:
        with self.engine.connect() as c:
            return c.execute(select(func.count()).select_from(ActionRow)
                             .where(ActionRow.table_code == code)).scalar_one()

    def delete_table(self, code: str) -> None:
        with self.engine.begin() as c:
            c.execute(delete(ActionRow).where(ActionRow.table_code == code))
            c.execute(delete(SeatRow).where(SeatRow.table_code == code))
            c.execute(delete(TableRow).where(TableRow.code == code))
