"""The generic ISMCTS agent: legal, reproducible, and it finds a winning move when there is one."""

from __future__ import annotations

import pytest

from ludus.agents.base import EXTRA_AGENTS, make_agent
from ludus.agents.ismcts import ISMCTSAgent, ISMCTSEasy, ISMCTSHard, ISMCTSMedium
from ludus.core.game import CHANCE
from ludus.core.rng import Rng
from ludus.games import game_names, get_game
from ludus.games.gorus_maximus.actions import PLAY
from ludus.games.gorus_maximus.cards import parse_card
from ludus.games.gorus_maximus.game import GAME


def games_with_samplers() -> list[str]:
    names = []
    for name in game_names():
        game = get_game(name)
        state = game.new_initial_state(None, seed=1)
        try:
            game.sample_state(state.view(0), Rng(0))
        except NotImplementedError:
            continue
        names.append(name)
    return names


def play_some(game, options, agents, seed: int, moves: int) -> None:
    """Play up to ``moves`` decisions, asserting each chosen action is legal for the view."""
    state = game.new_initial_state(options, seed=seed)
    for _ in range(moves):
        seats = state.current_seats()
        if not seats:
            return
        seat = seats[-1]  # at simultaneous decisions, not always the lowest seat
        assert seat != CHANCE
        view = state.view(seat)
        action = agents[seat].act(view)
        assert action in view.legal_actions
        state.apply(action, seat)


@pytest.mark.parametrize("options", [{"players": 1}, {"players": 2}, {"players": 4, "teams": "2v2"},
                                     {"players": 5}])
def test_plays_legal_moves_in_every_gorus_maximus_mode(options):
    n = GAME.num_seats(GAME.parse_options(options))
    agents = [ISMCTSAgent(s, iterations=6, rollout="heuristic" if s % 2 else "random") for s in range(n)]
    play_some(GAME, options, agents, seed=5, moves=25)


@pytest.mark.parametrize("name", games_with_samplers())
def test_plays_legal_moves_in_every_game_with_a_sampler(name):
    game = get_game(name)
    n = game.num_seats(game.parse_options(None))
    agents = [ISMCTSAgent(s, iterations=4, rollout="random") for s in range(n)]
    play_some(game, None, agents, seed=2, moves=12)


