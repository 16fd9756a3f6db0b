"""The vector environment: Gymnasium's vector API, the same games as single environments, seeds, auto reset.

Gymnasium 1.x has no checker for vector environments (``gymnasium.utils.env_checker`` checks a
single ``Env``), so these tests check what it would: batched spaces contain what ``reset`` and
``step`` return, its own vector wrappers work on it, and it steps exactly like its reference
implementation, ``SyncVectorEnv`` over single environments.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics

from ludus.core.encoding import HashedEncoder
from ludus.interop.gymnasium_env import LudusSingleAgentEnv
from ludus.interop.vector_env import LudusVectorEnv

from .cases import GAMES, short


def masked_random(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One legal action per row (0 for a row with none)."""
    return np.argmax(rng.random(mask.shape) * mask, axis=1)


@pytest.mark.parametrize("num_envs", [1, 4])
@pytest.mark.parametrize("name", GAMES)
def test_random_masked_play(name, num_envs):
    env = LudusVectorEnv(name, num_envs, short(name), seat=0, opponents="random")
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert env.action_space.shape == (num_envs,)
    obs, info = env.reset(seed=11)
    rng = np.random.default_rng(0)
    ends = 0
    pending = np.zeros(num_envs, bool)
    for _ in range(120):
        assert env.observation_space.contains(obs)
        assert (info["action_mask"] == obs["action_mask"]).all() and info["_action_mask"].all()
        # a row whose game just ended has no legal action; every other row has one
        assert (obs["action_mask"].any(axis=1) | pending).all()
        obs, rewards, terminated, truncated, info = env.step(masked_random(obs["action_mask"], rng))
        assert rewards.dtype == np.float64 and rewards.shape == (num_envs,)
        assert ((rewards >= 0) & (rewards <= 1)).all() and not truncated.any()
        assert (rewards[~terminated] == 0).all()
        pending = terminated
        ends += int(terminated.sum())
    assert ends > 0  # short games: auto reset was exercised


def lockstep(name: str, num_envs: int, opponents: str, steps: int, seed: int, illegal_every: int = 0,
             light: bool = True):
    """Step the vector env and ``SyncVectorEnv`` over single envs side by side; assert equal everywhere."""
    vec = LudusVectorEnv(name, num_envs, short(name), seat=1, opponents=opponents, light_bot_views=light)
    ref = SyncVectorEnv([lambda: LudusSingleAgentEnv(name, short(name), seat=1, opponents=opponents)
                         for _ in range(num_envs)])
    a, ai = vec.reset(seed=seed)
    b, bi = ref.reset(seed=seed)
    rng = np.random.default_rng(seed)
    ends = illegal = 0
    for t in range(steps):
        assert (a["observation"] == b["observation"]).all() and (a["action_mask"] == b["action_mask"]).all(), t
        assert ai.keys() == bi.keys() and all((ai[k] == bi[k]).all() for k in ai), t
        actions = masked_random(a["action_mask"], rng)
        if illegal_every and t % illegal_every == 0:
            row = t % num_envs
            bad = np.flatnonzero(a["action_mask"][row] == 0)
            if len(bad) and a["action_mask"][row].any():
                actions[row] = bad[0]
                illegal += 1
        a, ra, ta, ua, ai = vec.step(actions)
        b, rb, tb, ub, bi = ref.step(actions)
        assert (ra == rb).all() and (ta == tb).all() and (ua == ub).all(), t
        ends += int(ta.sum())
    return ends, illegal


@pytest.mark.parametrize("name", GAMES)
def test_same_as_sync_vector_env_of_single_envs(name):
    ends, illegal = lockstep(name, 3, "heuristic", 150, seed=5, illegal_every=7)
    assert ends > 0 and illegal > 0


def test_same_as_sync_vector_env_with_random_bots_and_one_env():
    ends, _ = lockstep("gorus-maximus", 1, "random", 120, seed=2)
    assert ends > 0


def test_same_with_full_bot_views():
    ends, _ = lockstep("gorus-arena", 2, "heuristic", 80, seed=4, light=False)
    assert ends > 0


