"""The single-agent Gymnasium wrapper, checked with Gymnasium's own env checker."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env

from ludus.interop.gymnasium_env import LudusSingleAgentEnv

from .cases import GAMES, short


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_check_env(name):
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*alternative render modes.*")  # needs a registered spec
        check_env(LudusSingleAgentEnv(name, short(name), seat=1, opponents="heuristic", render_mode="ansi"),
                  skip_render_check=False)


@pytest.mark.parametrize("name", GAMES)
def test_an_episode_against_bots(name):
    e = LudusSingleAgentEnv(name, short(name), seat=0, opponents="random")
    obs, info = e.reset(seed=9)
    rng = np.random.default_rng(1)
    done, reward = False, 0.0
    while not done:
        assert (obs["action_mask"] == info["action_mask"]).all() and obs["action_mask"].any()
        obs, reward, done, truncated, info = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert not truncated
    assert 0.0 <= reward <= 1.0
    assert reward == e.state.returns()[0]


def test_same_seed_same_episode():
    def run(seed):
        e = LudusSingleAgentEnv("gorus-maximus", {"players": 3, "target": 1}, opponents="heuristic")
        obs, _ = e.reset(seed=seed)
        trace = []
        done = False
        while not done:
            a = int(np.flatnonzero(obs["action_mask"])[0])
            obs, r, done, _, _ = e.step(a)
            trace.append((a, r, obs["observation"].tobytes()))
        return trace

    assert run(3) == run(3)


def test_illegal_actions_are_penalized_or_refused():
    e = LudusSingleAgentEnv("gorus-maximus", {"players": 3}, opponents="random", illegal_penalty=-0.5)
    obs, _ = e.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs2, reward, done, _, info = e.step(illegal)
    assert reward == -0.5 and not done and info["illegal_action"]
    assert (obs2["observation"] == obs["observation"]).all()
    strict = LudusSingleAgentEnv("gorus-maximus", {"players": 3}, opponents="random", illegal_action="raise")
    strict.reset(seed=2)
    with pytest.raises(ValueError):
        strict.step(illegal)


def test_opponent_kinds_are_checked_up_front():
    with pytest.raises(Exception, match="unknown agent"):
        LudusSingleAgentEnv("gladius", opponents="grandmaster")
    with pytest.raises(ValueError, match="opponent kinds"):
        LudusSingleAgentEnv("gorus-maximus", {"players": 4}, opponents=["random"])
