"""Card data for Circus Maximus, read from a TOML file and checked entry by entry.

The rulebook prints only some card values, so the numbers live in ``data/cards.toml``
(guessed ones marked ``provisional``) and a player may load a file of their own. What the
rules themselves fix (the three venues, the nine favour effects, ranks 1-8) stays in code;
the file only says how many cards of each kind there are and what they are worth.

A card set is an int bitmask over card ids; ids of one kind are consecutive, and each kind
has its own mask, so "how many Senators are left in the deck" is one ``&`` and a popcount.
The eight traders of a seat are a mask too (:data:`ALL_TRADERS`, bit r-1 = rank r).
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...core.datafile import MiB, read_text
from ...core.errors import DataError

__all__ = [
    "ALL_TRADERS",
    "DEFAULT_PATH",
    "DOUBLE_SALE",
    "DOUBLE_TICKET",
    "EXTRA_TRADER",
    "EXTRA_VISITOR",
    "FAVOUR_KEYS",
    "FAVOUR_NAMES",
    "LEGIONNAIRE",
    "LEGIONNAIRE_VISITOR",
    "MOVE_AHEAD",
    "RANK_BOOST",
    "REPLAY_TRADER",
    "TICKET_AND_VISITOR",
    "VENUE_KEYS",
    "VENUE_NAMES",
    "CardData",
    "FavourKind",
    "TicketKind",
    "VisitorKind",
    "load_cards",
    "parse_cards",
    "ticket_key_name",
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


@dataclass(frozen=True)
class TicketKind:
    key: str  # "venue:seat"
    venue: int
    seat: str
    coins: int
    count: int


@dataclass(frozen=True)
class VisitorKind:
    key: str
    name: str
    coins: int
    count: int
    caesar: bool


@dataclass(frozen=True)
class FavourKind:
    key: str
    name: str
    coins: int
    count: int


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


# ------------------------------------------------------------------ reading
_TABLES = {
    "trader": {"rank": int, "coins": int, "provisional": bool},
    "ticket": {"venue": str, "seat": str, "coins": int, "count": int, "provisional": bool},
    "visitor": {"key": str, "name": str, "coins": int, "count": int, "caesar": bool, "provisional": bool},
    "favour": {"key": str, "coins": int, "count": int, "pays": int, "provisional": bool},
}
_REQUIRED = {
    "trader": ("rank", "coins"),
    "ticket": ("venue", "seat", "coins", "count"),
    "visitor": ("key", "name", "coins", "count"),
    "favour": ("key", "coins", "count"),
}
_TYPE_WORDS = {int: "a whole number", str: "text", bool: "true or false"}


class _Locator:
    """Finds the line of the n-th ``[[table]]`` (and of a key in it) for error messages."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.lines = text.splitlines()

    def table_line(self, table: str, index: int) -> int | None:
        pattern = re.compile(r"^\s*\[\[\s*" + re.escape(table) + r"\s*\]\]")
        seen = -1
        for no, line in enumerate(self.lines, 1):
            if pattern.match(line):
                seen += 1
                if seen == index:
                    return no
        return None

    def key_line(self, table: str, index: int, key: str) -> int | None:
        start = self.table_line(table, index)
        if start is None:
            return None
        pattern = re.compile(r"^\s*" + re.escape(key) + r"\s*=")
        for no in range(start + 1, len(self.lines) + 1):
            line = self.lines[no - 1]
            if line.lstrip().startswith("["):
                break
            if pattern.match(line):
                return no
        return start

    def error(self, problem: str, table: str | None = None, index: int = 0, key: str | None = None) -> DataError:
        line = None
        if table is not None:
            line = self.key_line(table, index, key) if key else self.table_line(table, index)
        where = f"{self.path}:{line}" if line else self.path
        return DataError(f"{where}: {problem}")


def _check_entry(loc: _Locator, table: str, index: int, entry: Any) -> dict[str, Any]:
    what = f"[[{table}]] entry {index + 1}"
    if not isinstance(entry, dict):
        raise loc.error(f"{what} must be a table", table, index)
    fields = _TABLES[table]
    for key, value in entry.items():
        if key not in fields:
            known = ", ".join(fields)
            raise loc.error(f"{what}: unknown field {key!r} (known fields: {known})", table, index, key)
        want = fields[key]
        if want is int and (not isinstance(value, int) or isinstance(value, bool)):
            raise loc.error(f"{what}: {key!r} must be {_TYPE_WORDS[want]}, not {value!r}", table, index, key)
        if want is not int and not isinstance(value, want):
            raise loc.error(f"{what}: {key!r} must be {_TYPE_WORDS[want]}, not {value!r}", table, index, key)
        if want is int and value < 0:
            raise loc.error(f"{what}: {key!r} must not be negative, got {value}", table, index, key)
    for key in _REQUIRED[table]:
        if key not in entry:
            raise loc.error(f"{what}: missing field {key!r}", table, index)
    return entry


