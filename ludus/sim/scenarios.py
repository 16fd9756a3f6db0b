"""Per-game knowledge the balance analysis needs: which option sets are worth comparing.

Everything else the harness does works from the game protocol alone. A game with no entry
here still gets a profile: one scenario per player count when it has a ``players`` option,
otherwise its default options. An entry adds modes (solo, teams, variants), tells which
seats play together (so team win rates can be reported per team), and may read a few
public numbers off the final position (e.g. rounds played) for the length statistics.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from ..core.game import Game, State

if TYPE_CHECKING:
    from ..games.gorus_maximus.game import GorusObservation

SOLO, INDIVIDUAL, TEAMS, VARIANT = "solo", "individual", "teams", "variant"


@dataclass(frozen=True)
class Scenario:
    """One option set to analyse. ``key`` is a short id usable on the command line."""

    key: str
    title: str
    mode: str
    options: Mapping[str, Any]


SidesFn = Callable[[Any], tuple[int, ...] | None]
MetricsFn = Callable[[State], dict[str, float]]


@dataclass(frozen=True)
class GameProfile:
    """Extra scenarios and readings for one game (all optional)."""

    scenarios: Callable[[Game], list[Scenario]] | None = None
    variants: tuple[Scenario, ...] = ()
    sides: SidesFn | None = None  # each seat's team (or None: every seat plays for itself)
    metrics: MetricsFn | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)


# --------------------------------------------------------------------------- Gorus Maximus
def _gorus_scenarios(game: Game) -> list[Scenario]:
    from ..games.gorus_maximus.options import TEAM_PRESETS

    out = [Scenario("solo", "Solo (1 player vs the contenders)", SOLO, {"players": 1})]
    out += [Scenario(f"players-{n}", f"{n} players", INDIVIDUAL, {"players": n}) for n in range(2, 9)]
    for n, presets in sorted(TEAM_PRESETS.items()):
        out += [Scenario(f"teams-{p}", f"{n} players, teams {p}", TEAMS, {"players": n, "teams": p})
                for p in presets]
    return out


def _gorus_sides(options: Any) -> tuple[int, ...] | None:
    return options.team_of_seat()


def _gorus_metrics(state: State) -> dict[str, float]:
    obs = cast("GorusObservation", state.observation(None))
    return {"rounds": float(obs.round)}


# --------------------------------------------------------------------------- registry
PROFILES: dict[str, GameProfile] = {
    "gorus-maximus": GameProfile(
        scenarios=_gorus_scenarios,
        sides=_gorus_sides,
        metrics=_gorus_metrics,
        notes=("In solo play the only seat is the player; its win rate is the solo win rate.",
               "In team play every seat of the winning team is a winner, so seat win rates equal team win rates."),
    ),
    "gladius": GameProfile(
        variants=(Scenario("solo", "Solo against the rule-driven opponent", SOLO, {"solo": True}),),
        notes=("Seat 1 fights as fighter 1 (default Retiarius), seat 2 as fighter 2 (default Secutor).",),
    ),
    "circus-maximus": GameProfile(
        variants=(Scenario("caesar-4", "4 players, Caesar variant", VARIANT, {"players": 4, "caesar": True}),),
    ),
}


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


def profile(game_name: str) -> GameProfile:
    return PROFILES.get(game_name, GameProfile())


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
    prof = PROFILES.get(state.game.name)
    if prof is None or prof.metrics is None:
        return {}
    return prof.metrics(state)
