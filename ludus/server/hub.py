"""Live tables: seats, connections, bots and clocks, with every change written before it is shown.

All table state lives on the event loop and changes only under the table's lock. The
order for a move is: check it on a copy of the state, write it to the database (on the
database thread), swap the copy in, then acknowledge and wake the connections. A crash
between the write and the swap loses nothing: the restart replays the written record.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import logging
import math
import secrets
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..agents.base import Agent, make_agent
from ..core.errors import IllegalAction, InvalidOptions, LudusError, RecordError
from ..core.game import CHANCE, Game, State
from ..core.options import OptionInfo, options_to_json
from ..core.records import record_of
from ..games import game_names, get_game
from . import store as ops
from .bots import BotRunner, bot_kinds, default_bot
from .config import ServerConfig
from .db import server_secret
from .protocol import KeyedRateLimit, ProtocolError, RateLimit, clean_name
from .store import SeatData, Store, TableData
from .views import ViewerLog, seat_payload, viewer_record

log = logging.getLogger("ludus.server")
T = TypeVar("T")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


MAX_CLOCK = 3600


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


class RateLimited(ProtocolError):
    """A ``rate_limited`` refusal that says when to try again (HTTP 429 with Retry-After)."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__("rate_limited", message)
        self.retry_after = max(1, math.ceil(retry_after))


def table_gone(code: str) -> ProtocolError:
    return ProtocolError("expired", f"table {code} has expired: nobody joined it in time; create a new one")


def is_file_option(info: OptionInfo) -> bool:
    """Whether an option names files on the host (a custom card table, card sets...).

    Players must not make the server read its own files, so such options are left out of
    the lobby and refused. Each game declares them (``option(..., host_path=True)``).
    """
    return info.host_path


def server_options(game: Game) -> list[dict[str, Any]]:
    """The options a lobby may set (those naming host files are left out)."""
    return [info.to_json() for info in game.describe_options() if not is_file_option(info)]


def check_options(game: Game, values: Any) -> Any:
    """Parse lobby options, refusing the ones that would make the server read a file."""
    if values is None:
        values = {}
    if not isinstance(values, dict):
        raise ProtocolError("bad_options", "options must be an object")
    file_options = {info.name: info for info in game.describe_options() if is_file_option(info)}
    for key, value in values.items():
        info = file_options.get(str(key).replace("-", "_"))
        if info is not None and value != info.default:
            raise ProtocolError("bad_options", f"option {key!r} names a file; this server does not read files "
                                               "chosen by players")
    try:
        return game.parse_options(values)
    except InvalidOptions as exc:
        raise ProtocolError("bad_options", str(exc)) from None


class Connection:
    """One WebSocket: a seat or a spectator. Views are coalesced: only the newest is sent."""

    def __init__(self, send: Callable[[str], Awaitable[None]], seat: int | None, rate: RateLimit,
                 address: str | None = None) -> None:
        self.send = send
        self.seat = seat
        self.rate = rate
        self.address = address  # the client's address, for the per-address spectator cap
        self.counted = False  # counted among the address's spectators
        self.close_with: tuple[int, str] | None = None  # the sender closes the socket with this, after the outbox
        self.outbox: deque[dict[str, Any]] = deque()
        self.dirty = True
        self.wake = asyncio.Event()
        self.wake.set()
        self.sent: list[Any] = []  # the log entries this connection has been sent (by identity)
        self.closed = False

    def push(self, msg: dict[str, Any]) -> None:
        self.outbox.append(msg)
        self.wake.set()

    def mark_dirty(self) -> None:
        self.dirty = True
        self.wake.set()

    def close(self, code: int, reason: str) -> None:
        """Ask the sender to close the socket once the queued replies are out."""
        self.close_with = (code, reason)
        self.wake.set()


@dataclass
class Seat:
    index: int
    kind: str  # human | bot
    bot: str
    name: str | None = None
    token_hash: str | None = None
    away: str | None = None  # why a bot plays a human seat: left | timeout | disconnected
    conns: int = 0
    agent: Agent | None = None

    def data(self) -> SeatData:
        return SeatData(self.index, self.kind, self.bot, self.name, self.token_hash, self.away)

    @property
    def bot_plays(self) -> bool:
        return self.kind == "bot" or self.away is not None


