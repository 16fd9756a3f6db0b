"""Playouts: play a state to the end (or to a cut) with a rollout policy, for search bots.

This is the reference for the compiled playouts of :mod:`ludus.core.compiled`: for the same
state and generator a compiled playout plays exactly the game :func:`playout` plays, so a bot
decides the same with or without the compiler. The contract that makes that checkable:

* Chance: a state with its own generator (``state.rng``, as every sampled determinization has)
  settles chance inside ``apply`` from that generator; a state without one gets its chance
  outcomes from ``rng`` through ``sample_chance``.
* Decisions: the first current seat decides. With one legal move it is played without a draw;
  otherwise the random policy plays ``legal[rng.below(len(legal))]`` and any other policy is
  asked for its move.
* A cut after ``max_decisions`` decisions leaves an unfinished result: the scores at the cut.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .game import CHANCE, Action, State
from .rng import Rng

__all__ = ["MAX_PLAYOUT_DECISIONS", "Playout", "Policy", "playout"]

MAX_PLAYOUT_DECISIONS = 100_000
"""A playout that has not ended after this many decisions is a bug in the game, not a long game."""

Policy = Callable[[State, int, Sequence[Action]], Action]
"""A rollout policy: (state, deciding seat, its legal moves with at least two) -> the move."""


@dataclass(frozen=True, slots=True)
class Playout:
    """What a playout ended with.

    ``returns`` are ``state.returns()`` (1 shared among the winners; all 0 when cut) and
    ``scores`` the game's own scores at the end or at the cut.
    """

    scores: tuple[float, ...]
    returns: tuple[float, ...]
    decisions: int
    finished: bool


def playout(state: State, rng: Rng, policy: Policy | None = None, max_decisions: int | None = None) -> Playout:
    """Play ``state`` on (it is changed: pass a clone to keep it) with ``policy`` (None: uniformly
    random) until the end or ``max_decisions`` decisions. ``rng`` drives the random policy and the
    chance of a state without a generator of its own."""
    below = rng.below
    limit = MAX_PLAYOUT_DECISIONS if max_decisions is None else max_decisions
    for decisions in range(MAX_PLAYOUT_DECISIONS):
        seats = state.current_seats()
        while seats and seats[0] == CHANCE:
            state.apply(state.sample_chance(rng), CHANCE)
            seats = state.current_seats()
        if not seats or decisions >= limit:
            return Playout(tuple(state.scores()), tuple(state.returns()), decisions, not seats)
        seat = seats[0]
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            action = legal[0]
        elif policy is None:
            action = legal[below(len(legal))]
        else:
            action = policy(state, seat, legal)
        state.apply(action, seat)
    raise RuntimeError(f"{state.game.title} playout did not end after {MAX_PLAYOUT_DECISIONS} decisions")
