"""Seeing the server run: Prometheus metrics, health answers, and JSON-lines logs.

Each application holds its own :class:`Metrics` (its own ``CollectorRegistry``, never the
process-wide default), so several servers in one process (the tests) keep apart counts.
Metrics carry only counts, durations, error codes, game names and bot kinds: never a table
code, a seat's view, a card, a name or a token. The instruments sit where things really
happen: a move in :meth:`~.turns.Turns.submit`, a commit in the writer thread
(:class:`~.store.Writer`), a bot's search in :class:`~.bots.BotRunner`, a WebSocket in
:mod:`.app`. The tables by state are counted at scrape time from the live tables, so a move
costs no more than a few counter updates (no database query, no lock).
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections import Counter as Tally
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from .live import Table

__all__ = ["CONTENT_TYPE", "TABLE_STATES", "JsonLinesFormatter", "Metrics", "configure_logging", "merge_workers"]

CONTENT_TYPE = CONTENT_TYPE_LATEST
TABLE_STATES = ("open", "playing", "finished")  # expired tables leave memory at once
# Seconds: a move is a few milliseconds on a quiet server; an fsync'd group commit a few more.
FAST_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
SEARCH_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
GROUP_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256)


class _TablesByState(Collector):
    """``ludus_tables{state}``: the live tables in memory, counted when scraped."""

    def __init__(self, tables: Callable[[], Iterable[Table]]) -> None:
        self.tables = tables

    def collect(self) -> Iterable[GaugeMetricFamily]:
        family = GaugeMetricFamily("ludus_tables", "Tables held in memory, by state (finished: the ones kept live)",
                                   labels=["state"])
        tally = Tally(t.status for t in self.tables())
        for state in TABLE_STATES:
            family.add_metric([state], tally.get(state, 0))
        for state, n in sorted(tally.items()):
            if state not in TABLE_STATES:
                family.add_metric([state], n)
        yield family

    def describe(self) -> Iterable[GaugeMetricFamily]:
        return [GaugeMetricFamily("ludus_tables", "Tables held in memory, by state", labels=["state"])]


class Metrics:
    """One server's instruments, registered in a registry of its own."""

    def __init__(self, tables: Callable[[], Iterable[Table]] | None = None, process: bool = True) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.moves = Counter("ludus_moves", "Moves accepted, stored and applied, by game", ["game"], registry=r)
        self.move_seconds = Histogram(
            "ludus_move_seconds", "Server time from receiving a move to having it committed and announced, by game",
            ["game"], buckets=FAST_BUCKETS, registry=r)
        self.refused = Counter("ludus_moves_refused", "Moves refused, by game and error code", ["game", "code"],
                               registry=r)
        self.errors = Counter("ludus_errors", "Error answers sent to clients (HTTP and WebSocket), by error code",
                              ["code", "via"], registry=r)
        self.connections = Gauge("ludus_ws_connections", "Open WebSocket connections (players and spectators)",
                                 registry=r)
        self.bot_queue = Gauge("ludus_bot_queue", "Bot moves asked for and not yet answered, by worker pool",
                               ["pool"], registry=r)
        self.bot_seconds = Histogram("ludus_bot_search_seconds", "Time a bot took to choose its move, by bot kind",
                                     ["kind"], buckets=SEARCH_BUCKETS, registry=r)
        self.commit_seconds = Histogram("ludus_db_commit_seconds", "Time of one database transaction of queued "
                                        "writes, from its start to its commit", buckets=FAST_BUCKETS, registry=r)
        self.commit_writes = Histogram("ludus_db_commit_writes", "Writes committed together in one transaction",
                                       buckets=GROUP_BUCKETS, registry=r)
        self.commit_failures = Counter("ludus_db_commit_failures", "Database transactions that failed", registry=r)
        for pool in ("thread", "process"):
            self.bot_queue.labels(pool=pool)
        # each game's counter and histogram, looked up once rather than by its label on every move
        self._moves_of: dict[str, Any] = {}
        self._seconds_of: dict[str, Any] = {}
        if tables is not None:
            r.register(_TablesByState(tables))
        if process:
            ProcessCollector(registry=r)  # process_cpu_seconds_total, resident memory, open files (Linux)
            PlatformCollector(registry=r)  # python_info

    # ----------------------------------------------------------------- the instruments' call points
    def move_accepted(self, game: str) -> None:
        child = self._moves_of.get(game)
        if child is None:
            child = self._moves_of[game] = self.moves.labels(game=game)
        child.inc()

    def move_timed(self, game: str, started: float) -> None:
        """A move acknowledged at once: ``started`` is its ``time.perf_counter()`` on arrival."""
        child = self._seconds_of.get(game)
        if child is None:
            child = self._seconds_of[game] = self.move_seconds.labels(game=game)
        child.observe(time.perf_counter() - started)

    def move_refused(self, game: str, code: str) -> None:
        self.refused.labels(game=game, code=code).inc()

    def error_sent(self, code: str, via: str) -> None:
        self.errors.labels(code=code, via=via).inc()

    def committed(self, seconds: float, writes: int, ok: bool) -> None:
        """Called by the writer thread after each transaction (prometheus_client is thread-safe)."""
        if ok:
            self.commit_seconds.observe(seconds)
            self.commit_writes.observe(writes)
        else:
            self.commit_failures.inc()

    def render(self) -> bytes:
        """The text exposition format; call it on the event loop, where the live tables may be read."""
        return generate_latest(self.registry)


