"""The data Gladius's page script needs (names, colours, rules tables), read from the same
data files as the engine so that the page and the rules cannot drift apart."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...i18n import _
from .actions import card_label as card_label_en
from .cards import OURS_SETS, builtin_catalogue

__all__ = ["page_data"]


def _words() -> tuple[Callable[[str], str], Callable[[str], str], Callable[[Any], str]]:
    """The terminal's words for names and effects (in the language in use: the web app asks under
    the reader's), or the data's English where they cannot be had."""
    try:
        from .terminal import card_label, effect_text, fighter_name
    except Exception:  # noqa: BLE001 - the page must still draw, in English
        return (lambda name: name), card_label_en, (lambda c: c.effect())
    return fighter_name, card_label, effect_text


def page_data() -> dict[str, Any]:
    """JSON for ``page.js`` (served with the game's page, see ``ludus.web.pages``)."""
    cat = builtin_catalogue()
    fighter_name, label, effect = _words()
    cards = {}
    fighters = {}
    names = {}
    for card_set in (cat.shared, *cat.fighters.values()):
        # ours: why a set the rulebook does not print (the Lion) is marked on the page, else ""
        ours = OURS_SETS.get(card_set.id, "")
        if card_set is not cat.shared:
            fighters[card_set.id] = {"name": fighter_name(card_set.name), "hit_points": card_set.hit_points,
                                     "ours": ours}
            names[card_set.name] = fighter_name(card_set.name)  # the observation's English names, for the page
        for c in card_set.cards:
            # the numbers let the page say what an exchange did ("3 damage", "immobilized")
            cards[c.key] = {"name": _(c.name), "label": label(c.key), "type": c.type, "effect": effect(c),
                            "set": c.set_id, "damage": c.damage, "immobilize": c.immobilize, "defence": c.defence,
                            "no_attack_next_turn": c.no_attack_next_turn, "ours": ours}
    return {"cards": cards, "fighters": fighters, "fighter_names": names}
