"""The data Gorus Arena's page script needs (names, colours, rules tables), read from the same
data files as the engine so that the page and the rules cannot drift apart; its names and
sentences in the language in use (the web app asks under the reader's)."""

from __future__ import annotations

from typing import Any

from ...i18n import N_, _
from .actions import INCOME
from .cards import CARD, CardKind
from .rules import COINS_PER_POINT, HAND_LIMIT

__all__ = ["NOTE_WORDS", "page_data"]

NOTE_WORDS = (
    N_("Past his prime; fights for the purse."),
    N_("Runs errands to the lanista: the only way to hire at the start."),
    N_("The text's own example of a recruit costing 3 coins."),
    N_("Net and trident: strikes hard, falls easily."),
    N_("Mounted herald: quick to market."),
    N_("The challenger: a crowd favourite who brings in prize money."),
    N_("A freed veteran: rich friends, no hurry."),
)
"""The card kinds' notes as the card file writes them (data/cards.toml), for the catalogs; each is
shown through ``_()``, so a changed note stays English until it is translated (a test checks the
list is complete). The names are the terminal's ``KIND_WORDS``, the actions its ``ACTION_WORDS``."""


def _summary(kind: CardKind) -> str:
    """``CardKind.summary`` ("attack 3 · cost 3 · def 3 · 2 pts") in the language in use."""
    actions = "/".join(_(a) for a in kind.actions)  # the terminal's words: attack, defence, recruit, income
    if kind.gladiator:
        return _("{actions} {strength} · cost {cost} · def {defence} · {points} pts", actions=actions,
                 strength=kind.strength, cost=kind.cost, defence=kind.defence, points=kind.points)
    return _("{actions} {strength} · cost {cost} · action card", actions=actions, strength=kind.strength,
             cost=kind.cost)


def page_data() -> dict[str, Any]:
    """JSON for ``page.js`` (served with the game's page, see ``ludus.web.pages``): every card id's
    printed values, and which of them the source text gives (the page marks the others as ours);
    the names, summaries and notes in the language in use."""
    words: dict[str, dict[str, str]] = {}
    for k in CARD:
        if k.key not in words:
            words[k.key] = {"name": _(k.name), "summary": _summary(k), "note": _(k.note) if k.note else ""}
    return {
        "cards": [
            {"key": k.key, **words[k.key], "gladiator": k.gladiator, "cost": k.cost, "defence": k.defence,
             "points": k.points, "strength": k.strength, "actions": list(k.actions), "printed": list(k.printed)}
            for k in CARD
        ],
        "income": INCOME,
        "hand_limit": HAND_LIMIT,
        "coins_per_point": COINS_PER_POINT,
    }
