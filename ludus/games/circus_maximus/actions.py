"""Circus Maximus actions: small frozen values that name cards by key, never by card id.

Cards of one kind are interchangeable, so an action says "a Senator" or "a Colosseum box
ticket" and the engine takes any card of that kind. Keys (not data indices) keep records
readable and labels meaningful without the card data at hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.errors import RecordError
from ...core.game import Action
from .cards import FAVOUR_KEYS, FAVOUR_NAMES, VENUE_KEYS, ticket_key_name, venue_name

__all__ = [
    "FORUM",
    "LINE_KEYS",
    "LINE_NAMES",
    "VILLA",
    "Done",
    "DrawFavour",
    "DrawTicket",
    "DrawVisitor",
    "Pass",
    "Place",
    "PlaceVisitor",
    "PlayExtraVisitor",
    "PlayMoveAhead",
    "PlayReplay",
    "PlayTicketVisitor",
    "Sell",
    "Skip",
    "TakeFavour",
    "TakeStart",
    "TakeTicket",
    "action_from_json",
    "favour_name",
    "line_name",
    "visitor_name",
]

LINE_KEYS = ("villa", "forum") + VENUE_KEYS
LINE_NAMES = ("Caesar's Villa", "Forum Romanum") + tuple(venue_name(v) for v in VENUE_KEYS)
VILLA, FORUM = 0, 1


def line_name(key: str) -> str:
    return LINE_NAMES[LINE_KEYS.index(key)] if key in LINE_KEYS else key


def visitor_name(key: str) -> str:
    return key.replace("_", " ").title()


def favour_name(key: str) -> str:
    return FAVOUR_NAMES.get(key, key)


@dataclass(frozen=True, slots=True)
class Place(Action):
    """Put trader ``rank`` into ``line``; ``extra`` plays +Trader with it, ``boost`` Rank 1→8."""

    rank: int
    line: str
    extra: bool = False
    boost: bool = False

    @property
    def label(self) -> str:
        text = f"Trader {self.rank} → {line_name(self.line)}"
        withs = [n for flag, n in ((self.boost, "Rank 1→8"), (self.extra, "+Trader")) if flag]
        return text + (f" with {' and '.join(withs)}" if withs else "")

    def to_json(self) -> Any:
        out: dict[str, Any] = {"type": "place", "rank": self.rank, "line": self.line}
        if self.extra:
            out["extra"] = True
        if self.boost:
            out["boost"] = True
        return out


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Stop placing traders for the rest of this phase."""

    @property
    def label(self) -> str:
        return "Pass"

    def to_json(self) -> Any:
        return {"type": "pass"}


@dataclass(frozen=True, slots=True)
class Done(Action):
    """Decline the second trader that +Trader allows (the turn ends, the phase does not)."""

    @property
    def label(self) -> str:
        return "End turn without a second trader"

    def to_json(self) -> Any:
        return {"type": "done"}


@dataclass(frozen=True, slots=True)
class PlayExtraVisitor(Action):
    """+Visitor instead of a trader: a visitor is drawn, then placed at a venue."""

    @property
    def label(self) -> str:
        return f"Play {favour_name('extra_visitor')}"

    def to_json(self) -> Any:
        return {"type": "extra_visitor"}


@dataclass(frozen=True, slots=True)
class PlaceVisitor(Action):
    """Where the visitor drawn with +Visitor goes."""

    venue: str

    @property
    def label(self) -> str:
        return f"Place the drawn visitor at {line_name(self.venue)}"

    def to_json(self) -> Any:
        return {"type": "place_visitor", "venue": self.venue}


@dataclass(frozen=True, slots=True)
class PlayReplay(Action):
    """↓ Trader instead of a trader: trader ``rank`` leaves an earlier phase's line for ``line``."""

    rank: int
    line: str

    @property
    def label(self) -> str:
        return f"Play {favour_name('replay_trader')}: trader {self.rank} again → {line_name(self.line)}"

    def to_json(self) -> Any:
        return {"type": "replay_trader", "rank": self.rank, "line": self.line}


