"""The views sent are built once per change and shared, and say exactly what they said before.

Each seat's view is built from that seat's view of the game only, once per change, and its
JSON text is shared by the seat's connections; the log is extended move by move where the
game's visibility rule allows it. These tests compare every message with a reference built
the plain way (the whole visible history, asked of the game for each message) in every game,
for players, spectators and connections that lag behind.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from ludus.core.game import CHANCE, HIDDEN, Action, State
from ludus.games import game_names, get_game
from ludus.server.live import Connection, Seat, Table
from ludus.server.protocol import RateLimit
from ludus.server.views import (
    ViewerLog,
    history_entries,
    seat_payload,
    seat_view,
    stable_visibility,
    view_for,
    view_text,
)


def _table(name: str, seed: int) -> Table:
    game = get_game(name)
    options = game.parse_options({})
    state = game.new_initial_state(options, seed=seed)
    n = game.num_seats(options)
    seats = [Seat(i, "human", "random", f"P{i}", f"hash{i}") for i in range(n)]
    return Table(code="ABCDEF", game=game, options_json={}, seed=seed, status="playing", clock_seconds=None,
                 listed=True, seats=seats, state=state, moves=[0] * n)


def _conn(seat: int | None) -> Connection:
    async def send(_text: str) -> None:
        pass

    return Connection(send, seat, RateLimit(100, 100))


def _reference(table: Table, seat: int | None, had: list[list[Any]]) -> dict[str, Any]:
    """The view as the server built it for every message before it was shared: the whole log
    asked of the game anew, and sent from the first entry the connection does not hold."""
    entries = history_entries(table.state, seat, 0, table.auto_played)
    start = 0
    while start < min(len(had), len(entries)) and had[start] == entries[start]:
        start += 1
    base = seat_payload(table.state, seat)
    base.update({"type": "view", "table": table.public(), "you": seat, "names": table.names(),
                 "ply": len(table.recorded), "moves": None if seat is None else table.moves[seat], "clock": {}})
    return {**base, "history": {"from": start, "entries": entries[start:]}}


def _step(table: Table, rng: random.Random) -> bool:
    """One move by a seat to move (chance settles itself); False once the game is over."""
    state = table.state
    if state.is_terminal():
        return False
    seat = rng.choice([s for s in state.current_seats() if s != CHANCE])
    legal = state.legal_actions(seat)
    action = rng.choice(list(legal))
    index = len(state.history)
    after = state.clone()
    after.apply(action, seat)
    table.state = after
    table.recorded.append((seat, action.to_json()))
    table.moves[seat] += 1
    if len(legal) == 1:  # as the server does for a forced move its page played by itself
        table.auto_played.add(index)
    table.cache.clear()  # Hub.changed
    return True


@pytest.mark.parametrize("name", game_names())
def test_every_message_is_what_the_plain_build_gives(name):
    """Seats, spectators, several connections of one seat, some reading every view and some only
    now and then (coalesced views): each message equals the reference, and each connection's log
    put together from its messages equals the seat's whole visible history."""
    rng = random.Random(7)
    table = _table(name, seed=11)
    viewers: list[int | None] = [None, *range(len(table.seats))]
    # per viewer: two eager connections, one lagging, and one given the view as a dict (view_for)
    conns = [(_conn(v), every, every != 2) for v in viewers for every in (1, 1, 3, 2)]
    held: dict[int, list[list[Any]]] = {id(c): [] for c, _, _ in conns}
    texts_at_step: dict[tuple[int | None, int], str] = {}
    for step in range(400):
        for conn, every, as_text in conns:
            if step % every:
                continue
            text = view_text(table, conn) if as_text else json.dumps(view_for(table, conn))
            msg = json.loads(text)
            ref = _reference(table, conn.seat, held[id(conn)])
            assert msg == ref, (name, step, conn.seat)
            start = msg["history"]["from"]
            held[id(conn)] = held[id(conn)][:start] + msg["history"]["entries"]
            assert held[id(conn)] == history_entries(table.state, conn.seat, 0, table.auto_played)
            if every == 1 and step and as_text:  # the two eager connections of a seat get the very same text
                assert texts_at_step.setdefault((conn.seat, step), text) is text
        if not _step(table, rng):
            break
    assert table.state.is_terminal() or step == 399


