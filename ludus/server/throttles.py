"""Throttles: token buckets per (limit, key) — failed logins, sign-ups, table creations.

One server process (SQLite, or PostgreSQL without a group) keeps its buckets in memory
(:class:`~.protocol.KeyedRateLimit`), with no database round trip. In a group of workers on
one PostgreSQL database (leases on, :mod:`.leases`) a client spread over N workers would get
N times the budget that way, so there the buckets live in ``ludus_throttles`` (migration
0007), one row per (limit, key), and every change is one ``INSERT ... ON CONFLICT DO UPDATE``
whose refill is computed from the database's ``now()``: the workers' clocks never enter, and
two workers charging one bucket at once queue on its row.

A key (an account name, an address, a player's token hash) is stored only as an HMAC-SHA256
under the group's secret (``ludus_settings``): the table holds no address or name in clear,
and without the secret its rows cannot be matched against a list of likely addresses. A row
is deleted once its bucket is full again (``full_at``), so the table holds the clients seen
within the last refill time only.

:meth:`Throttles.take` is check-and-charge in one step: every bucket named must hold a token,
then each gives one; otherwise nothing is charged. Login throttles charge before the password
is checked and :meth:`Throttles.give` hands the token back when it was right, so that many
guesses sent at once (to one worker or to several) cannot all pass the check before the
first failure is counted.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from sqlalchemy import Connection, text

from .protocol import KeyedRateLimit

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["Limit", "Throttles"]

PRUNE_EVERY = 60.0
"""Seconds between two deletions of the rows whose buckets are full again (per worker)."""

# refilled: the bucket's tokens now, from the stored count, its age and its rate (database time)
_REFILLED = "LEAST(t.burst, t.tokens + GREATEST(0, EXTRACT(EPOCH FROM now() - t.updated_at)) * t.rate)"
_TAKE = text(f"""
INSERT INTO ludus_throttles AS t (name, key, tokens, rate, burst, updated_at, full_at)
VALUES (:name, :key, :burst - 1, :rate, :burst, now(), now() + make_interval(secs => 1 / :rate))
ON CONFLICT (name, key) DO UPDATE SET
    tokens = {_REFILLED} - 1, rate = EXCLUDED.rate, burst = EXCLUDED.burst, updated_at = now(),
    full_at = now() + make_interval(secs => (EXCLUDED.burst - {_REFILLED} + 1) / EXCLUDED.rate)
WHERE {_REFILLED} >= 1
RETURNING t.tokens""")
_WAIT = text(f"SELECT (1 - {_REFILLED}) / t.rate AS wait FROM ludus_throttles t WHERE t.name = :name AND t.key = :key")
_GIVE = text(f"""
UPDATE ludus_throttles t SET tokens = LEAST(t.burst, {_REFILLED} + 1), updated_at = now(),
    full_at = now() + make_interval(secs => GREATEST(0, t.burst - {_REFILLED} - 1) / t.rate)
WHERE t.name = :name AND t.key = :key""")
_PRUNE = text("DELETE FROM ludus_throttles WHERE full_at < now()")


class Limit:
    """One kind of limit (``name``): ``per_minute`` on average, ``burst`` at once, per key."""

    def __init__(self, name: str, per_minute: float, burst: int) -> None:
        self.name = name
        self.memory = KeyedRateLimit(per_minute, burst)
        self.rate = self.memory.rate  # per second; <= 0: no limit
        self.burst = self.memory.burst


class Throttles:
    """The hub's limits, in memory or (a group of workers) in the database."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.next_prune = 0.0

    @property
    def shared(self) -> bool:
        """Whether the buckets are the group's (PostgreSQL with leases) rather than this process's."""
        return self.hub.leases.enabled

    async def take(self, checks: Sequence[tuple[Limit, str | None]]) -> list[float]:
        """Charge one action to every bucket named if each allows it; else charge none.

        Returns the wait, in seconds, of each check (all 0: charged). A None key, or a limit
        that is off, is not limited."""
        live = [(i, limit, key) for i, (limit, key) in enumerate(checks) if key is not None and limit.rate > 0]
        waits = [0.0] * len(checks)
        if not live:
            return waits
        if not self.shared:  # one process: in memory, with nothing awaited (no other request runs meanwhile)
            now = time.monotonic()
            for i, limit, key in live:
                waits[i] = limit.memory.wait(key, now)
            if not any(waits):
                for _, limit, key in live:
                    limit.memory.take(key, now)
            return waits
        rows = [(i, limit.name, self._key(limit, key), limit.rate, limit.burst) for i, limit, key in live]
        for i, wait in (await self.hub.db(self._take_rows, rows)).items():
            waits[i] = wait
        return waits

    async def give(self, checks: Sequence[tuple[Limit, str | None]]) -> None:
        """Hand back the token :meth:`take` charged (the action turned out not to count)."""
        live = [(limit, key) for limit, key in checks if key is not None and limit.rate > 0]
        if not live:
            return
        if not self.shared:
            now = time.monotonic()
            for limit, key in live:
                limit.memory.give(key, now)
            return
        rows = [(limit.name, self._key(limit, key)) for limit, key in live]
        await self.hub.db(self._give_rows, rows)

    # ----------------------------------------------------------------- database (the db thread)
    def _key(self, limit: Limit, key: str) -> str:
        secret = self.hub.registry.secret
        assert secret is not None
        return hmac.new(secret, f"throttle\0{limit.name}\0{key}".encode("utf-8", "replace"),
                        hashlib.sha256).hexdigest()

    def _take_rows(self, rows: list[tuple[int, str, str, float, float]]) -> dict[int, float]:
        """One transaction: each bucket charged if it allows it; if any refuses, rolled back."""
        assert self.hub.store is not None
        refused: dict[int, float] = {}
        with self.hub.store.engine.connect() as c:
            with c.begin() as tx:
                for i, name, key, rate, burst in sorted(rows, key=lambda r: (r[1], r[2])):  # one lock order
                    params = {"name": name, "key": key, "rate": rate, "burst": burst}
                    if c.execute(_TAKE, params).first() is None:
                        refused[i] = max(1e-3, float(c.execute(_WAIT, params).scalar_one()))
                if refused:
                    tx.rollback()
            self._prune(c)
        return refused

    def _give_rows(self, rows: list[tuple[str, str]]) -> None:
        assert self.hub.store is not None
        with self.hub.store.engine.begin() as c:
            for name, key in sorted(rows):
                c.execute(_GIVE, {"name": name, "key": key})

    def _prune(self, c: Connection) -> None:
        now = time.monotonic()
        if now < self.next_prune:
            return
        self.next_prune = now + PRUNE_EVERY
        with c.begin():
            c.execute(_PRUNE)
