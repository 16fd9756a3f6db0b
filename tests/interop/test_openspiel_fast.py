"""The OpenSpiel bridge's shortcuts (numbers by identity, remembered legal actions, chance
outcomes and current player) give exactly what the plain lookups give."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

from ludus.core.errors import LudusError  # noqa: E402
from ludus.core.game import CHANCE  # noqa: E402
from ludus.core.rng import Rng  # noqa: E402
from ludus.games import get_game  # noqa: E402
from ludus.interop import openspiel as bridge  # noqa: E402
from ludus.interop.action_space import acting_seat  # noqa: E402

from .cases import GAMES, short  # noqa: E402


def reference_player(state) -> int:
    seat = acting_seat(state)
    return bridge.TERMINAL if seat is None else seat


@pytest.mark.parametrize("name", GAMES)
def test_bridge_steps_match_the_plain_lookups(name):
    """Step a bridge state and a plain Ludus state side by side through seeded random games."""
    game = bridge.load(name, **short(name))
    space = game.bridge.space
    ludus_game = get_game(name)
    opts = ludus_game.parse_options(short(name))
    for seed in range(12):
        rng = Rng(seed)
        state = game.new_initial_state()
        plain = ludus_game.new_initial_state(opts, seed=None)
        steps = 0
        while True:
            player = reference_player(plain)
            assert state.current_player() == player
            assert state.is_terminal() == (player == bridge.TERMINAL)
            if player == bridge.TERMINAL:
                break
            if player == CHANCE:
                want = sorted((space.chance_id(a), p) for a, p in plain.chance_outcomes())
                assert state.is_chance_node()
                assert state.chance_outcomes() == want
                assert state.chance_outcomes() == want  # asked twice at one node: same answer
                number = want[rng.below(len(want))][0]
                plain.apply(space.chance[number], CHANCE)
            else:
                want_ids = sorted(space.player_id(a) for a in plain.legal_actions(player))
                assert state.legal_actions() == want_ids
                assert state.legal_actions(player) == want_ids
                number = want_ids[rng.below(len(want_ids))]
                plain.apply(space.player[number], player)
            state.apply_action(number)
            steps += 1
        assert state.returns() == [float(x) for x in plain.returns()]
        assert [a for _, a in state.ludus_state.history] == [a for _, a in plain.history]
        assert steps > 0


def test_answers_are_copies():
    game = bridge.load("gorus-maximus", players=4)
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    outcomes.clear()
    assert state.chance_outcomes()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    core = state._core
    legal = core.state.legal_actions(state.current_player())
    ids = state._legal_actions(state.current_player())
    ids.append(-5)
    assert state._legal_actions(state.current_player()) == sorted(core.bridge.space.player_id(a) for a in legal)


def test_clones_and_direct_moves_keep_the_remembered_answers_right():
    game = bridge.load("gladius", **short("gladius"))
    state = game.new_initial_state()
    rng = Rng(3)
    for _ in range(20):  # into the game, so that the caches are filled
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.below(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.below(len(legal))])
    before_player = state.current_player()
    before = state.chance_outcomes() if state.is_chance_node() else state.legal_actions()
    clone = state.clone()
    while not clone.is_terminal():  # the clone moves on; the original must not notice
        if clone.is_chance_node():
            clone.apply_action(clone.chance_outcomes()[0][0])
        else:
            clone.apply_action(clone.legal_actions()[0])
    assert state.current_player() == before_player
    assert (state.chance_outcomes() if state.is_chance_node() else state.legal_actions()) == before
    # a move made on the Ludus state itself (it grows the history) is seen too
    plain = state.ludus_state
    seat = acting_seat(plain)
    if seat == CHANCE:
        plain.apply(plain.sample_chance(rng), CHANCE)
    else:
        plain.apply(plain.legal_actions(seat)[0], seat)
    assert state.current_player() == reference_player(plain)


def test_equal_actions_that_are_other_objects_get_the_same_numbers():
    game = bridge.load("gorus-maximus", players=4)
    b = game.bridge
    ludus_game = get_game("gorus-maximus")
    table = b.space.player[:10]
    rebuilt = tuple(ludus_game.action_from_json(a.to_json()) for a in table)
    assert b.player_ids(list(rebuilt)) == b.player_ids(table) == list(range(10))
    chance = [(a, 0.25) for a in b.space.chance[:4]]
    assert b.chance_pairs(list(reversed(chance))) == [(i, 0.25) for i in range(4)]


def test_illegal_numbers_still_raise():
    game = bridge.load("gorus-maximus", players=4)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    legal = set(state.legal_actions())
    illegal = next(i for i in range(game.num_distinct_actions()) if i not in legal)
    with pytest.raises(LudusError):
        state.apply_action(illegal)
    assert sorted(legal) == state.legal_actions()  # nothing moved


@pytest.mark.parametrize("name", GAMES)
def test_initial_states_share_nothing_a_move_can_reach(name):
    """Fresh states (and clones of them) share one template until they move: moving one, or
    the Ludus state handed out by ``ludus_state``, leaves every other state at the start."""
    game = bridge.load(name, **short(name))
    first, second = game.new_initial_state(), game.new_initial_state()
    copy_of_first = first.clone()
    start = str(second)
    rng = Rng(5)
    for _ in range(5):
        if first.is_chance_node():
            outcomes = first.chance_outcomes()
            first.apply_action(outcomes[rng.below(len(outcomes))][0])
        else:
            legal = first.legal_actions()
            first.apply_action(legal[rng.below(len(legal))])
    plain = second.ludus_state
    seat = acting_seat(plain)
    plain.apply(plain.sample_chance(rng) if seat == CHANCE else plain.legal_actions(seat)[0], seat)
    assert str(first) != start and str(second) != start
    assert str(copy_of_first) == start == str(game.new_initial_state())
    assert copy_of_first.history() == [] and len(first.history()) == 5


@pytest.mark.parametrize("name", GAMES)
def test_python_answers_match_the_cpp_ones(name):
    """``legal_actions``, ``is_chance_node`` and the two strings, answered in Python, equal
    what OpenSpiel's C++ methods (which call back into the bridge) answer, at every step."""
    game = bridge.load(name, **short(name))
    n = game.num_players()
    cpp = pyspiel.State
    for seed in range(3):
        rng = Rng(100 + seed)
        state = game.new_initial_state()
        while True:
            assert state.is_chance_node() == cpp.is_chance_node(state)
            assert state.legal_actions() == cpp.legal_actions(state)
            for p in range(n):
                assert state.legal_actions(p) == cpp.legal_actions(state, p)
                assert state.information_state_string(p) == cpp.information_state_string(state, p)
                assert state.observation_string(p) == cpp.observation_string(state, p)
            if state.is_terminal():
                break
            if state.is_chance_node():
                assert state.legal_actions(CHANCE) == cpp.legal_actions(state, CHANCE)
                for method in (state.information_state_string, state.observation_string):
                    with pytest.raises(pyspiel.SpielError):
                        method()
            else:
                assert state.information_state_string() == cpp.information_state_string(state)
                with pytest.raises(pyspiel.SpielError):
                    state.legal_actions(-1)
                with pytest.raises(pyspiel.SpielError):
                    cpp.legal_actions(state, -1)
            legal = state.legal_actions()
            state.apply_action(legal[rng.below(len(legal))])
        for method in (state.information_state_string, state.observation_string):
            with pytest.raises(pyspiel.SpielError):
                method()
