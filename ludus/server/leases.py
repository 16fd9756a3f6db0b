"""Leases: several workers on one PostgreSQL database, each table played by one of them.

A worker plays a table (or holds the quick play pool, resource ``"quick"``) while it holds
the table's row in ``ludus_leases``: its id, the address the other workers reach it at, and
an expiry a few seconds ahead that it renews every second. Every move's transaction checks
and extends that lease (:meth:`Leases.fence`), so a worker that lost a lease (paused past its
expiry while another took over) cannot store a move for that table any more. A table whose
lease has run out is adopted by the surviving workers: a killed worker's tables are played on
elsewhere within about ``ttl`` + 1 seconds, their clients reconnecting by themselves.

Adoption is spread over the group. Each worker also holds a lease on ``w:<its id>`` while it
runs (renewed with its tables'), so the others know how many are alive. In each pass a worker
adopts orphans only up to its fair share, ceil((tables held + orphans) / live workers) less
what it already plays, taking them in a random order, so that a dead worker's tables do not
all land on whichever survivor looks first. An orphan this worker has seen for ``2 * ttl``
seconds without anyone adopting it is taken whatever the shares (a peer that counts as alive
but does not adopt cannot strand a table).
A request for a table another worker plays is forwarded there (:mod:`.forward`). Finished
tables need no lease: any worker shows them from the database.

A SQLite file has a single server (its file lock), so leases are off there and nothing of
this costs anything. Times are the database's (``now()``), never a worker's own clock.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import secrets
import threading
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, text

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["QUICK", "WORKER_PREFIX", "Leases"]

log = logging.getLogger("ludus.server")

QUICK = "quick"
"""The quick play pool: one worker holds it, the others forward its requests there."""

_CLAIM = text("""
INSERT INTO ludus_leases (resource, worker, address, expires_at)
VALUES (:resource, :worker, :address, now() + make_interval(secs => :ttl))
ON CONFLICT (resource) DO UPDATE SET worker = EXCLUDED.worker, address = EXCLUDED.address,
    expires_at = EXCLUDED.expires_at
WHERE ludus_leases.expires_at < now() OR ludus_leases.worker = EXCLUDED.worker
RETURNING worker""")
_OWNER = text("SELECT worker, address FROM ludus_leases WHERE resource = :resource AND expires_at >= now()")
# Renewing skips the rows a move's transaction has locked (its fence extends them anyway) and
# reads them as last committed: waiting for them instead deadlocked against a group commit that
# fenced two of this worker's tables in the other order (PostgreSQL then stalls both for its
# deadlock_timeout, 1 s, before it fails one).
_RENEW = text("""
WITH renewed AS (
    UPDATE ludus_leases SET expires_at = now() + make_interval(secs => :ttl)
    WHERE resource IN (SELECT resource FROM ludus_leases WHERE worker = :worker FOR UPDATE SKIP LOCKED)
    RETURNING resource)
SELECT resource FROM renewed
UNION
SELECT resource FROM ludus_leases WHERE worker = :worker AND expires_at >= now()""")
_FENCE = text("UPDATE ludus_leases SET expires_at = now() + make_interval(secs => :ttl) "
              "WHERE resource = :resource AND worker = :worker")
_RELEASE = text("DELETE FROM ludus_leases WHERE worker = :worker AND resource = :resource")
_RELEASE_ALL = text("DELETE FROM ludus_leases WHERE worker = :worker")
_ORPHANS = text("""
SELECT t.code, count(*) OVER () AS orphans FROM ludus_tables t LEFT JOIN ludus_leases l ON l.resource = t.code
WHERE t.status IN ('open', 'playing') AND (l.resource IS NULL OR l.expires_at < now())
ORDER BY t.created_at LIMIT :limit""")
WORKER_PREFIX = "w:"
"""A worker's own lease (``w:<id>``): it runs while the lease is current; the group counts these."""
_LOAD = text("""
SELECT (SELECT count(*) FROM ludus_leases WHERE resource LIKE 'w:%' AND expires_at >= now()) AS workers,
       count(l.resource) AS held, count(l.resource) FILTER (WHERE l.worker = :worker) AS mine
FROM ludus_leases l JOIN ludus_tables t ON t.code = l.resource
WHERE l.expires_at >= now() AND t.status IN ('open', 'playing')""")
_WORKERS = text("SELECT resource, address FROM ludus_leases WHERE resource LIKE 'w:%' AND expires_at >= now() "
                "ORDER BY resource")