def merge_workers(parts: list[tuple[str, bytes | None]]) -> bytes:
    """One exposition for a group of workers (``GET /metrics`` of any of them): each worker's own
    families with a ``worker`` label added to every sample, and ``ludus_group_worker_up`` saying
    which workers answered (1) or did not (0, their families left out), as Prometheus's ``up``
    does for a target."""
    merged: dict[str, Metric] = {}
    up = GaugeMetricFamily("ludus_group_worker_up", "Whether a live worker of the group answered this scrape "
                           "(1) or not (0)", labels=["worker"])
    for worker, text in parts:
        up.add_metric([worker], 0.0 if text is None else 1.0)
        if text is None:
            continue
        for family in text_string_to_metric_families(text.decode("utf-8")):
            into = merged.setdefault(family.name, Metric(family.name, family.documentation, family.type, family.unit))
            for sample in family.samples:
                into.samples.append(sample._replace(labels={**sample.labels, "worker": worker}))
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Fixed([*merged.values(), up]))
    return generate_latest(registry)


class _Fixed(Collector):
    """Families already collected (the merged group), handed to the exposition as they are."""

    def __init__(self, families: list[Metric]) -> None:
        self.families = families

    def collect(self) -> Iterable[Metric]:
        return self.families


# --------------------------------------------------------------------------- logs
_RECORD_FIELDS = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime",
                                                                                    "taskName"}


class JsonLinesFormatter(logging.Formatter):
    """One JSON object per line: ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``,
    ``pid`` (the workers of ``--workers N`` share one standard error), any ``extra={...}`` fields
    given to the call, and ``exception`` with the traceback if any."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "pid": record.process,
        }
        for key, value in vars(record).items():
            if key not in _RECORD_FIELDS and not key.startswith("_") and key not in out:
                out[key] = value
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            out["stack"] = self.formatStack(record.stack_info)
        return json.dumps(out, ensure_ascii=False, default=str)


def configure_logging(json_lines: bool = False, level: int = logging.INFO) -> logging.Handler:
    """The server process's logging: plain lines, or one JSON object per line; to stderr.

    Replaces the root logger's handlers, so calling it again switches the format."""
    handler = logging.StreamHandler(sys.stderr)
    if json_lines:
        handler.setFormatter(JsonLinesFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    # httpx says every request at INFO: a group's relays and metrics scrapes would fill the log
    logging.getLogger("httpx").setLevel(logging.WARNING)
    return handler
