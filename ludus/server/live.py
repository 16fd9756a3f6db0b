"""The live objects every part of the hub works on: tables, their seats and connections.

These are plain state with a few read-only helpers; the rules for changing them live with
the part of the hub that owns each change (:mod:`.tables`, :mod:`.seats`, :mod:`.turns`).
They are kept apart so that each of those modules can import them without importing the
others. All of it lives on the event loop and changes only under the table's lock.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ..agents.base import Agent
from ..core.errors import Message
from ..core.game import Game, State
from ..core.plugin import RatingPool
from ..i18n import N_
from . import store as ops
from .protocol import ProtocolError, RateLimit
from .store import SeatData
from .views import ViewerLog

__all__ = ["Connection", "PendingMove", "Seat", "Table", "hash_token", "seat_label", "table_gone"]


def hash_token(token: str) -> str:
    """A player's key from their cookie token: what a seat stores (``token_hash``), never the token.

    A player with an account holds the account's key instead (:mod:`.accounts`), the same on
    every browser they log in from."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def seat_label(kind: str, bot: str, name: str | None, index: int) -> str:
    """What a seat is called at its table: the player's name, or the bot's kind and number."""
    if kind == "bot":
        return f"{bot.capitalize()} bot {index + 1}"
    return name or f"Seat {index + 1} (open)"


def table_gone(code: str) -> ProtocolError:
    return ProtocolError("expired", Message(N_("table {code} has expired: nobody joined it in time; create a new one"),
                                           code=code))


class Connection:
    """One WebSocket: a seat or a spectator. Views are coalesced: only the newest is sent."""

    def __init__(self, send: Callable[[str], Awaitable[None]], seat: int | None, rate: RateLimit,
                 address: str | None = None) -> None:
        self.send = send
        self.seat = seat
        self.rate = rate
        self.address = address  # the client's address, for the per-address spectator cap
        # (account id, session token hash) of the login it came with: logging that session out closes it
        self.session: tuple[int, str] | None = None
        self.counted = False  # counted among the address's spectators
        self.close_with: tuple[int, str] | None = None  # the sender closes the socket with this, after the outbox
        self.outbox: deque[dict[str, Any]] = deque()
        self.dirty = True
        self.wake = asyncio.Event()
        self.wake.set()
        # the log this connection was last sent, at which version and how many entries (see ViewerLog)
        self.log_sent: tuple[ViewerLog | None, int, int] = (None, 0, 0)
        self.closed = False
        self.lang = "en"  # the reader's language (cookie or Accept-Language of the handshake): refusals are said in it

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
    hints: bool = False  # players may ask "What would the bot play?" (shown to everyone)
    pool: RatingPool | None = None  # a rated table's pool of player counts (ratings.py); None: casual
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
    unconfirmed: PendingMove | None = None  # a move whose commit is in doubt (see Turns.submit)
    # History indices of moves a player's page played by itself (forced moves): shown as a mark in
    # the log. Kept in memory only, not in the record: a restarted server no longer shows them.
    auto_played: set[int] = field(default_factory=set)
    # Another worker plays it now (Hub.drop): this copy stores nothing more and starts no bot, even
    # from a task that was already under way when the lease went.
    dropped: bool = False

    @property
    def rated(self) -> bool:
        return self.pool is not None

    def seat_of(self, key: str | None) -> int | None:
        """The seat held by ``key`` (a player's key: see :func:`hash_token` and the accounts' keys)."""
        if not key:
            return None
        for seat in self.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, key):
                return seat.index
        return None

    def names(self) -> list[str]:
        return [seat_label(s.kind, s.bot, s.name, s.index) for s in self.seats]

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
            "hints": self.hints,
            "rated": self.rated,
            "pool": self.pool.key if self.pool else None,
            "pool_label": self.pool.label if self.pool else None,
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
    auto_index: int | None = None  # the move's history index when the player's page played it by itself
    tries: int = 0
    next_try: float = 0.0
    task: asyncio.Future | None = None
