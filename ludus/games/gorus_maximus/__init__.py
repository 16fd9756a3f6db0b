"""Gorus Maximus: trick-taking with a preferred school that a Challenge can change mid-bout.

Everything the rest of Ludus needs from this game is declared in :data:`PLUGIN` below
(see :mod:`ludus.core.plugin`); the parts are loaded only by the layer that uses them.
"""

from ...core.plugin import GamePlugin, RatedPlay, RatingPool, SearchBudget
from ...i18n import N_

__all__ = ["PLUGIN"]

PLUGIN = GamePlugin(
    name="gorus-maximus",
    package=__name__,
    game=".game:GAME",
    heuristic=".heuristic:GorusMaximusHeuristic",
    # ISMCTS iterations per level, with compiled playouts within 1 s a move (docs/agents.md)
    search={
        "easy": SearchBudget(700),
        "medium": SearchBudget(1500),
        "hard": SearchBudget(2800),
    },
    analysis=".analysis:PROFILE",
    interop=".interop:SPEC",
    page_data=".page:page_data",
    page_script="page.js",
    page_style="page.css",
    terminal=".terminal:ADAPTER",
    how_to_play="data/how-to-play.md",
    tutorial="data/tutorial.toml",
    order=1,
    rated=RatedPlay(
        pools=(RatingPool("duel", "2 players", 2, 2), RatingPool("table", "3 to 8 players", 3, 8)),
        choose=("players",),
        note=N_("Two players fight every bout head to head; from three up, Challenges and the preferred school "
             "play against several rivals at once, so those games are rated apart. Team games are casual."),
    ),
)
