"""Encoding cost per game: building a seat's observation and encoding it, against one engine decision.

Per game (default options unless ``--options``), random games are played through the public
API (``legal_actions`` + ``apply``, chance settled by the seeded state) to time one engine
decision. Up to ``--positions`` positions met on the way (clones, at each decision, for the
seat to act) are then timed for ``state.observation(seat)`` and for the game's encoder
(``encoder.encode``, which allocates a vector, and "row": what the vector environment does,
``encode_into`` on a zeroed preallocated row where the encoder has one, else its own
``encode`` copied in where it overrides it, else ``write`` into named views made once).
Each figure is the median of ``--repeats`` runs; the ratios
are to one engine decision measured in the same run. The issue asks for encoding at most a
few engine decisions' worth of time per step.

    python benchmarks/encoders.py [--games gladius,...] [--options JSON] [--positions 2000] [--repeats 5] [--hashed]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from typing import Any

import numpy as np

from ludus.core.encoding import HashedEncoder, ObservationEncoder
from ludus.core.game import Game, State
from ludus.games import game_names, get_game
from ludus.interop.action_space import acting_seat
from ludus.interop.specs import encoder_for


def decision_us(game: Game, options: Any, decisions: int, seed: int) -> float:
    """Microseconds per player decision of random play (chance settled inside ``apply``)."""
    rng = random.Random(seed)
    done = 0
    game_seed = seed
    start = time.perf_counter()
    while done < decisions:
        state = game.new_initial_state(options, seed=game_seed)
        game_seed += 1
        while not state.is_terminal():
            actions = state.legal_actions(acting_seat(state))
            state.apply(actions[rng.randrange(len(actions))], acting_seat(state))
            done += 1
    return (time.perf_counter() - start) * 1e6 / done


def positions(game: Game, options: Any, count: int, seed: int) -> list[tuple[State, int]]:
    rng = random.Random(seed)
    out: list[tuple[State, int]] = []
    game_seed = seed
    while len(out) < count:
        state = game.new_initial_state(options, seed=game_seed)
        game_seed += 1
        while not state.is_terminal() and len(out) < count:
            seat = acting_seat(state)
            assert seat is not None and seat >= 0  # seeded states settle chance themselves
            out.append((state.clone(), seat))
            actions = state.legal_actions(seat)
            state.apply(actions[rng.randrange(len(actions))], seat)
    return out


def per_item_us(fn: Any, items: list[Any]) -> float:
    start = time.perf_counter()
    for item in items:
        fn(item)
    return (time.perf_counter() - start) * 1e6 / len(items)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(game_names()))
    parser.add_argument("--options", default="{}", help="JSON options for every game (default: defaults)")
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--hashed", action="store_true", help="also time the hashed fallback encoder")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'game':16} {'encoder':8} {'decision':>9} {'observe':>9} {'encode':>9} {'row':>9}"
          f" {'obs/dec':>8} {'enc/dec':>8} {'(obs+enc)/dec':>14}"
          + (f" {'hashed':>9} {'hash/dec':>8}" if args.hashed else ""))
    for name in args.games.split(","):
        game = get_game(name)
        options = game.parse_options(json.loads(args.options))
        enc = encoder_for(game, options)
        kind = "hashed" if isinstance(enc, HashedEncoder) else "exact"
        row = np.zeros(enc.size, np.float32)
        into = getattr(enc, "encode_into", None)
        views = enc.views(row)

        own = into is None and type(enc).encode is not ObservationEncoder.encode

        def fill(obs: Any, into: Any = into, row: np.ndarray = row, views: Any = views, own: bool = own) -> None:
            row[:] = 0.0
            if into is not None:
                into(obs, row)
            elif own:
                row[:] = enc.encode(obs)  # noqa: B023 - enc is this game's, used in this iteration only
            else:
                enc.write(obs, views)  # noqa: B023

        dec, obs_t, enc_t, into_t, hash_t = [], [], [], [], []
        hashed = HashedEncoder()
        for r in range(args.repeats):
            # new positions each repeat, so caches inside the games (Gladius memoizes hand notes)
            # help only as much as they do in play
            items = positions(game, options, args.positions, 1 + r)
            start = time.perf_counter()
            observed = [s.observation(seat) for s, seat in items]
            obs_t.append((time.perf_counter() - start) * 1e6 / len(items))
            dec.append(decision_us(game, options, args.positions, 100 + r))
            enc_t.append(per_item_us(enc.encode, observed))
            into_t.append(per_item_us(fill, observed))
            if args.hashed:
                hash_t.append(per_item_us(hashed.encode, observed))
        d, o, e = statistics.median(dec), statistics.median(obs_t), statistics.median(enc_t)
        i = statistics.median(into_t)
        best = min(e, i)
        print(f"{name:16} {kind:8} {d:8.1f}µ {o:8.1f}µ {e:8.1f}µ {i:8.1f}µ {o / d:8.1f} {best / d:8.1f}"
              f" {(o + best) / d:14.1f}"
              + (f" {statistics.median(hash_t):8.1f}µ {statistics.median(hash_t) / d:8.1f}" if hash_t else ""))
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