@dataclass(frozen=True, slots=True)
class PlayTicketVisitor(Action):
    """II +Ticket +Visitor instead of a trader in phase II: a ticket to you, a visitor to its venue."""

    @property
    def label(self) -> str:
        return f"Play {favour_name('ticket_and_visitor')}"

    def to_json(self) -> Any:
        return {"type": "ticket_and_visitor"}


@dataclass(frozen=True, slots=True)
class PlayMoveAhead(Action):
    """← Trader instead of a trader: trader ``rank`` overtakes the trader in front of it."""

    rank: int

    @property
    def label(self) -> str:
        return f"Play {favour_name('move_ahead')}: move trader {self.rank} ahead one place"

    def to_json(self) -> Any:
        return {"type": "move_ahead", "rank": self.rank}


@dataclass(frozen=True, slots=True)
class TakeFavour(Action):
    """At the villa: take one favour card from the display."""

    favour: str

    @property
    def label(self) -> str:
        return f"Take favour {favour_name(self.favour)}"

    def to_json(self) -> Any:
        return {"type": "take_favour", "favour": self.favour}


@dataclass(frozen=True, slots=True)
class TakeStart(Action):
    """At the villa: take the starting-player card instead of a favour."""

    @property
    def label(self) -> str:
        return "Take the starting-player card"

    def to_json(self) -> Any:
        return {"type": "take_start"}


@dataclass(frozen=True, slots=True)
class TakeTicket(Action):
    """At the forum: take a ticket; ``double`` plays II +Ticket to take a second one at once."""

    ticket: str

    double: bool = False

    @property
    def label(self) -> str:
        text = f"Take ticket {ticket_key_name(self.ticket)}"
        return text + (f", then a second with {favour_name('double_ticket')}" if self.double else "")

    def to_json(self) -> Any:
        out: dict[str, Any] = {"type": "take_ticket", "ticket": self.ticket}
        if self.double:
            out["double"] = True
        return out


@dataclass(frozen=True, slots=True)
class Sell(Action):
    """At a venue: sell a ticket (or, beside Caesar, a favour card) to a visitor.

    ``legion`` plays Ticket→Legionnaire with the sale, ``double`` plays III +Ticket so the
    same trader sells once more right after.
    """

    visitor: str
    ticket: str | None = None
    favour: str | None = None
    legion: bool = False
    double: bool = False

    @property
    def label(self) -> str:
        what = ticket_key_name(self.ticket) if self.ticket is not None else \
            f"favour {favour_name(self.favour or '?')} as a seat beside Caesar"
        text = f"Sell {what} to a {visitor_name(self.visitor)}"
        if self.legion:
            text += f" with {favour_name('legionnaire')}"
        if self.double:
            text += f", then sell again with {favour_name('double_sale')}"
        return text

    def to_json(self) -> Any:
        out: dict[str, Any] = {"type": "sell", "visitor": self.visitor}
        if self.ticket is not None:
            out["ticket"] = self.ticket
        if self.favour is not None:
            out["favour"] = self.favour
        if self.legion:
            out["legion"] = True
        if self.double:
            out["double"] = True
        return out


@dataclass(frozen=True, slots=True)
class Skip(Action):
    """At a venue: sell nothing (only when holding no ticket for it, beside Caesar)."""

    @property
    def label(self) -> str:
        return "Sell nothing here"

    def to_json(self) -> Any:
        return {"type": "skip"}


@dataclass(frozen=True, slots=True)
class DrawFavour(Action):
    """Chance: the next favour card turned up for the villa is of kind ``favour``."""

    favour: str

    @property
    def label(self) -> str:
        return f"Favour {favour_name(self.favour)} turned up"

    def to_json(self) -> Any:
        return {"type": "draw_favour", "favour": self.favour}


@dataclass(frozen=True, slots=True)
class DrawTicket(Action):
    """Chance: the next ticket drawn is of kind ``ticket``."""

    ticket: str

    @property
    def label(self) -> str:
        return f"Ticket {ticket_key_name(self.ticket)} drawn"

    def to_json(self) -> Any:
        return {"type": "draw_ticket", "ticket": self.ticket}


