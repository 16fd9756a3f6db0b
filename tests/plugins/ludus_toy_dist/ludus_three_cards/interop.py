"""The fixed action lists the OpenSpiel, PettingZoo and Gymnasium bridges number."""

from __future__ import annotations

from typing import Any

from ludus.core.plugin import InteropSpec

__all__ = ["SPEC"]


def actions(options: Any) -> tuple[list[Any], list[Any]]:
    """Every betting move and every deal, in the game's JSON action format."""
    player = [{"move": kind} for kind in ("pass", "bet", "call", "fold")]
    chance = [{"deal": seat, "card": card} for seat in (0, 1) for card in (1, 2, 3)]
    return player, chance


def max_length(options: Any) -> tuple[int, int]:
    """At most three betting moves (pass, bet, call) and two deals."""
    return 3, 2


SPEC = InteropSpec(actions=actions, max_length=max_length)
