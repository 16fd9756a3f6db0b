"""Circus Maximus fast paths: lookup tables for observations, and the moves made once.

Observations are built for every decision of every rollout (the heuristic and ISMCTS read
them), so :func:`.views.observe` does not walk card sets bit by bit: it looks up the keys
of a whole card set in tables made once per card-data object, and the ranks of a hand and
the passed flags in tables made once. Each gives exactly what the plain walk gives; the
plain versions live in ``tests/games/circus_maximus/test_heuristic_speedup.py``, which
checks every observation field (and these tables directly) against them.

Legal moves are asked for at every decision, and the engine asks itself at every turn
whether a seat can still do anything but pass, so the moves are not built anew each time:
every move without card data in it is made once here (:data:`PLACES`, :data:`REPLAYS`,
:data:`MOVES_AHEAD` and the single moves), the trader placements of a hand are remembered
per hand and phase (:func:`place_moves`), and the moves that name cards are made once per
card-data object (:class:`CardMoves`). Moves are frozen values, so sharing one object between
lists and states is safe; ``tests/games/circus_maximus/test_fast_legal.py`` checks the legal
moves built from them against the old way (every candidate checked by the refusal rules).
"""

from __future__ import annotations

from ...core.bits import iter_bits
from ...core.memo import BoundedMemo
from .actions import (
    LINE_KEYS,
    Done,
    DrawFavour,
    DrawTicket,
    DrawVisitor,
    Pass,
    Place,
    PlaceVisitor,
    PlayExtraVisitor,
    PlayMoveAhead,
    PlayReplay,
    PlayTicketVisitor,
    Sell,
    Skip,
    TakeFavour,
    TakeStart,
    TakeTicket,
)
from .cards import ALL_TRADERS, FAVOUR_KEYS, VENUE_KEYS, CardData

__all__ = [
    "DONE", "DRAW_FAVOURS", "MOVES_AHEAD", "PASS", "PLACES", "PLACE_VISITORS", "PLAY_EXTRA_VISITOR",
    "PLAY_TICKET_VISITOR", "REPLAYS", "SKIP", "TAKE_FAVOURS", "TAKE_START", "CardMoves", "ObsKeys",
    "hand_ranks", "passed_flags", "phase_lines", "place_moves",
]

# The card keys of a card set (a bitmask) are looked up in tables made once per card-data
# object, and whole sets are remembered (the same few masks recur all the time); the keys
# come out exactly as a walk over the set bits, lowest card id first, would give them. When
# full, the oldest set is forgotten (one at a time, so the tables never all go cold at once).
_KEY_MEMO_LIMIT = 4096


def _keys_of(names: tuple[str, ...]) -> BoundedMemo[int, tuple[str, ...]]:
    """Card set (bitmask) -> tuple of the keys of its cards, lowest card id first (remembered)."""
    return BoundedMemo(lambda mask: tuple(names[c] for c in iter_bits(mask)), _KEY_MEMO_LIMIT)


class ObsKeys:
    """The key tables of one card-data object."""

    __slots__ = ("fav", "favours", "tickets", "tkt", "vis", "visitor_of", "visitors")

    def __init__(self, d: CardData) -> None:
        self.favours = _keys_of(tuple(FAVOUR_KEYS[k] for k in d.favour_kind_of))
        self.tickets = _keys_of(tuple(d.tickets[k].key for k in d.ticket_kind_of))
        self.visitor_of = tuple(d.visitors[k].key for k in d.visitor_kind_of)
        self.visitors = _keys_of(self.visitor_of)
        # bound lookups: ``fav(mask)`` etc. are plain dict look-ups once a set has been seen
        self.fav = self.favours.__getitem__
        self.tkt = self.tickets.__getitem__
        self.vis = self.visitors.__getitem__


_HAND_RANKS = tuple(tuple(r + 1 for r in iter_bits(h)) for h in range(ALL_TRADERS + 1))


def hand_ranks(hand: int) -> tuple[int, ...]:
    """The ranks in a hand of traders (bit r-1 = rank r), lowest first."""
    if 0 <= hand <= ALL_TRADERS:
        return _HAND_RANKS[hand]
    return tuple(r + 1 for r in iter_bits(hand))


_PASSED: dict[tuple[int, int], tuple[bool, ...]] = {}


