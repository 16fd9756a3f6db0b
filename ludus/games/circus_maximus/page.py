"""The data Circus Maximus's page script needs (names, coins, effects, which values are ours),
read from the same data file as the engine so that the page and the rules cannot drift apart.

The browser always plays with the shipped card file (the ``cards`` option names a host file, so
the lobby neither offers nor accepts it), so this reads that file. Values the rulebook does not
print carry ``provisional`` here as in the file, and the page marks them in front of the player.
"""

from __future__ import annotations

from typing import Any

from ...core.datafile import MiB, read_text
from ...core.errors import DataError
from ...core.tomldata import load_toml
from .actions import LINE_KEYS, LINE_NAMES
from .cards import DEFAULT_PATH, FAVOUR_NAMES, VENUE_KEYS, VENUE_NAMES, CardFile, FavourEntry, load_cards

__all__ = ["SEAT_COLOURS", "page_data"]

# The players' colours (the rulebook names the first four; the fifth is ours, see the game's doc).
SEAT_COLOURS = ("Yellow", "Red", "Blue", "Green", "Purple")

# What happens at each location when its line is worked off, in our words.
LINE_ROLES = (
    "Front traders first: each takes a favour card or the starting-player card.",
    "Front traders first: each takes one ticket.",
    "Front traders first: each sells one of its owner's tickets for this venue to a visitor here.",
    "Front traders first: each sells one of its owner's tickets for this venue to a visitor here.",
    "Front traders first: each sells one of its owner's tickets for this venue to a visitor here.",
)


def page_data() -> dict[str, Any]:
    """JSON for ``page.js`` (served with the game's page, see ``ludus.web.pages``)."""
    cards = load_cards()
    text = read_text(str(DEFAULT_PATH), MiB, "card data", DataError)
    entries = load_toml(text, str(DEFAULT_PATH), CardFile, DataError)
    ours_trader = {t.rank for t in entries.trader if t.provisional}
    ours_ticket = {f"{t.venue}:{t.seat}" for t in entries.ticket if t.provisional}
    ours_visitor = {v.key for v in entries.visitor if v.provisional}
    favour_entry: dict[str, FavourEntry] = {f.key: f for f in entries.favour}
    return {
        "colours": list(SEAT_COLOURS),
        "lines": [{"key": k, "name": n, "role": r} for k, n, r in zip(LINE_KEYS, LINE_NAMES, LINE_ROLES)],
        "venues": [{"key": k, "name": n} for k, n in zip(VENUE_KEYS, VENUE_NAMES)],
        "traders": [{"rank": r, "coins": c, "ours": r in ours_trader}
                    for r, c in enumerate(cards.trader_coins, start=1)],
        "tickets": {t.key: {"venue": VENUE_KEYS[t.venue], "seat": t.seat, "seat_name": t.seat.capitalize(),
                            "coins": t.coins, "ours": t.key in ours_ticket} for t in cards.tickets},
        "visitors": {v.key: {"name": v.name, "coins": v.coins, "caesar": v.caesar, "ours": v.key in ours_visitor}
                     for v in cards.visitors},
        "favours": {f.key: {"name": FAVOUR_NAMES[f.key], "coins": f.coins,
                            "effect": (favour_entry[f.key].effect or "").replace("{pays}", str(cards.legionnaire_pays)),
                            "ours": favour_entry[f.key].provisional} for f in cards.favours},
        "legionnaire_pays": cards.legionnaire_pays,
    }
