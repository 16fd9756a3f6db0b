"""The fast paths of :mod:`ludus.games.gorus_maximus.fast`, each against the plain rules it stands for."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ludus.core.game import State
from ludus.core.rng import Rng
from ludus.games.gorus_maximus.actions import PLAY
from ludus.games.gorus_maximus.cards import RANK_MASKS, _bits, card
from ludus.games.gorus_maximus.fast import _cf_groups
from ludus.games.gorus_maximus.game import GAME

from .test_properties import MODES


@given(MODES, st.integers(0, 2**32))
def test_inlined_fast_path_matches_the_general_rules_path(options, seed):
    """With 3+ players apply() runs the bout logic inline; the general methods must agree."""
    fast = GAME.new_initial_state(options, seed=seed)
    general = GAME.new_initial_state(options, seed=seed)
    general.fast_bouts = False  # every card through _add_card / _after_card / _resolve_bout
    rng = Rng(seed)
    while not fast.is_terminal():
        legal = fast.legal_actions()
        assert list(legal) == list(general.legal_actions())
        action = rng.choice(legal)
        fast.apply(action)
        general.apply(action)
        assert fast.to_json() == general.to_json()
        assert fast.top == general.top and fast.top_actor == general.top_actor
    assert general.is_terminal()
    assert fast.history == general.history


@given(MODES, st.integers(0, 2**32))
def test_cached_legal_actions_are_the_legal_mask(options, seed):
    """legal_actions (cached lane tuples) gives the cards of legal_mask, lowest first, for every seat."""
    state = GAME.new_initial_state(options, seed=seed)
    rng = Rng(seed)
    while not state.is_terminal():
        for seat in range(state.num_seats()):
            assert list(state.legal_actions(seat)) == [PLAY[c] for c in _bits(state.legal_mask(seat))]
        if state.phase == "play":
            assert list(state.legal_actions()) == [PLAY[c] for c in _bits(state.legal_mask(state.turn))]
        else:
            assert list(state.legal_actions()) == []
        state.apply(rng.choice(state.legal_actions()))


@given(MODES, st.integers(0, 2**32))
def test_seeded_deals_are_outcomes_of_the_card_by_card_chance_path(options, seed):
    """A seeded game (a troupe set dealt from one shuffle, bouts inlined) replays move by move
    through the core State.apply, which checks every chance outcome against chance_outcomes()
    and applies it one card at a time, to the same position at every step."""
    seeded = GAME.new_initial_state(options, seed=seed)
    rng = Rng(seed)
    while not seeded.is_terminal():
        seeded.apply(rng.choice(seeded.legal_actions()))
    plain = GAME.new_initial_state(options, seed=None)
    for actor, action in seeded.history:
        State.apply(plain, action, actor)
        assert plain.history[-1] == (actor, action)
    assert plain.history == seeded.history
    assert plain.to_json()["state"] == seeded.to_json()["state"]


@given(MODES, st.integers(0, 2**32))
def test_seeded_deals_use_the_whole_deck_like_the_card_by_card_path(options, seed):
    """The card-by-card chance path (core State._settle_chance) from the same seed chooses the
    same schools (the same draw) and deals hands of the same sizes from the same cards."""
    fast = GAME.new_initial_state(options, seed=seed)
    plain = GAME.new_initial_state(options, seed=None)
    plain.rng = Rng(seed)
    State._settle_chance(plain)
    assert (plain.phase, plain.schools, plain.dealt) == (fast.phase, fast.schools, fast.dealt)
    assert [h.bit_count() for h in plain.hands] == [h.bit_count() for h in fast.hands]
    dealt_plain = sum(1 << c for _, c in plain.bout)  # solo: a contender card is turned up
    dealt_fast = sum(1 << c for _, c in fast.bout)
    assert len(plain.bout) == len(fast.bout)
    for a, b in zip(plain.hands, fast.hands, strict=True):
        dealt_plain |= a
        dealt_fast |= b
    assert plain.stock | dealt_plain == fast.stock | dealt_fast


@given(st.lists(st.integers(-5, 5), min_size=16, max_size=16), st.integers(0, 2**80 - 1))
def test_cf_groups_score_like_a_sum_over_the_cards(by_rank, mask):
    """Crowd Favour by one popcount per value equals the table's value summed card by card."""
    grouped = sum(value * (mask & ranks).bit_count() for value, ranks in _cf_groups(tuple(by_rank)))
    assert grouped == sum(by_rank[c & 15] for c in _bits(mask))
    assert all(ranks & RANK_MASKS[r] for r in range(16) for v, ranks in _cf_groups(tuple(by_rank))
               if by_rank[r] == v)


def plain_crowd_favour(state, side: int) -> int:
    """The CF rule card by card: each collected card's value, the preferred school's 0 as the table says."""
    cf = state.cf
    total = 0
    for c in _bits(state.collected[side]):
        zero_of_preferred = c == card(state.preferred, 0) if state.preferred >= 0 else False
        total += cf.preferred_zero if zero_of_preferred else cf.by_rank[c & 15]
    return total


@given(MODES, st.integers(0, 2**32))
def test_round_scores_match_crowd_favour_card_by_card(options, seed):
    """crowd_favour() and each round's summary (both from the CF groups) equal the CF rule
    summed card by card over every side's collected gladiators."""
    state = GAME.new_initial_state(options, seed=seed)
    rng = Rng(seed)
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        before = state.clone()
        state.apply(action)
        for side in range(state.num_sides):
            assert state.crowd_favour(side) == plain_crowd_favour(state, side)
        if state.round != before.round or state.is_terminal():
            # again with the same outcomes, but keeping the round's piles: no new round is set up
            before._start_round = lambda: None
            before.rng = None
            k = len(before.history)
            before.apply(action)
            for actor, outcome in state.history[k + 1 :]:  # solo: contender cards turned up after it
                if before.last_round == state.last_round:
                    break
                before.apply(outcome, actor)
            assert before.last_round == state.last_round
            assert list(state.last_round.crowd_favour) == [
                plain_crowd_favour(before, side) for side in range(before.num_sides)
            ]
