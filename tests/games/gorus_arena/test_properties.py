"""Properties over random Gorus Arena games: invariants, determinism, no leaks, determinization."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ludus.core.bits import bits_list
from ludus.core.errors import IllegalAction
from ludus.core.frozen import same_as_constructed
from ludus.core.game import CHANCE, HIDDEN
from ludus.core.rng import Rng
from ludus.games.gorus_arena.actions import ATTACK, DONE, PASS, PLACE, RECRUIT, Place
from ludus.games.gorus_arena.cards import KINDS, NUM_CARDS, basics_of
from ludus.games.gorus_arena.game import GAME
from ludus.games.gorus_arena.options import (
    ATTACK_TARGETS,
    AUCTIONS,
    DEFENCE_TIMINGS,
    REFILLS,
    STARTS,
    TIE_BREAKS,
    TIE_RESOLUTIONS,
    USED_CARDS,
)

options = st.fixed_dictionaries({
    "players": st.integers(2, 5),
    "auction": st.sampled_from(AUCTIONS),
    "defence_timing": st.sampled_from(DEFENCE_TIMINGS),
    "attack_targets": st.sampled_from(ATTACK_TARGETS),
    "free_plan": st.booleans(),
    "starting_player": st.sampled_from(STARTS),
    "tie_resolution": st.sampled_from(TIE_RESOLUTIONS),
    "tie_break": st.sampled_from(TIE_BREAKS),
    "armoury": st.booleans(),
    "rounds": st.integers(1, 7),
    "used_cards": st.sampled_from(USED_CARDS),
    "refill": st.sampled_from(REFILLS),
})


def check_invariants(state) -> None:
    """Every card in play is in exactly one place; counts and limits hold."""
    n = state.n
    places = [state.market, state.dead]
    for s in range(n):
        places += [state.hand[s], state.deck[s], state.discard[s], sum(1 << c for c in state.plan[s])]
        places.append(sum(1 << c for c in state.arena[s] if not state.dead >> c & 1))
    union = 0
    for mask in places:
        assert union & mask == 0, "a card lies in two places"
        union |= mask
    in_play = sum(basics_of(s) for s in range(n)) | GAME.new_initial_state(
        {"players": n, "armoury": state.options.armoury}, seed=0).market
    assert union == in_play
    for s in range(n):
        assert state.coins[s] >= 0
        assert state.hand[s].bit_count() <= 5
        assert len(state.plan[s]) + len(state.arena[s]) <= 5


def random_game(opts: dict, seed: int, check=None):
    state = GAME.new_initial_state(opts, seed=seed)
    rng = Rng(seed + 1)
    while not state.is_terminal():
        if check:
            check(state, rng)
        seat = rng.choice(state.current_seats())
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    return state


@given(opts=options, seed=st.integers(0, 2**32))
def test_random_games_end_and_keep_every_invariant(opts, seed):
    def check(state, rng):
        check_invariants(state)
        for seat in state.current_seats():
            legal = state.legal_actions(seat)
            assert legal and len(set(legal)) == len(legal)
            assert all(state.why_illegal(a, seat) is None for a in legal)
            # an illegal move is refused with a reason and changes nothing
            tries = [ATTACK[rng.below(NUM_CARDS)], RECRUIT[rng.choice(KINDS).key],
                     PLACE[rng.choice(KINDS).key], DONE, PASS]
            for action in tries:
                if action in legal:
                    continue
                before = state.to_json()
                try:
                    state.apply(action, seat)
                except IllegalAction as exc:
                    assert str(exc)
                else:
                    raise AssertionError(f"{action} was accepted though not legal")
                assert state.to_json() == before
        copy = GAME.state_from_json(state.to_json())
        assert copy.to_json() == state.to_json()
        assert copy.current_seats() == state.current_seats()

    state = random_game(opts, seed, check)
    assert state.round == opts["rounds"] and state.phase == "over"
    assert state.winners() and abs(sum(state.returns()) - 1.0) < 1e-9
    check_invariants(state)


@given(opts=options, seed=st.integers(0, 2**32))
def test_chance_nodes_are_honest_and_explicit_chance_replays_a_seeded_game(opts, seed):
    seeded = random_game(opts, seed)
    explicit = GAME.new_initial_state(opts, seed=None)
    for seat, action in seeded.history:
        if seat == CHANCE:
            outcomes = explicit.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            assert action in [a for a, _ in outcomes]
            assert explicit.sample_chance(Rng(seed)) in [a for a, _ in outcomes]
        explicit.apply(action, seat)
    assert explicit.to_json()["state"] == seeded.to_json()["state"]
    again = random_game(opts, seed)
    assert again.to_json() == seeded.to_json() and again.history == seeded.history


@given(opts=options, seed=st.integers(0, 2**32))
def test_clones_are_independent(opts, seed):
    state = GAME.new_initial_state(opts, seed=seed)
    rng = Rng(seed)
    for _ in range(30):
        if state.is_terminal():
            break
        before = state.to_json()
        copy = state.clone()
        seat = copy.current_seats()[0]
        copy.apply(rng.choice(copy.legal_actions(seat)), seat)
        assert state.to_json() == before
        state = copy


@given(opts=options, seed=st.integers(0, 2**32))
def test_a_secret_plan_never_leaks_to_another_seat(opts, seed):
    """Whatever a seat plans, every other seat (and a spectator) sees exactly the same."""

    def check(state, rng):
        if state.phase != "plan":
            return
        for actor in state.current_seats():
            # placing and stopping differ in the (public) count of face-down cards; which card
            # is placed must not show at all
            choices = [a for a in state.legal_actions(actor) if isinstance(a, Place)]
            if len(choices) < 2:
                continue
            seen = []
            for action in choices:
                copy = state.clone()
                copy.apply(action, actor)
                views = {}
                for viewer in [None, *range(state.n)]:
                    if viewer == actor:
                        continue
                    if copy.phase != "plan" or copy.round != state.round:
                        continue  # that placement completed the plans: everything is revealed
                    hist = copy.visible_history(viewer)
                    assert hist[len(state.history)] == (actor, HIDDEN)
                    views[viewer] = (copy.observation(viewer).to_json(), hist)
                seen.append(views)
            if all(v for v in seen):
                assert all(v == seen[0] for v in seen), "another seat could tell which card was planned"

    random_game(opts, seed, check)


@given(opts=options, seed=st.integers(0, 2**32))
def test_observations_show_only_the_own_hand_and_plan(opts, seed):
    def check(state, rng):
        for viewer in range(state.n):
            obs = state.observation(viewer)
            assert obs.hand == tuple(bits_list(state.hand[viewer]))
            assert obs.plan == tuple(state.plan[viewer])
            assert obs.deck == tuple(bits_list(state.deck[viewer]))
            assert same_as_constructed(obs)  # the builder fills every field, in order
        spectator = state.observation(None)
        assert spectator.hand == spectator.plan == spectator.deck == ()
        assert same_as_constructed(spectator)
        outsider = state.observation(state.n)  # an out-of-range seat sees as a spectator does
        assert same_as_constructed(outsider)
        assert outsider.hand == outsider.plan == outsider.deck == ()
        # the latest choice's log lines are public: the same count for every viewer, within the log
        steps = {state.observation(v).step_events for v in [None, *range(state.n)]}
        assert len(steps) == 1 and 0 <= spectator.step_events <= len(spectator.events)
        for viewer in [None, *range(state.n)]:
            for _i, (actor, action) in enumerate(state.visible_history(viewer)):
                if actor == CHANCE and action != HIDDEN:
                    assert action.visible_to(viewer, CHANCE)

    random_game(opts, seed, check)


@given(opts=options, seed=st.integers(0, 2**32))
def test_sample_state_never_contradicts_what_the_seat_knows(opts, seed):
    def check(state, rng):
        for seat in state.current_seats():
            if seat == CHANCE:
                continue
            view = state.view(seat)
            sampled = GAME.sample_state(view, rng)
            assert sampled.observation(seat) == view.observation
            assert tuple(sampled.legal_actions(seat)) == view.legal_actions
            assert sampled.current_seats() == state.current_seats()
            for s in range(state.n):
                assert sampled.owned(s) == state.owned(s)  # who owns what is public
            check_invariants(sampled)
            if rng.below(8) == 0:  # a determinization can be played out
                while not sampled.is_terminal():
                    who = rng.choice(sampled.current_seats())
                    sampled.apply(rng.choice(sampled.legal_actions(who)), who)

    random_game(opts, seed, check)


@given(opts=options, seed=st.integers(0, 2**32))
def test_a_reloaded_position_with_its_history_shows_the_same_histories(opts, seed):
    """Position JSON plus the history (as the OpenSpiel bridge stores a state) hides and shows
    exactly what the original does; a position reloaded without history hides new plans."""

    def check(state, rng):
        if rng.below(4):
            return
        copy = GAME.state_from_json(state.to_json())
        copy.history = list(state.history)
        for viewer in [None, *range(state.n)]:
            assert copy.visible_history(viewer) == state.visible_history(viewer)
        fresh = GAME.state_from_json(state.to_json())
        if fresh.phase == "plan":
            seat = fresh.current_seats()[0]
            fresh.apply(fresh.legal_actions(seat)[0], seat)
            if fresh.phase == "plan" and fresh.round == state.round:
                other = (seat + 1) % state.n
                assert fresh.visible_history(other)[-1] == (seat, HIDDEN)

    random_game(opts, seed, check)
