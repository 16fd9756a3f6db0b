"""Property tests over random Gorus Maximus games in every mode."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from ludus.core import records
from ludus.core.errors import IllegalAction
from ludus.core.frozen import same_as_constructed
from ludus.core.game import CHANCE, HIDDEN
from ludus.core.rng import Rng
from ludus.games import get_game
from ludus.games.gorus_maximus.actions import PLAY
from ludus.games.gorus_maximus.game import GAME

MODES = st.sampled_from([
    {"players": 1}, {"players": 2}, {"players": 3}, {"players": 4}, {"players": 5}, {"players": 6},
    {"players": 7}, {"players": 8}, {"players": 4, "teams": "2v2"}, {"players": 5, "teams": "2v2v1"},
    {"players": 6, "teams": "3v3"}, {"players": 8, "teams": "2v2v2v2"}, {"players": 4, "target": 1},
])


def all_cards(state) -> int:
    total = state.stock
    parts = [*state.hands, *state.collected, sum(1 << c for _, c in state.bout)]
    for p in parts:
        assert total & p == 0, "a card is in two places"
        total |= p
    return total


def run(state, rng, check_every_step):
    deck = all_cards(state)
    steps = 0
    while not state.is_terminal():
        seat = state.current_seats()[0]
        legal = state.legal_actions(seat)
        assert legal, "a seat to move always has a legal action"
        if check_every_step:
            hand = state.hands[seat]
            illegal = [PLAY[c] for c in range(80) if not any(a.card == c for a in legal)]
            probe = illegal[rng.below(len(illegal))] if illegal else None
            if probe is not None:
                before = json.dumps(state.to_json())
                try:
                    state.apply(probe)
                except IllegalAction as exc:
                    assert str(exc)
                else:
                    raise AssertionError(f"illegal {probe} accepted")
                assert json.dumps(state.to_json()) == before
            assert all(hand >> a.card & 1 for a in legal)
        round_before = state.round
        state.apply(rng.choice(legal))
        if state.round == round_before and not state.is_terminal():
            assert all_cards(state) == deck, "cards are conserved within a round"
        elif not state.is_terminal():
            deck = all_cards(state)
        steps += 1
        assert steps < 20_000
    return state


@given(MODES, st.integers(0, 2**32))
def test_random_games_end_conserve_cards_and_reject_illegal_moves(options, seed):
    state = GAME.new_initial_state(options, seed=seed)
    run(state, Rng(seed ^ 0x5A5A), check_every_step=True)
    assert state.winning_sides  # someone won (in solo possibly the contenders, who are no seat)
    assert max(state.support) >= min(state.targets)


@given(MODES, st.integers(0, 2**32))
def test_same_seed_and_actions_give_the_same_game_and_records_round_trip(options, seed):
    a = run(GAME.new_initial_state(options, seed=seed), Rng(seed), check_every_step=False)
    b = run(GAME.new_initial_state(options, seed=seed), Rng(seed), check_every_step=False)
    assert a.to_json() == b.to_json()
    rec = records.record_of(a, seed)
    replayed = records.replay(records.loads(rec.dumps()), get_game)
    assert replayed.to_json() == a.to_json()
    # explicit-chance record: the deals are in the record itself
    explicit = records.record_of(a, None)
    assert any(s == CHANCE for s, _ in explicit.actions)
    again = records.replay(records.loads(explicit.dumps()), get_game)
    assert again.to_json()["state"] == a.to_json()["state"]


@given(MODES, st.integers(0, 2**32), st.integers(0, 300))
def test_position_json_clone_and_observation_round_trip(options, seed, cut):
    state = GAME.new_initial_state(options, seed=seed)
    rng = Rng(seed)
    for _ in range(cut):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    pos = json.loads(json.dumps(state.to_json()))
    restored = GAME.state_from_json(pos)
    assert restored.to_json() == state.to_json()
    clone = state.clone()
    if not state.is_terminal():
        action = clone.legal_actions()[0]
        clone.apply(action)
        assert json.dumps(state.to_json()) == json.dumps(pos)  # the original did not move
        restored.apply(action)
        assert restored.to_json() == clone.to_json()
    for seat in [None, *range(state.num_seats())]:
        obs = state.observation(seat)
        assert same_as_constructed(obs)  # the frozen_builder's object: every field, in order
        json.dumps(obs.to_json())


@given(MODES, st.integers(0, 2**32), st.integers(0, 200))
def test_observations_hide_other_hands_and_draws(options, seed, cut):
    state = GAME.new_initial_state(options, seed=seed)
    rng = Rng(seed)
    for _ in range(cut):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    n = state.num_seats()
    for seat in range(n):
        obs = state.observation(seat)
        assert obs.hand == state.hands[seat]
        text = json.dumps(obs.to_json())
        others = 0
        for other in range(n):
            if other != seat:
                others |= state.hands[other]
        from ludus.games.gorus_maximus.cards import card_code

        hand_codes = set(obs.to_json()["hand"])
        for c in range(80):
            if others >> c & 1 or state.stock >> c & 1:
                assert card_code(c) not in hand_codes
        for actor, action in state.visible_history(seat):
            if action != HIDDEN and actor == CHANCE and hasattr(action, "seat"):
                assert action.seat == seat
        assert '"stock":' not in text
    spectator = state.observation(None)
    assert spectator.hand is None
    assert not any(actor == CHANCE and a != HIDDEN and hasattr(a, "seat")
                   for actor, a in state.visible_history(None))

