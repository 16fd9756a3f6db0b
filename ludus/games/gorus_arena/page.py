"""The data Gorus Arena's page script needs (names, colours, rules tables), read from the same
data files as the engine so that the page and the rules cannot drift apart."""

from __future__ import annotations

from typing import Any

from .cards import CARD

__all__ = ["page_data"]


def page_data() -> dict[str, Any]:
    """JSON for ``page.js`` (served with the game's page, see ``ludus.web.pages``)."""
    return {"cards": [{"key": k.key, "name": k.name, "gladiator": k.gladiator, "summary": k.summary} for k in CARD]}
