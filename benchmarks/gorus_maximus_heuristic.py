"""How much better than chance is the Gorus Maximus heuristic? (one heuristic vs random bots)

Plays N games of 4-player Gorus Maximus, the heuristic in a rotating seat against three
random bots, and reports its win share with a 95% Wilson interval against the 25% that a
seat gets by chance. Shared wins count as a fraction. Also runs solo and 2v2 team games.

    python benchmarks/gorus_maximus_heuristic.py [--games 1000]
"""

from __future__ import annotations

import argparse

from ludus.agents.base import make_agent
from ludus.games.gorus_maximus.game import GAME
from ludus.sim.stats import wilson


def share(options: dict, games: int, hero_kind: str = "heuristic") -> tuple[float, int]:
    total = 0.0
    for g in range(games):
        state = GAME.new_initial_state(options, seed=10_000 + g)
        n = state.num_seats()
        hero = g % n
        agents = [make_agent(hero_kind if s == hero else "random", GAME, seed=g * 31 + s) for s in range(n)]
        while not state.is_terminal():
            seat = state.current_seats()[0]
            state.apply(agents[seat].act(state.view(seat)), seat)
        winners = state.winners()
        if hero in winners:
            total += 1.0 / len(winners) if not state.options.teams else 1.0
    return total, games


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    rows = [
        ("4 players, heuristic vs 3 random", {"players": 4}, 0.25),
        ("solo, heuristic vs contenders", {"players": 1}, None),
        ("solo, random vs contenders", {"players": 1}, None),
        ("2v2 teams, heuristic + random vs 2 random", {"players": 4, "teams": "2v2"}, 0.5),
    ]
    print(f"{'setting':45} {'games':>6} {'win share':>10} {'95% CI':>17} {'chance':>7}")
    for label, options, chance in rows:
        kind = "random" if label.startswith("solo, random") else "heuristic"
        wins, n = share(options, args.games, kind)
        lo, hi = wilson(wins, n)
        ch = f"{chance:.0%}" if chance is not None else "-"
        print(f"{label:45} {n:>6} {wins / n:>10.1%} {f'[{lo:.1%}, {hi:.1%}]':>17} {ch:>7}")


if __name__ == "__main__":
    main()
