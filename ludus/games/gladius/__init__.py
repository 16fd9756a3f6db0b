"""Gladius: a two-fighter duel of attack and defence cards, or solo against a rule-driven opponent.

Everything the rest of Ludus needs from this game is declared in :data:`PLUGIN` below
(see :mod:`ludus.core.plugin`); the parts are loaded only by the layer that uses them.
"""

from ...core.plugin import GamePlugin, RatedPlay, RatingPool, SearchBudget
from ...i18n import N_

__all__ = ["PLUGIN"]

PLUGIN = GamePlugin(
    name="gladius",
    package=__name__,
    game=".game:GAME",
    heuristic=".heuristic:GladiusHeuristic",
    # ISMCTS iterations per level, with compiled playouts within 1 s a move (docs/agents.md)
    search={
        "easy": SearchBudget.flat_paired(1000),
        "medium": SearchBudget.flat_paired(2000),
        "hard": SearchBudget.flat_paired(3500),
    },
    analysis=".analysis:PROFILE",
    interop=".interop:SPEC",
    page_data=".page:page_data",
    page_script="page.js",
    page_style="page.css",
    terminal=".terminal:ADAPTER",
    how_to_play="data/how-to-play.md",
    tutorial="data/tutorial.toml",
    order=2,
    rated=RatedPlay(
        pools=(RatingPool("duel", "2 players", 2, 2),),
        note=N_("Rated duels use the standard fighters (Retiarius against Secutor); solo play is casual."),
    ),
)
