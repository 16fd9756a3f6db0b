"""Tournament throughput: games per second on one process, a process pool, and local Ray.

Plays the same seeded tournament on each backend, checks the results are identical (the
harness's determinism guarantee), and prints games per second and the speed-up over one
process. Start-up (spawning workers, starting Ray) is included, as a user would see it.

    python benchmarks/tournament_throughput.py [--game gorus-maximus] [--players 4]
        [--agents heuristic,random*3] [--games 400] [--workers 2] [--no-ray]
"""

from __future__ import annotations

import argparse
import time


def main() -> None:
    from ludus.sim import make_spec, run_tournament

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="gorus-maximus")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--agents", default="heuristic,random*3")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-ray", action="store_true", help="skip the Ray backend")
    args = parser.parse_args()

    spec = make_spec(args.game, {"players": args.players}, args.agents, args.games, args.seed)
    runs = [("one process", "process", 1), (f"{args.workers} processes", "process", args.workers)]
    if not args.no_ray:
        runs.append((f"local Ray, {args.workers} CPUs", "ray", args.workers))
    reference = None
    base = None
    print(f"{args.game}, {args.players} players, {args.agents}, {args.games} games")
    for name, backend, workers in runs:
        start = time.perf_counter()
        results = run_tournament(spec, backend=backend, workers=workers)
        seconds = time.perf_counter() - start
        if reference is None:
            reference, base = results, seconds
        same = "identical" if results == reference else "DIFFERENT RESULTS"
        print(f"  {name:<24} {args.games / seconds:8.1f} games/s  x{base / seconds:4.2f}  {same}")


if __name__ == "__main__":
    main()
