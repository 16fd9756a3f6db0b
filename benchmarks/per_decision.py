"""Per-decision cost of the four games' Python engines, as ratios to Gorus Maximus.

Each game plays seeded random games through its public API (``legal_actions()`` and
``apply()``; the seeded state settles chance itself, so chance is included in the time).
Where several seats decide at once (simultaneous moves) the first of them moves first. A move
is picked with one ``random.Random`` per measurement, so a round replays exactly.
We time whole games for about ``--seconds`` per game and round, divide by the player
decisions made, and interleave the games round by round so that a change in the machine's
load hits all of them alike. Printed: the median microseconds per decision, the rounds, and
the ratio to Gorus Maximus (4 players): the median over rounds of each round's ratio, so both
sides of a ratio were measured moments apart. The load average is printed with them.

Run it from the repository root with ``PYTHONPATH=.`` (or an installed Ludus) so that the
engine measured is the one in this tree.

    PYTHONPATH=. python benchmarks/per_decision.py [--seconds 1] [--rounds 5] [--only circus-maximus]
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import statistics
import time
from typing import Any

# (label, module of the game, options); the first is the reference the ratios divide by
CONFIGS: list[tuple[str, str, dict[str, Any]]] = [
    ("gorus-maximus 4p", "ludus.games.gorus_maximus.game", {"players": 4}),
    ("gladius 2p", "ludus.games.gladius.game", {}),
    ("circus-maximus 3p", "ludus.games.circus_maximus.game", {"players": 3}),
    ("circus-maximus 4p", "ludus.games.circus_maximus.game", {"players": 4}),
    ("circus-maximus 5p", "ludus.games.circus_maximus.game", {"players": 5}),
    ("gorus-arena 4p", "ludus.games.gorus_arena.game", {"players": 4}),
]


def seconds_per_decision(module: str, options: dict[str, Any], seconds: float, seed: int) -> float:
    """Play whole seeded random games for at least ``seconds``; seconds per player decision."""
    game = importlib.import_module(module).GAME
    opts = game.parse_options(options)
    rng = random.Random(seed)
    decisions = 0
    game_seed = seed * 1_000_003
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state(opts, seed=game_seed)
        game_seed += 1
        while seats := state.current_seats():
            seat = seats[0]  # where several seats decide at once, the first moves first
            actions = state.legal_actions(seat)
            state.apply(actions[rng.randrange(len(actions))], seat)
            decisions += 1
    return (time.perf_counter() - start) / decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per game and round")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (median reported)")
    parser.add_argument("--only", action="append", default=[],
                        help="measure only configurations whose label contains this (the reference always runs)")
    args = parser.parse_args()
    configs = [c for i, c in enumerate(CONFIGS) if i == 0 or not args.only or any(o in c[0] for o in args.only)]
    for _label, module, options in configs:  # warm-up: imports, card data, caches
        seconds_per_decision(module, options, 0.05, 10_000)
    times: dict[str, list[float]] = {label: [] for label, _m, _o in configs}
    load_before = os.getloadavg()
    for r in range(args.rounds):
        for label, module, options in configs:
            times[label].append(seconds_per_decision(module, options, args.seconds, r))
    load_after = os.getloadavg()
    ref_times = times[configs[0][0]]
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1 min); "
          f"{args.rounds} rounds of {args.seconds:g} s per game")
    print(f"{'game':<20} {'us/decision':>12} {'x gorus-maximus':>16}   rounds (us)")
    for label, _m, _o in configs:
        med = statistics.median(times[label])
        # the ratio in each round (measured moments apart), then the median: drift cancels
        ratio = statistics.median(t / r for t, r in zip(times[label], ref_times, strict=True))
        rounds = ", ".join(f"{t * 1e6:.1f}" for t in times[label])
        print(f"{label:<20} {med * 1e6:12.1f} {ratio:16.2f}   {rounds}")


if __name__ == "__main__":
    main()
