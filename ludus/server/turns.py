"""Turns: moves, bots and clocks, with every move written before it is shown.

:class:`Turns` owns play. The order for a move is: check it on a copy of the state, write it
to the database (on the database thread), swap the copy in, then acknowledge and wake the
connections. A crash between the write and the swap loses nothing: the restart replays the
written record. A write whose commit is in doubt leaves a :class:`~.live.PendingMove` that
holds the table until the database says whether it was stored. Bots and turn clocks are
started and stopped here (:meth:`Turns.schedule`) to match whose turn it is after each change.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection

from ..agents.base import Agent, make_agent
from ..core.errors import IllegalAction, Message, RecordError
from ..core.game import CHANCE, State
from ..i18n import N_
from . import ratings, views
from . import store as ops
from .live import PendingMove, Seat, Table
from .protocol import ProtocolError

__all__ = ["UNCONFIRMED", "Turns"]

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("ludus.server")

UNCONFIRMED = N_("the database did not confirm your move and cannot be asked right now, so it may or may not "
                 "have been saved; this table will acknowledge it or ask you to play again once the server knows")




class Turns:
    """Moves, bots and clocks at the hub's tables."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    # ----------------------------------------------------------------- moves
    async def submit(self, table: Table, seat: int | None, raw: Any, moves: int, by_bot: bool = False,
                     mid: Any = None, auto: bool = False) -> int:
        """Validate, persist, apply and announce one action; returns its ply. Raises ProtocolError.

        ``mid`` is the client's message id, used if the move has to be acknowledged late (below).
        ``auto`` says the player's page played it by itself; it is accepted only for the seat's
        single legal move, so the log's "played automatically" mark is never a lie.

        The metrics time it from here (waiting for the table's lock included) to the end of
        :meth:`_apply_move`, and count a refusal by its code."""
        started = time.perf_counter()
        try:
            ply = await self._submit(table, seat, raw, moves, by_bot, mid, auto)
        except ProtocolError as exc:
            self.hub.metrics.move_refused(table.game.name, exc.code)
            raise
        self.hub.metrics.move_timed(table.game.name, started)
        return ply

    async def _submit(self, table: Table, seat: int | None, raw: Any, moves: int, by_bot: bool, mid: Any,
                      auto: bool) -> int:
        async with table.lock:
            if table.dropped:  # its lease went to another worker while this move waited
                raise ProtocolError("moved", Message(N_("table {code} is played by another server of this group now; "
                                                        "reconnect to go on"), code=table.code))
            if table.unconfirmed is not None:  # an earlier move's commit is in doubt: settle it first
                await self._reconcile(table)
            if seat is None:
                raise ProtocolError("not_seated", Message(N_("spectators cannot play; join a seat to play")))
            if table.status == "open":
                raise ProtocolError("not_started", Message(N_("the game starts when every seat is taken")))
            state = table.state
            if state.is_terminal():
                raise ProtocolError("game_over", Message(N_("the game is over")))
            s = table.seats[seat]
            if by_bot and not s.bot_plays:
                raise ProtocolError("stale", Message(N_("the player has taken the seat back")))
            if moves != table.moves[seat]:
                raise ProtocolError("stale", Message(N_("that move was made from an old view (your moves so far: "
                                                        "{made}; the "
                                                        "message says {said}); here is the current table"),
                                                     made=table.moves[seat], said=moves))
            if seat not in state.current_seats():
                raise ProtocolError("not_your_turn", Message(N_("it is not your turn")))
            try:
                action = table.game.action_from_json(raw)
            except RecordError as exc:
                raise ProtocolError("bad_action", str(exc)) from None
            except Exception:  # noqa: BLE001 - a game's parser may choke on odd JSON; still the client's fault
                raise ProtocolError("bad_action", f"{raw!r:.80} is not a {table.game.title} move") from None
            reason = state.why_illegal(action, seat)
            if reason is not None:
                raise ProtocolError.refused(reason)
            if auto and len(state.legal_actions(seat)) != 1:
                raise ProtocolError("not_forced", Message(N_("only a forced move (your single legal move) can be "
                                                             "marked "
                                                             "as played automatically; send it without 'auto'")))
            index = len(state.history)  # where the move enters the history (chance steps may follow it)
            after = state.clone()
            try:
                after.apply(action, seat)
            except IllegalAction as exc:
                refusal = ProtocolError("illegal", str(exc))
                if exc.code is not None:
                    refusal.reason = {"code": exc.code, "params": exc.params}
                raise refusal from None
            ply = len(table.recorded)
            canonical = action.to_json()
            status = "finished" if after.is_terminal() else table.status
            result = {"scores": after.scores(), "winners": after.winners()} if after.is_terminal() else None
            op = ops.append_action(table.code, ply, seat, canonical, by_bot, status, result,
                                   check=self.hub.leases.fence(table.code),
                                   then=self._rating(table, after) if result is not None else None)
            move = PendingMove(op, ply, seat, canonical, by_bot, status, after, mid,
                               auto_index=index if auto and not by_bot else None)
            try:
                await self.hub.write(op)
            except ops.OutcomeUnknown as exc:
                # The commit failed in a way that may have stored the move, and the database cannot
                # be asked now. Keep the move: no other move may take this ply until we know.
                log.error("move %d of table %s: commit outcome unknown; holding the table until it is known",
                          ply, table.code)
                move.ghost = exc.ghost
                table.unconfirmed = move
                move.task = self.hub.spawn(self._reconcile_later(table, move),
                                           f"reconcile move {ply} at table {table.code}")
                raise ProtocolError("unconfirmed", Message(UNCONFIRMED)) from None
            except Exception:
                log.exception("could not store move %d of table %s", ply, table.code)
                raise ProtocolError("server_error",
                                    Message(N_("the move could not be saved; nothing changed, please retry"))) from None
            await self._apply_move(table, move)
            return ply

    @staticmethod
    def _rating(table: Table, after: State) -> Callable[[Connection], None] | None:
        """A rated table's rating update, to run in the final move's transaction (so both or neither)."""
        if table.pool is None:
            return None
        pool = f"{table.game.name}/{table.pool.key}"
        seats = ratings.rated_seats(table.seats, after)
        return lambda c: ratings.rate_game(c, table.code, pool, seats)

    async def _apply_move(self, table: Table, move: PendingMove) -> None:
        """Swap in a stored move's state and announce it (under the table's lock)."""
        table.state = move.after
        table.recorded.append((move.seat, move.action))
        table.by_bot.append(move.by_bot)
        table.moves[move.seat] += 1
        self.hub.metrics.move_accepted(table.game.name)
        if move.auto_index is not None:
            table.auto_played.add(move.auto_index)
        s = table.seats[move.seat]
        if not move.by_bot and s.away == "timeout":
            s.away = None  # playing by hand is taking the seat back
            await self.hub.seating.save_seat(table, s)
        table.status = move.status
        if move.status == "finished":
            log.info("table %s finished after %d moves", table.code, move.ply + 1)
            self.hub.registry.remember_finished(table)
            if self.hub.leases.enabled:  # any worker shows a finished table
                self.hub.spawn(self.hub.leases.release(table.code), f"release table {table.code}")
        self.hub.changed(table)

    async def _reconcile(self, table: Table) -> None:
        """Learn whether the table's unconfirmed move was stored (under the table's lock).

        Stored: apply it and acknowledge it late to its seat's connections. Not stored: drop it
        and tell them. Cannot tell yet: raise ``unconfirmed`` and keep holding the table."""
        move = table.unconfirmed
        if move is None:
            return
        wait = move.next_try - time.monotonic()
        if wait > 0:  # the database was unreachable a moment ago: do not hammer it
            await asyncio.sleep(wait)
        assert self.hub.store is not None
        try:
            stored = await self.hub.db(self.hub.store.applied, move.op, move.ghost)
        except Exception as exc:  # noqa: BLE001 - still cannot reach the database
            move.tries += 1
            move.next_try = time.monotonic() + min(2.0, 0.1 * 2 ** move.tries)
            log.warning("move %d of table %s still unconfirmed: %s", move.ply, table.code,
                        str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
            raise ProtocolError("unconfirmed", Message(N_("this table is waiting to learn whether its last move was "
                                                          "saved; try again in a moment"))) from None
        table.unconfirmed = None
        seat_conns = [c for c in table.conns if c.seat == move.seat and not c.closed]
        if stored:
            log.warning("move %d of table %s was stored after all: applying it", move.ply, table.code)
            await self._apply_move(table, move)
            if not move.by_bot:
                for conn in seat_conns:
                    conn.push({"type": "ack", "id": move.mid, "ply": move.ply})
        else:
            log.warning("move %d of table %s was not stored: dropped", move.ply, table.code)
            if not move.by_bot:
                for conn in seat_conns:
                    conn.push({"type": "error", "id": move.mid, "code": "server_error",
                               "message": "your move could not be saved; nothing changed, please play it again"})
            self.hub.changed(table)

    async def _reconcile_later(self, table: Table, move: PendingMove) -> None:
        """Keep asking, with back-off, until the unconfirmed move is settled (or another path settled it)."""
        try:
            while not self.hub.stopping:
                await asyncio.sleep(max(0.2, move.next_try - time.monotonic()))
                async with table.lock:
                    if table.unconfirmed is not move or self.hub.stopping:
                        return
                    try:
                        await self._reconcile(table)
                        return
                    except ProtocolError:
                        continue
        except asyncio.CancelledError:
            pass

    # ----------------------------------------------------------------- bots and clocks
    def cancel_all(self, table: Table) -> None:
        """Stop every bot and clock of the table."""
        for task in table.bot_tasks.values():
            task.cancel()
        table.bot_tasks.clear()
        for _, _, handle in table.deadlines.values():
            handle.cancel()
        table.deadlines.clear()

    def schedule(self, table: Table) -> None:
        """Start the bots and clocks the table needs now, and stop the ones it no longer needs."""
        if (table.status != "playing" or table.state.is_terminal() or table.dropped or self.hub.loop is None
                or self.hub.stopping):
            self.cancel_all(table)
            return
        current = [s for s in table.state.current_seats() if s != CHANCE]
        for index in list(table.bot_tasks):
            if index not in current or not table.seats[index].bot_plays:
                table.bot_tasks.pop(index).cancel()
        for index in list(table.deadlines):
            moves_then, _, handle = table.deadlines[index]
            if index not in current or table.seats[index].bot_plays or moves_then != table.moves[index]:
                handle.cancel()
                del table.deadlines[index]
        for index in current:
            seat = table.seats[index]
            if seat.bot_plays:
                if index not in table.bot_tasks:
                    table.bot_tasks[index] = self.hub.spawn(self._bot_turn(table, index),
                                                            f"bot for seat {index} at table {table.code}")
            elif table.clock_seconds and index not in table.deadlines:
                moves = table.moves[index]
                handle = self.hub.loop.call_later(table.clock_seconds, self._on_timeout, table, index, moves)
                table.deadlines[index] = (moves, time.monotonic() + table.clock_seconds, handle)

    def _on_timeout(self, table: Table, index: int, moves: int) -> None:
        self.hub.spawn(self._timeout(table, index, moves), f"clock for seat {index} at table {table.code}")

    async def _timeout(self, table: Table, index: int, moves: int) -> None:
        async with table.lock:
            entry = table.deadlines.get(index)
            if entry is None or entry[0] != moves or table.moves[index] != moves:
                return
            del table.deadlines[index]
            seat = table.seats[index]
            seat.away = "timeout"
            await self.hub.seating.save_seat(table, seat)
            self.hub.changed(table)

    def _agent(self, table: Table, seat: Seat) -> Agent:
        if seat.agent is None:
            seed = (table.seed ^ (seat.index * 0x9E3779B97F4A7C15)) & (2**63 - 1)
            seat.agent = make_agent(seat.bot, table.game, seed=seed)
        return seat.agent

    async def _bot_turn(self, table: Table, index: int) -> None:
        """Pause, choose off the loop, submit like a player would; then look at the table again."""
        me = asyncio.current_task()
        cancelled = False
        try:
            if self.hub.config.bot_delay > 0:
                await asyncio.sleep(self.hub.config.bot_delay)
            seat = table.seats[index]
            moves = table.moves[index]
            try:
                if self.hub.bots.uses_process(seat.bot):
                    action = await self.hub.bots.in_process(table.code, table.game, table.options_json, table.seed,
                                                            list(table.recorded), index, seat.bot,
                                                            table.seed + len(table.recorded))
                else:
                    action = await self.hub.bots.in_thread(self._agent(table, seat), views.seat_view(table, index),
                                                           seat.bot)
                raw = action.to_json()
            except asyncio.CancelledError:
                raise
            except Exception:  # a broken agent must not stall the table: play its first legal move instead
                if self.hub.stopping:
                    return
                log.exception("bot %s at table %s failed; playing its first legal move", seat.bot, table.code)
                legal = table.state.legal_actions(index) if index in table.state.current_seats() else ()
                if not legal:
                    return
                raw = legal[0].to_json()
            if table.bot_tasks.get(index) is me:
                del table.bot_tasks[index]
            try:
                await self.submit(table, index, raw, moves, by_bot=True)
            except ProtocolError as exc:
                if exc.code in ("illegal", "bad_action"):
                    log.error("bot %s at table %s chose a bad move: %s", seat.bot, table.code, exc.message)
                    legal = table.state.legal_actions(index) if index in table.state.current_seats() else ()
                    if legal:
                        await self.submit(table, index, legal[0].to_json(), table.moves[index], by_bot=True)
        except asyncio.CancelledError:
            cancelled = True
            raise
        except ProtocolError as exc:
            log.warning("bot move at table %s refused: %s", table.code, exc.message)
        except Exception:
            log.exception("bot for seat %d at table %s failed", index, table.code)
        finally:
            if table.bot_tasks.get(index) is me:
                del table.bot_tasks[index]
            if not cancelled:
                self.schedule(table)  # whatever happened meanwhile, start what the table needs now

