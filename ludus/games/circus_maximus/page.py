"""The data Circus Maximus's page script needs (names, colours, rules tables), read from the same
data files as the engine so that the page and the rules cannot drift apart."""

from __future__ import annotations

from typing import Any

from .actions import LINE_KEYS, LINE_NAMES
from .cards import FAVOUR_NAMES, VENUE_KEYS, VENUE_NAMES, load_cards

__all__ = ["page_data"]


def page_data() -> dict[str, Any]:
    """JSON for ``page.js`` (served with the game's page, see ``ludus.web.pages``)."""
    cards = load_cards()
    return {
        "lines": [{"key": k, "name": n} for k, n in zip(LINE_KEYS, LINE_NAMES)],
        "venues": [{"key": k, "name": n} for k, n in zip(VENUE_KEYS, VENUE_NAMES)],
        "favours": dict(FAVOUR_NAMES),
        "visitors": {v.key: v.name for v in cards.visitors},
    }
