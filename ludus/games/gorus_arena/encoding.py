"""Exact observation encoder for Gorus Arena: every slot of the vector means one thing.

Built from one seat's :class:`~.views.GorusArenaObservation` only (never the state), so the
vector cannot show what the seat may not see. Its layout is fixed by the options: the player
count sizes the seat pieces and the card pieces hold only the cards that can be in the game
(the basics of the seats that play, the market gladiators, and the armoury's action cards
when ``armoury`` is on). The text log (``events``, ``step_events``, ``event_count``) is not
encoded as text: what it says beyond the other fields, where some hidden cards lie, is worked
out by :func:`.knowledge.placed` and encoded as certain counts per seat and kind
(``known_hand``, ``known_pile``). The order in which it narrated moves is left out.

The table of pieces is in ``docs/games/gorus-arena.md`` ("Observation encoding").
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.encoding import Piece, RowEncoder
from ...core.game import Observation
from .actions import INCOME
from .cards import ARMOURY_FIRST, BASICS_PER_SEAT, GLADIATOR_MASK, KINDS, MARKET_FIRST, NUM_CARDS, POINTS, STRENGTH
from .knowledge import kind_keys, placed
from .rules import COINS_PER_POINT, DRAW_COUNT, HAND_LIMIT, MARKET_DRAW, PLAN_SIZE, START_COINS

__all__ = ["PHASES", "GorusArenaEncoder", "card_ids", "kind_keys"]

PHASES = ("plan", "exec", "draw", "over")
"""The phases, in the order of the ``phase`` piece."""

_SOURCES = ("own", "market")


def card_ids(options: Any) -> tuple[int, ...]:
    """The card ids that can be in a game with ``options``, in slot order: card slot ``i``
    of every card piece is card id ``card_ids(options)[i]``."""
    basics = range(options.players * BASICS_PER_SEAT)
    shop = range(MARKET_FIRST, NUM_CARDS if options.armoury else ARMOURY_FIRST)
    return (*basics, *shop)


class GorusArenaEncoder(RowEncoder):
    """Exact encoding of a Gorus Arena observation (seats absolute; ``seat`` says whose view).

    Card sets are 0/1 rows over the game's cards; ordered card lists (a revealed plan, the
    seat's own plan, the execution queue) are one row per position. Counts are plain numbers
    with sound upper bounds, so every value fits its ``Piece.high``; ``known_hand`` and
    ``known_pile`` count by card kind (slot order: :func:`kind_keys`), from :func:`.knowledge.placed`.
    """

    omitted = ("events", "event_codes", "step_events", "event_count")
    """Observation keys not encoded as such: the log (as text, and as ``event_codes``) and its
    counters. What the log places of the hidden cards is encoded (``known_hand``, ``known_pile``);
    its wording and the order of its lines are not (see the module docstring)."""

    def __init__(self, options: Any) -> None:
        n, k = options.players, PLAN_SIZE
        ids = card_ids(options)
        c = len(ids)
        self.n, self.cards = n, c
        coins = START_COINS + options.rounds * PLAN_SIZE * INCOME  # income is the only source of coins
        points = sum(POINTS[i] for i in ids if GLADIATOR_MASK >> i & 1) + coins // COINS_PER_POINT
        most = float(max(DRAW_COUNT, MARKET_DRAW))
        keys = kind_keys(options)
        self.kinds = len(keys)
        # the most copies of one kind a seat can own (its basics, or every copy the shop sells)
        copies = float(max(kind.basic or kind.copies for kind in KINDS if kind.key in keys))
        self.free_plan, self.team = bool(options.free_plan), options.attack_targets == "team"
        self.pieces = (
            Piece("seat", (n,)),
            Piece("phase", (len(PHASES),)),
            Piece("start", (n,)),
            Piece("ready", (n,)),
            # the plain numbers: one run of slots, written in this order
            Piece("round", (1,), float(options.rounds)),
            Piece("coins", (n,), float(coins)),
            Piece("held", (n,), float(HAND_LIMIT)),
            Piece("planned", (n,), float(PLAN_SIZE)),
            Piece("deck_count", (n,), float(c)),
            Piece("shield", (n,), float(max(STRENGTH))),
            Piece("scores", (n,), float(points)),
            Piece("reserve", (n, c)),
            Piece("discard", (n, c)),
            Piece("known_hand", (n, len(keys)), copies),
            Piece("known_pile", (n, len(keys)), copies),
            Piece("arena", (n, k, c)),
            Piece("acted", (c,)),
            Piece("market", (c,)),
            Piece("dead", (c,)),
            Piece("slot", (k,)),
            Piece("order", (n, n)),
            Piece("round_tied", (1,)),
            Piece("tied", (1,)),
            Piece("queue_seat", (n, n)),
            Piece("queue_card", (n, c)),
            Piece("pending_seat", (n,)),
            Piece("pending_card", (c,)),
            Piece("draws_seat", (n, n)),
            Piece("draws_source", (n, len(_SOURCES))),
            Piece("draws_left", (n,), most),
            Piece("draws_drawn", (n,), most),
            Piece("hand", (c,)),
            Piece("plan", (k, c)),
            Piece("deck", (c,)),
        )
        off = self._off = self.offsets()
        self._size = self.size
        self._phase = {ph: off["phase"] + i for i, ph in enumerate(PHASES)}
        self._source = {s: i for i, s in enumerate(_SOURCES)}
        slot = [-1] * NUM_CARDS  # card id -> card slot (-1: cannot be in this game)
        beyond = 1 << 40  # the flat index of a card that cannot be here: writing it raises IndexError
        for i, card in enumerate(ids):
            slot[card] = i

        def rows(name: str, count: int) -> tuple[tuple[int, ...], ...]:
            """Per row, card id -> flat index of that card's slot in the row (a plain lookup)."""
            base = off[name]
            return tuple(tuple(base + r * c + s if s >= 0 else beyond for s in slot) for r in range(count))

        self._reserve = rows("reserve", n)
        self._discard = rows("discard", n)
        self._arena = tuple(rows("arena", n * k)[s * k:(s + 1) * k] for s in range(n))
        self._acted = rows("acted", 1)[0]
        self._market = rows("market", 1)[0]
        self._dead = rows("dead", 1)[0]
        self._queue = rows("queue_card", n)
        self._pending = rows("pending_card", 1)[0]
        self._hand = rows("hand", 1)[0]
        self._plan = rows("plan", k)
        self._deck = rows("deck", 1)[0]
        kind_slot = {key: i for i, key in enumerate(keys)}
        # per seat, kind index (in KINDS) -> flat index of that seat's slot in known_hand; known_pile is one piece on
        self._known = tuple(tuple(off["known_hand"] + s * len(keys) + kind_slot[kind.key] if kind.key in kind_slot
                                  else beyond for kind in KINDS) for s in range(n))
        self._pile = off["known_pile"] - off["known_hand"]

    def encode_into(self, obs: Observation, flat: np.ndarray) -> None:
        """Fill ``flat`` (zeroed, :attr:`size` entries) from ``obs``.

        Slots are written one by one through a memoryview of a C-contiguous float32 ``flat``:
        the card lists are tuples of ids, and converting them for a numpy scatter costs more
        than the writes themselves. Every card goes through a per-row lookup table made once.
        """
        if flat.dtype != np.float32 or not flat.flags.c_contiguous:
            tmp = np.zeros(self._size, np.float32)
            self.encode_into(obs, tmp)
            flat[...] = tmp
            return
        o: Any = obs
        m: Any = flat.data  # a memoryview ('f'): items take ints, bools and floats
        n, off = self.n, self._off
        seat = o.seat
        if seat is not None and 0 <= seat < n:
            m[off["seat"] + seat] = 1
        m[self._phase[o.phase]] = 1
        m[off["start"] + o.start] = 1
        at = off["ready"]
        for s, ready in enumerate(o.ready):
            if ready:
                m[at + s] = 1
        at = off["round"]
        m[at] = o.round
        at += 1
        for values in (o.coins, o.held, o.planned, o.deck_count, o.shield, o.scores):
            for v in values:
                m[at] = v
                at += 1
        for s in range(n):
            row = self._reserve[s]
            for c in o.reserve[s]:
                m[row[c]] = 1
            row = self._discard[s]
            for c in o.discard[s]:
                m[row[c]] = 1
            rows = self._arena[s]
            for i, c in enumerate(o.arena[s]):
                m[rows[i][c]] = 1
        pile = self._pile
        for s, placed_s in enumerate(placed(o, self.free_plan, self.team)):
            row = self._known[s]
            for k, (a, b) in placed_s.items():
                if a:
                    m[row[k]] = a
                if b:
                    m[row[k] + pile] = b
        row = self._acted
        for c in o.acted:
            m[row[c]] = 1
        row = self._market
        for c in o.market:
            m[row[c]] = 1
        row = self._dead
        for c in o.dead:
            m[row[c]] = 1
        if o.slot >= 0:
            m[off["slot"] + o.slot] = 1
        at = off["order"]
        for i, s in enumerate(o.order):
            m[at + i * n + s] = 1
        if o.round_tied:
            m[off["round_tied"]] = 1
        if o.tied:
            m[off["tied"]] = 1
        at = off["queue_seat"]
        rows = self._queue
        for i, (s, c) in enumerate(o.queue):
            m[at + i * n + s] = 1
            m[rows[i][c]] = 1
        if o.pending is not None:
            s, c = o.pending
            m[off["pending_seat"] + s] = 1
            m[self._pending[c]] = 1
        if o.draws:
            seats, sources = off["draws_seat"], off["draws_source"]
            left, drawn = off["draws_left"], off["draws_drawn"]
            for i, (s, source, still, done) in enumerate(o.draws):
                m[seats + i * n + s] = 1
                m[sources + i * 2 + self._source[source]] = 1
                m[left + i] = still
                m[drawn + i] = done
        row = self._hand
        for c in o.hand:
            m[row[c]] = 1
        rows = self._plan
        for i, c in enumerate(o.plan):
            m[rows[i][c]] = 1
        row = self._deck
        for c in o.deck:
            m[row[c]] = 1