@dataclass
class Table:
    code: str
    game: Game
    options_json: dict[str, Any]
    seed: int
    status: str
    clock_seconds: int | None
    listed: bool
    seats: list[Seat]
    state: State
    moves: list[int]
    rematch_of: str | None = None
    rematch_code: str | None = None
    by_bot: list[bool] = field(default_factory=list)
    recorded: list[tuple[int, Any]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Connection] = field(default_factory=set)
    bot_tasks: dict[int, asyncio.Task] = field(default_factory=dict)
    deadlines: dict[int, tuple[int, float, asyncio.TimerHandle]] = field(default_factory=dict)
    grace: dict[int, asyncio.TimerHandle] = field(default_factory=dict)
    cache: dict[Any, Any] = field(default_factory=dict)
    logs: dict[int | None, ViewerLog] = field(default_factory=dict)
    replays: dict[Any, Any] = field(default_factory=dict)
    touched: float = field(default_factory=time.monotonic)  # creation or the last join/leave, for expiry
    unconfirmed: PendingMove | None = None  # a move whose commit is in doubt (see Hub.submit)

    def seat_of(self, token: str | None) -> int | None:
        if not token:
            return None
        h = hash_token(token)
        for seat in self.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, h):
                return seat.index
        return None

    def names(self) -> list[str]:
        out = []
        for s in self.seats:
            if s.kind == "bot":
                out.append(f"{s.bot.capitalize()} bot {s.index + 1}")
            else:
                out.append(s.name or f"Seat {s.index + 1} (open)")
        return out

    def public(self) -> dict[str, Any]:
        """What anyone may know about the table (lobby, spectators)."""
        names = self.names()
        return {
            "code": self.code,
            "game": self.game.name,
            "title": self.game.title,
            "status": self.status,
            "options": self.options_json,
            "clock": self.clock_seconds,
            "listed": self.listed,
            "rematch_of": self.rematch_of,
            "rematch": self.rematch_code,
            "plies": len(self.recorded),
            "spectators": sum(1 for c in self.conns if c.seat is None),
            "seats": [{"seat": s.index, "name": names[s.index], "kind": s.kind, "bot": s.bot,
                       "taken": s.kind == "bot" or s.token_hash is not None, "away": s.away,
                       "connected": s.kind == "bot" or s.conns > 0} for s in self.seats],
        }

    def apply_recorded(self, seat: int, raw: Any, by_bot: bool) -> None:
        action = self.game.action_from_json(raw)
        self.state.apply(action, seat)
        self.recorded.append((seat, raw))
        self.by_bot.append(by_bot)
        self.moves[seat] += 1


UNCONFIRMED = ("the database did not confirm your move and cannot be asked right now, so it may or may not "
               "have been saved; this table will acknowledge it or ask you to play again once the server knows")


@dataclass
class PendingMove:
    """A move checked and written, but not yet applied: its commit may or may not have happened."""

    op: ops.Write
    ply: int
    seat: int
    action: Any  # canonical JSON
    by_bot: bool
    status: str
    after: State
    mid: Any = None
    ghost: int | None = None  # the PostgreSQL session whose COMMIT failed
    tries: int = 0
    next_try: float = 0.0
    task: asyncio.Future | None = None


