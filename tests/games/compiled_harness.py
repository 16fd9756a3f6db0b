"""Shared checks that a game's compiled playouts play exactly the Python engine's games.

Each game's ``test_compiled.py`` calls these with its options. A state is checked by playing it
out both ways from the same generators and comparing everything the playout leaves: the
decisions made, whether it finished, scores and returns, both generators' final states, and the
whole final position (the compiled arrays against the Python final state packed the same way).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from ludus.agents.base import make_agent
from ludus.agents.ismcts import ISMCTSAgent
from ludus.core.compiled import CHANCE_RNG, POLICY_RNGS, ROLLOUT, CompiledPlayouts
from ludus.core.game import CHANCE, Action, Game, SeatView, State
from ludus.core.playout import Policy, playout
from ludus.core.rng import Rng


def random_prefix(game: Game, options: Any, seed: int, max_decisions: int) -> State:
    """A seeded game played on at random for 0 to ``max_decisions`` decisions (never over)."""
    rng = Rng(seed ^ 0x5EED)
    state = game.new_initial_state(options, seed=seed)
    for _ in range(rng.below(max_decisions + 1)):
        seats = state.current_seats()
        if not seats:
            break
        seat = seats[0]
        legal = state.legal_actions(seat)
        state.apply(legal[rng.below(len(legal))], seat)
    return state


def determinization(state: State, seed: int) -> State | None:
    """What a search bot plays out: a state sampled from one seat's view (None at the end)."""
    seats = [s for s in state.current_seats() if s != CHANCE]
    if not seats:
        return None
    view = state.view(seats[0])
    return state.game.sample_state(view, Rng(seed))


def policy_seed(seat: int) -> int:
    """The seed of ``seat``'s rollout agent in an ``ISMCTSAgent(seed=0)``."""
    return Rng(seat + 1).next_u64()


def heuristic_policy(game: Game, options: Any, agents: dict[int, Any] | None = None) -> Policy:
    """The game's heuristic as an ISMCTS bot's rollouts play it (one agent per seat, seeded as
    ``ISMCTSAgent(seed=0)`` seeds them); ``agents`` collects them, to read their generators."""
    made: dict[int, Any] = {} if agents is None else agents

    def policy(state: State, seat: int, legal: Sequence[Action]) -> Action:
        if seat not in made:
            made[seat] = make_agent("heuristic", game, seed=policy_seed(seat))
        return made[seat].act(SeatView(game, options, seat, state.observation(seat), tuple(legal), ()))

    return policy


def assert_same_playout(
    compiled: CompiledPlayouts, state: State, seed: int, max_decisions: int | None = None, policy: str = "random"
) -> int:
    """Play ``state`` out with ``policy`` in Python and compiled from the same generators; assert
    they match in every respect (for the heuristic policy, the seats' agents' generators too).
    Returns the number of decisions played."""
    n = state.num_seats()
    agent_states = [Rng(policy_seed(seat)).state for seat in range(n)] if policy != "random" else []
    packed = compiled.pack(state)
    assert packed is not None, "the compiled playouts refuse a state the engine gave"
    rngs = np.array([Rng(seed).state, 0 if state.rng is None else state.rng.state, *agent_states], dtype=np.uint64)
    cut = -1 if max_decisions is None else max_decisions
    out = compiled.run(packed, rngs, state.rng is not None, compiled.policies.index(policy), cut).tolist()
    wrapper_rngs = [Rng(policy_seed(seat)) for seat in range(n)] if policy != "random" else []
    again = compiled.playout(state, Rng(seed), policy, max_decisions, wrapper_rngs)  # the public wrapper

    python_state, rng = state.clone(), Rng(seed)
    agents: dict[int, Any] = {}
    python_policy = None if policy == "random" else heuristic_policy(state.game, state.options, agents)
    expected = playout(python_state, rng, python_policy, max_decisions)
    assert out[0] == expected.decisions
    assert bool(out[1]) == expected.finished
    assert tuple(out[2 : 2 + n]) == expected.scores
    assert tuple(out[2 + n :]) == expected.returns
    assert int(rngs[ROLLOUT]) == rng.state
    if python_state.rng is not None:
        assert int(rngs[CHANCE_RNG]) == python_state.rng.state
    for seat in range(len(agent_states)):  # an agent that never decided kept its first state
        want = agents[seat].rng.state if seat in agents else agent_states[seat]
        assert int(rngs[POLICY_RNGS + seat]) == want
        assert wrapper_rngs[seat].state == want
    final = compiled.pack(python_state)
    assert final is not None
    for got, want_array in zip(packed, final):
        assert np.array_equal(got, want_array), "the compiled final position differs from the engine's"
    assert again == expected
    return expected.decisions


def check_game(
    compiled: CompiledPlayouts,
    game: Game,
    options_list: Sequence[Any],
    games_per_option: int,
    prefix: int = 60,
    cuts: Sequence[int | None] = (None,),
    policy: str = "random",
) -> int:
    """For each options and seed: a seeded state after a random prefix, and a determinization of
    it, each played out both ways. Returns the total decisions compared (so a test can say it
    compared real games, not empty ones)."""
    total = 0
    for options in options_list:
        for i in range(games_per_option):
            state = random_prefix(game, options, 1000 * i + 17, prefix)
            cut = cuts[i % len(cuts)]
            total += assert_same_playout(compiled, state, 7 * i + 1, cut, policy)
            sample = determinization(state, 31 * i + 5)
            if sample is not None:
                total += assert_same_playout(compiled, sample, 11 * i + 3, cut, policy)
    return total


