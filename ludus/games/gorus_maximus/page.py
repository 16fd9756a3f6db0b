"""The data Gorus Maximus's page script needs (names, colours, rules tables), read from the same
data files as the engine so that the page and the rules cannot drift apart."""

from __future__ import annotations

from typing import Any

from .cards import SCHOOLS, load_cf_table

__all__ = ["page_data"]


def page_data() -> dict[str, Any]:
    """JSON for ``page.js`` (served with the game's page, see ``ludus.web.pages``)."""
    cf = load_cf_table("")
    return {
        "schools": [{"code": s.code, "name": s.name, "short": s.short, "colour": s.colour, "icon": s.icon}
                    for s in SCHOOLS],
        "cf": {"by_rank": list(cf.by_rank), "preferred_zero": cf.preferred_zero},
    }