@pytest.mark.parametrize("name", game_names())
def test_the_incremental_log_is_the_games_visible_history(name):
    """Whether extended move by move (the core's rule) or rebuilt (a game with its own rule):
    the log is ``visible_history`` and its entries those of :func:`history_entries`."""
    rng = random.Random(3)
    table = _table(name, seed=5)
    logs = {v: ViewerLog() for v in [None, *range(len(table.seats))]}
    for _ in range(300):
        for viewer, log_ in logs.items():
            log_.update(table.state, viewer, table.auto_played)
            assert log_.pairs == table.state.visible_history(viewer)
            assert log_.entries == history_entries(table.state, viewer, 0, table.auto_played)
        if not _step(table, rng):
            break


@pytest.mark.parametrize("name", game_names())
def test_a_bots_view_is_the_states_own(name):
    rng = random.Random(9)
    table = _table(name, seed=2)
    for _ in range(200):
        state = table.state
        for seat in state.current_seats():
            if seat != CHANCE:
                assert seat_view(table, seat) == state.view(seat)
        if not _step(table, rng):
            break


def test_only_new_moves_are_looked_at_under_the_core_rule():
    """The point of the incremental log: a move's visibility is asked once per viewer, not once
    per view. The hidden ones are still hidden (the game's own rule decides, for this viewer)."""
    table = _table("gorus-maximus", seed=4)
    assert stable_visibility(table.state)
    rng = random.Random(1)
    asked: list[int] = []
    real = State._visible

    def counting(self: State, index: int, actor: int, action: Action, viewer: int | None) -> bool:
        asked.append(index)
        return real(self, index, actor, action, viewer)

    log_ = ViewerLog()
    State._visible = counting  # type: ignore[method-assign]
    try:
        for _ in range(60):
            log_.update(table.state, 1, table.auto_played)
            if not _step(table, rng):
                break
        log_.update(table.state, 1, table.auto_played)
    finally:
        State._visible = real  # type: ignore[method-assign]
    assert sorted(asked) == list(range(len(table.state.history)))  # each index once
    assert log_.pairs == table.state.visible_history(1)
    assert any(action == HIDDEN for _, action in log_.pairs)  # the others' deals stay hidden


def test_a_game_with_its_own_rule_is_asked_every_time():
    """Gorus Arena reveals a planning phase's placements later: its log is rebuilt from
    ``visible_history`` each time, and a revealed entry is resent from where it changed."""
    table = _table("gorus-arena", seed=6)
    assert not stable_visibility(table.state)
    rng = random.Random(2)
    conn = _conn(1)
    held: list[list[Any]] = []
    resent = 0
    for _ in range(400):
        msg = json.loads(view_text(table, conn))
        start = msg["history"]["from"]
        if start < len(held):
            resent += 1
        held = held[:start] + msg["history"]["entries"]
        assert held == history_entries(table.state, 1, 0, table.auto_played)
        if not _step(table, rng):
            break
    assert resent  # some earlier entries were revealed and sent again


def test_the_sender_sends_the_shared_text(server, player):
    """Through a real socket: two windows of one seat get the same bytes; a spectator gets its own."""
    from .helpers import Player, gm_table, is_view

    code = gm_table(player, ["human", "bot"], options={"target": 1})["code"]
    a, b = player.ws(code), player.ws(code)
    watcher = Player(server)
    spec = watcher.ws(code)
    for ws in (a, b, spec):
        ws.until(lambda m: is_view(m) and m["ply"] == 0 and len(m["table"]["seats"]) == 2)
    view = a.until(lambda m: is_view(m) and m["legal"])
    a.send({"type": "act", "action": view["legal"][0]["action"], "moves": view["moves"], "id": 1})
    a.until(lambda m: m["type"] == "ack")
    for ws in (a, b, spec):
        ws.until(lambda m: is_view(m) and m["ply"] >= 1)
    table = server.hub.tables[code]

    async def texts() -> tuple[str, ...]:
        conns = sorted(table.conns, key=lambda c: (c.seat is None, id(c)))
        for c in conns:  # each brought up to date with the log (the senders may lag behind)
            server.hub.view_text(table, c)
        server.hub.changed(table)  # then a change that adds no move: all hold the same log
        return tuple(server.hub.view_text(table, c) for c in conns)

    first, second, spectator = asyncio.run_coroutine_threadsafe(texts(), server.hub.loop).result(10)
    assert first is second  # built and serialized once for the seat's two windows
    assert json.loads(spectator)["you"] is None and json.loads(spectator)["legal"] == []
    assert json.loads(spectator)["observation"] != json.loads(first)["observation"]
    for ws in (a, b, spec):
        ws.close()
    watcher.close()