def passed_flags(passed: int, n: int) -> tuple[bool, ...]:
    """The passed flags of seats 0..n-1 (bit s of ``passed`` = seat s has passed)."""
    flags = _PASSED.get((passed, n))
    if flags is None:
        flags = tuple(bool(passed >> s & 1) for s in range(n))
        if len(_PASSED) < 1024:
            _PASSED[(passed, n)] = flags
    return flags


# ------------------------------------------------------------------ moves, made once
PASS = Pass()
DONE = Done()
SKIP = Skip()
TAKE_START = TakeStart()
PLAY_EXTRA_VISITOR = PlayExtraVisitor()
PLAY_TICKET_VISITOR = PlayTicketVisitor()
PLACE_VISITORS = tuple(PlaceVisitor(v) for v in VENUE_KEYS)
TAKE_FAVOURS = tuple(TakeFavour(k) for k in FAVOUR_KEYS)
"""Index: the favour kind."""
DRAW_FAVOURS = tuple(DrawFavour(k) for k in FAVOUR_KEYS)
"""Index: the favour kind."""
PLACES = tuple(tuple(tuple(tuple(Place(rank, line, e, b) for b in (False, True)) for e in (False, True))
                     for line in LINE_KEYS) for rank in range(9))
"""Index: rank (0 unused), line, +Trader, Rank 1→8."""
REPLAYS = tuple(tuple(PlayReplay(rank, line) for line in LINE_KEYS) for rank in range(9))
"""Index: rank (0 unused), line."""
MOVES_AHEAD = tuple(PlayMoveAhead(rank) for rank in range(9))
"""Index: rank (0 unused)."""


def phase_lines(stage: int) -> tuple[int, ...]:
    """The lines traders go to in placement phase ``stage`` (none outside phases I-III)."""
    return _PHASE_LINES[stage] if 0 <= stage < len(_PHASE_LINES) else ()


_PHASE_LINES = ((), (0,), (1,), (2, 3, 4), ())

_PLACE_MOVES: dict[tuple[int, int, bool, bool], tuple[Place, ...]] = {}


def place_moves(hand: int, stage: int, extra: bool, boost: bool) -> tuple[Place, ...]:
    """Every trader placement of ``hand`` in phase ``stage``: by rank, then line, then without
    and (if ``extra``) with +Trader, then without and (if ``boost``, rank 1 only) with Rank 1→8.

    ``extra`` says +Trader is possible (the favour held and a second trader in hand), ``boost``
    that Rank 1→8 is (the favour held). Remembered per hand, phase and flags (3,072 at most).
    """
    key = (hand, stage, extra, boost)
    moves = _PLACE_MOVES.get(key)
    if moves is None:
        extras = (False, True) if extra else (False,)
        out: list[Place] = []
        for rank in range(1, 9):
            if hand >> (rank - 1) & 1:
                for line in phase_lines(stage):
                    for e in extras:
                        for b in (False, True) if boost and rank == 1 else (False,):
                            out.append(PLACES[rank][line][e][b])
        moves = _PLACE_MOVES[key] = tuple(out)
    return moves


class CardMoves:
    """The moves of one card-data object that name its cards, made once (sales on first use),
    and its keys' indices as dictionaries (the card data looks them up by a walk)."""

    __slots__ = ("draw_tickets", "draw_visitors", "sells", "take_tickets", "ticket_index", "visitor_index")

    def __init__(self, d: CardData) -> None:
        self.take_tickets = tuple((TakeTicket(t.key, False), TakeTicket(t.key, True)) for t in d.tickets)
        """Index: ticket kind, then II +Ticket."""
        self.draw_tickets = tuple(DrawTicket(t.key) for t in d.tickets)
        self.draw_visitors = tuple(DrawVisitor(v.key) for v in d.visitors)
        self.ticket_index = {t.key: k for k, t in reversed(list(enumerate(d.tickets)))}
        self.visitor_index = {v.key: k for k, v in reversed(list(enumerate(d.visitors)))}
        self.sells: dict[tuple[str, str | None, str | None, bool, bool], Sell] = {}

    def sell(self, visitor: str, ticket: str | None, favour: str | None, legion: bool, double: bool) -> Sell:
        """The one ``Sell`` with these fields."""
        key = (visitor, ticket, favour, legion, double)
        move = self.sells.get(key)
        if move is None:
            move = self.sells[key] = Sell(visitor, ticket, favour, legion, double)
        return move
