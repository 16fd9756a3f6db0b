"""A bounded hostile run: thousands of generated bad WebSocket messages and HTTP requests on loopback.

Every reply must be a well-formed error (or the answer a good request gets), nothing may be
a server error, every connection must still answer a ping, and refused input must change
nothing. ``benchmarks/server_hostile.py`` runs the same with larger counts.
"""

from __future__ import annotations

from ludus.server.config import ServerConfig

from . import hostile
from .helpers import LiveServer

WS_CASES = 4000
HTTP_CASES = 2500


def test_hostile_messages_and_requests_are_refused_cleanly(tmp_path, caplog):
    import logging

    caplog.set_level(logging.ERROR, logger="ludus")
    # a generous message rate, so the cases reach the parser rather than the rate limit
    config = ServerConfig(database=f"sqlite:///{tmp_path / 'h.db'}", bot_delay=0.0, rate_per_second=1e6,
                          rate_burst=10**6)
    server = LiveServer(config)
    try:
        counts = hostile.run(server, WS_CASES, HTTP_CASES, seed=20261130, seconds=45)
    finally:
        server.stop()
    print("\n" + counts.summary())
    assert not counts.problems, "\n".join(counts.problems[:20])
    assert counts.server_errors == 0 and counts.refused_changes == 0
    assert counts.tried >= 2000, counts.summary()  # the time budget must not cut the run short
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
