"""Strength ladder: random < heuristic < ISMCTS (each level), per game, with 95% intervals.

Each rung puts one *candidate* agent in one seat against the rung below in every other seat,
the candidate's seat rotating game by game, and reports its win share (shared wins count as
a fraction, ``State.returns()``) against the fair share 1/seats. A rung is climbed when the
whole interval lies above the fair share. Rungs:

    heuristic     vs random
    ismcts-easy   vs heuristic
    ismcts-medium vs heuristic
    ismcts-hard   vs heuristic

With ``--duplicate`` every deal (seed) is played once from every seat, so the luck of the
deal is the same for the candidate and for the agents it is compared with, and the interval
is a Student t one over the per-deal mean shares (deals are the independent units); otherwise
each game has its own seed and the interval is Wilson's over games.

Games whose determinization sampler (``Game.sample_state``) does not work are skipped with a
message. Results depend only on the seeds (ISMCTS levels are iteration budgets), so
``--workers`` changes the speed, never the figures. Per-move times of the candidate are
measured too, as CPU time of the deciding process (what a move costs one idle core; the wall
clock on a shared machine also counts other jobs).

    python benchmarks/strength_ladder.py --games 100 --workers 2
    python benchmarks/strength_ladder.py --game gladius --games 200 --duplicate --workers 2
    python benchmarks/strength_ladder.py --game gorus-maximus --rungs ismcts-easy:heuristic --games 40
    python benchmarks/strength_ladder.py --game gladius --options '{"fighter1": "murmillo"}'

An agent may also be written ``ismcts(iterations=200,rollout=random,horizon=40)``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ludus.agents.base import Agent, make_agent
from ludus.core.compiled import warm_up
from ludus.core.game import CHANCE, Game
from ludus.core.options import options_to_json
from ludus.core.rng import Rng
from ludus.games import game_names, get_game
from ludus.sim.stats import wilson

_READY: set[str] = set()


def ready(game: Game) -> None:
    """Load the game's compiled playouts before the first timed move, as ``ludus play`` and the
    server do before a bot sits: a move's time is the search, not a one-off compile or load."""
    if game.name not in _READY:
        warm_up(game)
        _READY.add(game.name)


RUNGS = [("heuristic", "random"), ("ismcts-easy", "heuristic"), ("ismcts-medium", "heuristic"),
         ("ismcts-hard", "heuristic")]


def build_agent(spec: str, game: Game, seed: int) -> Agent:
    """A registry name, or ``ismcts(key=value,...)`` for an ISMCTS agent with explicit settings."""
    spec = spec.strip()
    if spec.startswith("ismcts(") and spec.endswith(")"):
        from ludus.agents.ismcts import ISMCTSAgent

        kwargs: dict[str, Any] = {}
        for part in filter(None, spec[len("ismcts("):-1].split(",")):
            key, _, value = part.partition("=")
            key, value = key.strip(), value.strip()
            if key in ("iterations", "horizon", "expand_after"):
                kwargs[key] = int(value)
            elif key in ("seconds", "exploration", "score_weight", "anchor"):
                kwargs[key] = float(value)
            elif key == "paired":
                kwargs[key] = value.lower() in ("1", "true", "yes")
            else:
                kwargs[key] = value
        return ISMCTSAgent(seed, **kwargs)
    return make_agent(spec, game, seed)


