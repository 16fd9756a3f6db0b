"""Circus Maximus (2008): traders queue for favours, tickets and visitors.

Everything the rest of Ludus needs from this game is declared in :data:`PLUGIN` below
(see :mod:`ludus.core.plugin`); the parts are loaded only by the layer that uses them.
"""

from ...core.plugin import GamePlugin, RatedPlay, RatingPool, SearchBudget
from ...i18n import N_

__all__ = ["PLUGIN"]

PLUGIN = GamePlugin(
    name="circus-maximus",
    package=__name__,
    game=".game:GAME",
    heuristic=".heuristic:CircusMaximusHeuristic",
    # ISMCTS iterations per level, with compiled playouts within 1 s a move (docs/agents.md)
    search={
        "easy": SearchBudget.flat_paired(300),
        "medium": SearchBudget.flat_paired(700),
        "hard": SearchBudget.flat_paired(1300),
    },
    analysis=".analysis:PROFILE",
    interop=".interop:SPEC",
    page_data=".page:page_data",
    page_script="page.js",
    page_style="page.css",
    terminal=".terminal:ADAPTER",
    how_to_play="data/how-to-play.md",
    tutorial="data/tutorial.toml",
    order=3,
    rated=RatedPlay(
        pools=(RatingPool("table", "3 to 5 players", 3, 5),),
        choose=("players",),
        note=N_("From three to five players everyone competes for the same venues and favours, so one rating "
             "covers every count."),
    ),
)
