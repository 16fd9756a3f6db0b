"""Shared check that a game's compiled vector stepping (``CompiledSteps``) plays the Python engine.

Each game's ``test_vector.py`` calls :func:`check_steps_mid_game` with its options: slots are
loaded with states that have no generator of their own (every chance outcome drawn from the
environment's ``rng`` by ``sample_chance``), after a prefix of random moves, and stepped with
random legal learner moves beside the same games in Python; every row, mask, reward and end
must equal the Python engine's and the exact encoder's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ludus.agents.base import make_agent
from ludus.core.compiled import CompiledPlayouts
from ludus.core.game import CHANCE, Game, State
from ludus.core.rng import Rng
from ludus.interop.action_space import acting_seat, build_action_space
from ludus.interop.specs import encoder_for


def play_prefix(state: State, rng: Rng, pick: Rng, moves: int) -> None:
    """Up to ``moves`` moves at random (``pick``), chance drawn from ``rng``; stops at the end."""
    for _ in range(moves):
        actor = acting_seat(state)
        if actor is None:
            break
        if actor == CHANCE:
            state.apply(state.sample_chance(rng), CHANCE)
        else:
            state.apply(pick.choice(state.legal_actions(actor)), actor)


def check_steps_mid_game(game: Game, playouts: CompiledPlayouts, values: dict[str, Any], seat: int,
                         kinds: list[str | None], *, slots: int, prefix: int, rounds: int,
                         watch: Callable[[Any], bool] | None = None) -> tuple[int, int]:
    """Step ``slots`` slots ``rounds`` times from states after up to ``prefix`` random moves;
    returns (games ended, learner decisions at which ``watch(state)`` held)."""
    options = game.parse_options(values)
    space = build_action_space(game, options)
    encoder = encoder_for(game, options)
    steps = playouts.vector_steps(options, slots, seat, kinds, space.player)
    assert steps is not None
    pick = Rng(99)
    obs = np.zeros((slots, encoder.size), np.float32)
    mask = np.zeros((slots, space.num_player_actions), np.int8)
    rewards = np.zeros(slots)
    terminated = np.zeros(slots, np.bool_)
    games: list[Any] = [None] * slots

    def advance(state: Any, rng: Rng, bots: dict[int, Any]) -> None:
        while (actor := acting_seat(state)) not in (None, seat):
            if actor == CHANCE:
                state.apply(state.sample_chance(rng), CHANCE)
            else:
                state.apply(bots[actor].act(state.view(actor)), actor)

    def start(i: int, number: int) -> None:
        state = game.new_initial_state(options)
        assert state.rng is None
        rng = Rng(1000 * number + i)
        bots = {s: make_agent(k, game, 7 * number + s) for s, k in enumerate(kinds) if k is not None}
        play_prefix(state, rng, pick, pick.below(prefix))
        advance(state, rng, bots)
        steps.load(i, state, rng, [bots[s].rng if s in bots else None for s in range(len(kinds))])
        games[i] = (state, rng, bots)

    for i in range(slots):
        start(i, 0)
    ended = watched = 0
    for t in range(rounds):
        live = np.zeros(slots, np.bool_)
        actions = np.zeros(slots, np.int64)
        for i in range(slots):
            if games[i][0].is_terminal():
                start(i, t + 1)
            state = games[i][0]
            if state.is_terminal():  # the prefix ended it: this slot waits a round
                continue
            watched += bool(watch and watch(state))
            actions[i] = space.player_id(pick.choice(state.legal_actions(seat)))
            live[i] = True
        steps.step(actions, live, obs, mask, rewards, terminated)
        for i in np.flatnonzero(live).tolist():
            state, rng, bots = games[i]
            state.apply(space.player[actions[i]], seat)
            advance(state, rng, bots)
            assert np.array_equal(obs[i], encoder.encode(state.observation(seat))), (t, i)
            want = np.zeros(space.num_player_actions, np.int8)
            if not state.is_terminal():
                want[[space.player_id(a) for a in state.legal_actions(seat)]] = 1
            assert np.array_equal(mask[i], want), (t, i)
            assert terminated[i] == state.is_terminal()
            assert rewards[i] == (state.returns()[seat] if state.is_terminal() else 0.0)
            ended += state.is_terminal()
    return ended, watched
