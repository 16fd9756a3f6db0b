"""The fixed action numbering: complete, unambiguous, stable, and within its length bounds."""

from __future__ import annotations

import pytest

from ludus.core.game import CHANCE
from ludus.core.rng import Rng
from ludus.games import get_game
from ludus.interop.action_space import (
    InteropError,
    acting_seat,
    action_key,
    build_action_space,
    explore_actions,
    game_bounds,
)

from .cases import GAMES, SHORT, short


def test_every_game_has_short_options():
    assert sorted(GAMES) == sorted(SHORT)


@pytest.mark.parametrize("name", GAMES)
def test_random_play_stays_inside_the_space(name):
    game = get_game(name)
    for options in ({}, short(name)):
        space = build_action_space(game, options)
        seen_player, seen_chance = explore_actions(game, options, games=3, seed=11)
        assert seen_player <= {action_key(a) for a in space.player}
        assert seen_chance <= {action_key(a) for a in space.chance}
        assert seen_player and seen_chance


@pytest.mark.parametrize("name", GAMES)
def test_numbers_round_trip_through_json(name):
    game = get_game(name)
    space = build_action_space(game, short(name))
    for table, lookup in ((space.player, space.player_id), (space.chance, space.chance_id)):
        assert len({action_key(a) for a in table}) == len(table)
        for i, action in enumerate(table):
            assert lookup(action) == i
            assert lookup(game.action_from_json(action.to_json())) == i
    assert len(set(space.player_names)) == len(space.player_names)
    assert len(set(space.chance_names)) == len(space.chance_names)


@pytest.mark.parametrize("name", GAMES)
def test_same_options_give_the_same_numbers(name):
    game = get_game(name)
    a = build_action_space(game, short(name))
    b = build_action_space(game, dict(short(name)))
    assert [action_key(x) for x in a.player] == [action_key(x) for x in b.player]
    assert [action_key(x) for x in a.chance] == [action_key(x) for x in b.chance]


@pytest.mark.parametrize("name", GAMES)
def test_random_games_stay_within_the_length_bounds(name):
    game = get_game(name)
    options = short(name)
    bounds = game_bounds(game, options)
    rng = Rng(5)
    for _ in range(3):
        state = game.new_initial_state(options, seed=None)
        decisions = chance = 0
        while (seat := acting_seat(state)) is not None:
            if seat == CHANCE:
                state.apply(state.sample_chance(rng), CHANCE)
                chance += 1
            else:
                state.apply(rng.choice(state.legal_actions(seat)), seat)
                decisions += 1
        assert decisions <= bounds.decisions and chance <= bounds.chance_nodes


def test_gorus_maximus_numbers_are_card_indices():
    from ludus.games.gorus_maximus.cards import parse_card

    space = build_action_space(get_game("gorus-maximus"), {"players": 4})
    assert space.num_player_actions == 80
    assert space.player_id(get_game("gorus-maximus").action_from_json({"play": "GA10"})) == parse_card("GA10")


def test_an_action_outside_the_space_is_reported():
    game = get_game("gorus-maximus")
    space = build_action_space(game, {"players": 3})
    stray = game.action_from_json({"deal": "BF4", "to": 5})  # seat 6 does not exist with 3 players
    with pytest.raises(InteropError, match="missing from its action space"):
        space.chance_id(stray)
