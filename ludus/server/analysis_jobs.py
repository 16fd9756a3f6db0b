"""Post-game analysis jobs: one seat's decisions in a finished table's game, reviewed off the server.

Why it is built this way:

* Only finished games are analysed: their whole record (and so every replay) is public then,
  so analysing any seat reveals nothing that the replay does not. The review itself still
  uses each decision's ``state.view(seat)`` only (:mod:`ludus.agents.review`).
* Each job runs :func:`ludus.agents.review.review_worker` in a spawned process of its own,
  so a long search never blocks the event loop or the bots; a thread per job reads the
  worker's progress queue. At most ``max_running`` jobs run server-wide and at most
  ``max_waiting`` wait; beyond that the server answers "busy".
* Every job is bounded: a few deals per decision, a time cap per decision and a total time
  limit (after which the decisions not reached are listed as not analysed); a worker still
  alive well past that limit is stopped.
* A finished game never changes, so a result is kept (the last ``keep`` of them) and asking
  again for the same table and seat returns it at once.
"""

from __future__ import annotations

import logging
import multiprocessing
import queue as queue_module
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from ..core.errors import Message
from ..i18n import N_
from .protocol import SEAT_RANGE, ProtocolError, json_body

if TYPE_CHECKING:
    from fastapi import FastAPI

    from .hub import Hub

__all__ = ["AnalysisJobs", "AnalysisRequest", "Job", "add_analysis_routes"]

log = logging.getLogger("ludus.server")


@dataclass
class Job:
    """One (table, seat) analysis: waiting, running, done or failed."""

    code: str
    seat: int
    record: dict[str, Any]
    status: str = "queued"  # queued, running, done, error
    done: int = 0
    total: int | None = None
    result: dict[str, Any] | None = None
    error: str | None = None
    started: float = field(default_factory=time.monotonic)

    def to_json(self) -> dict[str, Any]:
        if self.status == "done":
            assert self.result is not None
            return {"status": "done", "seat": self.seat, "review": self.result}
        if self.status == "error":
            return {"status": "error", "seat": self.seat, "error": self.error}
        return {"status": self.status, "seat": self.seat, "done": self.done, "total": self.total}


