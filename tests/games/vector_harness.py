"""Shared checks that a game's compiled vector stepping (``CompiledSteps``) plays the Python engine.

:func:`lockstep` runs ``LudusVectorEnv(compiled=True)`` beside ``compiled=False`` (an
:func:`env_pair`) with the same seeds and actions and compares everything they return.
:func:`check_steps_mid_game` checks the stepper alone: slots are
loaded with states that have no generator of their own (every chance outcome drawn from the
environment's ``rng`` by ``sample_chance``), after a prefix of random moves, and stepped with
random legal learner moves beside the same games in Python; every row, mask, reward and end
must equal the Python engine's and the exact encoder's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from ludus.agents.base import make_agent
from ludus.core.compiled import CompiledPlayouts
from ludus.core.game import CHANCE, Game, State
from ludus.core.rng import Rng
from ludus.interop.action_space import InteropError, acting_seat, build_action_space
from ludus.interop.specs import encoder_for
from ludus.interop.vector_env import LudusVectorEnv


def env_pair(game: str, options: dict[str, Any], seat: int, opponents: Any, n: int,
             **kw: Any) -> tuple[LudusVectorEnv, LudusVectorEnv]:
    """The compiled environment and its Python-stepped twin."""
    fast = LudusVectorEnv(game, n, options, seat=seat, opponents=opponents, compiled=True, **kw)
    slow = LudusVectorEnv(game, n, options, seat=seat, opponents=opponents, compiled=False, **kw)
    assert fast.compiled and not slow.compiled
    return fast, slow


def same(a: Any, b: Any, where: str) -> None:
    """Equal, array by array, through the dicts and tuples ``reset`` and ``step`` return."""
    if isinstance(a, dict):
        assert a.keys() == b.keys(), where
        for key in a:
            same(a[key], b[key], f"{where} {key}")
        return
    if isinstance(a, tuple):
        assert len(a) == len(b), where
        for k, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where} [{k}]")
        return
    assert np.array_equal(a, b), f"{where}: {np.flatnonzero(np.asarray(a) != np.asarray(b))[:10]}"


def lockstep(fast: LudusVectorEnv, slow: LudusVectorEnv, steps: int, seed: int,
             action_seed: int | None = None) -> tuple[int, int, set[float]]:
    """Both environments from ``seed`` with the same actions (random among the mask's, an illegal
    number now and then); returns (games ended, illegal actions, the rewards met at the ends)."""
    n = fast.num_envs
    rng = np.random.default_rng(seed if action_seed is None else action_seed)
    got: Any = fast.reset(seed=seed)
    want: Any = slow.reset(seed=seed)
    same(got, want, "reset")
    ended = illegal = 0
    rewards: set[float] = set()
    for t in range(steps):
        mask = got[0]["action_mask"]
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        wrong = rng.random(n) < 0.05  # (an illegal number may come out legal by chance)
        actions[wrong] = rng.integers(-1, fast.space.num_player_actions + 1, int(wrong.sum()))
        got, want = fast.step(actions), slow.step(actions)
        same(got, want, f"step {t}")
        ended += int(got[2].sum())
        illegal += int(got[4].get("illegal_action", np.zeros(n)).sum())
        rewards.update(got[1][got[2]].tolist())
    return ended, illegal, rewards


def check_partial_resets(fast: LudusVectorEnv, slow: LudusVectorEnv) -> None:
    """``reset`` of some slots (``reset_mask``) and a reseed mid-run: both environments load the
    same fresh games into those slots only, and go on alike."""
    n = fast.num_envs
    rng = np.random.default_rng(5)
    got: Any = fast.reset(seed=3)
    want: Any = slow.reset(seed=3)
    for t in range(120):
        if t % 40 == 39:
            which = {"reset_mask": rng.random(n) < 0.5}
            got, want = fast.reset(seed=t, options=which), slow.reset(seed=t, options=which)
            same(got, want, f"reset {t}")
        mask = got[0]["action_mask"]
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        got, want = fast.step(actions), slow.step(actions)
        same(got, want, f"step {t}")


def check_illegal_raises(*envs: LudusVectorEnv) -> None:
    """With ``illegal_action="raise"``, an unmasked number in sub-environment 0 raises the same error."""
    for env in envs:
        obs, _ = env.reset(seed=4)
        mask = obs["action_mask"]
        actions = mask.argmax(axis=1)
        actions[0] = np.flatnonzero(mask[0] == 0)[0]
        with pytest.raises(ValueError, match=r"sub-environment 0: action \d+ is not legal"):
            env.step(actions)


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
                         watch: Callable[[Any], bool] | None = None,
                         also: Callable[[Any, int, State], None] | None = None) -> tuple[int, int]:
    """Step ``slots`` slots ``rounds`` times from states after up to ``prefix`` random moves;
    returns (games ended, learner decisions at which ``watch(state)`` held). ``also(steps, i,
    state)`` checks more of slot ``i`` after each step (what a game keeps beside the position)."""
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
            if also is not None:
                also(steps, i, state)
            ended += state.is_terminal()
    return ended, watched


def check_switches(game: str, monkeypatch: pytest.MonkeyPatch, **kw: Any) -> None:
    """Compiled by default with random bots; Python for a bot kind it does not compile and with
    ``LUDUS_COMPILED=0``, where ``compiled=True`` raises instead. ``kw`` goes to every environment."""
    assert LudusVectorEnv(game, 2, opponents="random", **kw).compiled
    assert not LudusVectorEnv(game, 2, opponents="ismcts-easy", **kw).compiled
    with pytest.raises(InteropError):
        LudusVectorEnv(game, 2, opponents="ismcts-easy", compiled=True, **kw)
    monkeypatch.setenv("LUDUS_COMPILED", "0")
    assert not LudusVectorEnv(game, 2, opponents="random", **kw).compiled
    with pytest.raises(InteropError):
        LudusVectorEnv(game, 2, opponents="random", compiled=True, **kw)
