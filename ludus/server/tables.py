"""Table lifecycle and the lobby: which tables exist, and how they come and go.

:class:`TableRegistry` owns a table's existence rather than its play: the player tokens
(signed with the server's secret), creating tables within the configured limits (game,
options, seats, clock, creation rate, live-table cap), rebuilding them from their stored
records at start-up or on first use, the lobby list, remembering the last finished tables,
rematches, and expiring the open tables nobody joined. The live tables themselves are the
hub's ``tables``; seats and play are :mod:`.seats` and :mod:`.turns`.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import secrets
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from ..core.errors import IllegalAction, InvalidOptions, LudusError, Message, RecordError
from ..core.game import Game
from ..core.options import OptionInfo, options_to_json
from ..games import game_names, get_game
from ..i18n import N_
from . import store as ops
from .bots import bot_kinds, default_bot
from .db import server_secret
from .live import Seat, Table, seat_label, table_gone
from .protocol import RATED_NEEDS_ACCOUNT, ProtocolError, RateLimited, clean_name, whole_seconds
from .ratings import check_rated, pool_of
from .store import TableData
from .throttles import Limit

__all__ = [
    "CODE_ALPHABET", "CODE_LENGTH", "MAX_CLOCK", "RateLimited", "TableRegistry", "check_options", "is_file_option",
    "server_options",
]

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("ludus.server")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


MAX_CLOCK = 3600


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _public(data: TableData) -> dict[str, Any]:
    """A lobby entry for a table another worker plays, from its stored row."""
    game = get_game(data.game)
    pool = pool_of(game, len(data.seats)) if data.rated else None
    return {"code": data.code, "game": game.name, "title": game.title, "status": data.status,
            "options": data.options, "clock": data.clock_seconds, "listed": data.listed, "hints": data.hints,
            "rated": pool is not None, "pool": pool.key if pool else None, "pool_label": pool.label if pool else None,
            "rematch_of": data.rematch_of, "rematch": None, "plies": None, "spectators": None,
            "seats": [{"seat": s.seat, "name": seat_label(s.kind, s.bot, s.name, s.seat), "kind": s.kind, "bot": s.bot,
                       "taken": s.kind == "bot" or s.token_hash is not None, "away": s.away, "connected": None}
                      for s in data.seats]}


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
            raise ProtocolError("bad_options", Message(N_("option '{name}' names a file; this server does not read "
                                                          "files chosen by players"), name=str(key)))
    try:
        return game.parse_options(values)
    except InvalidOptions as exc:
        raise ProtocolError.carrying("bad_options", exc) from None


class TableRegistry:
    """Creating, finding, listing and expiring the hub's tables; the tokens that seat players at them."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        config = hub.config
        self.secret: bytes | None = None
        self.finished: OrderedDict[str, None] = OrderedDict()  # the last finished tables kept live, oldest first
        self.create_by_client = Limit("create_client", config.create_per_minute_client, config.create_burst_client)
        self.create_by_address = Limit("create_address", config.create_per_minute_address,
                                       config.create_burst_address)
        self.sweeper: asyncio.Task | None = None
        self.adopting = asyncio.Lock()  # see adopt

    # ----------------------------------------------------------------- start-up
    async def resume(self) -> None:
        """Load the secret, bring back every unfinished table, and start the expiry sweep."""
        hub = self.hub
        assert hub.store is not None
        self.secret = await hub.db(server_secret, hub.store.engine)
        self.sweeper = hub.spawn(self._sweep(), "expiry sweep")
        if hub.leases.enabled:  # a group of workers: each adopts the tables nobody holds (leases.py)
            expired = await hub.db(hub.store.expire_stale, hub.config.open_table_ttl)
            if expired:
                log.info("%d open table(s) expired while no server played them", expired)
            return
        rows, expired = await hub.db(hub.store.load_live, hub.config.open_table_ttl)
        if expired:
            log.info("%d open table(s) expired while the server was down", expired)
        for data, age in rows:
            try:
                table = self.build(data)
            except (LudusError, KeyError, ValueError) as exc:
                log.error("table %s cannot be resumed: %s", data.code, exc)
                continue
            table.touched = time.monotonic() - age
            hub.tables[table.code] = table
            for seat in table.seats:  # nobody is connected yet: give each a chance to come back
                hub.seating.start_grace(table, seat.index)
            hub.turns.schedule(table)
        log.info("resumed %d unfinished table(s)", len(hub.tables))

    async def adopt(self, code: str) -> Table | None:
        """Play an unfinished table whose lease this worker has just taken (its worker stopped or
        was killed): rebuilt from the record, its players given time to reconnect."""
        hub = self.hub
        # One adoption at a time: a request for the table and the orphan sweep could otherwise both
        # load it while the other awaits the database, and the second copy replace the first, whose
        # sockets then heard nothing more and whose bots wrote the same plies again.
        async with self.adopting:
            if code in hub.tables:
                return hub.tables[code]
            assert hub.store is not None
            data = await hub.db(hub.store.load_table, code)
            if data is None or data.status not in ("open", "playing"):
                await hub.leases.release(code)
                return None
            table = self.build(data)
            hub.tables[code] = table
        for seat in table.seats:
            hub.seating.start_grace(table, seat.index)
        hub.turns.schedule(table)
        log.info("adopted table %s (%s, %d moves)", code, data.game, len(data.actions))
        return table

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

    def build(self, data: TableData) -> Table:
        """A live table from its stored record, replaying every action through the rules."""
        game = get_game(data.game)
        options = game.parse_stored_options(data.options)  # a table stored before an option existed keeps its rules
        state = game.new_initial_state(options, seed=data.seed)
        n = game.num_seats(options)
        seats = [Seat(s.seat, s.kind, s.bot, s.name, s.token_hash, s.away) for s in data.seats]
        if len(seats) != n:
            raise RecordError(f"table {data.code} has {len(seats)} seats but its game needs {n}")
        table = Table(code=data.code, game=game, options_json=options_to_json(options), seed=data.seed,
                      status=data.status, clock_seconds=data.clock_seconds, listed=data.listed, seats=seats,
                      state=state, moves=[0] * n, rematch_of=data.rematch_of, rematch_code=data.rematch_code,
                      hints=data.hints, pool=pool_of(game, n) if data.rated else None)
        if data.rated and table.pool is None:
            raise RecordError(f"table {data.code} is rated, but {game.title} has no rated pool for {n} players")
        for i, (seat, raw, by_bot) in enumerate(data.actions):
            try:
                table.apply_recorded(seat, raw, by_bot)
            except (IllegalAction, RecordError) as exc:
                raise RecordError(f"table {data.code}: stored action {i + 1} does not replay: {exc}") from exc
        return table

    # ----------------------------------------------------------------- lookups
    async def get(self, code: str) -> Table:
        tables = self.hub.tables
        code = code.strip().upper()
        table = tables.get(code)
        if table is not None:
            if code in self.finished:
                self.finished.move_to_end(code)
            return table
        if not code or len(code) > 16 or any(ch not in CODE_ALPHABET for ch in code):
            raise ProtocolError("no_table", Message(N_("there is no table '{code}'"), code=code))
        store = self.hub.store
        assert store is not None
        data = await self.hub.db(store.load_table, code)
        if data is None:
            raise ProtocolError("no_table", Message(N_("there is no table '{code}'"), code=code))
        if data.status == "expired":
            raise table_gone(code)
        if self.hub.leases.enabled and data.status in ("open", "playing"):
            ours, _ = await self.hub.leases.claim(code)
            if not ours:
                raise ProtocolError("moved", Message(N_("table {code} is played by another server of this group; "
                                                        "reload the page to reach it"), code=code))
            adopted = await self.adopt(code)
            if adopted is None:
                raise ProtocolError("no_table", Message(N_("there is no table '{code}'"), code=code))
            return adopted
        table = tables.get(code) or self.build(data)
        tables[code] = table
        if table.status == "finished":
            self.remember_finished(table)
        return table

    async def lobby(self) -> list[dict[str, Any]]:
        """The listed tables open or in play: this server's, and in a group of workers the others'
        too (read from the database, with what only their worker knows left at its default)."""
        live = [t.public() for t in self.hub.tables.values() if t.listed and t.status in ("open", "playing")]
        if self.hub.leases.enabled:
            assert self.hub.store is not None
            here = {t["code"] for t in live}
            for data in await self.hub.db(self.hub.store.listed_live):
                if data.code not in here:
                    try:
                        live.append(_public(data))
                    except (LudusError, KeyError, ValueError):
                        continue
        live.sort(key=lambda t: (t["status"] != "open", t["code"]))
        return live[:200]

    def remember_finished(self, table: Table) -> None:
        """Keep the newest ``keep_finished`` finished tables live; drop older ones nobody is watching."""
        tables = self.hub.tables
        self.finished[table.code] = None
        self.finished.move_to_end(table.code)
        while len(self.finished) > self.hub.config.keep_finished:
            old, _ = self.finished.popitem(last=False)
            stale = tables.get(old)
            if stale is not None and not stale.conns:
                del tables[old]

    # ----------------------------------------------------------------- creating
    async def create(self, game_name: str, options: Any, seats: list[dict[str, Any]], clock: int | None,
                     listed: bool, key: str | None, name: str | None, rematch_of: Table | None = None,
                     address: str | None = None, *, hints: bool = False, rated: bool = False,
                     member: bool = False, holders: list[tuple[str, str]] | None = None) -> Table:
        """A new table. ``address`` (the client's) and ``key`` (the player's) are rate limited;
        rematches are not. With a ``name``, the player with ``key`` takes the first human seat.

        ``hints`` lets its players ask what the bot would play (off unless asked for). A
        ``rated`` table is created only by a ``member`` (a player with an account), with the
        standard rules and no hints (:func:`.ratings.check_rated`). ``holders`` (key, name) take
        the human seats in order (quick play's matched players).
        """
        hub = self.hub
        if game_name not in game_names():
            raise ProtocolError("bad_game", Message(N_("unknown game '{name}'; games here: {games}"),
                                                   name=str(game_name), games=", ".join(game_names())))
        game = get_game(game_name)
        opts = check_options(game, options)
        n = game.num_seats(opts)
        if len(seats) != n:
            raise ProtocolError("bad_seats", Message(N_("these options make a game of {seats} seats, but {given} "
                                                        "were given"),
                                                    seats=n, given=len(seats)))
        kinds = bot_kinds(game, offered=False)
        seat_objs: list[Seat] = []
        for i, spec in enumerate(seats):
            kind = spec.get("kind")
            bot = spec.get("bot") or default_bot(game)
            if kind not in ("human", "bot"):
                raise ProtocolError("bad_seats", Message(N_("seat {number}: kind must be 'human' or 'bot'"),
                                                        number=i + 1))
            if bot not in kinds:
                raise ProtocolError("bad_seats", Message(N_("seat {number}: unknown bot '{bot}'; bots for {game}: "
                                                            "{bots}"),
                                                        number=i + 1, bot=str(bot), game=Message(game.title),
                                                        bots=", ".join(bot_kinds(game))))
            seat_objs.append(Seat(i, kind, bot))
        pool = None
        if rated:
            if not member and rematch_of is None:
                raise ProtocolError("not_logged_in", Message(RATED_NEEDS_ACCOUNT))
            pool = check_rated(game, opts, [s.kind for s in seat_objs], hints)
        low = hub.config.min_clock
        if clock is not None and not low <= clock <= MAX_CLOCK:
            raise ProtocolError("bad_clock", Message(N_("the turn clock must be {low} to {high} seconds per move, "
                                                        "or off"),
                                                    low=low, high=MAX_CLOCK))
        if rematch_of is None:
            await self._limit_creation(key, address)
        live = sum(1 for t in hub.tables.values() if t.status in ("open", "playing"))
        if live >= hub.config.max_live_tables:
            raise ProtocolError("busy", Message(N_("this server has too many tables in play; try again later")))
        humans = [s for s in seat_objs if s.kind == "human"]
        if rematch_of is not None:
            for s in seat_objs:
                old = rematch_of.seats[s.index]
                s.name, s.token_hash = old.name, old.token_hash
        elif holders:
            if len(holders) != len(humans):
                raise ProtocolError("bad_seats", Message(N_("{players} players for {seats} human seats"),
                                                        players=len(holders), seats=len(humans)))
            for s, (holder, shown) in zip(humans, holders):
                s.name, s.token_hash = clean_name(shown), holder
        elif name is not None and humans:
            if key is None:
                raise ProtocolError("no_token", Message(N_("a player token is needed to take a seat")))
            humans[0].name, humans[0].token_hash = clean_name(name), key
        status = "playing" if all(s.token_hash for s in humans) else "open"
        seed = secrets.randbits(63)
        state = game.new_initial_state(opts, seed=seed)
        code = self._new_code()
        if hub.leases.enabled:
            ours, _ = await hub.leases.claim(code)
            if not ours:  # a code another worker took this very moment
                raise ProtocolError("busy", Message(N_("please try again")))
        table = Table(code=code, game=game, options_json=options_to_json(opts), seed=seed, status=status,
                      clock_seconds=clock, listed=listed, seats=seat_objs, state=state, moves=[0] * n,
                      rematch_of=rematch_of.code if rematch_of else None, hints=bool(hints), pool=pool)
        assert hub.store is not None
        await hub.write(ops.create_table(TableData(
            code=code, game=game.name, options=table.options_json, seed=seed, status=status, clock_seconds=clock,
            listed=listed, seats=[s.data() for s in seat_objs], rematch_of=table.rematch_of, hints=table.hints,
            rated=table.rated)))
        hub.tables[code] = table
        log.info("table %s created: %s, %d seat(s)", code, game.name, n)
        if table.hints:
            hub.hints.warm(table)
        if any(s.kind == "bot" and hub.bots.uses_process(s.bot) for s in seat_objs):
            hub.bots.warm(game, code)
        if status == "playing":
            for s in humans:
                hub.seating.start_grace(table, s.index)
        hub.turns.schedule(table)
        return table

    async def _limit_creation(self, key: str | None, address: str | None) -> None:
        """Token buckets per player and per address (:mod:`.throttles`); both must allow it, then both are
        charged."""
        cfg = self.hub.config
        checks = [(self.create_by_client, key, cfg.create_per_minute_client, cfg.create_burst_client,
                   N_("you are creating tables too fast (at most {burst} at once, then {rate} a minute); please try "
                      "again in {seconds} seconds")),
                  (self.create_by_address, address, cfg.create_per_minute_address, cfg.create_burst_address,
                   N_("your network address is creating tables too fast (at most {burst} at once, then {rate} a "
                      "minute); please try again in {seconds} seconds"))]
        waits = await self.hub.throttles.take([(limit, who) for limit, who, *_ in checks])
        for wait, (_, _, rate, burst, said) in zip(waits, checks):
            if wait > 0:
                shown = int(rate) if float(rate).is_integer() else rate
                raise RateLimited(Message(said, burst=burst, rate=shown, seconds=whole_seconds(wait)), wait)

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.hub.tables:
                return code

    async def rematch(self, table: Table, key: str | None) -> Table:
        if table.seat_of(key) is None:
            raise ProtocolError("not_seated", Message(N_("only the players of this table can ask for a rematch")))
        async with table.lock:
            if table.status != "finished":
                raise ProtocolError("not_finished", Message(N_("a rematch can start once this game is over")))
            if table.rematch_code:
                return await self.get(table.rematch_code)
            seats = [{"kind": s.kind, "bot": s.bot} for s in table.seats]
            new = await self.create(table.game.name, table.options_json, seats, table.clock_seconds, table.listed,
                                    None, None, rematch_of=table, hints=table.hints, rated=table.rated)
            table.rematch_code = new.code
            self.hub.changed(table)
            return new

    # ----------------------------------------------------------------- expiry of open tables
    async def _sweep(self) -> None:
        """Now and then, expire the open tables nobody has joined or left for ``open_table_ttl`` seconds."""
        hub = self.hub
        ttl = hub.config.open_table_ttl
        interval = max(0.05, min(60.0, ttl / 4))
        while not hub.stopping:
            await asyncio.sleep(interval)
            now = time.monotonic()
            for table in [t for t in hub.tables.values() if t.status == "open" and now - t.touched > ttl]:
                try:
                    await self._expire(table)
                except Exception:  # the sweep goes on; the table is tried again next time
                    log.exception("could not expire table %s", table.code)

    async def _expire(self, table: Table) -> None:
        hub = self.hub
        async with table.lock:
            if table.status != "open" or time.monotonic() - table.touched <= hub.config.open_table_ttl:
                return
            await hub.write(ops.expire_table(table.code))
            table.status = "expired"
            if hub.tables.get(table.code) is table:
                del hub.tables[table.code]
            hub.turns.cancel_all(table)
            for handle in table.grace.values():
                handle.cancel()
            table.grace.clear()
            gone = table_gone(table.code)
            for conn in list(table.conns):
                conn.push({"type": "error", "id": None, "code": gone.code, "message": gone.message})
                conn.close(4404, "table expired")
        log.info("table %s expired: nobody joined within %g s", table.code, hub.config.open_table_ttl)
