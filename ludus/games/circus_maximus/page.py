"""The data Circus Maximus's page script needs (names, coins, effects, which values are ours),
read from the same data file as the engine so that the page and the rules cannot drift apart.

The browser always plays with the shipped card file (the ``cards`` option names a host file, so
the lobby neither offers nor accepts it), so this reads that file. Values the rulebook does not
print carry, per value, where they come from (``marks``: the field, its source and a sentence
saying why), as the file's ``example`` and ``ours`` lists say, and the page marks each one.
"""

from __future__ import annotations

from typing import Any

from ...core.datafile import MiB, read_text
from ...core.errors import DataError
from ...core.provenance import EXAMPLE, OURS, SOURCE_TEXT
from ...core.tomldata import load_toml
from .actions import LINE_KEYS, LINE_NAMES
from .cards import (
    DEFAULT_PATH,
    FAVOUR_NAMES,
    MARKS,
    VENUE_KEYS,
    VENUE_NAMES,
    CardFile,
    FavourEntry,
    Sources,
    load_cards,
    value_note,
)

__all__ = ["SEAT_COLOURS", "page_data"]

# The players' colours (the rulebook names the first four; the fifth is ours, see the game's doc).
SEAT_COLOURS = ("Yellow", "Red", "Blue", "Green", "Purple")

# What happens at each location when its line is worked off, in our words.
LINE_ROLES = (
    "Front traders first: each takes a favour card, or the starting-player card instead; unchosen, "
    "that card goes to the first trader.",
    "Front traders first: each takes one ticket.",
    "Front traders first: each sells one of its owner's tickets for this venue to a visitor here.",
    "Front traders first: each sells one of its owner's tickets for this venue to a visitor here.",
    "Front traders first: each sells one of its owner's tickets for this venue to a visitor here.",
)


def _marks(table: str, sources: Sources) -> dict[str, dict[str, str]]:
    """Per unprinted field of an entry: its source and the sentence the page shows for it (in a
    tooltip and as visually hidden text): where the value comes from, and why it is what it is."""
    out = {}
    for field, source in sources:
        text = SOURCE_TEXT[source]
        note = value_note(table, field, source)
        out[field] = {"source": source,
                      "text": text[0].upper() + text[1:] + "." + (f" {note[0].upper()}{note[1:]}." if note else "")}
    return out


def page_data() -> dict[str, Any]:
    """JSON for ``page.js`` (served with the game's page, see ``ludus.web.pages``)."""
    cards = load_cards()
    text = read_text(str(DEFAULT_PATH), MiB, "card data", DataError)
    entries = load_toml(text, str(DEFAULT_PATH), CardFile, DataError)
    favour_entry: dict[str, FavourEntry] = {f.key: f for f in entries.favour}
    return {
        "colours": list(SEAT_COLOURS),
        "lines": [{"key": k, "name": n, "role": r} for k, n, r in zip(LINE_KEYS, LINE_NAMES, LINE_ROLES)],
        "venues": [{"key": k, "name": n} for k, n in zip(VENUE_KEYS, VENUE_NAMES)],
        "marks": {EXAMPLE: MARKS[EXAMPLE], OURS: MARKS[OURS]},
        "traders": [{"rank": r, "coins": c, "marks": _marks("trader", src)}
                    for r, (c, src) in enumerate(zip(cards.trader_coins, cards.trader_sources), start=1)],
        "tickets": {t.key: {"venue": VENUE_KEYS[t.venue], "seat": t.seat, "seat_name": t.seat.capitalize(),
                            "coins": t.coins,
                            "marks": _marks("ticket", t.sources)}
                    for t in cards.tickets},
        "visitors": {v.key: {"name": v.name, "coins": v.coins, "caesar": v.caesar,
                             "marks": _marks("visitor", v.sources)}
                     for v in cards.visitors},
        "favours": {f.key: {"name": FAVOUR_NAMES[f.key], "coins": f.coins,
                            "effect": (favour_entry[f.key].effect or "").replace("{pays}", str(cards.legionnaire_pays)),
                            "marks": _marks("favour", f.sources)}
                    for f in cards.favours},
        "legionnaire_pays": cards.legionnaire_pays,
    }
