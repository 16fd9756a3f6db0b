"""Post-game analysis: every decision of one seat, judged from that seat's view at the time.

Why it works this way (docs/agents.md, "Post-game analysis"):

* **View only.** Each decision is evaluated from ``state.view(seat)`` as it was before the
  move, and the search sees nothing else: determinizations come from
  ``game.sample_state(view, rng)``. Two positions that differ only in cards the seat has not
  seen therefore get the same analysis for the same seed (tests/agents/test_review.py).
* **Paired rollouts.** Each sampled deal, with its generator and so its chance to come, is
  played out once after *every* candidate move, and the rollout policy's generator is reset
  to the same value for each candidate. Moves are then compared on the same deals, draws and
  policy coin flips (common random numbers), so the difference between two moves has a
  small, honest standard error: that of the mean of the per-deal differences.
* **What the number is.** A move's *estimated win chance* is the mean reward of the seat over
  the rollouts after it: 1 for a win, shared on a tie, 0 for a loss (``score_weight`` can blend
  in the final scores rescaled to [0, 1], and then the number is no longer a pure win
  chance). Rollouts play the game's heuristic (or random moves for a game without one), so it
  is the win chance *if every seat then plays like the heuristic*, not a perfect-play value.
* **Marks.** The played move is marked only when its drop below the best candidate exceeds a
  threshold (:data:`THRESHOLDS`) **and** ``z`` standard errors of the paired difference; a
  smaller or noisier drop is "fine". The best candidate is itself the highest of several noisy
  means, so ``z`` grows with the number of candidates (:func:`z_for`): with every move in fact
  equal, noise gets the played move marked at most ``ALPHA`` of the time.
* **Many moves.** With more legal moves than ``max_moves``, a short first pass on its own
  deals keeps the most promising ones (and always the move played) for the main pass.
* **Deterministic, bounded.** Each decision's search is seeded from ``seed`` and the move
  number alone, and budgeted in deals (``samples``); ``seconds_per_decision`` and the whole
  review's ``deadline`` / ``max_seconds`` only cut it short (then the sample counts say so,
  and decisions not reached are listed as not analysed).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

from ..core.errors import LudusError
from ..core.game import CHANCE, Action, Game, SeatView
from ..core.plugin import FLAT
from ..core.records import Record, initial_state, iter_replay
from ..core.rng import Rng
from ..games import get_game
from .base import has_heuristic
from .ismcts import ISMCTSAgent

__all__ = [
    "DEFAULT_MAX_MOVES",
    "DEFAULT_SAMPLES",
    "MARKS",
    "MIN_MARK_SAMPLES",
    "THRESHOLDS",
    "Decision",
    "GameReview",
    "MoveEstimate",
    "ReviewError",
    "Z",
    "evaluate_view",
    "mark_for",
    "review_game",
    "z_for",
]

DEFAULT_SAMPLES = 24
"""Deals per decision; each is played out once after every candidate move."""
DEFAULT_MAX_MOVES = 8
"""At most this many candidate moves reach the main pass (the played one always does)."""
PRESCREEN_SAMPLES = 4
"""Deals of the first pass that picks the candidates when there are more moves than that."""
MIN_SAMPLES = 2
"""A decision gets at least this many deals, even past a time limit (a standard error needs two)."""
MIN_MARK_SAMPLES = 8
"""Fewer deals than this never mark a move: their spread says too little about the noise
(two deals that happen to agree have a standard error of 0)."""

THRESHOLDS: tuple[tuple[str, float], ...] = (("blunder", 0.20), ("mistake", 0.10), ("inaccuracy", 0.05))
"""Drop in estimated win chance below the best move (largest first) from which a move gets each mark."""
ALPHA = 0.025
"""Chance, when every move is in fact as good as the one played, that noise alone gets it marked."""
Z = NormalDist().inv_cdf(1 - ALPHA)
"""Standard errors a drop must exceed when two moves are compared (1.96); see :func:`z_for`."""
MARKS = ("best", "fine", "inaccuracy", "mistake", "blunder")


class ReviewError(LudusError):
    """A review that cannot be made: a bad seat, a bad record, a game without a sampler."""


@dataclass(frozen=True)
class MoveEstimate:
    """One candidate move: its estimated win chance and how sure that is relative to the best."""

    label: str
    action: Any  # the action's JSON
    value: float  # mean reward after this move (see the module doc for what it means)
    diff_std_error: float  # standard error of (best - this) over the paired deals; 0 for the best

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "action": self.action, "value": _round(self.value),
                "diff_std_error": _round(self.diff_std_error)}


@dataclass(frozen=True)
class Decision:
    """The analysis of one decision of the seat."""

    ply: int  # 1-based number of the action in the record (as ``ludus replay`` and the replay page count)
    played: str
    played_action: Any
    best: str
    best_action: Any
    played_value: float
    best_value: float
    drop: float  # best_value - played_value (0 when the played move is the best)
    std_error: float  # standard error of the drop (paired over the same deals); inf with too few deals
    z: float  # standard errors the drop had to exceed to be marked (z_for the number of candidates)
    mark: str  # one of MARKS
    samples: int  # deals the main pass played out after every candidate
    legal_moves: int
    candidates: tuple[MoveEstimate, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "ply": self.ply, "played": self.played, "played_action": self.played_action,
            "best": self.best, "best_action": self.best_action,
            "played_value": _round(self.played_value), "best_value": _round(self.best_value),
            "drop": _round(self.drop), "std_error": _round(self.std_error), "z": round(self.z, 3), "mark": self.mark,
            "samples": self.samples, "legal_moves": self.legal_moves,
            "candidates": [c.to_json() for c in self.candidates],
        }


@dataclass(frozen=True)
class GameReview:
    """Every analysed decision of one seat, the win-chance curve and the totals."""

    game: str
    seat: int  # 0-based
    decisions: tuple[Decision, ...]
    forced: int  # decisions with a single legal move, not analysed
    not_analysed: tuple[int, ...]  # plies left when the time limit ran out
    stopped_at_deadline: bool
    seconds: float
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def curve(self) -> list[tuple[int, float]]:
        """(ply, estimated win chance of the move played) at each analysed decision."""
        return [(d.ply, d.played_value) for d in self.decisions]

    @property
    def totals(self) -> dict[str, int]:
        counts = dict.fromkeys(MARKS, 0)
        for d in self.decisions:
            counts[d.mark] += 1
        return counts

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "seat": self.seat,
            "decisions": [d.to_json() for d in self.decisions],
            "curve": [[ply, _round(v)] for ply, v in self.curve],
            "totals": self.totals | {"analysed": len(self.decisions), "forced": self.forced,
                                     "not_analysed": len(self.not_analysed)},
            "not_analysed": list(self.not_analysed),
            "stopped_at_deadline": self.stopped_at_deadline,
            "seconds": round(self.seconds, 3),
            "settings": self.settings,
            "thresholds": dict(THRESHOLDS), "alpha": ALPHA,
        }


def _round(x: float) -> float | None:
    return None if math.isinf(x) or math.isnan(x) else round(x, 4)


def z_for(candidates: int) -> float:
    """Standard errors a drop must exceed when the best is the highest of ``candidates`` estimates.

    The played move is compared with the best of the others, so noise has ``candidates - 1``
    chances to make one of them look better; the one-sided level is split among them
    (Bonferroni): 1.96 for two candidates, 2.45 for four, 2.69 for eight.
    """
    return NormalDist().inv_cdf(1 - ALPHA / max(1, candidates - 1))


def mark_for(drop: float, std_error: float, z: float = Z) -> str:
    """The mark of a move ``drop`` below the best, with that standard error (the documented rule)."""
    if drop <= 0:
        return "best"
    if not drop > z * std_error:  # also an infinite standard error
        return "fine"
    for name, threshold in THRESHOLDS:
        if drop >= threshold:
            return name
    return "fine"


class _Evaluator(ISMCTSAgent):
    """Plays paired rollouts from one view; only ISMCTS's rollout machinery is reused."""

    def __init__(self, seed: int, game: Game, score_weight: float, rollout: str | None) -> None:
        super().__init__(seed, paired=True, expand_after=FLAT)
        self._rollout_kind = rollout or ("heuristic" if has_heuristic(game) else "random")
        self._score_weight = score_weight
        self.sampler = Rng(seed)

    def play_paired(self, view: SeatView, moves: Sequence[Action], samples: int,
                    stop_at: float | None, minimum: int) -> dict[Action, list[float]]:
        """Per move, the seat's reward on each deal; every move is played on the same deals."""
        me = view.seat
        rewards: dict[Action, list[float]] = {a: [] for a in moves}
        for k in range(samples):
            if k >= minimum and stop_at is not None and time.monotonic() >= stop_at:
                break
            try:
                sample = view.game.sample_state(view, self.sampler)
            except NotImplementedError as exc:
                raise ReviewError(f"{view.game.title} cannot be analysed: {exc}") from None
            base = self.sampler.next_u64()
            for action in moves:
                state = sample.clone()
                state.apply(action, me)
                self.rng = Rng(base)  # the same policy coin flips after every move
                self._policies.clear()
                rewards[action].append(self._rollout(state, view)[me])
        return rewards


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _diff_se(a: Sequence[float], b: Sequence[float]) -> float:
    """Standard error of mean(a - b) over paired samples; inf with fewer than two."""
    n = min(len(a), len(b))
    if n < 2:
        return math.inf
    diffs = [x - y for x, y in zip(a, b)]
    m = sum(diffs) / n
    return math.sqrt(sum((d - m) ** 2 for d in diffs) / (n - 1) / n)


