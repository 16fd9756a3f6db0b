"""A table asked for while it is being adopted is adopted once: one live copy, whose sockets hear
every move (a second copy replaced the first, leaving its sockets silent and its bots writing the
same plies again)."""

from __future__ import annotations

import asyncio

from ludus.server.config import ServerConfig

from .helpers import LiveServer, Player, gm_table


def test_two_adoptions_at_once_make_one_table(tmp_path):
    server = LiveServer(ServerConfig(database=str(tmp_path / "a.db"), bot_delay=0.0))
    p = Player(server)
    try:
        code = gm_table(p, ["human", "bot"])["code"]
        hub = server.hub

        async def twice():
            old = hub.tables.pop(code)  # as if this worker had never loaded it
            hub.turns.cancel_all(old)
            first, second = await asyncio.gather(hub.registry.adopt(code), hub.registry.adopt(code))
            return first, second, hub.tables[code]

        first, second, live = asyncio.run_coroutine_threadsafe(twice(), hub.loop).result(timeout=20)
        assert first is second is live
    finally:
        p.close()
        server.stop()
