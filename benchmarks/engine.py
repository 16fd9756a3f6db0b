"""Engine speed through the Python APIs: Ludus games and OpenSpiel's ``oh_hell``, equal work.

Every engine plays uniformly random games from Python through its public API in one
process. Moves are picked with ``random.Random`` (``actions[rng.randrange(len(actions))]``)
on both sides, so only the engines differ. Rounds are interleaved (every engine runs once
per round, in a rotating order), and each figure is the median over the rounds.

What each row measures:

* ``ludus <game> (seeded)``: whole games of the seeded state Ludus's own agents,
  tournaments and simulations use (``new_initial_state(seed=…)``): chance is settled inside
  ``apply()`` (Gorus Maximus deals a whole round from one shuffle). Games a second and
  player decisions a second over all the time, new games included.
* ``… (explicit chance)``, column ``games/s`` and ``whole dec/s``: whole games with every
  chance step taken through the API, as OpenSpiel's Python API must take them: Ludus
  with ``new_initial_state(seed=None)`` and ``apply(state.sample_chance(rng), CHANCE)``;
  OpenSpiel with ``chance_outcomes()`` and ``apply_action`` (all of ``oh_hell``'s chance
  outcomes are equally likely, so a uniform pick is exact). New games are included.
* ``… (explicit chance)``, column ``decision dec/s``: the same games, timing only the player
  decisions. The timer starts at the first decision after a chance step (or a new game)
  and stops at the next chance node or the end, so it covers each decision's turn check,
  ``legal_actions()``, the pick and ``apply``/``apply_action``, and leaves out chance steps
  and new games for both engines alike.

``oh_hell`` is the anchor because it is OpenSpiel's nearest trick-taking game, not the same
game: a 4-player game has about 30 decisions and 30 chance steps, a Gorus Maximus game
about 220 decisions. Ratios are Ludus / OpenSpiel per round, reported as the median with
the range over the rounds. The other Ludus games have no OpenSpiel counterpart; they are
there so that the cost per decision of all four games can be compared (the last column is
the cost per decision against Gorus Maximus's, from ``decision dec/s``).

    python benchmarks/engine.py [--seconds 1] [--rounds 5] [--games gorus-maximus,gladius] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

CHANCE = -1

LUDUS_GAMES: dict[str, dict[str, Any]] = {
    "gorus-maximus": {"players": 4},
    "gladius": {},
    "circus-maximus": {"players": 4},
    "gorus-arena": {"players": 3},
}


@dataclass
class Sample:
    """One timed run of one engine."""

    games: int = 0
    decisions: int = 0
    chance_steps: int = 0
    seconds: float = 0.0
    decision_seconds: float = 0.0

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def whole_decisions_per_s(self) -> float:
        return self.decisions / self.seconds

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.decision_seconds if self.decision_seconds else float("nan")


@dataclass
class Row:
    label: str
    samples: list[Sample] = field(default_factory=list)

    def median(self, attr: str) -> float:
        return statistics.median(getattr(s, attr) for s in self.samples)


def ludus_seeded(name: str, options: dict[str, Any], seconds: float, seed: int) -> Sample:
    """Whole seeded games: chance is settled inside ``apply``."""
    from ludus.games import get_game

    game = get_game(name)
    opts = game.parse_options(options)
    rng = random.Random(seed)
    out = Sample()
    game_seed = seed * 1_000_003
    perf = time.perf_counter
    start = perf()
    while perf() - start < seconds:
        state = game.new_initial_state(opts, seed=game_seed)
        game_seed += 1
        while True:
            seats = state.current_seats()
            if not seats:
                break
            seat = seats[0] if len(seats) == 1 else min(seats)
            actions = state.legal_actions(seat)
            state.apply(actions[rng.randrange(len(actions))], seat)
            out.decisions += 1
        out.games += 1
    out.seconds = perf() - start
    return out


def ludus_explicit(name: str, options: dict[str, Any], seconds: float, seed: int) -> Sample:
    """Whole games with explicit chance (``seed=None``), chance steps outside the decision timer."""
    from ludus.core.rng import Rng
    from ludus.games import get_game

    game = get_game(name)
    opts = game.parse_options(options)
    rng = random.Random(seed)
    chance_rng = Rng(seed)
    out = Sample()
    perf = time.perf_counter
    in_decisions = 0.0
    start = perf()
    while perf() - start < seconds:
        state = game.new_initial_state(opts, seed=None)
        mark = perf()
        timing = True
        while True:
            seats = state.current_seats()
            if not seats:
                break
            seat = seats[0]
            if seat == CHANCE:
                if timing:
                    in_decisions += perf() - mark
                    timing = False
                state.apply(state.sample_chance(chance_rng), CHANCE)
                out.chance_steps += 1
                continue
            if not timing:
                mark = perf()
                timing = True
            if len(seats) > 1:
                seat = min(seats)
            actions = state.legal_actions(seat)
            state.apply(actions[rng.randrange(len(actions))], seat)
            out.decisions += 1
        if timing:
            in_decisions += perf() - mark
        out.games += 1
    out.seconds = perf() - start
    out.decision_seconds = in_decisions
    return out


def openspiel_explicit(seconds: float, seed: int) -> Sample:
    """Whole ``oh_hell`` games, 4 players, chance outside the decision timer (as for Ludus)."""
    import pyspiel

    game = pyspiel.load_game("oh_hell", {"players": 4})
    rng = random.Random(seed)
    out = Sample()
    perf = time.perf_counter
    in_decisions = 0.0
    start = perf()
    while perf() - start < seconds:
        state = game.new_initial_state()
        mark = perf()
        timing = True
        while not state.is_terminal():
            if state.is_chance_node():
                if timing:
                    in_decisions += perf() - mark
                    timing = False
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                out.chance_steps += 1
                continue
            if not timing:
                mark = perf()
                timing = True
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
            out.decisions += 1
        if timing:
            in_decisions += perf() - mark
        out.games += 1
    out.seconds = perf() - start
    out.decision_seconds = in_decisions
    return out


def _span(values: list[float]) -> str:
    return f"{statistics.median(values):.2f}x (range {min(values):.2f}-{max(values):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per engine per round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (medians reported)")
    parser.add_argument("--games", default=",".join(LUDUS_GAMES),
                        help="Ludus games (comma-separated); gorus-maximus is compared with oh_hell")
    parser.add_argument("--no-openspiel", action="store_true", help="Ludus rows only")
    parser.add_argument("--json", help="also write the medians and every round's figures here")
    args = parser.parse_args()
    names = [n for n in args.games.split(",") if n]
    unknown = [n for n in names if n not in LUDUS_GAMES]
    if unknown:
        parser.error(f"unknown games {unknown}; choose from {list(LUDUS_GAMES)}")

    runs: list[tuple[Row, Callable[[int], Sample]]] = []
    for name in names:
        opts = LUDUS_GAMES[name]
        tag = f"ludus {name} ({opts.get('players', 2)}p)"
        runs.append((Row(f"{tag}, seeded"), lambda r, n=name, o=opts: ludus_seeded(n, o, args.seconds, r)))
        runs.append((Row(f"{tag}, explicit chance"),
                     lambda r, n=name, o=opts: ludus_explicit(n, o, args.seconds, r)))
    if not args.no_openspiel:
        runs.append((Row("pyspiel oh_hell (4p), explicit chance"),
                     lambda r: openspiel_explicit(args.seconds, r)))

    load_before = os.getloadavg()
    for r in range(args.rounds):  # interleaved, order rotated, so drift hits every engine alike
        k = r % len(runs)
        for row, fn in runs[k:] + runs[:k]:
            row.samples.append(fn(r))
    load_after = os.getloadavg()

    print(f"{'engine':44} {'games/s':>9} {'whole dec/s':>12} {'decision dec/s':>15} "
          f"{'dec/game':>9} {'chance/dec':>10} {'us/dec':>7} {'vs GM':>6}")
    gm_cost = None
    for row, _ in runs:
        if row.label.startswith("ludus gorus-maximus") and row.label.endswith("explicit chance"):
            gm_cost = 1e6 / row.median("decisions_per_s")
    result: dict[str, Any] = {"seconds": args.seconds, "rounds": args.rounds,
                              "load_before": load_before, "load_after": load_after, "rows": {}}
    for row, _ in runs:
        s = row.samples
        dec_game = sum(x.decisions for x in s) / max(1, sum(x.games for x in s))
        explicit = row.label.endswith("explicit chance")
        chance = sum(x.chance_steps for x in s) / max(1, sum(x.decisions for x in s))
        dps = row.median("decisions_per_s") if explicit else float("nan")
        cost = 1e6 / dps if explicit else float("nan")
        rel = f"{cost / gm_cost:6.1f}" if explicit and gm_cost and row.label.startswith("ludus") else ""
        print(f"{row.label:44} {row.median('games_per_s'):9,.1f} {row.median('whole_decisions_per_s'):12,.0f} "
              f"{(f'{dps:,.0f}' if explicit else '-'):>15} {dec_game:9.1f} "
              f"{(f'{chance:.2f}' if explicit else '-'):>10} {(f'{cost:.2f}' if explicit else '-'):>7} {rel:>6}")
        result["rows"][row.label] = {
            "games_per_s": row.median("games_per_s"),
            "whole_decisions_per_s": row.median("whole_decisions_per_s"),
            "decisions_per_s": dps if explicit else None,
            "decisions_per_game": dec_game,
            "chance_steps_per_decision": chance if explicit else None,
            "rounds": [vars(x) for x in s],
        }

    if not args.no_openspiel and "gorus-maximus" in names:
        by = {row.label: row for row, _ in runs}
        seeded = by["ludus gorus-maximus (4p), seeded"].samples
        explicit_gm = by["ludus gorus-maximus (4p), explicit chance"].samples
        os_ = by["pyspiel oh_hell (4p), explicit chance"].samples
        ratios = {
            "whole games, chance included (ludus explicit / oh_hell), decisions/s":
                [a.whole_decisions_per_s / b.whole_decisions_per_s for a, b in zip(explicit_gm, os_)],
            "whole games, chance included (ludus seeded / oh_hell), decisions/s":
                [a.whole_decisions_per_s / b.whole_decisions_per_s for a, b in zip(seeded, os_)],
            "decisions only, chance excluded (ludus / oh_hell), decisions/s":
                [a.decisions_per_s / b.decisions_per_s for a, b in zip(explicit_gm, os_)],
        }
        print("\nratios, Gorus Maximus against oh_hell, per round (median, range):")
        for what, values in ratios.items():
            print(f"  {what}: {_span(values)}")
        result["ratios"] = {k: {"median": statistics.median(v), "min": min(v), "max": max(v), "rounds": v}
                            for k, v in ratios.items()}
    print(f"\nload average before {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, "
          f"after {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f} "
          f"({os.cpu_count()} CPUs); {args.rounds} rounds of {args.seconds:g} s per engine")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
