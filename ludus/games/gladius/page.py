"""The data Gladius's page script needs (names, colours, rules tables), read from the same
data files as the engine so that the page and the rules cannot drift apart."""

from __future__ import annotations

from typing import Any

from .cards import OURS_SETS, builtin_catalogue

__all__ = ["page_data"]


def page_data() -> dict[str, Any]:
    """JSON for ``page.js`` (served with the game's page, see ``ludus.web.pages``)."""
    cat = builtin_catalogue()
    cards = {}
    fighters = {}
    for card_set in (cat.shared, *cat.fighters.values()):
        # ours: why a set the rulebook does not print (the Lion) is marked on the page, else ""
        ours = OURS_SETS.get(card_set.id, "")
        if card_set is not cat.shared:
            fighters[card_set.id] = {"name": card_set.name, "hit_points": card_set.hit_points, "ours": ours}
        for c in card_set.cards:
            # the numbers let the page say what an exchange did ("3 damage", "immobilized")
            cards[c.key] = {"name": c.name, "type": c.type, "effect": c.effect(), "set": c.set_id,
                            "damage": c.damage, "immobilize": c.immobilize, "defence": c.defence,
                            "no_attack_next_turn": c.no_attack_next_turn, "ours": ours}
    return {"cards": cards, "fighters": fighters}
