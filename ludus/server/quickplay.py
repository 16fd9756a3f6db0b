"""Quick play: "Play now" for a game and a player count, without arranging a table.

Players wait in a pool per (game, player count, rated or casual). As soon as enough of them
are there, a table starts with them seated in a random order. Each player may also say that
bots may fill the empty seats after a wait they choose: once a player has waited that long,
a table starts with every such player whose wait is over, and bots in the remaining seats.

The pool lives in this server's memory, keyed by the player's key, so a page that reloads
or reconnects (or another browser logged in to the same account) finds its place again; a
player whose page stops asking for ``idle`` seconds is dropped, so nobody is seated at a
table they have left. A matched player keeps the table's code for a while, to be sent
there when their page asks next. Tables use the game's standard options (the same as rated
tables), so everyone in a pool plays the same game.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.errors import Message
from ..games import game_names, get_game
from ..i18n import N_
from .bots import default_bot
from .protocol import RATED_NEEDS_ACCOUNT, ProtocolError, clean_name
from .ratings import check_rated
from .tables import check_options

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["MAX_BOT_WAIT", "MIN_BOT_WAIT", "QuickPlay"]

log = logging.getLogger("ludus.server")

MIN_BOT_WAIT, MAX_BOT_WAIT = 5, 600
"""The wait a player may set before bots fill the seats, in seconds."""
TICK = 0.25


@dataclass
class Entry:
    key: str
    name: str
    game: str
    players: int
    rated: bool
    bots_after: int | None  # seconds, or None: people only
    joined: float
    seen: float
    table: str | None = None  # the table it was matched to
    matched: float = 0.0

    @property
    def pool(self) -> tuple[str, int, bool]:
        return (self.game, self.players, self.rated)


class QuickPlay:
    """The waiting players, and the task that matches them."""

    def __init__(self, hub: Hub, idle: float = 30.0, keep_matched: float = 300.0) -> None:
        self.hub = hub
        self.idle = idle
        self.keep_matched = keep_matched
        self.entries: dict[str, Entry] = {}
        self.matcher: asyncio.Task | None = None
        self.matching = asyncio.Lock()  # one matching pass at a time: a group is seated once
        self.rng = random.SystemRandom()

    # ----------------------------------------------------------------- the player's side
    def join(self, key: str, name: Any, game_name: Any, players: Any, rated: bool, bots_after: Any,
             member: bool) -> dict[str, Any]:
        """Wait in a pool (a second call replaces the first); checked before anything changes."""
        if game_name not in game_names():
            raise ProtocolError("bad_game", Message(N_("unknown game '{name}'; games here: {games}"),
                                                   name=str(game_name), games=", ".join(game_names())))
        game = get_game(game_name)
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= game.max_seats:
            said = Message(N_("quick play for {game} is for {low} to {high} players"), game=Message(game.title), low=2,
                           high=game.max_seats) if game.max_seats > 2 else \
                Message(N_("quick play for {game} is for {count} players"), game=Message(game.title), count=2)
            raise ProtocolError("bad_players", said)
        options = self._options(game, players)
        if rated:
            if not member:
                raise ProtocolError("not_logged_in", Message(RATED_NEEDS_ACCOUNT))
            check_rated(game, game.parse_options(options), ["human"] * players, False)
        if bots_after is not None and (not isinstance(bots_after, int) or isinstance(bots_after, bool)
                                       or not MIN_BOT_WAIT <= bots_after <= MAX_BOT_WAIT):
            wait = N_("the wait before bots fill the seats must be {low} to {high} seconds (or no wait given, for "
                      "people only)")
            raise ProtocolError("bad_wait", Message(wait, low=MIN_BOT_WAIT, high=MAX_BOT_WAIT))
        shown = clean_name(name)
        now = time.monotonic()
        old = self.entries.get(key)
        if old is not None and old.table is None and old.pool == (game.name, players, rated):
            old.name, old.bots_after, old.seen = shown, bots_after, now  # same pool: keep its place in line
        else:
            self.entries[key] = Entry(key, shown, game.name, players, rated, bots_after, now, now)
        self._wake()
        return self.status(key)

    def status(self, key: str | None) -> dict[str, Any]:
        """Where the player stands (asking counts as still being there)."""
        entry = self.entries.get(key) if key else None
        if entry is None:
            return {"status": "none"}
        now = time.monotonic()
        entry.seen = now
        out = {"status": "matched" if entry.table else "waiting", "game": entry.game,
               "title": get_game(entry.game).title, "players": entry.players, "rated": entry.rated,
               "bots_after": entry.bots_after, "waited": round(now - entry.joined, 1), "table": entry.table,
               "waiting": sum(1 for e in self.entries.values() if e.table is None and e.pool == entry.pool)}
        return out

    def leave(self, key: str | None) -> dict[str, Any]:
        if key:
            self.entries.pop(key, None)
        return {"status": "none"}

    @staticmethod
    def _options(game: Any, players: int) -> dict[str, Any]:
        """The standard options with ``players`` seats, or a refusal if the game has no such count."""
        names = {info.name for info in game.describe_options()}
        options = {"players": players} if "players" in names else {}
        try:
            parsed = check_options(game, options)
        except ProtocolError as exc:  # e.g. a count the game is not played with
            raise ProtocolError.carrying("bad_players", exc) from None
        if game.num_seats(parsed) != players:
            raise ProtocolError("bad_players", Message(N_("{game} is played by {seats} here, not {players}"),
                                                          game=Message(game.title), seats=game.num_seats(parsed),
                                                          players=players))
        return options

    # ----------------------------------------------------------------- matching
    def _wake(self) -> None:
        if (self.matcher is None or self.matcher.done()) and not self.hub.stopping:
            self.matcher = self.hub.spawn(self._match_loop(), "quick play")

    async def _match_loop(self) -> None:
        while self.entries and not self.hub.stopping:
            try:
                await self.match_once()
            except Exception:  # matching goes on; the players stay in the pool
                log.exception("quick play matching failed")
            await asyncio.sleep(TICK)

    async def match_once(self) -> None:
        """Drop players who stopped asking, then start every table that can start now."""
        async with self.matching:
            await self._match()

    async def _match(self) -> None:
        now = time.monotonic()
        for key, entry in list(self.entries.items()):
            gone = now - entry.matched > self.keep_matched if entry.table else now - entry.seen > self.idle
            if gone:
                del self.entries[key]
        pools: dict[tuple[str, int, bool], list[Entry]] = {}
        for entry in sorted(self.entries.values(), key=lambda e: e.joined):
            if entry.table is None:
                pools.setdefault(entry.pool, []).append(entry)
        for (_, players, _), waiting in pools.items():
            while len(waiting) >= players:
                group, waiting = waiting[:players], waiting[players:]
                await self._start(group)
            ready = [e for e in waiting if e.bots_after is not None and now - e.joined >= e.bots_after]
            if ready:
                await self._start(ready[:players])

    async def _start(self, group: list[Entry]) -> None:
        first = group[0]
        game = get_game(first.game)
        kinds = ["human"] * len(group) + ["bot"] * (first.players - len(group))
        self.rng.shuffle(kinds)
        seats = [{"kind": kind, "bot": default_bot(game)} if kind == "bot" else {"kind": kind} for kind in kinds]
        holders = [(e.key, e.name) for e in group]
        self.rng.shuffle(holders)
        try:
            table = await self.hub.create(game.name, self._options(game, first.players), seats, None, True, None, None,
                                          rated=first.rated, member=True, holders=holders)
        except ProtocolError as exc:  # e.g. the server is full: they wait, and it is tried again
            log.warning("quick play could not start a %s table: %s", game.name, exc.message)
            return
        now = time.monotonic()
        for entry in group:
            if self.entries.get(entry.key) is entry:  # not left meanwhile
                entry.table, entry.matched = table.code, now
        log.info("quick play started table %s: %s, %d player(s), %d bot(s)", table.code, game.name, len(group),
                 first.players - len(group))