def split_top(text: str) -> list[str]:
    """Split on commas outside parentheses (agent specs have commas inside)."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    return [p for p in [*parts, cur] if p.strip()]


def sampler_works(game: Game, options: Any) -> str | None:
    """None if ``game.sample_state`` answers for a few real views, else why not."""
    try:
        state = game.new_initial_state(options, seed=1)
        rng = Rng(1)
        for _ in range(12):
            seats = state.current_seats()
            if not seats:
                break
            game.sample_state(state.view(seats[0]), rng)
            state.apply(rng.choice(state.legal_actions(seats[0])), seats[0])
    except NotImplementedError as exc:
        return str(exc)
    except Exception as exc:  # noqa: BLE001 - report any failure and skip the game
        return f"sample_state fails: {exc!r}"
    return None


def play_one(args: tuple[str, Any, str, str, int, int, bool]) -> tuple[float, float, list[float]]:
    """One game: (candidate's return, candidate's score, candidate's per-move CPU seconds).

    In duplicate mode game ``index`` uses deal ``index // seats`` with the candidate in seat
    ``index % seats``: every deal is played once from every seat.
    """
    name, options, candidate, opponent, index, seed, duplicate = args
    game = get_game(name)
    ready(game)
    n = game.num_seats(options)
    state = game.new_initial_state(options, seed=seed + (index // n if duplicate else index))
    hero = index % n
    agents = [build_agent(candidate if s == hero else opponent, game, seed=(seed + index) * 16 + s)
              for s in range(n)]
    times: list[float] = []
    while not state.is_terminal():
        seats = state.current_seats()
        seat = seats[0]
        assert seat != CHANCE, "seeded states settle chance themselves"
        view = state.view(seat)
        start = time.process_time()
        action = agents[seat].act(view)
        if seat == hero and len(view.legal_actions) > 1:
            times.append(time.process_time() - start)
        state.apply(action, seat)
    return state.returns()[hero], state.scores()[hero], times


def run_rung(name: str, options: Any, candidate: str, opponent: str, games: int, seed: int,
             workers: int, duplicate: bool = False, jsonl: str | None = None) -> dict[str, Any]:
    """Play one rung; with ``jsonl`` each game's result is appended to that file as it ends, so
    a long rung stopped early still leaves every finished game (see ``--summarize``)."""
    seats = get_game(name).num_seats(options)
    if duplicate:
        games = -(-games // seats) * seats  # whole deals only
    jobs = [(name, options, candidate, opponent, i, seed, duplicate) for i in range(games)]
    results = []
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(open(jsonl, "a", encoding="utf-8")) if jsonl else None
        if workers > 1:
            played = stack.enter_context(ProcessPoolExecutor(workers)).map(play_one, jobs, chunksize=1)
        else:
            played = map(play_one, jobs)
        for job, result in zip(jobs, played):
            results.append(result)
            if out is not None:
                out.write(json.dumps({"game": name, "options": options_to_json(options), "candidate": candidate,
                                      "opponent": opponent, "seed": seed, "duplicate": duplicate,
                                      "seats": seats, "index": job[4], "return": result[0],
                                      "score": result[1], "move_cpu": result[2]}) + "\n")
                out.flush()
    return summarize(results, seats, duplicate)


def summarize(results: list[tuple[float, float, list[float]]], seats: int, duplicate: bool) -> dict[str, Any]:
    """Win share with its 95% interval (over deals in duplicate mode), mean score and move times."""
    games = len(results)
    wins = sum(r for r, _, _ in results)
    times = [t for _, _, ts in results for t in ts]
    lo, hi = wilson(wins, games)
    if duplicate and games >= 2 * seats:
        # the deals are the independent units: a Student t interval on the per-deal mean
        # share, which is tighter than Wilson's on single games whenever the deal decides much
        from scipy import stats

        per_deal = [sum(r for r, _, _ in results[i:i + seats]) / seats for i in range(0, games, seats)]
        t = stats.t.ppf(0.975, len(per_deal) - 1)
        half = t * statistics.stdev(per_deal) / math.sqrt(len(per_deal))
        lo, hi = max(0.0, wins / games - half), min(1.0, wins / games + half)
    return {
        "wins": wins, "games": games, "share": wins / games, "lo": lo, "hi": hi,
        "score": sum(s for _, s, _ in results) / games,
        "move_mean": sum(times) / len(times) if times else 0.0,
        "move_max": max(times) if times else 0.0,
        "move_p95": percentile(times, 0.95) if times else 0.0,
    }


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile by linear interpolation between the sorted values (never past the
    largest, unlike ``statistics.quantiles``' default on few values)."""
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def time_levels(name: str, options: Any, levels: list[str], games: int, moves: int) -> None:
    """Seconds per move of each level over the first ``moves`` decisions of ``games`` games.

    ``moves`` 0 times whole games, the figure the levels' budgets are set by: later moves of
    the first round cost about as much as the opening ones, and the slowest move only shows
    over many. Both wall-clock and CPU time of this process are shown: on a shared machine
    the wall clock also counts other jobs (CPU time, too, grows when both cores are busy).
    """
    game = get_game(name)
    ready(game)
    for level in levels:
        wall: list[float] = []
        cpu: list[float] = []
        iterations = 0
        for g in range(games):
            state = game.new_initial_state(options, seed=500 + g)
            agents = [build_agent(level, game, seed=g * 16 + s) for s in range(state.num_seats())]
            decided = 0
            while not state.is_terminal() and (moves <= 0 or decided < moves):
                seat = state.current_seats()[0]
                view = state.view(seat)
                start, start_cpu = time.perf_counter(), time.process_time()
                action = agents[seat].act(view)
                if len(view.legal_actions) > 1:
                    wall.append(time.perf_counter() - start)
                    cpu.append(time.process_time() - start_cpu)
                    iterations = getattr(agents[seat], "last_iterations", 0)
                    decided += 1
                state.apply(action, seat)
        p95 = percentile(cpu, 0.95)
        print(f"{name:15} {level:40} iterations {iterations:>5}  moves {len(cpu):>4}  "
              f"cpu mean {sum(cpu) / len(cpu):.3f} s  p95 {p95:.3f} s  max {max(cpu):.3f} s  |  "
              f"wall mean {sum(wall) / len(wall):.3f} s  max {max(wall):.3f} s")
        sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", action="append", help="game name (repeatable); default: every game")
    parser.add_argument("--options", default="{}", help="JSON options for the game(s)")
    parser.add_argument("--games", type=int, default=100, help="games per rung")
    parser.add_argument("--rungs", default="", help="candidate:opponent,... (default: the full ladder)")
    parser.add_argument("--seed", type=int, default=20_000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--duplicate", action="store_true",
                        help="play every deal once from every seat; the interval is over deals")
    parser.add_argument("--timing", action="store_true",
                        help="only time each ISMCTS level, every seat searching")
    parser.add_argument("--timing-games", type=int, default=3)
    parser.add_argument("--timing-moves", type=int, default=12,
                        help="decisions timed per game, from the opening; 0 for whole games")
    parser.add_argument("--timing-agents", default="ismcts-easy,ismcts-medium,ismcts-hard")
    parser.add_argument("--jsonl", help="append each finished game to this file (a stopped run keeps its games)")
    parser.add_argument("--summarize", metavar="JSONL",
                        help="only print the rungs found in a --jsonl file (whole deals only in duplicate mode)")
    args = parser.parse_args()
    if args.summarize:
        summarize_file(args.summarize)
        return
    if args.timing:
        for name in args.game or game_names():
            game = get_game(name)
            options = game.parse_options(json.loads(args.options))
            why = sampler_works(game, options)
            if why is not None:
                print(f"{name:15} skipped: {why}")
                continue
            time_levels(name, options, split_top(args.timing_agents), args.timing_games, args.timing_moves)
        return
    rungs = [tuple(r.split(":")) for r in split_top(args.rungs)] if args.rungs else RUNGS
    names = args.game or game_names()
    print_header()
    for name in names:
        game = get_game(name)
        options = game.parse_options(json.loads(args.options))
        why = sampler_works(game, options)
        if why is not None:
            print(f"{name:15} skipped: {why}")
            continue
        fair = 1 / game.num_seats(options)
        for candidate, opponent in rungs:
            r = run_rung(name, options, candidate, opponent, args.games, args.seed, args.workers,
                         args.duplicate, args.jsonl)
            print_row(name, candidate, opponent, fair, r)


def print_header() -> None:
    print(f"{'game':15} {'candidate':40} {'vs':10} {'games':>5} {'share':>7} {'95% CI':>17} "
          f"{'fair':>5} {'score':>6} {'cpu s/move':>10} {'p95':>6} {'max':>6}  climbed")
    sys.stdout.flush()


def print_row(name: str, candidate: str, opponent: str, fair: float, r: dict[str, Any]) -> None:
    ci = f"[{r['lo']:.1%}, {r['hi']:.1%}]"
    climbed = "yes" if r["lo"] > fair else ("no" if r["hi"] < fair else "not yet (CI spans fair)")
    print(f"{name:15} {candidate:40} {opponent:10} {r['games']:>5} {r['share']:>7.1%} "
          f"{ci:>17} {fair:>5.0%} {r['score']:>6.2f} "
          f"{r['move_mean']:>10.3f} {r['move_p95']:>6.2f} {r['move_max']:>6.2f}  {climbed}")
    sys.stdout.flush()


def summarize_file(path: str) -> None:
    """The rungs of a ``--jsonl`` file. Games are grouped by rung and seed; in duplicate mode only
    deals whose every seat has finished count (a run stopped early leaves some half-played)."""
    groups: dict[tuple[Any, ...], dict[int, tuple[float, float, list[float]]]] = {}
    with open(path, encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines]
    for row in rows:
        key = (row["game"], json.dumps(row["options"], sort_keys=True), row["candidate"], row["opponent"],
               row["seed"], row["duplicate"], row["seats"])
        groups.setdefault(key, {})[row["index"]] = (row["return"], row["score"], row["move_cpu"])
    print_header()
    for (name, _, candidate, opponent, _seed, duplicate, seats), games in groups.items():
        if duplicate:
            deals = sorted({i // seats for i in games})
            indices = [d * seats + s for d in deals if all(d * seats + s in games for s in range(seats))
                       for s in range(seats)]
        else:
            indices = sorted(games)
        if indices:
            print_row(name, candidate, opponent, 1 / seats, summarize([games[i] for i in indices], seats, duplicate))


if __name__ == "__main__":
    main()