def test_same_as_independent_single_envs_stepped_by_hand():
    """Next-step auto reset by hand: a finished single env is reset (no seed) on the next step."""
    name, n = "gladius", 4
    vec = LudusVectorEnv(name, n, short(name), opponents="heuristic")
    singles = [LudusSingleAgentEnv(name, short(name), opponents="heuristic") for _ in range(n)]
    obs, _ = vec.reset(seed=[40, 3, 17, 40])
    firsts = [e.reset(seed=s)[0] for e, s in zip(singles, [40, 3, 17, 40])]
    assert all((obs["observation"][i] == firsts[i]["observation"]).all() for i in range(n))
    assert (obs["observation"][0] == obs["observation"][3]).all()  # same seed, same game
    done = [False] * n
    rng = np.random.default_rng(3)
    ends = 0
    for _ in range(100):
        actions = masked_random(obs["action_mask"], rng)
        obs, rewards, terminated, _, _ = vec.step(actions)
        for i, e in enumerate(singles):
            if done[i]:
                o, r, d = e.reset()[0], 0.0, False
            else:
                o, r, d, _, _ = e.step(int(actions[i]))
            done[i] = d
            assert (obs["observation"][i] == o["observation"]).all()
            assert (obs["action_mask"][i] == o["action_mask"]).all()
            assert rewards[i] == r and terminated[i] == d
        ends += int(terminated.sum())
    assert ends > 0


def trace(env: LudusVectorEnv, seed, steps: int = 60) -> list[bytes]:
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(0)
    out = [obs["observation"].tobytes()]
    for _ in range(steps):
        obs, r, term, _, _ = env.step(masked_random(obs["action_mask"], rng))
        out.append(obs["observation"].tobytes() + r.tobytes() + term.tobytes())
    return out


def test_seeds_per_sub_environment():
    name = "gorus-maximus"
    env = LudusVectorEnv(name, 3, short(name), opponents="heuristic")
    assert trace(env, 8) == trace(env, 8)  # reproducible, auto resets included
    assert trace(env, 8) == trace(env, [8, 9, 10])  # one seed s means s, s+1, s+2
    assert trace(env, 8) != trace(env, 9)
    obs, _ = env.reset(seed=[4, None, 4])
    assert (obs["observation"][0] == obs["observation"][2]).all()
    with pytest.raises(ValueError, match="seeds"):
        env.reset(seed=[1, 2])


def test_auto_reset_is_next_step():
    name = "gorus-maximus"
    env = LudusVectorEnv(name, 2, short(name), opponents="random", compiled=False)  # reads env.states
    twin = LudusSingleAgentEnv(name, short(name), opponents="random")
    obs, _ = env.reset(seed=[21, 22])
    twin.reset(seed=21)
    rng = np.random.default_rng(1)
    for _ in range(200):
        actions = masked_random(obs["action_mask"], rng)
        obs, rewards, terminated, _, _ = env.step(actions)
        twin.step(int(actions[0]))
        if terminated[0]:
            break
    else:
        pytest.fail("no game ended")
    assert not obs["action_mask"][0].any()  # the final observation of the ended game
    ended = obs["observation"][0].copy()
    state_before = env.states[0]
    # the next step ignores sub-env 0's action (even an impossible number) and starts its next game
    obs, rewards, terminated, _, info = env.step(np.array([10**6, masked_random(obs["action_mask"], rng)[1]]))
    assert rewards[0] == 0.0 and not terminated[0] and "illegal_action" not in info
    assert env.states[0] is not state_before and obs["action_mask"][0].any()
    assert not (obs["observation"][0] == ended).all()
    fresh, _ = twin.reset()  # the sub-env's generator goes on, as a single env's does
    assert (obs["observation"][0] == fresh["observation"]).all()


def test_reset_mask_resets_only_those():
    name = "gladius"
    env = LudusVectorEnv(name, 3, short(name), opponents="random")
    obs, _ = env.reset(seed=0)
    obs, *_ = env.step(masked_random(obs["action_mask"], np.random.default_rng(0)))
    again, _ = env.reset(seed=[100, 1, 100], options={"reset_mask": np.array([True, False, True])})
    assert (again["observation"][1] == obs["observation"][1]).all()
    assert (again["observation"][0] == again["observation"][2]).all()


