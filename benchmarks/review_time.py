"""Post-game analysis (``ludus analyze-game``): time per game against game length, for each game.

What it measures, per game: whole games the heuristic plays against itself (seeded, default
options), each reviewed for seat 1 with ``ludus.agents.review.review_game`` at the default budget
(``--samples`` deals per decision, at most ``DEFAULT_MAX_MOVES`` candidates, no time cap). It
prints, for each game, the decisions analysed (the seat's decisions with a choice), the forced
ones skipped, the wall-clock seconds of the review and seconds per analysed decision; then per
game the medians. This is the search alone, in this process (the CLI and the server add a worker
process start, about a second). Wall time depends on the machine and its load: run ``uptime``.

    python benchmarks/review_time.py --games 3
    python benchmarks/review_time.py --game gladius --games 5 --samples 8 --json out.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from ludus.agents.base import make_agent
from ludus.agents.review import DEFAULT_SAMPLES, review_game
from ludus.core.game import CHANCE
from ludus.core.records import Record, record_of
from ludus.games import game_names, get_game


def played(name: str, seed: int) -> Record:
    """A whole game of the heuristic against itself at every seat."""
    game = get_game(name)
    state = game.new_initial_state(None, seed=seed)
    agents = [make_agent("heuristic", game, seed=seed * 10 + i) for i in range(state.num_seats())]
    while not state.is_terminal():
        seat = state.current_seats()[0]
        assert seat != CHANCE
        state.apply(agents[seat].act(state.view(seat)), seat)
    return record_of(state, seed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="a game (repeatable; default: all)")
    parser.add_argument("--games", type=int, default=3, help="games per game kind (default 3)")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="deals per decision")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="write the rows as JSON here")
    parser.add_argument("--plot", help="draw seconds against decisions analysed, one colour a game, as this PNG "
                                       "(needs matplotlib: the 'sim' extra)")
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    print(f"{'game':<15} {'seed':>4} {'actions':>7} {'analysed':>8} {'forced':>6} {'seconds':>8} "
          f"{'s/decision':>10} marks")
    for name in args.game or game_names():
        for k in range(args.games):
            seed = args.seed + k
            record = played(name, seed)
            started = time.perf_counter()
            review = review_game(record, 0, samples=args.samples, seed=seed)
            seconds = time.perf_counter() - started
            n = len(review.decisions)
            marks = {m: c for m, c in review.totals.items() if c and m not in ("best", "fine")}
            row = {"game": name, "seed": seed, "actions": len(record.actions), "analysed": n,
                   "forced": review.forced, "seconds": round(seconds, 2),
                   "per_decision": round(seconds / n, 3) if n else None, "marks": marks}
            rows.append(row)
            print(f"{name:<15} {seed:>4} {row['actions']:>7} {n:>8} {review.forced:>6} {seconds:>8.1f} "
                  f"{row['per_decision'] or 0:>10.3f} {marks or ''}", flush=True)
    print("\nmedians per game:")
    for name in args.game or game_names():
        mine = [r for r in rows if r["game"] == name]
        print(f"  {name:<15} {statistics.median(r['analysed'] for r in mine):>5.0f} decisions, "
              f"{statistics.median(r['seconds'] for r in mine):>6.1f} s a game, "
              f"{statistics.median(r['per_decision'] or 0 for r in mine):.3f} s a decision")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"samples": args.samples, "rows": rows}, f, indent=1)
    if args.plot:
        plot(rows, args.plot, args.samples)
    return 0


def plot(rows: list[dict[str, Any]], path: str, samples: int) -> None:
    """Analysis time per game against the number of decisions analysed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4))
    for name in dict.fromkeys(r["game"] for r in rows):
        mine = [r for r in rows if r["game"] == name]
        ax.scatter([r["analysed"] for r in mine], [r["seconds"] for r in mine], label=name)
    ax.set_xlabel("decisions analysed (one seat, forced moves skipped)")
    ax.set_ylabel("seconds per game")
    ax.set_title(f"Post-game analysis time, {samples} deals per decision")
    ax.set_xlim(left=0)
    ax.set_ylim(bottom=0)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


if __name__ == "__main__":
    sys.exit(main())
