"""Compiled playouts against the Python engine: random-playout decisions a second, and ISMCTS.

Per game that has compiled playouts (``Game.compiled_playouts``), with the options below:

* **playouts**: the same start states played to the end by :func:`ludus.core.playout.playout`
  (the Python engine, the reference) and by the compiled playout (``CompiledPlayouts.playout``:
  packing the state, the compiled run, and unpacking the result, everything a bot pays). Half the
  start states are new seeded games, half determinizations sampled from a seat's view after a
  random prefix (what a search bot plays out). Both sides play exactly the same games (the same
  decisions, checked here on every state), so the ratio is equal work. ``--policy heuristic``
  plays each seat's heuristic agent instead of random moves, as the search bots of the games
  whose levels roll out with it do. "run only" times the
  compiled run on states packed beforehand, to show what packing costs.
* **search**: an ISMCTS bot at the game's own level budget (iterations), on the same seat views,
  with ``compiled=True`` and ``compiled=False``; both find the same statistics (checked), so the
  ratio is the search's speed-up at equal work.

Rounds alternate the two sides; each figure is the median over ``--rounds``, with the range of the
ratio. The first compiled call of each game compiles it, or loads numba's disk cache: its time is
reported apart and not counted.

    python benchmarks/rollouts.py [--games gorus-maximus,gladius] [--states 200] [--rounds 5] [--level medium]
                                  [--policy random|heuristic]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Any

from ludus.agents.base import make_agent
from ludus.agents.ismcts import ISMCTSAgent
from ludus.core.compiled import available, compile_report
from ludus.core.game import CHANCE, Game, SeatView, State
from ludus.core.playout import playout
from ludus.core.rng import Rng
from ludus.games import game_names, get_game

DEFAULT_OPTIONS: dict[str, dict[str, Any]] = {"gorus-maximus": {"players": 4}}


def played_on(state: State, rng: Rng, most: int) -> State:
    """``state`` after 0 to ``most`` random decisions (fewer where the game ends)."""
    for _ in range(rng.below(most + 1)):
        seats = state.current_seats()
        if not seats:
            break
        legal = state.legal_actions(seats[0])
        state.apply(legal[rng.below(len(legal))], seats[0])
    return state


def start_states(game: Game, options: Any, count: int, seed: int) -> list[State]:
    """Half new seeded games, half determinizations after a random prefix of up to 40 decisions."""
    rng = Rng(seed)
    states: list[State] = []
    while len(states) < count:
        fresh = game.new_initial_state(options, seed=rng.next_u64())
        states.append(fresh)
        state = played_on(fresh.clone(), rng, 40)
        deciding = [s for s in state.current_seats() if s != CHANCE]
        if deciding:
            states.append(game.sample_state(state.view(deciding[0]), rng))
    return states[:count]


def views(game: Game, options: Any, count: int, seed: int) -> list[SeatView]:
    rng, out = Rng(seed), list[SeatView]()
    while len(out) < count:
        state = played_on(game.new_initial_state(options, seed=rng.next_u64()), rng, 29)
        deciding = [s for s in state.current_seats() if s != CHANCE]
        if deciding and len(state.legal_actions(deciding[0])) > 1:
            out.append(state.view(deciding[0]))
    return out


def agent_rngs(state: State) -> list[Rng]:
    """The rollout agents' generators, one per seat, as a bot with seed 0 starts them."""
    return [Rng(Rng(seat + 1).next_u64()) for seat in range(state.num_seats())]


def heuristic_policy(game: Game, options: Any, rngs: list[Rng]) -> Any:
    """The game's heuristic as a search bot's rollouts play it: one agent per seat, on ``rngs``."""
    agents = []
    for seat, rng in enumerate(rngs):
        agent = make_agent("heuristic", game, seed=seat)
        agent.rng = rng
        agents.append(agent)

    def policy(state: State, seat: int, legal: Any) -> Any:
        return agents[seat].act(SeatView(game, options, seat, state.observation(seat), tuple(legal), ()))

    return policy


def python_playouts(states: list[State], policy: str) -> tuple[float, list[int]]:
    counts = []
    start = time.perf_counter()
    for i, state in enumerate(states):
        rule = None if policy == "random" else heuristic_policy(state.game, state.options, agent_rngs(state))
        counts.append(playout(state.clone(), Rng(i), rule).decisions)
    return time.perf_counter() - start, counts


