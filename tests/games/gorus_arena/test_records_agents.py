"""Records round trips, the action JSON, positions, and the bots."""

from __future__ import annotations

import pytest

from ludus.agents.base import RandomAgent, make_agent
from ludus.core import records
from ludus.core.errors import RecordError
from ludus.core.game import CHANCE
from ludus.games import get_game
from ludus.games.gorus_arena.actions import (
    ATTACK,
    DONE,
    INCOME_ACTION,
    PASS,
    PLACE,
    RECRUIT,
    Draw,
    MarketDraw,
)
from ludus.games.gorus_arena.game import GAME
from ludus.games.gorus_arena.heuristic import GorusArenaHeuristic


def bot_game(opts: dict, seed: int | None, agents=None):
    state = GAME.new_initial_state(opts, seed=seed)
    n = state.n
    agents = agents or [GorusArenaHeuristic((seed or 0) + s) for s in range(n)]
    rng_agent = RandomAgent(5)
    while not state.is_terminal():
        seat = state.current_seats()[0]
        if seat == CHANCE:
            state.apply(state.sample_chance(rng_agent.rng), CHANCE)
            continue
        state.apply(agents[seat].act(state.view(seat)), seat)
    return state


def test_every_action_round_trips_through_json():
    actions = [PLACE["slave"], DONE, ATTACK[17], RECRUIT["champion"], INCOME_ACTION, PASS,
               Draw(2, 40), MarketDraw(1, 30)]
    for action in actions:
        assert GAME.action_from_json(action.to_json()) == action
        assert action.label


@pytest.mark.parametrize("data, message", [
    ("pass", "must be an object"),
    ({"do": "fly"}, "unknown action"),
    ({"do": "place", "card": "dragon"}, "unknown card kind 'dragon'"),
    ({"do": "attack", "target": 999}, "attack target must be a whole number"),
    ({"do": "attack", "target": True}, "attack target"),
    ({"do": "draw", "seat": 7, "card": 3}, "draw seat"),
])
def test_malformed_actions_raise_record_errors(data, message):
    with pytest.raises(RecordError, match=message):
        GAME.action_from_json(data)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_seeded_record_replays_to_the_same_end(players):
    state = bot_game({"players": players}, seed=40 + players)
    record = records.record_of(state, seed=40 + players, players=[f"bot {i}" for i in range(players)])
    assert all(seat != CHANCE for seat, _ in record.actions)
    again = records.replay(records.loads(record.dumps()), get_game)
    assert again.to_json() == state.to_json()
    assert again.winners() == state.winners()


def test_explicit_chance_record_replays_without_a_seed():
    seeded = bot_game({"players": 3, "free_plan": True}, seed=9)
    explicit = GAME.new_initial_state({"players": 3, "free_plan": True}, seed=None)
    for seat, action in seeded.history:
        explicit.apply(action, seat)
    record = records.record_of(explicit, seed=None)
    assert any(seat == CHANCE for seat, _ in record.actions)
    again = records.replay(records.loads(record.dumps()), get_game)
    assert again.to_json() == explicit.to_json()


def test_a_record_from_a_saved_position_replays():
    state = GAME.new_initial_state({"players": 2}, seed=4)
    agents = [GorusArenaHeuristic(1), GorusArenaHeuristic(2)]
    for _ in range(12):
        seat = state.current_seats()[0]
        state.apply(agents[seat].act(state.view(seat)), seat)
    start = state.to_json()
    cut = len(state.history)
    while not state.is_terminal():
        seat = state.current_seats()[0]
        state.apply(agents[seat].act(state.view(seat)), seat)
    record = records.Record(game="gorus-arena", options=start["options"], start=start,
                            actions=[(s, a.to_json()) for s, a in state.history[cut:] if s != CHANCE])
    again = records.replay(records.loads(record.dumps()), get_game)
    assert again.to_json()["state"] == state.to_json()["state"]


def test_a_tampered_record_is_refused_with_the_step_named():
    state = bot_game({"players": 2}, seed=3)
    record = records.record_of(state, seed=3)
    record.actions[2] = (record.actions[2][0], {"do": "recruit", "card": "champion"})
    with pytest.raises(RecordError, match="action 3"):
        records.replay(record, get_game)


@pytest.mark.parametrize("bad, message", [
    ({"round": 0}, "round must be"),
    ({"phase": "lunch"}, "unknown phase"),
    ({"coins": [1]}, "one entry per seat"),
    ({"hand": [[999], []]}, "card id"),
])
def test_malformed_positions_raise_record_errors(bad, message):
    data = GAME.new_initial_state({"players": 2}, seed=1).to_json()
    data["state"].update(bad)
    with pytest.raises(RecordError, match=message):
        GAME.state_from_json(data)


def test_heuristic_is_registered_and_beats_random_play():
    game = get_game("gorus-arena")
    assert isinstance(make_agent("heuristic", game, seed=1), GorusArenaHeuristic)
    wins = 0.0
    for g in range(16):
        agents = [GorusArenaHeuristic(g), RandomAgent(g)]
        if g % 2:
            agents.reverse()
        state = bot_game({"players": 2}, seed=100 + g, agents=agents)
        me = 0 if g % 2 == 0 else 1
        wins += state.returns()[me]
    assert wins >= 13


def test_heuristic_only_ever_plays_legal_moves_under_every_option():
    for i, opts in enumerate([
        {"players": 4, "auction": "per-round", "attack_targets": "team"},
        {"players": 5, "free_plan": True, "defence_timing": "execution", "attack_targets": "arena"},
        {"players": 3, "tie_resolution": "turn-order", "starting_player": "trailing", "armoury": False},
    ]):
        state = bot_game(opts, seed=i)  # apply() would raise on an illegal move
        assert state.is_terminal()