class Hub:
    """Every live table, the database and the bots, on one event loop."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.store: Store | None = None
        self.tables: dict[str, Table] = {}
        self.finished: OrderedDict[str, None] = OrderedDict()
        self.db_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ludus-db")
        self.bots = BotRunner(config.bot_threads, config.bot_processes)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.stopping = False
        self.secret: bytes | None = None
        self.spectators: Counter[str] = Counter()  # spectator connections by client address
        self.create_by_client = KeyedRateLimit(config.create_per_minute_client, config.create_burst_client)
        self.create_by_address = KeyedRateLimit(config.create_per_minute_address, config.create_burst_address)
        self.sweeper: asyncio.Task | None = None
        # Every task the hub starts, until it ends: the event loop keeps only a weak reference to a
        # task, so one nobody holds could be garbage-collected mid-run, and its failure go unseen.
        self.background: set[asyncio.Task[Any]] = set()

    # ----------------------------------------------------------------- life cycle
    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.store = await self.db(Store, self.config.database)
        self.secret = await self.db(server_secret, self.store.engine)
        rows, expired = await self.db(self.store.load_live, self.config.open_table_ttl)
        if expired:
            log.info("%d open table(s) expired while the server was down", expired)
        for data, age in rows:
            try:
                table = self._build(data)
            except (LudusError, KeyError, ValueError) as exc:
                log.error("table %s cannot be resumed: %s", data.code, exc)
                continue
            table.touched = time.monotonic() - age
            self.tables[table.code] = table
            for seat in table.seats:  # nobody is connected yet: give each a chance to come back
                self._start_grace(table, seat.index)
            self._schedule(table)
        log.info("resumed %d unfinished table(s)", len(self.tables))
        self.sweeper = self.spawn(self._sweep(), "expiry sweep")

    async def stop(self) -> None:
        self.stopping = True
        if self.sweeper is not None:
            self.sweeper.cancel()
        for table in self.tables.values():
            self._cancel_all(table)
            for seat in table.seats:
                handle = table.grace.pop(seat.index, None)
                if handle:
                    handle.cancel()
        self.bots.close()
        if self.store is not None:
            await self.db(self.store.close)
        self.db_thread.shutdown(wait=True)

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

    # ----------------------------------------------------------------- player tokens
    def _mac(self, rand: str) -> str:
        assert self.secret is not None
        return _b64(hmac.new(self.secret, rand.encode("ascii"), hashlib.sha256).digest())

    def issue_token(self) -> str:
        """A new player token: 256 random bits and the server's signature over them."""
        rand = secrets.token_urlsafe(32)
        return f"{rand}.{self._mac(rand)}"

    def valid_token(self, token: str | None) -> bool:
        """Whether this server (or another one on the same database) issued ``token``."""
        if not token or self.secret is None or len(token) > 128 or token.count(".") != 1:
            return False
        rand, mac = token.split(".")
        if len(rand) < 43 or not rand.isascii() or not mac.isascii():
            return False
        return hmac.compare_digest(mac.encode("ascii"), self._mac(rand).encode("ascii"))

    async def write(self, op: ops.Write) -> None:
        """Queue a write and wait until it is committed (grouped with others waiting then)."""
        assert self.store is not None
        await self.store.write(op)

    def _build(self, data: TableData) -> Table:
        """A live table from its stored record, replaying every action through the rules."""
        game = get_game(data.game)
        options = game.parse_options(data.options)
        state = game.new_initial_state(options, seed=data.seed)
        n = game.num_seats(options)
        seats = [Seat(s.seat, s.kind, s.bot, s.name, s.token_hash, s.away) for s in data.seats]
        if len(seats) != n:
            raise RecordError(f"table {data.code} has {len(seats)} seats but its game needs {n}")
        table = Table(code=data.code, game=game, options_json=data.options, seed=data.seed, status=data.status,
                      clock_seconds=data.clock_seconds, listed=data.listed, seats=seats, state=state,
                      moves=[0] * n, rematch_of=data.rematch_of, rematch_code=data.rematch_code)
        for i, (seat, raw, by_bot) in enumerate(data.actions):
            try:
                table.apply_recorded(seat, raw, by_bot)
            except (IllegalAction, RecordError) as exc:
                raise RecordError(f"table {data.code}: stored action {i + 1} does not replay: {exc}") from exc
        return table

    # ----------------------------------------------------------------- lookups
    async def get(self, code: str) -> Table:
        code = code.strip().upper()
        table = self.tables.get(code)
        if table is not None:
            if code in self.finished:
                self.finished.move_to_end(code)
            return table
        if not code or len(code) > 16 or any(ch not in CODE_ALPHABET for ch in code):
            raise ProtocolError("no_table", f"there is no table {code!r}")
        assert self.store is not None
        data = await self.db(self.store.load_table, code)
        if data is None:
            raise ProtocolError("no_table", f"there is no table {code!r}")
        if data.status == "expired":
            raise table_gone(code)
        table = self.tables.get(code) or self._build(data)
        self.tables[code] = table
        if table.status == "finished":
            self._remember_finished(table)
        return table

    def lobby(self) -> list[dict[str, Any]]:
        live = [t for t in self.tables.values() if t.listed and t.status in ("open", "playing")]
        live.sort(key=lambda t: (t.status != "open", t.code))
        return [t.public() for t in live[:200]]

    def _remember_finished(self, table: Table) -> None:
        self.finished[table.code] = None
        self.finished.move_to_end(table.code)
        while len(self.finished) > self.config.keep_finished:
            old, _ = self.finished.popitem(last=False)
            stale = self.tables.get(old)
            if stale is not None and not stale.conns:
                del self.tables[old]

    # ----------------------------------------------------------------- creating and joining
    async def create(self, game_name: str, options: Any, seats: list[dict[str, Any]], clock: int | None,
                     listed: bool, token: str | None, name: str | None, rematch_of: Table | None = None,
                     address: str | None = None) -> Table:
        """A new table. ``address`` (the client's) and ``token`` are rate limited; rematches are not."""
        if game_name not in game_names():
            raise ProtocolError("bad_game", f"unknown game {game_name!r}; games here: {', '.join(game_names())}")
        game = get_game(game_name)
        opts = check_options(game, options)
        n = game.num_seats(opts)
        if len(seats) != n:
            raise ProtocolError("bad_seats", f"these options make a {n}-seat game, but {len(seats)} seat(s) were given")
        kinds = bot_kinds(game, offered=False)
        seat_objs: list[Seat] = []
        for i, spec in enumerate(seats):
            kind = spec.get("kind")
            bot = spec.get("bot") or default_bot(game)
            if kind not in ("human", "bot"):
                raise ProtocolError("bad_seats", f"seat {i + 1}: kind must be 'human' or 'bot'")
            if bot not in kinds:
                raise ProtocolError("bad_seats", f"seat {i + 1}: unknown bot {bot!r}; bots for {game.title}: "
                                                 + ", ".join(bot_kinds(game)))
            seat_objs.append(Seat(i, kind, bot))
        low = self.config.min_clock
        if clock is not None and not low <= clock <= MAX_CLOCK:
            raise ProtocolError("bad_clock", f"the turn clock must be {low} to {MAX_CLOCK} seconds per move, or off")
        if rematch_of is None:
            self._limit_creation(token, address)
        live = sum(1 for t in self.tables.values() if t.status in ("open", "playing"))
        if live >= self.config.max_live_tables:
            raise ProtocolError("busy", "this server has too many tables in play; try again later")
        humans = [s for s in seat_objs if s.kind == "human"]
        if rematch_of is not None:
            for s in seat_objs:
                old = rematch_of.seats[s.index]
                s.name, s.token_hash = old.name, old.token_hash
        elif name is not None and humans:
            if token is None:
                raise ProtocolError("no_token", "a player token is needed to take a seat")
            humans[0].name, humans[0].token_hash = clean_name(name), hash_token(token)
        status = "playing" if all(s.token_hash for s in humans) else "open"
        seed = secrets.randbits(63)
        state = game.new_initial_state(opts, seed=seed)
        code = self._new_code()
        table = Table(code=code, game=game, options_json=options_to_json(opts), seed=seed, status=status,
                      clock_seconds=clock, listed=listed, seats=seat_objs, state=state, moves=[0] * n,
                      rematch_of=rematch_of.code if rematch_of else None)
        assert self.store is not None
        await self.write(ops.create_table(TableData(
            code=code, game=game.name, options=table.options_json, seed=seed, status=status, clock_seconds=clock,
            listed=listed, seats=[s.data() for s in seat_objs], rematch_of=table.rematch_of)))
        self.tables[code] = table
        log.info("table %s created: %s, %d seat(s)", code, game.name, n)
        if status == "playing":
            for s in humans:
                self._start_grace(table, s.index)
        self._schedule(table)
        return table

    def _limit_creation(self, token: str | None, address: str | None) -> None:
        """Token buckets per browser and per address; both must allow it, then both are charged."""
        now = time.monotonic()
        cfg = self.config
        checks = []
        if token is not None:
            checks.append((self.create_by_client, hash_token(token), cfg.create_per_minute_client,
                           cfg.create_burst_client, "you are"))
        if address is not None:
            checks.append((self.create_by_address, address, cfg.create_per_minute_address,
                           cfg.create_burst_address, "your network address is"))
        for limit, key, rate, burst, who in checks:
            wait = limit.wait(key, now)
            if wait > 0:
                raise RateLimited(f"{who} creating tables too fast (at most {burst} at once, then {rate:g} a minute); "
                                  f"please try again in {max(1, math.ceil(wait))} seconds", wait)
        for limit, key, *_ in checks:
            limit.take(key, now)

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.tables:
                return code

    async def join(self, table: Table, token: str, name: Any, seat: int | None) -> int:
        """Take a free human seat (or return the one this token already holds)."""
        display = clean_name(name)
        async with table.lock:
            mine = table.seat_of(token)
            if mine is not None:
                return mine
            if table.status == "expired":
                raise table_gone(table.code)
            if table.status != "open":
                raise ProtocolError("table_full", "this game has started; you can watch it")
            free = [s for s in table.seats if s.kind == "human" and s.token_hash is None]
            if seat is not None:
                if not isinstance(seat, int) or not 0 <= seat < len(table.seats):
                    raise ProtocolError("bad_seat", f"seat must be 0 to {len(table.seats) - 1}")
                free = [s for s in free if s.index == seat]
                if not free:
                    raise ProtocolError("seat_taken", f"seat {seat + 1} is not free")
            if not free:
                raise ProtocolError("table_full", "every seat is taken; you can watch")
            chosen = free[0]
            before = (chosen.name, chosen.token_hash)
            chosen.name, chosen.token_hash = display, hash_token(token)
            humans = [s for s in table.seats if s.kind == "human"]
            status = "playing" if all(s.token_hash for s in humans) else "open"
            try:
                await self.write(ops.update_seat(table.code, chosen.data(), status))
            except Exception:
                chosen.name, chosen.token_hash = before
                raise
            table.status = status
            table.touched = time.monotonic()
            if status == "playing":
                for s in humans:
                    if s.conns == 0:
                        self._start_grace(table, s.index)
            self._changed(table)
            return chosen.index

    async def leave(self, table: Table, token: str | None) -> None:
        """Before the start a seat is freed; during play a bot takes it until the player returns."""
        async with table.lock:
            index = table.seat_of(token)
            if index is None:
                raise ProtocolError("not_seated", "you have no seat at this table")
            seat = table.seats[index]
            if table.status == "open":
                seat.name, seat.token_hash = None, None
                table.touched = time.monotonic()
            elif table.status == "playing":
                seat.away = "left"
            else:
                return
            await self.write(ops.update_seat(table.code, seat.data()))
            self._changed(table)

    async def rematch(self, table: Table, token: str | None) -> Table:
        if table.seat_of(token) is None:
            raise ProtocolError("not_seated", "only the players of this table can ask for a rematch")
        async with table.lock:
            if table.status != "finished":
                raise ProtocolError("not_finished", "a rematch can start once this game is over")
            if table.rematch_code:
                return await self.get(table.rematch_code)
            seats = [{"kind": s.kind, "bot": s.bot} for s in table.seats]
            new = await self.create(table.game.name, table.options_json, seats, table.clock_seconds, table.listed,
                                    None, None, rematch_of=table)
            table.rematch_code = new.code
            self._changed(table)
            return new

    # ----------------------------------------------------------------- connections
    def connect(self, table: Table, conn: Connection) -> None:
        """Admit a connection. Seats have their own allowance, so spectators can never crowd a player out."""
        cfg = self.config
        if table.status == "expired":
            raise table_gone(table.code)
        if conn.seat is not None:
            if table.seats[conn.seat].conns >= cfg.max_connections_per_seat:
                raise ProtocolError("busy", f"your seat is already open in {cfg.max_connections_per_seat} windows; "
                                            "close one of them")
        else:
            watching = sum(1 for c in table.conns if c.seat is None)
            if watching >= cfg.max_spectators_per_table:
                raise ProtocolError("busy", "this table has as many spectators as it can take; try again later")
            if conn.address is not None:
                if self.spectators[conn.address] >= cfg.max_spectators_per_address:
                    raise ProtocolError("busy", "too many tables are being watched from your network address; "
                                                "close some of them")
                self.spectators[conn.address] += 1
                conn.counted = True
        table.conns.add(conn)
        if conn.seat is not None:
            seat = table.seats[conn.seat]
            seat.conns += 1
            handle = table.grace.pop(conn.seat, None)
            if handle:
                handle.cancel()
            if seat.away in ("left", "disconnected"):
                self.spawn(self.hand_back(table, conn.seat), f"hand back seat {conn.seat} at table {table.code}")
        self._changed(table)

    def disconnect(self, table: Table, conn: Connection) -> None:
        conn.closed = True
        conn.wake.set()
        if conn.counted and conn.address is not None:
            conn.counted = False
            self.spectators[conn.address] -= 1
            if self.spectators[conn.address] <= 0:
                del self.spectators[conn.address]
        if conn not in table.conns:
            return
        table.conns.discard(conn)
        if conn.seat is not None:
            seat = table.seats[conn.seat]
            seat.conns = max(0, seat.conns - 1)
            if seat.conns == 0:
                self._start_grace(table, conn.seat)
        self._changed(table)

    def _start_grace(self, table: Table, index: int) -> None:
        seat = table.seats[index]
        if seat.kind != "human" or seat.token_hash is None or seat.conns or index in table.grace:
            return
        if table.status != "playing" or seat.away is not None or self.loop is None:
            return

        def fire() -> None:
            table.grace.pop(index, None)
            self.spawn(self._gone(table, index), f"seat {index} gone at table {table.code}")

        table.grace[index] = self.loop.call_later(self.config.disconnect_grace, fire)

    async def _gone(self, table: Table, index: int) -> None:
        async with table.lock:
            seat = table.seats[index]
            if seat.conns or seat.away is not None or table.status != "playing":
                return
            seat.away = "disconnected"
            await self._save_seat(table, seat)
            self._changed(table)

    async def hand_back(self, table: Table, index: int) -> None:
        async with table.lock:
            seat = table.seats[index]
            if seat.away is None:
                return
            seat.away = None
            await self._save_seat(table, seat)
            task = table.bot_tasks.pop(index, None)
            if task:
                task.cancel()
            self._changed(table)

    async def _save_seat(self, table: Table, seat: Seat) -> None:
        try:
            await self.write(ops.update_seat(table.code, seat.data()))
        except Exception:  # the seat change is shown anyway; it only affects who plays, not the record
            log.exception("could not store seat %d of table %s", seat.index, table.code)

    # ----------------------------------------------------------------- expiry of open tables
    async def _sweep(self) -> None:
        """Now and then, expire the open tables nobody has joined or left for ``open_table_ttl`` seconds."""
        ttl = self.config.open_table_ttl
        interval = max(0.05, min(60.0, ttl / 4))
        while not self.stopping:
            await asyncio.sleep(interval)
            now = time.monotonic()
            for table in [t for t in self.tables.values() if t.status == "open" and now - t.touched > ttl]:
                try:
                    await self._expire(table)
                except Exception:  # the sweep goes on; the table is tried again next time
                    log.exception("could not expire table %s", table.code)

    async def _expire(self, table: Table) -> None:
        async with table.lock:
            if table.status != "open" or time.monotonic() - table.touched <= self.config.open_table_ttl:
                return
            await self.write(ops.expire_table(table.code))
            table.status = "expired"
            if self.tables.get(table.code) is table:
                del self.tables[table.code]
            self._cancel_all(table)
            for handle in table.grace.values():
                handle.cancel()
            table.grace.clear()
            gone = table_gone(table.code)
            for conn in list(table.conns):
                conn.push({"type": "error", "id": None, "code": gone.code, "message": gone.message})
                conn.close(4404, "table expired")
        log.info("table %s expired: nobody joined within %g s", table.code, self.config.open_table_ttl)

    # ----------------------------------------------------------------- moves
    async def submit(self, table: Table, seat: int | None, raw: Any, moves: int, by_bot: bool = False,
                     mid: Any = None) -> int:
        """Validate, persist, apply and announce one action; returns its ply. Raises ProtocolError.

        ``mid`` is the client's message id, used if the move has to be acknowledged late (below)."""
        async with table.lock:
            if table.unconfirmed is not None:  # an earlier move's commit is in doubt: settle it first
                await self._reconcile(table)
            if seat is None:
                raise ProtocolError("not_seated", "spectators cannot play; join a seat to play")
            if table.status == "open":
                raise ProtocolError("not_started", "the game starts when every seat is taken")
            state = table.state
            if state.is_terminal():
                raise ProtocolError("game_over", "the game is over")
            s = table.seats[seat]
            if by_bot and not s.bot_plays:
                raise ProtocolError("stale", "the player has taken the seat back")
            if moves != table.moves[seat]:
                raise ProtocolError("stale", f"that move was made from an old view (you have made {table.moves[seat]} "
                                             f"move(s), the message says {moves}); here is the current table")
            if seat not in state.current_seats():
                raise ProtocolError("not_your_turn", "it is not your turn")
            try:
                action = table.game.action_from_json(raw)
            except RecordError as exc:
                raise ProtocolError("bad_action", str(exc)) from None
            except Exception:  # noqa: BLE001 - a game's parser may choke on odd JSON; still the client's fault
                raise ProtocolError("bad_action", f"{raw!r:.80} is not a {table.game.title} move") from None
            reason = state.why_illegal(action, seat)
            if reason is not None:
                raise ProtocolError("illegal", reason)
            after = state.clone()
            try:
                after.apply(action, seat)
            except IllegalAction as exc:
                raise ProtocolError("illegal", str(exc)) from None
            ply = len(table.recorded)
            canonical = action.to_json()
            status = "finished" if after.is_terminal() else table.status
            result = {"scores": after.scores(), "winners": after.winners()} if after.is_terminal() else None
            op = ops.append_action(table.code, ply, seat, canonical, by_bot, status, result)
            move = PendingMove(op, ply, seat, canonical, by_bot, status, after, mid)
            try:
                await self.write(op)
            except ops.OutcomeUnknown as exc:
                # The commit failed in a way that may have stored the move, and the database cannot
                # be asked now. Keep the move: no other move may take this ply until we know.
                log.error("move %d of table %s: commit outcome unknown; holding the table until it is known",
                          ply, table.code)
                move.ghost = exc.ghost
                table.unconfirmed = move
                move.task = self.spawn(self._reconcile_later(table, move),
                                       f"reconcile move {ply} at table {table.code}")
                raise ProtocolError("unconfirmed", UNCONFIRMED) from None
            except Exception:
                log.exception("could not store move %d of table %s", ply, table.code)
                raise ProtocolError("server_error",
                                    "the move could not be saved; nothing changed, please retry") from None
            await self._apply_move(table, move)
            return ply

    async def _apply_move(self, table: Table, move: PendingMove) -> None:
        """Swap in a stored move's state and announce it (under the table's lock)."""
        table.state = move.after
        table.recorded.append((move.seat, move.action))
        table.by_bot.append(move.by_bot)
        table.moves[move.seat] += 1
        s = table.seats[move.seat]
        if not move.by_bot and s.away == "timeout":
            s.away = None  # playing by hand is taking the seat back
            await self._save_seat(table, s)
        table.status = move.status
        if move.status == "finished":
            log.info("table %s finished after %d moves", table.code, move.ply + 1)
            self._remember_finished(table)
        self._changed(table)

    async def _reconcile(self, table: Table) -> None:
        """Learn whether the table's unconfirmed move was stored (under the table's lock).

        Stored: apply it and acknowledge it late to its seat's connections. Not stored: drop it
        and tell them. Cannot tell yet: raise ``unconfirmed`` and keep holding the table."""
        move = table.unconfirmed
        if move is None:
            return
        wait = move.next_try - time.monotonic()
        if wait > 0:  # the database was unreachable a moment ago: do not hammer it
            await asyncio.sleep(wait)
        assert self.store is not None
        try:
            stored = await self.db(self.store.applied, move.op, move.ghost)
        except Exception as exc:  # noqa: BLE001 - still cannot reach the database
            move.tries += 1
            move.next_try = time.monotonic() + min(2.0, 0.1 * 2 ** move.tries)
            log.warning("move %d of table %s still unconfirmed: %s", move.ply, table.code,
                        str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
            raise ProtocolError("unconfirmed", "this table is waiting to learn whether its last move was saved; "
                                               "try again in a moment") from None
        table.unconfirmed = None
        seat_conns = [c for c in table.conns if c.seat == move.seat and not c.closed]
        if stored:
            log.warning("move %d of table %s was stored after all: applying it", move.ply, table.code)
            await self._apply_move(table, move)
            if not move.by_bot:
                for conn in seat_conns:
                    conn.push({"type": "ack", "id": move.mid, "ply": move.ply})
        else:
            log.warning("move %d of table %s was not stored: dropped", move.ply, table.code)
            if not move.by_bot:
                for conn in seat_conns:
                    conn.push({"type": "error", "id": move.mid, "code": "server_error",
                               "message": "your move could not be saved; nothing changed, please play it again"})
            self._changed(table)

    async def _reconcile_later(self, table: Table, move: PendingMove) -> None:
        """Keep asking, with back-off, until the unconfirmed move is settled (or another path settled it)."""
        try:
            while not self.stopping:
                await asyncio.sleep(max(0.2, move.next_try - time.monotonic()))
                async with table.lock:
                    if table.unconfirmed is not move or self.stopping:
                        return
                    try:
                        await self._reconcile(table)
                        return
                    except ProtocolError:
                        continue
        except asyncio.CancelledError:
            pass

    # ----------------------------------------------------------------- views
    def view_for(self, table: Table, conn: Connection) -> dict[str, Any]:
        key = ("view", conn.seat)
        base = table.cache.get(key)
        if base is None:
            now = time.monotonic()
            base = seat_payload(table.state, conn.seat)
            base.update({
                "type": "view",
                "table": table.public(),
                "you": conn.seat,
                "names": table.names(),
                "ply": len(table.recorded),
                "moves": None if conn.seat is None else table.moves[conn.seat],
                "clock": {str(seat): round(max(0.0, deadline - now), 1)
                          for seat, (_, deadline, _) in table.deadlines.items()},
            })
            table.cache[key] = base
        hkey = ("history", conn.seat)
        entries = table.cache.get(hkey)
        if entries is None:
            log_ = table.logs.setdefault(conn.seat, ViewerLog())
            log_.update(table.state, conn.seat)
            entries = table.cache[hkey] = log_.entries
        sent = conn.sent
        start = 0
        limit = min(len(sent), len(entries))
        while start < limit and sent[start] is entries[start]:
            start += 1
        conn.sent = list(entries)
        return {**base, "history": {"from": start, "entries": entries[start:]}}

    def _changed(self, table: Table) -> None:
        table.cache.clear()
        for conn in table.conns:
            conn.mark_dirty()
        self._schedule(table)

    # ----------------------------------------------------------------- bots and clocks
    def _cancel_all(self, table: Table) -> None:
        for task in table.bot_tasks.values():
            task.cancel()
        table.bot_tasks.clear()
        for _, _, handle in table.deadlines.values():
            handle.cancel()
        table.deadlines.clear()

    def _schedule(self, table: Table) -> None:
        """Start the bots and clocks the table needs now, and stop the ones it no longer needs."""
        if table.status != "playing" or table.state.is_terminal() or self.loop is None or self.stopping:
            self._cancel_all(table)
            return
        current = [s for s in table.state.current_seats() if s != CHANCE]
        for index in list(table.bot_tasks):
            if index not in current or not table.seats[index].bot_plays:
                table.bot_tasks.pop(index).cancel()
        for index in list(table.deadlines):
            moves_then, _, handle = table.deadlines[index]
            if index not in current or table.seats[index].bot_plays or moves_then != table.moves[index]:
                handle.cancel()
                del table.deadlines[index]
        for index in current:
            seat = table.seats[index]
            if seat.bot_plays:
                if index not in table.bot_tasks:
                    table.bot_tasks[index] = self.spawn(self._bot_turn(table, index),
                                                        f"bot for seat {index} at table {table.code}")
            elif table.clock_seconds and index not in table.deadlines:
                moves = table.moves[index]
                handle = self.loop.call_later(table.clock_seconds, self._on_timeout, table, index, moves)
                table.deadlines[index] = (moves, time.monotonic() + table.clock_seconds, handle)

    def _on_timeout(self, table: Table, index: int, moves: int) -> None:
        self.spawn(self._timeout(table, index, moves), f"clock for seat {index} at table {table.code}")

    async def _timeout(self, table: Table, index: int, moves: int) -> None:
        async with table.lock:
            entry = table.deadlines.get(index)
            if entry is None or entry[0] != moves or table.moves[index] != moves:
                return
            del table.deadlines[index]
            seat = table.seats[index]
            seat.away = "timeout"
            await self._save_seat(table, seat)
            self._changed(table)

    def _agent(self, table: Table, seat: Seat) -> Agent:
        if seat.agent is None:
            seed = (table.seed ^ (seat.index * 0x9E3779B97F4A7C15)) & (2**63 - 1)
            seat.agent = make_agent(seat.bot, table.game, seed=seed)
        return seat.agent

    async def _bot_turn(self, table: Table, index: int) -> None:
        """Pause, choose off the loop, submit like a player would; then look at the table again."""
        me = asyncio.current_task()
        cancelled = False
        try:
            if self.config.bot_delay > 0:
                await asyncio.sleep(self.config.bot_delay)
            seat = table.seats[index]
            moves = table.moves[index]
            try:
                if self.bots.uses_process(seat.bot):
                    action = await self.bots.in_process(table.game, table.options_json, table.seed,
                                                        list(table.recorded), index, seat.bot,
                                                        table.seed + len(table.recorded))
                else:
                    action = await self.bots.in_thread(self._agent(table, seat), table.state.view(index))
                raw = action.to_json()
            except asyncio.CancelledError:
                raise
            except Exception:  # a broken agent must not stall the table: play its first legal move instead
                if self.stopping:
                    return
                log.exception("bot %s at table %s failed; playing its first legal move", seat.bot, table.code)
                legal = table.state.legal_actions(index) if index in table.state.current_seats() else ()
                if not legal:
                    return
                raw = legal[0].to_json()
            if table.bot_tasks.get(index) is me:
                del table.bot_tasks[index]
            try:
                await self.submit(table, index, raw, moves, by_bot=True)
            except ProtocolError as exc:
                if exc.code in ("illegal", "bad_action"):
                    log.error("bot %s at table %s chose a bad move: %s", seat.bot, table.code, exc.message)
                    legal = table.state.legal_actions(index) if index in table.state.current_seats() else ()
                    if legal:
                        await self.submit(table, index, legal[0].to_json(), table.moves[index], by_bot=True)
        except asyncio.CancelledError:
            cancelled = True
            raise
        except ProtocolError as exc:
            log.warning("bot move at table %s refused: %s", table.code, exc.message)
        except Exception:
            log.exception("bot for seat %d at table %s failed", index, table.code)
        finally:
            if table.bot_tasks.get(index) is me:
                del table.bot_tasks[index]
            if not cancelled:
                self._schedule(table)  # whatever happened meanwhile, start what the table needs now

    # ----------------------------------------------------------------- records
    def record_for(self, table: Table, viewer: int | None) -> dict[str, Any]:
        """The full record once the game is over; before that, only what ``viewer`` has seen."""
        names = table.names()
        if table.state.is_terminal():
            return record_of(table.state, table.seed, players=names).to_json()
        return viewer_record(table.state, viewer, names, table.options_json)

    def replay_frames(self, table: Table, viewer: int | None) -> list[dict[str, Any]]:
        """The finished game move by move, each frame the table as ``viewer`` saw it after that move."""
        if not table.state.is_terminal():
            raise ProtocolError("not_finished", "the replay opens when the game is over")
        key = viewer
        frames = table.replays.get(key)
        if frames is not None:
            return frames
        state = table.game.new_initial_state(table.game.parse_options(table.options_json), seed=table.seed)
        names = table.names()
        frames = [{"ply": 0, "actor": None, "label": "Start", "observation": state.observation(viewer).to_json()}]
        for ply, (seat, raw) in enumerate(table.recorded):
            action = table.game.action_from_json(raw)
            state.apply(action, seat)
            frames.append({"ply": ply + 1, "actor": seat, "label": f"{names[seat]}: {action.label}",
                           "observation": state.observation(viewer).to_json()})
        table.replays[key] = frames
        return frames


def dumps(msg: dict[str, Any]) -> str:
    text = json.dumps(msg, separators=(",", ":"), ensure_ascii=False)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # text UTF-8 cannot carry (a lone surrogate): send it escaped instead
            return json.dumps(msg, separators=(",", ":"))
    return text