class AnalysisJobs:
    """The server's analysis jobs, bounded in number and in time."""

    def __init__(self, *, max_running: int = 1, max_waiting: int = 4, keep: int = 64, samples: int = 12,
                 seconds_per_decision: float = 3.0, max_seconds: float = 150.0, grace: float = 30.0) -> None:
        self.max_running = max_running
        self.max_waiting = max_waiting
        self.keep = keep
        self.settings: dict[str, Any] = {"samples": samples, "seconds_per_decision": seconds_per_decision,
                                         "max_seconds": max_seconds}
        self.grace = grace
        self.jobs: OrderedDict[tuple[str, int], Job] = OrderedDict()
        self.waiting: list[Job] = []
        self.running: dict[tuple[str, int], multiprocessing.process.BaseProcess] = {}
        self.lock = threading.Lock()
        self.closed = False

    # ----------------------------------------------------------------- asking
    def start(self, code: str, seat: int, record: dict[str, Any]) -> Job:
        """The job for this table and seat: the finished or running one, else a new one (started or queued)."""
        key = (code, seat)
        with self.lock:
            job = self.jobs.get(key)
            if job is not None and job.status != "error":
                self.jobs.move_to_end(key)
                return job
            if self.closed:
                raise ProtocolError("busy", Message(N_("the server is shutting down")))
            if len(self.running) >= self.max_running and len(self.waiting) >= self.max_waiting:
                raise ProtocolError("busy", Message(N_("the server is analysing other games; try again in a minute")))
            job = Job(code, seat, record)
            self.jobs[key] = job
            self._forget_old()
            if len(self.running) < self.max_running:
                self._launch(job)
            else:
                self.waiting.append(job)
            return job

    def get(self, code: str, seat: int) -> Job | None:
        with self.lock:
            return self.jobs.get((code, seat))

    def _forget_old(self) -> None:
        """Drop the oldest finished jobs beyond ``keep`` (never one still waiting or running)."""
        for key in list(self.jobs):
            if len(self.jobs) <= self.keep:
                break
            if self.jobs[key].status in ("done", "error"):
                del self.jobs[key]

    # ----------------------------------------------------------------- workers
    def _launch(self, job: Job) -> None:
        """Start ``job``'s worker process and the thread that follows it (the lock is held)."""
        from ..agents.review import review_worker

        ctx = multiprocessing.get_context("spawn")
        messages = ctx.Queue()
        process = ctx.Process(target=review_worker, args=(job.record, job.seat, self.settings, messages),
                              daemon=True, name=f"ludus-analysis-{job.code}-{job.seat}")
        job.status, job.started = "running", time.monotonic()
        self.running[(job.code, job.seat)] = process
        process.start()
        threading.Thread(target=self._follow, args=(job, process, messages), daemon=True,
                         name=f"ludus-analysis-{job.code}").start()

    def _follow(self, job: Job, process: multiprocessing.process.BaseProcess, messages: Any) -> None:
        """Read the worker's messages until its result, its failure or the hard time limit."""
        limit = job.started + self.settings["max_seconds"] + self.grace
        try:
            while True:
                try:
                    message = messages.get(timeout=0.25)
                except queue_module.Empty:
                    message = None
                # the limit is hard: checked on every turn, so a worker that keeps reporting
                # progress (or a result read late, on a busy host) cannot outlive it
                if time.monotonic() > limit:
                    self._finish(job, error="the analysis took too long and was stopped")
                    return
                if message is None:
                    if not process.is_alive():
                        self._finish(job, error="the analysis stopped unexpectedly")
                        return
                    continue
                if message[0] == "progress":
                    job.done, job.total = message[1], message[2]
                elif message[0] == "done":
                    self._finish(job, result=message[1])
                    return
                else:
                    self._finish(job, error=str(message[1]))
                    return
        except Exception:  # a bug here must not leave the job running for ever
            log.exception("analysis job %s/%s failed", job.code, job.seat)
            self._finish(job, error="the analysis failed")
        finally:
            if process.is_alive():
                process.terminate()
            process.join(timeout=5)

    def _finish(self, job: Job, result: dict[str, Any] | None = None, error: str | None = None) -> None:
        with self.lock:
            job.result, job.error = result, error
            job.status = "done" if result is not None else "error"
            self.running.pop((job.code, job.seat), None)
            while self.waiting and len(self.running) < self.max_running and not self.closed:
                self._launch(self.waiting.pop(0))

    def close(self) -> None:
        """Stop every worker (server shutdown)."""
        with self.lock:
            self.closed = True
            self.waiting.clear()
            processes = list(self.running.values())
        for process in processes:
            if process.is_alive():
                process.terminate()


class AnalysisRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int = Field(strict=True)


def add_analysis_routes(app: FastAPI, hub: Hub) -> None:
    """``POST`` / ``GET /api/tables/{code}/analysis`` (docs/server.md, "Post-game analysis").

    The jobs live in ``app.state.analysis`` (tests put one with a tiny budget there).
    """
    from fastapi import Depends

    app.state.analysis = AnalysisJobs()

    async def _finished_seat(code: str, seat: int) -> tuple[Any, int]:
        table = await hub.get(code)
        if not table.state.is_terminal():
            raise ProtocolError("not_finished", Message(N_("a game can be analysed once it is over")))
        if not 0 <= seat < len(table.seats):
            raise ProtocolError("bad_seat", Message(SEAT_RANGE, high=len(table.seats) - 1))
        return table, seat

    @app.post("/api/tables/{code}/analysis", dependencies=[Depends(json_body)])
    async def start_analysis(code: str, body: AnalysisRequest) -> dict[str, Any]:
        table, seat = await _finished_seat(code, body.seat)
        jobs: AnalysisJobs = app.state.analysis
        return jobs.start(table.code, seat, hub.record_for(table, None)).to_json()

    @app.get("/api/tables/{code}/analysis")
    async def analysis(code: str, seat: int) -> dict[str, Any]:
        table, seat = await _finished_seat(code, seat)
        jobs: AnalysisJobs = app.state.analysis
        job = jobs.get(table.code, seat)
        return {"status": "none", "seat": seat} if job is None else job.to_json()
