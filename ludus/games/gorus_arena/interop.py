"""Gorus Arena for the interop bridges: every player action and chance outcome, as JSON, bounds
on the length of a game and the exact observation encoder (see :class:`ludus.core.plugin.InteropSpec`)."""

from __future__ import annotations

from typing import Any

from ...core.plugin import InteropSpec
from .encoding import GorusArenaEncoder

__all__ = ["SPEC", "GorusArenaEncoder"]

Json = Any


def _actions(o: Any) -> tuple[list[Json], list[Json]]:
    from .cards import KINDS, NUM_CARDS

    player: list[Json] = [{"do": "place", "card": k.key} for k in KINDS]
    player += [{"do": "done"}, {"do": "income"}, {"do": "pass"}]
    player += [{"do": "recruit", "card": k.key} for k in KINDS]
    player += [{"do": "attack", "target": c} for c in range(NUM_CARDS)]
    player += [{"do": "pick", "card": k.key} for k in KINDS if k.gladiator]
    chance: list[Json] = [{"do": "draw", "seat": s, "card": c} for s in range(o.players) for c in range(NUM_CARDS)]
    chance += [{"do": "market-draw", "seat": s, "card": c} for s in range(o.players) for c in range(NUM_CARDS)]
    return player, chance


def _length(o: Any) -> tuple[int, int]:
    """A round gives each seat at most a full plan plus ``done``, one decision per planned
    card and (``refill=choose``) a refill picked from the market; chance per round and seat at
    most its draw and a market draw."""
    from .rules import DRAW_COUNT, MARKET_DRAW, PLAN_SIZE

    return (o.rounds * o.players * (2 * PLAN_SIZE + 1 + MARKET_DRAW),
            o.rounds * o.players * (DRAW_COUNT + MARKET_DRAW))


SPEC = InteropSpec(_actions, _length, GorusArenaEncoder)
