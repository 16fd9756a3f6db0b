"""Determinization for search: a full Gladius state consistent with what one seat knows.

ISMCTS needs whole states to play forward; a seat sees its own hand, every public card
and the cards card counting tells it the opponent holds. The rest of the opponent's hand
is dealt at random from the cards not accounted for, and the deck is whatever remains.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import RecordError
from ...core.game import Game, SeatView
from ...core.rng import Rng
from .codec import position_to_state
from .rules import GladiusState, build_setup
from .views import GladiusObservation

__all__ = ["sample_state"]


def sample_state(game: Game, view: SeatView, rng: Rng) -> GladiusState:
    """A full state agreeing with all ``view.seat`` knows: its hand, every public card, and
    the cards it knows the opponent holds; the rest of the opponent's hand is drawn at random
    from the cards not accounted for, and the deck is whatever remains."""
    obs: GladiusObservation = view.observation
    options = view.options
    setup = build_setup(options)
    v = view.seat
    nk = len(setup.kinds)
    pool = setup.counts()
    hands: list[list[str]] = [[], []]
    known: list[list[str]] = [[], []]
    unknown = [0, 0]

    def take(keys: Any) -> None:
        for key in keys:
            pool[setup.index[key]] -= 1

    take(obs.hand)
    take(obs.mini_hand)
    if obs.table is not None:
        take([obs.table])
    for key, n in obs.discard:
        pool[setup.index[key]] -= n
    hands[v] = list(obs.hand)
    if not obs.solo:
        o = 1 - v
        take(obs.opponent_known)
        cards = [k for k in range(nk) for _ in range(pool[k])]
        n = obs.opponent_unknown
        for i in range(n):  # partial Fisher-Yates: n cards at random from the pool
            j = i + rng.below(len(cards) - i)
            cards[i], cards[j] = cards[j], cards[i]
        drawn = cards[:n]
        for k in drawn:
            pool[k] -= 1
        hands[o] = list(obs.opponent_known) + [setup.kinds[k].key for k in drawn]
        known[v] = list(obs.opponent_known)
        known[o] = list(obs.known_by_opponent)
        unknown[v] = obs.opponent_unknown
        unknown[o] = obs.unknown_to_opponent
    if any(n < 0 for n in pool):  # pragma: no cover - observations are consistent
        raise RecordError("observation is inconsistent with the deck")
    position = {
        "phase": obs.phase, "active": obs.active, "first": obs.first, "turn": obs.turn,
        "dealt": obs.dealt, "hp": list(obs.hit_points), "hands": hands,
        "pile": {setup.kinds[k].key: n for k, n in enumerate(pool) if n},
        "discard": dict(obs.discard), "table": obs.table,
        "mini": list(obs.mini_hand), "mini_left": obs.mini_left, "lock": list(obs.locked),
        "barred": obs.barred, "skip": list(obs.skip), "resume": obs.resume,
        "reshuffles": obs.reshuffles,
        "last_attack": None if obs.last_attack is None else list(obs.last_attack),
        "last_defence": None if obs.last_defence is None else list(obs.last_defence),
        "last_result": obs.last_result, "known": known, "unknown": unknown, "end": obs.end,
    }
    return position_to_state(game, options, Rng(rng.next_u64()), position)
