"""Three cards: a Kuhn-poker-like toy game, packaged apart from Ludus as a game plugin.

Everything Ludus needs is declared in :data:`PLUGIN`. There is no page script and no
terminal adapter, so the web server shows the generic page and ``ludus play`` the generic
terminal view; no ISMCTS budgets either, so the generic levels apply.
"""

from ludus.core.plugin import GamePlugin

__all__ = ["PLUGIN"]

PLUGIN = GamePlugin(
    name="three-cards",
    package=__name__,
    game=".game:GAME",
    heuristic=".heuristic:ThreeCardsHeuristic",
    interop=".interop:SPEC",
)