def test_simultaneous_decisions_are_searched():
    if "gorus-arena" not in games_with_samplers():
        pytest.skip("no Gorus Arena sampler yet")
    game = get_game("gorus-arena")
    state = game.new_initial_state(None, seed=4)
    rng = Rng(3)
    while len(state.current_seats()) < 2:
        assert not state.is_terminal()
        seat = state.current_seats()[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    seat = state.current_seats()[-1]
    view = state.view(seat)
    agent = ISMCTSAgent(1, iterations=20, rollout="random")
    visits = agent.search(view)
    assert sum(n for n, _ in visits.values()) > 0  # the observer decided in the tree
    assert set(visits) <= set(view.legal_actions)
    assert agent.act(view) in view.legal_actions


def test_same_seed_and_iterations_give_the_same_game():
    def moves(seed: int) -> list:
        state = GAME.new_initial_state({"players": 3}, seed=9)
        agents = [ISMCTSAgent(seed + s, iterations=8) for s in range(3)]
        out = []
        for _ in range(15):
            seat = state.current_seats()[0]
            action = agents[seat].act(state.view(seat))
            out.append(action)
            state.apply(action, seat)
        return out

    assert moves(1) == moves(1)


def test_search_statistics_are_reproducible():
    state = GAME.new_initial_state({"players": 4}, seed=21)
    view = state.view(state.current_seats()[0])
    a = ISMCTSAgent(7, iterations=40, rollout="random").search(view)
    b = ISMCTSAgent(7, iterations=40, rollout="random").search(view)
    assert a == b
    assert sum(n for n, _ in a.values()) == 40


def endgame():
    """3 players, target 1, second-to-last bout. Seat 0 holds Green 10 and Green 5.

    Green 10 wins this bout (+3 CF) and seat 0 then also takes the last one: it wins the game.
    Green 5 lets seat 1 take Green 9 (+2) and the game. Seat 0 cannot see who holds Pink 6 or 7.
    """
    def codes(text: str) -> list[str]:
        return text.split()

    position = {
        "game": "gorus-maximus",
        "options": {"players": 3, "schools": "BF,GA,PA", "target": 1},
        "rng": 99,
        "state": {
            "phase": "play", "round": 1, "dealer": 2, "schools": ["BF", "GA", "PA"], "support": [0, 0, 0],
            "hands": [codes("GA10 GA5"), codes("PA6"), codes("PA7")], "stock": [], "dealt": 30,
            "collected": [codes("BF9 BF10 BF11 BF12 GA11 BF5 BF6 BF7 GA6"),
                          codes("PA9 PA10 PA11 PA12 GA12 PA0 PA4 PA5 GA7"),
                          codes("BF0 BF8 GA8 PA8 BF4 GA0")],
            "collected_count": [9, 9, 6], "bout": [[1, "GA9"], [2, "GA4"]], "turn": 0,
            "initiating": 2, "preferred": 0, "previous_bout": [], "previous_winner": None,
            "drawer": -1, "last_round": None, "winning_sides": [],
        },
    }
    return GAME.state_from_json(position)


def test_the_endgame_is_what_the_docstring_says():
    for card, winner in (("GA10", [0]), ("GA5", [1])):
        state = endgame()
        state.apply(PLAY[parse_card(card)])
        while not state.is_terminal():
            state.apply(state.legal_actions()[0])
        assert state.winners() == winner


@pytest.mark.parametrize("rollout", ["random", "heuristic"])
def test_picks_the_winning_move(rollout):
    view = endgame().view(0)
    for seed in range(3):
        action = ISMCTSAgent(seed, iterations=30, rollout=rollout).act(view)
        assert action == PLAY[parse_card("GA10")]


def test_budget_in_seconds():
    view = GAME.new_initial_state({"players": 4}, seed=2).view(0)
    agent = ISMCTSAgent(0, seconds=0.05, rollout="random")
    assert agent.act(view) in view.legal_actions
    assert agent.last_iterations >= 1


def test_levels_are_registered():
    assert {"ismcts", "ismcts-easy", "ismcts-medium", "ismcts-hard"} <= set(EXTRA_AGENTS)
    kinds = {k: type(make_agent(k, GAME, seed=1)) for k in ("ismcts", "ismcts-easy", "ismcts-medium", "ismcts-hard")}
    assert kinds == {"ismcts": ISMCTSMedium, "ismcts-easy": ISMCTSEasy, "ismcts-medium": ISMCTSMedium,
                     "ismcts-hard": ISMCTSHard}
    budgets = [make_agent(k, GAME).budget(GAME)[0] for k in ("ismcts-easy", "ismcts-medium", "ismcts-hard")]
    assert budgets[0] < budgets[1] < budgets[2]


def test_bad_settings_are_refused():
    with pytest.raises(ValueError):
        ISMCTSAgent(rollout="greedy")
    with pytest.raises(ValueError):
        ISMCTSAgent(iterations=0)


def test_paired_root_tries_every_deal_under_every_move():
    view = GAME.new_initial_state({"players": 4}, seed=21).view(0)
    agent = ISMCTSAgent(3, iterations=8 * len(view.legal_actions), rollout="random", paired=True)
    stats = agent.search(view)
    assert set(stats) == set(view.legal_actions)
    assert {n for n, _ in stats.values()} == {8}  # 8 deals, each under every first move
    assert agent.last_iterations == 8 * len(view.legal_actions)
    again = ISMCTSAgent(3, iterations=8 * len(view.legal_actions), rollout="random", paired=True).search(view)
    assert again == stats


def test_paired_root_with_an_anchor_keeps_the_heuristic_move_unless_clearly_beaten():
    from ludus.games.gorus_maximus.heuristic import GorusMaximusHeuristic

    state = GAME.new_initial_state({"players": 4}, seed=33)
    for _ in range(6):
        state.apply(state.legal_actions()[0])
    view = state.view(state.current_seats()[0])
    assert len(view.legal_actions) > 1
    expected = GorusMaximusHeuristic(0).act(view)
    stubborn = ISMCTSAgent(1, iterations=6 * len(view.legal_actions), rollout="heuristic", paired=True, anchor=1e9)
    assert stubborn.act(view) == expected
    # a decided endgame where the anchor's move loses: it gives way to the move that wins every deal
    losing = PLAY[parse_card("GA5")]

    class Losing(GorusMaximusHeuristic):
        def act(self, view):
            return losing

    endgame_view = endgame().view(0)
    for seed in range(3):
        agent = ISMCTSAgent(seed, iterations=20, rollout="random", paired=True, anchor=1.0)
        agent._heuristic = lambda game, seat: Losing(0)  # type: ignore[method-assign]
        assert agent.act(endgame_view) == PLAY[parse_card("GA10")]


def test_expansion_threshold_keeps_nodes_out_of_the_tree_until_visited_enough():
    from ludus.agents import ismcts

    view = GAME.new_initial_state({"players": 4}, seed=8).view(0)
    grown: list[int] = []
    original = ismcts._Node.__init__

    def counting_init(self):
        original(self)
        grown.append(1)

    for expand_after, expect_tree in ((1, True), (10_000, False)):
        grown.clear()
        ismcts._Node.__init__ = counting_init  # type: ignore[method-assign]
        try:
            ISMCTSAgent(2, iterations=30, rollout="random", expand_after=expand_after).search(view)
        finally:
            ismcts._Node.__init__ = original  # type: ignore[method-assign]
        assert (len(grown) > 1) == expect_tree  # the root is always there


def test_bad_search_settings_are_refused():
    with pytest.raises(ValueError):
        ISMCTSAgent(anchor=-1.0)
    with pytest.raises(ValueError):
        ISMCTSAgent(expand_after=0)
