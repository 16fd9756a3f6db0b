"""A worker that cannot reach another is warned about once every few seconds, not once per client."""

from __future__ import annotations

import logging

from ludus.server import forward


def test_relay_failures_are_logged_once_per_interval_with_the_rest_counted(monkeypatch, caplog):
    now = [100.0]
    monkeypatch.setattr(forward.time, "monotonic", lambda: now[0])
    relay = forward.Forwarder(app=None, hub=None)  # type: ignore[arg-type]
    with caplog.at_level(logging.WARNING, logger="ludus.server"):
        for _ in range(4):
            relay._failed("a WebSocket", "http://127.0.0.1:9", ConnectionRefusedError(111, "refused"))
        relay._failed("a WebSocket", "http://127.0.0.1:10", ConnectionRefusedError(111, "refused"))
        now[0] += forward.WARN_EVERY
        relay._failed("a WebSocket", "http://127.0.0.1:9", ConnectionRefusedError(111, "refused"))
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 3, lines
    assert "127.0.0.1:9" in lines[0] and "more there" not in lines[0]
    assert "127.0.0.1:10" in lines[1]
    assert "(and 3 more there since the last warning)" in lines[2]
