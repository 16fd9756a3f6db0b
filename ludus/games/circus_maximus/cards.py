"""Card data for Circus Maximus, read from a TOML file and checked entry by entry.

The rulebook prints only some card values, so the numbers live in ``data/cards.toml`` and a
player may load a file of their own. The shipped file says, per value, where it comes from:
fields listed under ``example`` follow from a worked example in the rulebook, fields under
``ours`` are Ludus's choice, every other value is printed. The data classes carry that
(``sources``), :meth:`CardData.data_values` lists the unprinted values, and the terminal and
the browser mark them. What the rules themselves fix (the three venues, the nine favour
effects, ranks 1-8) stays in code; the file only says how many cards of each kind there are
and what they are worth.

A card set is an int bitmask over card ids; ids of one kind are consecutive, and each kind
has its own mask, so "how many Senators are left in the deck" is one ``&`` and a popcount.
The eight traders of a seat are a mask too (:data:`ALL_TRADERS`, bit r-1 = rank r).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from ...core.datafile import MiB, read_text
from ...core.errors import DataError
from ...core.provenance import EXAMPLE, OURS, PRINTED, DataValue, Source
from ...core.tomldata import line_map, line_of, load_toml
from ...i18n import N_

__all__ = [
    "ALL_TRADERS",
    "DEFAULT_PATH",
    "DOUBLE_SALE",
    "DOUBLE_TICKET",
    "EXTRA_TRADER",
    "EXTRA_VISITOR",
    "FAVOUR_KEYS",
    "FAVOUR_NAMES",
    "FIELD_WORDS",
    "LEGIONNAIRE",
    "LEGIONNAIRE_VISITOR",
    "MARKS",
    "MOVE_AHEAD",
    "RANK_BOOST",
    "REPLAY_TRADER",
    "TICKET_AND_VISITOR",
    "VENUE_KEYS",
    "VENUE_NAMES",
    "CardData",
    "FavourKind",
    "Sources",
    "TicketKind",
    "VisitorKind",
    "load_cards",
    "parse_cards",
    "source_of",
    "ticket_key_name",
    "value_note",
    "venue_name",
]

DEFAULT_PATH = Path(__file__).parent / "data" / "cards.toml"
ALL_TRADERS = 0xFF  # bit r-1 = trader of rank r (every seat has one trader of each rank 1-8)

VENUE_KEYS = ("circus", "colosseum", "theatre")
VENUE_NAMES = ("Circus Maximus", "Colosseum", "Pompeius Theatre")

# The nine favour effects, in the rulebook's order, with the short names printed on them.
EXTRA_VISITOR = "extra_visitor"
EXTRA_TRADER = "extra_trader"
LEGIONNAIRE = "legionnaire"
DOUBLE_TICKET = "double_ticket"
DOUBLE_SALE = "double_sale"
REPLAY_TRADER = "replay_trader"
TICKET_AND_VISITOR = "ticket_and_visitor"
RANK_BOOST = "rank_boost"
MOVE_AHEAD = "move_ahead"
FAVOUR_KEYS = (EXTRA_VISITOR, EXTRA_TRADER, LEGIONNAIRE, DOUBLE_TICKET, DOUBLE_SALE,
               REPLAY_TRADER, TICKET_AND_VISITOR, RANK_BOOST, MOVE_AHEAD)
FAVOUR_NAMES = {
    EXTRA_VISITOR: "+Visitor",
    EXTRA_TRADER: "+Trader",
    LEGIONNAIRE: "Ticket→Legionnaire",
    DOUBLE_TICKET: "II +Ticket",
    DOUBLE_SALE: "III +Ticket",
    REPLAY_TRADER: "↓ Trader",
    TICKET_AND_VISITOR: "II +Ticket +Visitor",
    RANK_BOOST: "Rank 1→8",
    MOVE_AHEAD: "← Trader",
}
LEGIONNAIRE_VISITOR = "legionnaire"


def venue_name(key: str) -> str:
    return VENUE_NAMES[VENUE_KEYS.index(key)] if key in VENUE_KEYS else key


def ticket_key_name(key: str) -> str:
    """'circus:box' -> 'Circus Maximus box' (used by action labels, which carry no data)."""
    venue, _, seat = key.partition(":")
    return f"{venue_name(venue)} {seat}"


Sources = tuple[tuple[str, Source], ...]
"""Where an entry's unprinted values come from: (field, "example" or "ours") pairs; a field
not listed is printed in the rulebook (or comes from a player's own file)."""


def source_of(sources: Sources, field: str) -> Source:
    """The source of one field of an entry (printed unless listed)."""
    for name, source in sources:
        if name == field:
            return source
    return PRINTED


@dataclass(frozen=True)
class TicketKind:
    key: str  # "venue:seat"
    venue: int
    seat: str
    coins: int
    count: int
    sources: Sources = ()


@dataclass(frozen=True)
class VisitorKind:
    key: str
    name: str
    coins: int
    count: int
    caesar: bool
    sources: Sources = ()


@dataclass(frozen=True)
class FavourKind:
    key: str
    name: str
    coins: int
    count: int
    sources: Sources = ()  # "pays" (the legionnaire favour's price) is one of its fields


@dataclass(frozen=True)
class CardData:
    """All card values of one data file, plus the id masks derived from them."""

    source: str
    trader_coins: tuple[int, ...]  # index rank - 1
    tickets: tuple[TicketKind, ...]
    visitors: tuple[VisitorKind, ...]
    favours: tuple[FavourKind, ...]  # in FAVOUR_KEYS order
    legionnaire_pays: int
    # derived: card id -> kind, kind -> mask of its ids
    ticket_kind_of: tuple[int, ...]
    ticket_masks: tuple[int, ...]
    visitor_kind_of: tuple[int, ...]
    visitor_masks: tuple[int, ...]
    favour_kind_of: tuple[int, ...]
    favour_masks: tuple[int, ...]
    venue_ticket_masks: tuple[int, ...]
    caesar_kind: int
    legionnaire_kind: int
    trader_sources: tuple[Sources, ...] = ((),) * 8  # index rank - 1: where each trader's coins come from

    @property
    def all_tickets(self) -> int:
        return (1 << len(self.ticket_kind_of)) - 1

    @property
    def all_visitors(self) -> int:
        return (1 << len(self.visitor_kind_of)) - 1

    @property
    def all_favours(self) -> int:
        return (1 << len(self.favour_kind_of)) - 1

    @property
    def caesar_mask(self) -> int:
        return self.visitor_masks[self.caesar_kind]

    def ticket_index(self, key: str) -> int | None:
        for i, t in enumerate(self.tickets):
            if t.key == key:
                return i
        return None

    def visitor_index(self, key: str) -> int | None:
        for i, v in enumerate(self.visitors):
            if v.key == key:
                return i
        return None

    @staticmethod
    def favour_index(key: str) -> int | None:
        return FAVOUR_KEYS.index(key) if key in FAVOUR_KEYS else None

    def data_values(self) -> list[DataValue]:
        """Every value of this data that the rulebook does not print, with where it comes from
        (the ``example`` / ``ours`` lists of the file) and a short note why."""
        out: list[DataValue] = []

        def add(table: str, subject: str, sources: Sources, values: dict[str, object]) -> None:
            for field, source in sources:
                note = value_note(table, field, source)
                out.append(DataValue(f"{subject}: {FIELD_WORDS[table].get(field, field)}",
                                     str(values[field]), source, note))

        for rank, (coins, sources) in enumerate(zip(self.trader_coins, self.trader_sources, strict=True), 1):
            add("trader", f"Trader {rank}", sources, {"coins": coins})
        for t in self.tickets:
            add("ticket", f"{ticket_key_name(t.key)} ticket", t.sources,
                {"coins": t.coins, "count": t.count})
        for v in self.visitors:
            add("visitor", v.name, v.sources, {"name": v.name, "coins": v.coins, "count": v.count})
        for f in self.favours:
            add("favour", f"{f.name} favour", f.sources,
                {"coins": f.coins, "count": f.count, "pays": self.legionnaire_pays})
        return out


# The marks the terminal and the browser put after an unprinted value.
MARKS: dict[str, str] = {OURS: "°", EXAMPLE: "*"}

# What a field means, for a DataValue's subject ("Trader 4: coins if kept in hand").
FIELD_WORDS: dict[str, dict[str, str]] = {
    "trader": {"coins": N_("coins if kept in hand")},
    "ticket": {"coins": N_("coins when sold"), "count": N_("cards")},
    "visitor": {"name": N_("the kind itself"), "coins": N_("coins paid"), "count": N_("cards")},
    "favour": {"coins": N_("coins at the end"), "count": N_("cards"), "pays": N_("what a Legionnaire pays with it")},
}
# The value fields each table may list under ``example`` / ``ours``.
_VALUE_FIELDS = {table: tuple(words) for table, words in FIELD_WORDS.items()}

def value_note(table: str, field: str, source: str) -> str:
    """Why an unprinted value of ``table``'s ``field`` is what it is (empty when we have no note)."""
    return _NOTES.get((table, field, source), "")


# Why a value is what it is, by (table, field, source); in our words (docs/games/circus-maximus.md),
# marked for translation (ludus games circus-maximus shows them in the reader's language).
_NOTES: dict[tuple[str, str, str], str] = {
    ("trader", "coins", EXAMPLE): N_("the rulebook's scoring example: traders 6, 3 and 2 kept in hand earn "
                                     "2 + 1 + 0"),
    ("trader", "coins", OURS): N_("the rulebook prints only the three ranks of its example; we fill ranks 1-8 "
                                  "as 0 0 1 1 2 2 3 3"),
    ("ticket", "coins", EXAMPLE): N_("the rulebook's scoring example: a balcony ticket sold to a Senator earns "
                                     "1 + 6, an arena ticket sold to a Student 2 + 3"),
    ("ticket", "coins", OURS): N_("the rulebook names box seats but never prices them; we take one more than arena"),
    ("ticket", "count", OURS): N_("the rulebook counts 18 tickets in all; we split them evenly, two per venue and "
                                  "seat"),
    ("visitor", "coins", EXAMPLE): N_("the rulebook's scoring example: a Senator pays 6 and a Student 3"),
    ("visitor", "name", OURS): N_("the rulebook has five kinds of visitor but names only three; this kind is ours"),
    ("visitor", "coins", OURS): N_("the price of a visitor kind the rulebook does not name"),
    ("visitor", "count", OURS): N_("the rulebook counts 16 visitors, Caesar among them, in five kinds; "
                                   "we split the other 15 evenly"),
    ("favour", "coins", OURS): N_("the coins are printed on the cards, not in the rulebook; its scoring example "
                                  "shows one favour, not named, worth 2"),
    ("favour", "count", OURS): N_("the rulebook counts 18 favour cards of nine kinds; we take two of each"),
}


# ------------------------------------------------------------------ reading
# The file format, one model per table; the models check each entry on its own (types, ranges,
# known keys), the code after them what involves several entries (see :func:`parse_cards`).
Coins = Annotated[StrictInt, Field(ge=0)]
Count = Annotated[StrictInt, Field(ge=0)]


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    example: list[StrictStr] = []  # fields whose values follow from a worked example in the rulebook
    ours: list[StrictStr] = []  # fields whose values are Ludus's choice (see the file's header)
    provisional: StrictBool = False  # older files: the whole entry is ours (same as listing every field)


class TraderEntry(_Entry):
    """``[[trader]]``: what an unplayed trader of this rank earns at scoring."""

    rank: Annotated[StrictInt, Field(ge=1, le=8)]
    coins: Coins


class TicketEntry(_Entry):
    """``[[ticket]]``: one kind of ticket, ``count`` cards of it."""

    venue: Literal["circus", "colosseum", "theatre"]  # VENUE_KEYS
    seat: Annotated[StrictStr, Field(pattern=r"^[A-Za-z][A-Za-z0-9 _-]*$")]
    coins: Coins
    count: Count


class VisitorEntry(_Entry):
    """``[[visitor]]``: one kind of visitor; exactly one kind is the single Caesar card."""

    key: Annotated[StrictStr, Field(pattern=r"^[a-z][a-z0-9_]*$")]
    name: StrictStr
    coins: Coins
    count: Count
    caesar: StrictBool = False


class FavourEntry(_Entry):
    """``[[favour]]``: one of the nine favour effects; only the legionnaire favour has ``pays``."""

    key: Literal[
        "extra_visitor", "extra_trader", "legionnaire", "double_ticket", "double_sale",
        "replay_trader", "ticket_and_visitor", "rank_boost", "move_ahead",
    ]  # FAVOUR_KEYS
    coins: Coins
    count: Count
    pays: Coins | None = None
    effect: StrictStr | None = None  # what the card does, in words, for the browser (not read by the rules)


class CardFile(BaseModel):
    """A whole card-data file: the four tables, each written as ``[[table]]`` entries."""

    model_config = ConfigDict(extra="forbid")

    trader: list[TraderEntry]
    ticket: list[TicketEntry]
    visitor: list[VisitorEntry]
    favour: list[FavourEntry]


assert get_args(TicketEntry.model_fields["venue"].annotation) == VENUE_KEYS
assert get_args(FavourEntry.model_fields["key"].annotation) == FAVOUR_KEYS


def _masks(counts: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    kind_of: list[int] = []
    masks: list[int] = []
    for kind, count in enumerate(counts):
        start = len(kind_of)
        kind_of.extend([kind] * count)
        masks.append(((1 << count) - 1) << start)
    return tuple(kind_of), tuple(masks)


def parse_cards(text: str, path: str = "<cards>") -> CardData:
    """Parse and check card data; every problem raises DataError naming file, line and problem.

    :class:`CardFile` checks each entry; what follows checks what involves several entries
    (each rank once, unique keys, the one Caesar, the legionnaire both kinds need, the nine
    favours once each and ``pays`` on the legionnaire favour only), which a per-entry model
    cannot say, and names the line of the entry or key at fault the same way.
    """
    data = load_toml(text, path, CardFile, DataError)

    def fail(loc: tuple[str | int, ...], problem: str) -> DataError:
        return DataError(f"{path}, line {line_of(line_map(text), loc)}: {problem}")

    def sources(table: str, i: int, entry: _Entry) -> Sources:
        """The entry's ``example`` and ``ours`` lists as (field, source) pairs, in field order."""
        fields = _VALUE_FIELDS[table]
        for listed in ("example", "ours"):
            for name in getattr(entry, listed):
                if name not in fields:
                    raise fail((table, i, listed), f"{table} {i + 1}: {listed}: {name!r} is not a value of a "
                                                   f"{table} (one of {', '.join(fields)})")
        both = set(entry.example) & set(entry.ours)
        if both:
            raise fail((table, i, "ours"), f"{table} {i + 1}: ours: {', '.join(sorted(both))} "
                                           "cannot also be listed under example")
        out: list[tuple[str, Source]] = []
        for name in fields:
            if name == "pays" and getattr(entry, "pays", None) is None:
                continue
            if name in entry.example:
                out.append((name, EXAMPLE))
            elif name in entry.ours or entry.provisional:
                out.append((name, OURS))
        return tuple(out)

    # traders: ranks 1..8 exactly once each
    coins_by_rank: dict[int, int] = {}
    sources_by_rank: dict[int, Sources] = {}
    for i, tr in enumerate(data.trader):
        if tr.rank in coins_by_rank:
            raise fail(("trader", i, "rank"), f"trader {i + 1}: rank: rank {tr.rank} is listed twice")
        coins_by_rank[tr.rank] = tr.coins
        sources_by_rank[tr.rank] = sources("trader", i, tr)
    missing = [r for r in range(1, 9) if r not in coins_by_rank]
    if missing:
        raise fail(("trader", 0), f"trader: no entry for rank {', '.join(map(str, missing))}")

    tickets: list[TicketKind] = []
    for i, tk in enumerate(data.ticket):
        key = f"{tk.venue}:{tk.seat}"
        if any(t.key == key for t in tickets):
            raise fail(("ticket", i), f"ticket {i + 1}: {key!r} is listed twice")
        tickets.append(TicketKind(key, VENUE_KEYS.index(tk.venue), tk.seat, tk.coins, tk.count,
                                  sources("ticket", i, tk)))
    if sum(t.count for t in tickets) == 0:
        raise fail(("ticket", 0), "ticket: there must be at least one ticket")

    visitors: list[VisitorKind] = []
    for i, vi in enumerate(data.visitor):
        if any(v.key == vi.key for v in visitors):
            raise fail(("visitor", i, "key"), f"visitor {i + 1}: key: {vi.key!r} is listed twice")
        visitors.append(VisitorKind(vi.key, vi.name, vi.coins, vi.count, vi.caesar, sources("visitor", i, vi)))
    caesars = [i for i, v in enumerate(visitors) if v.caesar]
    if len(caesars) != 1:
        raise fail(("visitor", caesars[1] if len(caesars) > 1 else 0, "caesar"),
                   f"visitor: exactly one entry must have caesar = true, found {len(caesars)}")
    if visitors[caesars[0]].count != 1:
        raise fail(("visitor", caesars[0], "count"),
                   f"visitor {caesars[0] + 1}: count: there is exactly one Caesar card (count = 1)")
    legion = [i for i, v in enumerate(visitors) if v.key == LEGIONNAIRE_VISITOR]
    if not legion:
        raise fail(("visitor", 0), f"visitor: a {LEGIONNAIRE_VISITOR!r} visitor is needed by the "
                                   f"{FAVOUR_NAMES[LEGIONNAIRE]} favour")
    if legion[0] == caesars[0]:
        raise fail(("visitor", legion[0], "caesar"),
                   f"visitor {legion[0] + 1}: the legionnaire cannot be the Caesar card")

    by_key: dict[str, tuple[int, FavourEntry]] = {}
    for i, fa in enumerate(data.favour):
        if fa.key in by_key:
            raise fail(("favour", i, "key"), f"favour {i + 1}: key: favour {fa.key!r} is listed twice")
        if fa.pays is not None and fa.key != LEGIONNAIRE:
            raise fail(("favour", i, "pays"), f"favour {i + 1}: pays: only the {LEGIONNAIRE!r} favour has 'pays'")
        by_key[fa.key] = (i, fa)
    missing_f = [k for k in FAVOUR_KEYS if k not in by_key]
    if missing_f:
        raise fail(("favour", 0), f"favour: no entry for {', '.join(missing_f)}")
    legion_at, legion_favour = by_key[LEGIONNAIRE]
    if legion_favour.pays is None:
        raise fail(("favour", legion_at), f"favour {legion_at + 1}: the {LEGIONNAIRE!r} favour needs 'pays' "
                                          f"(what a legionnaire pays with it)")
    favours = tuple(FavourKind(k, FAVOUR_NAMES[k], by_key[k][1].coins, by_key[k][1].count,
                               sources("favour", *by_key[k])) for k in FAVOUR_KEYS)

    t_kind_of, t_masks = _masks([t.count for t in tickets])
    v_kind_of, v_masks = _masks([v.count for v in visitors])
    f_kind_of, f_masks = _masks([f.count for f in favours])
    venue_masks = tuple(
        sum(t_masks[k] for k, t in enumerate(tickets) if t.venue == v) for v in range(len(VENUE_KEYS))
    )
    return CardData(
        source=path,
        trader_coins=tuple(coins_by_rank[r] for r in range(1, 9)),
        tickets=tuple(tickets),
        visitors=tuple(visitors),
        favours=favours,
        legionnaire_pays=legion_favour.pays,
        ticket_kind_of=t_kind_of,
        ticket_masks=t_masks,
        visitor_kind_of=v_kind_of,
        visitor_masks=v_masks,
        favour_kind_of=f_kind_of,
        favour_masks=f_masks,
        venue_ticket_masks=venue_masks,
        caesar_kind=caesars[0],
        legionnaire_kind=legion[0],
        trader_sources=tuple(sources_by_rank[r] for r in range(1, 9)),
    )


@lru_cache(maxsize=16)
def _load_cached(path: str, mtime_ns: int, size: int) -> CardData:
    text = read_text(path, MiB, "card data", DataError)
    return parse_cards(text, path)


def load_cards(path: str | os.PathLike[str] | None = None) -> CardData:
    """The shipped data (``path`` empty or None) or a user's file; cached per file version."""
    p = str(path) if path else str(DEFAULT_PATH)
    try:
        st = os.stat(p)
    except OSError as exc:
        raise DataError(f"{p}: cannot read card data: {exc.strerror or exc}") from None
    return _load_cached(p, st.st_mtime_ns, st.st_size)