@dataclass(frozen=True, slots=True)
class DrawVisitor(Action):
    """Chance: the next visitor drawn is of kind ``visitor``."""

    visitor: str

    @property
    def label(self) -> str:
        return f"Visitor {visitor_name(self.visitor)} drawn"

    def to_json(self) -> Any:
        return {"type": "draw_visitor", "visitor": self.visitor}


# ------------------------------------------------------------------ parsing
def _field(data: dict[str, Any], key: str, kind: type, default: Any = ..., choices: tuple | None = None) -> Any:
    if key not in data:
        if default is ...:
            raise RecordError(f"{data.get('type')} action needs field {key!r}")
        return default
    value = data[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise RecordError(f"field {key!r} must be a whole number, not {value!r}")
    if kind is not int and not isinstance(value, kind):
        raise RecordError(f"field {key!r} has the wrong type: {value!r}")
    if choices is not None and value not in choices:
        raise RecordError(f"field {key!r} must be one of {', '.join(map(str, choices))}, not {value!r}")
    return value


def _rank(data: dict[str, Any]) -> int:
    rank = _field(data, "rank", int)
    if not 1 <= rank <= 8:
        raise RecordError(f"trader rank must be 1 to 8, not {rank}")
    return rank


def _opt_str(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise RecordError(f"field {key!r} must be text, not {value!r}")
    return value


_SIMPLE = {
    "pass": Pass, "done": Done, "extra_visitor": PlayExtraVisitor, "ticket_and_visitor": PlayTicketVisitor,
    "take_start": TakeStart, "skip": Skip,
}
_ALLOWED = {
    "place": {"rank", "line", "extra", "boost"}, "place_visitor": {"venue"}, "replay_trader": {"rank", "line"},
    "move_ahead": {"rank"}, "take_favour": {"favour"}, "take_ticket": {"ticket", "double"},
    "sell": {"visitor", "ticket", "favour", "legion", "double"}, "draw_favour": {"favour"},
    "draw_ticket": {"ticket"}, "draw_visitor": {"visitor"},
}


def action_from_json(data: Any) -> Action:
    """Parse an action written by ``to_json``; malformed data raises RecordError."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise RecordError(f"an action must be an object with a 'type', not {data!r}")
    kind = data["type"]
    allowed = _ALLOWED.get(kind, set())
    if kind not in _SIMPLE and kind not in _ALLOWED:
        raise RecordError(f"unknown Circus Maximus action type {kind!r}")
    extra = set(data) - allowed - {"type"}
    if extra:
        raise RecordError(f"{kind} action has unknown field(s) {', '.join(sorted(extra))}")
    if kind in _SIMPLE:
        return _SIMPLE[kind]()
    if kind == "place":
        return Place(_rank(data), _field(data, "line", str, choices=LINE_KEYS),
                     _field(data, "extra", bool, False), _field(data, "boost", bool, False))
    if kind == "place_visitor":
        return PlaceVisitor(_field(data, "venue", str, choices=VENUE_KEYS))
    if kind == "replay_trader":
        return PlayReplay(_rank(data), _field(data, "line", str, choices=LINE_KEYS))
    if kind == "move_ahead":
        return PlayMoveAhead(_rank(data))
    if kind == "take_favour":
        return TakeFavour(_field(data, "favour", str, choices=FAVOUR_KEYS))
    if kind == "take_ticket":
        return TakeTicket(_field(data, "ticket", str), _field(data, "double", bool, False))
    if kind == "sell":
        ticket, favour = _opt_str(data, "ticket"), _opt_str(data, "favour")
        if (ticket is None) == (favour is None):
            raise RecordError("a sell action names exactly one of 'ticket' or 'favour'")
        if favour is not None and favour not in FAVOUR_KEYS:
            raise RecordError(f"unknown favour {favour!r}")
        return Sell(_field(data, "visitor", str), ticket, favour,
                    _field(data, "legion", bool, False), _field(data, "double", bool, False))
    if kind == "draw_favour":
        return DrawFavour(_field(data, "favour", str, choices=FAVOUR_KEYS))
    if kind == "draw_ticket":
        return DrawTicket(_field(data, "ticket", str))
    return DrawVisitor(_field(data, "visitor", str))