def _decision_seed(seed: int, ply: int) -> int:
    """A seed for one decision from the review's seed and the (public) move number only."""
    rng = Rng(seed)
    rng.state = (rng.state + ply * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
    return rng.next_u64()


def evaluate_view(
    view: SeatView,
    played: Action,
    ply: int,
    *,
    samples: int = DEFAULT_SAMPLES,
    max_moves: int = DEFAULT_MAX_MOVES,
    seed: int = 0,
    score_weight: float = 0.0,
    rollout: str | None = None,
    stop_at: float | None = None,
) -> Decision:
    """Analyse one decision from the seat's view alone (``stop_at``: a ``time.monotonic()`` limit)."""
    legal = view.legal_actions
    if played not in legal:
        raise ReviewError(f"move {ply}: {played} was not a legal move of seat {view.seat + 1}")
    evaluator = _Evaluator(_decision_seed(seed, ply), view.game, score_weight, rollout)
    moves: list[Action] = list(legal)
    if len(moves) > max_moves:
        first = evaluator.play_paired(view, moves, PRESCREEN_SAMPLES, stop_at, 1)
        order = sorted(range(len(moves)), key=lambda i: (-_mean(first[moves[i]]), i))
        keep = set(order[: max(1, max_moves - 1)]) | {moves.index(played)}
        moves = [a for i, a in enumerate(moves) if i in keep]
    rewards = evaluator.play_paired(view, moves, samples, stop_at, MIN_SAMPLES)
    means = {a: _mean(rewards[a]) for a in moves}
    best = max(moves, key=lambda a: means[a])  # the first of equals, in legal order
    candidates = tuple(
        MoveEstimate(a.label, a.to_json(), means[a], 0.0 if a == best else _diff_se(rewards[best], rewards[a]))
        for a in sorted(moves, key=lambda a: -means[a])
    )
    drop = max(0.0, means[best] - means[played]) if played != best else 0.0
    se = 0.0 if played == best else _diff_se(rewards[best], rewards[played])
    z = z_for(len(moves))
    mark = mark_for(drop, se, z) if len(rewards[played]) >= MIN_MARK_SAMPLES else "fine"
    return Decision(
        ply=ply, played=played.label, played_action=played.to_json(), best=best.label,
        best_action=best.to_json(), played_value=means[played], best_value=means[best], drop=drop,
        std_error=se, z=z, mark=mark if played != best else "best",
        samples=len(rewards[played]), legal_moves=len(legal), candidates=candidates,
    )


def _decisions_of(record: Record, seat: int, find_game: Callable[[str], Game]) -> tuple[list, int]:
    """(ply, view, played) for each decision of ``seat`` with a choice, and how many were forced."""
    n = initial_state(record, find_game).num_seats()
    if not 0 <= seat < n:
        raise ReviewError(f"seat {seat + 1} is not a seat of this game (1 to {n})")
    todo: list[tuple[int, SeatView, Action]] = []
    forced = 0
    for i, (state, actor, action) in enumerate(iter_replay(record, find_game)):
        if actor != seat or actor == CHANCE:
            continue
        view = state.view(seat)  # a snapshot: everything in a view is immutable
        if len(view.legal_actions) < 2:
            forced += 1
        else:
            todo.append((i + 1, view, action))
    return todo, forced


def review_game(
    record: Record,
    seat: int,
    *,
    samples: int = DEFAULT_SAMPLES,
    seconds_per_decision: float | None = None,
    max_seconds: float | None = None,
    deadline: float | None = None,
    max_moves: int = DEFAULT_MAX_MOVES,
    seed: int = 0,
    score_weight: float = 0.0,
    rollout: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    find_game: Callable[[str], Game] = get_game,
) -> GameReview:
    """Analyse every decision of ``seat`` (0-based) in ``record``; see the module doc.

    ``deadline`` is a ``time.monotonic()`` value, ``max_seconds`` a duration from now; the
    earlier one ends the review, and the decisions not reached are listed in ``not_analysed``.
    ``progress(done, total)`` is called before the first decision and after each one.
    """
    if samples < MIN_SAMPLES:
        raise ReviewError(f"samples must be at least {MIN_SAMPLES}")
    if max_moves < 2:
        raise ReviewError("max_moves must be at least 2")
    if seconds_per_decision is not None and not seconds_per_decision > 0:
        raise ReviewError("seconds per decision must be positive")
    if not 0 <= score_weight <= 1:
        raise ReviewError("score_weight must be between 0 and 1")
    started = time.monotonic()
    limits = [x for x in (deadline, None if max_seconds is None else started + max_seconds) if x is not None]
    end = min(limits) if limits else None
    todo, forced = _decisions_of(record, seat, find_game)
    total = len(todo)
    if progress is not None:
        progress(0, total)
    done: list[Decision] = []
    skipped: list[int] = []
    for ply, view, played in todo:
        now = time.monotonic()
        if end is not None and now >= end:
            skipped.append(ply)
            continue
        stop_at = end
        if seconds_per_decision is not None:
            stop_at = now + seconds_per_decision if stop_at is None else min(stop_at, now + seconds_per_decision)
        done.append(evaluate_view(view, played, ply, samples=samples, max_moves=max_moves, seed=seed,
                                  score_weight=score_weight, rollout=rollout, stop_at=stop_at))
        if progress is not None:
            progress(len(done), total)
    settings = {"samples": samples, "max_moves": max_moves, "seed": seed, "score_weight": score_weight,
                "seconds_per_decision": seconds_per_decision, "max_seconds": max_seconds,
                "rollout": rollout or ("heuristic" if todo and has_heuristic(todo[0][1].game) else "random")}
    cut = bool(skipped) or (end is not None and time.monotonic() >= end)
    return GameReview(
        game=record.game, seat=seat, decisions=tuple(done), forced=forced, not_analysed=tuple(skipped),
        stopped_at_deadline=cut, seconds=time.monotonic() - started, settings=settings,
    )


def review_worker(record_data: dict[str, Any], seat: int, settings: dict[str, Any], queue: Any) -> None:
    """Entry point of a worker process: review, telling ``queue`` the progress and then the result.

    Puts ``("progress", done, total)`` tuples, then ``("done", review JSON)`` or ``("error", message)``;
    an error is a sentence for the user, never a traceback.
    """
    from ..core.records import parse_record

    try:
        record = parse_record(record_data)
        review = review_game(record, seat, progress=lambda done, total: queue.put(("progress", done, total)),
                             **settings)
        queue.put(("done", review.to_json()))
    except LudusError as exc:
        queue.put(("error", str(exc)))
    except Exception as exc:  # noqa: BLE001 - a safety net: the user gets a sentence, not a traceback
        queue.put(("error", f"the analysis failed: {type(exc).__name__}: {exc}"))
