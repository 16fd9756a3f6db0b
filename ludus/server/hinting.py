"""Hints at a table: "What would the bot play?" for the seat whose turn it is.

Why it is built this way:

* Only a table created with ``hints`` on answers, and everyone can see that it is on
  (``Table.public()``), so nobody gets help the others do not know about.
* The search runs off the event loop, in its own one-worker process pool (not the bots'), so a
  hint never queues behind a bot's move or delays one. Like a search bot, the worker rebuilds
  the state from the table's record and hands the search only ``state.view(seat)``.
* One hint at a time per seat (whatever number of tabs the player has open), so nobody can
  keep the worker busy for the rest of the server.
* The answer goes to the asking connection only. If the table moved on while the search ran,
  the answer is refused as stale instead of suggesting a move for a position that is gone.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import secrets
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from ..core.errors import Message
from ..i18n import N_
from .live import Connection, Table
from .protocol import ProtocolError

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["HintRunner", "ask"]

log = logging.getLogger("ludus.server")


def _hint_in_worker(game_name: str, options: dict[str, Any], seed: int, actions: list[tuple[int, Any]],
                    seat: int, seconds: float, hint_seed: int) -> dict[str, Any]:
    """Worker entry: replay the record, then search from ``seat``'s view alone."""
    from ..agents.hints import suggest
    from ..games import get_game

    game = get_game(game_name)
    state = game.new_initial_state(options, seed=seed)
    for actor, raw in actions:
        state.apply(game.action_from_json(raw), actor)
    return suggest(state.view(seat), seconds=seconds, seed=hint_seed).to_json()


def _warm_worker(game_name: str) -> None:
    """Import the search and the game in the worker ahead of the first question (it saves ~0.7 s),
    and ready the game's compiled playouts (loaded from numba's disk cache, or compiled once)."""
    from ..agents.hints import suggest  # noqa: F401
    from ..core.compiled import warm_up
    from ..games import get_game, get_plugin

    get_plugin(game_name).load("heuristic")
    warm_up(get_game(game_name))


class HintRunner:
    """A one-worker pool for hints, apart from the bots', and the seats now waiting for one."""

    def __init__(self, processes: bool = True) -> None:
        self.processes = processes
        self._pool: Executor | None = None
        self.running: set[tuple[str, int]] = set()  # (table code, seat)

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.processes:
                self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
            else:  # tests: no process start-up; the search then shares the GIL with the server
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ludus-hint")
        return self._pool

    def warm(self, table: Table) -> None:
        """Start the worker for a table with hints on, so its first hint is not slowed by the start-up."""
        future = self._executor().submit(_warm_worker, table.game.name)
        future.add_done_callback(lambda f: f.exception())  # a failed warm-up shows in the hint itself

    async def run(self, table: Table, seat: int, seconds: float) -> dict[str, Any]:
        return await asyncio.get_running_loop().run_in_executor(
            self._executor(), _hint_in_worker, table.game.name, table.options_json, table.seed,
            list(table.recorded), seat, seconds, secrets.randbits(63))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)


def ask(hub: Hub, table: Table, conn: Connection, mid: Any) -> None:
    """Check the request now (errors go back at once), then search in the background."""
    if not table.hints:
        raise ProtocolError("hints_off", Message(N_("hints are off at this table (they are chosen when the table is "
                                                      "created)")))
    seat = conn.seat
    if seat is None:
        raise ProtocolError("not_seated", Message(N_("only a seated player may ask for a hint, on their own turn")))
    if table.status != "playing" or not table.state.current_seats():
        raise ProtocolError("not_your_turn", Message(N_("there is no move to suggest: the game is not being played "
                                                        "now")))
    if seat not in table.state.current_seats():
        raise ProtocolError("not_your_turn", Message(N_("a hint is for your own turn; wait until it is your move")))
    key = (table.code, seat)
    runner: HintRunner = hub.hints
    if key in runner.running:
        raise ProtocolError("hint_busy", Message(N_("a hint for your seat is still being worked out; please wait "
                                                    "for it")))
    runner.running.add(key)
    hub.spawn(_answer(hub, table, conn, seat, mid, key), f"hint for seat {seat} at table {table.code}")


async def _answer(hub: Hub, table: Table, conn: Connection, seat: int, mid: Any, key: tuple[str, int]) -> None:
    plies = len(table.recorded)
    try:
        try:
            hint = await hub.hints.run(table, seat, hub.config.hint_seconds)
        except asyncio.CancelledError:
            raise
        except Exception:
            if hub.stopping or conn.closed:
                return
            log.exception("a hint at table %s failed", table.code)
            conn.push({"type": "error", "id": mid, "code": "hint_failed",
                       "message": "the hint could not be worked out; nothing changed, please try again"})
            return
    finally:
        hub.hints.running.discard(key)
    if conn.closed:
        return
    if len(table.recorded) != plies or seat not in table.state.current_seats():
        conn.push({"type": "error", "id": mid, "code": "hint_stale",
                   "message": "the position changed while the hint was worked out; ask again"})
        return
    conn.push({"type": "hint", "id": mid, "plies": plies, "moves": hint["moves"], "measure": hint["measure"],
               "samples": hint["samples"], "seconds": hint["seconds"], "forced": hint["forced"]})
