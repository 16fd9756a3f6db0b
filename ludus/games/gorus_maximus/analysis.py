"""What the balance analysis compares for Gorus Maximus: solo, every player count and every
team preset, with teams reported per team and the number of rounds as a length measure."""

from __future__ import annotations

from typing import Any, cast

from ...core.game import Game, State
from ...core.plugin import INDIVIDUAL, SOLO, TEAMS, AnalysisProfile, Scenario
from .options import TEAM_PRESETS
from .views import GorusObservation

__all__ = ["PROFILE"]


def _scenarios(game: Game) -> list[Scenario]:
    out = [Scenario("solo", "Solo (1 player vs the contenders)", SOLO, {"players": 1})]
    out += [Scenario(f"players-{n}", f"{n} players", INDIVIDUAL, {"players": n}) for n in range(2, 9)]
    for n, presets in sorted(TEAM_PRESETS.items()):
        out += [Scenario(f"teams-{p}", f"{n} players, teams {p}", TEAMS, {"players": n, "teams": p})
                for p in presets]
    return out


def _sides(options: Any) -> tuple[int, ...] | None:
    return options.team_of_seat()


def _metrics(state: State) -> dict[str, float]:
    obs = cast("GorusObservation", state.observation(None))
    return {"rounds": float(obs.round)}


PROFILE = AnalysisProfile(
    scenarios=_scenarios,
    sides=_sides,
    metrics=_metrics,
    notes=("In solo play the only seat is the player; its win rate is the solo win rate.",
           "In team play every seat of the winning team is a winner, so seat win rates equal team win rates."),
)
