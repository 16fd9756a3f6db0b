"""Tasks the hub starts in the background are kept until they end, and a failure is logged."""

from __future__ import annotations

import asyncio
import logging

from ludus.server.config import ServerConfig
from ludus.server.hub import Hub


def _hub(tmp_path) -> Hub:
    return Hub(ServerConfig(database=f"sqlite:///{tmp_path / 'ludus.db'}"))


def test_a_background_task_that_raises_is_logged_and_released(tmp_path, caplog):
    hub = _hub(tmp_path)
    caplog.set_level(logging.ERROR, logger="ludus.server")

    async def boom() -> None:
        await asyncio.sleep(0)
        raise RuntimeError("the bot fell over")

    async def main() -> None:
        task = hub.spawn(boom(), "bot for seat 1 at table TEST")
        assert task in hub.background  # held while it runs
        await asyncio.wait([task])
        await asyncio.sleep(0)  # let the done-callback run

    try:
        asyncio.run(main())
    finally:
        hub.bots.close()
        hub.db_thread.shutdown(wait=True)
    assert not hub.background
    failures = [r for r in caplog.records if "bot for seat 1 at table TEST" in r.getMessage()]
    assert len(failures) == 1
    assert failures[0].exc_info is not None and "the bot fell over" in str(failures[0].exc_info[1])


def test_finished_and_cancelled_background_tasks_are_released_quietly(tmp_path, caplog):
    hub = _hub(tmp_path)
    caplog.set_level(logging.ERROR, logger="ludus.server")

    async def main() -> None:
        done = hub.spawn(asyncio.sleep(0), "quick")
        waiting = hub.spawn(asyncio.sleep(60), "long")
        await asyncio.sleep(0)
        waiting.cancel()
        await asyncio.wait([done, waiting])
        await asyncio.sleep(0)

    try:
        asyncio.run(main())
    finally:
        hub.bots.close()
        hub.db_thread.shutdown(wait=True)
    assert not hub.background
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
