"""Gladius for the interop bridges: every player action and chance outcome, as JSON, bounds
on the length of a game, and the exact observation encoder (see
:class:`ludus.core.plugin.InteropSpec` and :mod:`.encoding`)."""

from __future__ import annotations

from typing import Any

from ...core.plugin import InteropSpec
from .encoding import GladiusEncoder

__all__ = ["GLADIUS_UNLIMITED_TURNS", "SPEC", "GladiusEncoder"]

Json = Any


def _actions(o: Any) -> tuple[list[Json], list[Json]]:
    from .rules import build_setup

    keys = [c.key for c in build_setup(o).kinds]
    player: list[Json] = [{"attack": k} for k in keys] + [{"attack": None}]
    player += [{"defend": k} for k in keys] + [{"defend": None}]
    player += [{"discard": k} for k in keys]
    chance: list[Json] = [{"draw": k, "seat": seat} for seat in (0, 1) for k in keys]
    chance += [{"first": 0}, {"first": 1}, {"reshuffle": True}, {"skip": 0}, {"skip": 1}]
    chance += [{"mini": k} for k in keys]
    chance += [{"adversary_attack": k} for k in keys] + [{"adversary_attack": None}]
    chance += [{"adversary_defend": k} for k in keys] + [{"adversary_defend": None}]
    return player, chance


GLADIUS_UNLIMITED_TURNS = 10_000
"""Turns assumed for ``turn_limit=0`` (no limit): a practical cap, not a proof."""


def _length(o: Any) -> tuple[int, int]:
    """Per turn at most one discard (a hand is at the limit before its one-card draw), one
    attack and one defence; chance per turn at most a draw with its reshuffle, a skipped turn,
    and in solo two mini-hands of up to 3 draws (each with a reshuffle) and two forced plays."""
    turns = o.turn_limit or GLADIUS_UNLIMITED_TURNS
    return 3 * turns, 20 * turns + 2 * o.starting_hand + 1


SPEC = InteropSpec(_actions, _length, GladiusEncoder)
