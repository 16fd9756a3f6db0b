"""Turning game results into numbers: win shares with confidence intervals, scores, ratings.

Win *share* credits a game's winners with 1 split evenly among them (a two-way tie gives
each 0.5), so shares over a game add up to one and compare agents fairly. Win *rate* asks
only whether an agent was among the winners; it is what a team member or a solo player
cares about. Both come with Wilson score intervals, which stay inside [0, 1] and behave
well near 0 and 1 where the normal approximation does not. For shares the interval treats
the summed shares as the count of successes, a close approximation when ties are rare.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .tournament import GameResult

__all__ = ["Z95", "Rating", "Ratings", "Summary", "Tally", "rate", "summarize", "wilson", "winners_first"]

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion; (0, 1) when there is no data."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Tally:
    """Running totals for one agent, one seat, or one agent at one seat."""

    games: int = 0
    wins: int = 0
    share: float = 0.0
    scores: list[float] = field(default_factory=list)

    def add(self, won: bool, share: float, score: float) -> None:
        self.games += 1
        self.wins += int(won)
        self.share += share
        self.scores.append(score)

    @property
    def win_share(self) -> float:
        return self.share / self.games if self.games else 0.0

    @property
    def share_ci(self) -> tuple[float, float]:
        return wilson(self.share, self.games)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def rate_ci(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        return statistics.fmean(self.scores) if self.scores else 0.0

    @property
    def score_sd(self) -> float:
        return statistics.stdev(self.scores) if len(self.scores) > 1 else 0.0

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.share_ci
        rlo, rhi = self.rate_ci
        return {"games": self.games, "wins": self.wins, "win_share": self.win_share, "share_ci": [lo, hi],
                "win_rate": self.win_rate, "rate_ci": [rlo, rhi], "mean_score": self.mean_score,
                "score_sd": self.score_sd}


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """A cautious single number (mu - 3 sigma) to rank by."""
        return self.mu - 3 * self.sigma


def winners_first(winners: Sequence[int], seats: int) -> list[int]:
    """Each seat's place for a rating: the winners share first, everyone else shares second
    (what a score means differs between games, so scores are not ranked). The server's
    ratings rank games the same way (``ludus.server.ratings``)."""
    won = set(winners)
    return [1 if seat in won else 2 for seat in range(seats)]


@dataclass
class Ratings:
    """OpenSkill (Plackett-Luce) ratings after every game, fed in game-index order."""

    final: dict[str, Rating]
    history: list[tuple[int, str, Rating]]  # (game index, agent, rating after that game)


def rate(results: Sequence[GameResult], labels: Sequence[str]) -> Ratings:
    """Rate the entries: each game ranks its winners first and everyone else tied second.

    Scores are not used for the order because what a score means differs between games
    (and a game's winner need not have the highest one). Single-seat games rate nothing.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = {label: model.rating(name=label) for label in labels}
    history: list[tuple[int, str, Rating]] = []
    for result in sorted(results, key=lambda r: r.index):
        if len(result.seating) < 2:
            continue
        seat_labels = [labels[e] for e in result.seating]
        teams = [[current[label]] for label in seat_labels]
        updated = model.rate(teams, ranks=list(winners_first(result.winners, len(seat_labels))))
        for label, team in zip(seat_labels, updated):
            current[label] = team[0]
            history.append((result.index, label, Rating(team[0].mu, team[0].sigma)))
    final = {label: Rating(r.mu, r.sigma) for label, r in current.items()}
    return Ratings(final=final, history=history)


@dataclass
class Summary:
    """Aggregates of a tournament: per agent, per agent and seat, and per seat whoever sat there."""

    labels: tuple[str, ...]
    kinds: tuple[str, ...]
    agents: dict[str, Tally]
    agent_seats: dict[tuple[str, int], Tally]
    seats: dict[int, Tally]
    ratings: Ratings | None
    games: int
    mean_decisions: float

    def ranked(self) -> list[str]:
        """Agents from best to worst win share (ties broken by rating, then name)."""
        def key(label: str) -> tuple[float, float, str]:
            rating = self.ratings.final[label].ordinal if self.ratings else 0.0
            return (-self.agents[label].win_share, -rating, label)

        return sorted(self.labels, key=key)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"games": self.games, "mean_decisions": self.mean_decisions, "agents": []}
        for label, kind in zip(self.labels, self.kinds):
            entry = {"agent": label, "kind": kind, **self.agents[label].to_json()}
            if self.ratings:
                r = self.ratings.final[label]
                entry["rating"] = {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal}
            entry["seats"] = [{"seat": seat + 1, **tally.to_json()}
                              for (lab, seat), tally in sorted(self.agent_seats.items()) if lab == label]
            out["agents"].append(entry)
        out["seats"] = [{"seat": seat + 1, **tally.to_json()} for seat, tally in sorted(self.seats.items())]
        return out


def summarize(results: Sequence[GameResult], kinds: Sequence[str], labels: Sequence[str],
              with_ratings: bool = True) -> Summary:
    """Aggregate results; deterministic for the same results whatever order they arrive in."""
    ordered = sorted(results, key=lambda r: r.index)
    agents = {label: Tally() for label in labels}
    agent_seats: dict[tuple[str, int], Tally] = {}
    seats: dict[int, Tally] = {}
    for result in ordered:
        for seat, entry in enumerate(result.seating):
            label = labels[entry]
            won = seat in result.winners
            share, score = result.shares[seat], result.scores[seat]
            agents[label].add(won, share, score)
            agent_seats.setdefault((label, seat), Tally()).add(won, share, score)
            seats.setdefault(seat, Tally()).add(won, share, score)
    mean_decisions = statistics.fmean(r.decisions for r in ordered) if ordered else 0.0
    return Summary(
        labels=tuple(labels), kinds=tuple(kinds), agents=agents, agent_seats=agent_seats, seats=seats,
        ratings=rate(ordered, labels) if with_ratings else None, games=len(ordered),
        mean_decisions=mean_decisions,
    )
