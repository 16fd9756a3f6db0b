"""Trained policies as bots: policy files, their checks, and the ``trained`` / ``policy:PATH`` kinds."""

from __future__ import annotations

import numpy as np
import pytest

from ludus.agents.base import UnknownAgent, make_agent, normalize_kind
from ludus.agents.policy import Policy, PolicyAgent, PolicyError, load_checks, load_policy, save_policy
from ludus.core.game import CHANCE, action_key
from ludus.core.rng import Rng
from ludus.games import get_game, observation_encoder
from ludus.interop.action_space import build_action_space
from ludus.sim.tournament import make_spec, parse_agents, play_chunk


def _policy(game_name: str = "gladius", seed: int = 0, hidden: int = 16) -> Policy:
    game = get_game(game_name)
    options = game.parse_options(None)
    encoder = observation_encoder(game, options)
    actions = tuple(action_key(a) for a in build_action_space(game, options).player)
    rng = np.random.default_rng(seed)
    layers = ((rng.normal(size=(encoder.size, hidden)), rng.normal(size=hidden)),
              (rng.normal(size=(hidden, len(actions))), rng.normal(size=len(actions))))
    return Policy(game.name, {}, type(encoder).__name__, encoder.size, actions, layers, "tanh", {"test": True})


def test_a_saved_policy_loads_with_the_same_outputs(tmp_path):
    policy = _policy()
    path = tmp_path / "p.npz"
    x = np.random.default_rng(1).random((4, policy.observation_size))
    save_policy(policy, path, (x, policy.logits(x)))
    loaded, checks = load_checks(path)
    assert loaded.actions == policy.actions and loaded.info == {"test": True}
    assert checks is not None
    # float32 on disk: the loaded network gives the stored outputs to float32 precision
    np.testing.assert_allclose(loaded.logits(checks[0]), checks[1], rtol=1e-4, atol=1e-4)


def test_the_agent_plays_the_legal_action_with_the_highest_output(tmp_path):
    policy = _policy()
    path = tmp_path / "p.npz"
    save_policy(policy, path)
    game = get_game("gladius")
    agent = PolicyAgent.for_game(game, 0, path)
    state = game.new_initial_state(None, seed=3)
    for _ in range(60):
        if state.is_terminal():
            break
        seat = state.current_seats()[0]
        if seat == CHANCE:
            state.apply(state.sample_chance(Rng(1)), CHANCE)
            continue
        view = state.view(seat)
        scored = agent.scores(view)
        chosen = agent.act(view)
        assert chosen in view.legal_actions
        if len(view.legal_actions) > 1:
            assert dict(scored)[chosen] == max(s for _, s in scored)
        state.apply(chosen, seat)


def test_policy_kind_plays_a_tournament_and_keeps_the_path_case(tmp_path):
    folder = tmp_path / "MixedCase"
    folder.mkdir()
    path = folder / "Policy.npz"
    save_policy(_policy(), path)
    kinds = parse_agents(f"policy:{path},random")
    assert kinds[0] == f"policy:{path}"
    assert normalize_kind(f" Policy:{path} ") == f"policy:{path}"
    spec = make_spec("gladius", {}, kinds, 4, seed=5)
    results = play_chunk(spec, range(4))
    assert len(results) == 4 and all(abs(sum(r.shares) - 1) < 1e-9 for r in results)
    again = play_chunk(spec, range(4))
    assert [r.scores for r in again] == [r.scores for r in results]  # deterministic


@pytest.mark.parametrize("content", [b"", b"not a zip", b"PK\x03\x04broken"])
def test_a_broken_policy_file_is_a_clear_error(tmp_path, content):
    path = tmp_path / "bad.npz"
    path.write_bytes(content)
    with pytest.raises(PolicyError, match=r"bad\.npz"):
        load_policy(path)
    with pytest.raises(UnknownAgent, match=r"bad\.npz"):
        make_agent(f"policy:{path}", get_game("gladius"))


def test_wrong_shapes_non_finite_weights_and_another_game_are_refused(tmp_path):
    good = _policy()
    w, b = good.layers[1]
    cases = {
        "outputs": Policy(good.game, {}, good.encoder, good.observation_size, good.actions[:-1], good.layers),
        "shape": Policy(good.game, {}, good.encoder, good.observation_size + 1, good.actions, good.layers),
        "non-finite": Policy(good.game, {}, good.encoder, good.observation_size, good.actions,
                             (good.layers[0], (w * np.nan, b))),
    }
    for name, policy in cases.items():
        path = tmp_path / f"{name}.npz"
        save_policy(policy, path)
        with pytest.raises(PolicyError):
            load_policy(path)
    path = tmp_path / "gladius.npz"
    save_policy(good, path)
    with pytest.raises(UnknownAgent, match="trained on 'gladius'"):
        make_agent(f"policy:{path}", get_game("gorus-maximus"))
    with pytest.raises(UnknownAgent, match="policy:PATH"):
        make_agent("policy:", get_game("gladius"))


def test_trained_kind_without_a_shipped_policy_says_so():
    game = get_game("gorus-arena")
    with pytest.raises(UnknownAgent, match="ships no trained policy"):
        make_agent("trained", game)


def test_the_shipped_gladius_policy_plays_the_network_it_was_trained_as():
    from importlib import resources

    from ludus.agents.policy import shipped_policy_path

    game = get_game("gladius")
    ref = shipped_policy_path(game)
    assert ref is not None
    with resources.as_file(ref) as file:
        policy, checks = load_checks(file)
    assert checks is not None  # the trainer's own outputs (PyTorch) for stored inputs
    np.testing.assert_allclose(policy.logits(checks[0]), checks[1], rtol=1e-4, atol=1e-4)
    assert policy.info and policy.info["evaluation"]  # the file says how it was trained and how it did
    spec = make_spec("gladius", {}, ["trained", "random"], 2, seed=11)
    assert len(play_chunk(spec, range(2))) == 2
