"""Server settings with safe defaults; the CLI and tests override what they need."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


def default_database_url() -> str:
    """``LUDUS_DATABASE`` if set, else a SQLite file in the user's data directory (no setup needed)."""
    env = os.environ.get("LUDUS_DATABASE")
    if env:
        return env
    from platformdirs import user_data_dir

    return f"sqlite:///{Path(user_data_dir('ludus', appauthor=False)) / 'ludus.db'}"


@dataclass
class ServerConfig:
    database: str = field(default_factory=default_database_url)
    bot_delay: float = 0.8
    """Seconds a bot waits before it plays, so people can follow the table."""
    disconnect_grace: float = 30.0
    """Seconds a seated player may stay disconnected before a bot takes the seat."""
    min_clock: int = 5
    """Shortest turn clock a table may have, in seconds."""
    max_message_bytes: int = 4096
    max_body_bytes: int = 16 * 1024
    max_live_tables: int = 2000
    max_connections_per_table: int = 64
    rate_per_second: float = 20.0
    rate_burst: int = 40
    bot_threads: int = 2
    bot_processes: bool = False
    """Run every bot in a worker process (heavy search kinds always are)."""
    keep_finished: int = 200
    """Finished tables kept in memory; older ones are read back from the database on demand."""
