"""Observation encoders: exact for Gorus Maximus, hashed (stable, 0/1) for every game."""

from __future__ import annotations

import numpy as np
import pytest

from ludus.core.encoding import HashedEncoder
from ludus.core.game import play_random
from ludus.core.rng import Rng
from ludus.games import get_game
from ludus.games.gorus_maximus.interop import GorusMaximusEncoder
from ludus.interop.specs import encoder_for

from .cases import GAMES, short


def test_gorus_maximus_encoder_is_exact():
    game = get_game("gorus-maximus")
    state = game.new_initial_state({"players": 4}, seed=8)
    obs = state.observation(2)
    enc = GorusMaximusEncoder(game.parse_options({"players": 4}))
    v = enc.views(enc.encode(obs))
    hand = {c for c in range(80) if obs.hand >> c & 1}
    assert set(np.flatnonzero(v["hand"])) == hand
    assert list(np.flatnonzero(v["seat"])) == [2]
    assert v["hand_sizes"].tolist() == [10.0] * 4
    state.apply(state.legal_actions()[0])
    v = enc.views(enc.encode(state.observation(2)))
    actor, card = state.bout[0]
    assert v["bout"][actor, card] == 1 and v["bout_last"][card] == 1 and v["bout"].sum() == 1


@pytest.mark.parametrize("name", GAMES)
def test_encodings_have_a_fixed_size_and_fit_their_bounds(name):
    game = get_game(name)
    options = game.parse_options(short(name))
    enc = encoder_for(game, options)
    low, high = enc.bounds()
    state = game.new_initial_state(options, seed=3)
    for step in range(40):
        if state.is_terminal():
            break
        for seat in [None, *range(game.num_seats(options))]:
            x = enc.encode(state.observation(seat))
            assert x.shape == (enc.size,) and x.dtype == np.float32
            assert (x >= low).all() and (x <= high).all()
        seat = state.current_seats()[0]
        state.apply(Rng(step).choice(state.legal_actions(seat)), seat)


def test_hashed_encoder_is_stable_and_binary():
    game = get_game("gladius")
    state = play_random(game.new_initial_state({}, seed=None), Rng(1))
    a, b = HashedEncoder(256), HashedEncoder(256)
    x = a.encode(state.observation(0))
    assert (x == b.encode(state.observation(0))).all()
    assert set(np.unique(x)) <= {0.0, 1.0} and x.sum() > 10
