"""Hints: "what would the bot play?" for one seat, from that seat's own view.

Why it is built this way:

* It takes a :class:`~ludus.core.game.SeatView` and nothing else, exactly what a bot gets, so
  a hint cannot reveal a card the player has not seen: every determinization the search
  plays out comes from ``game.sample_state(view, rng)``.
* It runs the ISMCTS level the bots use (``hard`` by default) with that level's settings for
  the game (rollout policy, paired root, score blend), but bounded in wall time rather than
  iterations, so it answers within about two seconds on any machine. A fixed ``iterations``
  makes it reproducible instead (tests, benchmarks).
* The number shown per move is the mean reward of the search. Where the level blends the
  final score into the reward (``score_weight > 0``, Gladius and Circus Maximus) that mean is
  not a pure win rate: it is an *estimated share of the win*, a win counting 1 and a loss
  counting up to ``score_weight`` for a close score. :attr:`Hint.measure` says which it is,
  so a page never calls a blended value a win chance. The ranking keeps the blend on
  purpose: a seat that loses most rollouts still learns which move loses by less.
* Each move carries a conservative standard error of its mean: a reward in [0, 1] with mean
  ``m`` has variance at most ``m (1 - m)``, and with few samples ``m`` is pulled towards 1/2
  first (Agresti and Coull's "add two wins and two losses"), so a move seen twice and lost
  twice does not claim an error of zero. A reader can tell a clear favourite from a coin toss.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from ..core.errors import LudusError
from ..core.game import Action, SeatView
from .ismcts import ISMCTSAgent, ISMCTSEasy, ISMCTSHard, ISMCTSMedium

__all__ = ["LEVELS", "Hint", "HintError", "HintMove", "suggest"]

LEVELS: dict[str, type[ISMCTSAgent]] = {"easy": ISMCTSEasy, "medium": ISMCTSMedium, "hard": ISMCTSHard}

WIN = "win chance"
SHARE = "share of the win"


class HintError(LudusError):
    """A hint that cannot be given (no move to make, unknown level, bad budget)."""


@dataclass(frozen=True)
class HintMove:
    """One suggested move with what the search thinks of it."""

    action: Action
    label: str
    chance: float | None  # mean reward in [0, 1]; None when the move is the only one
    visits: int
    error: float | None  # upper bound on the standard error of ``chance``

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action.to_json(),
            "label": self.label,
            "chance": None if self.chance is None else round(self.chance, 4),
            "visits": self.visits,
            "error": None if self.error is None else round(self.error, 4),
        }


@dataclass(frozen=True)
class Hint:
    """The top moves (best first, at most three), how many samples and how long it took."""

    game: str
    seat: int
    level: str
    measure: str  # WIN or SHARE: what ``HintMove.chance`` estimates
    moves: tuple[HintMove, ...]
    samples: int
    seconds: float
    forced: bool  # a single legal move: answered without searching

    @property
    def best(self) -> HintMove:
        return self.moves[0]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seat": self.seat,
            "level": self.level,
            "measure": self.measure,
            "moves": [m.to_json() for m in self.moves],
            "samples": self.samples,
            "seconds": round(self.seconds, 3),
            "forced": self.forced,
        }

    def same_advice(self, other: Hint) -> bool:
        """Equal but for the time taken (which no two runs share)."""
        return self.to_json() | {"seconds": 0} == other.to_json() | {"seconds": 0}


def _error(mean: float, n: int) -> float:
    """A conservative standard error for the mean of ``n`` rewards in [0, 1] (see the module notes)."""
    shrunk = (mean * n + 2) / (n + 4)
    return math.sqrt(shrunk * (1 - shrunk) / (n + 4))


def suggest(
    view: SeatView,
    *,
    seconds: float | None = 1.5,
    seed: int = 0,
    level: str = "hard",
    iterations: int | None = None,
    top: int = 3,
) -> Hint:
    """The bot's best moves for ``view``'s seat, from that view alone.

    ``seconds`` bounds the search in wall time (the first paired pass always completes, so a
    game with a paired root may run a little over); ``iterations`` bounds it in samples and
    makes the answer reproducible for a given seed. With both, whichever ends first.
    """
    if level not in LEVELS:
        raise HintError(f"unknown hint level {level!r}; known: {', '.join(LEVELS)}")
    if seconds is None and iterations is None:
        raise HintError("a hint needs a time or an iteration budget")
    if seconds is not None and not seconds > 0:
        raise HintError("hint seconds must be positive")
    if iterations is not None and iterations < 1:
        raise HintError("hint iterations must be at least 1")
    legal = view.legal_actions
    if not legal:
        raise HintError("there is no move to suggest now")
    agent = LEVELS[level](seed, iterations=iterations, seconds=seconds)
    weight = agent.budget(view.game)[3]
    measure = SHARE if weight > 0 else WIN
    start = time.perf_counter()
    if len(legal) == 1:
        only = HintMove(legal[0], legal[0].label, None, 0, None)
        return Hint(view.game.name, view.seat, level, measure, (only,), 0, time.perf_counter() - start, True)
    stats = agent.search(view)
    paired = agent._settings(view.game).paired
    used = time.perf_counter() - start

    def rank(action: Action) -> tuple[float, float]:
        n, mean = stats.get(action, (0, 0.0))
        # the bot's own order: most visited first (ties: higher mean); a paired root visits every
        # move equally, so there the mean decides
        return (mean, n) if paired else (n, mean)

    order = sorted(legal, key=rank, reverse=True)  # stable: ties keep the game's order
    moves = []
    for action in order[: max(1, top)]:
        n, mean = stats.get(action, (0, 0.0))
        chance = min(1.0, max(0.0, mean)) if n else None
        error = _error(mean, n) if n else None
        moves.append(HintMove(action, action.label, chance, n, error))
    return Hint(view.game.name, view.seat, level, measure, tuple(moves), agent.last_iterations, used, False)
