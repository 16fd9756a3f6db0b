"""A server process collects garbage rarely and never walks what start-up loaded (the collector's
pauses, not the work, made the tail of the round trips at 300 tables)."""

from __future__ import annotations

import subprocess
import sys


def test_a_serving_process_freezes_start_up_and_raises_the_thresholds():
    # Python 3.12 starts with a few hundred objects frozen already: count what quiet_collector adds.
    code = ("import gc; from ludus.server.app import GC_THRESHOLDS, quiet_collector; "
            "before = gc.get_freeze_count(); quiet_collector(); "
            "assert gc.get_threshold() == GC_THRESHOLDS, gc.get_threshold(); "
            "assert gc.get_freeze_count() - before > 10_000, (before, gc.get_freeze_count()); print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_ludus_serve_quiets_the_collector_before_serving(monkeypatch):
    """``ludus serve`` (one process, and each worker: both go through _run_uvicorn) calls it."""
    from ludus.cli import serve

    called: list[str] = []
    monkeypatch.setattr("ludus.server.app.quiet_collector", lambda: called.append("gc"))
    monkeypatch.setattr("ludus.server.observability.configure_logging", lambda as_json: None)

    class Server:
        def __init__(self, config) -> None:
            pass

        def run(self, sockets) -> None:
            called.append("run")
    monkeypatch.setattr("uvicorn.Server", Server)
    serve._run_uvicorn(object(), type("C", (), {"log_json": False})(), [])
    assert called == ["gc", "run"]
