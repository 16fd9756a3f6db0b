"""Tournament games a second with fast agents: compiled whole games against the Python engine.

Plays the same seeded tournament games (``ludus.sim.tournament.play_game``, one process) with
the game's compiled agents and with ``LUDUS_COMPILED=0`` (the Python engine and agents), checks
that every result is identical, and reports games a second of each and their ratio. Rounds
alternate the two sides so a slow spell of the host falls on both; the ratio is the median over
rounds, with its range. Equal work: the same games, the same agents, results compared. The
first compiled game (compiling, or loading numba's disk cache) is timed apart, before the rounds.

    PYTHONPATH=. python benchmarks/compiled_tournament.py
    PYTHONPATH=. python benchmarks/compiled_tournament.py --game gladius --lineups "random*2;heuristic*2"
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Any

from ludus.games import get_game
from ludus.sim.tournament import GameResult, TournamentSpec, make_spec, play_game


def play(spec: TournamentSpec, games: int, compiled: bool) -> tuple[float, list[GameResult]]:
    """Seconds to play games 0..games-1 of ``spec``, and their results."""
    os.environ["LUDUS_COMPILED"] = "1" if compiled else "0"
    start = time.perf_counter()
    results = [play_game(spec, i) for i in range(games)]
    return time.perf_counter() - start, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="gorus-maximus")
    parser.add_argument("--options", default='{"players": 4}', help="JSON options")
    parser.add_argument("--lineups", default="random*4;heuristic*4", help="agent lineups, ';' between them")
    parser.add_argument("--games", type=int, default=200, help="games per round and side")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    options: Any = json.loads(args.options)
    game = get_game(args.game)
    if game.compiled_playouts() is None:
        raise SystemExit("no compiled code here (numba missing or LUDUS_COMPILED=0)")
    print(f"{args.game} {options}, {args.games} games a side per round, {args.rounds} rounds, "
          f"load {os.getloadavg()[0]:.2f}")
    for lineup in args.lineups.split(";"):
        spec = make_spec(args.game, options, lineup, args.games, args.seed)
        warm = time.perf_counter()
        play(spec, 1, compiled=True)
        warm = time.perf_counter() - warm
        fast: list[float] = []
        slow: list[float] = []
        for _ in range(args.rounds):
            seconds_py, reference = play(spec, args.games, compiled=False)
            seconds_c, results = play(spec, args.games, compiled=True)
            if results != reference:
                raise SystemExit(f"{lineup}: the compiled games differ from the Python ones")
            slow.append(args.games / seconds_py)
            fast.append(args.games / seconds_c)
        ratios = sorted(f / s for f, s in zip(fast, slow))
        print(f"  {lineup:<22} Python {statistics.median(slow):9.1f} games/s   compiled "
              f"{statistics.median(fast):9.1f} games/s   x{statistics.median(ratios):.1f} "
              f"({ratios[0]:.1f}-{ratios[-1]:.1f})   identical results   first compiled game {warm:.2f} s")
    print(f"load at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
