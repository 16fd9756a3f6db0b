"""The data Gorus Arena's page script needs (names, colours, rules tables), read from the same
data files as the engine so that the page and the rules cannot drift apart."""

from __future__ import annotations

from typing import Any

from .actions import INCOME
from .cards import CARD
from .rules import COINS_PER_POINT, HAND_LIMIT

__all__ = ["page_data"]


def page_data() -> dict[str, Any]:
    """JSON for ``page.js`` (served with the game's page, see ``ludus.web.pages``): every card id's
    printed values, and which of them the source text gives (the page marks the others as ours)."""
    return {
        "cards": [
            {"key": k.key, "name": k.name, "gladiator": k.gladiator, "summary": k.summary, "cost": k.cost,
             "defence": k.defence, "points": k.points, "strength": k.strength, "actions": list(k.actions),
             "printed": list(k.printed), "note": k.note}
            for k in CARD
        ],
        "income": INCOME,
        "hand_limit": HAND_LIMIT,
        "coins_per_point": COINS_PER_POINT,
    }
