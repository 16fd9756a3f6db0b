"""Property tests over random Gladius games in every mode and pairing."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from ludus.core.errors import IllegalAction
from ludus.core.game import CHANCE, HIDDEN
from ludus.core.rng import Rng
from ludus.games.gladius.actions import Attack, Defend, Discard, DrawCard
from ludus.games.gladius.game import GAME
from ludus.games.gladius.rules import GladiusState

TYPES = ["secutor", "retiarius", "thracian", "murmillo", "dimachaeri", "samnite", "postulati", "lion"]

OPTIONS = st.fixed_dictionaries({
    "fighter1": st.sampled_from(TYPES),
    "fighter2": st.sampled_from(TYPES),
    "solo": st.booleans(),
    "mirror": st.sampled_from(["twice", "once"]),
    "reshuffle": st.booleans(),
    "first": st.sampled_from(["auto", "fighter1", "fighter2", "random"]),
    "starting_hand": st.integers(0, 3),
    "hand_limit": st.integers(3, 6),
    "turn_limit": st.sampled_from([0, 40, 200]),
    "hit_points": st.sampled_from([0, 3, 20]),
})


def candidates(state: GladiusState) -> list:
    """Every player move there could be: each card as attack, defence and discard, and the passes."""
    keys = [c.key for c in state.setup.kinds]
    return ([Attack(k) for k in keys] + [Defend(k) for k in keys] + [Discard(k) for k in keys]
            + [Attack(None), Defend(None)])


def check_cards(state: GladiusState) -> None:
    parts = [state.pile, state.discard, state.table, state.mini, *state.hands]
    union = 0
    for p in parts:
        assert union & p == 0, "a card is in two places"
        union |= p
    assert union == state.setup.full, "a card went missing"


def check_knowledge(state: GladiusState) -> None:
    if state.solo:
        assert state.hands[1] == 0 and not any(state.unknown)
        return
    for v in (0, 1):
        hand = state.setup.count_kinds(state.hands[1 - v])
        assert all(k <= h for k, h in zip(state.known[v], hand))
        assert sum(state.known[v]) + state.unknown[v] == sum(hand)


def check_view(state: GladiusState, seat: int, rng: Rng) -> None:
    """The seat's observation hides the other hand, and a determinization agrees with it."""
    obs = state.observation(seat)
    json.dumps(obs.to_json())
    assert sorted(obs.hand) == sorted(state.setup.keys_of(state.hands[seat]))
    spectator = state.observation(None)
    assert spectator.hand == () and spectator.opponent_known == ()
    view = state.view(seat)
    for entry in view.history:
        actor, action = entry
        if action == HIDDEN:
            assert actor == CHANCE
        elif isinstance(action, DrawCard):
            assert action.seat == seat
    sampled = GAME.sample_state(view, rng)
    assert sampled.observation(seat) == obs
    assert sampled.legal_actions(seat) == state.legal_actions(seat)
    check_cards(sampled)
    check_knowledge(sampled)
    if not state.solo:
        # the truth is one of the states the sampler could have drawn: same unaccounted pool
        setup = state.setup
        real = [a + b for a, b in zip(setup.count_kinds(state.pile), setup.count_kinds(state.hands[1 - seat]))]
        fake = [a + b for a, b in zip(setup.count_kinds(sampled.pile), setup.count_kinds(sampled.hands[1 - seat]))]
        assert real == fake


def run(options: dict, seed: int, deep: bool) -> GladiusState:
    state = GAME.new_initial_state(options, seed=seed)
    rng = Rng(seed ^ 0x5EED)
    hp = list(state.hp)
    steps = 0
    while not state.is_terminal():
        steps += 1
        assert steps < 5000, "game did not end"
        check_cards(state)
        check_knowledge(state)
        seat = state.current_seats()[0]
        assert seat != CHANCE, "a seeded state settles chance by itself"
        legal = state.legal_actions(seat)
        assert legal
        if deep:
            before = state._position()
            for action in candidates(state):
                reason = state.why_illegal(action, seat)
                assert (reason is None) == (action in legal), (action, reason)
                if reason is not None:
                    try:
                        state.apply(action, seat)
                    except IllegalAction as exc:
                        assert str(exc) == reason
                    else:  # pragma: no cover
                        raise AssertionError(f"{action} was accepted")
            assert state._position() == before, "a refused move changed the state"
            if steps % 5 == 0:
                check_view(state, seat, rng)
                copy = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
                assert copy._position() == state._position() and copy.rng.state == state.rng.state
        state.apply(rng.choice(legal), seat)
        assert all(a <= b for a, b in zip(state.hp, hp)), "hit points rose"
        hp = list(state.hp)
    check_cards(state)
    assert state.legal_actions() == [] and state.current_seats() == ()
    if not state.solo:
        assert state.winners()
    return state


@given(OPTIONS, st.integers(0, 2**32))
def test_random_games_keep_every_invariant(options, seed):
    run(options, seed, deep=True)


@given(OPTIONS, st.integers(0, 2**32))
def test_same_seed_same_game_and_chance_is_honest(options, seed):
    a = run(options, seed, deep=False)
    b = run(options, seed, deep=False)
    assert a.history == b.history and a._position() == b._position()
    # replay the same game with explicit chance, checking each chance node's distribution
    explicit = GAME.new_initial_state(options, seed=None)
    for seat, action in a.history:
        if seat == CHANCE:
            outcomes = explicit.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            assert all(p > 0 for _, p in outcomes)
            assert action in [o for o, _ in outcomes]
        explicit.apply(action, seat)
        copy = GAME.state_from_json(json.loads(json.dumps(explicit.to_json())))  # chance nodes too
        assert copy._position() == explicit._position()
    assert explicit._position() == a._position()


@given(OPTIONS, st.integers(0, 2**32), st.integers(0, 400))
def test_json_round_trip_continues_identically(options, seed, cut):
    state = GAME.new_initial_state(options, seed=seed)
    rng = Rng(seed)
    for _ in range(cut):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    copy = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    assert copy.to_json() == state.to_json()
    for seat in range(GAME.num_seats(state.options)):
        assert copy.observation(seat) == state.observation(seat)
    r1, r2 = Rng(1), Rng(1)
    while not state.is_terminal():
        state.apply(r1.choice(state.legal_actions()))
        copy.apply(r2.choice(copy.legal_actions()))
    assert copy.to_json() == state.to_json()
    clone_check = state.clone()
    assert clone_check._position() == state._position()
