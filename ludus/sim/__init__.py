"""Simulation: tournaments between agents, their statistics and exports, balance analysis.

Sits above agents and below interop/server/cli: it plays games only through the core
protocol and agent registry, so every game gets tournaments and analysis for free.
"""

from __future__ import annotations

from .backends import BACKENDS, run_specs, run_tournament
from .stats import Summary, summarize, wilson
from .tournament import GameResult, TournamentSpec, game_seed, make_spec, play_game, seating

__all__ = [
    "BACKENDS",
    "GameResult",
    "Summary",
    "TournamentSpec",
    "game_seed",
    "make_spec",
    "play_game",
    "run_specs",
    "run_tournament",
    "seating",
    "summarize",
    "wilson",
]
