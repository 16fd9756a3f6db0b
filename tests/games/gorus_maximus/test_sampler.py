"""The Gorus Maximus determinization sampler never contradicts what the observing seat knows."""

from __future__ import annotations

import pytest

from ludus.core.game import CHANCE, play_random
from ludus.core.rng import Rng
from ludus.games.gorus_maximus.actions import Play, Reveal
from ludus.games.gorus_maximus.cards import SCHOOL_MASKS, parse_card
from ludus.games.gorus_maximus.game import GAME
from ludus.games.gorus_maximus.rules import GorusMaximusState

from .helpers import card_mask, dealt, play

MODES = [
    {"players": 1}, {"players": 2}, {"players": 3}, {"players": 4}, {"players": 5}, {"players": 6},
    {"players": 7}, {"players": 8}, {"players": 4, "teams": "2v2"}, {"players": 5, "teams": "2v2v1"},
    {"players": 2, "target": 2, "final_tie": "play-on"},
]


def replay(sample: GorusMaximusState) -> GorusMaximusState:
    """Play the sample's history from the start with explicit chance: every move must be legal."""
    state = GAME.new_initial_state(sample.options, seed=None)
    for actor, action in sample.history:
        state.apply(action, actor)
    return state


def position(state: GorusMaximusState) -> dict:
    data = state.to_json()
    data["rng"] = None
    return data


def voids_this_round(state: GorusMaximusState) -> list[tuple[int, int]]:
    """(seat, school) for every seat that neither followed nor Challenged in this round so far."""
    count = sum(state.collected_count) + len(state.bout)
    cards = [(a, act.card) for a, act in state.history if type(act) in (Play, Reveal)]
    cards = cards[len(cards) - count:] if count else []
    size = 3 if state.solo else state.n
    out = []
    for k, (actor, c) in enumerate(cards):
        start = k - k % size
        lead, prev = cards[start][1], cards[k - 1][1]
        if k > start and actor >= 0 and c >> 4 != lead >> 4 and c & 15 != prev & 15:
            out.append((actor, lead >> 4))
    return out


def check_sample(real: GorusMaximusState, seat: int, sample: GorusMaximusState) -> None:
    view = real.view(seat)
    assert sample.view(seat) == view  # own hand, public state, visible history, legal moves
    assert sample.hands[seat] == real.hands[seat]
    assert sample.observation(None) == real.observation(None)
    assert [h.bit_count() for h in sample.hands] == [h.bit_count() for h in real.hands]
    assert sample.stock.bit_count() == real.stock.bit_count()
    places = [*sample.hands, sample.stock, *sample.collected, sum(1 << c for _, c in sample.bout)]
    union = 0
    for mask in places:
        assert union & mask == 0, "a card is in two places"
        union |= mask
    real_union = real.stock | sum(real.hands) | sum(real.collected) | sum(1 << c for _, c in real.bout)
    assert union == real_union, "the sample's cards are not the real deck"
    if real.n > 2:  # no draws: a void lasts the rest of the round
        for s, school in voids_this_round(real):
            assert sample.hands[s] & SCHOOL_MASKS[school] == 0, (s, school)
    assert position(replay(sample)) == position(sample)  # a legal game leads to the sample


