"""Presence and seats: who sits where, who is connected, and who plays for an absent player.

:class:`Seating` owns taking and leaving seats, admitting and dropping connections (with the
per-seat and spectator caps, and the per-address spectator count it keeps), and the grace
timer that hands a disconnected player's seat to a bot until the player comes back. It
changes seats only; moves, bots and clocks are :mod:`.turns`.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from typing import TYPE_CHECKING, Any

from ..core.errors import Message
from ..i18n import N_
from . import store as ops
from .live import Connection, Seat, Table, table_gone
from .protocol import SEAT_RANGE, ProtocolError, clean_name

__all__ = ["Seating"]

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("ludus.server")


class Seating:
    """Seats and connections of the hub's tables."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.spectators: Counter[str] = Counter()  # spectator connections by client address

    # ----------------------------------------------------------------- taking and leaving seats
    async def join(self, table: Table, key: str, name: Any, seat: int | None, member: bool = False) -> int:
        """Take a free human seat (or return the one this player's key already holds). A rated
        table seats only a ``member`` (a player logged in to an account)."""
        display = clean_name(name)
        async with table.lock:
            mine = table.seat_of(key)
            if mine is not None:
                return mine
            if table.status == "expired":
                raise table_gone(table.code)
            if table.status != "open":
                raise ProtocolError("table_full", Message(N_("this game has started; you can watch it")))
            if table.rated and not member:
                rated = N_("this table is rated: only players with an account sit at it; log in or create an "
                           "account on Your games (/me)")
                raise ProtocolError("account_needed", Message(rated))
            free = [s for s in table.seats if s.kind == "human" and s.token_hash is None]
            if seat is not None:
                if not isinstance(seat, int) or not 0 <= seat < len(table.seats):
                    raise ProtocolError("bad_seat", Message(SEAT_RANGE, high=len(table.seats) - 1))
                free = [s for s in free if s.index == seat]
                if not free:
                    raise ProtocolError("seat_taken", Message(N_("seat {number} is not free"), number=seat + 1))
            if not free:
                raise ProtocolError("table_full", Message(N_("every seat is taken; you can watch")))
            chosen = free[0]
            before = (chosen.name, chosen.token_hash)
            chosen.name, chosen.token_hash = display, key
            humans = [s for s in table.seats if s.kind == "human"]
            status = "playing" if all(s.token_hash for s in humans) else "open"
            try:
                await self.hub.write(ops.update_seat(table.code, chosen.data(), status))
            except Exception:
                chosen.name, chosen.token_hash = before
                raise
            table.status = status
            table.touched = time.monotonic()
            if status == "playing":
                for s in humans:
                    if s.conns == 0:
                        self.start_grace(table, s.index)
            self.hub.changed(table)
            return chosen.index

    async def leave(self, table: Table, key: str | None) -> None:
        """Before the start a seat is freed; during play a bot takes it until the player returns."""
        async with table.lock:
            index = table.seat_of(key)
            if index is None:
                raise ProtocolError("not_seated", Message(N_("you have no seat at this table")))
            seat = table.seats[index]
            if table.status == "open":
                seat.name, seat.token_hash = None, None
                table.touched = time.monotonic()
            elif table.status == "playing":
                seat.away = "left"
            else:
                return
            await self.hub.write(ops.update_seat(table.code, seat.data()))
            self.hub.changed(table)

    # ----------------------------------------------------------------- connections
    def connect(self, table: Table, conn: Connection) -> None:
        """Admit a connection. Seats have their own allowance, so spectators can never crowd a player out."""
        cfg = self.hub.config
        if table.status == "expired":
            raise table_gone(table.code)
        if conn.seat is not None:
            if table.seats[conn.seat].conns >= cfg.max_connections_per_seat:
                raise ProtocolError("busy", Message(N_("your seat is already open in {count} windows; close one of "
                                                       "them"),
                                                       count=cfg.max_connections_per_seat))
        else:
            watching = sum(1 for c in table.conns if c.seat is None)
            if watching >= cfg.max_spectators_per_table:
                full = N_("this table has as many spectators as it can take; try again later")
                raise ProtocolError("busy", Message(full))
            if conn.address is not None:
                if self.spectators[conn.address] >= cfg.max_spectators_per_address:
                    raise ProtocolError("busy", Message(N_("too many tables are being watched from your network "
                                                           "address; "
                                                           "close some of them")))
                self.spectators[conn.address] += 1
                conn.counted = True
        table.conns.add(conn)
        if conn.seat is not None:
            seat = table.seats[conn.seat]
            seat.conns += 1
            handle = table.grace.pop(conn.seat, None)
            if handle:
                handle.cancel()
            if seat.away in ("left", "disconnected"):
                self.hub.spawn(self.hand_back(table, conn.seat), f"hand back seat {conn.seat} at table {table.code}")
        self.hub.changed(table)

    def disconnect(self, table: Table, conn: Connection) -> None:
        conn.closed = True
        conn.wake.set()
        if conn.counted and conn.address is not None:
            conn.counted = False
            self.spectators[conn.address] -= 1
            if self.spectators[conn.address] <= 0:
                del self.spectators[conn.address]
        if conn not in table.conns:
            return
        table.conns.discard(conn)
        if conn.seat is not None:
            seat = table.seats[conn.seat]
            seat.conns = max(0, seat.conns - 1)
            if seat.conns == 0:
                self.start_grace(table, conn.seat)
        self.hub.changed(table)

    # ----------------------------------------------------------------- absence
    def start_grace(self, table: Table, index: int) -> None:
        """Give a seated player who has no connection ``disconnect_grace`` seconds to come back."""
        hub = self.hub
        seat = table.seats[index]
        if seat.kind != "human" or seat.token_hash is None or seat.conns or index in table.grace:
            return
        if table.status != "playing" or seat.away is not None or hub.loop is None:
            return

        def fire() -> None:
            table.grace.pop(index, None)
            hub.spawn(self._gone(table, index), f"seat {index} gone at table {table.code}")

        table.grace[index] = hub.loop.call_later(hub.config.disconnect_grace, fire)

    async def _gone(self, table: Table, index: int) -> None:
        async with table.lock:
            seat = table.seats[index]
            if seat.conns or seat.away is not None or table.status != "playing":
                return
            seat.away = "disconnected"
            await self.save_seat(table, seat)
            self.hub.changed(table)

    async def hand_back(self, table: Table, index: int) -> None:
        async with table.lock:
            seat = table.seats[index]
            if seat.away is None:
                return
            seat.away = None
            await self.save_seat(table, seat)
            task = table.bot_tasks.pop(index, None)
            if task:
                task.cancel()
            self.hub.changed(table)

    async def save_seat(self, table: Table, seat: Seat) -> None:
        """Store a seat's change of hands; if that fails, log it and go on."""
        try:
            await self.hub.write(ops.update_seat(table.code, seat.data()))
        except Exception:  # the seat change is shown anyway; it only affects who plays, not the record
            log.exception("could not store seat %d of table %s", seat.index, table.code)
