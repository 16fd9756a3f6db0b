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
from ...i18n import N_, _
from .actions import LINE_KEYS
from .cards import (
    DEFAULT_PATH,
    MARKS,
    VENUE_KEYS,
    CardFile,
    FavourEntry,
    Sources,
    load_cards,
    value_note,
)
from .narration import COLOUR_WORDS, SEAT_WORDS, favour_label, line_at, line_label, visitor_label

__all__ = ["SEAT_COLOURS", "page_data"]

# The players' colours (the rulebook names the first four; the fifth is ours, see the game's doc):
# the terminal's words (``COLOUR_WORDS``), shown through ``_()``.
SEAT_COLOURS = COLOUR_WORDS

# What happens at each location when its line is worked off, in our words.
_SELL_HERE = N_("Front traders first: each sells one of its owner's tickets for this venue to a visitor here.")
LINE_ROLES = (
    N_("Front traders first: each takes a favour card, or the starting-player card instead; unchosen, "
       "that card goes to the first trader."),
    N_("Front traders first: each takes one ticket."),
    _SELL_HERE,
    _SELL_HERE,
    _SELL_HERE,
)

# What each favour card does, as the shipped card file says it (its ``effect``), marked here for
# the catalogs: the page shows the file's text through ``_()``, so a changed text shows in English
# until it is translated. ``{pays}`` is what a Legionnaire pays with the card.
EFFECT_WORDS = (
    N_("Instead of a trader, in any phase: a visitor is drawn and you choose the venue it joins."),
    N_("With a trader from your hand, in any phase: you place one more trader from your hand at once "
       "(you may decline it)."),
    N_("When one of your traders sells to a Legionnaire: he pays {pays} coins instead of his usual price."),
    N_("Phase II, when one of your traders picks at the Forum: it takes two tickets instead of one."),
    N_("Phase III, when one of your traders sells at a venue: it sells a second time right after (another "
       "ticket to another visitor)."),
    N_("Instead of a trader, in phase II or III: one of your traders from an earlier line today leaves it and "
       "joins this phase's line at its printed rank."),
    N_("Instead of a trader, in phase II only: a ticket is drawn straight into your hand, and a visitor joins "
       "that ticket's venue."),
    N_("With your rank-1 trader: it counts as rank 8 for this phase, so it stands near the front."),
    N_("Instead of a trader: one of your traders in this phase's line swaps places with the trader just in "
       "front of it and takes that trader's rank."),
)


def _effect(text: str | None, pays: int) -> str:
    """A favour card's effect in the language in use, ``{pays}`` filled in."""
    if not text:
        return ""
    try:
        return _(text, pays=pays)
    except (KeyError, IndexError, ValueError):  # a brace the file meant literally
        return text.replace("{pays}", str(pays))


def _seat_word(seat: str) -> str:
    """A ticket's seat kind as the page names it ("Box"; "Palco"), in the language in use."""
    word = _(SEAT_WORDS[seat]) if seat in SEAT_WORDS else seat
    return word[:1].upper() + word[1:]


def _marks(table: str, sources: Sources) -> dict[str, dict[str, str]]:
    """Per unprinted field of an entry: its source and the sentence the page shows for it (in a
    tooltip and as visually hidden text): where the value comes from, and why it is what it is."""
    out = {}
    for field, source in sources:
        text = _(SOURCE_TEXT[source])
        note = value_note(table, field, source)
        note = _(note) if note else ""
        out[field] = {"source": source,
                      "text": text[0].upper() + text[1:] + "." + (f" {note[0].upper()}{note[1:]}." if note else "")}
    return out


def page_data() -> dict[str, Any]:
    """JSON for ``page.js`` (served with the game's page, see ``ludus.web.pages``), its names and
    sentences in the language in use (the web app asks under the reader's): the terminal's words."""
    cards = load_cards()
    text = read_text(str(DEFAULT_PATH), MiB, "card data", DataError)
    entries = load_toml(text, str(DEFAULT_PATH), CardFile, DataError)
    favour_entry: dict[str, FavourEntry] = {f.key: f for f in entries.favour}
    return {
        "colours": [_(c) for c in SEAT_COLOURS],
        # name: as a heading says it; at: as a sentence does ("the Forum Romanum", "Caesar's Villa")
        "lines": [{"key": k, "name": line_label(k), "at": line_at(k), "role": _(r)}
                  for k, r in zip(LINE_KEYS, LINE_ROLES)],
        "venues": [{"key": k, "name": line_label(k), "at": line_at(k)} for k in VENUE_KEYS],
        "marks": {EXAMPLE: MARKS[EXAMPLE], OURS: MARKS[OURS]},
        "traders": [{"rank": r, "coins": c, "marks": _marks("trader", src)}
                    for r, (c, src) in enumerate(zip(cards.trader_coins, cards.trader_sources), start=1)],
        "tickets": {t.key: {"venue": VENUE_KEYS[t.venue], "seat": t.seat, "seat_name": _seat_word(t.seat),
                            "seat_word": _(SEAT_WORDS.get(t.seat, t.seat)),
                            "coins": t.coins,
                            "marks": _marks("ticket", t.sources)}
                    for t in cards.tickets},
        "visitors": {v.key: {"name": visitor_label(v.key), "coins": v.coins, "caesar": v.caesar,
                             "marks": _marks("visitor", v.sources)}
                     for v in cards.visitors},
        "favours": {f.key: {"name": favour_label(f.key), "coins": f.coins,
                            "effect": _effect(favour_entry[f.key].effect, cards.legionnaire_pays),
                            "marks": _marks("favour", f.sources)}
                    for f in cards.favours},
        "legionnaire_pays": cards.legionnaire_pays,
    }
