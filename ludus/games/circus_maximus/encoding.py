"""Exact observation encoder for Circus Maximus: every slot of the vector means one thing.

The observation names cards by kind (ids of one kind are consecutive, so a card set's key
tuple is its multiset of kinds, sorted), so a card zone is encoded as one count per kind.
Queues, sales and pending draws are ordered in the observation, so they are encoded as
sequences: a trader's line and place in it, a sale's slot in its seat's list, a draw's slot
in the queue. Fields fixed by the options (``players``, ``cards``) or by another field
(``phase_name`` by ``phase``) take no slots; see "Observation encoding" in
``docs/games/circus-maximus.md`` for the table.

Speed: the key tuples of a card zone recur all the time, so each (zone, tuple) is turned
into flat indices and counts once and remembered; an observation is then a handful of dict
look-ups and writes of the set slots alone.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.encoding import Piece, RowEncoder
from ...core.game import CHANCE, Observation
from .actions import LINE_KEYS
from .cards import FAVOUR_KEYS, VENUE_KEYS, CardData

__all__ = ["CircusMaximusEncoder"]

DAYS = 3  # rules.DAYS (not imported: the encoder does not load the engine)
PHASES = 5  # 0 dealing, 1-3 placement phases, 4 over
RANKS = 8
TASKS = ("F", "T", "S", "SV", "V", "VP", "TP")  # rules.TASKS, in that order
_MEMO_LIMIT = 1 << 14  # (zone, key tuple) entries remembered; cleared when full


class CircusMaximusEncoder(RowEncoder):
    """Exact encoding of a Circus Maximus observation, sized from the options.

    ``n`` players, ``T`` ticket kinds, ``V`` visitor kinds and the 9 favour kinds of the card
    data the options name; ``S`` sales at most per seat and day, ``Q`` pending draws at most.
    """

    def __init__(self, options: Any) -> None:
        from .game import GAME  # the Game (and its card loader); not the engine's rules

        opts = GAME.parse_options(options)
        d: CardData = GAME.cards(opts)
        n = opts.players
        self.n = n
        tickets = [t.key for t in d.tickets]
        visitors = [v.key for v in d.visitors]
        nt, nv, nf = len(tickets), len(visitors), len(FAVOUR_KEYS)
        self.nt, self.nv, self.nf = nt, nv, nf
        self.ticket_ix = {k: i for i, k in enumerate(tickets)}
        self.visitor_ix = {k: i for i, k in enumerate(visitors)}
        self.favour_ix = {k: i for i, k in enumerate(FAVOUR_KEYS)}
        # what a sale sold: a ticket kind, or "favour:<key>" (a favour sold beside Caesar)
        self.what_ix = {**self.ticket_ix, **{"favour:" + k: nt + i for i, k in enumerate(FAVOUR_KEYS)}}
        self.line_ix = {k: i for i, k in enumerate(LINE_KEYS)}
        self.task_ix = {k: i for i, k in enumerate(TASKS)}

        # Bounds (see the docs): a seat's trader picks at most twice (the second needs a
        # III +Ticket favour), and each sale takes a visitor, so sales per seat and day are
        # at most min(visitors, 8 + III +Ticket cards).
        visitor_cards = sum(v.count for v in d.visitors)
        double_sales = d.favours[FAVOUR_KEYS.index("double_sale")].count
        sales = min(visitor_cards, RANKS + double_sales)
        sale_high = (max([t.coins for t in d.tickets] + [f.coins for f in d.favours])
                     + max([v.coins for v in d.visitors] + [d.legionnaire_pays]) + (DAYS - 1))
        day_high = sales * sale_high + sum(d.trader_coins)
        favour_high = sum(f.count * f.coins for f in d.favours)
        line_len = RANKS * n  # every trader in one line
        queue = 3 * n + DAYS  # a day's dealing queue is the longest (see the docs)
        most_t = float(max(t.count for t in d.tickets))
        most_v = float(max(v.count for v in d.visitors))
        most_f = float(max(f.count for f in d.favours))
        self.sales, self.queue, self.line_len = sales, queue, line_len

        self.pieces = (
            Piece("seat", (n,)),
            Piece("caesar_variant", (1,)),
            Piece("start_card_extra_pick", (1,)),
            Piece("day", (DAYS,)),
            Piece("phase", (PHASES,)),
            Piece("resolving", (1,)),
            Piece("to_act", (n + 1,)),
            Piece("starting", (n,)),
            Piece("start_card_at_villa", (1,)),
            Piece("turn", (n,)),
            Piece("passed", (n,)),
            Piece("extra_traders", (1,)),
            Piece("pending_visitor", (nv,)),
            Piece("resolving_line", (len(LINE_KEYS),)),
            Piece("resolving_index", (line_len + 1,)),
            Piece("second_pick", (1,)),
            Piece("trader_line", (n, RANKS, len(LINE_KEYS))),
            Piece("trader_place", (n, RANKS), float(line_len)),
            Piece("trader_effective", (n, RANKS), float(RANKS)),
            Piece("hands", (n, RANKS)),
            Piece("favours", (n, nf), most_f),
            Piece("tickets", (n, nt), most_t),
            Piece("sales_what", (n, sales, nt + nf)),
            Piece("sales_visitor", (n, sales, nv)),
            Piece("sales_coins", (n, sales), float(sale_high)),
            Piece("past_sales_day", (DAYS,)),
            Piece("past_sales_what", (DAYS, n, sales, nt + nf)),
            Piece("past_sales_visitor", (DAYS, n, sales, nv)),
            Piece("past_sales_coins", (DAYS, n, sales), float(sale_high)),
            Piece("favour_display", (nf,), most_f),
            Piece("forum", (nt,), most_t),
            Piece("venues", (len(VENUE_KEYS), nv), most_v),
            Piece("bonus", (len(VENUE_KEYS),), float(DAYS - 1)),
            Piece("caesar_used", (1,)),
            Piece("favour_deck", (nf,), most_f),
            Piece("ticket_deck", (nt,), most_t),
            Piece("visitor_deck", (nv,), most_v),
            Piece("favours_out", (nf,), most_f),
            Piece("visitors_out", (nv,), most_v),
            Piece("draws_task", (queue, len(TASKS))),
            Piece("draws_arg", (queue, n)),
            Piece("setup_tickets", (len(VENUE_KEYS),), float(2 * n)),
            Piece("scores", (n,), float(DAYS * day_high + favour_high)),
            Piece("day_scored", (DAYS,)),
            Piece("day_scores", (DAYS, n), float(day_high)),
            Piece("favour_coins_known", (1,)),
            Piece("favour_coins", (n,), float(favour_high)),
        )
        self.at = self.offsets()
        self._size = self.size
        self._memo: dict[tuple[int, tuple[Any, ...]], tuple[tuple[int, float], ...]] = {}
        self._seen: dict[int, tuple[dict[str, np.ndarray], np.ndarray | None]] = {}


    # ----------------------------------------------------------------- card zones
    def _zone(self, base: int, keys: tuple[Any, ...], index: dict[Any, int]) -> tuple[tuple[int, float], ...]:
        """(flat index, count) of each kind in ``keys``, for a piece row at ``base`` (remembered)."""
        memo = self._memo
        hit = memo.get((base, keys))
        if hit is not None:
            return hit
        counts: dict[int, float] = {}
        for k in keys:
            i = base + index[k]
            counts[i] = counts.get(i, 0.0) + 1.0
        out = tuple(counts.items())
        if len(memo) >= _MEMO_LIMIT:
            memo.clear()
        memo[(base, keys)] = out
        return out

    def _sales(self, base_what: int, base_vis: int, base_coins: int,
               seats: tuple[tuple[tuple[str, str, int], ...], ...], m: Any) -> None:
        s_n = self.sales
        w_n, v_n = self.nt + self.nf, self.nv
        w_row, v_row = s_n * w_n, s_n * v_n
        what_ix, vis_ix = self.what_ix, self.visitor_ix
        for seat, sold in enumerate(seats):
            w, v, c = base_what + seat * w_row, base_vis + seat * v_row, base_coins + seat * s_n
            for what, visitor, coins in sold:
                m[w + what_ix[what]] = 1.0
                m[v + vis_ix[visitor]] = 1.0
                m[c] = coins
                w += w_n
                v += v_n
                c += 1

    # ----------------------------------------------------------------- encoding
    def encode_into(self, obs: Observation, flat: np.ndarray) -> None:
        """Fill ``flat`` (zeroed, :attr:`size` entries) from ``obs``.

        Slots are written one by one through a memoryview (a C-contiguous float32 ``flat``):
        cheaper than gathering indices for one numpy scatter, whose list conversion costs
        more than the writes themselves.
        """
        if flat.dtype != np.float32 or not flat.flags.c_contiguous:
            tmp = np.zeros(self._size, np.float32)
            self.encode_into(obs, tmp)
            flat[...] = tmp
            return
        o: Any = obs
        m: Any = flat.data  # a memoryview; typeshed types its items as int; float32 slots take floats
        at = self.at
        n = self.n

        if o.seat is not None:
            m[at["seat"] + o.seat] = 1.0
        if o.caesar_variant:
            m[at["caesar_variant"]] = 1.0
        if o.start_card == "extra-pick":
            m[at["start_card_extra_pick"]] = 1.0
        m[at["day"] + o.day - 1] = 1.0
        m[at["phase"] + o.phase] = 1.0
        if o.resolving:
            m[at["resolving"]] = 1.0
        for s in o.to_act:
            m[at["to_act"] + (n if s == CHANCE else s)] = 1.0
        m[at["starting"] + o.starting] = 1.0
        if o.start_card_at_villa:
            m[at["start_card_at_villa"]] = 1.0
        m[at["turn"] + o.turn] = 1.0
        base = at["passed"]
        for s, p in enumerate(o.passed):
            if p:
                m[base + s] = 1.0
        if o.extra_traders:
            m[at["extra_traders"]] = o.extra_traders
        if o.pending_visitor is not None:
            m[at["pending_visitor"] + self.visitor_ix[o.pending_visitor]] = 1.0
        if o.resolving_line is not None:
            m[at["resolving_line"] + self.line_ix[o.resolving_line]] = 1.0
        if o.resolving_index >= 0:
            m[at["resolving_index"] + o.resolving_index] = 1.0
        if o.second_pick:
            m[at["second_pick"]] = 1.0
        if o.caesar_used:
            m[at["caesar_used"]] = 1.0
        b_line, b_place, b_eff = at["trader_line"], at["trader_place"], at["trader_effective"]
        for li, line in enumerate(o.lines):
            for pos, (seat, rank, eff) in enumerate(line, 1):
                t = seat * RANKS + rank - 1
                m[b_line + t * 5 + li] = 1.0
                m[b_place + t] = pos
                m[b_eff + t] = eff
        base = at["hands"]
        for seat, hand in enumerate(o.hands):
            b = base + seat * RANKS - 1
            for rank in hand:
                m[b + rank] = 1.0
        zone = self._zone
        fav_ix, tkt_ix, vis_ix = self.favour_ix, self.ticket_ix, self.visitor_ix
        for base, keys, index in (
            (at["favour_display"], o.favour_display, fav_ix),
            (at["forum"], o.forum, tkt_ix),
            (at["favour_deck"], o.favour_deck, fav_ix),
            (at["ticket_deck"], o.ticket_deck, tkt_ix),
            (at["visitor_deck"], o.visitor_deck, vis_ix),
            (at["favours_out"], o.favours_out, fav_ix),
            (at["visitors_out"], o.visitors_out, vis_ix),
        ):
            if keys:
                for i, c in zone(base, keys, index):
                    m[i] = c
        for rows, base, width, index in (
            (o.favours, at["favours"], self.nf, fav_ix),
            (o.tickets, at["tickets"], self.nt, tkt_ix),
            (o.venues, at["venues"], self.nv, vis_ix),
        ):
            for r, keys in enumerate(rows):
                if keys:
                    for i, c in zone(base + r * width, keys, index):
                        m[i] = c
        for name, values in (("bonus", o.bonus), ("setup_tickets", o.setup_tickets), ("scores", o.scores)):
            base = at[name]
            for j, x in enumerate(values):
                if x:
                    m[base + j] = x
        draws = o.draws
        if draws:
            b_task, b_arg, task_ix = at["draws_task"], at["draws_arg"], self.task_ix
            for j, (code, arg) in enumerate(draws):
                m[b_task + j * 7 + task_ix[code]] = 1.0
                m[b_arg + j * n + arg] = 1.0
        day_scores = o.day_scores
        if day_scores:
            flag, base = at["day_scored"], at["day_scores"]
            for day, row in enumerate(day_scores):
                m[flag + day] = 1.0
                for s, x in enumerate(row):
                    if x:
                        m[base + day * n + s] = x
        if o.favour_coins is not None:
            m[at["favour_coins_known"]] = 1.0
            base = at["favour_coins"]
            for s, x in enumerate(o.favour_coins):
                if x:
                    m[base + s] = x
        if any(o.sales):
            self._sales(at["sales_what"], at["sales_visitor"], at["sales_coins"], o.sales, m)
        past = o.past_sales
        if past:
            w_day = n * self.sales * (self.nt + self.nf)
            v_day = n * self.sales * self.nv
            c_day = n * self.sales
            flag = at["past_sales_day"]
            for day, seats in enumerate(past):
                m[flag + day] = 1.0
                self._sales(at["past_sales_what"] + day * w_day, at["past_sales_visitor"] + day * v_day,
                            at["past_sales_coins"] + day * c_day, seats, m)

    def write(self, obs: Observation, views: dict[str, np.ndarray]) -> None:
        """Fill the (zeroed) ``views``; straight into their buffer when they are this encoder's
        layout of one (as :meth:`views` makes them, e.g. OpenSpiel's observer tensor)."""
        flat = self._flat_under(views)
        if flat is not None:
            self.encode_into(obs, flat)
            return
        for name, part in self.views(self.encode(obs)).items():
            views[name][...] = part

    def _flat_under(self, views: dict[str, np.ndarray]) -> np.ndarray | None:
        """The flat float32 array ``views`` were cut from, if they lie exactly as :meth:`views`
        cuts them; remembered per views object (kept alive, so its id is not reused)."""
        seen = self._seen.get(id(views))
        if seen is not None and seen[0] is views:
            return seen[1]
        flat = None
        first = views.get(self.pieces[0].name)
        base = getattr(first, "base", None)
        if (first is not None and isinstance(base, np.ndarray) and base.dtype == np.float32
                and base.ndim == 1 and base.flags.c_contiguous):
            off, rest = divmod(first.ctypes.data - base.ctypes.data, 4)
            if rest == 0 and off >= 0 and off + self._size <= base.size:
                cand = base[off:off + self._size]
                mine = self.views(cand)
                if mine.keys() == views.keys() and all(
                        v.ctypes.data == mine[k].ctypes.data and v.shape == mine[k].shape
                        and v.strides == mine[k].strides for k, v in views.items()):
                    flat = cand
        if len(self._seen) >= 64:
            self._seen.clear()
        self._seen[id(views)] = (views, flat)
        return flat
