"""The PettingZoo parallel environments: PettingZoo's own parallel tests, seeds, rewards, the
same games as the AEC environment, and hidden plans staying hidden."""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, parallel_api_test
from pettingzoo.test.seed_test import parallel_seed_test
from pettingzoo.utils.conversions import aec_to_parallel, parallel_to_aec

from ludus.interop.pettingzoo_env import LudusParallelEnv, env, parallel_env

from .cases import GAMES, short

# PettingZoo warns about any dict observation (its own masked board games are exempt by name).
EXPECTED_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent probably")


def unexpected(caught: list[warnings.WarningMessage]) -> set[str]:
    return {str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)}


def random_game(e: LudusParallelEnv, seed: int, rng: np.random.Generator
                ) -> tuple[list[dict[str, int]], dict[str, float], int]:
    """Play one masked random game; the live actions of each step, the summed rewards and the
    most live agents seen in one step."""
    obs, _ = e.reset(seed=seed)
    steps: list[dict[str, int]] = []
    total = dict.fromkeys(e.possible_agents, 0.0)
    most = 0
    while e.agents:
        live = {a: o["action_mask"] for a, o in obs.items() if o["action_mask"].any()}
        assert live, "a step with nobody to move"
        most = max(most, len(live))
        actions = {a: int(rng.choice(np.flatnonzero(m))) for a, m in live.items()}
        steps.append(actions)
        # the agents that are not to move get None: it must be ignored
        obs, rewards, _, _, _ = e.step({**dict.fromkeys(e.agents), **actions})
        for a, r in rewards.items():
            total[a] += r
    return steps, total, most


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_parallel_api_test(name):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parallel_api_test(parallel_env(name, short(name), render_mode="ansi"), num_cycles=1000)
    assert not unexpected(caught)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_parallel_seed_test(name):
    # parallel_seed_test samples without masks: illegal draws are penalized, not raised
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parallel_seed_test(lambda: parallel_env(name, short(name), illegal_action="penalize"), num_cycles=60)
    assert not unexpected(caught)


@pytest.mark.parametrize("name", GAMES)
def test_a_seed_fixes_the_game_and_another_seed_changes_it(name):
    runs = [random_game(parallel_env(name, short(name)), seed, np.random.default_rng(7)) for seed in (3, 3, 4)]
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]  # same action draws, other chance: another game


@pytest.mark.parametrize("name", GAMES)
def test_rewards_are_the_engines_returns_and_the_aec_env_plays_the_same_game(name):
    e = parallel_env(name, short(name))
    steps, total, _ = random_game(e, seed=11, rng=np.random.default_rng(1))
    assert e.state is not None and e.state.is_terminal()
    assert total == dict(zip(e.possible_agents, e.state.returns()))
    # the AEC environment takes simultaneous phases in seat order: the same actions, fed in
    # the order it asks for them, give the same game and the same win shares
    queues: dict[str, list[int]] = {a: [] for a in e.possible_agents}
    for actions in steps:
        for agent in sorted(actions, key=e.possible_agents.index):
            queues[agent].append(actions[agent])
    aec = env(name, short(name))
    aec.reset(seed=11)
    aec_total = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        _, reward, term, trunc, _ = aec.last()
        aec_total[agent] += reward
        aec.step(None if term or trunc else queues[agent].pop(0))
    assert not any(queues.values())
    assert aec_total == total
    assert aec.state is not None and aec.state.to_json() == e.state.to_json()


def test_gorus_arena_planning_is_simultaneous_and_other_games_have_one_live_agent():
    for name in GAMES:
        _, _, most = random_game(parallel_env(name, short(name)), seed=5, rng=np.random.default_rng(0))
        assert (most == 3) if name == "gorus-arena" else (most == 1), name


@pytest.mark.parametrize("free_plan", [False, True])
def test_a_hidden_plan_changes_no_other_seats_observation(free_plan):
    """Seat 0 places a different card face down: its own view changes, nobody else's does.
    Checked at every planning step of several random games where seat 0 has two cards to
    choose from. (Finishing a free plan early is seen at the table, so ``done`` is not compared.)"""
    checked = 0
    for seed in range(6):
        e = parallel_env("gorus-arena", {"players": 3, "rounds": 3, "free_plan": free_plan})
        obs, _ = e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while e.agents:
            live = {a: np.flatnonzero(o["action_mask"]) for a, o in obs.items() if o["action_mask"].any()}
            actions = {a: int(rng.choice(ids)) for a, ids in live.items()}
            assert e.state is not None
            if e.state.phase == "plan" and len(live.get("player_0", ())) >= 2:
                for other in live["player_0"]:
                    if other == actions["player_0"] or "done" in {
                            e.space.player[int(i)].to_json()["do"] for i in (other, actions["player_0"])}:
                        continue
                    first, twin = copy.deepcopy(e), copy.deepcopy(e)
                    obs_a, *_ = first.step(actions)
                    obs_b, *_ = twin.step({**actions, "player_0": int(other)})
                    if any(t.state.phase != "plan" or t.state.round != e.state.round
                           for t in (first, twin)):
                        continue  # that step revealed the plans: then everybody may see them
                    assert not np.array_equal(obs_a["player_0"]["observation"], obs_b["player_0"]["observation"])
                    for agent in ("player_1", "player_2"):
                        for key in ("observation", "action_mask"):
                            assert np.array_equal(obs_a[agent][key], obs_b[agent][key]), (seed, agent, key)
                    checked += 1
            obs, *_ = e.step(actions)
    assert checked >= 20, checked


def test_an_illegal_or_missing_action_is_refused_and_changes_nothing():
    e = LudusParallelEnv("gorus-arena", {"players": 3})
    obs, _ = e.reset(seed=2)
    assert e.state is not None
    before = e.state.to_json()
    legal = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()}
    illegal = int(np.flatnonzero(obs["player_1"]["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="illegal action"):
        e.step({**legal, "player_1": illegal})
    with pytest.raises(ValueError, match="player_2 is to move"):
        e.step({"player_0": legal["player_0"], "player_1": legal["player_1"]})
    assert e.state.to_json() == before


def test_penalize_skips_only_the_illegal_seat():
    e = LudusParallelEnv("gorus-arena", {"players": 3}, illegal_action="penalize", illegal_penalty=-0.5)
    obs, _ = e.reset(seed=2)
    legal = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()}
    illegal = int(np.flatnonzero(obs["player_1"]["action_mask"] == 0)[0])
    obs, rewards, *_ = e.step({**legal, "player_1": illegal})
    assert rewards == {"player_0": 0.0, "player_1": -0.5, "player_2": 0.0}
    assert e.state is not None
    assert [len(e.state.plan[s]) for s in range(3)] == [1, 0, 1]


def test_stepping_after_the_end_asks_for_reset():
    e = parallel_env("gladius", short("gladius"))
    random_game(e, seed=1, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="reset"):
        e.step({})


@pytest.mark.parametrize("name", ["gorus-arena", "gladius"])
def test_parallel_to_aec_passes_the_aec_api_test_and_converts_back(name):
    par = parallel_env(name, short(name))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(parallel_to_aec(par), num_cycles=150)
    assert not unexpected(caught)
    assert aec_to_parallel(parallel_to_aec(par)) is par


def test_the_aec_env_is_not_claimed_parallelizable():
    # it updates after every single move; LudusParallelEnv is the parallel form
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(env("gladius", short("gladius")))
