"""Our ISMCTS against OpenSpiel's ISMCTS, both playing our games through the OpenSpiel bridge.

The anchor asked for in issue 6, split in two as issue 17 asks, because the two questions
have different answers:

* ``--mode simulations`` (**the algorithm**): both searches get the same number of
  simulations per move (``--simulations N``): ours is ``ISMCTSAgent(iterations=N)``, OpenSpiel's
  ``ISMCTSBot`` runs ``N`` simulations (each one resample, one descent, one rollout; a paired
  root counts one rollout per iteration, as OpenSpiel does). Time does not enter, so the
  bridge's cost does not either: this compares the search algorithms (and the rollout
  policies, unless ``--rollout random``, which gives both sides random rollouts).
* ``--mode time`` (**the whole system**): both get the same wall-clock time per move
  (``--seconds T``). Ours searches native Ludus states; OpenSpiel's search, written in
  Python, plays our game through the Python bridge, so it runs far fewer simulations in the
  same time. This measures what a user of each library gets in that time, bridge included.
* ``--mode both`` runs both. Every run also prints **the bridge's cost**: how much longer a
  random playout takes through the bridge, the way OpenSpiel's evaluator plays it, than the
  native playout our ISMCTS uses (and the steps in between), and the seconds per simulation
  each side spent in the games played.

Seating:

* Gorus Maximus, 4 players (individual play): two seats ours, two theirs. Each block of
  games uses one chance seed and all six ways to place our two bots among the four seats,
  so every seat and every turn-order neighbourhood is played equally by both sides, and the
  deals are the same across the block.
* Gladius, 2 players: each block plays one seed twice, our bot as fighter 1 and as fighter 2.

Budgets: ours has the medium level's other settings for the game (rollout policy, score
weight, paired root; ``--rollout`` overrides the policy, ``--plain`` makes ours a plain UCB
tree rewarded by the win share alone, the variant OpenSpiel implements); OpenSpiel's bot resamples with
``resample_from_infostate`` every simulation and evaluates with its random-rollout evaluator
(its time limit replaces the simulation count in its own ``run_search``). A move with one
legal action is played at once by both. OpenSpiel's C++ ISMCTS cannot be used: it cannot
call a Python game's resampler (see ``docs/interop.md``).

Reported: our win share (shared wins split; in Gorus Maximus a side's share is the sum over
its two seats, 0.5 = equal strength) with a 95% confidence interval over blocks
(Student t on block means, since games of a block share deals), the mean number of
simulations each side ran per searched move, and each side's seconds per simulation.

    python benchmarks/openspiel_anchor.py --game gladius --mode simulations --simulations 30 --blocks 10 \
        --rollout random --plain
    python benchmarks/openspiel_anchor.py --game gorus-maximus --mode time --seconds 0.1 --blocks 10
    python benchmarks/openspiel_anchor.py --game gorus-maximus --mode none     # the bridge's cost only
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

SETUPS: dict[str, dict[str, Any]] = {
    "gorus-maximus": {"options": {"players": 4}, "ours": 2},
    "gladius": {"options": {}, "ours": 1},
}


def arrangements(players: int, ours: int) -> list[tuple[int, ...]]:
    """Every choice of seats for our bots (``ours`` of ``players``)."""
    return list(itertools.combinations(range(players), ours))


@dataclass
class GameResult:
    block: int
    our_seats: tuple[int, ...]
    our_share: float
    our_iterations: list[int]
    their_simulations: list[int]
    our_search_seconds: float
    their_search_seconds: float
    seconds: float


def _openspiel_bot(game: Any, seconds: float | None, simulations: int | None, uct_c: float, seed: int) -> Any:
    from open_spiel.python.algorithms import ismcts, mcts

    class BudgetISMCTSBot(ismcts.ISMCTSBot):
        """OpenSpiel's ISMCTS with its simulation loop bounded by a count or by wall-clock time.

        ``run_search`` is OpenSpiel's own (reset, root node, resample, simulate, final
        policy). With a count it runs exactly that many simulations, as OpenSpiel's does;
        with a time, ``for _ in range(max_simulations)`` becomes a deadline (and at least two
        simulations: the first one only creates the root's statistics). It also records the
        simulations and the seconds of each search.
        """

        def __init__(self) -> None:
            rs = np.random.RandomState(seed)
            evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
            super().__init__(game, evaluator, uct_c, max_simulations=simulations or 1, random_state=rs)
            self.simulations: list[int] = []
            self.search_seconds = 0.0

        def run_search(self, state: Any) -> list[tuple[int, float]]:
            started = time.perf_counter()
            self.reset()
            legal = state.legal_actions()
            if len(legal) == 1:
                return [(legal[0], 1.0)]
            self._root_node = self.create_new_node(state)
            key = self.get_state_key(state)
            deadline = None if seconds is None else started + seconds
            done = 0
            while (done < simulations) if deadline is None else (done < 2 or time.perf_counter() < deadline):
                sampled = self.sample_root_state(state)
                assert key == self.get_state_key(sampled)
                self.run_simulation(sampled)
                done += 1
            self.simulations.append(done)
            policy = self.get_final_policy(state, self._root_node)
            self.search_seconds += time.perf_counter() - started
            return policy

    bot = BudgetISMCTSBot()
    sampler = pyspiel_sampler(seed)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    return bot


def pyspiel_sampler(seed: int) -> Any:
    import pyspiel

    return pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)


def play_one(game_name: str, block: int, our_seats: tuple[int, ...], seconds: float | None,
             simulations: int | None, uct_c: float, rollout: str, seed: int, plain: bool = False) -> GameResult:
    """One game; chance comes from the block's seed, so a block's games share their deals."""
    from ludus.agents.ismcts import ISMCTSAgent
    from ludus.interop import openspiel as bridge

    setup = SETUPS[game_name]
    game = bridge.load(game_name, **setup["options"])
    space = game.bridge.space
    n = game.num_players()
    variant: dict[str, Any] = {"paired": False, "score_weight": 0.0} if plain else {}
    ours = {s: ISMCTSAgent(seed * 100 + s, seconds=seconds, iterations=simulations,
                           rollout=None if rollout == "level" else rollout, **variant)
            for s in our_seats}
    theirs = {s: _openspiel_bot(game, seconds, simulations, uct_c, seed * 100 + s)
              for s in range(n) if s not in ours}
    chance = np.random.RandomState(seed)
    state = game.new_initial_state()
    iterations: list[int] = []
    our_seconds = 0.0
    started = time.perf_counter()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(actions[chance.choice(len(actions), p=probs)]))
            continue
        seat = state.current_player()
        if seat in ours:
            view = state.ludus_state.view(seat)
            agent = ours[seat]
            agent.last_iterations = 0
            t = time.perf_counter()
            move = agent.act(view)
            if len(view.legal_actions) > 1:
                our_seconds += time.perf_counter() - t
                iterations.append(agent.last_iterations)
            state.apply_action(space.player_id(move))
        else:
            state.apply_action(int(theirs[seat].step(state)))
    returns = state.returns()
    sims = [x for bot in theirs.values() for x in bot.simulations]
    return GameResult(block, our_seats, sum(returns[s] for s in our_seats), iterations, sims, our_seconds,
                      sum(bot.search_seconds for bot in theirs.values()), time.perf_counter() - started)


def t_interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and 95% Student-t interval, cut to [0, 1] (the range of a win share)."""
    from scipy import stats

    m = statistics.fmean(values)
    if len(values) < 2:
        return m, 0.0, 1.0
    half = stats.t.ppf(0.975, len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return m, max(0.0, m - half), min(1.0, m + half)


def run(game_name: str, blocks: int, seconds: float | None, simulations: int | None, uct_c: float,
        rollout: str, seed: int, workers: int, plain: bool = False) -> dict[str, Any]:
    setup = SETUPS[game_name]
    from ludus.games import get_game

    n = get_game(game_name).num_seats(get_game(game_name).parse_options(setup["options"]))
    jobs = [(game_name, b, seats, seconds, simulations, uct_c, rollout, seed + b, plain)
            for b in range(blocks) for seats in arrangements(n, setup["ours"])]
    started = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(play_one, *zip(*jobs)))
    else:
        results = [play_one(*job) for job in jobs]
    by_block: dict[int, list[float]] = {}
    for r in results:
        by_block.setdefault(r.block, []).append(r.our_share)
    mean, lo, hi = t_interval([statistics.fmean(v) for v in by_block.values()])
    our_iters = [x for r in results for x in r.our_iterations]
    their_sims = [x for r in results for x in r.their_simulations]
    our_time = sum(r.our_search_seconds for r in results)
    their_time = sum(r.their_search_seconds for r in results)
    return {
        "game": game_name,
        "options": setup["options"],
        "mode": "time" if simulations is None else "simulations",
        "games": len(results),
        "blocks": blocks,
        "seconds_per_move": seconds,
        "simulations_per_move": simulations,
        "our_rollout": rollout,
        "our_search": "plain UCB tree, win share only" if plain else "level",
        "openspiel_uct_c": uct_c,
        "our_win_share": mean,
        "ci95": [lo, hi],
        "our_iterations_per_move": statistics.fmean(our_iters) if our_iters else 0.0,
        "openspiel_simulations_per_move": statistics.fmean(their_sims) if their_sims else 0.0,
        "our_ms_per_iteration": 1e3 * our_time / max(1, sum(our_iters)),
        "openspiel_ms_per_simulation": 1e3 * their_time / max(1, sum(their_sims)),
        "wall_seconds": time.perf_counter() - started,
        "results": [asdict(r) for r in results],
    }


# --------------------------------------------------------------------------- the bridge's cost
def bridge_cost(game_name: str, games: int, seed: int) -> dict[str, float]:
    """Milliseconds per whole random game from the start, four ways, on the same machine and run.

    * ``native_seeded``: a seeded Ludus state, chance settled inside ``apply`` (what our
      ISMCTS's rollouts play: its determinizations carry a generator);
    * ``native_explicit``: a Ludus state with explicit chance (``seed=None``), each chance
      step taken with ``sample_chance``;
    * ``bridge``: the bridge's OpenSpiel state from Python (``chance_outcomes`` and
      ``legal_actions`` + ``apply_action``), uniform picks from ``random.Random``;
    * ``openspiel_evaluator``: OpenSpiel's ``RandomRolloutEvaluator.evaluate`` on the bridge's
      initial state, which is how OpenSpiel's ISMCTS rolls out (a clone, numpy's weighted
      choice for every chance step and every move).

    The four are interleaved, ``games`` games each per repeat, over five repeats (medians),
    timed in this process's CPU time (one thread each), which other jobs on a shared machine
    disturb less than wall-clock time.
    """
    from open_spiel.python.algorithms import mcts

    from ludus.core.game import CHANCE
    from ludus.core.rng import Rng
    from ludus.games import get_game
    from ludus.interop import openspiel as bridge

    options = SETUPS[game_name]["options"]
    ludus_game = get_game(game_name)
    opts = ludus_game.parse_options(options)
    os_game = bridge.load(game_name, **options)

    def native(rng: random.Random, game_seed: int | None) -> None:
        state = ludus_game.new_initial_state(opts, seed=game_seed)
        chance = Rng(rng.getrandbits(64))
        while True:
            seats = state.current_seats()
            if not seats:
                return
            seat = seats[0]
            if seat == CHANCE:
                state.apply(state.sample_chance(chance), CHANCE)
                continue
            if len(seats) > 1:
                seat = min(seats)
            legal = state.legal_actions(seat)
            state.apply(legal[rng.randrange(len(legal))], seat)

    def through_bridge(rng: random.Random) -> None:
        state = os_game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])

    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    initial = os_game.new_initial_state()
    ways: dict[str, Any] = {
        "native_seeded": lambda rng, i: native(rng, seed * 1_000_003 + i),
        "native_explicit": lambda rng, i: native(rng, None),
        "bridge": lambda rng, i: through_bridge(rng),
        "openspiel_evaluator": lambda rng, i: evaluator.evaluate(initial),
    }
    times: dict[str, list[float]] = {k: [] for k in ways}
    for repeat in range(5):
        for name, fn in ways.items():
            rng = random.Random(seed + repeat)
            t = time.process_time()
            for i in range(games):
                fn(rng, repeat * games + i)
            times[name].append(1e3 * (time.process_time() - t) / games)
    return {k: statistics.median(v) for k, v in times.items()}