def seeded_views(game: Game, options: Any, count: int, prefix: int = 30) -> Iterator[Any]:
    """Seat views from random seeded games, for comparing searches."""
    for i in range(count):
        state = random_prefix(game, options, 555 + i, prefix)
        seats = [s for s in state.current_seats() if s != CHANCE]
        if seats and len(state.legal_actions(seats[0])) > 1:
            yield state.view(seats[0])


def assert_same_search(game: Game, options: Any, views: int = 4, **settings: Any) -> None:
    """ISMCTS with compiled playouts finds exactly the statistics it finds in Python."""
    compared = 0
    for view in seeded_views(game, options, views):
        fast = ISMCTSAgent(seed=3, compiled=True, **settings).search(view)
        slow = ISMCTSAgent(seed=3, compiled=False, **settings).search(view)
        assert fast == slow
        compared += 1
    assert compared, "no view with a choice to compare"


# --------------------------------------------------------------------------- whole games of agents
def agents_game(state: State, kinds: Sequence[str], seeds: Sequence[int]) -> tuple[State, list[Any], int]:
    """The Python reference for ``play_agents``: ``state`` (a clone) played to the end as a
    tournament plays it, ``make_agent(kinds[seat], game, seeds[seat])`` choosing every move of its
    seat. Returns the final state, the agents and the number of decisions."""
    game = state.game
    agents = [make_agent(kind, game, seed=seed) for kind, seed in zip(kinds, seeds)]
    state = state.clone()
    decisions = 0
    while True:
        seats = state.current_seats()
        if not seats:
            return state, agents, decisions
        seat = seats[0]
        assert seat != CHANCE, "a seeded state settles its own chance"
        state.apply(agents[seat].act(state.view(seat)), seat)
        decisions += 1


def assert_same_agents_game(
    compiled: CompiledPlayouts, state: State, kinds: Sequence[str], seeds: Sequence[int]
) -> int:
    """``state`` played to the end by agents of ``kinds`` in Python and compiled; assert the same
    decisions, scores, returns, metrics, agents' generators and final position. Returns the
    number of decisions."""
    from ludus.sim.scenarios import game_metrics

    n = state.num_seats()
    packed = compiled.pack(state)
    assert packed is not None, "the compiled agents refuse a state the engine gave"
    rngs = np.array([0, 0 if state.rng is None else state.rng.state, *(Rng(s).state for s in seeds)], dtype=np.uint64)
    codes = np.array([compiled.agent_kinds.index(kind) for kind in kinds], dtype=np.int64)
    out = compiled.run_agents(packed, rngs, state.rng is not None, codes).tolist()
    wrapper_rngs = [Rng(s) for s in seeds]
    again = compiled.play_agents(state, kinds, wrapper_rngs)  # the public wrapper

    final, agents, decisions = agents_game(state, kinds, seeds)
    assert out[0] == decisions
    assert out[1] == 1.0
    assert tuple(out[2 : 2 + n]) == tuple(float(x) for x in final.scores())
    assert tuple(out[2 + n :]) == tuple(final.returns())
    if final.rng is not None:
        assert int(rngs[CHANCE_RNG]) == final.rng.state
    for seat in range(n):
        assert int(rngs[POLICY_RNGS + seat]) == agents[seat].rng.state
        assert wrapper_rngs[seat].state == agents[seat].rng.state
    packed_final = compiled.pack(final)
    assert packed_final is not None
    for got, want_array in zip(packed, packed_final):
        assert np.array_equal(got, want_array), "the compiled final position differs from the engine's"
    assert compiled.metrics(packed) == game_metrics(final)
    assert again is not None
    assert (again.scores, again.returns, again.decisions, again.metrics) == (
        tuple(out[2 : 2 + n]), tuple(final.returns()), decisions, game_metrics(final))
    return decisions


def check_agents(
    compiled: CompiledPlayouts,
    game: Game,
    options_list: Sequence[Any],
    games_per_option: int,
    lineups: Sequence[Sequence[str]] | None = None,
    prefix: int = 0,
) -> int:
    """Whole games of every lineup (default: all random, all heuristic, and the two mixed
    alternately) from seeded states after a random prefix of up to ``prefix`` decisions (0: the
    opening, as tournaments play). Returns the total decisions compared."""
    total = 0
    for options in options_list:
        n = game.num_seats(options)
        default = [["random"] * n, ["heuristic"] * n, [("heuristic", "random")[s % 2] for s in range(n)],
                   [("random", "heuristic")[s % 2] for s in range(n)]]
        sets = [list(k) for k in (lineups or default) if all(kind in compiled.agent_kinds for kind in k)]
        assert sets, "no lineup the compiled agents play"
        for i in range(games_per_option):
            state = random_prefix(game, options, 1000 * i + 23, prefix)
            kinds = sets[i % len(sets)]
            seeds = [Rng(977 * i + s).next_u64() for s in range(n)]
            total += assert_same_agents_game(compiled, state, kinds, seeds)
    return total


def assert_same_tournament_games(monkeypatch: Any, game: str, options: Any, agents: str, games: int,
                                 seed: int) -> list[Any]:
    """``play_game`` gives the same results with the compiled agents as through the Python engine
    (``LUDUS_COMPILED=0``), and with them makes no Python agent at all; returns the results."""
    from ludus.sim import tournament

    spec = tournament.make_spec(game, options, agents, games=games, seed=seed)

    def no_python_agents(*args: object, **kw: object) -> object:
        raise AssertionError("the compiled tournament made a Python agent")

    monkeypatch.setenv("LUDUS_COMPILED", "1")
    with monkeypatch.context() as patch:
        patch.setattr(tournament, "make_agent", no_python_agents)
        fast = [tournament.play_game(spec, i) for i in range(spec.games)]
    monkeypatch.setenv("LUDUS_COMPILED", "0")
    slow = [tournament.play_game(spec, i) for i in range(spec.games)]
    assert fast == slow
    return fast
