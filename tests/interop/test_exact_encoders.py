"""Exact encoders, for every game that has one: one vector per observation, and one observation per vector.

Over the observations met in random games (every seat, at every step), an exact encoder must
give equal vectors for equal observations (so nothing outside the observation, such as the
state it came from or what was encoded before, can reach the vector), distinct vectors for
distinct observations (no two facts share a slot, unlike the hashed fallback), and stay within
its declared bounds. Observations are compared by their canonical JSON, less the top-level
keys the encoder says it leaves out on purpose (its ``omitted`` attribute: narration text,
display aids, each documented in the game's encoding table). Games without an exact encoder
are skipped.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("numpy")

from ludus.core.encoding import HashedEncoder, ObservationEncoder
from ludus.core.game import CHANCE, Game
from ludus.core.rng import Rng
from ludus.games import game_names, get_game
from ludus.interop.action_space import acting_seat
from ludus.interop.specs import encoder_for

GAMES_PER_CASE = 12
MAX_OBSERVATIONS = 1500  # per case; keeps the file to a few seconds a game

CASES: dict[str, list] = {
    "gorus-maximus": [
        {"players": 2}, {"players": 4}, {"players": 1}, {"players": 5, "teams": "2v2v1"},
    ],
    "gladius": [{}],
    "circus-maximus": [{"players": 3}, {"players": 5}],
    "gorus-arena": [{"players": 2}, {"players": 4, "rounds": 2}],
}
"""Options per game (several seat counts where the vector's layout depends on it); others use defaults."""

FALLBACK_OMITTED: dict[str, tuple[str, ...]] = {
    # the text log: its wording and order are not encoded, only what it places of the hidden cards
    "gorus-arena": ("events", "step_events", "event_count"),
}
"""Keys left out by encoders that do not (yet) declare ``omitted`` themselves."""


def exact_encoder(game: Game, options) -> ObservationEncoder:
    enc = encoder_for(game, options)
    if isinstance(enc, HashedEncoder):
        pytest.skip(f"{game.name} has no exact encoder (it uses the hashed fallback)")
    return enc


def observations(game: Game, options, seed: int):
    """Every seat's observation at every step of ``GAMES_PER_CASE`` random games."""
    rng = Rng(seed)
    n = game.num_seats(options)
    count = 0
    for _ in range(GAMES_PER_CASE):
        state = game.new_initial_state(options, seed=None)
        while True:
            for seat in range(n):
                yield state.observation(seat)
                count += 1
            if count >= MAX_OBSERVATIONS:
                return
            seat = acting_seat(state)
            if seat is None:
                break
            if seat == CHANCE:
                state.apply(state.sample_chance(rng), CHANCE)
            else:
                state.apply(rng.choice(state.legal_actions(seat)), seat)


def omitted(name: str, enc: ObservationEncoder) -> tuple[str, ...]:
    return tuple(getattr(enc, "omitted", FALLBACK_OMITTED.get(name, ())))


def key_of(obs, leave_out: tuple[str, ...]) -> str:
    data = obs.to_json()
    for k in leave_out:
        data.pop(k, None)
    return json.dumps(data, sort_keys=True)


def cases():
    for name in game_names():
        for i, opts in enumerate(CASES.get(name, [{}])):
            if isinstance(opts, dict):
                yield pytest.param(name, opts, id=f"{name}-{i}")
            else:  # a pytest.param with marks
                yield pytest.param(name, *opts.values, marks=opts.marks, id=f"{name}-{i}")


@pytest.mark.parametrize(("name", "opts"), list(cases()))
def test_exact_encoder_is_one_to_one_and_bounded(name, opts):
    game = get_game(name)
    options = game.parse_options(opts)
    enc = exact_encoder(game, options)
    low, high = enc.bounds()
    assert low.shape == high.shape == (enc.size,) and (low <= high).all()
    into = getattr(enc, "encode_into", None)
    leave_out = omitted(name, enc)
    by_obs: dict[str, bytes] = {}
    by_vec: dict[bytes, str] = {}
    for obs in observations(game, options, seed=len(name)):
        vec = enc.encode(obs)
        assert vec.shape == (enc.size,) and vec.dtype == np.float32
        assert np.isfinite(vec).all() and (vec >= low).all() and (vec <= high).all(), (
            f"slots out of bounds: {np.flatnonzero((vec < low) | (vec > high))[:10]}")
        if into is not None:  # the vector env's fast path must agree with encode
            row = np.zeros(enc.size, np.float32)
            into(obs, row)
            assert (row == vec).all()
        key = key_of(obs, leave_out)
        raw = vec.tobytes()
        if key in by_obs:
            assert by_obs[key] == raw, "the same observation gave two vectors"
        else:
            by_obs[key] = raw
        other = by_vec.setdefault(raw, key)
        assert other == key, f"two observations share a vector:\n{other}\n{key}"
    assert len(by_obs) > 50  # the games did vary


@pytest.mark.parametrize("name", game_names())
def test_encoding_ignores_what_was_encoded_before(name):
    """``write`` fills zeroed views from the observation alone: encoding in another order changes nothing."""
    game = get_game(name)
    options = game.parse_options(CASES.get(name, [{}])[0])  # the first case is always a plain dict
    enc = exact_encoder(game, options)
    seen = list(observations(game, options, seed=3))[:200]
    first = [enc.encode(o).tobytes() for o in seen]
    again = [enc.encode(o).tobytes() for o in reversed(seen)][::-1]
    assert first == again