@pytest.mark.parametrize("options", MODES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_samples_agree_with_everything_the_seat_knows(options):
    rng = Rng(7)
    games = 2 if options["players"] < 6 else 1
    every = 7 * max(1, options["players"] // 3)  # about 30 checked positions per game
    for game in range(games):
        real = GAME.new_initial_state(options, seed=1000 + game)
        step = 0
        while not real.is_terminal():
            seat = real.current_seats()[0]
            if step % every == 3:
                watcher = (seat + 1 + step) % real.n  # also seats whose turn it is not
                for s in {seat, watcher}:
                    check_sample(real, s, GAME.sample_state(real.view(s), rng))
            real.apply(rng.choice(real.legal_actions()))
            step += 1
        check_sample(real, 0, GAME.sample_state(real.view(0), rng))


def test_play_continues_from_a_sample_with_chance_settled():
    real = GAME.new_initial_state({"players": 2}, seed=3)
    rng = Rng(1)
    for _ in range(9):
        real.apply(rng.choice(real.legal_actions()))
    sample = GAME.sample_state(real.view(real.current_seats()[0]), rng)
    assert sample.rng is not None
    play_random(sample, rng)
    assert sample.is_terminal() and sample.winners()


def test_samples_vary_and_are_reproducible():
    real = GAME.new_initial_state({"players": 4}, seed=11)
    rng = Rng(0)
    for _ in range(6):
        real.apply(rng.choice(real.legal_actions()))
    view = real.view(real.current_seats()[0])
    others = [s for s in range(4) if s != view.seat]
    hands = {tuple(GAME.sample_state(view, Rng(k)).hands[s] for s in others) for k in range(20)}
    assert len(hands) > 10
    assert GAME.sample_state(view, Rng(5)).to_json() == GAME.sample_state(view, Rng(5)).to_json()


def test_a_void_keeps_the_school_away_with_three_or_more_players():
    options = {"players": 4, "schools": "BF,BS,GA,PA", "first_dealer": 3}
    state = dealt(options, {
        0: "BF4 BF5 BF6 BS4 BS5 GA4 GA5 PA4 PA5 PA6",
        1: "BF7 BF8 BS6 BS7 GA6 GA7 PA7 PA8 PA9 PA0",
        2: "BS8 BS9 BS10 BS11 GA8 GA9 GA10 PA10 PA11 PA12",  # no Blue Fists
        3: "BF9 BF10 BF11 BF12 BF0 BS12 BS0 GA11 GA12 GA0",
    })
    play(state, "BF4", "BF7", "GA8")  # seat 3 (to move) saw seat 2 play Green without following
    view = state.view(3)
    rng = Rng(2)
    blue_with_seat_1 = set()
    for _ in range(200):
        sample = GAME.sample_state(view, rng)
        assert sample.hands[2] & SCHOOL_MASKS[0] == 0
        blue_with_seat_1.add((sample.hands[1] & SCHOOL_MASKS[0]).bit_count())
        check_sample(state, 3, sample)
    # seat 0 and seat 1 share the unseen Blue Fists (BF5, BF6, BF8) in every possible split
    assert blue_with_seat_1 == {0, 1, 2, 3}


def test_a_void_with_two_players_allows_only_cards_drawn_after_it():
    options = {"players": 2, "schools": "BF,GA,PA"}
    state = dealt(options, {
        0: "BF4 BF5 BF6 BF7 BF8 GA4 GA5 GA6 PA4 PA5",
        1: "GA7 GA8 GA9 GA10 GA11 PA6 PA7 PA8 PA9 PA10",  # no Blue Fists
    })
    play(state, "BF4")
    assert state.phase == "draw"
    for _ in range(50):  # a view at a chance node works too
        check_sample(state, 1, GAME.sample_state(state.view(1), Rng(_)))
    play(state, "GA0", "GA7", "BF9")  # seat 0 draws GA0; seat 1 shows no Blue, then draws BF9
    view = state.view(0)
    unseen_blue = card_mask("BF0 BF9 BF10 BF11 BF12")
    blues = set()
    rng = Rng(4)
    for _ in range(300):
        sample = GAME.sample_state(view, rng)
        held = sample.hands[1] & unseen_blue
        assert held.bit_count() <= 1, "only the one draw after the void can have brought a Blue"
        blues.add(held.bit_count())
        check_sample(state, 0, sample)
    assert blues == {0, 1}
    # the Blue it may hold came with its draw, after GA7, in the rebuilt history
    sample = next(s for s in (GAME.sample_state(view, Rng(k)) for k in range(100)) if s.hands[1] & unseen_blue)
    draw = sample.history[-1]
    assert draw[0] == CHANCE and draw[1].seat == 1 and draw[1].card >> 4 == parse_card("BF0") >> 4


def loaded(bout: list[list], collected_1: str, hands: list[str]) -> GorusMaximusState:
    """A 3-player position loaded from JSON (no history), second-to-last bout, seat 0 to play."""
    return GAME.state_from_json({
        "game": "gorus-maximus", "options": {"players": 3, "schools": "BF,GA,PA"}, "rng": 5,
        "state": {
            "phase": "play", "round": 1, "dealer": 2, "schools": ["BF", "GA", "PA"], "support": [0, 0, 0],
            "hands": [h.split() for h in hands], "stock": [], "dealt": 30,
            "collected": [["BF9", "BF10", "BF11", "BF12", "GA11", "BF5", "BF6", "BF7", "GA6"], collected_1.split(),
                          ["BF0", "BF8", "GA8", "PA8", "BF4", "GA0"]],
            "collected_count": [9, 9, 6], "bout": bout, "turn": 0, "initiating": 2, "preferred": 0,
            "previous_bout": [], "previous_winner": None, "drawer": -1, "last_round": None,
            "winning_sides": [],
        },
    })


def test_a_position_without_history_uses_the_bout_in_progress():
    # seat 2 answered Green 9 with Pink 4: it has no Green, so Green 12 must be seat 1's
    real = loaded([[1, "GA9"], [2, "PA4"]], "PA9 PA10 PA11 PA12 PA6 PA0 GA4 PA5 GA7", ["GA10 GA5", "GA12", "PA7"])
    rng = Rng(3)
    for _ in range(30):
        sample = GAME.sample_state(real.view(0), rng)
        assert sample.view(0) == real.view(0) and sample.history == []
        assert (sample.hands[1], sample.hands[2]) == (card_mask("GA12"), card_mask("PA7"))
        play_random(sample, rng)
    # had it followed with Green 4, either seat could hold either card
    real = loaded([[1, "GA9"], [2, "GA4"]], "PA9 PA10 PA11 PA12 PA6 PA0 PA4 PA5 GA7", ["GA10 GA5", "GA12", "PA7"])
    seen = {GAME.sample_state(real.view(0), rng).hands[1] for _ in range(30)}
    assert seen == {card_mask("GA12"), card_mask("PA7")}
