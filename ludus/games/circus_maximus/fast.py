"""Circus Maximus fast paths: the lookup tables that make building observations cheap.

Observations are built for every decision of every rollout (the heuristic and ISMCTS read
them), so :func:`.views.observe` does not walk card sets bit by bit: it looks up the keys
of a whole card set in tables made once per card-data object, and the ranks of a hand and
the passed flags in tables made once. Each gives exactly what the plain walk gives; the
plain versions live in ``tests/games/circus_maximus/test_heuristic_speedup.py``, which
checks every observation field (and these tables directly) against them.
"""

from __future__ import annotations

from ...core.bits import iter_bits
from ...core.memo import BoundedMemo
from .cards import ALL_TRADERS, FAVOUR_KEYS, CardData

__all__ = ["ObsKeys", "hand_ranks", "passed_flags"]

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
