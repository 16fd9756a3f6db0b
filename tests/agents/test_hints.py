"""Hints: the shape of the answer, its order, the one-move case, and that only the view counts."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ludus.agents.base import make_agent
from ludus.agents.hints import SHARE, WIN, HintError, suggest
from ludus.core.game import CHANCE, State
from ludus.core.rng import Rng
from ludus.games import game_names, get_game


def position(name: str, seed: int = 3, moves: int = 6) -> State:
    """A position a few heuristic moves into a game, at a decision with several legal moves."""
    game = get_game(name)
    state = game.new_initial_state(None, seed=seed)
    agents = [make_agent("heuristic", game, seed=i) for i in range(state.num_seats())]
    played = 0
    while True:
        seats = state.current_seats()
        assert seats and seats[0] != CHANCE
        seat = seats[0]
        if played >= moves and len(state.legal_actions(seat)) > 1:
            return state
        state.apply(agents[seat].act(state.view(seat)), seat)
        played += 1


@pytest.mark.parametrize("name", game_names())
def test_shape_and_order(name):
    state = position(name)
    seat = state.current_seats()[0]
    view = state.view(seat)
    hint = suggest(view, seconds=None, iterations=40, seed=1)
    assert not hint.forced and hint.seat == seat and hint.game == name
    assert 1 <= len(hint.moves) <= 3 and len(hint.moves) == min(3, len(view.legal_actions))
    assert len({m.action for m in hint.moves}) == len(hint.moves)
    assert all(m.action in view.legal_actions for m in hint.moves)
    assert all(m.label == m.action.label for m in hint.moves)
    assert hint.samples > 0 and hint.seconds >= 0
    for m in hint.moves:
        if m.visits:
            assert m.chance is not None and 0 <= m.chance <= 1
            assert m.error is not None and 0 <= m.error <= 0.5
    # best first, by the bot's own order: visits (ties: mean); a paired root compares means
    keys = [(m.chance or 0.0, m.visits) if hint.measure == SHARE else (m.visits, m.chance or 0.0)
            for m in hint.moves]
    assert keys == sorted(keys, reverse=True)
    data = hint.to_json()
    assert set(data) == {"game", "seat", "level", "measure", "moves", "samples", "seconds", "forced"}
    assert data["moves"][0]["label"] == hint.best.label
    assert data["measure"] in (WIN, SHARE)


def test_blended_reward_is_not_called_a_win_chance():
    # Gladius' hard level blends the score into the reward; Gorus Maximus' does not
    assert suggest(position("gladius").view(position("gladius").current_seats()[0]),
                   seconds=None, iterations=4).measure == SHARE
    gm = position("gorus-maximus")
    assert suggest(gm.view(gm.current_seats()[0]), seconds=None, iterations=4).measure == WIN


def test_single_legal_move_answers_at_once():
    state = position("gorus-maximus")
    view = state.view(state.current_seats()[0])
    only = replace(view, legal_actions=view.legal_actions[:1])
    hint = suggest(only, seconds=30.0)
    assert hint.forced and hint.samples == 0 and hint.seconds < 30
    assert [m.action for m in hint.moves] == [view.legal_actions[0]]
    assert hint.best.chance is None and hint.best.visits == 0


def test_same_seed_same_advice():
    state = position("gorus-arena")
    view = state.view(state.current_seats()[0])
    a = suggest(view, seconds=None, iterations=60, seed=5)
    b = suggest(view, seconds=None, iterations=60, seed=5)
    assert a.same_advice(b)


@pytest.mark.parametrize("name", game_names())
def test_only_the_view_counts(name):
    """Two full states that differ only in what the seat has not seen give the same hint."""
    state = position(name)
    seat = state.current_seats()[0]
    view = state.view(seat)
    other = state.game.sample_state(view, Rng(12345))  # the unseen cards and future draws dealt again
    assert other.to_json() != state.to_json()
    other_view = other.view(seat)
    assert other_view.observation == view.observation
    assert other_view.legal_actions == view.legal_actions
    # a sampled state starts without a history; give it the history the seat saw
    other_view = replace(other_view, history=view.history)
    a = suggest(view, seconds=None, iterations=30, seed=2)
    b = suggest(other_view, seconds=None, iterations=30, seed=2)
    assert a.same_advice(b)


def test_bad_requests_are_refused():
    state = position("gorus-maximus")
    view = state.view(state.current_seats()[0])
    with pytest.raises(HintError, match="level"):
        suggest(view, level="godlike")
    with pytest.raises(HintError, match="budget"):
        suggest(view, seconds=None)
    with pytest.raises(HintError, match="positive"):
        suggest(view, seconds=0)
    with pytest.raises(HintError, match="no move"):
        suggest(replace(view, legal_actions=()))
