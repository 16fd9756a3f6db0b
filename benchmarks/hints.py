"""Hints ("What would the bot play?"): how long one takes, and how often it names the hard bot's move.

What it measures, per game:

* Positions: decisions with more than one legal move, drawn at random (seeded) from games the
  heuristic plays against itself, each seen from the deciding seat (``state.view(seat)``,
  exactly what a hint gets; at simultaneous decisions one of the deciding seats at random).
* Answer time: wall-clock seconds of ``ludus.agents.hints.suggest(view, seconds=S)`` on this
  machine, median and 95th percentile. This is the search alone; at a table the server adds the
  replay of the record in the worker and the trip to the browser (milliseconds). The search is
  bounded in wall time, so the time depends on the machine and its load: run ``uptime`` too.
* Agreement: the share of positions where the hint's top move is the move the ``ismcts-hard``
  bot plays from the same view (95% Wilson interval). The two differ on purpose in two ways:
  the hint searches for ``S`` seconds instead of the level's iteration budget, and where the
  level has a paired root with an anchor (Gladius, Circus Maximus) the bot keeps its heuristic's
  move unless another clearly beats it, while the hint shows the best mean. Different seeds
  also make equally good moves swap places.

    python benchmarks/hints.py --positions 30
    python benchmarks/hints.py --game gladius --positions 50 --seconds 1.5 --json out.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from ludus.agents.base import make_agent
from ludus.agents.hints import suggest
from ludus.core.game import CHANCE, Game, SeatView
from ludus.core.rng import Rng
from ludus.games import game_names, get_game
from ludus.sim.stats import wilson


def positions(game: Game, count: int, seed: int) -> list[SeatView]:
    """``count`` views at decisions with a choice, from heuristic self-play (seeded)."""
    rng = Rng(seed)
    pool: list[SeatView] = []
    g = 0
    while len(pool) < 4 * count and g < 200:
        state = game.new_initial_state(None, seed=seed * 7919 + g)
        agents = [make_agent("heuristic", game, seed=seed + g * 31 + s) for s in range(state.num_seats())]
        g += 1
        while not state.is_terminal():
            seats = state.current_seats()
            assert seats[0] != CHANCE  # seeded states settle chance themselves
            pick = seats[rng.below(len(seats))]
            if len(state.legal_actions(pick)) > 1 and rng.below(4) == 0:
                pool.append(state.view(pick))
            seat = seats[0]
            state.apply(agents[seat].act(state.view(seat)), seat)
    chosen: list[SeatView] = []
    while pool and len(chosen) < count:
        chosen.append(pool.pop(rng.below(len(pool))))
    return chosen


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))
    return ordered[k]


def measure(name: str, count: int, seconds: float, seed: int) -> dict[str, Any]:
    game = get_game(name)
    views = positions(game, count, seed)
    times: list[float] = []
    samples: list[int] = []
    agree = 0
    for i, view in enumerate(views):
        start = time.perf_counter()
        hint = suggest(view, seconds=seconds, seed=seed + i)
        times.append(time.perf_counter() - start)
        samples.append(hint.samples)
        bot = make_agent("ismcts-hard", game, seed=seed + i).act(view)
        agree += hint.best.action == bot
    n = len(views)
    lo, hi = wilson(agree, n) if n else (0.0, 0.0)
    return {
        "game": name, "positions": n, "seconds_budget": seconds,
        "median_s": statistics.median(times) if times else None,
        "p95_s": percentile(times, 0.95) if times else None,
        "max_s": max(times) if times else None,
        "median_samples": statistics.median(samples) if samples else None,
        "agree": agree, "agree_share": agree / n if n else None, "agree_low": lo, "agree_high": hi,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=game_names(), help="repeatable; default: every game")
    parser.add_argument("--positions", type=int, default=30, help="positions per game")
    parser.add_argument("--seconds", type=float, default=1.5, help="the hint's search time (the server's default)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    rows = []
    print(f"{'game':<16}{'positions':>10}{'median s':>10}{'p95 s':>8}{'max s':>8}{'samples':>9}  agrees with hard bot")
    for name in args.game or game_names():
        row = measure(name, args.positions, args.seconds, args.seed)
        rows.append(row)
        if not row["positions"]:
            print(f"{name:<16}  no positions")
            continue
        print(f"{name:<16}{row['positions']:>10}{row['median_s']:>10.2f}{row['p95_s']:>8.2f}{row['max_s']:>8.2f}"
              f"{row['median_samples']:>9.0f}  {row['agree']}/{row['positions']} = {100 * row['agree_share']:.0f}% "
              f"(95% {100 * row['agree_low']:.0f}–{100 * row['agree_high']:.0f}%)", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
