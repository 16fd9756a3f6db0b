"""The PettingZoo environments, checked with PettingZoo's own API and seed tests."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from ludus.interop.pettingzoo_env import LudusAECEnv, env

from .cases import GAMES, short

# PettingZoo warns about any dict observation (its own masked board games are exempt by name).
EXPECTED_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent probably")


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_and_seed_tests(name):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(name, short(name), render_mode="ansi"), num_cycles=150)
        seed_test(lambda: env(name, short(name)), num_cycles=60)
    other = {str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)}
    assert not other


@pytest.mark.parametrize("name", GAMES)
def test_a_masked_random_game_ends_with_the_win_shares(name):
    e = env(name, short(name))
    e.reset(seed=4)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        assert obs["action_mask"].any()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sum(total.values()) == pytest.approx(1.0) or sum(total.values()) == 0.0
    assert all(0.0 <= r <= 1.0 for r in total.values())


def test_only_the_seat_to_move_has_legal_actions():
    e = LudusAECEnv("gorus-maximus", {"players": 3})
    e.reset(seed=1)
    for agent in e.possible_agents:
        assert e.observe(agent)["action_mask"].any() == (agent == e.agent_selection)


def test_an_illegal_action_is_refused():
    e = LudusAECEnv("gorus-maximus", {"players": 3})
    e.reset(seed=1)
    illegal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="illegal action"):
        e.step(illegal)
