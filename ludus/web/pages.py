"""Data a game's page needs from its rules package (names, colours, icons, scoring tables).

Kept here rather than copied into JavaScript so that the page and the rules cannot drift
apart: the numbers come from the same TOML files the engine reads.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from importlib import resources
from typing import Any

from ..games import game_names

log = logging.getLogger("ludus.web")


def _gorus_maximus() -> dict[str, Any]:
    from ..games.gorus_maximus.cards import SCHOOLS, load_cf_table

    cf = load_cf_table("")
    return {
        "schools": [{"code": s.code, "name": s.name, "short": s.short, "colour": s.colour, "icon": s.icon}
                    for s in SCHOOLS],
        "cf": {"by_rank": list(cf.by_rank), "preferred_zero": cf.preferred_zero},
    }


def _gladius() -> dict[str, Any]:
    from ..games.gladius.cards import builtin_catalogue

    cat = builtin_catalogue()
    cards = {}
    fighters = {}
    for card_set in (cat.shared, *cat.fighters.values()):
        if card_set is not cat.shared:
            fighters[card_set.id] = {"name": card_set.name, "hit_points": card_set.hit_points}
        for c in card_set.cards:
            cards[c.key] = {"name": c.name, "type": c.type, "effect": c.effect()}
    return {"cards": cards, "fighters": fighters}


def _circus_maximus() -> dict[str, Any]:
    from ..games.circus_maximus.actions import LINE_KEYS, LINE_NAMES
    from ..games.circus_maximus.data import FAVOUR_NAMES, VENUE_KEYS, VENUE_NAMES, load_cards

    cards = load_cards()
    return {
        "lines": [{"key": k, "name": n} for k, n in zip(LINE_KEYS, LINE_NAMES)],
        "venues": [{"key": k, "name": n} for k, n in zip(VENUE_KEYS, VENUE_NAMES)],
        "favours": dict(FAVOUR_NAMES),
        "visitors": {v.key: v.name for v in cards.visitors},
    }


def _gorus_arena() -> dict[str, Any]:
    from ..games.gorus_arena.cards import CARD

    return {"cards": [{"key": k.key, "name": k.name, "gladiator": k.gladiator, "summary": k.summary} for k in CARD]}


PAGE_DATA: dict[str, Callable[[], dict[str, Any]]] = {
    "gorus-maximus": _gorus_maximus,
    "gladius": _gladius,
    "circus-maximus": _circus_maximus,
    "gorus-arena": _gorus_arena,
}


def has_page(name: str) -> bool:
    return resources.files("ludus.web.static.games").joinpath(f"{name}.js").is_file()


def pages() -> dict[str, dict[str, Any]]:
    """For every installed game: whether it has its own page, and that page's data."""
    out = {}
    for name in game_names():
        data_fn = PAGE_DATA.get(name)
        try:
            data = data_fn() if data_fn else {}
        except Exception:  # a game still being changed must not take the lobby down
            log.exception("page data for %s failed; its page falls back to the generic one", name)
            out[name] = {"page": False, "data": {}}
            continue
        out[name] = {"page": has_page(name), "data": data}
    return out
