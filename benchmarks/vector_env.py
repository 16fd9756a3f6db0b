"""Agent steps a second: one ``LudusSingleAgentEnv`` vs ``LudusVectorEnv`` with N sub-environments.

Per game (default options, the learner in seat 0, random bots in the other seats unless
``--opponents``), random masked actions: the single environment picks with
``rng.choice(flatnonzero(mask))`` per step, the vector environment with one batched
``argmax(random * mask)`` per call (what a batched policy would do). An agent step is one
learner decision, in either environment; auto resets are counted as the steps they are. Each
measurement runs ``--seconds``; the median of ``--repeats`` alternating repeats is reported,
with the ratio to the single environment measured in the same run.

The vector environment steps compiled where the game provides it (``CompiledSteps``; the first
call compiles or loads numba's cache, so every game is warmed up before anything is timed);
``--python`` also times it stepped in Python (``compiled=False``) at each N.

    python benchmarks/vector_env.py [--games gladius,...] [--n 16,64] [--seconds 1] [--repeats 3]
    python benchmarks/vector_env.py --profile gorus-maximus --n 64   # where the vector env's time goes

``--baseline DIR`` also measures the single environment of another checkout (say the
revision before this one, from ``git archive HEAD | tar -x -C DIR``) in a subprocess, in
the same repeats, so the ratio to "today's" single environment is measured in the same run.
"""

from __future__ import annotations

import argparse
import cProfile
import inspect
import os
import pstats
import statistics
import subprocess
import sys
import time

import numpy as np

from ludus.games import game_names
from ludus.interop.gymnasium_env import LudusSingleAgentEnv
from ludus.interop.vector_env import LudusVectorEnv


def single_rate(game: str, opponents: str, seconds: float, seed: int) -> float:
    env = LudusSingleAgentEnv(game, opponents=opponents)
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, done, _, _ = env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            if done:
                obs, _ = env.reset()
    return steps / (time.perf_counter() - start)


def vector_rate(game: str, opponents: str, n: int, seconds: float, seed: int, compiled: bool | None = None) -> float:
    env = LudusVectorEnv(game, n, opponents=opponents, copy=False, compiled=compiled)
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    noise = np.empty(obs["action_mask"].shape)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(5):
            rng.random(out=noise)
            noise *= obs["action_mask"]
            obs, _, _, _, _ = env.step(noise.argmax(axis=1))
            steps += n
    return steps / (time.perf_counter() - start)


def baseline_rate(tree: str, game: str, opponents: str, seconds: float, seed: int) -> float:
    """``single_rate`` run by ``tree``'s ludus, in a subprocess (imports not timed)."""
    code = "\n".join([
        "import time", "import numpy as np", "from ludus.interop.gymnasium_env import LudusSingleAgentEnv",
        inspect.getsource(single_rate), f"print(single_rate({game!r}, {opponents!r}, {seconds}, {seed}))"])
    env = dict(os.environ, PYTHONPATH=tree)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def profile(game: str, opponents: str, n: int, seconds: float) -> None:
    prof = cProfile.Profile()
    prof.enable()
    rate = vector_rate(game, opponents, n, seconds, 0)
    prof.disable()
    print(f"{game}, {n} sub-environments, {rate:,.0f} agent steps/s under the profiler")
    pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
    pstats.Stats(prof).sort_stats("tottime").print_stats(20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(game_names()))
    parser.add_argument("--n", default="16,64", help="sub-environment counts, comma-separated")
    parser.add_argument("--opponents", default="random")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--baseline", metavar="DIR", help="also time the single env of the checkout in DIR")
    parser.add_argument("--profile", metavar="GAME", help="profile the vector env on GAME (first --n) instead")
    parser.add_argument("--python", action="store_true", help="also time the vector env stepped in Python")
    args = parser.parse_args()
    counts = [int(x) for x in args.n.split(",")]
    if args.profile:
        profile(args.profile, args.opponents, counts[0], max(args.seconds, 3.0))
        return
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    head = f"{'game':16} {'single/s':>10} " + " ".join(f"{f'N={n}/s':>10} {'ratio':>6}" for n in counts)
    if args.python:
        head += " " + " ".join(f"{f'py N={n}/s':>11} {'ratio':>6}" for n in counts)
    if args.baseline:
        head += f" {'baseline/s':>10} " + " ".join(f"{f'N={n} vs it':>10}" for n in counts)
    print(head)
    for game in args.games.split(","):
        singles: list[float] = []
        olds: list[float] = []
        vectors: dict[int, list[float]] = {n: [] for n in counts}
        pythons: dict[int, list[float]] = {n: [] for n in counts}
        vector_rate(game, args.opponents, 2, 0.2, 99)  # warm-up: compiles or loads the compiled stepping
        for r in range(args.repeats):
            singles.append(single_rate(game, args.opponents, args.seconds, r))
            if args.baseline:
                olds.append(baseline_rate(args.baseline, game, args.opponents, args.seconds, r))
            for n in counts:
                vectors[n].append(vector_rate(game, args.opponents, n, args.seconds, r))
                if args.python:
                    pythons[n].append(vector_rate(game, args.opponents, n, args.seconds, r, compiled=False))
        base = statistics.median(singles)
        rates = {n: statistics.median(vectors[n]) for n in counts}
        line = f"{game:16} {base:10,.0f} " + " ".join(f"{rates[n]:10,.0f} {rates[n] / base:5.2f}x" for n in counts)
        if args.python:
            py = {n: statistics.median(pythons[n]) for n in counts}
            line += " " + " ".join(f"{py[n]:11,.0f} {py[n] / base:5.2f}x" for n in counts)
        if olds:
            old = statistics.median(olds)
            line += f" {old:10,.0f} " + " ".join(f"{rates[n] / old:9.2f}x" for n in counts)
        print(line)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
