"""One server per SQLite file: a second one started on it by mistake refuses, with a clear message.

The guard is an OS lock on ``FILE.lock`` beside the database (``flock``), held by each server
(each :class:`~ludus.server.hub.Hub`) from its start to its end: the kernel drops it when the
process dies, SIGKILL included, so it never goes stale. In-memory SQLite and PostgreSQL are
not guarded (PostgreSQL is the way to run several servers on one database).
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ludus.server.config import ServerConfig
from ludus.server.db import DatabaseInUse, lock_database, sqlite_file
from ludus.server.hub import Hub

REPO = Path(__file__).resolve().parents[2]


def _serve(db: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO), COLUMNS="80")
    return subprocess.Popen([sys.executable, "-m", "ludus.cli.main", "serve", "--host", "127.0.0.1", "--port", "0",
                             "--database", str(db)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            cwd=REPO, env=env)


def _serving(proc: subprocess.Popen[str]) -> str:
    """Wait for the line saying where it serves; return it."""
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert re.search(r"http://127\.0\.0\.1:\d+", line), line + proc.stdout.read()
    return line


def _stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.communicate(timeout=30)


def test_a_second_server_on_the_same_file_refuses_and_a_killed_one_leaves_it_free(tmp_path):
    db = tmp_path / "one.db"
    first = _serve(db)
    second = third = None
    try:
        _serving(first)
        second = _serve(db)
        out, _ = second.communicate(timeout=120)
        assert second.returncode == 2, out
        lines = [line for line in out.splitlines() if line.strip()]
        assert len(lines) == 1, out  # one line, no traceback
        assert "Traceback" not in out
        message = lines[0]
        assert str(db.resolve()) in message
        assert "one server at a time" in message and "PostgreSQL" in message
        assert f"process {first.pid}" in message
        assert first.poll() is None  # the first one serves on, untouched
        first.send_signal(signal.SIGKILL)  # no clean-up at all: the kernel drops the lock
        first.wait(timeout=30)
        third = _serve(db)
        _serving(third)
        assert third.poll() is None
    finally:
        for proc in (first, second, third):
            if proc is not None:
                _stop(proc)


def test_two_hubs_in_one_process_exclude_each_other_until_the_first_stops(tmp_path):
    """The guard is per server (per hub), not per process: tests that restart a server on one
    file stop the first before the second starts, and that still works."""
    config = ServerConfig(database=f"sqlite:///{tmp_path / 'two.db'}", bot_delay=0.0)

    async def scenario() -> None:
        first = Hub(config)
        await first.start()
        second = Hub(config)
        with pytest.raises(DatabaseInUse, match="one server at a time"):
            await second.start()
        assert second.store is None  # refused before it opened the database
        await second.stop()
        await first.stop()
        third = Hub(config)
        await third.start()
        await third.stop()

    asyncio.run(asyncio.wait_for(scenario(), 60))


def test_in_memory_sqlite_and_postgresql_are_not_locked(tmp_path):
    for url in ("sqlite://", "sqlite:///:memory:", "postgresql://u:p@localhost/db", "postgres://h/db"):
        assert sqlite_file(url) is None
        assert lock_database(url) is None

    async def scenario() -> None:
        config = ServerConfig(database="sqlite://", bot_delay=0.0)
        a, b = Hub(config), Hub(config)
        await a.start()
        await b.start()  # each its own in-memory database: nothing to guard
        await b.stop()
        await a.stop()

    asyncio.run(asyncio.wait_for(scenario(), 60))


def test_every_spelling_of_a_file_is_the_same_lock(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    held = lock_database("same.db")
    try:
        assert held is not None and held.path == tmp_path / "same.db.lock"
        for other in (str(tmp_path / "same.db"), f"sqlite:///{tmp_path / 'same.db'}", "./sub/../same.db"):
            with pytest.raises(DatabaseInUse):
                lock_database(other)
    finally:
        assert held is not None
        held.release()
    again = lock_database(f"sqlite:///{tmp_path / 'same.db'}")
    assert again is not None
    again.release()


def test_the_lock_is_released_even_when_the_holder_is_killed(tmp_path):
    """A plain process holding the lock, killed with SIGKILL: the file is free at once."""
    db = tmp_path / "k.db"
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; from ludus.server.db import lock_database; lock = lock_database(sys.argv[1]); "
        "print('held', flush=True); time.sleep(120)"), str(db)], stdout=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONPATH=str(REPO)))
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(DatabaseInUse, match=f"process {holder.pid}"):
            lock_database(str(db))
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=30)
        deadline = time.monotonic() + 10
        while True:
            try:
                lock = lock_database(str(db))
                break
            except DatabaseInUse:
                assert time.monotonic() < deadline
                time.sleep(0.05)
        assert lock is not None
        lock.release()
    finally:
        if holder.poll() is None:
            holder.kill()
        holder.communicate(timeout=30)
