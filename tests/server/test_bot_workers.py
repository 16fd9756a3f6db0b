"""Search workers keep each table's state between its bot's moves, and choose what a replay would."""

from __future__ import annotations

import random

from ludus.games import get_game
from ludus.server import bots
from ludus.server.config import ServerConfig

from .helpers import LiveServer, Player, gm_table, is_view, play_until_done


def record(game_name: str, seed: int, plies: int) -> list[tuple[int, object]]:
    """The first ``plies`` decisions of a game played by random legal moves."""
    game = get_game(game_name)
    state = game.new_initial_state({"players": 3}, seed=seed)
    rng = random.Random(seed)
    out = []
    while len(out) < plies and not state.is_terminal():
        seat = state.current_seats()[0]
        action = rng.choice(list(state.legal_actions(seat)))
        state.apply(action, seat)
        out.append((seat, action.to_json()))
    return out


def test_a_kept_state_takes_only_the_new_actions_and_chooses_as_a_full_replay():
    actions = record("gorus-maximus", 11, 40)
    game = get_game("gorus-maximus")
    state = game.new_initial_state({"players": 3}, seed=11)
    for seat, raw in actions[:25]:
        state.apply(game.action_from_json(raw), seat)
    seat = state.current_seats()[0]
    before = bots._applied()
    first = bots._act_on_cached("KEPT", "gorus-maximus", {"players": 3}, 11, 0, actions[:25], seat, "heuristic", 5)
    assert first is not None and bots._applied() - before == 25
    for s, raw in actions[25:40]:
        state.apply(game.action_from_json(raw), s)
    seat = state.current_seats()[0]
    kept = bots._act_on_cached("KEPT", "gorus-maximus", {"players": 3}, 11, 25, actions[25:40], seat, "random", 9)
    assert kept is not None and bots._applied() - before == 40  # 15 more, not 40 again
    fresh = bots._act_on_cached("FRESH", "gorus-maximus", {"players": 3}, 11, 0, actions[:40], seat, "random", 9)
    assert fresh is not None and kept[0] == fresh[0]
    # a worker asked to go on from a point it does not hold says so, and keeps nothing wrong
    assert bots._act_on_cached("KEPT", "gorus-maximus", {"players": 3}, 11, 30, actions[30:40], seat, "random",
                               9) is None
    assert bots._act_on_cached("NEVER", "gorus-maximus", {"players": 3}, 11, 5, actions[5:], seat, "random",
                               9) is None


def test_bots_in_worker_processes_finish_games_replaying_each_action_once(tmp_path):
    config = ServerConfig(database=f"sqlite:///{tmp_path / 'w.db'}", bot_delay=0.0, bot_processes=True,
                          bot_workers=2)
    server = LiveServer(config)
    p = Player(server)
    try:
        codes = [gm_table(p, ["human", "bot", "bot"])["code"] for _ in range(2)]
        total = 0
        for code in codes:
            ws = p.ws(code)
            ws.until(is_view)
            assert play_until_done(ws, timeout=120)["terminal"]
            ws.close()
            total += len(p.get(f"/api/tables/{code}/record").json()["actions"])
        runner = server.hub.bots
        applied = sum(pool.submit(bots._applied).result(timeout=30) for pool in runner._procs if pool is not None)
        # every bot move sent only what was new to its table's worker: at most each action once
        assert 0 < applied <= total
    finally:
        p.close()
        server.stop()
