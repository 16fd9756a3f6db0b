"""Bots choose moves off the event loop: in a thread, or in a worker process for heavy search.

Light agents (random, heuristic) run in a small thread pool holding one agent per seat.
Search agents (kinds registered in ``EXTRA_AGENTS``, e.g. ISMCTS) would hold the GIL for
long, so they run in worker processes, as many as the machine has cores to spare
(``ServerConfig.bot_workers``). A table always goes to the same worker, which keeps the
table's state between its bot's moves: each request carries only the actions recorded since
the worker's last one for that table, and the worker applies them to its copy (the record is
append-only, so its copy is the same as a replay would give). A worker that no longer holds
the table (restarted, or the table pushed out of its cache) says so and is sent the whole
record. The agent sees only that seat's view, exactly as in the thread.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
import zlib
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from ..agents.base import EXTRA_AGENTS, Agent, has_heuristic, make_agent
from ..agents.policy import shipped_policy_path
from ..core.game import Action, Game, SeatView

if TYPE_CHECKING:
    from .observability import Metrics

__all__ = ["BotRunner", "bot_kinds", "bot_workers", "can_search", "default_bot", "offered_name"]

CACHED_TABLES = 256
"""Tables whose state one search worker keeps (least recently used go first)."""


def bot_workers(configured: int = 0) -> int:
    """How many search workers: as configured, or (0) one per core but the event loop's, 1 to 8."""
    if configured > 0:
        return configured
    return max(1, min(8, (os.cpu_count() or 2) - 1))


def can_search(game: Game) -> bool:
    """Search bots need the game to sample hidden information (``Game.sample_state``)."""
    return type(game).sample_state is not Game.sample_state


def bot_kinds(game: Game, offered: bool = True) -> list[str]:
    """The bot levels for ``game``, weakest first; ``offered`` lists each agent once (no aliases)."""
    kinds = ["random"]
    if shipped_policy_path(game) is not None:  # a trained network: below the heuristic in Gladius (docs/interop.md)
        kinds.append("trained")
    if has_heuristic(game):
        kinds.append("heuristic")
    if can_search(game):
        for kind in EXTRA_AGENTS:
            if not offered or kind == offered_name(kind):
                kinds.append(kind)
    return kinds


def offered_name(kind: str) -> str:
    """The name a bot kind is offered under: a search agent's longest alias (others: the kind itself)."""
    target = EXTRA_AGENTS.get(kind)
    if target is None:
        return kind
    return max((k for k, t in EXTRA_AGENTS.items() if t == target), key=len)


def default_bot(game: Game) -> str:
    return "heuristic" if has_heuristic(game) else "random"


# In a worker process: (table code, seed) -> (state, actions applied), least recently used first.
_STATES: OrderedDict[tuple[str, int], tuple[Any, int]] = OrderedDict()
REPLAYED = [0]  # actions this worker has applied, all tables together (read by tests through _applied)


def _applied() -> int:
    return REPLAYED[0]


def _act_on_cached(code: str, game_name: str, options: dict[str, Any], seed: int, start: int,
                   actions: list[tuple[int, Any]], seat: int, kind: str, agent_seed: int) -> tuple[Any, float] | None:
    """Worker-process entry: bring the table's kept state from ``start`` actions to ``start +
    len(actions)`` (``start`` 0: from the deal), then a fresh agent's move for ``seat`` and the
    seconds it took. None when this worker does not hold the table at ``start``: send it all."""
    from ..games import get_game

    started = time.perf_counter()
    game = get_game(game_name)
    entry = _STATES.pop((code, seed), None)
    if start == 0:
        state, count = game.new_initial_state(options, seed=seed), 0
    elif entry is None or entry[1] != start:
        return None
    else:
        state, count = entry
    try:
        for actor, raw in actions:
            state.apply(game.action_from_json(raw), actor)
            count += 1
    finally:
        REPLAYED[0] += count - start
    _STATES[(code, seed)] = (state, count)
    while len(_STATES) > CACHED_TABLES:
        _STATES.popitem(last=False)
    agent = make_agent(kind, game, seed=agent_seed)
    return agent.act(state.view(seat)).to_json(), time.perf_counter() - started


