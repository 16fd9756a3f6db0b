"""Server settings with safe defaults; the CLI and tests override what they need."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["ServerConfig", "default_database_url"]


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
    """Tables open or in play at once; expired and finished tables do not count."""
    max_connections_per_seat: int = 8
    """WebSockets one seat may hold (tabs, devices); counted apart from spectators, so they never lock a player out."""
    max_spectators_per_table: int = 64
    """Spectator WebSockets a table accepts."""
    max_spectators_per_address: int = 16
    """Spectator WebSockets one client address may hold across all tables."""
    create_per_minute_client: float = 4.0
    """Tables one browser (cookie token) may create per minute on average..."""
    create_burst_client: int = 8
    """...and at once."""
    create_per_minute_address: float = 12.0
    """Tables one client address may create per minute (all its browsers together)..."""
    create_burst_address: int = 24
    """...and at once."""
    login_failures_per_minute_account: float = 1.0
    """Wrong passwords one account name may be tried with per minute on average (then logins wait)..."""
    login_failures_burst_account: int = 5
    """...and at once."""
    login_failures_per_minute_address: float = 5.0
    """Wrong passwords one client address may send per minute (all the names it tries together)..."""
    login_failures_burst_address: int = 20
    """...and at once."""
    signups_per_minute_address: float = 1.0
    """Accounts one client address may create per minute..."""
    signups_burst_address: int = 5
    """...and at once."""
    advertise: str | None = None
    """The base URL (``http://host:port``) other workers of a group reach this one at (leases.py)."""
    lease_seconds: float = 3.0
    """How long a worker's lease on a table lasts unrenewed (renewed every third of it): a killed
    worker's tables are played on elsewhere after about this long plus a second."""
    quick_idle: float = 30.0
    """Seconds a player waiting for quick play stays in the pool after their page last asked."""
    open_table_ttl: float = 30 * 60
    """Seconds an open table (waiting for people) lives without anyone joining or leaving; then it expires."""
    allowed_hosts: list[str] = field(default_factory=list)
    """Host names served besides IP addresses and ``localhost`` (DNS-rebinding protection)."""
    rate_per_second: float = 20.0
    rate_burst: int = 40
    bot_threads: int = 2
    bot_processes: bool = False
    """Run every bot in a worker process (heavy search kinds always are)."""
    bot_workers: int = 0
    """Search-bot worker processes; 0: one per core but one, 1 to 8 (``ludus.server.bots.bot_workers``)."""
    hint_seconds: float = 1.5
    """Wall time a hint ("What would the bot play?") searches for, at tables with hints on."""
    hint_processes: bool = True
    """Hints search in a worker process of their own (False: a thread, for tests)."""
    keep_finished: int = 200
    """Finished tables kept in memory; older ones are read back from the database on demand."""
    log_json: bool = False
    """Log one JSON object per line (time, level, logger, message, extra fields) instead of plain text;
    ``ludus serve --log-json`` (see :func:`ludus.server.observability.configure_logging`)."""
