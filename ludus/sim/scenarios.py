"""Per-game knowledge the balance analysis needs: which option sets are worth comparing.

Everything else the harness does works from the game protocol alone. Each game's plugin may
name an :class:`~ludus.core.plugin.AnalysisProfile` (``analysis.py`` in its package); a game
without one still gets a profile: one scenario per player count when it has a ``players`` option,
otherwise its default options. An entry adds modes (solo, teams, variants), tells which
seats play together (so team win rates can be reported per team), and may read a few
public numbers off the final position (e.g. rounds played) for the length statistics.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import LudusError
from ..core.game import Game, State
from ..core.plugin import INDIVIDUAL, SOLO, TEAMS, VARIANT, AnalysisProfile, PluginError, Scenario
from ..games import get_plugin

__all__ = ["INDIVIDUAL", "SOLO", "TEAMS", "VARIANT", "GameProfile", "Scenario", "default_scenarios", "game_metrics",
           "profile", "scenarios_for", "sides_of"]

GameProfile = AnalysisProfile  # the name this module used before profiles moved into the game packages


def _player_range(game: Game) -> range | None:
    for info in game.describe_options():
        if info.name == "players":
            lo = max(game.min_seats, info.min if info.min is not None else game.min_seats)
            hi = min(game.max_seats, info.max if info.max is not None else game.max_seats)
            return range(lo, hi + 1)
    return None


def default_scenarios(game: Game) -> list[Scenario]:
    """One scenario per player count, or the default options when the count is fixed."""
    counts = _player_range(game)
    if counts is None:
        return [Scenario("default", "Default options", INDIVIDUAL, {})]
    return [Scenario(f"players-{n}", f"{n} players", SOLO if n == 1 else INDIVIDUAL, {"players": n})
            for n in counts]


def profile(game_name: str) -> AnalysisProfile:
    """The game's own profile (``GamePlugin.analysis``), or an empty one."""
    try:
        prof = get_plugin(game_name).load("analysis")
    except PluginError:
        raise
    except LudusError:  # a Game made outside the registry
        return AnalysisProfile()
    if prof is None:
        return AnalysisProfile()
    if not isinstance(prof, AnalysisProfile):
        raise PluginError(f"game {game_name!r}: its analysis part is not an AnalysisProfile")
    return prof


def scenarios_for(game: Game) -> list[Scenario]:
    """Every scenario of a game: its own list (or the default one) plus its variants."""
    prof = profile(game.name)
    base = prof.scenarios(game) if prof.scenarios else default_scenarios(game)
    return base + list(prof.variants)


def sides_of(game: Game, options: Any) -> tuple[int, ...]:
    """Each seat's side (team); seats play for themselves unless the profile says otherwise."""
    prof = profile(game.name)
    sides = prof.sides(options) if prof.sides else None
    return tuple(sides) if sides is not None else tuple(range(game.num_seats(options)))


def game_metrics(state: State) -> dict[str, float]:
    """Game-specific public numbers about a finished game (empty for most games)."""
    prof = profile(state.game.name)
    return prof.metrics(state) if prof.metrics is not None else {}