def _masks(counts: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    kind_of: list[int] = []
    masks: list[int] = []
    for kind, count in enumerate(counts):
        start = len(kind_of)
        kind_of.extend([kind] * count)
        masks.append(((1 << count) - 1) << start)
    return tuple(kind_of), tuple(masks)


def parse_cards(text: str, path: str = "<cards>") -> CardData:
    """Parse and check card data; every problem raises DataError naming file, line and problem."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        where = f"{path}:{m.group(1)}" if m else path
        raise DataError(f"{where}: not valid TOML: {msg}") from None
    loc = _Locator(path, text)
    for key in raw:
        if key not in _TABLES:
            raise loc.error(f"unknown table {key!r}; expected [[trader]], [[ticket]], [[visitor]], [[favour]]")
    tables: dict[str, list[dict[str, Any]]] = {}
    for table in _TABLES:
        entries = raw.get(table)
        if entries is None:
            raise loc.error(f"missing [[{table}]] entries")
        if not isinstance(entries, list):
            raise loc.error(f"{table!r} must be written as [[{table}]] tables")
        tables[table] = [_check_entry(loc, table, i, e) for i, e in enumerate(entries)]

    # traders: ranks 1..8 exactly once each
    coins_by_rank: dict[int, int] = {}
    for i, e in enumerate(tables["trader"]):
        rank = e["rank"]
        if not 1 <= rank <= 8:
            raise loc.error(f"[[trader]] entry {i + 1}: rank must be 1 to 8, got {rank}", "trader", i, "rank")
        if rank in coins_by_rank:
            raise loc.error(f"[[trader]] entry {i + 1}: rank {rank} is listed twice", "trader", i, "rank")
        coins_by_rank[rank] = e["coins"]
    missing = [r for r in range(1, 9) if r not in coins_by_rank]
    if missing:
        raise loc.error(f"[[trader]]: no entry for rank {', '.join(map(str, missing))}", "trader", 0)

    tickets: list[TicketKind] = []
    for i, e in enumerate(tables["ticket"]):
        if e["venue"] not in VENUE_KEYS:
            raise loc.error(f"[[ticket]] entry {i + 1}: venue must be one of {', '.join(VENUE_KEYS)}, "
                            f"got {e['venue']!r}", "ticket", i, "venue")
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9 _-]*", e["seat"]):
            raise loc.error(f"[[ticket]] entry {i + 1}: seat must be a short name of letters, got {e['seat']!r}",
                            "ticket", i, "seat")
        key = f"{e['venue']}:{e['seat']}"
        if any(t.key == key for t in tickets):
            raise loc.error(f"[[ticket]] entry {i + 1}: {key!r} is listed twice", "ticket", i)
        tickets.append(TicketKind(key, VENUE_KEYS.index(e["venue"]), e["seat"], e["coins"], e["count"]))
    if not tickets or sum(t.count for t in tickets) == 0:
        raise loc.error("[[ticket]]: there must be at least one ticket")

    visitors: list[VisitorKind] = []
    for i, e in enumerate(tables["visitor"]):
        if not re.fullmatch(r"[a-z][a-z0-9_]*", e["key"]):
            raise loc.error(f"[[visitor]] entry {i + 1}: key must be lower-case letters, got {e['key']!r}",
                            "visitor", i, "key")
        if any(v.key == e["key"] for v in visitors):
            raise loc.error(f"[[visitor]] entry {i + 1}: key {e['key']!r} is listed twice", "visitor", i, "key")
        visitors.append(VisitorKind(e["key"], e["name"], e["coins"], e["count"], bool(e.get("caesar", False))))
    caesars = [i for i, v in enumerate(visitors) if v.caesar]
    if len(caesars) != 1:
        raise loc.error(f"[[visitor]]: exactly one entry must have caesar = true, found {len(caesars)}",
                        "visitor", caesars[1] if len(caesars) > 1 else 0)
    if visitors[caesars[0]].count != 1:
        raise loc.error("[[visitor]]: there is exactly one Caesar card (count = 1)", "visitor", caesars[0], "count")
    legion = [i for i, v in enumerate(visitors) if v.key == LEGIONNAIRE_VISITOR]
    if not legion:
        raise loc.error(f"[[visitor]]: a {LEGIONNAIRE_VISITOR!r} visitor is needed by the "
                        f"{FAVOUR_NAMES[LEGIONNAIRE]} favour", "visitor", 0)
    if legion[0] == caesars[0]:
        raise loc.error("[[visitor]]: the legionnaire cannot be the Caesar card", "visitor", legion[0])

    by_key: dict[str, tuple[int, dict[str, Any]]] = {}
    for i, e in enumerate(tables["favour"]):
        if e["key"] not in FAVOUR_KEYS:
            raise loc.error(f"[[favour]] entry {i + 1}: unknown favour {e['key']!r}; known: "
                            f"{', '.join(FAVOUR_KEYS)}", "favour", i, "key")
        if e["key"] in by_key:
            raise loc.error(f"[[favour]] entry {i + 1}: favour {e['key']!r} is listed twice", "favour", i, "key")
        if "pays" in e and e["key"] != LEGIONNAIRE:
            raise loc.error(f"[[favour]] entry {i + 1}: only the {LEGIONNAIRE!r} favour has 'pays'",
                            "favour", i, "pays")
        by_key[e["key"]] = (i, e)
    missing_f = [k for k in FAVOUR_KEYS if k not in by_key]
    if missing_f:
        raise loc.error(f"[[favour]]: no entry for {', '.join(missing_f)}", "favour", 0)
    if "pays" not in by_key[LEGIONNAIRE][1]:
        raise loc.error(f"[[favour]]: the {LEGIONNAIRE!r} favour needs 'pays' (what a legionnaire pays with it)",
                        "favour", by_key[LEGIONNAIRE][0])
    favours = tuple(FavourKind(k, FAVOUR_NAMES[k], by_key[k][1]["coins"], by_key[k][1]["count"])
                    for k in FAVOUR_KEYS)

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
        legionnaire_pays=by_key[LEGIONNAIRE][1]["pays"],
        ticket_kind_of=t_kind_of,
        ticket_masks=t_masks,
        visitor_kind_of=v_kind_of,
        visitor_masks=v_masks,
        favour_kind_of=f_kind_of,
        favour_masks=f_masks,
        venue_ticket_masks=venue_masks,
        caesar_kind=caesars[0],
        legionnaire_kind=legion[0],
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