_FORGET_WORKERS = text("DELETE FROM ludus_leases WHERE resource LIKE 'w:%' AND expires_at < now() - "
                       "make_interval(secs => 60)")


class Leases:
    """This worker's leases: claiming, renewing, fencing moves, adopting orphaned tables."""

    def __init__(self, hub: Hub, ttl: float = 3.0) -> None:
        self.hub = hub
        self.ttl = ttl
        self.enabled = False  # set at start: PostgreSQL only
        self.worker = secrets.token_hex(8)
        self.address = ""  # where the other workers reach this one (ServerConfig.advertise)
        self.held: set[str] = set()
        self.task: asyncio.Task | None = None
        self.me = WORKER_PREFIX + self.worker  # this worker's own lease: the group sees it alive
        self.orphans_seen: dict[str, float] = {}  # orphan -> when this worker first saw it (monotonic)
        self.next_forget = 0.0
        # The renewer thread's last pass: when its statement started (monotonic) and the leases the
        # database then said were ours. A lease claimed after that start may be missing from it.
        self.renewed: tuple[float, set[str]] | None = None
        self.claimed_at: dict[str, float] = {}
        self.stop_renewing = threading.Event()
        self.renewer: threading.Thread | None = None

    def start(self, dialect: str, address: str | None) -> None:
        self.enabled = dialect == "postgresql"
        self.address = address or ""
        if self.enabled and not self.address:
            log.warning("no address to be reached at (ServerConfig.advertise): other workers on this database "
                        "cannot forward requests here")

    # ----------------------------------------------------------------- database (blocking; the db thread)
    def _engine(self) -> Any:
        assert self.hub.store is not None
        return self.hub.store.engine

    def claim_now(self, resource: str) -> tuple[bool, str | None]:
        """Take ``resource`` if it is free (or already ours): (ours, the holder's address otherwise)."""
        with self._engine().begin() as c:
            got = c.execute(_CLAIM, {"resource": resource, "worker": self.worker, "address": self.address,
                                     "ttl": self.ttl}).first()
            if got is not None:
                return True, None
            row = c.execute(_OWNER, {"resource": resource}).first()
        return False, row.address if row else None

    def _renew(self) -> set[str]:
        with self._engine().begin() as c:
            return {r.resource for r in c.execute(_RENEW, {"worker": self.worker, "ttl": self.ttl})}

    def _renew_now(self) -> None:
        """One renewal pass (and this worker's own lease taken again if it had lapsed)."""
        started = time.monotonic()
        mine = self._renew()
        if self.me not in mine:  # the first pass (or this worker's lease lapsed): the group sees it alive again
            self.claim_now(self.me)
        self.renewed = (started, mine - {self.me})

    def _renew_forever(self) -> None:
        """Renew every third of a lease on a thread of its own. On the event loop, or queued on the
        database thread behind a burst of reads, a renewal came late under load: leases lapsed, the
        other workers took the tables, and their players were sent back and forth."""
        while not self.stop_renewing.wait(self.ttl / 3):
            try:
                self._renew_now()
            except Exception:  # the database is down: leases run out and are taken back later
                log.exception("renewing this worker's leases failed")

    def _orphans(self, limit: int = 50) -> tuple[list[str], int]:
        """Some unfinished tables nobody holds (oldest first), and how many there are in all."""
        with self._engine().connect() as c:
            rows = c.execute(_ORPHANS, {"limit": limit}).all()
        return [r.code for r in rows], (rows[0].orphans if rows else 0)

    def _share(self, orphans: int) -> int:
        """How many orphans this worker adopts now: up to its fair share of the group's tables."""
        with self._engine().connect() as c:
            load = c.execute(_LOAD, {"worker": self.worker}).one()
        workers = max(1, load.workers)
        return max(0, math.ceil((load.held + orphans) / workers) - load.mine)

    def workers(self) -> list[tuple[str, str]]:
        """The group's live workers (this one included), each as (its id, its address)."""
        with self._engine().connect() as c:
            return [(r.resource.removeprefix(WORKER_PREFIX), r.address or "") for r in c.execute(_WORKERS)]

    def _forget_workers(self) -> None:
        """Drop the lapsed leases of workers gone for a minute (each start makes a new id)."""
        with self._engine().begin() as c:
            c.execute(_FORGET_WORKERS)

    def release_now(self, resource: str) -> None:
        with self._engine().begin() as c:
            c.execute(_RELEASE, {"worker": self.worker, "resource": resource})

    def fence(self, resource: str) -> tuple[Any, dict[str, Any]] | None:
        """A move's check (``store.append_action``): the statement that extends the lease and
        changes its one row only while the lease is still this worker's (else the move fails)."""
        if not self.enabled:
            return None
        return _FENCE, {"resource": resource, "worker": self.worker, "ttl": self.ttl}

    # ----------------------------------------------------------------- on the loop
    async def claim(self, resource: str) -> tuple[bool, str | None]:
        ours, where = await self.hub.db(self.claim_now, resource)
        if ours:
            self.held.add(resource)
            self.claimed_at[resource] = time.monotonic()
        return ours, where

    async def release(self, resource: str) -> None:
        self.held.discard(resource)
        self.claimed_at.pop(resource, None)
        try:
            await self.hub.db(self.release_now, resource)
        except Exception:  # noqa: BLE001 - it runs out by itself
            log.warning("could not release the lease of %s", resource)

    def begin(self) -> None:
        """Start renewing, dropping what was lost, and adopting orphaned tables."""
        if self.enabled:
            self.renewer = threading.Thread(target=self._renew_forever, name="ludus-leases", daemon=True)
            self.renewer.start()
            self.task = self.hub.spawn(self._loop(), "leases")

    async def _loop(self) -> None:
        while not self.hub.stopping:
            try:
                await self.tick()
            except Exception:  # the database is down: leases run out and are taken back later
                log.exception("looking after this worker's leases failed")
            await asyncio.sleep(self.ttl / 3)

    async def tick(self) -> None:
        """Drop the tables whose leases the last renewal did not find ours, and adopt orphans. The
        renewing itself is the renewer thread's; the first pass (before it runs) renews here."""
        if self.renewed is None:
            await self.hub.db(self._renew_now)
        assert self.renewed is not None
        started, mine = self.renewed
        # a lease claimed since that renewal began may be missing from it, and is not lost
        lost = {r for r in self.held - mine if self.claimed_at.get(r, 0.0) < started}
        self.held -= lost
        for resource in lost:
            self.claimed_at.pop(resource, None)
            log.warning("lost the lease of %s: another worker plays it now", resource)
            await self.hub.drop(resource)
        await self.adopt_orphans()
        now = time.monotonic()
        if now >= self.next_forget:
            self.next_forget = now + 60
            await self.hub.db(self._forget_workers)

    async def adopt_orphans(self) -> int:
        """Adopt unfinished tables nobody holds, up to this worker's fair share (see the module's
        text); returns how many were adopted."""
        codes, count = await self.hub.db(self._orphans)
        now = time.monotonic()
        self.orphans_seen = {code: self.orphans_seen.get(code, now) for code in codes}
        if not codes:
            return 0
        share = await self.hub.db(self._share, count)
        overdue = [code for code in codes if now - self.orphans_seen[code] >= 2 * self.ttl]
        fresh = [code for code in codes if code not in overdue]
        random.shuffle(fresh)  # the workers adopting at once try different tables first
        adopted = 0
        for code in overdue + fresh:
            if self.hub.stopping or (adopted >= share and code not in overdue):
                break
            ours, _ = await self.claim(code)
            if ours:
                self.orphans_seen.pop(code, None)
                try:
                    await self.hub.registry.adopt(code)
                    adopted += 1
                except Exception:
                    log.exception("could not adopt table %s", code)
                    await self.release(code)
        return adopted

    async def stop(self) -> None:
        """On a clean stop: give every lease back, so other workers take the tables at once."""
        if self.task is not None:
            self.task.cancel()
        self.stop_renewing.set()
        if self.renewer is not None:
            await asyncio.to_thread(self.renewer.join, 10)
        if self.enabled and self.hub.store is not None:
            from .store import Write

            worker = self.worker

            def run(c: Connection) -> None:
                c.execute(_RELEASE_ALL, {"worker": worker})
            try:  # through the writer, after the moves already queued (they still need the leases)
                await self.hub.write(Write(run, None, "release of this worker's leases"))
            except Exception:  # noqa: BLE001 - they run out by themselves
                log.warning("could not release this worker's leases; they run out in %g s", self.ttl)
        self.held.clear()
