"""The OpenSpiel bridge, checked with OpenSpiel's own test routine and bots."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from ludus.games import get_game  # noqa: E402
from ludus.interop import openspiel as bridge  # noqa: E402

from .cases import GAMES, short  # noqa: E402


def random_walk(state, rng: np.random.RandomState, decisions: int):
    """Play random outcomes and moves until ``decisions`` moves were made (or the end)."""
    made = 0
    while not state.is_terminal() and made < decisions:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            made += 1
    return state


def play_with(game, bots, rng: np.random.RandomState, bot_decisions: int = 10**9):
    """A whole game: bots choose the first ``bot_decisions`` moves, random play the rest."""
    state = game.new_initial_state()
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        elif made < bot_decisions:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(int(action))
            made += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_every_game_is_registered():
    assert not bridge.SKIPPED
    for name in GAMES:
        assert bridge.openspiel_name(name) in pyspiel.registered_names()


@pytest.mark.parametrize("name", GAMES)
def test_parameters_are_the_games_options(name):
    game = get_game(name)
    params = pyspiel.load_game(bridge.openspiel_name(name)).get_parameters()
    simple = {o.name: o.default for o in game.describe_options() if o.kind in ("int", "bool", "str")}
    assert params == simple


def test_parameters_change_the_game():
    g = bridge.load("gorus-maximus", players=3, target=1)
    assert g.num_players() == 3
    assert g.get_parameters()["target"] == 1
    assert pyspiel.load_game("ludus_gorus_maximus(players=5)").num_players() == 5
    with pytest.raises(Exception, match="1 to 8 players"):
        bridge.load("gorus-maximus", players=9)


def test_a_comma_in_a_text_option_survives_game_strings():
    g = bridge.load("gorus-maximus", players=3, schools="BF,GA,PA")
    assert g.bridge.options.schools == "BF,GA,PA" and "schools=BF;GA;PA" in str(g)
    state = g.new_initial_state()
    assert str(pickle.loads(pickle.dumps(state))) == str(state)  # goes through the game string
    assert pyspiel.load_game(str(g)).bridge.options.school_indices() == (0, 2, 3)


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_sim_test(name):
    """OpenSpiel's own consistency checks (serialization included), short and default options."""
    pyspiel.random_sim_test(bridge.load(name, **short(name)), num_sims=3, serialize=True, verbose=False)
    pyspiel.random_sim_test(bridge.load(name), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_serialize_and_pickle_round_trip(name):
    game = bridge.load(name, **short(name))
    state = random_walk(game.new_initial_state(), np.random.RandomState(1), 8)
    for copy in (game.deserialize_state(state.serialize()), pickle.loads(pickle.dumps(state))):
        assert str(copy) == str(state)
        assert copy.history() == state.history()
        assert copy.legal_actions() == state.legal_actions()
        for p in range(game.num_players()):
            assert copy.information_state_string(p) == state.information_state_string(p)
            assert copy.observation_tensor(p) == state.observation_tensor(p)
        a = random_walk(copy, np.random.RandomState(2), 10**9)
        b = random_walk(state.clone(), np.random.RandomState(2), 10**9)
        assert a.returns() == b.returns() and a.history() == b.history()


@pytest.mark.parametrize("name", GAMES)
def test_clone_is_independent(name):
    game = bridge.load(name, **short(name))
    state = random_walk(game.new_initial_state(), np.random.RandomState(3), 3)
    before = str(state)
    clone = state.clone()
    random_walk(clone, np.random.RandomState(4), 5)
    assert str(state) == before and str(clone) != before


@pytest.mark.parametrize("name", GAMES)
def test_resample_keeps_what_the_seat_knows(name):
    """A resampled state looks the same to the seat (same key ISMCTS asserts) and plays on."""
    game = bridge.load(name, **short(name))
    rng = np.random.RandomState(5)
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    for depth in (1, 6, 15):
        state = random_walk(game.new_initial_state(), rng, depth)
        if state.is_terminal():
            continue
        while state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        p = state.current_player()
        for _ in range(3):
            sample = state.resample_from_infostate(p, sampler)
            assert sample.current_player() == p
            assert sample.information_state_string(p) == state.information_state_string(p)
            assert sample.observation_string(p) == state.observation_string(p)
            assert sample.observation_tensor(p) == state.observation_tensor(p)
            assert sample.legal_actions() == state.legal_actions()
            assert random_walk(sample, rng, 10**9).is_terminal()


def test_observers_public_and_all_players():
    game = bridge.load("gorus-maximus", players=3, target=1)
    state = random_walk(game.new_initial_state(), np.random.RandomState(6), 4)
    public = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True,
                                                               private_info=pyspiel.PrivateInfoType.NONE))
    strings = {public.string_from(state, p) for p in range(3)}
    assert len(strings) == 1 and ":?" in strings.pop()  # the deals to the seats stay hidden
    assert state.information_state_string(0) != state.information_state_string(1)
    everyone = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False,
                                                                 private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))
    everyone.set_from(state, 0)
    assert len(everyone.tensor) == 3 * len(state.observation_tensor(0))
    assert list(everyone.tensor[:len(state.observation_tensor(1))]) == state.observation_tensor(0)
    full = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True,
                                                             private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))
    assert ":?" not in full.string_from(state, 0)


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_mcts_bots_play(name):
    """OpenSpiel's MCTS (Python, and C++ through evaluate_bots) plays whole games.

    MCTS searches the true state, so here it sees hidden cards: a check that the bridge
    works for it, not a fair opponent.
    """
    game = bridge.load(name, **short(name))
    n = game.num_players()
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bots = [mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=np.random.RandomState(i)) for i in range(n)]
    assert play_with(game, bots, np.random.RandomState(1), bot_decisions=40).is_terminal()
    cpp = [pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, i), 2.0, 4, 50, False, i, False)
           for i in range(n)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), cpp, 2)
    assert len(returns) == n and all(0.0 <= r <= 1.0 for r in returns)


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_ismcts_plays(name):
    """OpenSpiel's (Python) ISMCTS plays, resampling through the game's sampler every simulation."""
    game = bridge.load(name, **short(name))
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, 4, random_state=np.random.RandomState(i))
            for i in range(game.num_players())]
    assert play_with(game, bots, np.random.RandomState(2), bot_decisions=30).is_terminal()


def test_cpp_ismcts_cannot_resample_python_games():
    """OpenSpiel's C++ ISMCTS calls the C++ ResampleFromInfostate, which Python games cannot
    override in this OpenSpiel release; the Python ISMCTS above is the one that works."""
    game = bridge.load("gladius", **short("gladius"))
    bots = [pyspiel.ISMCTSBot(i, pyspiel.RandomRolloutEvaluator(1, i), 2.0, 4) for i in range(2)]
    with pytest.raises(pyspiel.SpielError, match="ResampleFromInfostate"):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, 0)
