"""Properties over random games: they end, cards are conserved, everything replays exactly."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ludus.core import records
from ludus.core.errors import IllegalAction, RecordError
from ludus.core.game import CHANCE, Action
from ludus.core.rng import Rng
from ludus.games import get_game
from ludus.games.circus_maximus.actions import (
    LINE_KEYS,
    Done,
    Pass,
    Place,
    PlaceVisitor,
    PlayExtraVisitor,
    PlayMoveAhead,
    PlayReplay,
    PlayTicketVisitor,
    Sell,
    Skip,
    TakeFavour,
    TakeStart,
    TakeTicket,
    action_from_json,
)
from ludus.games.circus_maximus.cards import FAVOUR_KEYS, VENUE_KEYS
from ludus.games.circus_maximus.game import GAME

games = st.tuples(st.integers(0, 2**32), st.sampled_from([3, 4, 5]), st.booleans())


def probe_actions(state) -> list[Action]:
    """A wide pool of actions, mostly illegal at any moment, to test the explanations."""
    d = state.data
    pool: list[Action] = [Pass(), Done(), PlayExtraVisitor(), PlayTicketVisitor(), TakeStart(), Skip()]
    pool += [Place(r, k, e, b) for r in (1, 5, 8) for k in LINE_KEYS for e in (False, True) for b in (False, True)]
    pool += [PlayReplay(r, k) for r in (1, 8) for k in LINE_KEYS] + [PlayMoveAhead(r) for r in (1, 4, 8)]
    pool += [PlaceVisitor(v) for v in VENUE_KEYS] + [TakeFavour(k) for k in FAVOUR_KEYS]
    pool += [TakeTicket(t.key, dbl) for t in d.tickets[::2] for dbl in (False, True)]
    pool += [Sell(v.key, t.key, None, lg, dbl) for v in d.visitors for t in d.tickets[::4]
             for lg in (False, True) for dbl in (False, True)]
    pool += [Sell(v.key, None, f, False, False) for v in d.visitors[:2] for f in FAVOUR_KEYS[:3]]
    return pool


def random_game(seed: int, players: int, caesar: bool, check: bool = False):
    """Play random legal moves from a seed; with ``check``, test invariants at every step."""
    state = GAME.new_initial_state({"players": players, "caesar": caesar}, seed=seed)
    rng = Rng(seed ^ 0x5EED)
    steps = 0
    while not state.is_terminal():
        seat = state.current_seats()[0]
        assert seat != CHANCE  # seeded games settle chance themselves
        legal = state.legal_actions()
        assert legal, "a seat to act must have a legal action"
        if check:
            assert state.check_cards() is None
            assert all(state.why_illegal(a, seat) is None for a in legal)
            if steps % 7 == 0:
                before = json.dumps(state.to_json(), sort_keys=True)
                for a in probe_actions(state):
                    if a not in legal:
                        reason = state.why_illegal(a, seat)
                        assert isinstance(reason, str) and reason, a
                        with pytest.raises(IllegalAction):
                            state.apply(a, seat)
                assert json.dumps(state.to_json(), sort_keys=True) == before
        state.apply(rng.choice(legal), seat)
        steps += 1
        assert steps < 2000
    return state


@given(games)
def test_random_games_end_conserve_cards_and_explain_illegal_moves(game):
    seed, players, caesar = game
    state = random_game(seed, players, caesar, check=True)
    assert state.check_cards() is None
    assert state.day == 3 and len(state.day_scores) == 3
    assert state.winners() and max(state.scores()) == state.scores()[state.winners()[0]]
    assert state.scores() == [float(sum(row[s] for row in state.day_scores) + state.favour_coins[s])
                              for s in range(players)]


@given(games)
def test_same_seed_same_game_and_explicit_chance_replays_it(game):
    seed, players, caesar = game
    a = random_game(seed, players, caesar)
    b = random_game(seed, players, caesar)
    assert a.history == b.history and a.to_json() == b.to_json()
    # the same game with chance given explicitly
    c = GAME.new_initial_state({"players": players, "caesar": caesar}, seed=None)
    for seat, action in a.history:
        c.apply(GAME.action_from_json(json.loads(json.dumps(action.to_json()))), seat)
    assert c.to_json()["state"] == a.to_json()["state"]


@given(games)
def test_records_round_trip_seeded_and_explicit(game):
    seed, players, caesar = game
    final = random_game(seed, players, caesar)
    rec = records.loads(records.record_of(final, seed).dumps())
    replayed = records.replay(rec, find_game=get_game)
    assert replayed.to_json() == final.to_json()
    explicit = GAME.new_initial_state({"players": players, "caesar": caesar}, seed=None)
    for seat, action in final.history:
        explicit.apply(action, seat)
    rec2 = records.loads(records.record_of(explicit, None).dumps())
    assert any(s == CHANCE for s, _ in rec2.actions)
    assert records.replay(rec2, find_game=get_game).to_json() == explicit.to_json()


@given(games, st.integers(0, 400))
def test_positions_round_trip_and_continue_identically(game, cut):
    seed, players, caesar = game
    state = GAME.new_initial_state({"players": players, "caesar": caesar}, seed=seed)
    rng = Rng(seed)
    for _ in range(cut):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    copy = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    assert copy.to_json() == state.to_json()
    clone = state.clone()
    for s in (state, copy, clone):
        r = Rng(cut)
        while not s.is_terminal():
            s.apply(r.choice(s.legal_actions()))
    assert copy.to_json()["state"] == state.to_json()["state"] == clone.to_json()["state"]


@given(games, st.integers(0, 400))
def test_sample_state_agrees_with_everything_the_seat_knows(game, cut):
    seed, players, caesar = game
    state = GAME.new_initial_state({"players": players, "caesar": caesar}, seed=seed)
    rng = Rng(seed + 1)
    for _ in range(cut):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    if state.is_terminal():
        return
    seat = state.current_seats()[0]
    view = state.view(seat)
    for k in range(3):
        sample = GAME.sample_state(view, Rng(k))
        assert sample.observation(seat) == view.observation
        assert tuple(sample.legal_actions(seat)) == view.legal_actions
        assert sample.check_cards() is None
        for other in range(players):  # nothing is hidden, so every seat's view agrees too
            assert sample.observation(other) == state.observation(other)
        r = Rng(k)
        while not sample.is_terminal():
            sample.apply(r.choice(sample.legal_actions()))


@given(games)
def test_actions_round_trip_through_json(game):
    seed, players, caesar = game
    final = random_game(seed, players, caesar)
    for _seat, action in final.history:
        assert action_from_json(json.loads(json.dumps(action.to_json()))) == action
        assert action.label


@pytest.mark.parametrize("bad", [
    None, 3, {}, {"type": "fly"}, {"type": "place"}, {"type": "place", "rank": 9, "line": "villa"},
    {"type": "place", "rank": 2, "line": "moon"}, {"type": "place", "rank": True, "line": "villa"},
    {"type": "pass", "extra": 1}, {"type": "sell", "visitor": "senator"},
    {"type": "sell", "visitor": "senator", "ticket": "circus:box", "favour": "extra_trader"},
    {"type": "take_ticket", "ticket": 5}, {"type": "take_favour", "favour": "nothing"},
    {"type": "place", "rank": 2, "line": "villa", "extra": "yes"},
])
def test_malformed_actions_raise_record_error(bad):
    with pytest.raises(RecordError):
        GAME.action_from_json(bad)


@pytest.mark.parametrize("mutate", [
    lambda s: s.update(hands="x"),
    lambda s: s.update(fav_deck=s["fav_deck"] | s["fav_gone"] | 1),
    lambda s: s.update(day=7),
    lambda s: s["lines"].append([]),
    lambda s: s.pop("forum"),
    lambda s: s.update(draws=[["Q", 0]]),
])
def test_malformed_positions_raise_record_error(mutate):
    pos = GAME.new_initial_state({"players": 3}, seed=4).to_json()
    mutate(pos["state"])
    with pytest.raises(RecordError):
        GAME.state_from_json(pos)


def test_a_sample_taken_while_a_drawn_visitor_waits_passes_the_turn_on_as_the_game_does():
    """The +Visitor's drawn visitor is placed after the turn's move: once placed, the turn passes on
    in a determinization exactly as in the real game (it once stayed with the same seat)."""
    met = 0
    for seed in range(60):
        state = GAME.new_initial_state({"players": 4}, seed=seed)
        rng = Rng(seed)
        while not state.is_terminal() and met < 40:
            if state.pending_visitor >= 0:
                met += 1
                view = state.view(state.current_seats()[0])
                for action in view.legal_actions:
                    real, sample = state.clone(), GAME.sample_state(view, Rng(seed))
                    real.apply(action)
                    sample.apply(action)
                    assert sample.current_seats() == real.current_seats()
                    assert sample.turn == real.turn
            state.apply(rng.choice(state.legal_actions()))
    assert met >= 10