def compiled_playouts(game: Game, states: list[State], policy: str) -> tuple[float, list[int]]:
    compiled = game.compiled_playouts()
    assert compiled is not None
    counts = []
    start = time.perf_counter()
    for i, state in enumerate(states):
        rngs = [] if policy == "random" else agent_rngs(state)
        result = compiled.playout(state, Rng(i), policy, None, rngs)
        assert result is not None, "a state the compiled playouts do not handle"
        counts.append(result.decisions)
    return time.perf_counter() - start, counts


def run_only(game: Game, states: list[State], policy: str) -> float:
    import numpy as np

    compiled = game.compiled_playouts()
    assert compiled is not None
    jobs = []
    for i, state in enumerate(states):
        packed = compiled.pack(state)
        assert packed is not None
        agents = [] if policy == "random" else [r.state for r in agent_rngs(state)]
        rngs = np.array([Rng(i).state, 0 if state.rng is None else state.rng.state, *agents], dtype=np.uint64)
        jobs.append((packed, rngs, state.rng is not None))
    code = compiled.policies.index(policy)
    start = time.perf_counter()
    for packed, rngs, has_rng in jobs:
        compiled.run(packed, rngs, has_rng, code, -1)
    return time.perf_counter() - start


def search_seconds(seat_views: list[SeatView], compiled: bool, level: str) -> tuple[float, list[Any]]:
    found = []
    start = time.perf_counter()
    for view in seat_views:
        agent = ISMCTSAgent(seed=1, compiled=compiled)
        agent.level = level
        found.append(agent.search(view))
    return time.perf_counter() - start, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="", help="comma-separated (default: every game with compiled playouts)")
    parser.add_argument("--options", default="", help="JSON options for every game (default: 4-player Gorus Maximus)")
    parser.add_argument("--states", type=int, default=200)
    parser.add_argument("--views", type=int, default=4, help="seat views searched per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--level", default="medium", choices=["easy", "medium", "hard"])
    parser.add_argument("--policy", default="random", choices=["random", "heuristic"],
                        help="the playouts' policy (heuristic: each seat's heuristic agent, as search bots roll out)")
    args = parser.parse_args()
    if not available():
        raise SystemExit("compiled playouts are not available here (numba missing or LUDUS_COMPILED=0)")
    names = args.games.split(",") if args.games else [
        n for n in game_names() if (c := get_game(n).compiled_playouts()) and args.policy in c.policies
    ]
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for name in names:
        game = get_game(name)
        options = game.parse_options(json.loads(args.options) if args.options else DEFAULT_OPTIONS.get(name, {}))
        compiled = game.compiled_playouts()
        assert compiled is not None, f"{name} has no compiled playouts"
        warm = start_states(game, options, 1, 0)
        compiled.playout(warm[0], Rng(0))  # the first call compiles (or loads the disk cache)
        print(f"\n{name} {json.dumps(args.options or DEFAULT_OPTIONS.get(name, {}))}: first compiled call "
              f"{compile_report().get(name, 0.0):.2f} s (compile or cache load, not counted)")
        py_rates, c_rates, run_rates, ratios, s_ratios = [], [], [], [], []
        for r in range(args.rounds):
            states = start_states(game, options, args.states, 1000 + r)
            py_t, py_counts = python_playouts(states, args.policy)
            c_t, c_counts = compiled_playouts(game, states, args.policy)
            assert py_counts == c_counts, "the compiled playouts played other games"
            decisions = sum(py_counts)
            run_t = run_only(game, states, args.policy)
            py_rates.append(decisions / py_t)
            c_rates.append(decisions / c_t)
            run_rates.append(decisions / run_t)
            ratios.append(py_t / c_t)
            seat_views = views(game, options, args.views, 2000 + r)
            slow_t, slow = search_seconds(seat_views, False, args.level)
            fast_t, fast = search_seconds(seat_views, True, args.level)
            assert slow == fast, "the search found other statistics with compiled playouts"
            s_ratios.append(slow_t / fast_t)
        med = statistics.median
        spread = f"range {min(ratios):.1f}–{max(ratios):.1f}"
        print(f"  {args.policy} playouts, decisions/s: python {med(py_rates):,.0f}  compiled {med(c_rates):,.0f}"
              f"  (run only {med(run_rates):,.0f})  ratio {med(ratios):.1f}× ({spread})")
        print(f"  ISMCTS {args.level}, {args.views} views a round: compiled is {med(s_ratios):.2f}× faster"
              f" (range {min(s_ratios):.2f}–{max(s_ratios):.2f}), same statistics")
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
