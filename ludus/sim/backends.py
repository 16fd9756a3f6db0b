"""Where tournament games run: this process, a pool of local processes, or a Ray cluster.

Backends only decide *where* games are played. Each game's seed, seating and agents come
from its spec and index alone (see :mod:`ludus.sim.tournament`), and results are put back
in game-index order, so every backend and worker count gives identical results.
"""

from __future__ import annotations

import math
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from ..core.errors import LudusError
from .tournament import GameResult, TournamentSpec, play_chunk

__all__ = [
    "BACKENDS", "BackendError", "Progress", "Task", "default_workers", "import_ray", "run_specs", "run_tournament",
]

BACKENDS = ("process", "ray")

Progress = Callable[[int], None]
"""Called with the number of games just finished."""

Task = tuple[int, list[int]]  # (spec number, game indices)


class BackendError(LudusError):
    """A backend that cannot run (bad settings, Ray missing or unreachable)."""


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def _tasks(specs: Sequence[TournamentSpec], workers: int) -> list[Task]:
    """Split every spec's games into chunks of at most 16 games, about 16 chunks per worker.

    Small chunks keep workers evenly loaded and the progress bar moving even when one game
    takes a minute (strong bots); the cost of a task is a millisecond or so either way.
    """
    total = sum(s.games for s in specs)
    size = max(1, min(16, math.ceil(total / (workers * 16))))
    tasks: list[Task] = []
    for n, spec in enumerate(specs):
        for start in range(0, spec.games, size):
            tasks.append((n, list(range(start, min(start + size, spec.games)))))
    return tasks


def _collect(specs: Sequence[TournamentSpec], done: dict[int, list[GameResult]]) -> list[list[GameResult]]:
    out = []
    for n, spec in enumerate(specs):
        results = sorted(done.get(n, []), key=lambda r: r.index)
        if [r.index for r in results] != list(range(spec.games)):
            raise BackendError(f"tournament {n} came back incomplete")
        out.append(results)
    return out


def run_specs(specs: Sequence[TournamentSpec], backend: str = "process", workers: int | None = None,
              address: str | None = None, progress: Progress | None = None) -> list[list[GameResult]]:
    """Play every game of every spec; one result list per spec, in game-index order."""
    if backend not in BACKENDS:
        raise BackendError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise BackendError(f"workers must be a positive whole number, not {workers!r}")
    if address is not None and backend != "ray":
        raise BackendError("an address is only meaningful with the ray backend")
    workers = workers or default_workers()
    tasks = _tasks(specs, workers)
    report = progress or (lambda n: None)
    if backend == "ray":
        done = _run_ray(specs, tasks, workers, address, report)
    elif workers == 1:
        done = _run_inline(specs, tasks, report)
    else:
        done = _run_pool(specs, tasks, workers, report)
    return _collect(specs, done)


def _run_inline(specs: Sequence[TournamentSpec], tasks: list[Task], report: Progress) -> dict[int, list[GameResult]]:
    done: dict[int, list[GameResult]] = {}
    for n, indices in tasks:
        done.setdefault(n, []).extend(play_chunk(specs[n], indices))
        report(len(indices))
    return done


def _run_pool(specs: Sequence[TournamentSpec], tasks: list[Task], workers: int,
              report: Progress) -> dict[int, list[GameResult]]:
    # "spawn" gives workers a clean interpreter: no state copied from a parent that may hold
    # threads (the progress bar's) or a running Ray client, and the same on every platform.
    context = multiprocessing.get_context("spawn")
    done: dict[int, list[GameResult]] = {}
    pool = ProcessPoolExecutor(max_workers=min(workers, len(tasks)), mp_context=context)
    try:
        pending: dict[Future[list[GameResult]], int] = {
            pool.submit(play_chunk, specs[n], indices): n for n, indices in tasks}
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                n = pending.pop(future)
                results = future.result()
                done.setdefault(n, []).extend(results)
                report(len(results))
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    return done


def import_ray() -> Any:
    """The ray module, or a BackendError that says how to install it."""
    try:
        import ray
    except ImportError as exc:
        raise BackendError("the ray backend needs Ray: pip install 'ludus[ray]'") from exc
    return ray


def _run_ray(specs: Sequence[TournamentSpec], tasks: list[Task], workers: int, address: str | None,
             report: Progress) -> dict[int, list[GameResult]]:
    ray = import_ray()
    started_here = False
    if not ray.is_initialized():
        try:
            if address:
                ray.init(address=address, logging_level="warning", log_to_driver=False)
            else:
                ray.init(num_cpus=workers, include_dashboard=False, logging_level="warning", log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            where = f"the Ray cluster at {address}" if address else "a local Ray instance"
            raise BackendError(f"could not start or reach {where}: {exc}") from exc
        started_here = True
    try:
        remote_chunk = ray.remote(num_cpus=1)(play_chunk)
        spec_refs = [ray.put(spec) for spec in specs]
        pending = {remote_chunk.remote(spec_refs[n], indices): n for n, indices in tasks}
        done: dict[int, list[GameResult]] = {}
        while pending:
            finished, _ = ray.wait(list(pending), num_returns=1)
            for ref in finished:
                n = pending.pop(ref)
                try:
                    results = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    cause = exc.as_instanceof_cause()
                    if isinstance(cause, LudusError):
                        raise cause from None
                    raise
                done.setdefault(n, []).extend(results)
                report(len(results))
        return done
    finally:
        if started_here:
            ray.shutdown()


def run_tournament(spec: TournamentSpec, backend: str = "process", workers: int | None = None,
                   address: str | None = None, progress: Progress | None = None) -> list[GameResult]:
    """Play one tournament; results in game-index order."""
    return run_specs([spec], backend=backend, workers=workers, address=address, progress=progress)[0]