def _timed(agent: Agent, view: SeatView) -> tuple[Action, float]:
    started = time.perf_counter()
    action = agent.act(view)
    return action, time.perf_counter() - started


def _warm_worker(game_name: str) -> None:
    """Ready the game's compiled playouts in the worker before its first search (from numba's disk
    cache, or compiled the first time Ludus runs here, which takes seconds)."""
    from ..core.compiled import warm_up
    from ..games import get_game

    warm_up(get_game(game_name))


class BotRunner:
    def __init__(self, threads: int = 2, processes: bool = False, metrics: Metrics | None = None,
                 workers: int = 0) -> None:
        self.threads: Executor = ThreadPoolExecutor(max_workers=max(1, threads), thread_name_prefix="ludus-bot")
        self.always_process = processes
        self._procs: list[ProcessPoolExecutor | None] = [None] * bot_workers(workers)
        # (table code, seed) -> actions its worker holds; a guess: the worker says when it is wrong
        self._sent: OrderedDict[tuple[str, int], int] = OrderedDict()
        self.metrics = metrics

    def uses_process(self, kind: str) -> bool:
        return self.always_process or kind in EXTRA_AGENTS

    def _worker(self, code: str) -> int:
        return zlib.crc32(code.encode("utf-8")) % len(self._procs)

    def _process_pool(self, index: int = 0) -> ProcessPoolExecutor:
        pool = self._procs[index]
        if pool is None:
            pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
            self._procs[index] = pool
        return pool

    def warm(self, game: Game, code: str = "") -> None:
        """Start the search worker for a table with a search bot, its playouts ready before its first move."""
        future = self._process_pool(self._worker(code)).submit(_warm_worker, game.name)
        future.add_done_callback(lambda f: f.exception())  # a failed warm-up shows in the bot's move itself

    async def in_thread(self, agent: Agent, view: SeatView, kind: str = "") -> Action:
        """``agent``'s move for ``view`` in a worker thread; ``kind`` names the bot in the metrics."""
        metrics = self.metrics
        if metrics is None:
            return await asyncio.get_running_loop().run_in_executor(self.threads, agent.act, view)
        queued = metrics.bot_queue.labels(pool="thread")
        queued.inc()
        try:
            action, seconds = await asyncio.get_running_loop().run_in_executor(self.threads, _timed, agent, view)
        finally:
            queued.dec()
        metrics.bot_seconds.labels(kind=kind or type(agent).__name__).observe(seconds)
        return action

    async def in_process(self, code: str, game: Game, options: dict[str, Any], seed: int,
                         actions: list[tuple[int, Any]], seat: int, kind: str, agent_seed: int) -> Action:
        """The move of a bot at table ``code``, chosen in that table's worker from the record ``actions``."""
        metrics = self.metrics
        if metrics is not None:
            metrics.bot_queue.labels(pool="process").inc()
        index, key = self._worker(code), (code, seed)
        try:
            answer = None
            for start in dict.fromkeys((min(self._sent.pop(key, 0), len(actions)), 0)):  # then all, if need be
                try:
                    answer = await asyncio.get_running_loop().run_in_executor(
                        self._process_pool(index), _act_on_cached, code, game.name, options, seed, start,
                        actions[start:], seat, kind, agent_seed)
                except BrokenProcessPool:  # the worker died: the next move starts a new one
                    self._procs[index] = None
                    raise
                if answer is not None:
                    break
            assert answer is not None, "a worker always takes the whole record"
            self._sent[key] = len(actions)
            while len(self._sent) > 4 * CACHED_TABLES * len(self._procs):
                self._sent.popitem(last=False)
            raw, seconds = answer
        finally:
            if metrics is not None:
                metrics.bot_queue.labels(pool="process").dec()
        if metrics is not None:
            metrics.bot_seconds.labels(kind=kind).observe(seconds)
        return game.action_from_json(raw)

    def close(self) -> None:
        self.threads.shutdown(wait=False, cancel_futures=True)
        for pool in self._procs:
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
