"""The data Gorus Maximus's page script needs (names, colours, deck sizes), read from the same
data files as the engine so that the page and the rules cannot drift apart. The Crowd Favour
table is not here: a table may use its own, so each observation carries the one it scores with."""

from __future__ import annotations

from typing import Any

from ...i18n import _
from .cards import SCHOOLS, setup_for
from .options import MAX_PLAYERS, MIN_PLAYERS

__all__ = ["page_data"]


def page_data() -> dict[str, Any]:
    """JSON for ``page.js`` (served with the game's page, see ``ludus.web.pages``)."""
    return {
        # names in the reader's language (the web app asks under it): the terminal's translations of them
        "schools": [{"code": s.code, "name": _(s.name), "short": _(s.short), "colour": s.colour, "icon": s.icon}
                    for s in SCHOOLS],
        # cards played in a round, by player count: every card of the deck is played each round,
        # so the log can tell where a round ends
        "deck_size": {str(n): setup_for(n).schools * len(setup_for(n).ranks)
                      for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)},
    }
