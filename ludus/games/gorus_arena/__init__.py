"""Gorus Arena: a small deck-builder with a secret plan, an auction and attacks.

Everything the rest of Ludus needs from this game is declared in :data:`PLUGIN` below
(see :mod:`ludus.core.plugin`); the parts are loaded only by the layer that uses them.
"""

from ...core.plugin import GamePlugin, RatedPlay, RatingPool, SearchBudget
from ...i18n import N_

__all__ = ["PLUGIN"]

PLUGIN = GamePlugin(
    name="gorus-arena",
    package=__name__,
    game=".game:GAME",
    heuristic=".heuristic:GorusArenaHeuristic",
    # ISMCTS iterations per level, with compiled playouts within 1 s a move (docs/agents.md)
    search={
        "easy": SearchBudget(500, "heuristic"),
        "medium": SearchBudget(1000, "heuristic"),
        "hard": SearchBudget(1800, "heuristic"),
    },
    analysis=".analysis:PROFILE",
    interop=".interop:SPEC",
    page_data=".page:page_data",
    page_script="page.js",
    page_style="page.css",
    terminal=".terminal:ADAPTER",
    how_to_play="data/how-to-play.md",
    tutorial="data/tutorial.toml",
    order=4,
    rated=RatedPlay(
        pools=(RatingPool("duel", "2 players", 2, 2), RatingPool("table", "3 to 5 players", 3, 5)),
        choose=("players",),
        note=N_("With two players every round is a duel; from three up, auctions and attacks have several "
             "rivals, so those games are rated apart."),
    ),
)