def test_observation_is_the_encoder_on_the_seat_observation_only():
    """No hidden information: each row is exactly the encoder applied to the learner's observation."""
    for name in GAMES:
        env = LudusVectorEnv(name, 3, short(name), seat=1, opponents="heuristic", compiled=False)
        obs, _ = env.reset(seed=1)
        rng = np.random.default_rng(2)
        for _ in range(25):
            for i, state in enumerate(env.states):
                assert state is not None
                want = env.encoder.encode(state.observation(1))
                assert (obs["observation"][i] == want).all(), name
                legal = np.zeros(env.single_action_space.n, np.int8)
                if 1 in state.current_seats():
                    for act in state.legal_actions(1):
                        legal[env.space.player_id(act)] = 1
                assert (obs["action_mask"][i] == legal).all(), name
            obs, *_ = env.step(masked_random(obs["action_mask"], rng))


def test_illegal_actions_are_penalized_or_refused():
    env = LudusVectorEnv("gorus-maximus", 2, {"players": 3}, opponents="random", illegal_penalty=-0.5)
    obs, _ = env.reset(seed=2)
    bad = int(np.flatnonzero(obs["action_mask"][0] == 0)[0])
    good = int(np.flatnonzero(obs["action_mask"][1])[0])
    after, rewards, terminated, _, info = env.step(np.array([bad, good]))
    assert rewards[0] == -0.5 and not terminated[0]
    assert info["illegal_action"].tolist() == [True, False] and info["_illegal_action"].tolist() == [True, False]
    assert (after["observation"][0] == obs["observation"][0]).all()
    strict = LudusVectorEnv("gorus-maximus", 2, {"players": 3}, opponents="random", illegal_action="raise")
    strict.reset(seed=2)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(np.array([bad, good]))
    with pytest.raises(ValueError, match="actions needed"):
        env.step(np.array([good]))


def test_without_copies_the_buffers_are_reused():
    env = LudusVectorEnv("gladius", 2, short("gladius"), opponents="random", copy=False)
    obs, _ = env.reset(seed=0)
    nxt, *_ = env.step(masked_random(obs["action_mask"], np.random.default_rng(0)))
    assert nxt["observation"] is obs["observation"] and nxt["action_mask"] is obs["action_mask"]
    copied = LudusVectorEnv("gladius", 2, short("gladius"), opponents="random")
    obs, _ = copied.reset(seed=0)
    nxt, *_ = copied.step(masked_random(obs["action_mask"], np.random.default_rng(0)))
    assert not np.shares_memory(nxt["observation"], obs["observation"])


def test_gymnasium_vector_wrappers_work_on_it():
    name = "gorus-maximus"
    env = DictInfoToList(RecordEpisodeStatistics(LudusVectorEnv(name, 2, short(name), opponents="random")))
    obs, infos = env.reset(seed=0)
    assert isinstance(infos, list) and len(infos) == 2
    rng = np.random.default_rng(0)
    episodes = []
    for _ in range(150):
        obs, _, _, _, infos = env.step(masked_random(obs["action_mask"], rng))
        episodes += [info["episode"] for info in infos if "episode" in info]
    assert episodes and all(0 <= ep["r"] <= 1 and ep["l"] > 0 for ep in episodes)


def test_bad_arguments():
    with pytest.raises(ValueError, match="num_envs"):
        LudusVectorEnv("gladius", 0)
    with pytest.raises(Exception, match="unknown agent"):
        LudusVectorEnv("gladius", 2, opponents="grandmaster")


class EncodeOnly(HashedEncoder):
    """An encoder with its own ``encode`` and no ``encode_into``: the vector env copies its vector in."""

    def encode(self, obs):
        flat = np.zeros(self.size, np.float32)
        self.write(obs, self.views(flat))
        return flat


@pytest.mark.parametrize("encoder", [HashedEncoder, EncodeOnly])
def test_any_encoder_works(monkeypatch, encoder):
    """The hashed fallback (filled through ``write``) and an ``encode``-only encoder give the same batches."""
    import ludus.interop.gymnasium_env as gym_env

    monkeypatch.setattr(gym_env, "encoder_for", lambda game, options: encoder(256))
    ends, illegal = lockstep("gorus-arena", 2, "random", 60, seed=3, illegal_every=9)
    assert ends > 0 and illegal > 0
    env = LudusVectorEnv("gorus-arena", 2, short("gorus-arena"), opponents="random")
    assert isinstance(env.encoder, encoder) and env.single_observation_space["observation"].shape == (256,)
    assert not env.compiled  # compiled stepping writes the game's exact encoding only
