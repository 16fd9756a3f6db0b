"""Our ISMCTS against OpenSpiel's ISMCTS, both playing our games through the OpenSpiel bridge.

The anchor asked for in issue 6: at equal wall-clock time per move, does
``ludus.agents.ismcts`` beat OpenSpiel's own ISMCTS (``open_spiel.python.algorithms.ismcts``)?

* Gorus Maximus, 4 players (individual play): two seats ours, two theirs. Each block of
  games uses one chance seed and all six ways to place our two bots among the four seats,
  so every seat and every turn-order neighbourhood is played equally by both sides, and the
  deals are the same across the block.
* Gladius, 2 players: each block plays one seed twice, our bot as fighter 1 and as fighter 2.

Budgets: ours is ``ISMCTSAgent(seconds=T)`` with the medium level's other settings for the
game (rollout policy, score weight, paired root; ``--rollout`` overrides the policy); OpenSpiel's bot gets the
same ``T`` through a time-bounded ``run_search`` (OpenSpiel's only takes a simulation count), resampling with
``resample_from_infostate`` every simulation and evaluating with its random-rollout
evaluator. A move with one legal action is played at once by both. OpenSpiel's C++ ISMCTS
cannot be used: it cannot call a Python game's resampler (see ``docs/interop.md``).

Reported: our win share (shared wins split; in Gorus Maximus a side's share is the sum over
its two seats, 0.5 = equal strength) with a 95% confidence interval over blocks
(Student t on block means, since games of a block share deals), plus the mean number of
iterations each side ran per searched move.

    python benchmarks/openspiel_anchor.py --game gorus-maximus --blocks 10 --seconds 0.1
    python benchmarks/openspiel_anchor.py --game gladius --blocks 20 --seconds 0.1 --workers 2
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
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
    seconds: float


def _timed_openspiel_bot(game: Any, seconds: float, uct_c: float, seed: int) -> Any:
    from open_spiel.python.algorithms import ismcts, mcts

    class TimedISMCTSBot(ismcts.ISMCTSBot):
        """OpenSpiel's ISMCTS with its simulation loop bounded by wall-clock time.

        ``run_search`` is OpenSpiel's own (reset, root node, resample, simulate, final
        policy), with ``for _ in range(max_simulations)`` replaced by a deadline (and at least
        two simulations: the first one only creates the root's statistics).
        """

        def __init__(self) -> None:
            rs = np.random.RandomState(seed)
            evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
            super().__init__(game, evaluator, uct_c, max_simulations=1, random_state=rs)
            self.simulations: list[int] = []

        def run_search(self, state: Any) -> list[tuple[int, float]]:
            self.reset()
            legal = state.legal_actions()
            if len(legal) == 1:
                return [(legal[0], 1.0)]
            self._root_node = self.create_new_node(state)
            key = self.get_state_key(state)
            deadline = time.perf_counter() + seconds
            done = 0
            while done < 2 or time.perf_counter() < deadline:  # the first one only expands the root
                sampled = self.sample_root_state(state)
                assert key == self.get_state_key(sampled)
                self.run_simulation(sampled)
                done += 1
            self.simulations.append(done)
            return self.get_final_policy(state, self._root_node)

    bot = TimedISMCTSBot()
    sampler = pyspiel_sampler(seed)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    return bot


def pyspiel_sampler(seed: int) -> Any:
    import pyspiel

    return pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)


def play_one(game_name: str, block: int, our_seats: tuple[int, ...], seconds: float, uct_c: float,
             rollout: str, seed: int) -> GameResult:
    """One game; chance comes from the block's seed, so a block's games share their deals."""
    from ludus.agents.ismcts import ISMCTSAgent
    from ludus.interop import openspiel as bridge

    setup = SETUPS[game_name]
    game = bridge.load(game_name, **setup["options"])
    space = game.bridge.space
    n = game.num_players()
    ours = {s: ISMCTSAgent(seed * 100 + s, seconds=seconds, rollout=None if rollout == "level" else rollout)
            for s in our_seats}
    theirs = {s: _timed_openspiel_bot(game, seconds, uct_c, seed * 100 + s) for s in range(n) if s not in ours}
    chance = np.random.RandomState(seed)
    state = game.new_initial_state()
    iterations: list[int] = []
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
            move = agent.act(view)
            if len(view.legal_actions) > 1:
                iterations.append(agent.last_iterations)
            state.apply_action(space.player_id(move))
        else:
            state.apply_action(int(theirs[seat].step(state)))
    returns = state.returns()
    sims = [x for bot in theirs.values() for x in bot.simulations]
    return GameResult(block, our_seats, sum(returns[s] for s in our_seats), iterations, sims,
                      time.perf_counter() - started)


def t_interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and 95% Student-t interval."""
    from scipy import stats

    m = statistics.fmean(values)
    if len(values) < 2:
        return m, 0.0, 1.0
    half = stats.t.ppf(0.975, len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return m, m - half, m + half


def run(game_name: str, blocks: int, seconds: float, uct_c: float, rollout: str, seed: int,
        workers: int) -> dict[str, Any]:
    setup = SETUPS[game_name]
    from ludus.games import get_game

    n = get_game(game_name).num_seats(get_game(game_name).parse_options(setup["options"]))
    jobs = [(game_name, b, seats, seconds, uct_c, rollout, seed + b)
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
    return {
        "game": game_name,
        "options": setup["options"],
        "games": len(results),
        "blocks": blocks,
        "seconds_per_move": seconds,
        "our_rollout": rollout,
        "openspiel_uct_c": uct_c,
        "our_win_share": mean,
        "ci95": [lo, hi],
        "our_iterations_per_move": statistics.fmean(our_iters) if our_iters else 0.0,
        "openspiel_simulations_per_move": statistics.fmean(their_sims) if their_sims else 0.0,
        "wall_seconds": time.perf_counter() - started,
        "results": [asdict(r) for r in results],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=[*SETUPS, "all"], default="all")
    parser.add_argument("--blocks", type=int, default=10, help="seeds; each plays every seat arrangement")
    parser.add_argument("--seconds", type=float, default=0.1, help="wall-clock seconds per searched move")
    parser.add_argument("--uct-c", type=float, default=1.0, help="OpenSpiel ISMCTS exploration (rewards in [0, 1])")
    parser.add_argument("--rollout", choices=("level", "heuristic", "random"), default="level",
                        help="our ISMCTS rollout policy; 'level': the shipped level's settings for the game "
                             "(OpenSpiel's evaluator always rolls out at random)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", help="also write the full results here")
    args = parser.parse_args()
    names = list(SETUPS) if args.game == "all" else [args.game]
    out = []
    print(f"{'game':15} {'games':>5} {'ours: win share':>16} {'95% CI':>17} {'our it/move':>12} "
          f"{'OS sims/move':>13} {'wall s':>7}")
    for name in names:
        r = run(name, args.blocks, args.seconds, args.uct_c, args.rollout, args.seed, args.workers)
        out.append(r)
        lo, hi = r["ci95"]
        print(f"{name:15} {r['games']:5d} {r['our_win_share']:16.3f} {f'[{lo:.3f}, {hi:.3f}]':>17} "
              f"{r['our_iterations_per_move']:12.1f} {r['openspiel_simulations_per_move']:13.1f} "
              f"{r['wall_seconds']:7.0f}", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