def print_bridge_cost(game_name: str, games: int, seed: int) -> dict[str, float]:
    ms = bridge_cost(game_name, games, seed)
    base = ms["native_seeded"]
    print(f"\nthe bridge's cost, {game_name} {SETUPS[game_name]['options'] or ''}: ms per random game from the start "
          f"(CPU time, median of 5 repeats of {games} games), and against the native seeded game:")
    for k, v in ms.items():
        print(f"  {k:20} {v:8.2f} ms  {v / base:6.1f}x")
    print(f"  the bridge alone (bridge / native_explicit): {ms['bridge'] / ms['native_explicit']:.1f}x; "
          f"OpenSpiel's evaluator over the bare bridge loop: {ms['openspiel_evaluator'] / ms['bridge']:.1f}x")
    return ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=[*SETUPS, "all"], default="all")
    parser.add_argument("--mode", choices=("simulations", "time", "both", "none"), default="both",
                        help="equal simulations per move (the algorithm), equal time (the whole system), "
                             "both, or none (only the bridge's cost)")
    parser.add_argument("--blocks", type=int, default=10, help="seeds; each plays every seat arrangement")
    parser.add_argument("--seconds", type=float, default=0.1, help="--mode time: wall-clock seconds per searched move")
    parser.add_argument("--simulations", type=int, default=30,
                        help="--mode simulations: simulations (our iterations) per searched move")
    parser.add_argument("--uct-c", type=float, default=1.0, help="OpenSpiel ISMCTS exploration (rewards in [0, 1])")
    parser.add_argument("--rollout", choices=("level", "heuristic", "random"), default="level",
                        help="our ISMCTS rollout policy; 'level': the shipped level's settings for the game "
                             "(OpenSpiel's evaluator always rolls out at random)")
    parser.add_argument("--plain", action="store_true",
                        help="our search as a plain UCB tree rewarded by the win share alone (no paired root, "
                             "no score weight): the variant OpenSpiel's ISMCTS implements")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--cost-games", type=int, default=10,
                        help="games per repeat when measuring the bridge's cost (0: skip it)")
    parser.add_argument("--json", help="also write the full results here")
    args = parser.parse_args()
    names = list(SETUPS) if args.game == "all" else [args.game]
    budgets: list[tuple[str, float | None, int | None]] = []
    if args.mode in ("simulations", "both"):
        budgets.append((f"equal simulations ({args.simulations}/move): the algorithm", None, args.simulations))
    if args.mode in ("time", "both"):
        budgets.append((f"equal time ({args.seconds:g} s/move): the whole system, bridge included",
                        args.seconds, None))
    out: list[dict[str, Any]] = []
    for what, seconds, simulations in budgets:
        print(f"\n{what}")
        print(f"{'game':15} {'games':>5} {'ours: win share':>16} {'95% CI':>17} {'our it/move':>12} "
              f"{'OS sims/move':>13} {'our ms/it':>10} {'OS ms/sim':>10} {'wall s':>7}")
        for name in names:
            r = run(name, args.blocks, seconds, simulations, args.uct_c, args.rollout, args.seed, args.workers,
                    args.plain)
            out.append(r)
            lo, hi = r["ci95"]
            print(f"{name:15} {r['games']:5d} {r['our_win_share']:16.3f} {f'[{lo:.3f}, {hi:.3f}]':>17} "
                  f"{r['our_iterations_per_move']:12.1f} {r['openspiel_simulations_per_move']:13.1f} "
                  f"{r['our_ms_per_iteration']:10.2f} {r['openspiel_ms_per_simulation']:10.2f} "
                  f"{r['wall_seconds']:7.0f}", flush=True)
    costs = {name: print_bridge_cost(name, args.cost_games, args.seed) for name in names} if args.cost_games else {}
    load = os.getloadavg()
    print(f"\nload average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"runs": out, "bridge_cost_ms": costs, "load_at_end": load}, f, indent=1)


if __name__ == "__main__":
    main()
