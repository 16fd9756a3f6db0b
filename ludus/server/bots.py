"""Bots choose moves off the event loop: in a thread, or in a worker process for heavy search.

Light agents (random, heuristic) run in a small thread pool holding one agent per seat.
Search agents (kinds registered in ``EXTRA_AGENTS``, e.g. ISMCTS) would hold the GIL for
long, so they run in a process; the worker rebuilds the state from the table's record and
hands the agent only that seat's view, exactly as in the thread.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from ..agents.base import EXTRA_AGENTS, Agent, has_heuristic, make_agent
from ..agents.policy import shipped_policy_path
from ..core.game import Action, Game, SeatView

if TYPE_CHECKING:
    from .observability import Metrics

__all__ = ["BotRunner", "bot_kinds", "can_search", "default_bot"]


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
        names: dict[str, list[str]] = {}
        for kind, target in EXTRA_AGENTS.items():
            names.setdefault(target, []).append(kind)
        for kind, target in EXTRA_AGENTS.items():
            if not offered or kind == max(names[target], key=len):
                kinds.append(kind)
    return kinds


def default_bot(game: Game) -> str:
    return "heuristic" if has_heuristic(game) else "random"


def _act_in_worker(game_name: str, options: dict[str, Any], seed: int, actions: list[tuple[int, Any]],
                   seat: int, kind: str, agent_seed: int) -> Any:
    """Worker-process entry: replay the record, then ask a fresh agent for ``seat``'s move."""
    from ..games import get_game

    game = get_game(game_name)
    state = game.new_initial_state(options, seed=seed)
    for actor, raw in actions:
        state.apply(game.action_from_json(raw), actor)
    agent = make_agent(kind, game, seed=agent_seed)
    return agent.act(state.view(seat)).to_json()


def _timed_act_in_worker(*args: Any) -> tuple[Any, float]:
    """:func:`_act_in_worker`, and the seconds it took in the worker (replay and search, not the queue)."""
    started = time.perf_counter()
    raw = _act_in_worker(*args)
    return raw, time.perf_counter() - started


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
    def __init__(self, threads: int = 2, processes: bool = False, metrics: Metrics | None = None) -> None:
        self.threads: Executor = ThreadPoolExecutor(max_workers=max(1, threads), thread_name_prefix="ludus-bot")
        self.always_process = processes
        self._procs: ProcessPoolExecutor | None = None
        self.metrics = metrics

    def uses_process(self, kind: str) -> bool:
        return self.always_process or kind in EXTRA_AGENTS

    def _process_pool(self) -> ProcessPoolExecutor:
        if self._procs is None:
            self._procs = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        return self._procs

    def warm(self, game: Game) -> None:
        """Start the search worker for a table with a search bot, its playouts ready before its first move."""
        future = self._process_pool().submit(_warm_worker, game.name)
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

    async def in_process(self, game: Game, options: dict[str, Any], seed: int, actions: list[tuple[int, Any]],
                         seat: int, kind: str, agent_seed: int) -> Action:
        metrics = self.metrics
        if metrics is not None:
            metrics.bot_queue.labels(pool="process").inc()
        try:
            raw, seconds = await asyncio.get_running_loop().run_in_executor(
                self._process_pool(), _timed_act_in_worker, game.name, options, seed, actions, seat, kind, agent_seed)
        finally:
            if metrics is not None:
                metrics.bot_queue.labels(pool="process").dec()
        if metrics is not None:
            metrics.bot_seconds.labels(kind=kind).observe(seconds)
        return game.action_from_json(raw)

    def close(self) -> None:
        self.threads.shutdown(wait=False, cancel_futures=True)
        if self._procs is not None:
            self._procs.shutdown(wait=False, cancel_futures=True)
