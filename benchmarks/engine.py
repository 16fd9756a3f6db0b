"""Engine speed: random Gorus Maximus (4 players) vs random OpenSpiel ``oh_hell`` (4 players).

Both are driven from Python through their public APIs in the same process and run:
ours through ``legal_actions()`` + ``apply()`` (chance settled by the seeded state),
OpenSpiel's through ``pyspiel`` (chance outcomes sampled in Python). Both pick moves with
the same ``random.Random`` so only the engines differ. We count player
decisions per second, take the median over several rounds, and print the ratio.

    python benchmarks/engine.py [--seconds 2] [--rounds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time


def ludus_decisions(seconds: float, seed: int) -> float:
    from ludus.games.gorus_maximus.game import GAME

    options = GAME.parse_options({"players": 4})
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    game_seed = seed
    while time.perf_counter() - start < seconds:
        state = GAME.new_initial_state(options, seed=game_seed)
        game_seed += 1
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
            decisions += 1
    return decisions / (time.perf_counter() - start)


def openspiel_decisions(seconds: float, seed: int) -> float:
    import pyspiel

    game = pyspiel.load_game("oh_hell", {"players": 4})
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
            decisions += 1
    return decisions / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--rounds", type=int, default=5, help="measurements per engine (median reported)")
    args = parser.parse_args()
    ours, theirs = [], []
    for r in range(args.rounds):  # interleaved so drift hits both alike
        ours.append(ludus_decisions(args.seconds, r))
        theirs.append(openspiel_decisions(args.seconds, r))
    o, t = statistics.median(ours), statistics.median(theirs)
    rounds_ours = ", ".join(f"{x:,.0f}" for x in ours)
    rounds_theirs = ", ".join(f"{x:,.0f}" for x in theirs)
    print(f"ludus gorus-maximus (4p, random): {o:12,.0f} decisions/s  (rounds: {rounds_ours})")
    print(f"pyspiel oh_hell      (4p, random): {t:12,.0f} decisions/s  (rounds: {rounds_theirs})")
    print(f"ratio ludus / pyspiel: {o / t:.2f}x")


if __name__ == "__main__":
    main()
