"""Simulate Gorus Arena to check that the reading plays well (not a timed test).

Checks, each printed as a table:
  1. games end (every game reaches its last round; decisions and length per game);
  2. no pure strategy (always income, always attack, always recruit, …) wins nearly all
     games against the heuristic bot;
  3. the seat a player sits in (and so who starts) gives no large advantage;
  4. scores spread (range, spread between winner and last, how often games tie).

Columns of table 1: win share of each seat (seat 1 starts round 1, the start then rotates),
mean / standard deviation / min / max of all final scores, spread (winner minus last) and
margin (winner minus runner-up) averaged over games, ties (games where the top two are level
on points), decisions per game, share of games that reached the last round, gladiators
killed per game and cards recruited per player.

Run:  .venv/bin/python benchmarks/gorus_arena_sim.py [--games N] [--seed S] [--option k=v ...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ludus.agents.base import Agent, RandomAgent
from ludus.core.game import Action, SeatView
from ludus.games.gorus_arena.actions import Attack, Income, Pass, Place, Recruit
from ludus.games.gorus_arena.cards import KIND_BY_KEY, POINTS
from ludus.games.gorus_arena.game import GAME
from ludus.games.gorus_arena.heuristic import GorusArenaHeuristic, kills


# --------------------------------------------------------------------------- pure strategies
class PureStrategy(Agent):
    """Plans its hand in the order held and always prefers one kind of move.

    ``prefer`` lists move kinds best first; the first kind with a legal move is played.
    Recruits go for the card that best serves the strategy (``buy_key``)."""

    prefer: tuple[str, ...] = ()

    def buy_key(self, kind) -> tuple:  # larger is better
        return (kind.cost,)

    def act(self, view: SeatView) -> Action:
        legal = view.legal_actions
        if len(legal) == 1 or isinstance(legal[0], Place):
            return legal[0]
        obs = view.observation
        for want in self.prefer:
            if want == "income" and any(isinstance(a, Income) for a in legal):
                return next(a for a in legal if isinstance(a, Income))
            if want == "recruit":
                buys = [a for a in legal if isinstance(a, Recruit) and self.wants(KIND_BY_KEY[a.card])]
                if buys:
                    return max(buys, key=lambda a: self.buy_key(KIND_BY_KEY[a.card]))
            if want == "attack":
                hits = [a for a in legal if isinstance(a, Attack) and kills(obs, obs.pending[1], a.target)]
                if hits:
                    return max(hits, key=lambda a: POINTS[a.target])
        return next((a for a in legal if isinstance(a, Pass)), legal[0])  # a refill pick (refill=choose)

    def wants(self, kind) -> bool:
        return True


class AlwaysIncome(PureStrategy):
    """Takes income whenever it can and never buys or attacks."""

    name = "always-income"
    prefer = ("income",)


class AlwaysRecruit(PureStrategy):
    """Recruits the most expensive card it can afford every time; income otherwise."""

    name = "always-recruit"
    prefer = ("recruit", "income")


class AlwaysAttack(PureStrategy):
    """Kills whenever it can, buys the strongest attackers, takes income otherwise."""

    name = "always-attack"
    prefer = ("attack", "recruit", "income")

    def wants(self, kind) -> bool:
        return "attack" in kind.actions

    def buy_key(self, kind) -> tuple:
        return (kind.strength, -kind.cost)


class PointsOnly(PureStrategy):
    """Buys the most points it can afford (gladiators only), income otherwise."""

    name = "points-only"
    prefer = ("recruit", "income")

    def wants(self, kind) -> bool:
        return kind.gladiator

    def buy_key(self, kind) -> tuple:
        return (kind.points, -kind.cost)


class ActionCardsOnly(PureStrategy):
    """Buys only action cards (armoury), uses them greedily; the deck-engine extreme."""

    name = "armoury-only"
    prefer = ("attack", "recruit", "income")

    def wants(self, kind) -> bool:
        return not kind.gladiator


class Turtle(PureStrategy):
    """Buys defence cards and the toughest gladiators; never attacks."""

    name = "turtle"
    prefer = ("recruit", "income")

    def wants(self, kind) -> bool:
        return "defence" in kind.actions or kind.defence >= 4

    def buy_key(self, kind) -> tuple:
        return (kind.defence, kind.points)


PURE: list[Callable[[int], Agent]] = [AlwaysIncome, AlwaysRecruit, AlwaysAttack, PointsOnly, ActionCardsOnly,
                                      Turtle, RandomAgent]


# --------------------------------------------------------------------------- running games
def play(agents: list[Agent], options: dict, seed: int):
    state = GAME.new_initial_state(options, seed=seed)
    decisions = 0
    while not state.is_terminal():
        seat = state.current_seats()[0]
        state.apply(agents[seat].act(state.view(seat)), seat)
        decisions += 1
        if decisions > 10_000:
            raise RuntimeError(f"game with seed {seed} did not end")
    return state, decisions


def share(state, seat: int) -> float:
    win = state.winners()
    return 1.0 / len(win) if seat in win else 0.0


def seat_order(games: int, players: int, base: dict, seed: int) -> tuple[list[float], dict]:
    opts = dict(base, players=players)
    wins = [0.0] * players
    scores, spreads, margins, lengths, ties, rounds_done = [], [], [], [], 0, 0
    kills, recruits = [], []
    for g in range(games):
        agents = [GorusArenaHeuristic(seed * 7919 + g * 31 + s) for s in range(players)]
        state, decisions = play(agents, opts, seed + g)
        sc = state.scores()
        for s in range(players):
            wins[s] += share(state, s)
        scores.extend(sc)
        ordered = sorted(sc, reverse=True)
        spreads.append(ordered[0] - ordered[-1])
        margins.append(ordered[0] - ordered[1])
        ties += ordered[0] == ordered[1]  # level on points (the coins tie-break may still decide)
        lengths.append(decisions)
        rounds_done += state.round == state.options.rounds
        kills.append(state.dead.bit_count())
        recruits.append(sum(isinstance(a, Recruit) for _, a in state.history) / players)
    stats = {
        "mean": statistics.mean(scores), "sd": statistics.pstdev(scores), "min": min(scores), "max": max(scores),
        "spread": statistics.mean(spreads), "margin": statistics.mean(margins), "ties": ties / games,
        "decisions": statistics.mean(lengths), "complete": rounds_done / games,
        "kills": statistics.mean(kills), "recruits": statistics.mean(recruits),
    }
    return [w / games for w in wins], stats


def pure_vs_heuristic(make: Callable[[int], Agent], games: int, players: int, base: dict, seed: int) -> float:
    """Win share of one pure-strategy seat (rotating through the seats) against heuristics."""
    opts = dict(base, players=players)
    total = 0.0
    for g in range(games):
        seat = g % players
        agents: list[Agent] = [GorusArenaHeuristic(seed + g * 13 + s) for s in range(players)]
        agents[seat] = make(seed + g)
        state, _ = play(agents, opts, seed + 10_000 + g)
        total += share(state, seat)
    return total / games


VARIANTS: list[dict] = [
    {}, {"tie_resolution": "turn-order"}, {"attack_targets": "arena"}, {"attack_targets": "team"},
    {"auction": "per-round"}, {"defence_timing": "execution"}, {"starting_player": "trailing"},
    {"free_plan": True}, {"armoury": False},
]


def variants(games: int, counts: list[int], seed: int) -> int:
    """Heuristic self-play under each alternative option value."""
    print(f"Gorus Arena option variants: {games} self-play games per cell, seed {seed}")
    print("cells: win share by seat in % · mean score · gladiators killed per game")
    for opts in VARIANTS:
        cells = []
        for n in counts:
            wins, st = seat_order(games, n, opts, seed)
            shares = "/".join(f"{w * 100:.0f}" for w in wins)
            cells.append(f"{n}p {shares} · {st['mean']:.1f} · {st['kills']:.1f}")
        name = ", ".join(f"{k}={v}" for k, v in opts.items()) or "default"
        print(f"{name:<28} " + " | ".join(cells), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400, help="games per table cell (default 400)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    parser.add_argument("--players", default="2,3,4,5", help="player counts to try (default 2,3,4,5)")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--variants", action="store_true",
                        help="instead: self-play under each alternative option value (seat shares, mean score, kills)")
    args = parser.parse_args(argv)
    if args.variants:
        return variants(args.games, [int(p) for p in args.players.split(",")], args.seed)
    base = dict(pair.split("=", 1) for pair in args.option)
    counts = [int(p) for p in args.players.split(",")]
    GAME.parse_options(dict(base, players=counts[0]))  # fail early on bad options
    t0 = time.time()
    print(f"Gorus Arena simulation: {args.games} games per cell, seed {args.seed}, options {base or 'default'}")

    print("\n1-4. Heuristic self-play: win share by seat (seat 1 starts round 1), scores, length")
    print(f"{'players':>7} | {'win share by seat':<34} | {'mean':>5} {'sd':>4} {'min':>4} {'max':>4} | "
          f"{'spread':>6} {'margin':>6} {'ties':>5} | {'decisions':>9} {'complete':>8} {'kills':>5} {'buys':>5}")
    for n in counts:
        wins, st = seat_order(args.games, n, base, args.seed)
        ws = " ".join(f"{w:5.1%}" for w in wins)
        print(f"{n:>7} | {ws:<34} | {st['mean']:5.1f} {st['sd']:4.1f} {st['min']:4.0f} {st['max']:4.0f} | "
              f"{st['spread']:6.1f} {st['margin']:6.1f} {st['ties']:5.1%} | {st['decisions']:9.1f} "
              f"{st['complete']:8.0%} {st['kills']:5.1f} {st['recruits']:5.1f}")

    print("\n2. One pure-strategy seat against heuristic bots: its win share (fair share in brackets)")
    header = " ".join(f"{n}p ({1 / n:4.0%})".rjust(11) for n in counts)
    print(f"{'strategy':<16} {header}")
    def heur(s: int) -> Agent:
        return GorusArenaHeuristic(s)

    heur.name = "heuristic"  # type: ignore[attr-defined]
    for make in [heur, *PURE]:
        name = getattr(make, "name", "?")
        cells = [pure_vs_heuristic(make, args.games, n, base, args.seed) for n in counts]
        print(f"{name:<16} " + " ".join(f"{c:11.1%}" for c in cells))
    print(f"\n({time.time() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
