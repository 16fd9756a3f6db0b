"""Gorus Arena's public log: events kept as small tuples, worded only when someone reads them.

The rules log a line for almost every step (reveals, auctions, attacks, automatic actions,
draws), and search plays millions of steps that nobody reads. So the state stores each event
as a tuple of a code and the numbers it needs (:data:`Event`), and :func:`event_text` writes
the sentence when an observation's ``events`` are read (:class:`EventLines`), a position is
written or a person looks. A log line may also be plain text: positions read back from JSON
(and the sampler's unknown lines) carry their lines already worded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, overload

from .actions import INCOME, seat_name
from .cards import KIND_BY_KEY, NAME, STRENGTH, card_label

__all__ = [
    "ATTACK_EV",
    "AUCTION",
    "DOWN",
    "DRAWS",
    "EVENT_KINDS",
    "GAME_OVER",
    "GUARDED",
    "GUARDS",
    "INCOME_EV",
    "MARKET",
    "NO_ATTACK",
    "NO_RECRUIT",
    "PASSES",
    "RECRUITS",
    "RESHUFFLE",
    "REVEAL",
    "ROUND",
    "TIE",
    "Event",
    "EventLines",
    "event_codes",
    "event_from_code",
    "event_text",
    "texts",
]

Event = tuple[Any, ...] | str
"""One log line: ``(code, *values)`` as the rules write it, or text read from a position."""

# the codes: the first item of an event tuple; the comment shows the values that follow
ROUND = 0  # round, rounds, starting seat
REVEAL = 1  # seat, tuple of the revealed cards
GUARDED = 2  # seat, shield
AUCTION = 3  # auction number (0: the per-round auction), winning seat, strength
TIE = 4  # auction number (0: the per-round auction), strength
DOWN = 5  # seat, card
INCOME_EV = 6  # seat, card
GUARDS = 7  # seat, card, shield
NO_RECRUIT = 8  # seat, card, whether the hand was full
NO_ATTACK = 9  # seat, card
GAME_OVER = 10  # tuple of the scores
RESHUFFLE = 11  # seat
DRAWS = 12  # seat, cards drawn
MARKET = 13  # seat, card, whether the seat picked it (refill=choose)
RECRUITS = 14  # seat, card, kind key, cost
PASSES = 15  # seat, card
ATTACK_EV = 16  # seat, card, victim seat, target, guard, killed


def _who(seat: int, card: int) -> str:
    return f"{seat_name(seat)}'s {NAME[card]}"


def _auction(k: int) -> str:
    return f"Auction {k}" if k else "Auction"


def _attack(seat: int, card: int, victim: int, target: int, guard: int, killed: bool) -> str:
    return (f"{_who(seat, card)} (strength {STRENGTH[card]}) attacks {_who(victim, target)} (defence {guard})"
            + (": killed" if killed else ": the attack fails"))


_TEXT: tuple[Callable[..., str], ...] = (
    lambda r, rounds, s: f"— Round {r} of {rounds}: {seat_name(s)} starts —",
    lambda s, cards: f"{seat_name(s)} reveals: {', '.join(card_label(c) for c in cards) or 'nothing'}",
    lambda s, shield: f"{seat_name(s)}'s gladiators are guarded: defence at least {shield}",
    lambda k, s, best: f"{_auction(k)}: {seat_name(s)} wins with strength {best}",
    lambda k, best: f"{_auction(k)}: tie at strength {best}, nobody wins; turn order",
    lambda s, c: f"{_who(s, c)} is down but still acts: the auction was tied",
    lambda s, c: f"{_who(s, c)}: income, +{INCOME} coins",
    lambda s, c, shield: f"{_who(s, c)} guards: defence at least {shield} for the rest of the round",
    lambda s, c, full: f"{_who(s, c)}: no recruit ({'hand full' if full else 'cannot afford anything'})",
    lambda s, c: f"{_who(s, c)}: nobody to attack",
    lambda scores: "Game over: " + ", ".join(f"{seat_name(s)} {x}" for s, x in enumerate(scores)),
    lambda s: f"{seat_name(s)} turns the discard pile into a new draw pile",
    lambda s, n: f"{seat_name(s)} draws {n} card{'s' if n > 1 else ''}",
    lambda s, c, picked: f"{seat_name(s)}'s hand is empty: {'picks' if picked else 'takes'} {NAME[c]} from the market",
    lambda s, c, key, cost: f"{_who(s, c)} recruits {KIND_BY_KEY[key].name} for {cost} coins",
    lambda s, c: f"{_who(s, c)} passes",
    _attack,
)
"""The wording of each code, indexed by the code."""


def event_text(event: Event) -> str:
    """The log line of ``event``, as a person reads it."""
    if isinstance(event, str):
        return event
    return _TEXT[event[0]](*event[1:])


def texts(events: Sequence[Event]) -> list[str]:
    """Every line of a log, worded."""
    return [event_text(e) for e in events]


EVENT_KINDS: dict[int, str] = {
    ROUND: "round",  # round, rounds, starting seat
    REVEAL: "reveal",  # seat, [revealed card ids]
    GUARDED: "guarded",  # seat, shield
    AUCTION: "auction",  # auction number (0: the per-round auction), winning seat, strength
    TIE: "tie",  # auction number (0: the per-round auction), strength
    DOWN: "down",  # seat, card
    INCOME_EV: "income",  # seat, card
    GUARDS: "guards",  # seat, card, shield
    NO_RECRUIT: "no-recruit",  # seat, card, whether the hand was full
    NO_ATTACK: "no-attack",  # seat, card
    GAME_OVER: "game-over",  # [scores by seat]
    RESHUFFLE: "reshuffle",  # seat
    DRAWS: "draws",  # seat, how many cards
    MARKET: "market",  # seat, card, whether the seat picked it
    RECRUITS: "recruits",  # seat, card, kind key, cost
    PASSES: "passes",  # seat, card
    ATTACK_EV: "attack",  # seat, card, victim seat, target card, guard, whether it killed
}
"""The kind of each log event as ``event_codes`` names it."""
CODE_OF_KIND = {kind: code for code, kind in EVENT_KINDS.items()}


def event_codes(events: Sequence[Event]) -> list[list[Any] | None]:
    """The log lines of an observation language-neutrally, one entry per line of ``events``: the
    event's kind (:data:`EVENT_KINDS`) and its values (seats, card ids, numbers, a card kind's key,
    true/false; never words), or None for a line held only as text (a position read back from
    JSON). The same events as the worded ``events``, so nothing a seat may not see."""
    out: list[list[Any] | None] = []
    for event in getattr(events, "raw", events):
        if isinstance(event, str):
            out.append(None)
            continue
        out.append([EVENT_KINDS[event[0]], *(list(v) if isinstance(v, tuple) else v for v in event[1:])])
    return out


def event_from_code(entry: Any, text: str) -> Event:
    """A log line read back from a position: the event ``entry`` (one item of ``event_codes``)
    stands for, when it is well formed and words exactly as ``text``; else ``text`` itself, as a
    line known only as text (an older position, a hand-written one, a line the code does not fit)."""
    if not isinstance(entry, list) or not entry or entry[0] not in CODE_OF_KIND:
        return text
    values: list[Any] = []
    for value in entry[1:]:  # seats, cards and counts are small non-negative numbers; scores may be any
        if isinstance(value, list):
            if len(value) > 64 or not all(type(v) is int and abs(v) < 10**9 for v in value):
                return text
            values.append(tuple(value))
        elif type(value) is bool or (type(value) is int and 0 <= value < 10**6) or (
                isinstance(value, str) and len(value) <= 64):
            values.append(value)
        else:
            return text
    event = (CODE_OF_KIND[entry[0]], *values)
    try:
        worded = event_text(event)
    except (TypeError, IndexError, KeyError, ValueError):  # the wrong number or kind of values
        return text
    return event if worded == text else text


_new = object.__new__


class EventLines(Sequence[str]):
    """The last lines of the log in an observation: a tuple of text to whoever reads it, worded
    on the first read (most observations, those of search bots, are never read by a person)."""

    __slots__ = ("_events", "_text")
    _events: Sequence[Event]
    _text: tuple[str, ...] | None

    def __init__(self, events: Sequence[Event]) -> None:
        self._events = tuple(events)
        self._text = None

    @classmethod
    def of_slice(cls, events: list[Event]) -> EventLines:
        """Lines over a list nobody else holds (a fresh slice of a log), kept without a copy."""
        lines = _new(cls)
        lines._events = events
        lines._text = None
        return lines

    @property
    def raw(self) -> Sequence[Event]:
        """The events unworded (the sampler copies them into a state without wording them)."""
        return self._events

    def lines(self) -> tuple[str, ...]:
        text = self._text
        if text is None:
            text = self._text = tuple(map(event_text, self._events))
        return text

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...

    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        return self.lines()[index]

    def __len__(self) -> int:
        return len(self._events)

    def __iter__(self) -> Iterator[str]:
        return iter(self.lines())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EventLines):
            return tuple(self._events) == tuple(other._events) or self.lines() == other.lines()
        if isinstance(other, tuple):
            return self.lines() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.lines())

    def __repr__(self) -> str:
        return repr(self.lines())

    def __getstate__(self) -> tuple[Event, ...]:
        return tuple(self._events)

    def __setstate__(self, state: Sequence[Event]) -> None:
        self._events = state
        self._text = None
